#include "stats.h"

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

// Order-preserving unsigned keys: negative values flip all bits, positive ones set the sign
// bit, so unsigned comparison of keys equals numeric comparison of the values.
inline quint32 orderKey(float x)
{
    const auto b = std::bit_cast<quint32>(x);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
inline quint64 orderKey(double x)
{
    const auto b = std::bit_cast<quint64>(x);
    return (b >> 63) ? ~b : (b | (quint64(1) << 63));
}
inline size_t topBucket(float x)
{
    return size_t(orderKey(x) >> 16);
}
inline size_t topBucket(double x)
{
    return size_t(orderKey(x) >> 48);
}

constexpr size_t kBuckets = size_t(1) << 16;
// Below this a sort of the sample is cheaper than two passes and a 512 KiB histogram.
constexpr size_t kRadixThreshold = 4096;

// Fills `out` (parallel to the sorted, unique `ranks`) with the order statistics of v.
// Radix select: pass 1 histograms the top 16 key bits, which places every wanted rank in one
// bucket; pass 2 copies out only the members of those few buckets, and nth_element runs on
// them. O(N) with two streaming passes, and the input is left untouched.
template <typename T>
void radixSelect(std::span<const T> v, const std::vector<quint32> &hist,
                 const std::vector<size_t> &ranks, std::vector<double> &out)
{
    std::vector<size_t> rankBucket(ranks.size());
    std::vector<size_t> bucketStart(ranks.size()); // elements in lower buckets
    {
        size_t b = 0;
        size_t below = 0;
        for (size_t i = 0; i < ranks.size(); ++i) {
            while (below + size_t(hist[b]) <= ranks[i]) {
                below += hist[b];
                ++b;
            }
            rankBucket[i] = b;
            bucketStart[i] = below;
        }
    }
    std::vector<qint16> slotOf(kBuckets, -1);
    std::vector<std::vector<T>> cand;
    for (size_t b : rankBucket) {
        if (slotOf[b] < 0) {
            slotOf[b] = qint16(cand.size());
            cand.emplace_back();
            cand.back().reserve(hist[b]);
        }
    }
    for (const T x : v) {
        const qint16 slot = slotOf[topBucket(x)];
        if (slot >= 0)
            cand[size_t(slot)].push_back(x);
    }
    // Ranks are ascending, so within one bucket each selection can start after the previous.
    std::vector<size_t> nextFree(cand.size(), 0);
    out.resize(ranks.size());
    for (size_t i = 0; i < ranks.size(); ++i) {
        auto &c = cand[size_t(slotOf[rankBucket[i]])];
        size_t &from = nextFree[size_t(slotOf[rankBucket[i]])];
        const size_t local = ranks[i] - bucketStart[i];
        std::nth_element(c.begin() + std::ptrdiff_t(from), c.begin() + std::ptrdiff_t(local),
                         c.end());
        out[i] = double(c[local]);
        from = local + 1;
    }
}

template <typename T>
MetricStats statsImpl(std::span<T> v, const QList<double> &ps, PercentileMethod method)
{
    MetricStats s;
    s.method = method;
    s.count = qint64(v.size());
    s.percentiles.reserve(ps.size());
    if (v.empty()) {
        for (double p : ps)
            s.percentiles.append({p, 0.0});
        return s;
    }
    const size_t n = v.size();
    // quint32 counts: the histogram must stay cache-resident; samples beyond 4G do not fit in
    // memory anyway.
    const bool radix = n >= kRadixThreshold && n < size_t(std::numeric_limits<quint32>::max());
    std::vector<quint32> hist;
    if (radix)
        hist.assign(kBuckets, 0);

    // Four independent accumulators break the add-latency chain (numpy's pairwise sum uses
    // eight for the same reason); the histogram rides along in the same pass.
    double sum4[4] = {0, 0, 0, 0};
    T mn = v[0];
    T mx = v[0];
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        for (size_t k = 0; k < 4; ++k) {
            const T x = v[i + k];
            sum4[k] += double(x);
            mn = std::min(mn, x);
            mx = std::max(mx, x);
            if (radix)
                ++hist[topBucket(x)];
        }
    }
    for (; i < n; ++i) {
        const T x = v[i];
        sum4[0] += double(x);
        mn = std::min(mn, x);
        mx = std::max(mx, x);
        if (radix)
            ++hist[topBucket(x)];
    }
    s.mean = ((sum4[0] + sum4[1]) + (sum4[2] + sum4[3])) / double(n);
    s.min = double(mn);
    s.max = double(mx);
    // Two-pass variance, as numpy does (mean of squared deviations): no cancellation from
    // sum-of-squares on large, tightly clustered latencies.
    double sq4[4] = {0, 0, 0, 0};
    i = 0;
    for (; i + 4 <= n; i += 4) {
        for (size_t k = 0; k < 4; ++k) {
            const double d = double(v[i + k]) - s.mean;
            sq4[k] += d * d;
        }
    }
    for (; i < n; ++i) {
        const double d = double(v[i]) - s.mean;
        sq4[0] += d * d;
    }
    s.stddev = std::sqrt(((sq4[0] + sq4[1]) + (sq4[2] + sq4[3])) / double(n));

    // Every order statistic the median and the percentiles need.
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

    std::vector<double> values;
    if (!radix) {
        std::sort(v.begin(), v.end());
        values.reserve(ranks.size());
        for (size_t r : ranks)
            values.push_back(double(v[r]));
    } else {
        radixSelect(std::span<const T>(v.data(), v.size()), hist, ranks, values);
    }
    const auto at = [&ranks, &values](size_t rank) {
        const auto it = std::lower_bound(ranks.cbegin(), ranks.cend(), rank);
        return values[size_t(it - ranks.cbegin())];
    };

    // np.median averages the two middle elements: (a + b) / 2.
    s.median = (n % 2) ? at(n / 2) : (at(n / 2 - 1) + at(n / 2)) / 2.0;
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

} // namespace

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
