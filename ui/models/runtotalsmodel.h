#pragma once

#include "metrics/connectionstats.h"
#include "metrics/summary.h"

#include <QAbstractTableModel>
#include <QList>
#include <QString>

namespace sb {

// The run-level numbers of a summary as a two-column list (quantity, value): counts, failures
// by class, duration, token totals and sources, throughputs, goodput, peaks. The latency
// statistics are SummaryTableModel's. Displays a RunSummary from core's summarize() only.
class RunTotalsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { QuantityColumn, ValueColumn, ColumnCount };
    static constexpr int ValueRole = Qt::UserRole + 1; // the number (double), or the text
    static constexpr int KeyRole = Qt::UserRole + 2;   // stable key, e.g. "completed"

    explicit RunTotalsModel(QObject *parent = nullptr);

    // With the run's connection statistics (deriveRun's), the lines the CLI's Connections block
    // prints follow the totals.
    void setSummary(const RunSummary &summary, const ConnectionStats &connections = {});
    void clear();
    // Labels, tooltips and the header are translated: call on QEvent::LanguageChange. The lines
    // are rendered again from the summary the model holds; which lines there are does not
    // depend on the language, so this is a dataChanged, not a reset.
    void retranslate();
    int rowOfKey(const QString &key) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Line
    {
        QString key;
        QString label;
        QVariant value;
        QString text;
        QString tip;
        bool alarm = false; // failures and client-limited runs are shown in red
    };
    static QList<Line> linesFor(const RunSummary &summary, const ConnectionStats &connections);

    RunSummary m_summary;
    ConnectionStats m_connections;
    QList<Line> m_lines;
};

} // namespace sb
