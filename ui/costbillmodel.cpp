#include "costbillmodel.h"

#include "common/message.h"
#include "cost/costattribution.h"

#include <QBrush>
#include <QColor>

using namespace Qt::StringLiterals;

namespace sb {

CostBillModel::CostBillModel(QObject *parent) : QAbstractTableModel(parent) {}

void CostBillModel::setData(const QList<ProjectBillItem> &items, const CostBreakdown &breakdown,
                            const TestWindow &window, bool hasWindow)
{
    beginResetModel();
    m_items = items;
    m_window = window;
    m_hasWindow = hasWindow;
    m_currency = breakdown.currency;
    m_decimals = breakdown.displayDecimals;
    m_attributed.clear();
    for (const auto *list :
         {&breakdown.included, &breakdown.overlapping, &breakdown.undecided, &breakdown.excluded})
        for (const AttributedItem &a : *list)
            m_attributed.insert(a.item.id, a);
    endResetModel();
}

void CostBillModel::retranslate()
{
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (m_items.isEmpty())
        return;
    // SutColumn .. InWindowColumn: every column with a translated word in it.
    emit dataChanged(index(0, SutColumn), index(rowCount() - 1, InWindowColumn), {Qt::DisplayRole});
}

const AttributedItem *CostBillModel::attributionAt(int row) const
{
    if (row < 0 || row >= m_items.size())
        return nullptr;
    const ProjectBillItem &p = m_items.at(row);
    if (!p.sut.isEmpty() && p.sut != m_window.sut)
        return nullptr;
    const auto it = m_attributed.constFind(p.item.id);
    return it == m_attributed.cend() ? nullptr : &it.value();
}

int CostBillModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

int CostBillModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CostBillModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ProjectBillItem &p = m_items.at(index.row());
    const BillItem &b = p.item;
    const AttributedItem *a = attributionAt(index.row());
    if (role == Qt::UserRole)
        return b.id;
    if (role == AttributionRole)
        return a ? QString::fromLatin1(itemAttributionName(a->attribution)) : QString();
    if (role == Qt::ToolTipRole)
        return a ? QVariant(costText(a->why)) : QVariant();
    if (role == Qt::TextAlignmentRole &&
        (index.column() == TotalColumn || index.column() == CountedColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == InWindowColumn && a &&
        a->attribution == ItemAttribution::NeedsDecision)
        return QBrush(QColor(0xb0, 0x40, 0x00));
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(index.column())) {
    case IdColumn:
        return b.id;
    case SutColumn:
        return p.sut.isEmpty() ? tr("(shared)") : p.sut;
    case CategoryColumn:
        return Message((QByteArray("cost.category.") + billCategoryName(b.category)).constData())
            .translated();
    case ProviderColumn:
        return b.provider;
    case ResourceColumn:
        return b.resourceId;
    case StartColumn:
        return formatUtcTimestamp(b.start);
    case EndColumn:
        return formatUtcTimestamp(b.end);
    case PricingColumn:
        return costText(b.pricingText());
    case TotalColumn: {
        const auto total = b.total();
        return total ? total->toString() + u' ' + b.currency : tr("invalid");
    }
    case InWindowColumn:
        if (!m_hasWindow)
            return tr("no window");
        if (!p.sut.isEmpty() && p.sut != m_window.sut)
            return tr("other SUT");
        if (!a)
            return tr("not attributed");
        switch (a->attribution) {
        case ItemAttribution::Inside:
            return tr("inside");
        case ItemAttribution::Prorated:
            return tr("overlaps: prorated");
        case ItemAttribution::Whole:
            return tr("overlaps: whole");
        case ItemAttribution::NeedsDecision:
            return tr("overlaps: needs a decision");
        case ItemAttribution::Outside:
            return tr("excluded (outside)");
        }
        return {};
    case CountedColumn:
        if (!a || a->attribution == ItemAttribution::Outside ||
            a->attribution == ItemAttribution::NeedsDecision)
            return QString();
        return a->countedInReportCurrency.toString(m_decimals) + u' ' + m_currency;
    case RuleColumn:
        if (!m_hasWindow || (!p.sut.isEmpty() && p.sut != m_window.sut))
            return QString();
        // The rule in the reader's words, as the page's rule selector names it.
        switch (m_window.ruleFor(b.id)) {
        case OverlapRule::Prorate:
            return tr("prorate by time");
        case OverlapRule::IncludeWhole:
            return tr("include whole");
        case OverlapRule::Undecided:
            break;
        }
        return tr("undecided");
    case ColumnCount:
        break;
    }
    return {};
}

QVariant CostBillModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const kTitles[ColumnCount] = {
        QT_TR_NOOP("Item"),      QT_TR_NOOP("SUT"),      QT_TR_NOOP("Category"),
        QT_TR_NOOP("Provider"),  QT_TR_NOOP("Resource"), QT_TR_NOOP("Start (UTC)"),
        QT_TR_NOOP("End (UTC)"), QT_TR_NOOP("Pricing"),  QT_TR_NOOP("Item total"),
        QT_TR_NOOP("In window"), QT_TR_NOOP("Counted"),  QT_TR_NOOP("Overlap rule")};
    return tr(kTitles[section]);
}

} // namespace sb
