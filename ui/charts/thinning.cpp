#include "thinning.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sb {

namespace {

inline int columnOf(double x, double x0, double scale, int buckets)
{
    const double c = (x - x0) * scale;
    if (!(c > 0)) // also NaN
        return 0;
    return c >= double(buckets) ? buckets - 1 : int(c);
}

} // namespace

QList<QPointF> thinMinMax(std::span<const double> xs, std::span<const double> ys, double x0,
                          double x1, int buckets)
{
    QList<QPointF> out;
    const size_t n = std::min(xs.size(), ys.size());
    if (n == 0 || buckets <= 0)
        return out;
    const double scale = x1 > x0 ? double(buckets) / (x1 - x0) : 0.0;
    // Index of the min and max point per column; -1 = empty column.
    std::vector<qint64> lo(size_t(buckets), -1);
    std::vector<qint64> hi(size_t(buckets), -1);
    for (size_t i = 0; i < n; ++i) {
        const double y = ys[i];
        if (std::isnan(y))
            continue;
        const size_t c = size_t(columnOf(xs[i], x0, scale, buckets));
        if (lo[c] < 0) {
            lo[c] = hi[c] = qint64(i);
            continue;
        }
        if (y < ys[size_t(lo[c])])
            lo[c] = qint64(i);
        if (y > ys[size_t(hi[c])])
            hi[c] = qint64(i);
    }
    out.reserve(2 * buckets);
    for (int c = 0; c < buckets; ++c) {
        if (lo[size_t(c)] < 0)
            continue;
        size_t a = size_t(lo[size_t(c)]);
        size_t b = size_t(hi[size_t(c)]);
        if (a == b) {
            out.append(QPointF(xs[a], ys[a]));
            continue;
        }
        if (xs[b] < xs[a])
            std::swap(a, b);
        out.append(QPointF(xs[a], ys[a]));
        out.append(QPointF(xs[b], ys[b]));
    }
    return out;
}

QList<QPointF> thinMinMax(const QList<QPointF> &points, double x0, double x1, int buckets)
{
    std::vector<double> xs;
    std::vector<double> ys;
    xs.reserve(size_t(points.size()));
    ys.reserve(size_t(points.size()));
    for (const QPointF &p : points) {
        xs.push_back(p.x());
        ys.push_back(p.y());
    }
    return thinMinMax(xs, ys, x0, x1, buckets);
}

QList<QPointF> cdfPoints(std::span<const double> sorted, int buckets)
{
    QList<QPointF> out;
    const size_t n = sorted.size();
    if (n == 0 || buckets <= 0)
        return out;
    const double x0 = sorted.front();
    const double x1 = sorted.back();
    const double scale = x1 > x0 ? double(buckets) / (x1 - x0) : 0.0;
    const double dn = double(n);
    out.reserve(2 * buckets + 2);
    size_t i = 0;
    while (i < n) {
        const int c = columnOf(sorted[i], x0, scale, buckets);
        // The sample is sorted, so the column's samples are one run: find its end by bisection
        // rather than walking, which keeps a million-sample CDF cheap at a live refresh rate.
        const double colEnd = scale > 0 ? x0 + double(c + 1) / scale : x1;
        size_t j =
            c == buckets - 1
                ? n
                : size_t(std::lower_bound(sorted.begin() + qsizetype(i), sorted.end(), colEnd) -
                         sorted.begin());
        j = std::max(j, i + 1);
        out.append(QPointF(sorted[i], double(i + 1) / dn));
        if (j - 1 > i)
            out.append(QPointF(sorted[j - 1], double(j) / dn));
        i = j;
    }
    return out;
}

QList<QPointF> Histogram::outline() const
{
    QList<QPointF> out;
    if (counts.isEmpty())
        return out;
    const double w = binWidth();
    out.reserve(2 * counts.size() + 2);
    out.append(QPointF(lo, 0));
    for (qsizetype b = 0; b < counts.size(); ++b) {
        const double left = lo + double(b) * w;
        out.append(QPointF(left, double(counts.at(b))));
        out.append(QPointF(left + w, double(counts.at(b))));
    }
    out.append(QPointF(hi, 0));
    return out;
}

Histogram makeHistogram(std::span<const double> sorted, int bins, double hiQuantile)
{
    Histogram h;
    if (sorted.empty() || bins <= 0)
        return h;
    const size_t n = sorted.size();
    hiQuantile = std::clamp(hiQuantile, 0.0, 1.0);
    const size_t hiRank = std::min(n - 1, size_t(std::ceil(hiQuantile * double(n - 1))));
    h.lo = sorted.front();
    h.hi = sorted[hiRank];
    if (!(h.hi > h.lo)) // one distinct value: give the bar a visible width
        h.hi = h.lo + std::max(1e-9, std::abs(h.lo) * 1e-3);
    h.counts.fill(0, bins);
    const double scale = double(bins) / (h.hi - h.lo);
    for (double v : sorted) {
        if (v > h.hi) {
            ++h.above;
            continue;
        }
        ++h.counts[columnOf(v, h.lo, scale, bins)];
    }
    return h;
}

} // namespace sb
