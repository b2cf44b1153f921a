#pragma once

#include "cost/billitem.h"

#include <QString>
#include <optional>

namespace sb {

struct BillItemRow;

// A bill item as the project file holds it: the cost module's item, the row that stores it and
// the SUT it bills. An item without a SUT is shared: every test window considers it, and
// attribution by time decides what part of it a window carries (the client host that drove
// both platforms' runs, say).
struct ProjectBillItem
{
    qint64 rowId = 0;
    QString sut; // the SUT's name; empty = shared by all SUTs
    BillItem item;

    // The row's typed columns mirror the item; item_json keeps the whole item (quantity,
    // increment, notes) and the SUT, so nothing the user entered is lost.
    BillItemRow toRow() const;
    // Columns win for what they hold (a query or a hand edit sees the same values the cost
    // module uses); item_json supplies the rest. nullopt with *error when the row cannot be
    // read back into a valid item.
    static std::optional<ProjectBillItem> fromRow(const BillItemRow &row, QString *error);
};

} // namespace sb
