#pragma once

#include "report/comparison.h"

#include <QAbstractTableModel>
#include <QList>

namespace sb {

// The comparison's statistical tests as a table (core's comparisonstats.h): one line per metric
// row and candidate other than the baseline — the baseline's and the candidate's estimate, the
// difference with its 95 % interval, absolute and relative, the verdict, and why there is none
// or how many requests (runs) would detect the configured difference. A series candidate shows
// the mean of its runs and their coefficient of variation. Only "better" and "worse" are
// coloured; "no detectable difference" and "not available" stay neutral.
//
// It displays what core computed; it computes nothing.
class SignificanceModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        MetricColumn,
        CandidateColumn,
        BaselineColumn,
        ValueColumn,
        DifferenceColumn,
        RelativeColumn,
        VerdictColumn,
        NoteColumn,
        ColumnCount
    };
    enum Role {
        VerdictRole = Qt::UserRole + 1, // verdictKey(): "better", "worse", ...
        RowKeyRole,                     // the comparison row's key, "ttft.p99"
        CandidateRole,                  // the candidate's index in Comparison::candidates
        LowRole,                        // the interval of the difference; invalid without one
        HighRole,
    };

    explicit SignificanceModel(QObject *parent = nullptr);

    void setComparison(const Comparison &comparison);
    void clear();
    void retranslate();
    // The model row of (comparison row key, candidate); -1 when absent.
    int rowOf(const QString &key, int candidate) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Line
    {
        int row = -1;       // Comparison::rows index
        int candidate = -1; // Comparison::candidates index
    };
    QString number(const ComparisonRow &row, const std::optional<double> &v) const;

    Comparison m_comparison;
    QList<Line> m_lines;
};

} // namespace sb
