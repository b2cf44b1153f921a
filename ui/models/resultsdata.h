#pragma once

#include "charts/thinning.h"
#include "load/mlperf.h"
#include "metrics/summary.h"
#include "models/requestrow.h"

#include <QList>
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
    bool hasMlperf = false; // the plan's scenario is an MLPerf one
    MlperfJudgement mlperf;
    QString mlperfText; // formatMlperfBlock()
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

// The constraints a plan is judged by when the caller sets none: Server uses the plan's goodput
// TTFT/TPOT SLOs as its p99 bounds (MLPerf's own presets are opt-in, since their 600 s minimum
// duration fails every short exploratory run); SingleStream uses LoadGen's p90 without
// minimums; Offline has no bounds. Minimum duration and query count stay 0 (unchecked).
MlperfConstraints defaultMlperfConstraints(const RunPlan &plan);

ResultsSummaryStage computeResultsSummary(const RunPlan &plan, const QList<RequestRecord> &records,
                                          const MlperfConstraints &constraints);

// Zero point of the run's time axis: the earliest t_sched, else the earliest t_send.
qint64 runZeroNs(const QList<RequestRecord> &records);

// Distributions and time series. rows are requestRows(records, runZeroNs(records)); columns is
// the plot width the series are thinned to. Returns early (partial) once cancelled() says so.
ResultsChartStage computeResultsCharts(const QList<RequestRecord> &records,
                                       const QList<RequestRow> &rows, int columns,
                                       const std::function<bool()> &cancelled = {});

} // namespace sb
