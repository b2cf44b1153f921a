#include "requesttablemodel.h"

#include "metrics/definitions.h"

#include <QColor>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QVariant numberOrEmpty(double v)
{
    return std::isnan(v) ? QVariant() : QVariant(v);
}

QString fixed(double v, int decimals)
{
    return std::isnan(v) ? QString() : QString::number(v, 'f', decimals);
}

// The metric definition behind a column, shown as the header's tooltip.
QString definitionTip(const char *key)
{
    const MetricDefinition *d = metricDefinition(QString::fromLatin1(key));
    if (!d)
        return {};
    QString tip = d->label + u" = "_s + d->definition;
    if (!d->detail.isEmpty())
        tip += u"\n"_s + d->detail;
    return tip;
}

} // namespace

RequestTableModel::RequestTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void RequestTableModel::setRows(QList<RequestRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_order.reset();
    m_cache.clear();
    m_wantedBlocks.clear();
    m_newBlocks.clear();
    endResetModel();
}

void RequestTableModel::setPagedOrder(std::shared_ptr<const std::vector<qint64>> order)
{
    beginResetModel();
    m_rows.clear();
    m_order = order ? std::move(order) : std::make_shared<const std::vector<qint64>>();
    m_wantedBlocks.clear();
    m_newBlocks.clear();
    endResetModel();
}

void RequestTableModel::addPagedRows(const QList<RequestRow> &rows)
{
    if (!m_order)
        return;
    // Bounded: when full, start again from the rows just fetched (what is on screen now).
    if (m_cache.size() + rows.size() > kMaxCachedRows) {
        m_cache.clear();
        m_wantedBlocks.clear(); // their rows may be gone: a block shown again asks again
    }
    for (const RequestRow &r : rows)
        m_cache.insert(r.index, r);
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

qint64 RequestTableModel::scheduleIndexAt(int row) const
{
    if (row < 0 || row >= rowCount())
        return -1;
    return m_order ? (*m_order)[size_t(row)] : m_rows.at(row).index;
}

const RequestRow *RequestTableModel::rowAt(int row) const
{
    if (row < 0 || row >= rowCount())
        return nullptr;
    if (!m_order)
        return &m_rows.at(row);
    const auto it = m_cache.constFind((*m_order)[size_t(row)]);
    return it == m_cache.constEnd() ? nullptr : &*it;
}

void RequestTableModel::requestBlock(int row) const
{
    const int block = row / kPageRows;
    if (m_wantedBlocks.contains(block))
        return;
    m_wantedBlocks.insert(block);
    m_newBlocks.append(block);
    if (m_flushPosted)
        return;
    m_flushPosted = true;
    // data() is const and may run inside a paint: the request leaves after it.
    QMetaObject::invokeMethod(
        const_cast<RequestTableModel *>(this),
        [this] { const_cast<RequestTableModel *>(this)->flushWanted(); }, Qt::QueuedConnection);
}

void RequestTableModel::sort(int column, Qt::SortOrder order)
{
    if (m_order)
        emit sortRequested(column, order);
}

void RequestTableModel::flushWanted()
{
    m_flushPosted = false;
    if (!m_order || m_newBlocks.isEmpty())
        return;
    // What was asked for last is what is on screen: whatever walks a huge range of rows
    // through data() must not queue the whole run (ResultsView copies a selection from the
    // file, not from here).
    constexpr qsizetype kMaxBlocks = 8;
    while (m_newBlocks.size() > kMaxBlocks)
        m_wantedBlocks.remove(m_newBlocks.takeFirst());
    QList<qint64> indices;
    for (int block : std::as_const(m_newBlocks)) {
        const size_t from = size_t(block) * kPageRows;
        const size_t to = std::min(m_order->size(), from + kPageRows);
        for (size_t i = from; i < to; ++i)
            if (!m_cache.contains((*m_order)[i]))
                indices.append((*m_order)[i]);
    }
    m_newBlocks.clear();
    if (!indices.isEmpty())
        emit rowsWanted(indices);
}

void RequestTableModel::clear()
{
    setRows({});
}

void RequestTableModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
}

int RequestTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return m_order ? int(m_order->size()) : int(m_rows.size());
}

int RequestTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RequestTableModel::statusText(const RequestRow &row)
{
    if (!row.ok()) {
        const QString name = QString::fromLatin1(errorClassName(row.error));
        return row.warmup ? name + u" (warm-up)"_s : name;
    }
    return row.warmup ? u"warm-up"_s : u"ok"_s;
}

QVariant RequestTableModel::rawValue(const RequestRow &row, int column)
{
    switch (column) {
    case IndexColumn:
        return row.index;
    case StatusColumn:
        return statusText(row);
    case SentColumn:
        return numberOrEmpty(row.sendS);
    case TtftColumn:
        return numberOrEmpty(row.ttftMs);
    case TpotColumn:
        return numberOrEmpty(row.tpotMs);
    case E2elColumn:
        return numberOrEmpty(row.e2elMs);
    case ItlMeanColumn:
        return numberOrEmpty(row.itlMeanMs);
    case ItlMaxColumn:
        return numberOrEmpty(row.itlMaxMs);
    case InputTokensColumn:
        return row.inputTokens;
    case InputSourceColumn:
        return tokenSourceLabel(row.inputSource).translated();
    case OutputTokensColumn:
        return row.outputTokens;
    case OutputSourceColumn:
        return tokenSourceLabel(row.outputSource).translated();
    case ScheduleLagColumn:
        return numberOrEmpty(row.scheduleLagMs);
    case HttpStatusColumn:
        return row.httpStatus > 0 ? QVariant(row.httpStatus) : QVariant();
    case FinishReasonColumn:
        return row.finishReason;
    case ErrorMessageColumn:
        return row.errorMessage;
    case RequestIdColumn:
        return row.requestId;
    default:
        return {};
    }
}

QVariant RequestTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RequestRow *row = rowAt(index.row());
    if (!row) {
        // Paged and not fetched yet: the index is known, the rest arrives with its block.
        requestBlock(index.row());
        if (index.column() == IndexColumn && (role == Qt::DisplayRole || role == SortRole))
            return scheduleIndexAt(index.row());
        return {};
    }
    return cell(*row, index.column(), role);
}

QVariant RequestTableModel::cell(const RequestRow &row, int col, int role)
{
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case SentColumn:
            return fixed(row.sendS, 3);
        case TtftColumn:
            return fixed(row.ttftMs, 2);
        case TpotColumn:
            return fixed(row.tpotMs, 2);
        case E2elColumn:
            return fixed(row.e2elMs, 2);
        case ItlMeanColumn:
            return fixed(row.itlMeanMs, 2);
        case ItlMaxColumn:
            return fixed(row.itlMaxMs, 2);
        case ScheduleLagColumn:
            return fixed(row.scheduleLagMs, 3);
        default:
            return rawValue(row, col);
        }
    case SortRole:
        return rawValue(row, col);
    case FailedRole:
        return row.failed();
    case WarmupRole:
        return row.warmup;
    case Qt::ToolTipRole:
        if (!row.ok() && col == StatusColumn)
            return errorClassLabel(row.error).translated() + u'\n' + row.errorMessage;
        if (!row.ok() && col == ErrorMessageColumn)
            return row.errorMessage;
        return {};
    case Qt::TextAlignmentRole:
        if (col == StatusColumn || col == InputSourceColumn || col == OutputSourceColumn ||
            col == FinishReasonColumn || col == ErrorMessageColumn || col == RequestIdColumn)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (row.failed() && col == StatusColumn)
            return QColor(0xb0, 0x1c, 0x1c);
        if (row.warmup)
            return QColor(0x80, 0x80, 0x80);
        return {};
    case Qt::BackgroundRole:
        // Failed requests stand out in the table instead of hiding in a count; those the
        // cancellation load closed are no failure (docs/metrics.md).
        if (row.failed())
            return QColor(0xfd, 0xe8, 0xe8);
        if (row.cancelledByLoad())
            return QColor(0xee, 0xee, 0xee);
        return {};
    default:
        return {};
    }
}

QVariant RequestTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case IndexColumn:
            return tr("#");
        case StatusColumn:
            return tr("Status");
        case SentColumn:
            return tr("Sent (s)");
        case TtftColumn:
            return tr("TTFT (ms)");
        case TpotColumn:
            return tr("TPOT (ms)");
        case E2elColumn:
            return tr("E2EL (ms)");
        case ItlMeanColumn:
            return tr("ITL mean (ms)");
        case ItlMaxColumn:
            return tr("ITL max (ms)");
        case InputTokensColumn:
            return tr("Input tok");
        case InputSourceColumn:
            return tr("Input source");
        case OutputTokensColumn:
            return tr("Output tok");
        case OutputSourceColumn:
            return tr("Output source");
        case ScheduleLagColumn:
            return tr("Sched. lag (ms)");
        case HttpStatusColumn:
            return tr("HTTP");
        case FinishReasonColumn:
            return tr("Finish");
        case ErrorMessageColumn:
            return tr("Error message");
        case RequestIdColumn:
            return tr("Request id");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case IndexColumn:
            return tr("Position in the run's schedule (0-based)");
        case SentColumn:
            return tr("t_send, seconds after the run started");
        case TtftColumn:
            return definitionTip("ttft");
        case TpotColumn:
            return definitionTip("tpot");
        case E2elColumn:
            return definitionTip("e2el");
        case ItlMeanColumn:
            return tr("Mean of this request's inter-token gaps.\n") + definitionTip("itl");
        case ItlMaxColumn:
            return tr("Largest of this request's inter-token gaps.\n") + definitionTip("itl");
        case ScheduleLagColumn:
            return definitionTip("schedule_lag");
        case InputSourceColumn:
        case OutputSourceColumn:
            return tr("Where the token count came from: server_usage (the stream's usage), "
                      "chunk_count (one token per chunk, counted here) or dataset");
        }
    }
    return {};
}

} // namespace sb
