#pragma once

#include "models/requestrow.h"

#include <QAbstractTableModel>
#include <QList>

namespace sb {

// One row per request of a finished run, failed ones included and marked (docs/metrics.md: failures
// are shown, never hidden). Rows are RequestRow values built off the GUI thread; setRows()
// swaps them in one reset.
class RequestTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        IndexColumn,
        StatusColumn,
        SentColumn,
        TtftColumn,
        TpotColumn,
        E2elColumn,
        ItlMeanColumn,
        ItlMaxColumn,
        InputTokensColumn,
        InputSourceColumn,
        OutputTokensColumn,
        OutputSourceColumn,
        ScheduleLagColumn,
        HttpStatusColumn,
        FinishReasonColumn,
        ErrorMessageColumn,
        RequestIdColumn,
        ColumnCount
    };
    enum Role {
        // The raw value for sorting: a number for numeric columns, invalid for "no value" so
        // empty cells sort after every value.
        SortRole = Qt::UserRole + 1,
        FailedRole, // bool
        WarmupRole, // bool
    };

    explicit RequestTableModel(QObject *parent = nullptr);

    void setRows(QList<RequestRow> rows);
    void clear();
    // The column headers are translated when asked for: call on QEvent::LanguageChange. The
    // cells are numbers and the engine's own names (error classes, token sources).
    void retranslate();
    const QList<RequestRow> &rows() const { return m_rows; }
    const RequestRow &row(int r) const { return m_rows.at(r); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "ok", "warm-up", or the error class name ("http_5xx", "timeout", ...).
    static QString statusText(const RequestRow &row);

private:
    QVariant rawValue(const RequestRow &row, int column) const;

    QList<RequestRow> m_rows;
};

} // namespace sb
