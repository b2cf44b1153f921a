#include "schedulepreview.h"

#include "config/runplan.h"
#include "load/schedule.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace sb {

SchedulePreview::SchedulePreview(QWidget *parent)
    : QWidget(parent), m_chart(new QChart), m_arrivals(new QLineSeries), m_x(new QValueAxis),
      m_y(new QValueAxis)
{
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->setBackgroundRoundness(0);
    m_chart->addSeries(m_arrivals);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_arrivals->attachAxis(m_x);
    m_arrivals->attachAxis(m_y);
    m_x->setLabelFormat(u"%.1f"_s);
    m_y->setLabelFormat(u"%d"_s);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(200);
    auto *l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_view);
}

int SchedulePreview::pointCount() const
{
    return int(m_arrivals->count());
}

void SchedulePreview::setProfile(const LoadProfile &profile)
{
    m_x->setTitleText(tr("time since start (s)"));
    m_y->setTitleText(tr("requests due"));
    const int total = profile.numPrompts > 0 ? profile.numPrompts : 1000;
    // The whole schedule (a ramp-up depends on n), thinned to kMaxPoints for drawing.
    const int n = std::min(total, kMaxScheduled);
    const QString error = scheduleError(profile);
    if (!error.isEmpty() || profile.closedLoopConcurrency > 0 || !profile.tracePath.isEmpty() ||
        profile.scenario == Scenario::SingleStream) {
        m_arrivals->clear();
        m_summary =
            !error.isEmpty() ? error
            : profile.closedLoopConcurrency > 0 || profile.scenario == Scenario::SingleStream
                ? tr("Closed loop: each request is sent when one finishes; no schedule.")
                : tr("Trace replay: arrival times come from the trace file.");
        m_chart->setTitle(m_summary);
        return;
    }
    const QList<qint64> schedule = buildSchedule(profile, n, profile.seed);
    QList<QPointF> points;
    points.reserve(schedule.size() + 1);
    points.append({0, 0});
    const qsizetype step = std::max<qsizetype>(1, (schedule.size() + kMaxPoints - 1) / kMaxPoints);
    for (qsizetype i = 0; i < schedule.size(); i += step)
        points.append({double(schedule[i]) / 1e9, double(i + 1)});
    if (!schedule.isEmpty() && (schedule.size() - 1) % step != 0)
        points.append({double(schedule.last()) / 1e9, double(schedule.size())});
    m_arrivals->replace(points);
    const double span = schedule.isEmpty() ? 0 : double(schedule.last()) / 1e9;
    m_x->setRange(0, std::max(span, 0.001));
    m_y->setRange(0, std::max(n, 1));
    if (profile.unlimitedRate() && profile.rampUpStrategy == RampUpStrategy::None)
        m_summary = tr("All %1 requests are due at once (unlimited rate).").arg(total);
    else if (n < total)
        m_summary =
            tr("First %1 of %2 requests due over %3 s").arg(n).arg(total).arg(span, 0, 'f', 1);
    else
        m_summary = tr("%1 requests due over %2 s").arg(n).arg(span, 0, 'f', 1);
    m_chart->setTitle(m_summary);
}

} // namespace sb
