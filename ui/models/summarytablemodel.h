#pragma once

#include "metrics/confidence.h"
#include "metrics/summary.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QPair>
#include <QStringList>

namespace sb {

// The latency statistics of one run: one row per metric (TTFT, TPOT, ITL, ITL per token, E2EL,
// the MLPerf-style from-schedule latencies, schedule lag, client queue time), one column per
// statistic (count, mean, median, std, min, max, then each percentile the summary holds). The
// metric's definition (metrics/definitions.h) is the row's tooltip.
//
// Where the run's derivation (deriveRun) gives a 95 % interval for a cell's statistic (the mean,
// the median as p50, a percentile; TTFT, TPOT, E2EL, ITL), its tooltip gives it, and with
// setShowIntervals(true) the cell reads "value [low, high]" (off by default: the brackets double
// the table's width); where the interval is omitted (too few samples), the tooltip says so and
// why.
//
// It only displays a RunSummary computed by core's summarize() and the intervals of
// deriveRun(); it computes nothing.
class SummaryTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum FixedColumn {
        MetricColumn,
        CountColumn,
        MeanColumn,
        MedianColumn,
        StdColumn,
        MinColumn,
        MaxColumn,
        FirstPercentileColumn
    };
    // The value as a double (count as a number too); invalid for an empty metric, whose
    // statistics core reports as 0 (vLLM's convention) but which the table shows blank.
    static constexpr int ValueRole = Qt::UserRole + 1;
    static constexpr int MetricKeyRole = Qt::UserRole + 2;
    // The cell's interval as "[low, high]", or "omitted: <reason>"; invalid where no interval
    // is derived for the statistic.
    static constexpr int IntervalRole = Qt::UserRole + 3;

    // RunDerivation::intervals: per metric key, per statistic ("mean", "p50", "p99", …).
    using Intervals = QList<QPair<QString, QList<QPair<QString, Interval>>>>;

    explicit SummaryTableModel(QObject *parent = nullptr);

    void setSummary(const RunSummary &summary, const Intervals &intervals = {});
    void setShowIntervals(bool show);
    bool showsIntervals() const { return m_showIntervals; }
    bool hasIntervals() const { return !m_intervals.isEmpty(); }
    void clear();
    // The column headers are translated when asked for: call on QEvent::LanguageChange. The
    // cells hold core's metric labels and numbers, which do not change with the language.
    void retranslate();
    const RunSummary &summary() const { return m_summary; }
    bool hasSummary() const { return m_has; }

    // Row keys, in display order (RunSummary::stats() keys).
    static const QStringList &metricKeys();
    int rowOf(const QString &key) const { return int(metricKeys().indexOf(key)); }
    int columnOfPercentile(double p) const;
    // The interval derived for a cell, or nullptr (none derived for that statistic).
    const Interval *interval(const QString &metricKey, int column) const;
    // Every omitted interval: "<metric> <statistic>" and the reason, in display order.
    QList<QPair<QString, QString>> omittedIntervals() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant value(const MetricStats &s, int column) const;

    QString statisticKey(int column) const;
    QString intervalText(const Interval &i) const;

    RunSummary m_summary;
    QHash<QString, QHash<QString, Interval>> m_intervals;
    bool m_has = false;
    bool m_showIntervals = false;
};

} // namespace sb
