#include "confidence.h"

#include "cacheaudit.h"
#include "prng.h"

#include "common/specialfunctions.h"

#include <QJsonValue>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

bool validConfidence(double c)
{
    return c > 0 && c < 1;
}

QString badConfidence(double c)
{
    return u"confidence must lie strictly between 0 and 1 (got %1)"_s.arg(c);
}

// Largest k in [0, n-1] with P(B <= k) <= a, or -1 when even P(B <= 0) > a.
qint64 largestKWithCdfAtMost(qint64 n, double q, double a)
{
    if (binomialCdfAtMost(0, n, q) > a)
        return -1;
    qint64 lo = 0, hi = n - 1; // invariant: cdf(lo) <= a
    while (lo < hi) {
        const qint64 mid = lo + (hi - lo + 1) / 2;
        if (binomialCdfAtMost(mid, n, q) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

// Smallest k in [0, n-1] with P(B <= k) >= 1 - a, or n when P(B <= n-1) < 1 - a.
qint64 smallestKWithCdfAtLeast(qint64 n, double q, double a)
{
    if (binomialCdfAtMost(n - 1, n, q) < 1 - a)
        return n;
    qint64 lo = 0, hi = n - 1; // invariant: cdf(hi) >= 1 - a
    while (lo < hi) {
        const qint64 mid = lo + (hi - lo) / 2;
        if (binomialCdfAtMost(mid, n, q) >= 1 - a)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

double mean(std::span<const double> v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return s / double(v.size());
}

} // namespace

QJsonObject Interval::toJson() const
{
    QJsonObject o{{u"available"_s, available},   {u"estimate"_s, number(estimate)},
                  {u"lo"_s, number(lo)},         {u"hi"_s, number(hi)},
                  {u"confidence"_s, confidence}, {u"n"_s, n},
                  {u"method"_s, method}};
    if (std::isfinite(coverage))
        o.insert(u"coverage"_s, coverage);
    if (lowerRank > 0) {
        o.insert(u"lower_rank"_s, lowerRank);
        o.insert(u"upper_rank"_s, upperRank);
    }
    if (!available)
        o.insert(u"reason"_s, reason);
    return o;
}

QString Interval::format(int decimals) const
{
    const QString est =
        std::isfinite(estimate) ? QString::number(estimate, 'f', decimals) : u"n/a"_s;
    if (!available)
        return est + u" (no interval: "_s + reason + u')';
    return u"%1 [%2, %3]"_s.arg(est, QString::number(lo, 'f', decimals),
                                QString::number(hi, 'f', decimals));
}

Interval Interval::unavailable(const QString &method, const QString &reason, qint64 n,
                               double confidence)
{
    Interval i;
    i.method = method;
    i.reason = reason;
    i.n = n;
    i.confidence = confidence;
    return i;
}

QString confidenceText(double confidence)
{
    return QString::number(confidence * 100, 'g', 4) + u" %"_s;
}

double normalCdf(double x)
{
    return 0.5 * std::erfc(-x / std::numbers::sqrt2);
}

double normalQuantile(double p)
{
    if (!(p > 0 && p < 1))
        return p == 0 ? -std::numeric_limits<double>::infinity()
                      : (p == 1 ? std::numeric_limits<double>::infinity() : kNaN);
    // Acklam's rational approximation (relative error 1.15e-9), then one Halley step on the
    // exact CDF.
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                   -2.759285104469687e+02, 1.383577518672690e+02,
                                   -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                   -1.556989798598866e+02, 6.680131188771972e+01,
                                   -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                   -2.400758277161838e+00, -2.549732539343734e+00,
                                   4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                   2.445134137142996e+00, 3.754408661907416e+00};
    constexpr double pLow = 0.02425;
    double x;
    if (p < pLow) {
        const double q = std::sqrt(-2 * std::log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= 1 - pLow) {
        const double q = p - 0.5;
        const double r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
        const double q = std::sqrt(-2 * std::log1p(-p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    const double e = normalCdf(x) - p;
    const double u = e * std::sqrt(2 * std::numbers::pi) * std::exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

double binomialCdfAtMost(qint64 k, qint64 n, double q)
{
    if (k < 0)
        return 0;
    if (k >= n)
        return 1;
    if (q <= 0)
        return 1;
    if (q >= 1)
        return 0;
    // P(B <= k) = I_{1-q}(n - k, k + 1).
    return regularizedIncompleteBetaCf(1 - q, double(n - k), double(k + 1));
}

Interval meanInterval(std::span<const double> samples, double confidence)
{
    const auto n = qint64(samples.size());
    const QString method = u"student-t"_s;
    if (!validConfidence(confidence))
        return Interval::unavailable(method, badConfidence(confidence), n, confidence);
    if (n < 2) {
        Interval i = Interval::unavailable(
            method, u"needs at least 2 samples for a standard deviation (has %1)"_s.arg(n), n,
            confidence);
        if (n == 1)
            i.estimate = samples[0];
        return i;
    }
    const double m = mean(samples);
    double ss = 0;
    for (double x : samples)
        ss += (x - m) * (x - m);
    const double sd = std::sqrt(ss / double(n - 1));
    const double t = studentTQuantile(0.5 + confidence / 2, double(n - 1));
    const double half = t * sd / std::sqrt(double(n));
    Interval i;
    i.available = true;
    i.estimate = m;
    i.lo = m - half;
    i.hi = m + half;
    i.confidence = confidence;
    i.n = n;
    i.method = method;
    return i;
}

Interval meanInterval(const QList<double> &samples, double confidence)
{
    return meanInterval(std::span<const double>(samples.constData(), size_t(samples.size())),
                        confidence);
}

OrderStatisticRanks percentileRanks(qint64 n, double percent, double confidence)
{
    OrderStatisticRanks r;
    if (n < 2 || !(percent > 0 && percent < 100) || !validConfidence(confidence))
        return r;
    const double q = percent / 100;
    const double alpha = 1 - confidence;
    // Equal tails first.
    qint64 kLo = largestKWithCdfAtMost(n, q, alpha / 2);   // l - 1
    qint64 kHi = smallestKWithCdfAtLeast(n, q, alpha / 2); // u - 1
    if (kLo < 0 && kHi >= n)
        return r;
    if (kHi >= n) {
        // Not enough ranks above: take the largest observation, whose miss probability is
        // P(B = n) = q^n, and give the lower side what is left of alpha.
        const double upperTail = 1 - binomialCdfAtMost(n - 1, n, q);
        if (upperTail > alpha)
            return r;
        kHi = n - 1;
        kLo = largestKWithCdfAtMost(n, q, alpha - upperTail);
    } else if (kLo < 0) {
        const double lowerTail = binomialCdfAtMost(0, n, q);
        if (lowerTail > alpha)
            return r;
        kLo = 0;
        kHi = smallestKWithCdfAtLeast(n, q, alpha - lowerTail);
    }
    if (kLo < 0 || kHi >= n || kLo + 1 >= kHi + 1)
        return r;
    r.available = true;
    r.lower = kLo + 1;
    r.upper = kHi + 1;
    r.coverage = binomialCdfAtMost(kHi, n, q) - binomialCdfAtMost(kLo, n, q);
    return r;
}

qint64 minimumSamplesForPercentile(double percent, double confidence)
{
    if (!(percent > 0 && percent < 100) || !validConfidence(confidence))
        return 0;
    const double q = percent / 100;
    const double alpha = 1 - confidence;
    // Either extreme rank misses with probability max(q, 1-q)^n at least, so no n below this
    // can work; the search starts there.
    const double m = std::max(q, 1 - q);
    qint64 n = std::max<qint64>(2, qint64(std::floor(std::log(alpha) / std::log(m))));
    while (!percentileRanks(n, percent, confidence).available)
        ++n;
    return n;
}

Interval percentileInterval(std::span<const double> samples, double percent, double confidence,
                            PercentileMethod method)
{
    const auto n = qint64(samples.size());
    const QString name = u"order-statistic"_s;
    if (!validConfidence(confidence))
        return Interval::unavailable(name, badConfidence(confidence), n, confidence);
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    const double estimate = n > 0 ? percentileSorted(sorted, percent, method) : kNaN;
    const OrderStatisticRanks ranks = percentileRanks(n, percent, confidence);
    if (!ranks.available) {
        const qint64 need = minimumSamplesForPercentile(percent, confidence);
        Interval i = Interval::unavailable(
            name,
            need == 0
                ? u"no distribution-free interval exists for p%1"_s.arg(percentileWord(percent))
                : u"p%1 needs at least %2 samples for a distribution-free %3 interval "
                  "(has %4)"_s.arg(percentileWord(percent))
                      .arg(need)
                      .arg(confidenceText(confidence))
                      .arg(n),
            n, confidence);
        i.estimate = estimate;
        return i;
    }
    Interval i;
    i.available = true;
    i.estimate = estimate;
    i.lo = sorted[size_t(ranks.lower - 1)];
    i.hi = sorted[size_t(ranks.upper - 1)];
    i.confidence = confidence;
    i.coverage = ranks.coverage;
    i.n = n;
    i.lowerRank = ranks.lower;
    i.upperRank = ranks.upper;
    i.method = name;
    return i;
}

Interval percentileInterval(const QList<double> &samples, double percent, double confidence,
                            PercentileMethod method)
{
    return percentileInterval(std::span<const double>(samples.constData(), size_t(samples.size())),
                              percent, confidence, method);
}

double percentileOfUnsorted(std::span<double> v, double percent, PercentileMethod method)
{
    if (v.empty())
        return 0;
    const size_t n = v.size();
    double q = percent / 100;
    if (!(q >= 0))
        q = 0;
    if (q > 1)
        q = 1;
    if (method == PercentileMethod::LoadGen) {
        const size_t idx = std::min(size_t(double(n) * q), n - 1);
        std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(idx), v.end());
        return v[idx];
    }
    // The rank arithmetic and the interpolation of stats.cpp (numpy's), so the value is
    // bit-identical to percentileLinear() of the sorted values.
    const double vi = double(n - 1) * q;
    const double flo = std::floor(vi);
    const size_t lo = std::min(size_t(flo), n - 1);
    const size_t hi = std::min(lo + 1, n - 1);
    const double t = vi - flo;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(lo), v.end());
    const double a = v[lo];
    if (t == 0 || hi == lo)
        return a;
    const double b = *std::min_element(v.begin() + std::ptrdiff_t(hi), v.end());
    const double diff = b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

std::vector<double> bootstrapReplicates(std::span<const double> samples, const Statistic &statistic,
                                        int resamples, Prng &rng)
{
    std::vector<double> out;
    if (samples.empty() || resamples <= 0)
        return out;
    out.reserve(size_t(resamples));
    const size_t n = samples.size();
    std::vector<double> buf(n);
    for (int b = 0; b < resamples; ++b) {
        for (size_t i = 0; i < n; ++i)
            buf[i] = samples[size_t(rng.below(n))];
        out.push_back(statistic(buf));
    }
    return out;
}

std::vector<double> bootstrapReplicatesClustered(const QList<QList<double>> &clusters,
                                                 const Statistic &statistic, int resamples,
                                                 Prng &rng)
{
    std::vector<double> out;
    if (clusters.isEmpty() || resamples <= 0)
        return out;
    out.reserve(size_t(resamples));
    const auto k = quint64(clusters.size());
    std::vector<double> buf;
    for (int b = 0; b < resamples; ++b) {
        buf.clear();
        for (quint64 i = 0; i < k; ++i) {
            const QList<double> &c = clusters.at(qsizetype(rng.below(k)));
            buf.insert(buf.end(), c.cbegin(), c.cend());
        }
        out.push_back(buf.empty() ? kNaN : statistic(buf));
    }
    return out;
}

double replicateStandardError(const std::vector<double> &replicates)
{
    if (replicates.size() < 2)
        return kNaN;
    const double m = mean(replicates);
    double ss = 0;
    for (double x : replicates)
        ss += (x - m) * (x - m);
    return std::sqrt(ss / double(replicates.size() - 1));
}

Interval intervalFromReplicates(std::vector<double> replicates, double estimate, double confidence,
                                const QString &method, qint64 n)
{
    if (!validConfidence(confidence))
        return Interval::unavailable(method, badConfidence(confidence), n, confidence);
    if (replicates.empty())
        return Interval::unavailable(method, u"no bootstrap replicates"_s, n, confidence);
    for (double x : replicates) {
        if (!std::isfinite(x))
            return Interval::unavailable(method, u"a bootstrap replicate was not finite"_s, n,
                                         confidence);
    }
    std::sort(replicates.begin(), replicates.end());
    const double alpha = 1 - confidence;
    Interval i;
    i.available = true;
    i.estimate = estimate;
    i.lo = percentileLinear(replicates, 100 * alpha / 2);
    i.hi = percentileLinear(replicates, 100 * (1 - alpha / 2));
    i.confidence = confidence;
    i.n = n;
    i.method = method;
    return i;
}

Interval bootstrapInterval(std::span<const double> samples, const Statistic &statistic,
                           double confidence, const BootstrapOptions &options)
{
    const auto n = qint64(samples.size());
    const QString method = u"bootstrap-percentile"_s;
    if (n < 2)
        return Interval::unavailable(method, u"needs at least 2 samples (has %1)"_s.arg(n), n,
                                     confidence);
    std::vector<double> copy(samples.begin(), samples.end());
    const double estimate = statistic(copy);
    Prng rng(options.seed);
    return intervalFromReplicates(bootstrapReplicates(samples, statistic, options.resamples, rng),
                                  estimate, confidence, method, n);
}

Interval bootstrapPercentileInterval(std::span<const double> samples, double percent,
                                     double confidence, const BootstrapOptions &options,
                                     PercentileMethod method)
{
    const auto n = qint64(samples.size());
    const qint64 need = minimumSamplesForPercentile(percent, confidence);
    if (need == 0 || n < need) {
        // Same availability and reason as the order-statistic interval.
        Interval i = percentileInterval(samples, percent, confidence, method);
        i.method = u"bootstrap-percentile"_s;
        i.lowerRank = i.upperRank = 0;
        return i;
    }
    return bootstrapInterval(
        samples,
        [percent, method](std::span<double> v) { return percentileOfUnsorted(v, percent, method); },
        confidence, options);
}

Interval bootstrapPercentileIntervalClustered(const QList<QList<double>> &clusters, double percent,
                                              double confidence, const BootstrapOptions &options,
                                              PercentileMethod method)
{
    const QString name = u"bootstrap-percentile (clustered)"_s;
    const auto k = qint64(clusters.size());
    std::vector<double> pooled;
    for (const QList<double> &c : clusters)
        pooled.insert(pooled.end(), c.cbegin(), c.cend());
    const auto n = qint64(pooled.size());
    const qint64 need = minimumSamplesForPercentile(percent, confidence);
    if (k < 2)
        return Interval::unavailable(name, u"needs at least 2 clusters (has %1)"_s.arg(k), k,
                                     confidence);
    if (need == 0 || n < need) {
        Interval i = percentileInterval(pooled, percent, confidence, method);
        i.method = name;
        i.n = k;
        i.lowerRank = i.upperRank = 0;
        return i;
    }
    const Statistic stat = [percent, method](std::span<double> v) {
        return percentileOfUnsorted(v, percent, method);
    };
    const double estimate = stat(pooled);
    Prng rng(options.seed);
    return intervalFromReplicates(
        bootstrapReplicatesClustered(clusters, stat, options.resamples, rng), estimate, confidence,
        name, k);
}

} // namespace sb
