#pragma once

#include "config/runplan.h"
#include "load/mlperf.h"
#include "metrics/clienthealth.h"
#include "metrics/confidence.h"
#include "metrics/connectionstats.h"
#include "metrics/requestrecord.h"
#include "metrics/saturation.h"
#include "metrics/sessionsummary.h"
#include "metrics/steadystate.h"
#include "report/cancellationrecovery.h"
#include "metrics/summary.h"
#include "metrics/timeslices.h"
#include "servermetrics/metricseriesstore.h"
#include "servermetrics/serverevidence.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace sb {

class ProjectStore;

// Everything printed and saved about one run, derived from its plan and raw records only, so
// `servebench-cli show` recomputes exactly what `run` printed at the end of the run, and the
// comparison reports reuse the same derivation.
struct RunReportInput
{
    RunPlan plan;
    RecordSet records; // a large stored run's come packed (loadStoredRunForReport)
    QString datasetHash;
    QJsonObject datasetInfo;
    QString status;        // storedRunStatusName of the run as the store reports it
    QString statusMessage; // why it failed or was interrupted (RunInfo::statusMessage)
    QString transport;
    QJsonObject transportCounters; // Transport::counters(): late reads and how reads were stamped
    qint64 runStartNs = 0;
    QDateTime wallStart;
    QJsonObject snapshot; // the stored snapshot (plan + run details)
    // The summary, when it was computed while streaming the records from a project (then the
    // records may come without their chunk lists: see loadStoredRunForReport()); otherwise
    // summarize(records) is used.
    std::optional<RunSummary> summary;
    // Each request's inter-token gaps (itlByRequest(records)), the ITL intervals' clusters,
    // gathered by loadStoredRunForReport() while the records still had their chunks; above the
    // bootstrap's limit only the counts. Unset: the derivation takes them from the records.
    struct ItlClusters
    {
        QList<QList<double>> clusters; // empty when gaps is above the limit
        qint64 requests = 0;           // requests with a gap
        qint64 gaps = 0;
    };
    std::optional<ItlClusters> itl;
    // What was scraped from the server during the run, one store per target (the SUT's own
    // endpoint first): empty when nothing was (docs/server-metrics.md).
    QList<MetricSeriesStore> serverMetrics;
    // The client's own threads sampled through the run (docs/performance.md, "The client checks
    // itself"); a stored run's come from its summary's "client_load" (clientLoadOfSummary).
    ClientLoadSamples clientLoad;
    // --cache-policy reset: what was done and verified (the result's "cache_policy"; a stored
    // run's from its summary). Empty for other policies.
    QJsonObject cachePolicy;
};

// The samples a stored run's summary JSON holds (empty for a run stored without them).
ClientLoadSamples clientLoadOfSummary(const QJsonObject &storedSummary);

// What a run's raw records mean, derived once and used everywhere a run is shown (the CLI's
// summary, the stored summary, `show`, the Results tab, comparisons and reports): the summary,
// the client's health, and for MLPerf scenarios the verdict under the constraints of
// mlperfConstraintsForProfile(), the one source of scenario constraints.
struct RunDerivation
{
    RunSummary summary;
    ClientHealth health;
    bool hasMlperf = false; // the plan's scenario is an MLPerf one and its constraints resolve
    MlperfJudgement mlperf;
    QString mlperfError; // why there is no verdict for an MLPerf scenario

    // The uncertainty of the summary's own numbers (docs/statistics.md): per metric key
    // ("ttft", "tpot", "e2el", "itl"), per statistic ("mean", "p50", "p99", …), a 95 %
    // interval or the reason there is none.
    QList<QPair<QString, QList<QPair<QString, Interval>>>> intervals;
    // Warm-up and drain detected from the records, and the summary of the window between.
    SteadyStateWindow steady;
    RunSummary steadySummary;
    TimeSlices slices;               // per second by default
    SaturationVerdict saturation;    // the whole run replayed through the detector
    bool statisticsComputed = false; // false for runs read without their records
    SessionSummary sessions;         // a session workload's per-session and per-turn view
    ConnectionStats connections;     // connection use, set-up, TTFT with and without set-up
    // Server-side evidence over the measured window (report/serverreport.h), when the run has
    // scraped targets.
    bool hasServerMetrics = false;
    ServerEvidence server;
    // The cancellation load's aftermath: the server's running requests after the last
    // cancellation beside the client's in flight (docs/metrics.md, "Cancelled by the load").
    CancellationRecovery cancellation;
};
RunDerivation deriveRun(const RunReportInput &in);

// "ttft p99: 52.10 [51.20, 53.00] (order-statistic, n = 1000)" lines, as `show` prints them.
QString formatIntervals(const RunDerivation &derived);

QString formatRunReport(const RunReportInput &in);
QString formatRunReport(const RunReportInput &in, const RunDerivation &derived);

// For printing a stored run's summary: its records without chunk lists (a million requests'
// chunk times would be most of the memory) and the summary computed from the complete records
// in streamed passes over the project file: counts (chunks not decoded), the summary's samples
// (with chunks), for a run of more than SummaryOptions::maxPooledGaps gaps a second look at the
// gaps (with chunks: the ITL statistics are streamed, not pooled), and last the records without
// chunks, read after the summary has released its samples. The result equals summarize() of the
// loaded records. Not for runResultJson(..., detailed) or requestsCsv(), which need the chunks.
// `also` rides along: afterFirst is called after the first pass (return false to stop: the
// call then fails with *error empty); eachWithChunks sees every record of the second pass;
// afterSecond is called when the second pass is done (a caller frees what it built from it
// before the records are read). The records of the last pass come packed (RecordSet over
// PackedRecords: ~57 bytes a chunkless record instead of 368). recordTexts false reads them
// without their request id, finish reason and error message, which the derivation and `show`
// do not use (the Results view of a large run reads its rows' texts itself).
struct StoredRunPasses
{
    std::function<bool()> afterFirst;
    std::function<void(const RequestRecord &withChunks)> eachWithChunks;
    std::function<void()> afterSecond;
    bool recordTexts = true;
    // false: no per-request gaps are gathered for the ITL intervals (RunReportInput::itl), so
    // the derivation has none — for `show`, which prints only TTFT and E2EL intervals and would
    // otherwise spend seconds on a clustered bootstrap it never shows (14 s for 20,000 requests
    // of 100 chunks).
    bool itlIntervals = true;
};
bool loadStoredRunForReport(const ProjectStore &store, qint64 runId, const SummaryOptions &options,
                            RunReportInput *in, QString *error, const StoredRunPasses &also = {});
// vLLM's result JSON plus ServeBench's keys (client health, MLPerf judgement, snapshot).
QJsonObject runResultJson(const RunReportInput &in, bool detailed);
QJsonObject runResultJson(const RunReportInput &in, const RunDerivation &derived, bool detailed);
// Per-request CSV with a header row; times in ms, absolute times in s from run start.
QByteArray requestsCsv(const RunReportInput &in);

} // namespace sb
