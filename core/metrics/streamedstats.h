#pragma once

#include "metrics/stats.h"

#include <QList>

#include <cstddef>
#include <memory>

namespace sb {

// computeStats() of a sample that is never held: the values are fed in order, and fed again in
// the same order when needsSecondPass() says so. The result is bit-identical to computeStats()
// of the same values pooled in that order (the same lane sums, extremes, radix histogram,
// candidates and selection, through the same code). Memory: a 512 KiB histogram, then only the
// candidates of the buckets that hold the wanted ranks. A sample smaller than computeStats()'s
// radix threshold (a few thousand values) is kept and handed to computeStats() itself, with no
// second pass.
//
//   StreamedStats<float> s(percentiles, method);
//   for (x : values) s.add(x);
//   if (s.needsSecondPass()) for (x : the same values, same order) s.addAgain(x);
//   MetricStats m = s.finish();
template <typename T> class StreamedStats
{
public:
    StreamedStats(const QList<double> &percentiles, PercentileMethod method);
    ~StreamedStats();
    StreamedStats(const StreamedStats &) = delete;
    StreamedStats &operator=(const StreamedStats &) = delete;

    void add(T x);
    qint64 count() const;
    // After the last add(): the variance and the order statistics need the values once more.
    bool needsSecondPass() const;
    // Only when needsSecondPass() (ignored otherwise): every value again, in the order add() saw
    // them (the lanes of the variance sum depend on it). finish() checks that as many values
    // came, summing to the same bits; if not, what the first pass cannot give alone is NaN.
    void addAgain(T x);
    // After the last add(), and after the second pass when there is one. Call once.
    MetricStats finish();

private:
    struct State;
    std::unique_ptr<State> d;
};

extern template class StreamedStats<float>;
extern template class StreamedStats<double>;

} // namespace sb
