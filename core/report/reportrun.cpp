#include "reportrun.h"

#include "report/bundle.h"
#include "report/serverreport.h"
#include "report/vllmimport.h"
#include "store/projectstore.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace sb {

using namespace Qt::StringLiterals;

QDateTime ReportRun::wallTime(qint64 monoNs) const
{
    if (!info.startedUtc.isValid() || monoNs <= 0)
        return {};
    return info.startedUtc.addMSecs((monoNs - info.startedMonoNs) / 1'000'000);
}

bool loadReportRun(const ProjectStore &store, qint64 runId, ReportRun *out, QString *error)
{
    const auto run = store.loadRun(runId);
    if (!run) {
        if (error)
            *error = u"run %1: no such run in %2"_s.arg(runId).arg(store.path());
        return false;
    }
    ReportRun r;
    r.id = runId;
    r.info = *run;
    // Reports travel further than the project: scrub the snapshot (and the command line inside
    // it, which scrubSecrets() cannot see into) once here, so every output shows the same text.
    r.info.snapshot = scrubSecrets(run->snapshot);
    if (r.info.snapshot.contains(u"command"_s))
        r.info.snapshot[u"command"_s] =
            scrubCommandLine(r.info.snapshot.value(u"command"_s).toString());
    RunReportInput &in = r.input;
    in.plan = RunPlan::fromJson(run->snapshot);
    in.snapshot = r.info.snapshot;
    in.datasetInfo = run->snapshot.value(u"dataset_info"_s).toObject();
    in.datasetHash = in.datasetInfo.value(u"sha256"_s).toString();
    in.status = QString::fromLatin1(storedRunStatusName(run->status));
    in.statusMessage = run->statusMessage;
    in.transport = run->summary.value(u"transport"_s).toString();
    in.transportCounters = run->summary.value(u"transport_counters"_s).toObject();
    in.clientLoad = clientLoadOfSummary(run->summary);
    in.cachePolicy = run->summary.value(u"cache_policy"_s).toObject();
    if (const QString instance = run->snapshot.value(u"managed_server"_s)
                                     .toObject()
                                     .value(u"instance"_s)
                                     .toString();
        !instance.isEmpty())
        r.serverLog = store.loadServerLog(instance);
    in.wallStart = run->startedUtc;
    in.runStartNs = run->startedMonoNs;
    in.records = store.loadRequests(runId);
    if (!loadServerMetrics(store, runId, &in.serverMetrics, error))
        return false;

    const QJsonObject imported = run->snapshot.value(u"imported"_s).toObject();
    r.imported = !imported.isEmpty();
    r.rawRecords = !r.imported || imported.value(u"raw_records"_s).toBool(true);
    if (!importedFileSummary(run->snapshot, run->summary, &r.summary)) {
        // deriveRun marks what an imported run's records cannot tell (markImportedUnavailable).
        r.derived = deriveRun(in);
        r.summary = r.derived.summary;
    } else {
        r.noteMessages << Message("run.note.imported_summary");
    }
    if (r.imported) {
        // vLLM does not save its goodput SLOs, so a recomputation has none: show the file's.
        const QJsonObject file = run->summary.value(u"imported_file_summary"_s).toObject();
        if (!r.summary.goodputSet && file.value(u"request_goodput"_s).isDouble()) {
            r.summary.goodputSet = true;
            r.summary.requestGoodput = file.value(u"request_goodput"_s).toDouble();
        }
        // The import stored its notes in English (vllmimport.cpp); their catalogue entries
        // (import.note.*) let fromEnglish() show them in the reader's language.
        for (const QJsonValue &n : imported.value(u"notes"_s).toArray()) {
            const Message m = Message::fromEnglish(n.toString());
            if (!r.noteMessages.contains(m))
                r.noteMessages << m;
        }
    }
    r.notes = messageTexts(r.noteMessages);
    const QString name = run->name.isEmpty() ? in.plan.sut.name : run->name;
    r.label = u"#%1 %2"_s.arg(runId).arg(name.size() > 28 ? name.left(27) + u'…' : name);
    *out = std::move(r);
    return true;
}

void markSeries(const QList<StoredSweep> &sweeps, ReportRun *run)
{
    for (const StoredSweep &s : sweeps) {
        if (s.id != run->info.sweepId || s.kind != "series"_L1)
            continue;
        run->seriesId = s.id;
        run->seriesName = s.name;
        run->seriesCacheState = s.config.value(u"cache_state"_s).toString();
        return;
    }
}

bool loadReportRuns(const ProjectStore &store, const QList<qint64> &runIds, QList<ReportRun> *out,
                    QString *error)
{
    out->clear();
    const QList<StoredSweep> sweeps = store.listSweeps();
    for (qint64 id : runIds) {
        ReportRun r;
        if (!loadReportRun(store, id, &r, error))
            return false;
        markSeries(sweeps, &r);
        out->append(std::move(r));
    }
    return true;
}

bool parseRunIds(const QString &text, QList<qint64> *out, QString *error)
{
    out->clear();
    static const QRegularExpression sep(u"[,\\s]+"_s);
    for (const QString &part : text.split(sep, Qt::SkipEmptyParts)) {
        bool ok = false;
        const qint64 id = part.toLongLong(&ok);
        if (!ok || id <= 0) {
            if (error)
                *error = u"'%1' is not a run id (see `servebench-cli runs`)"_s.arg(part);
            return false;
        }
        if (out->contains(id)) {
            if (error)
                *error = u"run %1 is listed twice"_s.arg(id);
            return false;
        }
        out->append(id);
    }
    if (out->isEmpty()) {
        if (error)
            *error = u"no run ids given"_s;
        return false;
    }
    return true;
}

} // namespace sb
