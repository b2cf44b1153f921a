// `merge`: the result files of N agents that ran `run --shard I/N` become one run of the plan,
// recorded in a project and summarized from the union of the raw records.
#include "commands.h"

#include "args.h"
#include "data/dataset.h"
#include "run/runrecorder.h"
#include "runreport.h"
#include "shard/shardmerge.h"
#include "shard/shardrecords.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace sb::cli {

namespace {

int fail(const QString &message, int code = 1)
{
    return sb::cli::fail(u"merge"_s, message, code);
}

} // namespace

int mergeCommand(const QStringList &argv)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    Args a({
        {u"help"_s, OptionSpec::Flag, u"show this help"_s, {}},
        {u"project"_s,
         OptionSpec::Value,
         u"record the merged run into this project file (created when missing)"_s,
         {}},
        {u"name"_s, OptionSpec::Value, u"a name for the merged run"_s, {}},
        {u"save-result"_s, OptionSpec::Flag, u"also write the merged result JSON"_s, {}},
        {u"save-detailed"_s, OptionSpec::Flag, u"include per-request arrays in the JSON"_s, {}},
        {u"result-dir"_s, OptionSpec::Value, u"folder for the result JSON"_s, {}},
        {u"result-filename"_s,
         OptionSpec::Value,
         u"file name of the result JSON (default merged-<plan hash>.json)"_s,
         {}},
    });
    QString error;
    if (!a.parse(argv, &error))
        return fail(error, 2);
    if (a.has(u"help"_s)) {
        out << "usage: servebench-cli merge --project FILE [options] RESULT...\n\n"
               "Combines the results of agents that ran `servebench-cli run --shard I/N` (result\n"
               "JSON from --save-result --save-detailed, or project files from --project) into\n"
               "one run. Statistics are recomputed from the union of the raw records.\n\n"
            << a.helpText();
        return 0;
    }
    const QString project = a.value(u"project"_s);
    if (project.isEmpty() && !a.has(u"save-result"_s))
        return fail(u"--project FILE is required (or --save-result)"_s, 2);
    if (a.positional().isEmpty())
        return fail(u"give the agents' result files (JSON or project files)"_s, 2);

    QList<ShardRun> runs;
    QStringList inputs;
    for (const QString &path : a.positional()) {
        // A folder stands for the result JSON files in it: a container's exec-form command has
        // no shell to expand a glob.
        if (QFileInfo(path).isDir()) {
            const QDir dir(path);
            const QStringList files = dir.entryList({u"*.json"_s}, QDir::Files, QDir::Name);
            if (files.isEmpty())
                return fail(u"%1 holds no *.json result file"_s.arg(path));
            for (const QString &f : files)
                inputs.append(dir.filePath(f));
        } else {
            inputs.append(path);
        }
    }
    for (const QString &path : std::as_const(inputs))
        if (!loadShardRuns(path, &runs, &error))
            return fail(error);
    MergedRun merged;
    if (!mergeShardRuns(runs, &merged, &error))
        return fail(error);

    RunReportInput in;
    in.plan = merged.plan;
    in.plan.name = a.value(u"name"_s, merged.plan.name);
    in.records = merged.records;
    in.datasetHash = merged.datasetHash;
    in.datasetInfo = merged.datasetInfo;
    in.status = merged.status;
    in.transport = u"merged"_s;
    in.runStartNs = merged.startNs;
    in.wallStart = merged.wallStart;
    in.snapshot = merged.snapshot;

    out << formatRunReport(in);
    const QJsonObject mergeInfo = merged.snapshot.value(u"merge"_s).toObject();
    out << "\n---------------Merged from " << merged.hosts.size() << " agents---------------\n";
    for (const QJsonValue &v : mergeInfo.value(u"shards"_s).toArray()) {
        const QJsonObject s = v.toObject();
        const QJsonObject off = s.value(u"clock_offset"_s).toObject();
        out << "shard " << s.value(u"index"_s).toInt() << ": " << s.value(u"records"_s).toInteger()
            << " records, host " << s.value(u"host"_s).toString() << ", "
            << s.value(u"status"_s).toString() << ", start +"
            << QString::number(s.value(u"start_delay_ms"_s).toDouble(), 'f', 3) << " ms, clock ";
        if (off.value(u"source"_s).toString() == "none"_L1)
            out << "offset not measured\n";
        else
            out << "offset " << QString::number(off.value(u"offset_ms"_s).toDouble(), 'f', 3)
                << " ms ± " << QString::number(off.value(u"uncertainty_ms"_s).toDouble(), 'f', 3)
                << " ms (" << off.value(u"source"_s).toString() << ", "
                << off.value(u"method"_s).toString() << ")\n";
    }
    out << "Start skew between agents (ms):          "
        << QString::number(double(merged.startSkewNs) / 1e6, 'f', 3) << "\n";
    out << "Clock offsets applied:                   "
        << (merged.offsetsApplied ? "yes" : "no (host clocks trusted)") << "\n";
    out << "Time axis: UTC from each agent's CLOCK_REALTIME/CLOCK_MONOTONIC anchor; "
           "HTTP Date offsets have 1 s resolution unless a second edge was caught.\n";
    out.flush();

    const QJsonObject summary = runResultJson(in, false);
    if (!project.isEmpty()) {
        RunRecorder recorder;
        if (!recorder.open(project, &error))
            return fail(u"--project %1: %2"_s.arg(project, error));
        RunInfo meta;
        meta.name = in.plan.name;
        meta.host = u"merged: "_s + merged.hosts.join(u", "_s);
        meta.startedUtc = merged.wallStart;
        // The merged run's times are on the UTC axis (see the snapshot's merge.time_axis).
        meta.startedMonoNs = merged.startNs;
        meta.endedUtc = merged.wallEnd;
        meta.endedMonoNs = merged.endNs;
        DatasetInfo dataset;
        dataset.sha256 = merged.datasetHash;
        StoredRunStatus status = StoredRunStatus::Completed;
        storedRunStatusFromName(merged.status, &status);
        const qint64 id = recorder.recordRun(
            in.plan, merged.snapshot, dataset, meta, merged.records, status, summary,
            status == StoredRunStatus::Completed
                ? QString()
                : u"merged from agents that did not all complete"_s,
            &error);
        if (id <= 0)
            return fail(u"--project %1: %2"_s.arg(project, error));
        err << "Merged run " << id << " recorded in " << project << "\n";
    }
    if (a.has(u"save-result"_s) || a.has(u"save-detailed"_s)) {
        QString name = a.value(u"result-filename"_s);
        if (name.isEmpty())
            name = u"merged-%1.json"_s.arg(mergeInfo.value(u"plan_hash"_s).toString().left(12));
        const QString dir = a.value(u"result-dir"_s);
        if (!dir.isEmpty())
            QDir().mkpath(dir);
        const QString path = dir.isEmpty() ? name : QDir(dir).filePath(name);
        QSaveFile f(path);
        const QJsonObject json = runResultJson(in, a.has(u"save-detailed"_s));
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(QJsonDocument(json).toJson(QJsonDocument::Indented)) < 0 || !f.commit())
            return fail(u"cannot write %1: %2"_s.arg(path, f.errorString()));
        err << "Result saved to " << path << "\n";
    }
    return merged.status == "completed"_L1 ? 0 : 3;
}

} // namespace sb::cli
