#include "requestfilterproxy.h"

#include "models/requesttablemodel.h"

namespace sb {

RequestFilterProxy::RequestFilterProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(RequestTableModel::SortRole);
    setFilterKeyColumn(-1);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void RequestFilterProxy::setFailedOnly(bool on)
{
    if (on == m_failedOnly)
        return;
    m_failedOnly = on;
    invalidateRowsFilter();
}

void RequestFilterProxy::setText(const QString &text)
{
    setFilterFixedString(text);
}

bool RequestFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_failedOnly) {
        const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
        if (!idx.data(RequestTableModel::FailedRole).toBool())
            return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace sb
