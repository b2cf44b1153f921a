#pragma once

#include "cost/costbreakdown.h"
#include "cost/testwindow.h"
#include "costproject/projectbillitem.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

namespace sb {

// The project's bill items, one row each, with how the selected test window treats each one
// (inside, prorated, needs a decision, excluded, another SUT's). Read-only: rules are chosen
// through the page, which writes them to the project and hands the new breakdown back.
class CostBillModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        SutColumn,
        CategoryColumn,
        ProviderColumn,
        ResourceColumn,
        StartColumn,
        EndColumn,
        PricingColumn,
        TotalColumn,
        InWindowColumn,
        CountedColumn,
        RuleColumn,
        ColumnCount
    };
    // The item's id (Qt::UserRole) and attribution name (AttributionRole) for the page.
    static constexpr int AttributionRole = Qt::UserRole + 1;

    explicit CostBillModel(QObject *parent = nullptr);

    // Swaps everything at once (a reset): items and breakdown always belong together.
    void setData(const QList<ProjectBillItem> &items, const CostBreakdown &breakdown,
                 const TestWindow &window, bool hasWindow);
    // Headers and the words in the SUT, total and in-window cells are translated when asked
    // for: call on QEvent::LanguageChange.
    void retranslate();
    const ProjectBillItem &itemAt(int row) const { return m_items.at(row); }
    // nullptr when the item is not one the window considers.
    const AttributedItem *attributionAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<ProjectBillItem> m_items;
    QHash<QString, AttributedItem> m_attributed; // by item id, for the window's SUT's items
    TestWindow m_window;
    QString m_currency;
    int m_decimals = 2;
    bool m_hasWindow = false;
};

} // namespace sb
