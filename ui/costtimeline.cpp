#include "costtimeline.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QPaintEvent>
#include <QPainter>
#include <QPalette>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr int kLaneHeight = 22;
constexpr int kLabelWidth = 140;
constexpr int kAxisHeight = 22;
constexpr int kMargin = 6;

QColor colourFor(ItemAttribution a)
{
    switch (a) {
    case ItemAttribution::Inside:
        return QColor(0x2e, 0x7d, 0x32); // counted whole
    case ItemAttribution::Prorated:
        return QColor(0x15, 0x65, 0xc0);
    case ItemAttribution::Whole:
        return QColor(0x6a, 0x1b, 0x9a);
    case ItemAttribution::NeedsDecision:
        return QColor(0xef, 0x6c, 0x00); // the one that asks for attention
    case ItemAttribution::Outside:
        break;
    }
    return QColor(0x9e, 0x9e, 0x9e);
}
} // namespace

CostTimeline::CostTimeline(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void CostTimeline::setData(const TestWindow &window, const QList<AttributedItem> &items)
{
    m_window = window;
    m_items = items;
    m_hasWindow = window.start.isValid() && window.end.isValid();
    if (m_hasWindow) {
        const qint64 ws = window.startMs();
        const qint64 we = qMax(window.endMs(), ws + 1);
        // A quarter of the window (at least a minute) either side: enough to show that an item
        // starts before or runs on after the window without squeezing the runs to nothing.
        const qint64 pad = qMax<qint64>((we - ws) / 4, 60 * 1000);
        m_axisStart = ws - pad;
        m_axisEnd = we + pad;
    }
    setMinimumHeight(sizeHint().height()); // every lane visible; the page scrolls beyond
    updateGeometry();
    update();
}

void CostTimeline::clear()
{
    setData(TestWindow(), {});
}

QRectF CostTimeline::plotRect() const
{
    // As tall as the lanes, so the axis sits under the last one whatever the widget's height.
    return QRectF(kLabelWidth, kMargin, qMax(10, width() - kLabelWidth - kMargin),
                  qMax(2, laneCount()) * kLaneHeight);
}

double CostTimeline::xFor(qint64 ms) const
{
    const QRectF p = plotRect();
    const double f = double(ms - m_axisStart) / double(qMax<qint64>(1, m_axisEnd - m_axisStart));
    return p.left() + qBound(0.0, f, 1.0) * p.width();
}

QRectF CostTimeline::barFor(int lane, qint64 startMs, qint64 endMs) const
{
    const QRectF p = plotRect();
    const double top = p.top() + lane * kLaneHeight + 4;
    double x0 = xFor(startMs);
    double x1 = xFor(endMs);
    if (x1 - x0 < 3) { // instants and clipped items stay visible
        const double mid = (x0 + x1) / 2;
        x0 = mid - 1.5;
        x1 = mid + 1.5;
    }
    return QRectF(x0, top, x1 - x0, kLaneHeight - 8);
}

QRectF CostTimeline::windowRect() const
{
    if (!m_hasWindow)
        return {};
    const QRectF p = plotRect();
    return QRectF(QPointF(xFor(m_window.startMs()), p.top()),
                  QPointF(xFor(m_window.endMs()), p.bottom()));
}

QRectF CostTimeline::runBar(int runIndex) const
{
    if (!m_hasWindow || runIndex < 0 || runIndex >= m_window.runs.size())
        return {};
    const WindowRun &r = m_window.runs.at(runIndex);
    return barFor(0, r.start.toMSecsSinceEpoch(), r.end.toMSecsSinceEpoch());
}

QRectF CostTimeline::itemBar(const QString &itemId) const
{
    for (int i = 0; i < m_items.size(); ++i)
        if (m_items.at(i).item.id == itemId)
            return barFor(i + 1, m_items.at(i).item.startMs(), m_items.at(i).item.endMs());
    return {};
}

QSize CostTimeline::sizeHint() const
{
    return QSize(640, kMargin + qMax(2, laneCount()) * kLaneHeight + kAxisHeight);
}

QSize CostTimeline::minimumSizeHint() const
{
    return QSize(kLabelWidth + 120, kMargin + 2 * kLaneHeight + kAxisHeight);
}

void CostTimeline::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setPen(palette().color(QPalette::Text));
    if (!m_hasWindow) {
        p.drawText(rect(), Qt::AlignCenter, tr("Choose a test window to see its timeline"));
        return;
    }
    const QRectF plot = plotRect();
    const QFontMetrics fm(font());

    // The window itself, shaded over every lane.
    QColor shade = palette().color(QPalette::Highlight);
    shade.setAlpha(40);
    p.fillRect(windowRect(), shade);

    const auto label = [&](int lane, const QString &text) {
        const QRectF r(kMargin, plot.top() + lane * kLaneHeight, kLabelWidth - 2 * kMargin,
                       kLaneHeight);
        p.drawText(r, Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(text, Qt::ElideRight, int(r.width())));
    };

    label(0, tr("Runs"));
    for (int i = 0; i < m_window.runs.size(); ++i) {
        p.fillRect(runBar(i), palette().color(QPalette::Highlight));
    }
    for (int i = 0; i < m_items.size(); ++i) {
        const AttributedItem &a = m_items.at(i);
        label(i + 1, a.item.id);
        const QRectF bar = itemBar(a.item.id);
        p.fillRect(bar, colourFor(a.attribution));
        // Arrows where the item runs on beyond the axis.
        p.setPen(palette().color(QPalette::Text));
        if (a.item.startMs() < m_axisStart)
            p.drawText(QRectF(plot.left(), bar.top() - 2, 14, bar.height() + 4), Qt::AlignCenter,
                       u"◀"_s);
        if (a.item.endMs() > m_axisEnd)
            p.drawText(QRectF(plot.right() - 14, bar.top() - 2, 14, bar.height() + 4),
                       Qt::AlignCenter, u"▶"_s);
    }

    // Axis: the window's start and end, in UTC.
    p.setPen(palette().color(QPalette::Text));
    p.drawLine(QPointF(plot.left(), plot.bottom()), QPointF(plot.right(), plot.bottom()));
    for (const AxisLabel &l : axisLabels())
        p.drawText(l.rect, l.alignment, l.text);
}

QList<CostTimeline::AxisLabel> CostTimeline::axisLabels() const
{
    if (!m_hasWindow)
        return {};
    const QRectF plot = plotRect();
    const QRectF w = windowRect();
    const QString from = m_window.start.toString(u"HH:mm:ss"_s);
    const QString to = m_window.end.toString(u"HH:mm:ss' UTC'"_s);
    const QFontMetricsF fm(font());
    const qreal a = fm.horizontalAdvance(from) + 2;
    const qreal b = fm.horizontalAdvance(to) + 2;
    const qreal top = plot.bottom() + 2;
    const qreal h = kAxisHeight - 4;
    // Each time centred under its edge while the window is wide enough for both; a short window
    // (seconds against a bill's hours) puts them beside it, start to the left and end to the
    // right, where they were drawn over each other.
    if (w.width() >= (a + b) / 2 + 8)
        return {{QRectF(w.left() - a / 2, top, a, h), from, Qt::AlignHCenter | Qt::AlignTop},
                {QRectF(w.right() - b / 2, top, b, h), to, Qt::AlignHCenter | Qt::AlignTop}};
    return {{QRectF(w.left() - 4 - a, top, a, h), from, Qt::AlignRight | Qt::AlignTop},
            {QRectF(w.right() + 4, top, b, h), to, Qt::AlignLeft | Qt::AlignTop}};
}

} // namespace sb
