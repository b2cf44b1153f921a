#include "args.h"

#include <QTextStream>

namespace sb::cli {

int fail(const QString &command, const QString &message, int code)
{
    QTextStream(stderr) << "servebench-cli " << command << ": error: " << message << "\n";
    return code;
}

} // namespace sb::cli
