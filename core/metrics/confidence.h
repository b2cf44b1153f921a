#pragma once

#include "metrics/stats.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <limits>
#include <span>
#include <vector>

namespace sb {

class Prng;

// Confidence intervals for the statistics ServeBench reports (docs/statistics.md). Pure
// functions of their samples; every interval says which method made it, and an interval that
// cannot be given honestly is returned unavailable with the reason, never as a guess.

inline constexpr double kDefaultConfidence = 0.95;
// The bootstrap's fixed default seed: the same samples give the same interval on every run and
// every platform (see Prng).
inline constexpr quint64 kDefaultBootstrapSeed = 0x5EEDB0075EEDB007ull;

struct Interval
{
    bool available = false;
    double estimate = std::numeric_limits<double>::quiet_NaN(); // the point estimate
    double lo = std::numeric_limits<double>::quiet_NaN();
    double hi = std::numeric_limits<double>::quiet_NaN();
    double confidence = kDefaultConfidence; // nominal level, e.g. 0.95
    // The exact coverage the method guarantees when it has one (order statistics: >= confidence);
    // NaN for approximate methods.
    double coverage = std::numeric_limits<double>::quiet_NaN();
    qint64 n = 0;         // samples (or runs) behind it
    qint64 lowerRank = 0; // order statistics only: 1-based ranks of lo and hi in the sample
    qint64 upperRank = 0;
    QString method; // "student-t", "order-statistic", "bootstrap-percentile", ...
    QString reason; // why it is not available; empty when available

    bool contains(double x) const { return available && lo <= x && x <= hi; }
    // {"available", "estimate", "lo", "hi", "confidence", "n", "method"} plus "coverage" and
    // "lower_rank"/"upper_rank" when known, "reason" when unavailable. NaN is written as null.
    QJsonObject toJson() const;
    // "50.20 [49.10, 51.30]" or "n/a (reason)".
    QString format(int decimals = 2) const;
    static Interval unavailable(const QString &method, const QString &reason, qint64 n,
                                double confidence);
};

// Standard normal distribution: CDF and quantile (|error| < 1e-12 after a Newton step).
double normalCdf(double x);
double normalQuantile(double p);

// P(B <= k) for B ~ Binomial(n, q), through the regularized incomplete beta function.
// (Named apart from load/earlystopping.h's binomialCdf(n, k, q), whose arguments come in the
// other order.)
double binomialCdfAtMost(qint64 k, qint64 n, double q);

// --- means -----------------------------------------------------------------------------------

// Student's t interval for the mean: mean +- t(1 - a/2, n - 1) * s / sqrt(n), s the sample
// standard deviation (n - 1). Unavailable below 2 samples.
Interval meanInterval(std::span<const double> samples, double confidence = kDefaultConfidence);
Interval meanInterval(const QList<double> &samples, double confidence = kDefaultConfidence);

// --- percentiles: exact order-statistic interval ----------------------------------------------

// Ranks (1-based) l < u such that [X(l), X(u)] covers the population p-quantile with probability
// >= confidence for any continuous distribution. The number of samples at or below the
// quantile is Binomial(n, p/100), so P(X(l) <= q < X(u)) = P(l <= B <= u - 1). Equal tails of at
// most a/2 each when the sample allows it; when one side runs out of ranks (the largest
// observation is too likely to lie below a high percentile), that side takes the extreme rank
// and the other side gets the rest of a. Unavailable when even that fails: n too small for p.
struct OrderStatisticRanks
{
    bool available = false;
    qint64 lower = 0;
    qint64 upper = 0;
    double coverage = 0; // P(lower <= B <= upper - 1)
};
OrderStatisticRanks percentileRanks(qint64 n, double percent,
                                    double confidence = kDefaultConfidence);
// The smallest n for which percentileRanks() is available (p99 at 95 %: 299); 0 for p outside
// (0, 100), which has no distribution-free interval at any n.
qint64 minimumSamplesForPercentile(double percent, double confidence = kDefaultConfidence);

// The order-statistic interval around the percentile the summary reports (`method`'s estimate).
Interval percentileInterval(std::span<const double> samples, double percent,
                            double confidence = kDefaultConfidence,
                            PercentileMethod method = PercentileMethod::Linear);
Interval percentileInterval(const QList<double> &samples, double percent,
                            double confidence = kDefaultConfidence,
                            PercentileMethod method = PercentileMethod::Linear);

// --- bootstrap -------------------------------------------------------------------------------

struct BootstrapOptions
{
    int resamples = 2000; // B
    quint64 seed = kDefaultBootstrapSeed;
};

// A statistic of one resample; it may reorder the values it is given.
using Statistic = std::function<double(std::span<double>)>;

// The percentile of unsorted values (reordered by selection, not sorted): the same value as
// percentileSorted() on the sorted values.
double percentileOfUnsorted(std::span<double> values, double percent,
                            PercentileMethod method = PercentileMethod::Linear);

// B replicates of `statistic`, each over n draws with replacement from `samples`, drawn from rng.
std::vector<double> bootstrapReplicates(std::span<const double> samples, const Statistic &statistic,
                                        int resamples, Prng &rng);
// Clustered bootstrap: draws whole clusters (one request's inter-token gaps) with replacement
// and pools their values, so values that move together inside a cluster are not counted as
// independent evidence.
std::vector<double> bootstrapReplicatesClustered(const QList<QList<double>> &clusters,
                                                 const Statistic &statistic, int resamples,
                                                 Prng &rng);
// The percentile-bootstrap interval: the a/2 and 1 - a/2 quantiles (linear) of the replicates.
Interval intervalFromReplicates(std::vector<double> replicates, double estimate, double confidence,
                                const QString &method, qint64 n);
// Sample standard deviation of the replicates (n - 1): the bootstrap standard error.
double replicateStandardError(const std::vector<double> &replicates);

// Percentile bootstrap interval for any statistic of one sample. Unavailable below 2 samples.
Interval bootstrapInterval(std::span<const double> samples, const Statistic &statistic,
                           double confidence = kDefaultConfidence,
                           const BootstrapOptions &options = {});
// For a percentile; unavailable where the order-statistic interval is (below
// minimumSamplesForPercentile), because a resample cannot reach beyond the largest value and
// the bootstrap of a far tail is then too narrow.
Interval bootstrapPercentileInterval(std::span<const double> samples, double percent,
                                     double confidence = kDefaultConfidence,
                                     const BootstrapOptions &options = {},
                                     PercentileMethod method = PercentileMethod::Linear);
// The same over clusters (pooled ITL by request); n counts clusters, the availability rule
// counts pooled values.
Interval bootstrapPercentileIntervalClustered(const QList<QList<double>> &clusters, double percent,
                                              double confidence = kDefaultConfidence,
                                              const BootstrapOptions &options = {},
                                              PercentileMethod method = PercentileMethod::Linear);

// "95 %" for 0.95, "99.5 %" for 0.995.
QString confidenceText(double confidence);

} // namespace sb
