#pragma once

#include <QList>
#include <QPair>
#include <QString>

#include <span>

namespace sb {

// How a percentile is read from the sorted sample.
enum class PercentileMethod : quint8 {
    // numpy's default ('linear', Hyndman & Fan type 7): rank = p/100 * (N-1), interpolated
    // between the two neighbouring order statistics. This is what vLLM reports.
    Linear,
    // MLPerf LoadGen (results.cc): sorted[floor(N * p/100)], clamped to the last element. No
    // interpolation, so the value is always an observed sample.
    LoadGen,
};
const char *percentileMethodName(PercentileMethod m); // "linear" | "loadgen"

// Percentiles of an ascending sorted sample; p in percent, clamped to [0, 100]. An empty sample
// gives 0 (vLLM's convention, see MetricStats).
double percentileLinear(std::span<const double> sorted, double p);
double percentileLoadGen(std::span<const double> sorted, double p);
double percentileSorted(std::span<const double> sorted, double p, PercentileMethod m);

// vLLM's spelling of a percentile in labels and keys: "99" for 99.0, "99.9" for 99.9
// (Python: str(int(p)) if int(p) == p else str(p)).
QString percentileWord(double p);

// Summary statistics of one metric. Every value is in the unit of the input (ServeBench feeds
// milliseconds). For an EMPTY sample count is 0 and mean/median/stddev/min/max and every
// percentile value are 0 — vLLM reports np.mean(x or 0) = 0 for an empty list, and text/JSON
// output must match it — so callers that need to tell "no data" from "zero" look at count.
struct MetricStats
{
    qint64 count = 0;
    double mean = 0;
    double median = 0;
    double stddev = 0; // population standard deviation (ddof = 0, numpy's and vLLM's default)
    double min = 0;
    double max = 0;
    QList<QPair<double, double>> percentiles; // (p in percent, value), in the order requested
    PercentileMethod method = PercentileMethod::Linear;

    bool isEmpty() const { return count == 0; }
    bool hasPercentile(double p) const;
    // The value computed for p, or NaN when p was not among the requested percentiles.
    double percentile(double p) const;
};

// Statistics of a sample. Means and variances accumulate in double whatever the element type.
// Order statistics: small samples are sorted in place (the span versions may reorder the
// values); large ones use a two-pass radix select that leaves them untouched and needs extra
// memory only for the few histogram buckets holding the wanted ranks, so a 100M-sample ITL
// pool is neither sorted nor copied.
MetricStats computeStats(std::span<double> values, const QList<double> &percentiles,
                         PercentileMethod method = PercentileMethod::Linear);
MetricStats computeStats(std::span<float> values, const QList<double> &percentiles,
                         PercentileMethod method = PercentileMethod::Linear);
// Convenience for small samples and tests: works on a copy.
MetricStats computeStats(const QList<double> &values, const QList<double> &percentiles,
                         PercentileMethod method = PercentileMethod::Linear);

} // namespace sb
