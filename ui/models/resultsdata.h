#pragma once

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

namespace sb {

struct RunPlan;

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

// Zero point of the run's time axis: the earliest t_sched, else the earliest t_send.
qint64 runZeroNs(const QList<RequestRecord> &records);

// Distributions and time series. rows are requestRows(records, runZeroNs(records)); columns is
// the plot width the series are thinned to. Returns early (partial) once cancelled() says so.
ResultsChartStage computeResultsCharts(const QList<RequestRecord> &records,
                                       const QList<RequestRow> &rows, int columns,
                                       const std::function<bool()> &cancelled = {});

} // namespace sb
