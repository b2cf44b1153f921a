#include "streamedstats.h"
#include "statsparts.h"

#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace sb {

using namespace statsparts;

template <typename T> struct StreamedStats<T>::State
{
    QList<double> ps;
    PercentileMethod method;

    // First pass.
    size_t n = 0;
    LaneSumStream sum;
    std::optional<MinMax<T>> extremes;
    // The values while they are fewer than the radix threshold; then the histogram instead.
    // quint64 counts, unlike the pooled select's cache-sized quint32: a streamed sample is not
    // bounded by memory. (computeStats() sorts a pooled sample of 4G values or more; the order
    // statistics, and so every result, are the same either way.)
    std::vector<T> small;
    std::vector<quint64> hist;
    bool large = false;

    // Second pass.
    bool second = false;
    double mean = 0;
    std::vector<size_t> ranks;
    std::optional<RadixCandidates<T>> candidates;
    LaneSumStream squares;
    // The second pass sums the values again, a cheap check that it fed the same values: their
    // count and sum must match the first pass's to the bit. The same values in another order
    // pass it (float samples sum exactly in double) and change only the last bits of stddev.
    LaneSumStream again;
    size_t seen = 0;

    void beginSecond()
    {
        second = true;
        mean = sum.total() / double(n);
        ranks = wantedRanks(n, ps, method);
        candidates.emplace(hist, ranks);
        std::vector<quint64>().swap(hist);
    }
};

template <typename T>
StreamedStats<T>::StreamedStats(const QList<double> &percentiles, PercentileMethod method)
    : d(std::make_unique<State>())
{
    d->ps = percentiles;
    d->method = method;
}

template <typename T> StreamedStats<T>::~StreamedStats() = default;

template <typename T> void StreamedStats<T>::add(T x)
{
    State &st = *d;
    Q_ASSERT(!st.second);
    if (st.extremes)
        st.extremes->add(x);
    else
        st.extremes.emplace(x);
    st.sum.add(double(x));
    ++st.n;
    if (st.large) {
        ++st.hist[topBucket(x)];
        return;
    }
    st.small.push_back(x);
    if (st.small.size() == kRadixThreshold) {
        st.large = true;
        st.hist.assign(kBuckets, 0);
        for (const T y : st.small)
            ++st.hist[topBucket(y)];
        std::vector<T>().swap(st.small);
    }
}

template <typename T> qint64 StreamedStats<T>::count() const
{
    return qint64(d->n);
}

template <typename T> bool StreamedStats<T>::needsSecondPass() const
{
    return d->large;
}

template <typename T> void StreamedStats<T>::addAgain(T x)
{
    State &st = *d;
    Q_ASSERT(st.large);
    if (!st.large)
        return;
    if (!st.second)
        st.beginSecond();
    st.squares.add(squaredDeviation(x, st.mean));
    st.candidates->offer(x);
    st.again.add(double(x));
    ++st.seen;
}

template <typename T> MetricStats StreamedStats<T>::finish()
{
    State &st = *d;
    if (!st.large)
        return computeStats(std::span<T>(st.small), st.ps, st.method);
    const bool complete = st.second && st.seen == st.n && st.again.total() == st.sum.total();
    Q_ASSERT_X(complete, "StreamedStats::finish",
               "the second pass must feed the same values in the same order");
    if (!complete) {
        // Without assertions: the numbers the first pass can vouch for, NaN for the rest, so
        // that the output shows something went wrong instead of a plausible figure.
        MetricStats s;
        s.method = st.method;
        s.count = qint64(st.n);
        s.mean = st.sum.total() / double(st.n);
        s.min = double(st.extremes->min);
        s.max = double(st.extremes->max);
        s.stddev = s.median = std::numeric_limits<double>::quiet_NaN();
        for (double p : std::as_const(st.ps))
            s.percentiles.append({p, std::numeric_limits<double>::quiet_NaN()});
        return s;
    }
    const std::vector<double> values = st.candidates->select();
    return assemble(st.n, st.mean, st.squares.total(), double(st.extremes->min),
                    double(st.extremes->max), st.ranks, values, st.ps, st.method);
}

template class StreamedStats<float>;
template class StreamedStats<double>;

} // namespace sb
