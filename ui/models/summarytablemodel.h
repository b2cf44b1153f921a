#pragma once

#include "metrics/summary.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace sb {

// The latency statistics of one run: one row per metric (TTFT, TPOT, ITL, ITL per token, E2EL,
// the MLPerf-style from-schedule latencies, schedule lag, client queue time), one column per
// statistic (count, mean, median, std, min, max, then each percentile the summary holds). The
// metric's definition (metrics/definitions.h) is the row's tooltip.
//
// It only displays a RunSummary computed by core's summarize(); it computes nothing.
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

    explicit SummaryTableModel(QObject *parent = nullptr);

    void setSummary(const RunSummary &summary);
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

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant value(const MetricStats &s, int column) const;

    RunSummary m_summary;
    bool m_has = false;
};

} // namespace sb
