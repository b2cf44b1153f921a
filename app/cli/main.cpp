#include "commands.h"
#include "common/coretranslation.h"
#include "common/version.h"
#include "comparecommands.h"
#include "costcommands.h"
#include "reportrenderer.h"
#include "studycommand.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstring>

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
           "  compare    compare stored runs side by side, with the comparability verdict\n"
           "  report     HTML / PDF / CSV / JSON report and the acceptance bundle of runs\n"
           "  import     import a `vllm bench serve --save-result` JSON file as a run\n"
           "  merge      combine the results of agents that ran `run --shard I/N` into one run\n"
           "  bills      import or list bill items (--project FILE; docs/cost.md)\n"
           "  window     create a test window over runs, list windows, set overlap rules\n"
           "  cost       cost breakdown and unit costs of a test window\n"
           "  study      run a selection study (candidates x scenarios x repeats), its status,\n"
           "             decision, report and acceptance bundle (docs/study.md)\n"
           "  simulate   serve the built-in OpenAI-compatible streaming simulator\n"
           "  audit-cache  find out whether a server caches prompt prefixes (TTFT and "
           "cached_tokens)\n"
           "  version    print the tool version\n\n"
           "`servebench-cli <command> --help` lists a command's options.\n";
}
} // namespace

int main(int argc, char **argv)
{
    // Only `report`, `study report` and `study bundle` render (charts, PDF) and need a
    // QGuiApplication.
    const bool gui =
        argc > 1 &&
        (std::strcmp(argv[1], "report") == 0 ||
         (argc > 2 && std::strcmp(argv[1], "study") == 0 &&
          (std::strcmp(argv[2], "report") == 0 || std::strcmp(argv[2], "bundle") == 0)));
    const auto app = sb::makeApplication(argc, argv, gui);
    QCoreApplication::setApplicationName(u"servebench-cli"_s);
    QCoreApplication::setApplicationVersion(QString::fromLatin1(sb::toolVersion()));
    // Core's texts (validation errors, verdicts, notes, the HTML report) in the locale's
    // language; the vLLM-compatible summary block, JSON and CSV stay English.
    sb::installCoreTranslation(sb::languageFromEnvironment());
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
    if (command == "merge"_L1)
        return sb::cli::mergeCommand(args);
    if (command == "bills"_L1)
        return sb::cli::billsCommand(args);
    if (command == "window"_L1)
        return sb::cli::windowCommand(args);
    if (command == "cost"_L1)
        return sb::cli::costCommand(args);
    if (command == "compare"_L1)
        return sb::cli::compareCommand(args);
    if (command == "report"_L1)
        return sb::cli::reportCommand(args);
    if (command == "import"_L1)
        return sb::cli::importCommand(args);
    if (command == "study"_L1)
        return sb::cli::studyCommand(args);
    if (command == "simulate"_L1)
        return simulateCommand(args);
    if (command == "audit-cache"_L1)
        return sb::cli::auditCacheCommand(args);
    if (command == "version"_L1 || command == "--version"_L1) {
        out << "servebench-cli " << sb::toolVersion() << "\n";
        return 0;
    }
    err << "servebench-cli: unknown command '" << command << "'\n";
    printUsage(err);
    return 2;
}
