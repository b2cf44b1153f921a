#include "mainwindow.h"

#include <QApplication>

using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(u"ServeBench"_s);
    QApplication::setOrganizationName(u"ServeBench"_s);
    QApplication::setApplicationVersion(QString::fromLatin1(SERVEBENCH_VERSION));
    sb::MainWindow w;
    w.show();
    return app.exec();
}
