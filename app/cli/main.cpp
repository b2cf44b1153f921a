#include "common/version.h"

#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTextStream(stdout) << "servebench-cli " << sb::toolVersion() << "\n";
    return 0;
}
