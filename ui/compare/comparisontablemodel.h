#pragma once

#include "report/comparison.h"

#include <QAbstractTableModel>
#include <QList>

namespace sb {

// The comparison as a table: runs as columns (column 0 is the metric), metrics as rows under a
// header row per group (TTFT, TPOT, ITL, E2EL, throughput, requests, cost), and a rank row on
// top. Each run's cell shows the value and its difference from the baseline run, absolute and
// relative; a missing value reads "n/a" (never 0) and its tooltip says why. A difference is
// coloured better / worse only when the statistical test calls it so at 95 % (the tooltip gives
// the interval, the verdict or why there is none); "no detectable difference" stays neutral.
// The rank row shows the ranking with ties ("1=" for a shared rank).
//
// It displays a Comparison built by core's buildComparison(); it computes no metric.
class ComparisonTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role {
        ValueRole = Qt::UserRole + 1, // double; invalid when not available
        AbsDiffRole,  // value − baseline (0 in the baseline's column); invalid when either is n/a
        RelDiffRole,  // (value − baseline) / |baseline|; invalid also for a zero baseline
        RowKeyRole,   // "ttft.p99", "rank" for the rank row, "" for a group row
        RankRole,     // 1-based position in the ranking; invalid when unranked
        GroupRowRole, // true for a group header row
        // The statistical verdict of the run's candidate against the baseline candidate
        // (verdictKey: "better", "worse", "no-detectable-difference", "not-available"); invalid
        // for the baseline and rows without a test.
        VerdictRole,
        // The rank row: the rank with ties (1 = best; candidates the data cannot separate share
        // it); invalid when unranked. TiedRole: whether it is shared.
        TiedRankRole,
        TiedRole,
    };
    enum class RowKind { Rank, Group, Metric };

    explicit ComparisonTableModel(QObject *parent = nullptr);

    void setComparison(const Comparison &comparison);
    void clear();
    const Comparison &comparison() const { return m_comparison; }
    bool hasComparison() const { return m_has; }

    RowKind rowKind(int row) const;
    // The model row showing the comparison row `key` ("ttft.p99"); -1 when absent.
    int rowOf(const QString &key) const;
    // The comparison row behind a metric row; nullptr for rank and group rows.
    const ComparisonRow *comparisonRow(int row) const;
    // Names, tooltips and "n/a" are translated when asked for: call on QEvent::LanguageChange.
    void retranslate();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Line
    {
        RowKind kind = RowKind::Metric;
        int row = -1; // index into m_comparison.rows (metric rows; a group's first row)
        QString group;
    };
    QVariant metricData(const Line &line, int column, int role) const;
    QVariant rankData(int column, int role) const;
    QString rowLabel(const ComparisonRow &row) const;
    QString groupLabel(const Line &line) const;
    QString costNotesText() const; // the cost notes in the current language, "; "-joined
    QString cellText(const ComparisonRow &row, int run) const;
    QString cellToolTip(const ComparisonRow &row, int run) const;
    QString rowToolTip(const ComparisonRow &row) const;
    int rankOf(int run) const;
    const CandidateTest *testOf(const ComparisonRow &row, int run) const;

    Comparison m_comparison;
    bool m_has = false;
    QList<Line> m_lines;
};

} // namespace sb
