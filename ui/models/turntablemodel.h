#pragma once

#include "metrics/sessionsummary.h"

#include <QAbstractTableModel>

namespace sb {

// A session workload's numbers by turn (docs/sessions.md), one row per turn position: requests,
// TTFT / ITL / E2EL, input tokens split into new and history, the server's cached tokens and
// hit rate, think time configured and measured. Displays a SessionSummary from core's
// summarizeSessions() only; the tooltips carry the definitions.
class TurnTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        TurnColumn,
        RequestsColumn,
        MeanTtftColumn,
        P99TtftColumn,
        MeanItlColumn,
        MeanE2elColumn,
        InputColumn,
        NewColumn,
        HistoryColumn,
        HitRateColumn,
        ThinkConfiguredColumn,
        ThinkMeasuredColumn,
        ColumnCount
    };
    static constexpr int ValueRole = Qt::UserRole + 1; // the number (double); NaN: none

    explicit TurnTableModel(QObject *parent = nullptr);

    void setSummary(const SessionSummary &summary);
    void clear();
    const SessionSummary &summary() const { return m_summary; }
    void retranslate();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    double value(const TurnSummary &t, int column) const;

    SessionSummary m_summary;
};

} // namespace sb
