#pragma once

#include "cost/conversionrate.h"

#include <QList>
#include <QString>

namespace sb {

struct BillItem;
struct CostBreakdown;
struct TestWindow;

struct CostOptions
{
    // The report currency. Empty: the currency shared by every counted item; if they differ
    // that is an error, never a silent mix.
    QString currency;
    // Rates for items in another currency; only the direction from -> report currency is used.
    QList<ConversionRate> rates;
};

// Where an interval lies relative to a window, both half-open [start, end) in ms.
// An instant (start == end) is Inside when windowStart <= start < windowEnd, else Outside;
// an item ending exactly at the window start (or starting exactly at its end) is Outside.
enum class Placement { Inside, Overlapping, Outside };
Placement placementOf(qint64 itemStart, qint64 itemEnd, qint64 windowStart, qint64 windowEnd);

// Attributes the SUT's bill items to the window (docs/cost.md): items inside count whole; items
// that overlap count by the window's rule for them (prorate by time / include whole) or are
// listed as needing a decision and left out; items outside are listed as excluded. Invalid
// items or window, mixed currencies without a rate, or overflow give a breakdown whose
// errors say why and whose figures are not available.
CostBreakdown attributeCosts(const TestWindow &window, const QList<BillItem> &items,
                             const CostOptions &options = {});

// "1 h 30 min", "90 ms": exact durations for the reasons in a breakdown.
QString formatDurationMs(qint64 ms);
// The same in the reader's language when `translate`: d, h and min are words in Chinese
// (天, 小时, 分钟); s and ms are SI symbols, kept in every language (docs/translations.md).
QString formatDurationMs(qint64 ms, bool translate);

// An English text of the cost module (an attribution's `why`, BillItem::pricingText(), a
// reason) in the reader's language when `translate`: its catalogue message is recognised
// (Message::fromEnglish()), and the durations, billing units and increments among its
// arguments ("1 min", "hour", "1 h", "1 request(s)") are translated too, so "2.5 USD/hour"
// reads "2.5 USD/小时" in Chinese. Currency codes and numbers stay as they are.
QString costText(const QString &english, bool translate = true);

} // namespace sb
