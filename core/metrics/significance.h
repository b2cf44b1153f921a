#pragma once

#include "metrics/confidence.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <vector>

#include <limits>
#include <span>

namespace sb {

// Is a candidate run (or series of runs) really better or worse than the baseline on one metric,
// or can the data not tell them apart? Every comparison gives the difference with its interval;
// the verdict follows from whether the interval excludes zero (docs/statistics.md).

enum class Direction : quint8 { LowerIsBetter, HigherIsBetter };

enum class Verdict : quint8 { Better, Worse, NoDetectableDifference, NotAvailable };
// "better" | "worse" | "no-detectable-difference" | "not-available"
const char *verdictKey(Verdict v);
// "better" | "worse" | "no detectable difference at 95 %" | "not available"
QString verdictText(Verdict v, double confidence = kDefaultConfidence);

// Better / Worse when the interval of (candidate - baseline) lies entirely on one side of 0,
// NoDetectableDifference when it contains 0, NotAvailable without an interval.
Verdict verdictFor(const Interval &absoluteDifference, Direction direction);

struct Difference
{
    QString statistic; // "mean", "p99", "mean over runs"
    QString unit;      // what n counts: "requests", "requests (clustered)", "runs"
    Direction direction = Direction::LowerIsBetter;
    double confidence = kDefaultConfidence;
    double candidate = std::numeric_limits<double>::quiet_NaN(); // estimate in the candidate
    double baseline = std::numeric_limits<double>::quiet_NaN();
    qint64 nCandidate = 0;
    qint64 nBaseline = 0;
    Interval absolute; // candidate - baseline, in the metric's unit
    Interval relative; // (candidate - baseline) / baseline, a fraction (0.05 = +5 %)
    // Variance of each side's estimate (s^2/n for a mean, the bootstrap variance for a
    // percentile): what the sample-size hint scales. NaN when unknown.
    double varianceCandidate = std::numeric_limits<double>::quiet_NaN();
    double varianceBaseline = std::numeric_limits<double>::quiet_NaN();
    Verdict verdict = Verdict::NotAvailable;
    QString reason; // why NotAvailable

    QJsonObject toJson() const;
};

// Difference of means, per-request samples: Welch's t interval (unequal variances,
// Welch-Satterthwaite degrees of freedom). The relative interval is the delta method on the
// ratio of means with the same t quantile. Needs 2 samples a side.
Difference compareMeans(std::span<const double> candidate, std::span<const double> baseline,
                        Direction direction, double confidence = kDefaultConfidence);
Difference compareMeans(const QList<double> &candidate, const QList<double> &baseline,
                        Direction direction, double confidence = kDefaultConfidence);

// Difference of percentiles, per-request samples: a seeded two-sample percentile bootstrap
// (each run resampled on its own, B replicates of p(candidate*) - p(baseline*) and of
// p(candidate*) / p(baseline*) - 1). Not available where either run is too small for a
// distribution-free interval of that percentile (minimumSamplesForPercentile). When
// B x (n_candidate + n_baseline) exceeds `maxBootstrapDraws`, a normal approximation replaces
// the bootstrap: each side's standard error is its order-statistic interval's half-width / z.
struct PercentileComparisonOptions
{
    BootstrapOptions bootstrap;
    qint64 maxBootstrapDraws = 50'000'000;
    PercentileMethod method = PercentileMethod::Linear;
};
Difference comparePercentiles(std::span<const double> candidate, std::span<const double> baseline,
                              double percent, Direction direction,
                              double confidence = kDefaultConfidence,
                              const PercentileComparisonOptions &options = {});
Difference comparePercentiles(const QList<double> &candidate, const QList<double> &baseline,
                              double percent, Direction direction,
                              double confidence = kDefaultConfidence,
                              const PercentileComparisonOptions &options = {});
// The same for pooled metrics whose samples come in clusters (ITL: one cluster per request),
// resampling whole clusters; n counts clusters. Always the bootstrap.
Difference comparePercentilesClustered(const QList<QList<double>> &candidate,
                                       const QList<QList<double>> &baseline, double percent,
                                       Direction direction, double confidence = kDefaultConfidence,
                                       const PercentileComparisonOptions &options = {});

// The two-sample bootstrap from precomputed replicates of each side (same count, paired by
// index): d's estimates, n, method, direction and confidence as the caller set them; fills the
// absolute and relative intervals, the variances and the verdict. `zeroBaseline` is the reason
// the relative interval is omitted when the baseline (or a replicate of it) is 0.
Difference differenceFromReplicates(Difference d, const std::vector<double> &candidateReplicates,
                                    const std::vector<double> &baselineReplicates,
                                    const QString &zeroBaseline);

// Two series of runs, one value per run (a run's throughput, its p99 TTFT, ...): Welch on the
// run values. The only honest test for run-level numbers such as throughput: one run gives one
// value and no within-run spread. Needs 2 runs a side.
Difference compareSeries(const QList<double> &candidateRuns, const QList<double> &baselineRuns,
                         Direction direction, double confidence = kDefaultConfidence);

// How many requests (or runs) per side would detect a true relative difference of
// `relativeDifference` (0.05 = 5 % of the baseline estimate) at the comparison's confidence with
// the given power: m = (z(1 - a/2) + z(power))^2 (n_c v_c + n_b v_b) / delta^2, v the variance of
// each side's estimate at its current size (so n v is the per-sample variance, whatever the
// statistic), then refined once with Student's t quantiles at 2(m - 1) degrees of freedom.
struct SampleSizeHint
{
    bool available = false;
    double relativeDifference = 0;
    double absoluteDifference = 0;
    double confidence = kDefaultConfidence;
    double power = 0.8;
    qint64 perSide = 0;
    QString unit; // "requests", "runs", ...
    QString reason;

    QJsonObject toJson() const;
    // "about 420 requests per run would detect a 5 % difference (95 % confidence, 80 % power)"
    QString text() const;
};
SampleSizeHint samplesNeeded(const Difference &difference, double relativeDifference,
                             double power = 0.8);

// --- ranking with ties -----------------------------------------------------------------------

struct RankedCandidate
{
    int index = -1; // position in the input
    int rank = 0;   // 1 = best; 0 = not ranked (no estimate)
    double estimate = std::numeric_limits<double>::quiet_NaN();
    bool tied = false;          // another candidate shares this rank
    QList<int> inseparableFrom; // candidates the data cannot separate from this one
};

struct Ranking
{
    QList<RankedCandidate> order; // best first; unranked last
    QJsonObject toJson() const;
    static QString ruleText();
};

// rank(i) = 1 + the number of candidates significantly better than i; candidates the data
// cannot separate can share a rank. pairwise[i][j] is the verdict of i against j as baseline
// (Better: i is better than j); NotAvailable counts as inseparable. Estimates order candidates
// of equal rank; a NaN estimate leaves the candidate unranked.
Ranking rankWithTies(const QList<double> &estimates, Direction direction,
                     const QList<QList<Verdict>> &pairwise);

// Pairwise comparisons of per-request samples by "mean", "median" or "p<N>" (p90, p99.9), then
// rankWithTies. Each pair is tested at `confidence` (no multiple-comparison correction). Any
// other statistic leaves every candidate unranked.
Ranking rankSamples(const QList<QList<double>> &samples, const QString &statistic,
                    Direction direction, double confidence = kDefaultConfidence,
                    const PercentileComparisonOptions &options = {});

} // namespace sb
