#include "finehistogram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace sb {

namespace {

// Positive finite floats below +inf: their bit patterns order like their values.
constexpr std::uint32_t kInfBits = 0x7f800000u;

} // namespace

FineHistogram::FineHistogram() : m_counts(size_t(kInfBits >> kDropBits) + 1, 0) {}

void FineHistogram::add(float value)
{
    if (!(value > 0)) // also NaN
        value = 0;
    const std::uint32_t bits = std::min(std::bit_cast<std::uint32_t>(value), kInfBits - 1);
    ++m_counts[bits >> kDropBits];
    if (m_count == 0) {
        m_min = m_max = value;
    } else {
        m_min = std::min(m_min, value);
        m_max = std::max(m_max, value);
    }
    ++m_count;
}

double FineHistogram::lowerEdge(size_t bucket) const
{
    const double v = double(std::bit_cast<float>(std::uint32_t(bucket << kDropBits)));
    return std::clamp(v, double(m_min), double(m_max));
}

double FineHistogram::upperEdge(size_t bucket) const
{
    const std::uint32_t last = std::uint32_t(((bucket + 1) << kDropBits) - 1);
    const double v = double(std::bit_cast<float>(std::min(last, kInfBits - 1)));
    return std::clamp(v, double(m_min), double(m_max));
}

size_t FineHistogram::bucketOfRank(qint64 rank) const
{
    qint64 below = 0;
    for (size_t b = 0; b < m_counts.size(); ++b) {
        below += m_counts[b];
        if (below > rank)
            return b;
    }
    return m_counts.size() - 1;
}

QList<QPointF> FineHistogram::cdf(int buckets) const
{
    QList<QPointF> out;
    if (m_count == 0 || buckets <= 0)
        return out;
    // The same columns as cdfPoints(): equal widths over [min, max]; per column the first and
    // last sample's cumulative fraction.
    const double x0 = min();
    const double x1 = max();
    const double scale = x1 > x0 ? double(buckets) / (x1 - x0) : 0.0;
    const double n = double(m_count);
    const auto columnOf = [&](double x) {
        const double c = (x - x0) * scale;
        if (!(c > 0))
            return 0;
        return c >= double(buckets) ? buckets - 1 : int(c);
    };
    out.reserve(2 * buckets + 2);
    qint64 cum = 0;
    int column = -1;
    double lastX = 0;
    qint64 lastCum = 0;
    qint64 firstCum = 0;
    for (size_t b = 0; b < m_counts.size(); ++b) {
        if (m_counts[b] == 0)
            continue;
        const int c = columnOf(lowerEdge(b));
        if (c != column) {
            if (column >= 0 && lastCum > firstCum)
                out.append(QPointF(lastX, double(lastCum) / n));
            column = c;
            firstCum = cum + 1;
            out.append(QPointF(lowerEdge(b), double(firstCum) / n));
        }
        cum += m_counts[b];
        lastX = upperEdge(b);
        lastCum = cum;
    }
    if (column >= 0 && lastCum > firstCum)
        out.append(QPointF(lastX, double(lastCum) / n));
    return out;
}

Histogram FineHistogram::histogram(int bins, double hiQuantile) const
{
    Histogram h;
    if (m_count == 0 || bins <= 0)
        return h;
    hiQuantile = std::clamp(hiQuantile, 0.0, 1.0);
    const qint64 hiRank =
        std::min(m_count - 1, qint64(std::ceil(hiQuantile * double(m_count - 1))));
    h.lo = min();
    h.hi = hiRank == m_count - 1 ? max() : upperEdge(bucketOfRank(hiRank));
    if (!(h.hi > h.lo))
        h.hi = h.lo + std::max(1e-9, std::abs(h.lo) * 1e-3);
    h.counts.fill(0, bins);
    const double scale = double(bins) / (h.hi - h.lo);
    for (size_t b = 0; b < m_counts.size(); ++b) {
        if (m_counts[b] == 0)
            continue;
        const double mid = (lowerEdge(b) + upperEdge(b)) / 2;
        if (mid > h.hi) {
            h.above += m_counts[b];
            continue;
        }
        const double c = (mid - h.lo) * scale;
        const int bin = !(c > 0) ? 0 : (c >= double(bins) ? bins - 1 : int(c));
        h.counts[bin] += m_counts[b];
    }
    return h;
}

} // namespace sb
