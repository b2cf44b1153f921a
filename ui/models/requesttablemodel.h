#pragma once

#include "models/requestrow.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QSet>

#include <memory>
#include <vector>

namespace sb {

// One row per request of a finished run, failed ones included and marked (docs/metrics.md: failures
// are shown, never hidden). Rows are RequestRow values built off the GUI thread; setRows()
// swaps them in one reset.
//
// A stored run too large to hold (docs/uiviews.md, "Large runs") is shown paged instead: the
// model holds only the display order (schedule indices, sorted and filtered by the caller off
// the GUI thread) and a bounded cache of rows; a cell whose row is not cached asks for its
// block through rowsWanted() and shows empty until addPagedRows() brings it.
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

    // Paged mode (see above). order: the schedule indices in display order; the cache is kept
    // (rows do not change when the order does).
    void setPagedOrder(std::shared_ptr<const std::vector<qint64>> order);
    bool isPaged() const { return m_order != nullptr; }
    // The display order of a paged model (null when not paged): shareable with a worker.
    std::shared_ptr<const std::vector<qint64>> pagedOrder() const { return m_order; }
    qsizetype cachedRows() const { return m_cache.size(); } // paged: rows held now
    // Rows fetched for rowsWanted(), in any order; rows of indices no longer shown are kept.
    void addPagedRows(const QList<RequestRow> &rows);
    // The schedule index shown in this row (paged or not); -1 outside.
    qint64 scheduleIndexAt(int row) const;
    // The row when it is held (always when not paged); nullptr otherwise.
    const RequestRow *rowAt(int row) const;
    static constexpr int kPageRows = 128;
    static constexpr qsizetype kMaxCachedRows = 16384;
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
    // A cell of a row for a role: what data() answers, usable off the GUI thread (a paged
    // run's text filter matches the same display texts as the small run's proxy).
    static QVariant cell(const RequestRow &row, int column, int role);

    // Paged: a header click cannot sort rows the model does not hold; it asks the view, which
    // sorts in its worker and calls setPagedOrder().
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

signals:
    void sortRequested(int column, Qt::SortOrder order);
    // Schedule indices whose rows a paged table needs (a block around what is being painted).
    void rowsWanted(const QList<qint64> &indices);

private:
    static QVariant rawValue(const RequestRow &row, int column);
    void requestBlock(int row) const;
    void flushWanted();

    QList<RequestRow> m_rows;
    std::shared_ptr<const std::vector<qint64>> m_order;
    QHash<qint64, RequestRow> m_cache; // schedule index -> row (paged)
    mutable QSet<int> m_wantedBlocks;  // display blocks asked for, not yet answered
    mutable QList<int> m_newBlocks;    // ... of which not yet emitted
    mutable bool m_flushPosted = false;
};

} // namespace sb
