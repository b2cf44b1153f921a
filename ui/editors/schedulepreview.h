#pragma once

#include <QList>
#include <QWidget>

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace sb {

struct LoadProfile;

// When the profile's requests are due: cumulative requests over time from core's buildSchedule()
// (the schedule a run will really use, same seed), next to the target rate line. Long schedules
// are thinned to kMaxPoints points (docs/design.md, transport and threading: about the plot's pixel
// width).
class SchedulePreview : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxPoints = 2000;
    static constexpr int kMaxScheduled = 200000;

    explicit SchedulePreview(QWidget *parent = nullptr);

    void setProfile(const LoadProfile &profile);
    int pointCount() const;
    QString summary() const { return m_summary; }

private:
    QChartView *m_view;
    QChart *m_chart;
    QLineSeries *m_arrivals;
    QValueAxis *m_x;
    QValueAxis *m_y;
    QString m_summary;
};

} // namespace sb
