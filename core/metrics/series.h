#pragma once

#include "metrics/confidence.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <limits>
#include <optional>

namespace sb {

struct RunSummary;

// One plan run N times (--num-runs N): per metric, the spread of the run-level values. A run's
// value is whatever its summary reports (its mean TTFT, its p99 TTFT, its request throughput),
// so the interval is over runs, the unit that repeats.
struct SeriesStats
{
    qint64 runs = 0;
    double mean = std::numeric_limits<double>::quiet_NaN();
    double stddev = std::numeric_limits<double>::quiet_NaN(); // sample standard deviation (n - 1)
    // stddev / |mean|; NaN for a zero mean or fewer than 2 runs.
    double cv = std::numeric_limits<double>::quiet_NaN();
    double min = std::numeric_limits<double>::quiet_NaN();
    double max = std::numeric_limits<double>::quiet_NaN();
    Interval meanInterval; // Student's t over the runs

    QJsonObject toJson() const;
};

SeriesStats seriesStats(const QList<double> &runValues, double confidence = kDefaultConfidence);

// A run-level value by the comparison table's row keys: "<metric>.<stat>" with metric one of
// RunSummary::stats()'s keys and stat "mean", "median", "stddev", "min", "max" or "p<N>" (a
// percentile the summary computed); or "request_throughput", "output_throughput",
// "total_token_throughput", "request_goodput", "completed", "failed", "failure_rate" (percent),
// "duration" (s). Empty with *note saying why when the run has no such value.
std::optional<double> runLevelValue(const RunSummary &summary, const QString &key,
                                    QString *note = nullptr);
// Whether lower values of a key are better (latencies, failures, duration) or higher
// (throughputs, goodput, completed).
bool lowerIsBetter(const QString &key);
// The keys a series reports by default: every latency metric's mean, median and the given
// percentiles, then the rates and counts.
QStringList defaultSeriesKeys(const QList<double> &percentiles = {90, 99});

struct SeriesMetric
{
    QString key;
    QList<double> values; // one per run that has the value
    SeriesStats stats;
    QStringList notes; // why some runs had no value ("run 3: no SLO set")

    QJsonObject toJson() const;
};

QList<SeriesMetric> summarizeSeries(const QList<RunSummary> &runs, const QStringList &keys,
                                    double confidence = kDefaultConfidence);

} // namespace sb
