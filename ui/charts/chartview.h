#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QPointF>

class QValueAxis;
class QXYSeries;

namespace sb {

// The smallest of 1, 2, 2.5, 5 times a power of ten that is >= v: a round axis step (1 for a
// v that is not positive and finite).
double niceAxisCeil(double v);

// The workbench's series colours (matplotlib's tab10), cycling; the named ones are its first.
QColor chartColor(int index);
namespace chartcolor {
inline QColor blue()
{
    return chartColor(0);
}
inline QColor orange()
{
    return chartColor(1);
}
inline QColor green()
{
    return chartColor(2);
}
inline QColor red()
{
    return chartColor(3);
}
inline QColor purple()
{
    return chartColor(4);
}
} // namespace chartcolor

// One titled chart with a linear x and y axis and any number of line / scatter series, fed
// with already-thinned point lists through QXYSeries::replace() (one repaint per update instead
// of one per point). The axes follow the data unless a range is fixed.
class ChartView : public QChartView
{
    Q_OBJECT
public:
    enum class Kind { Line, Scatter };

    explicit ChartView(const QString &title, QWidget *parent = nullptr);

    int addSeries(const QString &name, Kind kind, const QColor &color);
    void setAxisTitles(const QString &x, const QString &y);
    // Replaces the points of one series; the axes are refitted unless fixed.
    void setPoints(int series, const QList<QPointF> &points);
    void clearPoints();
    // NaN for either bound = follow the data on that side.
    void setFixedXRange(double lo, double hi);
    void setFixedYRange(double lo, double hi);
    // The title (retranslated on a language switch) and a subtitle appended in a smaller font;
    // each keeps the other.
    void setTitle(const QString &title);
    void setSubtitle(const QString &text);

    // Pixel columns of the plot area: the number of buckets worth keeping when thinning.
    int plotColumns() const;
    qsizetype pointCount(int series) const;
    QXYSeries *series(int index) const { return m_series.value(index); }

signals:
    // The plot area changed width, so data thinned for the old width should be thinned again.
    void plotColumnsChanged(int columns);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void refit();

    void renderTitle();

    QString m_title;
    QString m_subtitle;
    QValueAxis *m_x;
    QValueAxis *m_y;
    QList<QXYSeries *> m_series;
    struct Bounds
    {
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        bool valid = false;
    };
    QList<Bounds> m_bounds; // per series
    double m_fixedX[2];
    double m_fixedY[2];
    int m_lastColumns = 0;
};

} // namespace sb
