#pragma once

#include "metrics/sessionsummary.h"

#include <QWidget>

class QLabel;

namespace sb {

class ChartView;
class CopyableTableView;
class TurnTableModel;

// A session workload by turn (docs/sessions.md): a line on the sessions (completed, failed,
// turns not sent, think time configured and measured, cache hit rate, active sessions), the
// per-turn table and the TTFT-by-turn chart (mean and p99), where a prefix cache shows as TTFT
// falling after the first turn. Shown by the Results tab and, live, by the run dashboard; it
// displays a SessionSummary from core's summarizeSessions() only.
class SessionTurnsView : public QWidget
{
    Q_OBJECT
public:
    explicit SessionTurnsView(QWidget *parent = nullptr);

    void setSummary(const SessionSummary &summary, const QString &historyMode);
    void clear();

    TurnTableModel *model() const { return m_model; }
    ChartView *chart() const { return m_chart; }
    CopyableTableView *table() const { return m_table; }
    QString summaryText() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updateSummaryLine();

    QString m_history;
    QLabel *m_line;
    TurnTableModel *m_model;
    CopyableTableView *m_table;
    ChartView *m_chart;
};

} // namespace sb
