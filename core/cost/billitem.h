#pragma once

#include "cost/decimal.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

class QJsonObject;

namespace sb {

// The categories of docs/cost.md: total = GPU + CPU + storage + network + platform + other.
enum class BillCategory { Gpu, Cpu, Storage, Network, Platform, Other };
constexpr int kBillCategoryCount = 6;
const char *billCategoryName(BillCategory c); // stored name: "gpu", "cpu", "storage", ...
QString billCategoryLabel(BillCategory c);    // shown: "GPU", "CPU", "Storage", ...
bool billCategoryFromName(QStringView name, BillCategory *out); // case-insensitive
QList<BillCategory> allBillCategories();

// What one unit of the amount buys. Time units convert at fixed lengths; a month is 730 hours
// (the 8760 h / 12 convention of cloud pricing pages), not a calendar month.
// KilowattHour prices electricity: a per-kWh rate counts the energy measured in the test window
// when its runs measured it (docs/cost.md), otherwise its own quantity like a count unit.
enum class BillingUnit { None, Second, Minute, Hour, Month, Request, Token, KilowattHour };
const char *billingUnitName(BillingUnit u); // "" for None, else "second", "minute", ...
// Case-insensitive; accepts the names, their plurals and s/sec/min/h/hr. Empty text -> None.
bool billingUnitFromName(QStringView name, BillingUnit *out);
bool isTimeUnit(BillingUnit u);
qint64 billingUnitMs(BillingUnit u); // 0 for None, Request and Token

// An invoice line is a total for its interval; a pricing page gives a rate per unit.
enum class AmountKind { Total, Rate };
const char *amountKindName(AmountKind k); // "total" | "rate"
bool amountKindFromName(QStringView name, AmountKind *out);

enum class BillSource { Unspecified, Invoice, Quote, PricingPage };
const char *billSourceName(BillSource s); // "" | "invoice" | "quote" | "pricing_page"
bool billSourceFromName(QStringView name, BillSource *out); // also "pricing page", "pricing-page"

// One cost line (docs/design.md, vocabulary). The interval is half-open, [start, end), UTC, in
// milliseconds; start == end is an instant (a one-off fee).
//
// Amount kinds:
//  - Total: `amount` is what the line costs over [start, end).
//  - Rate, time unit: `amount` per unit per resource; total = amount × quantity × billable time,
//    billable time = duration rounded UP to a whole number of minimum increments.
//  - Rate, request/token/kWh: `amount` per request, token or kWh; total = amount × billable
//    count, billable count = quantity rounded UP to a whole number of minimum increments.
struct BillItem
{
    QString id; // stable key for the overlap rules of a test window
    BillCategory category = BillCategory::Other;
    QString provider;
    QString resourceId;
    QDateTime start; // UTC
    QDateTime end;   // UTC, exclusive
    Decimal amount;
    QString currency; // ISO 4217, three upper-case letters
    AmountKind amountKind = AmountKind::Total;
    BillingUnit billingUnit = BillingUnit::None; // required for Rate; informative for Total
    // Time-unit rate: number of resources billed (8 GPUs). Count-unit rate: requests or tokens
    // billed. Unused for Total.
    Decimal quantity = Decimal::fromInt(1);
    // The billing granularity, e.g. {1, Hour} = per started hour, {60, Second} = per started
    // minute. Zero / None = one billing unit. A time increment must be a whole number of ms.
    Decimal minIncrement;
    BillingUnit minIncrementUnit = BillingUnit::None;
    QString idleNotes;
    QString startStopNotes;
    QString autoscalingNotes;
    BillSource source = BillSource::Unspecified;
    QString reference; // URL, document, invoice number
    bool confirmed = false;

    qint64 startMs() const { return start.toMSecsSinceEpoch(); }
    qint64 endMs() const { return end.toMSecsSinceEpoch(); }
    qint64 durationMs() const { return endMs() - startMs(); }

    // Everything wrong with the item, one sentence each; empty when valid.
    QStringList validate() const;

    // The increment in ms (time-unit rates) or in counted units (request/token rates);
    // nullopt when the stated increment does not fit the billing unit.
    std::optional<qint64> incrementMs() const;
    std::optional<Decimal> incrementCount() const;

    // Billable units for `usedMs` of the item's interval (usedMs = durationMs() for the whole
    // item), rounded up to the increment and capped at the whole item's billable units.
    // Time units: billable milliseconds. Count units: the billable count, where the used part
    // of the quantity is quantity × usedMs / durationMs.
    std::optional<qint64> billableMs(qint64 usedMs) const;
    std::optional<Decimal> billableCount(qint64 usedMs) const;

    // Cost of `usedMs` of a Rate item (see above), or nullopt when invalid / out of range.
    std::optional<Decimal> rateCost(qint64 usedMs) const;
    // The item's own total in its currency: amount (Total) or rateCost(durationMs()) (Rate).
    std::optional<Decimal> total() const;

    // "2.5 USD/hour × 8, per started 1 hour" — the pricing as a reader checks it.
    QString pricingText() const;

    // Amounts are decimal strings, times ISO 8601 UTC with milliseconds.
    QJsonObject toJson() const;
    static BillItem fromJson(const QJsonObject &o, QString *error = nullptr);

    // Parses "1 hour", "60s", "60 seconds", "1000" (a bare number = billing units) for the
    // given billing unit into minIncrement / minIncrementUnit.
    static bool parseMinIncrement(QStringView text, BillingUnit billingUnit, Decimal *value,
                                  BillingUnit *unit, QString *error);
};

// Strict ISO 8601 UTC: YYYY-MM-DDTHH:MM:SS[.fff](Z|+00:00|-00:00). Local times, other offsets,
// date-only text and more than 3 fractional digits are rejected with a reason.
QDateTime parseUtcTimestamp(QStringView text, QString *error = nullptr);
QString formatUtcTimestamp(const QDateTime &t); // "2024-05-01T10:00:00Z" (".250Z" when ms != 0)
// ISO 4217 shape: three upper-case ASCII letters.
bool isCurrencyCode(QStringView code);
// Decimal places shown for a currency: 0 for JPY, KRW, ...; 3 for BHD, KWD, ...; otherwise 2.
int currencyDisplayDecimals(QStringView code);

} // namespace sb
