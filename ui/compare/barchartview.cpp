#include "barchartview.h"

#include "charts/chartview.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

BarChartView::BarChartView(const QString &title, QWidget *parent)
    : QChartView(parent), m_title(title), m_x(new QBarCategoryAxis(this)), m_y(new QValueAxis(this))
{
    auto *c = new QChart();
    c->setMargins(QMargins(4, 4, 4, 4));
    c->legend()->setAlignment(Qt::AlignBottom);
    c->legend()->setVisible(false);
    c->setAnimationOptions(QChart::NoAnimation);
    QFont f = c->titleFont();
    f.setBold(true);
    c->setTitleFont(f);
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    m_y->setLabelFormat(u"%.4g"_s);
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(0);
    m_y->setTickInterval(0.2);
    m_y->setRange(0, 1);
    setChart(c);
    setRenderHint(QPainter::Antialiasing, true);
    setMinimumSize(260, 180);
    updateTitle();
}

void BarChartView::setData(const QStringList &categories,
                           const QList<QPair<QString, QList<double>>> &sets,
                           const QList<QColor> &colors)
{
    chart()->removeAllSeries();
    auto *series = new QBarSeries();
    double top = 0;
    for (qsizetype i = 0; i < sets.size(); ++i) {
        auto *set = new QBarSet(sets.at(i).first);
        for (double v : sets.at(i).second) {
            set->append(std::isfinite(v) ? v : 0);
            top = std::max(top, std::isfinite(v) ? v : 0);
        }
        if (i < colors.size()) {
            set->setColor(colors.at(i));
            set->setBorderColor(colors.at(i));
        }
        series->append(set);
    }
    chart()->addSeries(series);
    m_x->setCategories(categories);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    // A round step (about five of them) and the axis top at the first step above the bars. The
    // coarser of old and new step goes first: a wide range with a fine step would lay out
    // thousands of ticks (as in charts/chartview.cpp).
    const double step = top > 0 ? niceAxisCeil(top * 1.05 / 5) : 0.2;
    const double hi = top > 0 ? std::ceil(top * 1.05 / step) * step : 1;
    if (step > m_y->tickInterval())
        m_y->setTickInterval(step);
    m_y->setRange(0, hi);
    if (step < m_y->tickInterval())
        m_y->setTickInterval(step);
    chart()->legend()->setVisible(sets.size() > 1);
}

void BarChartView::setTitle(const QString &title)
{
    m_title = title;
    updateTitle();
}

void BarChartView::setValueAxisTitle(const QString &title)
{
    m_y->setTitleText(title);
}

void BarChartView::setSubtitle(const QString &text)
{
    m_subtitle = text;
    updateTitle();
}

int BarChartView::setCount() const
{
    const auto all = chart()->series();
    return all.isEmpty() ? 0 : int(static_cast<QBarSeries *>(all.constFirst())->count());
}

void BarChartView::updateTitle()
{
    chart()->setTitle(m_subtitle.isEmpty()
                          ? m_title
                          : u"%1<br><small>%2</small>"_s.arg(m_title.toHtmlEscaped(),
                                                             m_subtitle.toHtmlEscaped()));
}

} // namespace sb
