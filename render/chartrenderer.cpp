#include "chartrenderer.h"

#include "report/chartspec.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace sb {

using namespace Qt::StringLiterals;

namespace {

const QList<QColor> &palette()
{
    // Distinguishable in print and for the common colour-vision deficiencies (Okabe-Ito).
    static const QList<QColor> p = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00),
                                    QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
                                    QColor(0x56, 0xB4, 0xE9), QColor(0xD5, 0x5E, 0x00),
                                    QColor(0xF0, 0xE4, 0x42), QColor(0x00, 0x00, 0x00)};
    return p;
}

// A "nice" tick step (1, 2 or 5 × 10^k) giving about `ticks` intervals over [0, max].
double niceStep(double max, int ticks)
{
    if (!(max > 0))
        return 1;
    const double raw = max / ticks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

QString tickText(double v, double step)
{
    const int decimals = step >= 1 ? 0 : std::min(6, int(std::ceil(-std::log10(step))));
    return QString::number(v, 'f', decimals);
}

struct Frame
{
    QRectF plot;
    QFont font;
};

Frame drawFrame(QPainter &p, const ChartSpec &spec, QSize size, const QStringList &legend)
{
    Frame f;
    f.font = p.font();
    f.font.setPixelSize(14);
    p.setFont(f.font);
    p.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    QFont title = f.font;
    title.setPixelSize(17);
    title.setBold(true);
    p.setFont(title);
    p.setPen(Qt::black);
    p.drawText(QRectF(0, 6, size.width(), 24), Qt::AlignHCenter | Qt::AlignVCenter, spec.title);
    p.setFont(f.font);
    // The legend under the title, wrapped onto as many rows as its entries need: one row ran
    // past the image's edge and lost the last runs' names once there were six of them.
    const QList<QRectF> entries =
        legendLayout(QFontMetricsF(f.font), legend, 80, size.width() - 20, 30);
    qreal legendBottom = 30;
    for (int i = 0; i < legend.size(); ++i) {
        const QRectF e = entries.at(i);
        p.fillRect(QRectF(e.left(), e.top() + 5, 22, 10), palette().at(i % palette().size()));
        p.drawText(QRectF(e.left() + 28, e.top(), e.width() - 28, e.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, legend.at(i));
        legendBottom = std::max(legendBottom, e.bottom());
    }
    const qreal top = std::max<qreal>(64, legendBottom + 10);
    f.plot = QRectF(80, top, size.width() - 110, size.height() - top - 56);
    return f;
}

void drawAxes(QPainter &p, const Frame &f, const ChartSpec &spec, double xMax, double yMax,
              bool xAxisNumeric)
{
    const QRectF &r = f.plot;
    p.setPen(QPen(QColor(0xCC, 0xCC, 0xCC), 1));
    const double yStep = niceStep(yMax, 5);
    for (double v = 0; v <= yMax * 1.0001; v += yStep) {
        const qreal y = r.bottom() - v / yMax * r.height();
        p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
        p.setPen(Qt::black);
        p.drawText(QRectF(0, y - 9, r.left() - 8, 18), Qt::AlignRight | Qt::AlignVCenter,
                   tickText(v, yStep));
        p.setPen(QPen(QColor(0xCC, 0xCC, 0xCC), 1));
    }
    if (xAxisNumeric) {
        const double xStep = niceStep(xMax, 8);
        for (double v = 0; v <= xMax * 1.0001; v += xStep) {
            const qreal x = r.left() + v / xMax * r.width();
            p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
            p.setPen(Qt::black);
            p.drawText(QRectF(x - 40, r.bottom() + 4, 80, 18), Qt::AlignHCenter | Qt::AlignTop,
                       tickText(v, xStep));
            p.setPen(QPen(QColor(0xCC, 0xCC, 0xCC), 1));
        }
    }
    p.setPen(QPen(Qt::black, 1.5));
    p.drawLine(r.bottomLeft(), r.bottomRight());
    p.drawLine(r.bottomLeft(), r.topLeft());
    p.setPen(Qt::black);
    p.drawText(QRectF(r.left(), r.bottom() + 26, r.width(), 20), Qt::AlignHCenter, spec.xLabel);
    p.save();
    p.translate(16, r.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-r.height() / 2, -10, r.height(), 20), Qt::AlignHCenter, spec.yLabel);
    p.restore();
}

void drawCdf(QPainter &p, const ChartSpec &spec, QSize size)
{
    QStringList legend;
    double xMax = 0;
    double fullMax = 0;
    for (const ChartSeries &s : spec.series) {
        legend << s.label;
        if (s.points.isEmpty())
            continue;
        fullMax = std::max(fullMax, s.points.constLast().first);
        // Clip at the p99.9 of each run so one outlier does not flatten every line.
        double clip = s.points.constLast().first;
        for (const auto &pt : s.points)
            if (pt.second >= 0.999) {
                clip = pt.first;
                break;
            }
        xMax = std::max(xMax, clip);
    }
    if (!(xMax > 0))
        xMax = 1;
    xMax = std::ceil(xMax / niceStep(xMax, 8)) * niceStep(xMax, 8);
    ChartSpec shown = spec;
    if (fullMax > xMax)
        shown.xLabel +=
            u"   (x axis clipped at %1 ms; max %2 ms)"_s.arg(xMax).arg(fullMax, 0, 'f', 1);
    const Frame f = drawFrame(p, shown, size, legend);
    drawAxes(p, f, shown, xMax, 1.0, true);
    const QRectF &r = f.plot;
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setClipRect(r.adjusted(-1, -1, 1, 1));
    for (int i = 0; i < spec.series.size(); ++i) {
        const ChartSeries &s = spec.series.at(i);
        if (s.points.isEmpty())
            continue;
        QPainterPath path;
        const auto map = [&](double x, double y) {
            return QPointF(r.left() + std::min(x, xMax * 1.01) / xMax * r.width(),
                           r.bottom() - y * r.height());
        };
        path.moveTo(map(s.points.constFirst().first, 0));
        double prevY = 0;
        for (const auto &pt : s.points) {
            path.lineTo(map(pt.first, prevY)); // a step: the fraction rises at each sample
            path.lineTo(map(pt.first, pt.second));
            prevY = pt.second;
        }
        p.setPen(QPen(palette().at(i % palette().size()), 2.2));
        p.drawPath(path);
    }
}

void drawBars(QPainter &p, const ChartSpec &spec, QSize size)
{
    QStringList legend;
    double yMax = 0;
    for (const ChartSeries &s : spec.series) {
        legend << s.label;
        for (double v : s.values)
            yMax = std::max(yMax, v);
    }
    if (!(yMax > 0))
        yMax = 1;
    yMax = std::ceil(yMax * 1.1 / niceStep(yMax * 1.1, 5)) * niceStep(yMax * 1.1, 5);
    const Frame f = drawFrame(p, spec, size, legend);
    drawAxes(p, f, spec, 1, yMax, false);
    const QRectF &r = f.plot;
    const int groups = int(spec.categories.size());
    const int bars = int(spec.series.size());
    if (groups == 0 || bars == 0)
        return;
    const qreal groupW = r.width() / groups;
    const qreal barW = std::min<qreal>(80, groupW * 0.8 / bars);
    QFont small = f.font;
    small.setPixelSize(12);
    for (int g = 0; g < groups; ++g) {
        const qreal x0 = r.left() + g * groupW + (groupW - barW * bars) / 2;
        for (int b = 0; b < bars; ++b) {
            const double v = spec.series.at(b).values.value(g);
            const qreal h = v / yMax * r.height();
            const QRectF bar(x0 + b * barW, r.bottom() - h, barW - 4, h);
            p.fillRect(bar, palette().at(b % palette().size()));
            p.setFont(small);
            p.setPen(Qt::black);
            p.drawText(QRectF(bar.left() - 20, bar.top() - 18, bar.width() + 40, 16),
                       Qt::AlignHCenter | Qt::AlignBottom, QString::number(v, 'f', 1));
        }
        p.setFont(f.font);
        const QString label =
            p.fontMetrics().elidedText(spec.categories.at(g), Qt::ElideRight, int(groupW) - 6);
        p.drawText(QRectF(r.left() + g * groupW, r.bottom() + 4, groupW, 18),
                   Qt::AlignHCenter | Qt::AlignTop, label);
    }
}

// A run over time: per-request dots against the left axis, server gauges as lines against the
// right one (its ticks on the right edge), both over seconds from the run's start.
void drawTimeline(QPainter &p, const ChartSpec &spec, QSize size)
{
    QStringList legend;
    double xMax = 0, yMax = 0, y2Max = 0;
    for (const ChartSeries &s : spec.series) {
        legend << s.label;
        for (const auto &pt : s.points) {
            xMax = std::max(xMax, pt.first);
            (s.rightAxis ? y2Max : yMax) = std::max(s.rightAxis ? y2Max : yMax, pt.second);
        }
    }
    const auto round = [](double m) {
        if (!(m > 0))
            return 1.0;
        const double step = niceStep(m * 1.05, 5);
        return std::ceil(m * 1.05 / step) * step;
    };
    xMax = round(xMax);
    yMax = round(yMax);
    y2Max = round(y2Max);
    Frame f = drawFrame(p, spec, size, legend);
    f.plot.setRight(f.plot.right() - 40); // room for the right axis' ticks
    drawAxes(p, f, spec, xMax, yMax, true);
    const QRectF &r = f.plot;
    const double step2 = niceStep(y2Max, 5);
    p.setPen(Qt::black);
    p.drawLine(r.topRight(), r.bottomRight());
    for (double v = 0; v <= y2Max * 1.0001; v += step2) {
        const qreal y = r.bottom() - v / y2Max * r.height();
        p.drawText(QRectF(r.right() + 4, y - 9, 60, 18), Qt::AlignLeft | Qt::AlignVCenter,
                   tickText(v, step2));
    }
    p.save();
    p.translate(size.width() - 8, r.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-r.height() / 2, -12, r.height(), 20), Qt::AlignHCenter, spec.y2Label);
    p.restore();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setClipRect(r.adjusted(-1, -1, 1, 1));
    for (int i = 0; i < spec.series.size(); ++i) {
        const ChartSeries &s = spec.series.at(i);
        const double top = s.rightAxis ? y2Max : yMax;
        const QColor c = palette().at(i % palette().size());
        const auto map = [&](double x, double y) {
            return QPointF(r.left() + x / xMax * r.width(), r.bottom() - y / top * r.height());
        };
        if (s.dots) {
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            for (const auto &pt : s.points)
                p.drawEllipse(map(pt.first, pt.second), 1.8, 1.8);
            p.setBrush(Qt::NoBrush);
            continue;
        }
        if (s.points.isEmpty())
            continue;
        QPainterPath path;
        path.moveTo(map(s.points.constFirst().first, s.points.constFirst().second));
        for (const auto &pt : s.points)
            path.lineTo(map(pt.first, pt.second));
        p.setPen(QPen(c, 2.2));
        p.drawPath(path);
    }
}

} // namespace

QList<QRectF> legendLayout(const QFontMetricsF &fm, const QStringList &labels, qreal left,
                           qreal right, qreal top)
{
    constexpr qreal kSwatch = 28; // the colour box and the gap after it
    constexpr qreal kGap = 24;    // between entries
    const qreal rowHeight = std::ceil(fm.height()) + 6;
    QList<QRectF> out;
    qreal x = left;
    qreal y = top;
    for (const QString &label : labels) {
        const qreal w = kSwatch + std::ceil(fm.horizontalAdvance(label)) + 2;
        if (x > left && x + w > right) {
            x = left;
            y += rowHeight;
        }
        out.append(QRectF(x, y, w, rowHeight));
        x += w + kGap;
    }
    return out;
}

QByteArray renderChartPng(const ChartSpec &spec, QSize size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::TextAntialiasing, true);
        if (spec.kind == ChartSpec::Kind::Cdf)
            drawCdf(p, spec, size);
        else if (spec.kind == ChartSpec::Kind::Timeline)
            drawTimeline(p, spec, size);
        else
            drawBars(p, spec, size);
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return png;
}

QMap<QString, QByteArray> renderChartPngs(const QList<ChartSpec> &specs)
{
    QMap<QString, QByteArray> out;
    for (const ChartSpec &s : specs) {
        bool any = false;
        for (const ChartSeries &series : s.series)
            any = any || !series.points.isEmpty() || !series.values.isEmpty();
        if (any)
            out.insert(s.key, renderChartPng(s));
    }
    return out;
}

} // namespace sb
