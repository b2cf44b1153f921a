#pragma once

#include "cost/costbreakdown.h"
#include "cost/testwindow.h"

#include <QList>
#include <QRectF>
#include <QWidget>

namespace sb {

// A test window on a time axis: its runs as bars on the top lane, then one lane per bill item
// the window considers, coloured by how it was attributed. The axis spans the window with a
// margin on either side; an item reaching beyond it is clipped and marked with an arrow, so a
// month-long volume and a 40-second run stay readable on one axis.
class CostTimeline : public QWidget
{
    Q_OBJECT
public:
    explicit CostTimeline(QWidget *parent = nullptr);

    void setData(const TestWindow &window, const QList<AttributedItem> &items);
    void clear();

    int laneCount() const { return int(m_items.size()) + (m_hasWindow ? 1 : 0); }
    // Geometry in widget coordinates, for painting and for tests.
    QRectF windowRect() const;
    QRectF runBar(int runIndex) const;
    QRectF itemBar(const QString &itemId) const; // empty when the item is not shown
    // Where the axis writes the window's start and end times, and with which alignment.
    struct AxisLabel
    {
        QRectF rect;
        QString text;
        Qt::Alignment alignment;
    };
    QList<AxisLabel> axisLabels() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    double xFor(qint64 ms) const;
    QRectF barFor(int lane, qint64 startMs, qint64 endMs) const;
    QRectF plotRect() const;

    TestWindow m_window;
    QList<AttributedItem> m_items;
    bool m_hasWindow = false;
    qint64 m_axisStart = 0;
    qint64 m_axisEnd = 1;
};

} // namespace sb
