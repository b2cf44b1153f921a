#include "commands.h"
#include "common/version.h"

#include <QCoreApplication>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace {
void printUsage(QTextStream &out)
{
    out << "usage: servebench-cli <command> [options]\n\n"
           "commands:\n"
           "  run        benchmark an OpenAI-compatible endpoint (vLLM bench serve flags);\n"
           "             without an endpoint it runs against the built-in simulator\n"
           "  runs       list the runs of a project file (--project FILE)\n"
           "  show       print a stored run's summary, recomputed from its raw records\n"
           "  export     write a stored run as vLLM-compatible JSON or per-request CSV\n"
           "  simulate   serve the built-in OpenAI-compatible streaming simulator\n"
           "  version    print the tool version\n\n"
           "`servebench-cli <command> --help` lists a command's options.\n";
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"servebench-cli"_s);
    QCoreApplication::setApplicationVersion(QString::fromLatin1(sb::toolVersion()));
    QStringList args = QCoreApplication::arguments().mid(1);
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (args.isEmpty() || args.first() == "--help"_L1 || args.first() == "-h"_L1 ||
        args.first() == "help"_L1) {
        printUsage(args.isEmpty() ? err : out);
        return args.isEmpty() ? 2 : 0;
    }
    const QString command = args.takeFirst();
    if (command == "run"_L1 || command == "bench"_L1)
        return sb::cli::runCommand(args);
    if (command == "runs"_L1)
        return sb::cli::runsCommand(args);
    if (command == "show"_L1)
        return sb::cli::showCommand(args);
    if (command == "export"_L1)
        return sb::cli::exportCommand(args);
    if (command == "simulate"_L1)
        return simulateCommand(args);
    if (command == "version"_L1 || command == "--version"_L1) {
        out << "servebench-cli " << sb::toolVersion() << "\n";
        return 0;
    }
    err << "servebench-cli: unknown command '" << command << "'\n";
    printUsage(err);
    return 2;
}
