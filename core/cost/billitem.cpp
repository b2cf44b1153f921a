#include "billitem.h"

#include "exactarith.h"

#include <QJsonObject>
#include <QTimeZone>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

using exact::Int128;

template <typename E> struct NameOf
{
    E value;
    const char *name;
};

constexpr NameOf<BillCategory> kCategories[] = {
    {BillCategory::Gpu, "gpu"},           {BillCategory::Cpu, "cpu"},
    {BillCategory::Storage, "storage"},   {BillCategory::Network, "network"},
    {BillCategory::Platform, "platform"}, {BillCategory::Other, "other"}};

constexpr NameOf<BillingUnit> kUnits[] = {
    {BillingUnit::Second, "second"},   {BillingUnit::Minute, "minute"},
    {BillingUnit::Hour, "hour"},       {BillingUnit::Month, "month"},
    {BillingUnit::Request, "request"}, {BillingUnit::Token, "token"},
    {BillingUnit::KilowattHour, "kwh"}};

// Short forms people write in increments and invoices ("60s", "1 h").
constexpr NameOf<BillingUnit> kUnitAliases[] = {{BillingUnit::Second, "s"},
                                                {BillingUnit::Second, "sec"},
                                                {BillingUnit::Minute, "min"},
                                                {BillingUnit::Hour, "h"},
                                                {BillingUnit::Hour, "hr"},
                                                {BillingUnit::Request, "req"},
                                                {BillingUnit::Token, "tok"},
                                                {BillingUnit::KilowattHour, "kilowatt-hour"},
                                                {BillingUnit::KilowattHour, "kilowatt-hours"}};

constexpr NameOf<AmountKind> kKinds[] = {{AmountKind::Total, "total"}, {AmountKind::Rate, "rate"}};

constexpr NameOf<BillSource> kSources[] = {{BillSource::Invoice, "invoice"},
                                           {BillSource::Quote, "quote"},
                                           {BillSource::PricingPage, "pricing_page"}};

template <typename E, size_t N>
const char *nameFor(const NameOf<E> (&table)[N], E v, const char *fallback)
{
    for (const auto &e : table)
        if (e.value == v)
            return e.name;
    return fallback;
}

template <typename E, size_t N> bool valueFor(const NameOf<E> (&table)[N], QStringView name, E *out)
{
    for (const auto &e : table) {
        if (name.compare(QLatin1StringView(e.name), Qt::CaseInsensitive) == 0) {
            *out = e.value;
            return true;
        }
    }
    return false;
}

QString unitShort(BillingUnit u)
{
    switch (u) {
    case BillingUnit::Second:
        return u"s"_s;
    case BillingUnit::Minute:
        return u"min"_s;
    case BillingUnit::Hour:
        return u"h"_s;
    case BillingUnit::Month:
        return u"month"_s;
    case BillingUnit::Request:
        return u"request(s)"_s;
    case BillingUnit::Token:
        return u"token(s)"_s;
    case BillingUnit::KilowattHour:
        return u"kWh"_s;
    case BillingUnit::None:
        break;
    }
    return {};
}

void setError(QString *error, const QString &text)
{
    if (error)
        *error = text;
}

bool allDigits(QStringView s)
{
    for (QChar c : s)
        if (c < u'0' || c > u'9')
            return false;
    return !s.isEmpty();
}

} // namespace

const char *billCategoryName(BillCategory c)
{
    return nameFor(kCategories, c, "other");
}

QString billCategoryLabel(BillCategory c)
{
    switch (c) {
    case BillCategory::Gpu:
        return u"GPU"_s;
    case BillCategory::Cpu:
        return u"CPU"_s;
    case BillCategory::Storage:
        return u"Storage"_s;
    case BillCategory::Network:
        return u"Network"_s;
    case BillCategory::Platform:
        return u"Platform"_s;
    case BillCategory::Other:
        break;
    }
    return u"Other"_s;
}

bool billCategoryFromName(QStringView name, BillCategory *out)
{
    return valueFor(kCategories, name.trimmed(), out);
}

QList<BillCategory> allBillCategories()
{
    QList<BillCategory> l;
    for (const auto &e : kCategories)
        l.append(e.value);
    return l;
}

const char *billingUnitName(BillingUnit u)
{
    return nameFor(kUnits, u, "");
}

bool billingUnitFromName(QStringView name, BillingUnit *out)
{
    name = name.trimmed();
    if (name.isEmpty()) {
        *out = BillingUnit::None;
        return true;
    }
    if (valueFor(kUnits, name, out) || valueFor(kUnitAliases, name, out))
        return true;
    if (name.endsWith(u's', Qt::CaseInsensitive) && valueFor(kUnits, name.chopped(1), out))
        return true;
    return false;
}

bool isTimeUnit(BillingUnit u)
{
    return billingUnitMs(u) > 0;
}

qint64 billingUnitMs(BillingUnit u)
{
    switch (u) {
    case BillingUnit::Second:
        return 1000;
    case BillingUnit::Minute:
        return 60 * 1000;
    case BillingUnit::Hour:
        return 3600 * 1000;
    case BillingUnit::Month:
        return qint64(730) * 3600 * 1000;
    case BillingUnit::None:
    case BillingUnit::Request:
    case BillingUnit::Token:
    case BillingUnit::KilowattHour:
        break;
    }
    return 0;
}

const char *amountKindName(AmountKind k)
{
    return nameFor(kKinds, k, "total");
}

bool amountKindFromName(QStringView name, AmountKind *out)
{
    return valueFor(kKinds, name.trimmed(), out);
}

const char *billSourceName(BillSource s)
{
    return nameFor(kSources, s, "");
}

bool billSourceFromName(QStringView name, BillSource *out)
{
    QString n = name.trimmed().toString().toLower();
    n.replace(u' ', u'_').replace(u'-', u'_');
    if (n.isEmpty()) {
        *out = BillSource::Unspecified;
        return true;
    }
    return valueFor(kSources, n, out);
}

QStringList BillItem::validate() const
{
    QStringList errors;
    if (!start.isValid())
        errors << u"start is missing or invalid"_s;
    if (!end.isValid())
        errors << u"end is missing or invalid"_s;
    if (start.isValid() && end.isValid() && end < start)
        errors << u"end %1 is before start %2"_s.arg(formatUtcTimestamp(end),
                                                     formatUtcTimestamp(start));
    if (!isCurrencyCode(currency))
        errors << u"currency '%1' is not an ISO 4217 code (three upper-case letters)"_s.arg(
            currency);

    const bool incrementStated = !minIncrement.isZero() || minIncrementUnit != BillingUnit::None;
    if (incrementStated && !minIncrement.isPositive())
        errors << u"minimum increment must be greater than zero"_s;

    if (amountKind == AmountKind::Rate) {
        if (billingUnit == BillingUnit::None)
            errors << u"a rate needs a billing unit"_s;
        if (amount.isNegative())
            errors << u"a rate cannot be negative (enter credits as a negative total)"_s;
        if (isTimeUnit(billingUnit)) {
            if (!quantity.isPositive())
                errors << u"quantity (resources billed) must be greater than zero"_s;
            if (start.isValid() && end.isValid() && !(end > start))
                errors << u"a rate per %1 needs an end after its start"_s.arg(
                    QLatin1StringView(billingUnitName(billingUnit)));
            if (minIncrementUnit != BillingUnit::None && !isTimeUnit(minIncrementUnit))
                errors << u"minimum increment of a per-%1 rate must be a time"_s.arg(
                    QLatin1StringView(billingUnitName(billingUnit)));
            else if (!incrementMs())
                errors << u"minimum increment %1 %2 is not a whole number of milliseconds"_s.arg(
                    minIncrement.toString(),
                    QLatin1StringView(billingUnitName(
                        minIncrementUnit == BillingUnit::None ? billingUnit : minIncrementUnit)));
        } else if (billingUnit != BillingUnit::None) {
            if (quantity.isNegative())
                errors << u"quantity (%1s billed) cannot be negative"_s.arg(
                    QLatin1StringView(billingUnitName(billingUnit)));
            if (!incrementCount())
                errors << u"minimum increment of a per-%1 rate must be counted in %1s"_s.arg(
                    QLatin1StringView(billingUnitName(billingUnit)));
        }
    }
    if (errors.isEmpty() && !total())
        errors << u"the item's total is out of range"_s;
    return errors;
}

std::optional<qint64> BillItem::incrementMs() const
{
    const BillingUnit unit = minIncrementUnit == BillingUnit::None ? billingUnit : minIncrementUnit;
    const Decimal value = minIncrement.isZero() ? Decimal::fromInt(1) : minIncrement;
    if (!isTimeUnit(unit) || !value.isPositive())
        return std::nullopt;
    Int128 units;
    if (!exact::mul(value.units(), billingUnitMs(unit), &units) || units % Decimal::kOne != 0)
        return std::nullopt;
    return exact::narrow(units / Decimal::kOne);
}

std::optional<Decimal> BillItem::incrementCount() const
{
    const BillingUnit unit = minIncrementUnit == BillingUnit::None ? billingUnit : minIncrementUnit;
    const Decimal value = minIncrement.isZero() ? Decimal::fromInt(1) : minIncrement;
    if (billingUnit == BillingUnit::None || isTimeUnit(billingUnit) || unit != billingUnit ||
        !value.isPositive())
        return std::nullopt;
    return value;
}

std::optional<qint64> BillItem::billableMs(qint64 usedMs) const
{
    const auto inc = incrementMs();
    const qint64 duration = durationMs();
    if (!inc || duration < 0)
        return std::nullopt;
    usedMs = qBound<qint64>(0, usedMs, duration);
    const Int128 full = exact::divCeil(duration, *inc) * *inc;
    const Int128 used = exact::divCeil(usedMs, *inc) * *inc;
    return exact::narrow(qMin(full, used));
}

std::optional<Decimal> BillItem::billableCount(qint64 usedMs) const
{
    const auto inc = incrementCount();
    const qint64 duration = durationMs();
    if (!inc || duration < 0 || quantity.isNegative())
        return std::nullopt;
    const Int128 step = inc->units();
    const Int128 full = exact::divCeil(quantity.units(), step) * step;
    Int128 used = full;
    if (usedMs < duration) {
        // The used share of the quantity, quantity × used / duration, kept exact until rounded
        // up to the increment.
        Int128 num;
        if (!exact::mul(quantity.units(), qMax<qint64>(usedMs, 0), &num))
            return std::nullopt;
        used = exact::divCeil(num, Int128(duration) * step) * step;
    }
    const auto r = exact::narrow(qMin(full, used));
    if (!r)
        return std::nullopt;
    return Decimal::fromUnits(*r);
}

std::optional<Decimal> BillItem::rateCost(qint64 usedMs) const
{
    if (amountKind != AmountKind::Rate || amount.isNegative())
        return std::nullopt;
    if (isTimeUnit(billingUnit)) {
        const auto ms = billableMs(usedMs);
        if (!ms || !quantity.isPositive())
            return std::nullopt;
        // amount × quantity × ms / unitMs; quantity carries the 1e9 scale of a Decimal.
        return amount.mulDiv(quantity.units(), *ms, billingUnitMs(billingUnit) * Decimal::kOne);
    }
    const auto count = billableCount(usedMs);
    if (!count)
        return std::nullopt;
    return amount.times(*count);
}

std::optional<Decimal> BillItem::total() const
{
    if (amountKind == AmountKind::Total)
        return amount;
    return rateCost(durationMs());
}

QString BillItem::pricingText() const
{
    const QString unit = billingUnit == BillingUnit::KilowattHour
                             ? u"kWh"_s
                             : QString(QLatin1StringView(billingUnitName(billingUnit)));
    if (amountKind == AmountKind::Total) {
        QString s = u"%1 %2 for the interval"_s.arg(amount.toString(), currency);
        if (billingUnit != BillingUnit::None)
            s += u" (billed per %1)"_s.arg(unit);
        return s;
    }
    const BillingUnit incUnit =
        minIncrementUnit == BillingUnit::None ? billingUnit : minIncrementUnit;
    const Decimal incValue = minIncrement.isZero() ? Decimal::fromInt(1) : minIncrement;
    const QString increment = u"%1 %2"_s.arg(incValue.toString(), unitShort(incUnit));
    if (isTimeUnit(billingUnit))
        return u"%1 %2/%3 × %4, billed per started %5"_s.arg(amount.toString(), currency, unit,
                                                             quantity.toString(), increment);
    const QString counted = billingUnit == BillingUnit::KilowattHour ? unit : unit + u"(s)"_s;
    return u"%1 %2/%3 × %4 %5, billed in steps of %6"_s.arg(
        amount.toString(), currency, unit, quantity.toString(), counted, increment);
}

QJsonObject BillItem::toJson() const
{
    QJsonObject o;
    o[u"id"_s] = id;
    o[u"category"_s] = QLatin1StringView(billCategoryName(category));
    o[u"provider"_s] = provider;
    o[u"resource_id"_s] = resourceId;
    o[u"start"_s] = formatUtcTimestamp(start);
    o[u"end"_s] = formatUtcTimestamp(end);
    o[u"amount"_s] = amount.toString();
    o[u"currency"_s] = currency;
    o[u"amount_kind"_s] = QLatin1StringView(amountKindName(amountKind));
    o[u"billing_unit"_s] = QLatin1StringView(billingUnitName(billingUnit));
    o[u"quantity"_s] = quantity.toString();
    o[u"min_increment"_s] = minIncrement.toString();
    o[u"min_increment_unit"_s] = QLatin1StringView(billingUnitName(minIncrementUnit));
    o[u"idle_notes"_s] = idleNotes;
    o[u"start_stop_notes"_s] = startStopNotes;
    o[u"autoscaling_notes"_s] = autoscalingNotes;
    o[u"source"_s] = QLatin1StringView(billSourceName(source));
    o[u"reference"_s] = reference;
    o[u"confirmed"_s] = confirmed;
    return o;
}

BillItem BillItem::fromJson(const QJsonObject &o, QString *error)
{
    BillItem b;
    QStringList problems;
    const auto text = [&o](const char *key) {
        return o.value(QLatin1StringView(key)).toString();
    };
    const auto decimal = [&](const char *key, Decimal fallback) {
        const QString t = text(key);
        if (t.isEmpty())
            return fallback;
        QString why;
        const auto d = Decimal::parse(t, &why);
        if (!d)
            problems << u"%1: %2"_s.arg(QLatin1StringView(key), why);
        return d.value_or(fallback);
    };
    b.id = text("id");
    if (!billCategoryFromName(text("category"), &b.category))
        problems << u"category: unknown '%1'"_s.arg(text("category"));
    b.provider = text("provider");
    b.resourceId = text("resource_id");
    QString why;
    b.start = parseUtcTimestamp(text("start"), &why);
    if (!b.start.isValid())
        problems << u"start: %1"_s.arg(why);
    b.end = parseUtcTimestamp(text("end"), &why);
    if (!b.end.isValid())
        problems << u"end: %1"_s.arg(why);
    b.amount = decimal("amount", Decimal());
    b.currency = text("currency");
    if (!amountKindFromName(text("amount_kind").isEmpty() ? u"total"_s : text("amount_kind"),
                            &b.amountKind))
        problems << u"amount_kind: unknown '%1'"_s.arg(text("amount_kind"));
    if (!billingUnitFromName(text("billing_unit"), &b.billingUnit))
        problems << u"billing_unit: unknown '%1'"_s.arg(text("billing_unit"));
    b.quantity = decimal("quantity", Decimal::fromInt(1));
    b.minIncrement = decimal("min_increment", Decimal());
    if (!billingUnitFromName(text("min_increment_unit"), &b.minIncrementUnit))
        problems << u"min_increment_unit: unknown '%1'"_s.arg(text("min_increment_unit"));
    b.idleNotes = text("idle_notes");
    b.startStopNotes = text("start_stop_notes");
    b.autoscalingNotes = text("autoscaling_notes");
    if (!billSourceFromName(text("source"), &b.source))
        problems << u"source: unknown '%1'"_s.arg(text("source"));
    b.reference = text("reference");
    b.confirmed = o.value(u"confirmed"_s).toBool();
    setError(error, problems.join(u"; "_s));
    return b;
}

bool BillItem::parseMinIncrement(QStringView text, BillingUnit billingUnit, Decimal *value,
                                 BillingUnit *unit, QString *error)
{
    text = text.trimmed();
    if (text.isEmpty()) {
        *value = Decimal();
        *unit = BillingUnit::None;
        return true;
    }
    qsizetype split = 0;
    while (split < text.size() &&
           (text[split].isDigit() || text[split] == u'.' || text[split] == u'-'))
        ++split;
    QString why;
    const auto number = Decimal::parse(text.left(split), &why);
    if (!number) {
        setError(error, u"minimum increment '%1': %2"_s.arg(text, why));
        return false;
    }
    if (!number->isPositive()) {
        setError(error, u"minimum increment '%1' must be greater than zero"_s.arg(text));
        return false;
    }
    if (billingUnit == BillingUnit::None) {
        setError(error, u"minimum increment '%1' needs a billing unit"_s.arg(text));
        return false;
    }
    BillingUnit u = billingUnit;
    const QStringView suffix = text.mid(split).trimmed();
    if (!suffix.isEmpty() && (!billingUnitFromName(suffix, &u) || u == BillingUnit::None)) {
        setError(error, u"minimum increment '%1': unknown unit '%2'"_s.arg(text, suffix));
        return false;
    }
    if (isTimeUnit(billingUnit) != isTimeUnit(u) || (!isTimeUnit(u) && u != billingUnit)) {
        setError(error, u"minimum increment '%1' does not fit a per-%2 billing unit"_s.arg(
                            text, QLatin1StringView(billingUnitName(billingUnit))));
        return false;
    }
    *value = *number;
    *unit = u;
    return true;
}

QDateTime parseUtcTimestamp(QStringView text, QString *error)
{
    const QStringView t = text.trimmed();
    const auto fail = [&](const QString &why) {
        setError(error, why);
        return QDateTime();
    };
    if (t.isEmpty())
        return fail(u"empty date"_s);
    const QString example = u"e.g. 2024-05-01T10:00:00Z"_s;
    // YYYY-MM-DDTHH:MM:SS is 19 characters; anything shorter cannot carry a time of day.
    if (t.size() < 19 || t[4] != u'-' || t[7] != u'-' || t[10] != u'T' || t[13] != u':' ||
        t[16] != u':' || !allDigits(t.mid(0, 4)) || !allDigits(t.mid(5, 2)) ||
        !allDigits(t.mid(8, 2)) || !allDigits(t.mid(11, 2)) || !allDigits(t.mid(14, 2)) ||
        !allDigits(t.mid(17, 2))) {
        if (t.size() == 10 && t[4] == u'-' && t[7] == u'-')
            return fail(
                u"'%1' has no time of day: write an ISO 8601 UTC time, %2"_s.arg(t, example));
        return fail(u"'%1' is not an ISO 8601 UTC time (%2)"_s.arg(t, example));
    }
    qsizetype i = 19;
    int ms = 0;
    if (i < t.size() && t[i] == u'.') {
        const qsizetype from = ++i;
        while (i < t.size() && t[i].isDigit())
            ++i;
        const QStringView frac = t.mid(from, i - from);
        if (frac.isEmpty() || frac.size() > 3)
            return fail(u"'%1': give 1 to 3 fractional digits of a second"_s.arg(t));
        ms = frac.toInt() * (frac.size() == 1 ? 100 : frac.size() == 2 ? 10 : 1);
    }
    const QStringView zone = t.mid(i);
    if (zone.isEmpty())
        return fail(u"'%1' has no time zone: end it with Z (UTC), %2"_s.arg(t, example));
    if (zone != u"Z" && zone != u"+00:00")
        return fail(u"'%1': give the time in UTC, ending with Z (%2)"_s.arg(t, example));
    const QDate date(t.mid(0, 4).toInt(), t.mid(5, 2).toInt(), t.mid(8, 2).toInt());
    const QTime time(t.mid(11, 2).toInt(), t.mid(14, 2).toInt(), t.mid(17, 2).toInt(), ms);
    if (!date.isValid())
        return fail(u"'%1' is not a valid calendar date"_s.arg(t));
    if (!time.isValid())
        return fail(u"'%1' is not a valid time of day"_s.arg(t));
    return QDateTime(date, time, QTimeZone::utc());
}

QString formatUtcTimestamp(const QDateTime &t)
{
    if (!t.isValid())
        return {};
    QString s = t.toUTC().toString(Qt::ISODateWithMs);
    if (s.endsWith(u".000Z"_s))
        s = s.left(s.size() - 5) + u'Z';
    return s;
}

bool isCurrencyCode(QStringView code)
{
    if (code.size() != 3)
        return false;
    for (QChar c : code)
        if (c < u'A' || c > u'Z')
            return false;
    return true;
}

int currencyDisplayDecimals(QStringView code)
{
    static const QStringList none = {u"BIF"_s, u"CLP"_s, u"DJF"_s, u"GNF"_s, u"ISK"_s, u"JPY"_s,
                                     u"KMF"_s, u"KRW"_s, u"PYG"_s, u"RWF"_s, u"UGX"_s, u"UYI"_s,
                                     u"VND"_s, u"VUV"_s, u"XAF"_s, u"XOF"_s, u"XPF"_s};
    static const QStringList three = {u"BHD"_s, u"IQD"_s, u"JOD"_s, u"KWD"_s,
                                      u"LYD"_s, u"OMR"_s, u"TND"_s};
    if (none.contains(code))
        return 0;
    if (three.contains(code))
        return 3;
    return 2;
}

} // namespace sb
