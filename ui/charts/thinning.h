#pragma once

#include <QList>
#include <QPointF>

#include <span>

namespace sb {

// Qt Charts draws every point it is given, in the GUI thread; a million-point series freezes the
// window. Anything that feeds a chart goes through these first and arrives with about as many
// points as the plot has pixels. The reduction keeps the extremes of every pixel column
// (min/max decimation, as oscilloscopes and heaptrack's charts do), so a single slow request
// still shows as a spike instead of being averaged away.

// Splits [x0, x1] into `buckets` equal columns and keeps, per non-empty column, the point with
// the smallest y and the one with the largest y (one point when they coincide), in x order
// inside the column, columns left to right. Points outside [x0, x1] fall into the edge columns.
// xs and ys have the same length; they need not be sorted. NaN ys are skipped.
QList<QPointF> thinMinMax(std::span<const double> xs, std::span<const double> ys, double x0,
                          double x1, int buckets);
// The same over points.
QList<QPointF> thinMinMax(const QList<QPointF> &points, double x0, double x1, int buckets);

// The empirical CDF of an ascending sample: (value_i, (i + 1) / n). Thinned by value into
// `buckets` columns over [sorted.front(), sorted.back()]; the CDF is monotone, so the first and
// last sample of a column are its min and max there and are all that is kept. The first and last
// points of the whole sample are always present.
QList<QPointF> cdfPoints(std::span<const double> sortedAscending, int buckets);

// Equal-width histogram of an ascending sample over [lo, hi]; samples above hi are counted in
// `above` rather than binned (a long tail would otherwise squash every bin into the first).
struct Histogram
{
    double lo = 0;
    double hi = 0;
    QList<qint64> counts;
    qint64 above = 0;

    double binWidth() const { return counts.isEmpty() ? 0 : (hi - lo) / double(counts.size()); }
    // Step outline (0 at both ends) for a QLineSeries / QAreaSeries.
    QList<QPointF> outline() const;
};
// hiQuantile in (0, 1]: hi is the sample at that rank (1 = max), so a few stragglers do not
// decide the scale.
Histogram makeHistogram(std::span<const double> sortedAscending, int bins, double hiQuantile = 1.0);

} // namespace sb
