#pragma once

#include "charts/thinning.h"

#include <QList>
#include <QPointF>

#include <vector>

namespace sb {

// A distribution of non-negative floats in fixed memory (4 MB whatever the sample size), for
// charts of samples too large to pool: the inter-token gaps of a million-request run are 100 M
// values, 400 MB as floats. A value's bucket is its IEEE-754 bit pattern without the low 11
// mantissa bits, so every bucket spans 2^-12 of its value (0.024 %): a CDF or a histogram drawn
// from it places each sample within 0.024 % of where the exact sample would put it — far below
// a pixel. The minimum and maximum are kept exactly. The statistics shown as numbers (mean,
// percentiles) never come from here: they are core's, computed from the raw records.
class FineHistogram
{
public:
    FineHistogram();

    void add(float value); // negative and NaN values count as 0 (gaps are never negative)
    qint64 count() const { return m_count; }
    double min() const { return m_count ? double(m_min) : 0.0; }
    double max() const { return m_count ? double(m_max) : 0.0; }

    // cdfPoints() of the sample, with each value replaced by its bucket's lower edge (upper
    // edge for a column's last point), clamped to [min, max].
    QList<QPointF> cdf(int buckets) const;
    // makeHistogram() of the sample: lo = min, hi = the bucket holding the hiQuantile rank;
    // each bucket's count goes to the bin of its midpoint.
    Histogram histogram(int bins, double hiQuantile) const;

private:
    static constexpr int kDropBits = 11;
    double lowerEdge(size_t bucket) const;
    double upperEdge(size_t bucket) const;
    // The bucket holding the sample of this 0-based rank (count() > 0).
    size_t bucketOfRank(qint64 rank) const;

    std::vector<quint32> m_counts;
    qint64 m_count = 0;
    float m_min = 0;
    float m_max = 0;
};

} // namespace sb
