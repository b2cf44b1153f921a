#include "summarytablemodel.h"

#include "common/message.h"
#include "metrics/definitions.h"
#include "metrics/stats.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// An interval's method in the reader's words; the stored name (result JSON, CSV) stays as the
// core wrote it (docs/statistics.md).
QString methodText(const QString &method)
{
    if (method == "student-t"_L1)
        return SummaryTableModel::tr("Student's t");
    if (method == "order-statistic"_L1)
        return SummaryTableModel::tr("order statistics");
    if (method == "bootstrap-percentile"_L1)
        return SummaryTableModel::tr("bootstrap percentile");
    if (method == "bootstrap-percentile (clustered)"_L1)
        return SummaryTableModel::tr("bootstrap percentile, resampling clusters");
    return method;
}
} // namespace

SummaryTableModel::SummaryTableModel(QObject *parent) : QAbstractTableModel(parent) {}

const QStringList &SummaryTableModel::metricKeys()
{
    static const QStringList keys = {
        u"ttft"_s,
        u"tpot"_s,
        u"itl"_s,
        u"itl_per_token"_s,
        u"e2el"_s,
        u"ttft_from_sched"_s,
        u"e2el_from_sched"_s,
        u"schedule_lag"_s,
        u"client_queue_time"_s,
        u"ttfct"_s,
        u"reasoning_time"_s,
    };
    return keys;
}

void SummaryTableModel::setSummary(const RunSummary &summary, const Intervals &intervals)
{
    beginResetModel();
    m_summary = summary;
    m_intervals.clear();
    for (const auto &[metric, stats] : intervals)
        for (const auto &[stat, interval] : stats)
            m_intervals[metric].insert(stat, interval);
    m_has = true;
    endResetModel();
}

void SummaryTableModel::setShowIntervals(bool show)
{
    if (show == m_showIntervals)
        return;
    m_showIntervals = show;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::DisplayRole});
}

QString SummaryTableModel::statisticKey(int column) const
{
    if (column == MeanColumn)
        return u"mean"_s;
    if (column == MedianColumn)
        return u"p50"_s;
    const int pi = column - FirstPercentileColumn;
    if (pi >= 0 && pi < m_summary.percentiles.size())
        return u"p"_s + percentileWord(m_summary.percentiles.at(pi));
    return QString();
}

const Interval *SummaryTableModel::interval(const QString &metricKey, int column) const
{
    const auto metric = m_intervals.constFind(metricKey);
    if (metric == m_intervals.cend())
        return nullptr;
    const QString stat = statisticKey(column);
    const auto it = stat.isEmpty() ? metric->cend() : metric->constFind(stat);
    return it == metric->cend() ? nullptr : &it.value();
}

QString SummaryTableModel::intervalText(const Interval &i) const
{
    if (i.available)
        return u"[%1, %2]"_s.arg(QString::number(i.lo, 'f', 2), QString::number(i.hi, 'f', 2));
    return tr("omitted: %1").arg(Message::fromEnglish(i.reason).translated());
}

QList<QPair<QString, QString>> SummaryTableModel::omittedIntervals() const
{
    QList<QPair<QString, QString>> out;
    for (const QString &key : metricKeys()) {
        if (!m_summary.isAvailable(key))
            continue; // the whole metric is n/a, said elsewhere
        const MetricDefinition *def = metricDefinition(key);
        for (int col = MeanColumn; col < columnCount(); ++col) {
            const Interval *i = interval(key, col);
            if (i && !i->available)
                out.append({(def ? def->labelMessage.translated() : key) + u' ' +
                                headerData(col, Qt::Horizontal).toString(),
                            Message::fromEnglish(i->reason).translated()});
        }
    }
    return out;
}

void SummaryTableModel::clear()
{
    beginResetModel();
    m_summary = RunSummary();
    m_intervals.clear();
    m_has = false;
    endResetModel();
}

void SummaryTableModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
}

int SummaryTableModel::columnOfPercentile(double p) const
{
    for (qsizetype i = 0; i < m_summary.percentiles.size(); ++i)
        if (std::abs(m_summary.percentiles.at(i) - p) < 1e-9)
            return FirstPercentileColumn + int(i);
    return -1;
}

int SummaryTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_has ? 0 : int(metricKeys().size());
}

int SummaryTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FirstPercentileColumn + int(m_summary.percentiles.size());
}

QVariant SummaryTableModel::value(const MetricStats &s, int column) const
{
    if (column == CountColumn)
        return double(s.count);
    if (s.isEmpty())
        return {};
    switch (column) {
    case MeanColumn:
        return s.mean;
    case MedianColumn:
        return s.median;
    case StdColumn:
        return s.stddev;
    case MinColumn:
        return s.min;
    case MaxColumn:
        return s.max;
    default:
        break;
    }
    const int pi = column - FirstPercentileColumn;
    if (pi >= 0 && pi < m_summary.percentiles.size()) {
        const double v = s.percentile(m_summary.percentiles.at(pi));
        return std::isnan(v) ? QVariant() : QVariant(v);
    }
    return {};
}

QVariant SummaryTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QString &key = metricKeys().at(index.row());
    const MetricStats *s = m_summary.stats(key);
    const MetricDefinition *def = metricDefinition(key);
    const int col = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (col == MetricColumn)
            return def ? def->labelMessage.translated() + u" ("_s + def->unit + u')' : key;
        // What the run cannot tell reads "n/a", never 0 or blank; the tooltip says why.
        if (!m_summary.isAvailable(key))
            return tr("n/a");
        if (s) {
            const QVariant v = value(*s, col);
            if (!v.isValid())
                return QString();
            if (col == CountColumn)
                return QString::number(s->count);
            // The statistic with its interval where one is derived, as `show` prints it.
            const Interval *i = interval(key, col);
            if (m_showIntervals && i && i->available)
                return QString::number(v.toDouble(), 'f', 2) + u' ' + intervalText(*i);
            return QString::number(v.toDouble(), 'f', 2);
        }
        return {};
    case ValueRole:
        if (col == MetricColumn)
            return key;
        if (!m_summary.isAvailable(key))
            return {};
        return s ? value(*s, col) : QVariant();
    case MetricKeyRole:
        return key;
    case IntervalRole:
        if (const Interval *i = m_summary.isAvailable(key) ? interval(key, col) : nullptr)
            return intervalText(*i);
        return {};
    case Qt::ToolTipRole:
        if (def) {
            QString tip = metricToolTip(*def);
            if (!m_summary.isAvailable(key))
                tip =
                    tr("Not available: %1")
                        .arg(Message::fromEnglish(m_summary.unavailableReason(key)).translated()) +
                    u"\n\n"_s + tip;
            if (col >= FirstPercentileColumn)
                tip += u"\n\n"_s + percentileMethodMessage().translated();
            if (const Interval *i = m_summary.isAvailable(key) ? interval(key, col) : nullptr)
                tip = (i->available ? tr("%1 interval %2 (%3, n = %4)")
                                          .arg(confidenceText(i->confidence), intervalText(*i),
                                               methodText(i->method))
                                          .arg(i->n)
                                    : tr("%1 interval %2")
                                          .arg(confidenceText(i->confidence), intervalText(*i))) +
                      u"\n\n"_s + tip;
            return tip;
        }
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(col == MetricColumn ? Qt::AlignLeft | Qt::AlignVCenter
                                                       : Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant SummaryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case MetricColumn:
            return tr("Metric");
        case CountColumn:
            return tr("Count");
        case MeanColumn:
            return tr("Mean");
        case MedianColumn:
            return tr("Median");
        case StdColumn:
            return tr("Std");
        case MinColumn:
            return tr("Min");
        case MaxColumn:
            return tr("Max");
        default:
            return u"P"_s +
                   percentileWord(m_summary.percentiles.at(section - FirstPercentileColumn));
        }
    }
    if (role == Qt::ToolTipRole) {
        if (section == StdColumn)
            return tr("Population standard deviation (ddof = 0, as numpy and vLLM)");
        if (section == CountColumn)
            return tr("Samples behind the statistics: requests, or token gaps for ITL");
        if (section >= FirstPercentileColumn)
            return percentileMethodMessage().translated();
    }
    return {};
}

} // namespace sb
