#pragma once

// The pieces computeStats() is built from, shared with StreamedStats so that a sample fed one
// value at a time gives the same doubles, bit for bit, as the same sample pooled: one copy of
// the arithmetic, two ways of walking the values. Internal to the metrics module.

#include "metrics/stats.h"

#include <QList>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <limits>
#include <vector>

namespace sb::statsparts {

constexpr size_t kBuckets = size_t(1) << 16;
// Below this a sort of the sample is cheaper than two passes and a histogram.
constexpr size_t kRadixThreshold = 4096;

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
// The radix select's histogram bucket: the top 16 bits of the key.
inline size_t topBucket(float x)
{
    return size_t(orderKey(x) >> 16);
}
inline size_t topBucket(double x)
{
    return size_t(orderKey(x) >> 48);
}

// Four running sums, which break the add-latency chain (numpy's pairwise sum uses eight for the
// same reason). Position p of a sample of n values goes to lane p % 4, except the last n % 4
// positions, which go to lane 0: the pooled loop walks blocks of four, then the tail. The
// order of additions in every lane is part of the result's last bits.
class LaneSum
{
public:
    void add(size_t lane, double x) { m_lane[lane] += x; }
    double total() const { return (m_lane[0] + m_lane[1]) + (m_lane[2] + m_lane[3]); }

private:
    double m_lane[4] = {0, 0, 0, 0};
};

// Calls f(position, lane) for positions 0..n-1 in order, with LaneSum's rule: blocks of four
// to lanes 0..3, then the tail to lane 0. The inner loop of four is the shape GCC vectorises
// (the four lanes in two SIMD registers); the four calls written out were three times slower.
template <typename F> inline void forEachLane(size_t n, F &&f)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (size_t k = 0; k < 4; ++k)
            f(i + k, k);
    for (; i < n; ++i)
        f(i, 0);
}

// LaneSum's rule for values that arrive one at a time, n known only at the end: a block of
// four is committed when it is complete, and the up to three held back are the tail.
class LaneSumStream
{
public:
    void add(double x)
    {
        m_held[m_count++] = x;
        if (m_count == 4) {
            for (size_t k = 0; k < 4; ++k)
                m_sum.add(k, m_held[k]);
            m_count = 0;
        }
    }
    double total() const
    {
        LaneSum s = m_sum;
        for (size_t k = 0; k < m_count; ++k)
            s.add(0, m_held[k]);
        return s.total();
    }

private:
    LaneSum m_sum;
    double m_held[4] = {0, 0, 0, 0};
    size_t m_count = 0;
};

// What the variance sums: the two-pass form, as numpy does (mean of squared deviations), with
// no cancellation from a sum of squares on large, tightly clustered latencies.
template <typename T> inline double squaredDeviation(T x, double mean)
{
    const double d = double(x) - mean;
    return d * d;
}

template <typename T> struct MinMax
{
    T min;
    T max;
    explicit MinMax(T first) : min(first), max(first) {}
    void add(T x)
    {
        min = std::min(min, x);
        max = std::max(max, x);
    }
};

// Every order statistic (0-based, ascending, unique) that the median and the percentiles of a
// sample of n > 0 values need.
std::vector<size_t> wantedRanks(size_t n, const QList<double> &ps, PercentileMethod method);

// The statistics of a non-empty sample from what its passes gathered: the mean, the lane sum of
// the squared deviations from it, the extremes, and the order statistics `values` at `ranks`
// (wantedRanks()).
MetricStats assemble(size_t n, double mean, double squaredDeviationSum, double min, double max,
                     const std::vector<size_t> &ranks, const std::vector<double> &values,
                     const QList<double> &ps, PercentileMethod method);

// The second half of a radix select. The histogram of topBucket() over the whole sample places
// every wanted rank in one bucket; offer() then keeps only the members of those few buckets,
// and select() runs nth_element on them. O(N) in two streaming passes, and memory only for the
// candidates.
template <typename T> class RadixCandidates
{
public:
    template <typename Count>
    RadixCandidates(const std::vector<Count> &hist, const std::vector<size_t> &ranks)
        : m_ranks(ranks), m_rankBucket(ranks.size()), m_bucketStart(ranks.size()),
          m_slotOf(kBuckets, -1)
    {
        size_t b = 0;
        size_t below = 0; // elements in lower buckets
        for (size_t i = 0; i < ranks.size(); ++i) {
            // Bounded: a histogram that counts fewer values than the ranks assume (a bug) ends in
            // the last bucket, whose candidates then fall short (select() gives NaN).
            while (b + 1 < hist.size() && below + size_t(hist[b]) <= ranks[i]) {
                below += size_t(hist[b]);
                ++b;
            }
            m_rankBucket[i] = b;
            m_bucketStart[i] = below;
        }
        for (size_t rb : m_rankBucket) {
            if (m_slotOf[rb] < 0) {
                m_slotOf[rb] = qint16(m_cand.size());
                m_cand.emplace_back();
                m_cand.back().reserve(size_t(hist[rb]));
            }
        }
    }

    void offer(T x)
    {
        const qint16 slot = m_slotOf[topBucket(x)];
        if (slot >= 0)
            m_cand[size_t(slot)].push_back(x);
    }

    // The order statistics at the ranks, once every value was offered. Reorders the candidates.
    // A rank its bucket's candidates do not reach (values offered that the histogram did not
    // count: a streamed second pass that saw other values) gives NaN, not a read past the end.
    std::vector<double> select()
    {
        // Ranks are ascending, so within one bucket each selection can start after the previous.
        std::vector<size_t> nextFree(m_cand.size(), 0);
        std::vector<double> out(m_ranks.size());
        for (size_t i = 0; i < m_ranks.size(); ++i) {
            const auto slot = size_t(m_slotOf[m_rankBucket[i]]);
            auto &c = m_cand[slot];
            size_t &from = nextFree[slot];
            const size_t local = m_ranks[i] - m_bucketStart[i];
            if (local >= c.size()) {
                out[i] = std::numeric_limits<double>::quiet_NaN();
                continue;
            }
            std::nth_element(c.begin() + std::ptrdiff_t(from), c.begin() + std::ptrdiff_t(local),
                             c.end());
            out[i] = double(c[local]);
            from = local + 1;
        }
        return out;
    }

private:
    std::vector<size_t> m_ranks;
    std::vector<size_t> m_rankBucket;
    std::vector<size_t> m_bucketStart;
    std::vector<qint16> m_slotOf;
    std::vector<std::vector<T>> m_cand;
};

} // namespace sb::statsparts
