#pragma once

#include "metrics/recordset.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <limits>

namespace sb {

struct LoadProfile;
struct MetricStats;
struct RunSummary;

struct ResultJsonOptions
{
    QString backend = QStringLiteral("openai"); // vLLM backend name: "openai" | "openai-chat"
    QString label;                              // vLLM --label; null when empty
    QString modelId;
    QString tokenizerId;    // empty = modelId (vLLM's default)
    qint64 numPrompts = -1; // -1 = the number of measured requests
    double requestRate = std::numeric_limits<double>::infinity(); // inf -> "inf"
    double burstiness = 1.0;
    int maxConcurrency = 0; // 0 -> null
    // vLLM --save-detailed: per-request arrays (input_lens, output_lens, ttfts, itls, errors,
    // plus ServeBench's e2els, start_times, scheduled_times). Not generated_texts: no text is
    // kept, and "generated_texts_unavailable_reason" says so.
    bool detailed = false;
    QDateTime date;             // local time for "date"; invalid = now
    qint64 runStartNs = 0;      // zero point of start_times/scheduled_times; 0 = earliest t_sched
    QJsonObject configSnapshot; // already scrubbed of secrets by the caller
    QJsonObject dataset;        // dataset hash / stats object
    QString toolVersion;        // empty = sb::toolVersion()

    // Fills requestRate, burstiness, maxConcurrency from a profile.
    static ResultJsonOptions forProfile(const LoadProfile &profile);
};

// vLLM's saved result (`vllm bench serve --save-result`, vllm/benchmarks/serve.py) with the
// same key names and units — seconds in the per-request arrays, milliseconds in the statistics —
// so vLLM tooling reads it, plus ServeBench's keys. Statistics keys (mean_/median_/std_/p<p>_
// <metric>_ms) are written for ttft, tpot, itl and e2el with every percentile in the summary.
// Per-request arrays cover the measured records in index order, failed ones included (vLLM
// writes 0 / [] for what a failed request never got).
QJsonObject vllmResultJson(const RunSummary &summary, const RecordSet &records,
                           const ResultJsonOptions &opts = {});

// {"count", "mean_ms", "median_ms", "std_ms", "min_ms", "max_ms", "p<p>_ms"...}; `unit` replaces
// "ms" in the key suffixes.
QJsonObject metricStatsJson(const MetricStats &stats, const QString &unit = QStringLiteral("ms"));

} // namespace sb
