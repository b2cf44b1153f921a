#pragma once

#include "cost/billitem.h"
#include "cost/conversionrate.h"
#include "cost/decimal.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <array>
#include <optional>

class QJsonObject;

namespace sb {

// An amount that may be unavailable. Never zero in place of "unknown": when there is nothing
// to compute from, value is empty and reason says why.
struct CostFigure
{
    std::optional<Decimal> value;
    QString reason; // why not available; empty when available

    bool available() const { return value.has_value(); }
    static CostFigure of(Decimal v) { return CostFigure{v, {}}; }
    static CostFigure unavailable(const QString &why) { return CostFigure{std::nullopt, why}; }
};

// How one bill item was treated for one test window.
enum class ItemAttribution {
    Inside,        // fully inside: counted whole
    Prorated,      // overlaps; the user chose prorate-by-time
    Whole,         // overlaps; the user chose include-whole
    NeedsDecision, // overlaps; no rule chosen: left out of the totals
    Outside,       // no overlap: excluded
};
const char *itemAttributionName(ItemAttribution a); // "inside" | "prorated" | "whole" |
                                                    // "needs-decision" | "outside"

struct AttributedItem
{
    BillItem item;
    ItemAttribution attribution = ItemAttribution::Outside;
    qint64 overlapMs = 0; // the part of the item's interval inside the window
    Decimal itemTotal;    // the item's own total, in its currency
    Decimal counted;      // counted toward the window, in the item's currency (0 when not counted)
    Decimal countedInReportCurrency; // counted, converted to the breakdown's currency
    QString why;                     // the rule applied and the arithmetic, for the report
};

// The cost of one test window: what counted, what did not and why, and the unit costs.
// Amounts are exact (1e-9); rounding happens only in formatText().
struct CostBreakdown
{
    // The rounding rule, printed with every breakdown.
    static QString roundingRule();

    QString windowName;
    QString sut;
    QDateTime windowStart;
    QDateTime windowEnd;
    QStringList runIds;
    QStringList loads; // distinct load descriptors of the runs

    QString currency;        // the report currency
    int displayDecimals = 2; // the currency's minor-unit digits, used by formatText()

    std::array<Decimal, kBillCategoryCount> byCategory{}; // indexed by BillCategory
    CostFigure total;
    qint64 successfulRequests = 0;
    qint64 outputTokens = 0;
    CostFigure perSuccessfulRequest;
    CostFigure perOutputToken;
    CostFigure perMillionOutputTokens;

    QList<AttributedItem> included;        // Inside
    QList<AttributedItem> overlapping;     // Prorated or Whole
    QList<AttributedItem> undecided;       // NeedsDecision
    QList<AttributedItem> excluded;        // Outside
    QList<ConversionRate> conversionRates; // the rates actually applied

    QStringList warnings;
    QStringList errors; // non-empty: nothing was totalled

    bool ok() const { return errors.isEmpty(); }
    Decimal categoryTotal(BillCategory c) const { return byCategory[size_t(c)]; }

    // Machine form: amounts as exact decimal strings, unavailable figures as
    // {"available": false, "reason": ...}.
    QJsonObject toJson() const;
    // The text `servebench-cli cost` prints; `translate`: in the installed language (the Cost
    // page), the reasons and notes found in the message catalogue from their English wording.
    QString formatText(bool translate = false) const;
};

} // namespace sb
