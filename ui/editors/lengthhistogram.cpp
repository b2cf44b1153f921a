#include "lengthhistogram.h"

#include <QAbstractSeries>

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace sb {

LengthHistogram::LengthHistogram(QWidget *parent) : QWidget(parent), m_chart(new QChart)
{
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->setBackgroundRoundness(0);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(170);
    auto *l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_view);
}

void LengthHistogram::setTitle(const QString &title)
{
    m_title = title;
    m_chart->setTitle(title);
    // The drawn series carries the title as its name: renamed too, or a language switch left
    // the old language's name on it.
    for (QAbstractSeries *series : m_chart->series())
        series->setName(title);
}

QList<int> LengthHistogram::binCounts(const QList<qint32> &values, int bins, QList<double> *edges)
{
    QList<int> counts;
    if (values.isEmpty() || bins <= 0)
        return counts;
    const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
    const qint64 lo = *mn;
    const qint64 span = qint64(*mx) - lo + 1;
    // Lengths are integers: whole-number bins, or neighbouring bins would hold different
    // numbers of possible values and the shape would show aliasing, not the data.
    const qint64 width = std::max<qint64>(1, (span + bins - 1) / bins);
    bins = int((span + width - 1) / width);
    counts.fill(0, bins);
    for (qint32 v : values)
        counts[int((v - lo) / width)]++;
    if (edges) {
        edges->clear();
        for (int i = 0; i <= bins; ++i)
            edges->append(double(lo + i * width));
    }
    return counts;
}

void LengthHistogram::setValues(const QList<qint32> &values)
{
    m_values = values;
    rebuild();
}

void LengthHistogram::clear()
{
    m_values.clear();
    rebuild();
}

void LengthHistogram::rebuild()
{
    m_chart->removeAllSeries();
    const auto axes = m_chart->axes();
    for (QAbstractAxis *a : axes) {
        m_chart->removeAxis(a);
        delete a;
    }
    if (m_values.isEmpty())
        return;
    // Drawn as a filled step outline over a value axis: the x labels are token lengths at any
    // width, where a bar-category axis would elide them.
    QList<double> edges;
    const QList<int> counts = binCounts(m_values, 16, &edges);
    auto *upper = new QLineSeries;
    int top = 0;
    upper->append(edges.first(), 0);
    for (int i = 0; i < counts.size(); ++i) {
        upper->append(edges[i], counts[i]);
        upper->append(edges[i + 1], counts[i]);
        top = std::max(top, counts[i]);
    }
    upper->append(edges.last(), 0);
    auto *area = new QAreaSeries(upper);
    area->setName(m_title);
    area->setColor(QColor(0x20, 0x9f, 0xdf));
    area->setBorderColor(QColor(0x10, 0x70, 0xa0));
    m_chart->addSeries(area);
    auto *x = new QValueAxis;
    const double lo = edges.first();
    const double hi = edges.last() > lo ? edges.last() : lo + 1;
    x->setRange(lo, hi);
    x->setLabelFormat(u"%d"_s);
    x->setTickCount(5);
    QFont small = x->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    x->setLabelsFont(small);
    auto *y = new QValueAxis;
    y->setRange(0, std::max(top, 1));
    y->setLabelFormat(u"%d"_s);
    y->setLabelsFont(small);
    y->applyNiceNumbers();
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    area->attachAxis(x);
    area->attachAxis(y);
}

} // namespace sb
