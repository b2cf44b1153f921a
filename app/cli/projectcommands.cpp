// `runs`, `show` and `export`: what a project file holds, always recomputed from raw records.
#include "commands.h"

#include "args.h"
#include "runreport.h"

#include "report/serverreport.h"
#include "report/vllmimport.h"
#include "store/projectstore.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace sb::cli {

namespace {

bool openProject(const Args &a, const QString &command, ProjectStore *store, int *code)
{
    const QString path = a.value(u"project"_s);
    if (path.isEmpty()) {
        *code = fail(command, u"--project FILE is required"_s, 2);
        return false;
    }
    if (!QFileInfo::exists(path)) {
        *code = fail(command, u"--project %1: no such file"_s.arg(path));
        return false;
    }
    // Reading never changes the file: a newer or foreign file is refused, never migrated.
    if (!store->open(path, ProjectStore::OpenMode::ReadOnly)) {
        *code = fail(command, u"--project %1: %2"_s.arg(path, store->lastError()));
        return false;
    }
    return true;
}

// forPrint: the records come without their chunk lists and the summary is streamed from the
// file (what `show` prints needs no more); the exports need every chunk.
bool loadRunInput(const Args &a, const QString &command, const ProjectStore &store,
                  RunReportInput *in, int *code, bool forPrint = false)
{
    bool ok = false;
    const qint64 id = a.value(u"run"_s).toLongLong(&ok);
    if (!ok || id <= 0) {
        *code = fail(command, u"--run expects a run id (see `servebench-cli runs`)"_s, 2);
        return false;
    }
    const auto run = store.loadRun(id);
    if (!run) {
        *code = fail(command, u"--run %1: no such run in %2"_s.arg(id).arg(store.path()));
        return false;
    }
    in->plan = RunPlan::fromJson(run->snapshot);
    if (forPrint) {
        QString error;
        StoredRunPasses passes;
        // What is printed from the records needs none of their texts, nor ITL intervals.
        passes.recordTexts = false;
        passes.itlIntervals = false;
        if (!loadStoredRunForReport(store, id, SummaryOptions::forProfile(in->plan.profile), in,
                                    &error, passes)) {
            *code = fail(command, u"--run %1: %2"_s.arg(id).arg(error));
            return false;
        }
    } else {
        in->records = store.loadRequests(id);
    }
    // Imported without per-request results: the file's own summary, not one of no records.
    RunSummary fileSummary;
    if (importedFileSummary(run->snapshot, run->summary, &fileSummary))
        in->summary = fileSummary;
    in->snapshot = run->snapshot;
    in->datasetInfo = run->snapshot.value(u"dataset_info"_s).toObject();
    in->datasetHash = in->datasetInfo.value(u"sha256"_s).toString();
    in->status = QString::fromLatin1(storedRunStatusName(run->status));
    in->statusMessage = run->statusMessage;
    in->transport = run->summary.value(u"transport"_s).toString();
    in->transportCounters = run->summary.value(u"transport_counters"_s).toObject();
    in->clientLoad = clientLoadOfSummary(run->summary);
    in->wallStart = run->startedUtc;
    in->runStartNs = run->startedMonoNs;
    QString why;
    if (!loadServerMetrics(store, id, &in->serverMetrics, &why)) {
        *code = fail(command, u"--run %1: %2"_s.arg(id).arg(why));
        return false;
    }
    return true;
}

Args projectArgs(bool withRun, bool withExport)
{
    QList<OptionSpec> specs = {{u"project"_s, OptionSpec::Value, u"project file"_s, {}},
                               {u"help"_s, OptionSpec::Flag, u"show this help"_s, {}}};
    if (withRun)
        specs.append({u"run"_s, OptionSpec::Value, u"run id"_s, {}});
    if (withExport) {
        specs.append({u"format"_s, OptionSpec::Value, u"json | csv"_s, {}});
        specs.append({u"output"_s, OptionSpec::Value, u"file to write (default: stdout)"_s, {}});
    }
    return Args(specs);
}

} // namespace

int runsCommand(const QStringList &argv)
{
    Args a = projectArgs(false, false);
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"runs"_s, error, 2);
    if (a.has(u"help"_s)) {
        QTextStream(stdout) << "usage: servebench-cli runs --project FILE\n\n" << a.helpText();
        return 0;
    }
    ProjectStore store;
    int code = 0;
    if (!openProject(a, u"runs"_s, &store, &code))
        return code;
    QTextStream out(stdout);
    out << u"%1  %2  %3  %4  %5  %6  %7\n"_s.arg(u"id"_s, 4)
               .arg(u"name"_s, -24)
               .arg(u"SUT"_s, -22)
               .arg(u"scenario"_s, -13)
               .arg(u"status"_s, -11)
               .arg(u"requests"_s, 8)
               .arg(u"started (UTC)"_s);
    for (const RunInfo &r : store.listRuns()) {
        const auto full = store.loadRun(r.id);
        const RunPlan plan = full ? RunPlan::fromJson(full->snapshot) : RunPlan();
        out << u"%1  %2  %3  %4  %5  %6  %7\n"_s.arg(r.id, 4)
                   .arg(r.name.left(24), -24)
                   .arg(plan.sut.name.left(22), -22)
                   .arg(QString::fromLatin1(scenarioName(plan.profile.scenario)), -13)
                   .arg(QString::fromLatin1(storedRunStatusName(r.status)), -11)
                   .arg(r.requestCount, 8)
                   .arg(r.startedUtc.toString(Qt::ISODate));
    }
    return 0;
}

int showCommand(const QStringList &argv)
{
    Args a = projectArgs(true, false);
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"show"_s, error, 2);
    if (a.has(u"help"_s)) {
        QTextStream(stdout) << "usage: servebench-cli show --project FILE --run ID\n\n"
                            << a.helpText();
        return 0;
    }
    ProjectStore store;
    int code = 0;
    RunReportInput in;
    if (!openProject(a, u"show"_s, &store, &code) ||
        !loadRunInput(a, u"show"_s, store, &in, &code, true))
        return code;
    QTextStream(stdout) << formatRunReport(in);
    return 0;
}

int exportCommand(const QStringList &argv)
{
    Args a = projectArgs(true, true);
    QString error;
    if (!a.parse(argv, &error))
        return fail(u"export"_s, error, 2);
    if (a.has(u"help"_s)) {
        QTextStream(stdout) << "usage: servebench-cli export --project FILE --run ID --format "
                               "json|csv [--output F]\n\n"
                            << a.helpText();
        return 0;
    }
    const QString format = a.value(u"format"_s, u"json"_s);
    if (format != "json"_L1 && format != "csv"_L1)
        return fail(u"export"_s, u"--format must be json or csv, got '%1'"_s.arg(format), 2);
    ProjectStore store;
    int code = 0;
    RunReportInput in;
    if (!openProject(a, u"export"_s, &store, &code) ||
        !loadRunInput(a, u"export"_s, store, &in, &code))
        return code;
    const QByteArray data =
        format == "csv"_L1 ? requestsCsv(in)
                           : QJsonDocument(runResultJson(in, true)).toJson(QJsonDocument::Indented);
    if (!a.has(u"output"_s)) {
        QFile out;
        out.open(stdout, QIODevice::WriteOnly);
        out.write(data);
        return 0;
    }
    QSaveFile f(a.value(u"output"_s));
    if (!f.open(QIODevice::WriteOnly) || f.write(data) < 0 || !f.commit())
        return fail(u"export"_s, u"--output %1: %2"_s.arg(a.value(u"output"_s), f.errorString()));
    return 0;
}

} // namespace sb::cli
