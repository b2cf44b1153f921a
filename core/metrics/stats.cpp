#include "stats.h"
#include "statsparts.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

namespace sb {

const char *percentileMethodName(PercentileMethod m)
{
    return m == PercentileMethod::LoadGen ? "loadgen" : "linear";
}

namespace {

double clampPercent(double p)
{
    if (!(p >= 0)) // also catches NaN
        return 0;
    return p > 100 ? 100 : p;
}

// numpy's _lerp: computing from b when t >= 0.5 keeps the result exact at t = 1 and symmetric;
// mirroring it makes our values bit-identical to np.percentile for the same doubles.
double numpyLerp(double a, double b, double t)
{
    const double diff = b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

struct LinearRank
{
    size_t lo;
    size_t hi;
    double gamma;
};

LinearRank linearRank(size_t n, double p)
{
    // numpy: quantile = p / 100; virtual index = (n - 1) * quantile; neighbours clipped to n-1.
    const double q = clampPercent(p) / 100.0;
    const double vi = double(n - 1) * q;
    const double lo = std::floor(vi);
    LinearRank r;
    r.lo = std::min(size_t(lo), n - 1);
    r.hi = std::min(r.lo + 1, n - 1);
    r.gamma = vi - lo;
    return r;
}

size_t loadGenRank(size_t n, double p)
{
    const double q = clampPercent(p) / 100.0;
    const auto idx = size_t(double(n) * q); // truncation == floor for non-negative values
    return std::min(idx, n - 1);
}

template <typename T>
MetricStats statsImpl(std::span<T> v, const QList<double> &ps, PercentileMethod method)
{
    using namespace statsparts;
    const size_t n = v.size();
    if (v.empty()) {
        MetricStats s;
        s.method = method;
        for (double p : ps)
            s.percentiles.append({p, 0.0});
        return s;
    }
    // quint32 counts: the histogram must stay cache-resident; samples beyond 4G do not fit in
    // memory anyway.
    const bool radix = n >= kRadixThreshold && n < size_t(std::numeric_limits<quint32>::max());
    std::vector<quint32> hist;
    if (radix)
        hist.assign(kBuckets, 0);

    // The histogram rides along in the pass that sums.
    LaneSum sum;
    MinMax<T> extremes(v[0]);
    forEachLane(n, [&](size_t i, size_t lane) {
        const T x = v[i];
        sum.add(lane, double(x));
        extremes.add(x);
        if (radix)
            ++hist[topBucket(x)];
    });
    const double mean = sum.total() / double(n);
    LaneSum sq;
    forEachLane(n, [&](size_t i, size_t lane) { sq.add(lane, squaredDeviation(v[i], mean)); });

    const std::vector<size_t> ranks = wantedRanks(n, ps, method);
    std::vector<double> values;
    if (!radix) {
        std::sort(v.begin(), v.end());
        values.reserve(ranks.size());
        for (size_t r : ranks)
            values.push_back(double(v[r]));
    } else {
        RadixCandidates<T> candidates(hist, ranks);
        for (const T x : v)
            candidates.offer(x);
        values = candidates.select();
    }
    return assemble(n, mean, sq.total(), double(extremes.min), double(extremes.max), ranks, values,
                    ps, method);
}

} // namespace

namespace statsparts {

std::vector<size_t> wantedRanks(size_t n, const QList<double> &ps, PercentileMethod method)
{
    std::vector<size_t> ranks;
    ranks.reserve(size_t(ps.size()) * 2 + 2);
    ranks.push_back((n - 1) / 2);
    ranks.push_back(n / 2);
    for (double p : ps) {
        if (method == PercentileMethod::Linear) {
            const LinearRank r = linearRank(n, p);
            ranks.push_back(r.lo);
            ranks.push_back(r.hi);
        } else {
            ranks.push_back(loadGenRank(n, p));
        }
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

MetricStats assemble(size_t n, double mean, double squaredDeviationSum, double min, double max,
                     const std::vector<size_t> &ranks, const std::vector<double> &values,
                     const QList<double> &ps, PercentileMethod method)
{
    MetricStats s;
    s.method = method;
    s.count = qint64(n);
    s.mean = mean;
    s.min = min;
    s.max = max;
    s.stddev = std::sqrt(squaredDeviationSum / double(n));
    const auto at = [&ranks, &values](size_t rank) {
        const auto it = std::lower_bound(ranks.cbegin(), ranks.cend(), rank);
        return values[size_t(it - ranks.cbegin())];
    };
    // np.median averages the two middle elements: (a + b) / 2.
    s.median = (n % 2) ? at(n / 2) : (at(n / 2 - 1) + at(n / 2)) / 2.0;
    s.percentiles.reserve(ps.size());
    for (double p : ps) {
        double value;
        if (method == PercentileMethod::Linear) {
            const LinearRank r = linearRank(n, p);
            value = numpyLerp(at(r.lo), at(r.hi), r.gamma);
        } else {
            value = at(loadGenRank(n, p));
        }
        s.percentiles.append({p, value});
    }
    return s;
}

} // namespace statsparts

double percentileLinear(std::span<const double> sorted, double p)
{
    if (sorted.empty())
        return 0;
    const LinearRank r = linearRank(sorted.size(), p);
    return numpyLerp(sorted[r.lo], sorted[r.hi], r.gamma);
}

double percentileLoadGen(std::span<const double> sorted, double p)
{
    if (sorted.empty())
        return 0;
    return sorted[loadGenRank(sorted.size(), p)];
}

double percentileSorted(std::span<const double> sorted, double p, PercentileMethod m)
{
    return m == PercentileMethod::LoadGen ? percentileLoadGen(sorted, p)
                                          : percentileLinear(sorted, p);
}

QString percentileWord(double p)
{
    if (std::isfinite(p) && p == std::trunc(p) && std::fabs(p) < 1e15)
        return QString::number(qint64(p));
    // Shortest round-trip digits, like Python's repr of a float (fixed notation: percentiles
    // live in [0, 100], where Python does not switch to exponents above 1e-4).
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, p, std::chars_format::fixed);
    return QString::fromLatin1(buf, res.ptr - buf);
}

bool MetricStats::hasPercentile(double p) const
{
    return !std::isnan(percentile(p));
}

double MetricStats::percentile(double p) const
{
    for (const auto &pv : percentiles)
        if (std::fabs(pv.first - p) < 1e-9)
            return pv.second;
    return std::numeric_limits<double>::quiet_NaN();
}

MetricStats computeStats(std::span<double> values, const QList<double> &percentiles,
                         PercentileMethod method)
{
    return statsImpl(values, percentiles, method);
}

MetricStats computeStats(std::span<float> values, const QList<double> &percentiles,
                         PercentileMethod method)
{
    return statsImpl(values, percentiles, method);
}

MetricStats computeStats(const QList<double> &values, const QList<double> &percentiles,
                         PercentileMethod method)
{
    std::vector<double> copy(values.cbegin(), values.cend());
    return statsImpl(std::span<double>(copy), percentiles, method);
}

} // namespace sb
