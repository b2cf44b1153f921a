#pragma once

#include "report/cancellationrecovery.h"
#include "charts/thinning.h"
#include "load/mlperf.h"
#include "metrics/clienthealth.h"
#include "metrics/confidence.h"
#include "metrics/connectionstats.h"
#include "metrics/sessionsummary.h"
#include "metrics/summary.h"
#include "models/requestrow.h"
#include "servermetrics/metricseriesstore.h"
#include "servermetrics/serverevidence.h"
#include "servermetrics/servertimeline.h"

#include <QList>
#include <QPair>
#include <QPointF>
#include <QString>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace sb {

class FineHistogram;
struct RunPlan;
struct RunDerivation;
struct RunReportInput;

// What ResultsView shows, computed off the GUI thread in three stages so the numbers appear
// first, the request table next and the charts last (heaptrack's parser publishes the same way).
// All value types: they cross threads by copy.

struct ResultsSummaryStage
{
    RunSummary summary;
    bool hasMlperf = false; // the plan's scenario is an MLPerf one and its constraints resolve
    MlperfJudgement mlperf;
    QString mlperfText;  // formatMlperfBlock()
    QString mlperfError; // an MLPerf scenario whose constraints do not resolve: why
    ClientHealth health; // whether the client kept its schedule (its warnings say when not)
    // deriveRun's 95 % intervals of the summary's statistics, or why each is omitted.
    QList<QPair<QString, QList<QPair<QString, Interval>>>> intervals;
    SessionSummary sessions;     // a session workload's view by turn (docs/sessions.md)
    ConnectionStats connections; // deriveRun's: connection use, set-up, TTFT without set-up
    QString historyMode;         // "served" | "reference"
    // Server-side evidence (docs/server-metrics.md) when the run has scraped targets, and its
    // gauges over the run for the Server tab's charts.
    bool hasServer = false;
    ServerEvidence server;
    QList<ServerTimelineSeries> serverSeries;
    qint64 zeroNs = 0; // runZeroNs(records): the Over time tab's zero, on the scrapes' clock
    // The server's running requests after the cancellation load's last cancel (docs/metrics.md).
    CancellationRecovery cancellation;
};

struct ResultsChartStage
{
    // A latency distribution (measured successful requests; ITL pooled per chunk gap).
    struct Distribution
    {
        QString key; // "ttft", "tpot", "itl", "e2el"
        qint64 samples = 0;
        QList<QPointF> cdf; // (ms, fraction), thinned
        Histogram histogram;
        // Drawn from a FineHistogram (values placed within 0.024 %) because the sample was too
        // large to pool; false: from the exact sorted sample.
        bool binned = false;
    };
    QList<Distribution> distributions;

    // Over time: x = seconds since the run's first scheduled (or sent) request.
    double bucketS = 1.0;
    QList<QPointF> requestsPerS;     // successful completions per bucket, as a rate
    QList<QPointF> outputTokensPerS; // tokens of successful requests by chunk arrival, as a rate
    QList<QPointF> errorsPerS;       // failed completions per bucket, as a rate
    QList<QPointF> inFlight;         // requests between t_send and completion (step, thinned)
    QList<QPointF> ttftOverTime;     // (t_send, TTFT) per successful request, thinned
    QList<QPointF> itlOverTime;      // (completion, mean ITL) per successful request, thinned
    QList<QPointF> lagOverTime;      // (t_send, schedule lag) per sent request, thinned
    double spanS = 0;                // x extent of the run
};

// The summary and MLPerf verdict through the run pipeline's one derivation (deriveRun): the
// same numbers and verdict as `servebench-cli show`, the Compare tab and the reports.
// serverMetrics: the run's scraped targets (the SUT first), empty when none were scraped.
ResultsSummaryStage computeResultsSummary(const RunPlan &plan, const QList<RequestRecord> &records,
                                          const QList<MetricSeriesStore> &serverMetrics = {});
// The same from a prepared input: a stored run streamed by loadStoredRunForReport() comes with
// its summary and without its records' chunks.
ResultsSummaryStage computeResultsSummary(const RunReportInput &in);
// The stage from a derivation already made by the run pipeline (a run that just finished: its
// RunSession derived it once, and deriving a large run again costs seconds).
ResultsSummaryStage resultsSummaryFrom(const RunReportInput &in, const RunDerivation &derived);

// Zero point of the run's time axis: the earliest t_sched, else the earliest t_send.
qint64 runZeroNs(const RecordSet &records);

// The chart stage built one request at a time, so a stored run can be streamed through it from
// the project file instead of being held in memory. zeroNs: runZeroNs() of all the records.
// pooledItl false keeps the inter-token gaps in a FineHistogram (4 MB) instead of a vector (8 B
// per gap: 800 MB for a million 100-token requests).
class ResultsChartBuilder
{
public:
    ResultsChartBuilder(qint64 zeroNs, bool pooledItl);
    ~ResultsChartBuilder();
    ResultsChartBuilder(const ResultsChartBuilder &) = delete;
    ResultsChartBuilder &operator=(const ResultsChartBuilder &) = delete;

    // r with its chunk times; row = RequestRow::fromRecord(r, zeroNs).
    void add(const RequestRecord &r, const RequestRow &row);
    ResultsChartStage finish(int columns, const std::function<bool()> &cancelled = {});

private:
    void bump(std::vector<double> &buckets, qint64 ns, double by) const;

    qint64 m_zero;
    qint64 m_lastNs;
    bool m_pooledItl;
    std::vector<double> m_ttft, m_tpot, m_e2el, m_itl;
    std::unique_ptr<FineHistogram> m_itlHistogram;
    std::vector<double> m_sendX, m_ttftY, m_endX, m_itlY, m_lagX, m_lagY;
    std::vector<double> m_okPerBucket, m_errPerBucket, m_tokPerBucket; // 1-second buckets
    std::vector<std::pair<qint64, int>> m_edges; // (time, +1 send / -1 completion)
};

// Distributions and time series. rows are requestRows(records, runZeroNs(records)); columns is
// the plot width the series are thinned to. Returns early (partial) once cancelled() says so.
ResultsChartStage computeResultsCharts(const QList<RequestRecord> &records,
                                       const QList<RequestRow> &rows, int columns,
                                       const std::function<bool()> &cancelled = {});

} // namespace sb
