#pragma once

#include <QSortFilterProxyModel>

namespace sb {

// Sorting and filtering of the per-request table: a "failed only" switch (the first thing one
// looks at after a bad run) and a case-insensitive text filter matched against every column,
// so "timeout", "http_5xx", a request id or a word of an error message all find their rows.
// Sorts by RequestTableModel::SortRole, i.e. numerically, with empty cells last.
class RequestFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RequestFilterProxy(QObject *parent = nullptr);

    bool failedOnly() const { return m_failedOnly; }
    void setFailedOnly(bool on);
    void setText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    bool m_failedOnly = false;
};

} // namespace sb
