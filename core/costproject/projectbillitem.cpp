#include "projectbillitem.h"

#include "store/storetypes.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr auto kSutKey = "sut"_L1;

qint64 pow10(int n)
{
    qint64 p = 1;
    while (n-- > 0)
        p *= 10;
    return p;
}

// The fewest decimals that hold the amount exactly, but at least the currency's minor unit:
// a query on the columns then reads cents as cents.
int amountScale(const Decimal &amount, const QString &currency)
{
    int scale = Decimal::kFractionDigits;
    while (scale > 0 && amount.units() % pow10(Decimal::kFractionDigits - scale + 1) == 0)
        --scale;
    return qMax(scale, isCurrencyCode(currency) ? currencyDisplayDecimals(currency) : 2);
}

QString joinedNotes(const BillItem &b)
{
    QStringList parts;
    if (!b.idleNotes.isEmpty())
        parts << u"idle: "_s + b.idleNotes;
    if (!b.startStopNotes.isEmpty())
        parts << u"start/stop: "_s + b.startStopNotes;
    if (!b.autoscalingNotes.isEmpty())
        parts << u"autoscaling: "_s + b.autoscalingNotes;
    return parts.join(u"; "_s);
}

} // namespace

BillItemRow ProjectBillItem::toRow() const
{
    BillItemRow r;
    r.id = rowId;
    r.category = QLatin1StringView(billCategoryName(item.category)).toString();
    r.provider = item.provider;
    r.resourceId = item.resourceId;
    r.startUtc = item.start;
    r.endUtc = item.end;
    r.amountScale = amountScale(item.amount, item.currency);
    r.amountMinor = item.amount.units() / pow10(Decimal::kFractionDigits - r.amountScale);
    r.amountKind = QLatin1StringView(amountKindName(item.amountKind)).toString();
    r.currency = item.currency;
    r.billingUnit = QLatin1StringView(billingUnitName(item.billingUnit)).toString();
    // The column is whole seconds and only meaningful for time units; the exact increment
    // (500 ms, 1000 tokens) lives in item_json.
    if (isTimeUnit(item.billingUnit))
        if (const auto ms = item.incrementMs())
            r.minIncrementS = (*ms + 999) / 1000;
    r.notes = joinedNotes(item);
    r.source = QLatin1StringView(billSourceName(item.source)).toString();
    r.reference = item.reference;
    r.confirmed = item.confirmed;
    r.details = item.toJson();
    if (!sut.isEmpty())
        r.details.insert(kSutKey, sut);
    return r;
}

std::optional<ProjectBillItem> ProjectBillItem::fromRow(const BillItemRow &row, QString *error)
{
    const auto failWith = [&](const QString &why) {
        if (error)
            *error = u"bill item #%1: %2"_s.arg(row.id).arg(why);
        return std::nullopt;
    };
    QString why;
    ProjectBillItem p;
    p.rowId = row.id;
    p.sut = row.details.value(kSutKey).toString();
    p.item = BillItem::fromJson(row.details, &why);
    if (row.details.isEmpty())
        why.clear(); // a row written without item_json: the columns are all there is
    else if (!why.isEmpty())
        return failWith(u"item_json: "_s + why);

    BillItem &b = p.item;
    if (!billCategoryFromName(row.category, &b.category))
        return failWith(u"unknown category '%1'"_s.arg(row.category));
    b.provider = row.provider;
    b.resourceId = row.resourceId;
    b.start = row.startUtc;
    b.end = row.endUtc;
    if (row.amountScale < 0 || row.amountScale > Decimal::kFractionDigits)
        return failWith(u"amount scale %1 is outside 0..9"_s.arg(row.amountScale));
    const qint64 factor = pow10(Decimal::kFractionDigits - row.amountScale);
    qint64 units = 0;
    if (__builtin_mul_overflow(row.amountMinor, factor, &units))
        return failWith(u"amount is out of range"_s);
    b.amount = Decimal::fromUnits(units);
    if (!amountKindFromName(row.amountKind, &b.amountKind))
        return failWith(u"unknown amount kind '%1'"_s.arg(row.amountKind));
    b.currency = row.currency;
    if (!billingUnitFromName(row.billingUnit, &b.billingUnit))
        return failWith(u"unknown billing unit '%1'"_s.arg(row.billingUnit));
    if (!billSourceFromName(row.source, &b.source))
        return failWith(u"unknown source '%1'"_s.arg(row.source));
    b.reference = row.reference;
    b.confirmed = row.confirmed;
    if (b.id.isEmpty())
        b.id = u"#%1"_s.arg(row.id); // rules need a key; a row id is stable
    const QStringList problems = b.validate();
    if (!problems.isEmpty())
        return failWith(problems.join(u"; "_s));
    return p;
}

} // namespace sb
