#include "turntablemodel.h"

#include "metrics/definitions.h"

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
QString definitionOf(const QList<MetricDefinition> &defs, const QString &key)
{
    for (const MetricDefinition &d : defs)
        if (d.key == key)
            return metricToolTip(d);
    return {};
}
} // namespace

TurnTableModel::TurnTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void TurnTableModel::setSummary(const SessionSummary &summary)
{
    beginResetModel();
    m_summary = summary;
    endResetModel();
}

void TurnTableModel::clear()
{
    setSummary({});
}

void TurnTableModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int TurnTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_summary.turns.size());
}

int TurnTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double TurnTableModel::value(const TurnSummary &t, int column) const
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto stat = [nan](const MetricStats &s, double v) {
        return s.count > 0 ? v : nan;
    };
    switch (column) {
    case TurnColumn:
        return t.turn;
    case RequestsColumn:
        return double(t.requests);
    case MeanTtftColumn:
        return stat(t.ttft, t.ttft.mean);
    case P99TtftColumn:
        return stat(t.ttft, t.ttft.percentile(99));
    case MeanItlColumn:
        return stat(t.itl, t.itl.mean);
    case MeanE2elColumn:
        return stat(t.e2el, t.e2el.mean);
    case InputColumn:
        return t.completed > 0 ? t.meanInputTokens : nan;
    case NewColumn:
        return t.completed > 0 ? t.meanNewTokens : nan;
    case HistoryColumn:
        return t.completed > 0 ? t.meanHistoryTokens : nan;
    case HitRateColumn:
        return t.cacheHitRate >= 0 ? t.cacheHitRate * 100 : nan;
    case ThinkConfiguredColumn:
        return stat(t.thinkConfigured, t.thinkConfigured.mean);
    case ThinkMeasuredColumn:
        return stat(t.thinkMeasured, t.thinkMeasured.mean);
    }
    return nan;
}

QVariant TurnTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_summary.turns.size() || index.column() >= ColumnCount)
        return {};
    const TurnSummary &t = m_summary.turns.at(index.row());
    const double v = value(t, index.column());
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == RequestsColumn)
            return tr("%1 / %2").arg(t.completed).arg(t.requests);
        if (index.column() == TurnColumn)
            return QString::number(t.turn);
        if (std::isnan(v))
            return tr("n/a");
        return index.column() == HitRateColumn ? tr("%1 %").arg(v, 0, 'f', 1)
                                               : QString::number(v, 'f', 2);
    case ValueRole:
        return v;
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == HitRateColumn && t.cacheHitRate < 0)
            return tr("The server reported no cached tokens for this turn.");
        return headerData(index.column(), Qt::Horizontal, Qt::ToolTipRole);
    default:
        return {};
    }
}

QVariant TurnTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case TurnColumn:
            return tr("Turn");
        case RequestsColumn:
            return tr("OK / sent");
        case MeanTtftColumn:
            return tr("Mean TTFT (ms)");
        case P99TtftColumn:
            return tr("P99 TTFT (ms)");
        case MeanItlColumn:
            return tr("Mean ITL (ms)");
        case MeanE2elColumn:
            return tr("Mean E2EL (ms)");
        case InputColumn:
            return tr("Input tokens");
        case NewColumn:
            return tr("New tokens");
        case HistoryColumn:
            return tr("History tokens");
        case HitRateColumn:
            return tr("Cache hit rate");
        case ThinkConfiguredColumn:
            return tr("Think, configured (ms)");
        case ThinkMeasuredColumn:
            return tr("Think, measured (ms)");
        }
    }
    if (role == Qt::ToolTipRole) {
        const QList<MetricDefinition> &defs = sessionMetricDefinitions();
        switch (section) {
        case TurnColumn:
            return definitionOf(defs, u"turn"_s);
        case RequestsColumn:
            return tr("Successful requests of this turn / requests of this turn");
        case MeanTtftColumn:
        case P99TtftColumn:
        case MeanItlColumn:
        case MeanE2elColumn: {
            const char *key = section == MeanItlColumn    ? "itl"
                              : section == MeanE2elColumn ? "e2el"
                                                          : "ttft";
            const MetricDefinition *d = metricDefinition(QString::fromLatin1(key));
            return d ? metricToolTip(*d, false) : QString();
        }
        case InputColumn:
            return tr("Mean input tokens of the successful requests of this turn (the server's "
                      "usage, else the client's count)");
        case NewColumn:
            return definitionOf(defs, u"new_input_tokens"_s);
        case HistoryColumn:
            return definitionOf(defs, u"history_tokens"_s);
        case HitRateColumn:
            return definitionOf(defs, u"cache_hit_rate"_s);
        case ThinkConfiguredColumn:
        case ThinkMeasuredColumn:
            return definitionOf(defs, u"think_time"_s);
        }
    }
    return {};
}

} // namespace sb
