#pragma once

#include "metrics/requestrecord.h"

#include <QList>
#include <QString>

#include <functional>
#include <vector>

namespace sb {

class ProjectStore;
struct RequestRow;

// The per-request values a large stored run's paged table sorts and filters by (docs/uiviews.md,
// "Large runs"): about 48 bytes per request instead of the row's strings, so a million-request
// run's table can be sorted without holding its rows. Built in schedule order from the same
// RequestRow values the table shows, so a sort orders exactly what is displayed.
class StoredRunRows
{
public:
    void reserve(qsizetype n);
    void add(const RequestRow &row); // in schedule order
    qsizetype size() const { return qsizetype(m_rows.size()); }
    qint64 failed() const { return m_failed; }

    // The schedule indices of the rows the filter keeps, in the order RequestFilterProxy would
    // give: ascending by the column's RequestTableModel::SortRole value (numbers as numbers,
    // texts as texts, empty cells after every value), descending the reverse, ties in schedule
    // order. textMatch (optional): one flag per row, in schedule order. texts (optional): the
    // column's texts in schedule order, for the text columns the compact rows do not hold
    // (finish reason, error message, request id).
    std::vector<qint64> order(int column, bool descending, bool failedOnly,
                              const std::vector<quint8> *textMatch,
                              const std::vector<QString> *texts) const;
    // Whether order() needs the column's texts from the project file.
    static bool needsTexts(int column);

private:
    struct Compact
    {
        double sendS;
        float ttftMs, tpotMs, e2elMs, itlMeanMs, itlMaxMs, lagMs;
        qint32 inputTokens, outputTokens;
        qint32 httpStatus;
        quint8 error; // ErrorClass
        quint8 warmup;
        quint8 inputSource, outputSource; // TokenSource
    };
    std::vector<Compact> m_rows;
    std::vector<qint64> m_index;
    qint64 m_failed = 0;
};

// One flag per stored request, in schedule order: whether any cell of its row contains `text`
// (case-insensitive), as RequestFilterProxy's text filter decides. Reads the run with its chunks.
bool matchStoredRows(const ProjectStore &store, qint64 runId, qint64 zeroNs, const QString &text,
                     std::vector<quint8> *match, QString *error,
                     const std::function<bool()> &cancelled = {});
// A text column's cells for every stored request, in schedule order (chunks not read).
bool readStoredTexts(const ProjectStore &store, qint64 runId, int column,
                     std::vector<QString> *texts, QString *error,
                     const std::function<bool()> &cancelled = {});

} // namespace sb
