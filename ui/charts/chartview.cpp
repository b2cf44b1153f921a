#include "chartview.h"

#include <QChart>
#include <QFontMetricsF>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Widens [lo, hi] to multiples of a round step (a tenth of the nice span). Qt Charts lays a
// chart out again on every axis range change, which costs milliseconds per chart; snapping
// makes the range change only when the data cross a step, not on every refresh.
void snapRange(double &lo, double &hi, bool snapLo)
{
    const double step = niceAxisCeil(hi - lo) / 10;
    if (snapLo)
        lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
}

} // namespace

QColor chartColor(int index)
{
    static const QList<QColor> palette = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                                          QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
                                          QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                          QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f),
                                          QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf)};
    return palette.at(index % palette.size());
}

double niceAxisCeil(double v)
{
    if (!(v > 0) || !std::isfinite(v))
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * p >= v * (1 - 1e-12))
            return m * p;
    return 10 * p;
}

ChartView::ChartView(const QString &title, QWidget *parent)
    : QChartView(parent), m_title(title), m_x(new QValueAxis(this)),
      m_y(new QValueAxis(this)), m_fixedX{kNaN, kNaN}, m_fixedY{kNaN, kNaN}
{
    auto *c = new QChart();
    c->setTitle(title);
    c->setMargins(QMargins(4, 4, 4, 4));
    c->legend()->setAlignment(Qt::AlignBottom);
    c->legend()->setVisible(false);
    // Animations would restart on every replace() at the refresh rate.
    c->setAnimationOptions(QChart::NoAnimation);
    QFont f = c->titleFont();
    f.setBold(true);
    c->setTitleFont(f);
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    m_x->setLabelFormat(u"%.4g"_s);
    m_y->setLabelFormat(u"%.4g"_s);
    for (QValueAxis *a : {m_x, m_y}) {
        a->setRange(0, 1);
        a->setTickType(QValueAxis::TicksDynamic);
        a->setTickAnchor(0);
        a->setTickInterval(0.2);
    }
    setChart(c);
    setRenderHint(QPainter::Antialiasing, true);
    setMinimumSize(260, 180);
}

int ChartView::addSeries(const QString &name, Kind kind, const QColor &color)
{
    QXYSeries *s = nullptr;
    if (kind == Kind::Scatter) {
        auto *sc = new QScatterSeries();
        sc->setMarkerSize(5);
        sc->setPen(Qt::NoPen); // marker outlines double the paint cost and blur dense clouds
        sc->setColor(color);
        s = sc;
    } else {
        auto *ln = new QLineSeries();
        QPen pen(color);
        pen.setWidthF(1.5);
        ln->setPen(pen);
        s = ln;
    }
    s->setName(name);
    chart()->addSeries(s);
    s->attachAxis(m_x);
    s->attachAxis(m_y);
    m_series.append(s);
    m_bounds.append(Bounds{});
    // A legend only says something when there is more than one series.
    chart()->legend()->setVisible(m_series.size() > 1);
    return int(m_series.size() - 1);
}

void ChartView::setAxisTitles(const QString &x, const QString &y)
{
    m_x->setTitleText(x);
    m_y->setTitleText(y);
}

void ChartView::setPoints(int index, const QList<QPointF> &points)
{
    if (index < 0 || index >= m_series.size())
        return;
    Bounds b;
    for (const QPointF &p : points) {
        if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
            continue;
        if (!b.valid) {
            b = {p.x(), p.x(), p.y(), p.y(), true};
            continue;
        }
        b.x0 = std::min(b.x0, p.x());
        b.x1 = std::max(b.x1, p.x());
        b.y0 = std::min(b.y0, p.y());
        b.y1 = std::max(b.y1, p.y());
    }
    m_bounds[index] = b;
    m_series.at(index)->replace(points);
    refit();
}

void ChartView::clearPoints()
{
    for (qsizetype i = 0; i < m_series.size(); ++i) {
        m_series.at(i)->clear();
        m_bounds[i] = Bounds{};
    }
    refit();
}

void ChartView::setFixedXRange(double lo, double hi)
{
    m_fixedX[0] = lo;
    m_fixedX[1] = hi;
    refit();
}

void ChartView::setFixedYRange(double lo, double hi)
{
    m_fixedY[0] = lo;
    m_fixedY[1] = hi;
    refit();
}

void ChartView::setTitle(const QString &title)
{
    m_title = title;
    renderTitle();
}

void ChartView::setSubtitle(const QString &text)
{
    m_subtitle = text;
    renderTitle();
}

void ChartView::renderTitle()
{
    chart()->setTitle(m_subtitle.isEmpty()
                          ? m_title
                          : u"%1<br><small>%2</small>"_s.arg(m_title.toHtmlEscaped(),
                                                             m_subtitle.toHtmlEscaped()));
}

int ChartView::plotColumns() const
{
    const int w = int(chart()->plotArea().width());
    // Before the first layout the plot area is empty; the widget width is a fair guess.
    return std::max(50, w > 10 ? w : width() - 60);
}

qsizetype ChartView::pointCount(int index) const
{
    return index >= 0 && index < m_series.size() ? m_series.at(index)->count() : 0;
}

void ChartView::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    // The tick count follows the plot's size (refit()).
    refit();
    const int cols = plotColumns();
    // Only a real change is worth a re-thin; a few pixels are not.
    if (std::abs(cols - m_lastColumns) > 8) {
        m_lastColumns = cols;
        emit plotColumnsChanged(cols);
    }
}

void ChartView::refit()
{
    Bounds all;
    for (const Bounds &b : std::as_const(m_bounds)) {
        if (!b.valid)
            continue;
        if (!all.valid) {
            all = b;
            continue;
        }
        all.x0 = std::min(all.x0, b.x0);
        all.x1 = std::max(all.x1, b.x1);
        all.y0 = std::min(all.y0, b.y0);
        all.y1 = std::max(all.y1, b.y1);
    }
    double x0 = all.valid ? all.x0 : 0;
    double x1 = all.valid ? all.x1 : 1;
    // Latencies, counts and rates are never negative: a y axis from 0 keeps charts comparable.
    double y0 = all.valid ? std::min(0.0, all.y0) : 0;
    double y1 = all.valid ? all.y1 * 1.05 : 1;
    if (x1 > x0)
        snapRange(x0, x1, true);
    if (y1 > y0)
        snapRange(y0, y1, false);
    if (!std::isnan(m_fixedX[0]))
        x0 = m_fixedX[0];
    if (!std::isnan(m_fixedX[1]))
        x1 = m_fixedX[1];
    if (!std::isnan(m_fixedY[0]))
        y0 = m_fixedY[0];
    if (!std::isnan(m_fixedY[1]))
        y1 = m_fixedY[1];
    if (!(x1 > x0))
        x1 = x0 + 1;
    if (!(y1 > y0))
        y1 = y0 + 1;
    // As many ticks as the plot has room for, up to six: Qt Charts cuts a y label to "..." when
    // the space between ticks is lower than the label, and an x label when narrower (the
    // dashboard's latency CDF read "..." at 1280x800).
    const QRectF plot = chart()->plotArea();
    const auto ticksFor = [](qreal pixels, qreal perTick) {
        return pixels > 0 ? std::clamp(int(pixels / perTick), 1, 6) : 6;
    };
    const auto apply = [](QValueAxis *axis, double lo, double hi, int ticks, bool vertical) {
        // Ticks on multiples of a round step rather than Qt's fixed count, which labels a
        // 0..18.36 s axis 4.59, 9.179, ... The coarser of old and new interval goes first: a
        // wide range with a fine interval would lay out thousands of ticks.
        const double interval = niceAxisCeil((hi - lo) / ticks);
        if (interval > axis->tickInterval())
            axis->setTickInterval(interval);
        if (axis->min() != lo || axis->max() != hi)
            axis->setRange(lo, hi);
        if (interval < axis->tickInterval())
            axis->setTickInterval(interval);
        // Labels of one character ("0" … "8") on a y axis are narrower than the "..." Qt Charts
        // reserves beside them, which leaves the axis title no room: it is cut to "...". One
        // decimal keeps every label wider.
        const bool oneCharacter = vertical && hi < 10 && lo > -1 && interval >= 1;
        axis->setLabelFormat(oneCharacter ? u"%.1f"_s : u"%.4g"_s);
    };
    const QFontMetricsF xfm(m_x->labelsFont());
    const QFontMetricsF yfm(m_y->labelsFont());
    const qreal xLabel = std::max(xfm.horizontalAdvance(QString::number(x1, 'g', 4)),
                                  xfm.horizontalAdvance(QString::number(x0, 'g', 4)));
    apply(m_x, x0, x1, ticksFor(plot.width(), xLabel + 24), false);
    apply(m_y, y0, y1, ticksFor(plot.height(), yfm.height() + 10), true);
}

} // namespace sb
