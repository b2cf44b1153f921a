#include "datasetpreviewmodel.h"

using namespace Qt::StringLiterals;

namespace sb {

DatasetPreviewModel::DatasetPreviewModel(QObject *parent) : QAbstractTableModel(parent) {}

void DatasetPreviewModel::setItems(const QList<PromptItem> &items)
{
    beginResetModel();
    m_total = items.size();
    m_items = items.mid(0, kMaxRows);
    endResetModel();
}

void DatasetPreviewModel::clear()
{
    beginResetModel();
    m_items.clear();
    m_total = 0;
    endResetModel();
}

int DatasetPreviewModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

int DatasetPreviewModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DatasetPreviewModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_items.size())
        return {};
    const PromptItem &item = m_items.at(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case IndexColumn:
            return index.row();
        case SourceColumn:
            return item.sourceIndex;
        case InputColumn:
            return item.inputTokens;
        case OutputColumn:
            return item.outputTokens;
        case PromptColumn: {
            QString p = item.prompt.left(300);
            p.replace(u'\n', u' ');
            return item.prompt.size() > 300 ? p + u"…"_s : p;
        }
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == PromptColumn)
        return item.prompt.left(4000);
    if (role == Qt::TextAlignmentRole && index.column() != PromptColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DatasetPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IndexColumn:
        return tr("#");
    case SourceColumn:
        return tr("Source item");
    case InputColumn:
        return tr("Input tokens");
    case OutputColumn:
        return tr("Output tokens");
    case PromptColumn:
        return tr("Prompt");
    default:
        return {};
    }
}

} // namespace sb
