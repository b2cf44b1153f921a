#pragma once

#include "common/message.h"
#include "metrics/summary.h"
#include "report/runreport.h"
#include "store/storetypes.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace sb {

class ProjectStore;

// One stored run as the comparison and the reports see it: its metadata and snapshot, its raw
// records and its summary recomputed from them (never the number stored at run time), or — for
// an imported run saved without per-request data — the summary the imported file states.
struct ReportRun
{
    qint64 id = 0;
    QString label;        // "#3 vllm-a100": short, unique within a comparison
    RunInfo info;         // with snapshot and summary
    RunReportInput input; // plan, records, dataset hash, status, ...
    RunSummary summary;
    // The run pipeline's derivation of the records (deriveRun): the MLPerf verdict under the
    // plan's own constraints, the client's health. Empty for runs imported without records.
    RunDerivation derived;
    bool rawRecords = true; // false: imported without --save-detailed; summary from the file
    bool imported = false;
    // The series (--num-runs, a sweep row of kind "series") the run belongs to: 0 when none.
    qint64 seriesId = 0;
    QString seriesName;
    QString seriesCacheState;    // as the series stated it: cache-busted or not
    // The managed server that served the run (docs/managed-servers.md): its stored facts and
    // output, when the snapshot names one and the project has its log.
    std::optional<StoredServerLog> serverLog;
    QStringList notes;           // what this run's numbers cannot show (imported runs)
    QList<Message> noteMessages; // the same, for display (notes = their English text)

    QString sutName() const { return input.plan.sut.name; }
    // The wall-clock UTC time of a monotonic timestamp of this run (records, window bounds).
    QDateTime wallTime(qint64 monoNs) const;
};

// Loads a run from an open project. False with *error when the run does not exist.
bool loadReportRun(const ProjectStore &store, qint64 runId, ReportRun *out, QString *error);
// Sets run->seriesId/Name/CacheState when its sweep (among `sweeps`) is a series.
void markSeries(const QList<StoredSweep> &sweeps, ReportRun *run);
// Loads several; labels "#<id> <name>" (the name shortened to 28 characters).
bool loadReportRuns(const ProjectStore &store, const QList<qint64> &runIds, QList<ReportRun> *out,
                    QString *error);

// "3,5,7" or "3 5" -> ids; false with a reason for anything that is not a positive integer.
bool parseRunIds(const QString &text, QList<qint64> *out, QString *error);

} // namespace sb
