#include "costattribution.h"

#include "cost/billitem.h"
#include "cost/costbreakdown.h"
#include "cost/testwindow.h"

#include "common/message.h"

#include <QRegularExpression>
#include <QSet>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QString itemLabel(const BillItem &item, int index)
{
    if (!item.id.isEmpty())
        return u"bill item '%1'"_s.arg(item.id);
    return u"bill item #%1"_s.arg(index + 1);
}

QString overlapText(const BillItem &item, qint64 overlapMs)
{
    return u"overlaps the window for %1 of its %2"_s.arg(formatDurationMs(overlapMs),
                                                         formatDurationMs(item.durationMs()));
}

// Counts the overlapping part of an item by time and explains the arithmetic.
std::optional<Decimal> prorate(const BillItem &item, qint64 overlapMs, QString *why)
{
    const qint64 duration = item.durationMs();
    if (item.amountKind == AmountKind::Total) {
        const auto v = item.amount.mulDiv(overlapMs, duration);
        if (v)
            *why = u"%1; prorated by time: %2 × %3 / %4 = %5 %6"_s.arg(
                overlapText(item, overlapMs), item.amount.toString(), formatDurationMs(overlapMs),
                formatDurationMs(duration), v->toString(), item.currency);
        return v;
    }
    const auto v = item.rateCost(overlapMs);
    if (!v)
        return v;
    const QString unit = QLatin1StringView(billingUnitName(item.billingUnit));
    if (isTimeUnit(item.billingUnit)) {
        const qint64 billable = item.billableMs(overlapMs).value_or(0);
        *why = u"%1; prorated by time: %2 billed as %3 (%4) = %5 %6"_s.arg(
            overlapText(item, overlapMs), formatDurationMs(overlapMs), formatDurationMs(billable),
            item.pricingText(), v->toString(), item.currency);
    } else {
        const Decimal count = item.billableCount(overlapMs).value_or(Decimal());
        *why = u"%1; prorated by time: %2 of %3 %4(s) billable in the window × %5 = %6 %7"_s.arg(
            overlapText(item, overlapMs), count.toString(), item.quantity.toString(), unit,
            item.amount.toString(), v->toString(), item.currency);
    }
    return v;
}

const ConversionRate *findRate(const QList<ConversionRate> &rates, const QString &from,
                               const QString &to)
{
    for (const auto &r : rates)
        if (r.from == from && r.to == to)
            return &r;
    return nullptr;
}

} // namespace

Placement placementOf(qint64 itemStart, qint64 itemEnd, qint64 windowStart, qint64 windowEnd)
{
    if (itemStart == itemEnd)
        return itemStart >= windowStart && itemStart < windowEnd ? Placement::Inside
                                                                 : Placement::Outside;
    if (qMax(itemStart, windowStart) >= qMin(itemEnd, windowEnd))
        return Placement::Outside;
    if (itemStart >= windowStart && itemEnd <= windowEnd)
        return Placement::Inside;
    return Placement::Overlapping;
}

QString formatDurationMs(qint64 ms)
{
    if (ms == 0)
        return u"0 s"_s;
    QStringList parts;
    const bool negative = ms < 0;
    qint64 rest = negative ? -ms : ms;
    const struct
    {
        qint64 size;
        const char *name;
    } steps[] = {{86400000, "d"}, {3600000, "h"}, {60000, "min"}, {1000, "s"}, {1, "ms"}};
    for (const auto &s : steps) {
        if (rest >= s.size) {
            parts << u"%1 %2"_s.arg(rest / s.size).arg(QLatin1StringView(s.name));
            rest %= s.size;
        }
    }
    return (negative ? u"-"_s : QString()) + parts.join(u' ');
}

namespace {

// The words of durations and billing units the cost texts write, with their catalogue entries
// (cost.unit.*). "s", "ms" and "kWh" are symbols: not listed, so they stay as written.
const char *unitMessageId(QStringView word)
{
    static const QHash<QString, const char *> ids = {
        {u"d"_s, "cost.unit.d"},
        {u"h"_s, "cost.unit.h"},
        {u"min"_s, "cost.unit.min"},
        {u"second"_s, "cost.unit.second"},
        {u"minute"_s, "cost.unit.minute"},
        {u"hour"_s, "cost.unit.hour"},
        {u"month"_s, "cost.unit.month"},
        {u"request"_s, "cost.unit.request"},
        {u"token"_s, "cost.unit.token"},
        {u"request(s)"_s, "cost.unit.requests"},
        {u"token(s)"_s, "cost.unit.tokens"},
    };
    return ids.value(word.toString(), nullptr);
}

bool isUnitWord(QStringView word)
{
    return unitMessageId(word) || word == u"s" || word == u"ms" || word == u"kWh";
}

// "hour", "1 h", "39 s 124 ms", "0.5 min", "1 request(s)": a unit alone, or numbers each
// followed by its unit. Anything else (an id, a provider's name) is not touched.
std::optional<Message> unitMessage(const QString &text)
{
    static const QRegularExpression number(u"^-?\\d+(\\.\\d+)?$"_s);
    const QStringList words = text.split(u' ');
    if (words.size() == 1) {
        if (const char *id = unitMessageId(words.first()))
            return Message(id);
        return std::nullopt;
    }
    if (words.size() % 2 != 0)
        return std::nullopt;
    QList<Message> parts;
    for (qsizetype i = 0; i < words.size(); i += 2) {
        if (!number.match(words.at(i)).hasMatch() || !isUnitWord(words.at(i + 1)))
            return std::nullopt;
        const char *id = unitMessageId(words.at(i + 1));
        parts << Message::join(
            {Message::literal(words.at(i)), id ? Message(id) : Message::literal(words.at(i + 1))},
            u" "_s);
    }
    return Message::join(parts, u" "_s);
}

// `m` with the units among its literal arguments as messages. Only cost messages: their
// arguments are amounts, currencies, durations and units; the ids of bill items are left alone.
Message withUnits(const Message &m)
{
    if (!m.id() || qstrncmp(m.id(), "cost.", 5) != 0 || qstrcmp(m.id(), "cost.why.item_id") == 0 ||
        qstrcmp(m.id(), "cost.item.id") == 0)
        return m;
    QList<Message> args;
    for (const Message &a : m.argMessages()) {
        if (a.isLiteral())
            args << unitMessage(a.text()).value_or(a);
        else
            args << withUnits(a);
    }
    return Message(m.id(), args);
}

} // namespace

QString formatDurationMs(qint64 ms, bool translate)
{
    const QString english = formatDurationMs(ms);
    if (!translate)
        return english;
    const auto m = unitMessage(english);
    return m ? m->translated() : english;
}

QString costText(const QString &english, bool translate)
{
    if (!translate)
        return english;
    const Message m = Message::fromEnglish(english);
    if (m.isLiteral())
        return unitMessage(english).value_or(m).translated();
    return withUnits(m).translated();
}

CostBreakdown attributeCosts(const TestWindow &window, const QList<BillItem> &items,
                             const CostOptions &options)
{
    CostBreakdown b;
    b.windowName = window.name;
    b.sut = window.sut;
    b.windowStart = window.start;
    b.windowEnd = window.end;
    for (const auto &r : window.runs)
        b.runIds << r.runId;
    b.loads = window.distinctLoads();
    b.successfulRequests = window.successfulRequests();
    b.outputTokens = window.outputTokens();

    const auto fail = [&b](const QString &why) {
        b.total = b.perSuccessfulRequest = b.perOutputToken = b.perMillionOutputTokens =
            CostFigure::unavailable(why);
        return b;
    };

    // 1. Inputs. Nothing is totalled from an invalid window or item.
    b.errors << window.validate();
    QSet<QString> ids;
    for (int i = 0; i < items.size(); ++i) {
        const BillItem &item = items[i];
        for (const auto &e : item.validate())
            b.errors << u"%1: %2"_s.arg(itemLabel(item, i), e);
        if (!item.id.isEmpty()) {
            if (ids.contains(item.id))
                b.errors << u"%1 appears twice"_s.arg(itemLabel(item, i));
            ids.insert(item.id);
        }
    }
    for (const auto &r : options.rates) {
        if (!isCurrencyCode(r.from) || !isCurrencyCode(r.to) || !r.rate.isPositive())
            b.errors << u"conversion rate %1→%2 = %3 is not valid (ISO 4217 codes and a rate "
                        "above zero)"_s.arg(r.from, r.to, r.rate.toString());
    }
    if (!options.currency.isEmpty() && !isCurrencyCode(options.currency))
        b.errors << u"report currency '%1' is not an ISO 4217 code"_s.arg(options.currency);
    if (!b.errors.isEmpty())
        return fail(u"the cost inputs have errors"_s);

    // 2. Placement and the amount each item counts, in its own currency.
    const qint64 ws = window.startMs();
    const qint64 we = window.endMs();
    QList<AttributedItem> counted; // included and decided overlapping, in input order
    QList<int> countedIndex;       // their positions in `items`, for messages
    for (int i = 0; i < items.size(); ++i) {
        const BillItem &item = items[i];
        AttributedItem a;
        a.item = item;
        a.itemTotal = *item.total(); // validate() guarantees it
        a.overlapMs = qMax<qint64>(0, qMin(item.endMs(), we) - qMax(item.startMs(), ws));
        const Placement placement = placementOf(item.startMs(), item.endMs(), ws, we);
        // Electricity priced per kWh: the energy the runs measured is what the window used
        // (docs/cost.md). Without a measurement the item is priced by its own quantity below.
        if (item.amountKind == AmountKind::Rate && item.billingUnit == BillingUnit::KilowattHour &&
            placement != Placement::Outside) {
            const double joules = window.energyJ();
            if (std::isfinite(joules) && joules >= 0) {
                // Rounded up to the item's increment, as any count unit (per started kWh by
                // default; a metered tariff states e.g. 0.001 kWh).
                const auto kwh = Decimal::parse(QString::number(joules / 3.6e6, 'f', 9));
                const auto step = item.incrementCount();
                std::optional<Decimal> billable;
                if (kwh && step && step->isPositive()) {
                    const qint64 n = step->units();
                    const qint64 steps = kwh->units() / n + (kwh->units() % n != 0 ? 1 : 0);
                    if (steps <= std::numeric_limits<qint64>::max() / n)
                        billable = Decimal::fromUnits(steps * n);
                }
                const auto v = billable ? item.amount.times(*billable) : std::nullopt;
                if (!v) {
                    b.errors << u"%1: energy cost out of range"_s.arg(itemLabel(item, i));
                    return fail(u"the cost inputs have errors"_s);
                }
                a.attribution = ItemAttribution::Inside;
                a.counted = *v;
                a.why = u"priced by the energy the window's runs measured: %1 J = %2 kWh, billed "
                        "as %3 kWh (steps of %4 kWh) × %5 %6/kWh = %7 %6"_s.arg(
                            QString::number(joules, 'f', 1), kwh->toString(), billable->toString(),
                            step->toString(), item.amount.toString(), item.currency, v->toString());
                counted << a;
                countedIndex << i;
                continue;
            }
            const QStringList missing = window.runsWithoutEnergy();
            b.warnings << u"%1 prices electricity per kWh, but the window's energy was not "
                          "measured (%2): it is counted by its own quantity (%3 kWh), not by what "
                          "the window used"_s.arg(
                              itemLabel(item, i),
                              missing.isEmpty()
                                  ? u"no runs"_s
                                  : u"no energy for run(s) %1"_s.arg(missing.join(u", "_s)),
                              item.quantity.toString());
        }
        switch (placement) {
        case Placement::Outside:
            a.attribution = ItemAttribution::Outside;
            if (item.durationMs() == 0)
                a.why = u"an instant outside the window (an instant counts when window start ≤ "
                        "it < window end)"_s;
            else if (item.endMs() <= ws)
                a.why = u"ends at or before the window start"_s;
            else
                a.why = u"starts at or after the window end"_s;
            b.excluded << a;
            break;
        case Placement::Inside:
            a.attribution = ItemAttribution::Inside;
            a.counted = a.itemTotal;
            a.why = item.durationMs() == 0 ? u"an instant inside the window: counted whole"_s
                                           : u"inside the window: counted whole"_s;
            counted << a;
            countedIndex << i;
            break;
        case Placement::Overlapping:
            switch (window.ruleFor(item.id)) {
            case OverlapRule::Undecided:
                a.attribution = ItemAttribution::NeedsDecision;
                a.why = u"%1; needs a decision (prorate by time or include whole): left out of "
                        "the totals"_s.arg(overlapText(item, a.overlapMs));
                b.undecided << a;
                break;
            case OverlapRule::IncludeWhole:
                a.attribution = ItemAttribution::Whole;
                a.counted = a.itemTotal;
                a.why = u"%1; included whole by the user's choice"_s.arg(
                    overlapText(item, a.overlapMs));
                counted << a;
                countedIndex << i;
                break;
            case OverlapRule::Prorate: {
                a.attribution = ItemAttribution::Prorated;
                const auto v = prorate(item, a.overlapMs, &a.why);
                if (!v) {
                    b.errors << u"%1: prorated amount out of range"_s.arg(itemLabel(item, i));
                    return fail(u"the cost inputs have errors"_s);
                }
                a.counted = *v;
                counted << a;
                countedIndex << i;
                break;
            }
            }
            break;
        }
    }

    // 3. One report currency; conversions only with a user-given rate.
    QStringList currencies;
    for (const auto &a : counted)
        if (!currencies.contains(a.item.currency))
            currencies << a.item.currency;
    b.currency = options.currency;
    if (b.currency.isEmpty()) {
        if (currencies.size() > 1) {
            currencies.sort();
            b.errors << u"the counted bill items are in different currencies (%1): choose a "
                        "report currency and give conversion rates"_s.arg(currencies.join(u", "_s));
            return fail(u"mixed currencies"_s);
        }
        if (!currencies.isEmpty())
            b.currency = currencies.first();
        else if (!items.isEmpty())
            b.currency = items.first().currency;
    }
    b.displayDecimals = currencyDisplayDecimals(b.currency);

    Decimal sum;
    bool any = false;
    for (qsizetype k = 0; k < counted.size(); ++k) {
        AttributedItem &a = counted[k];
        if (a.item.currency == b.currency) {
            a.countedInReportCurrency = a.counted;
        } else {
            const ConversionRate *rate = findRate(options.rates, a.item.currency, b.currency);
            if (!rate) {
                b.errors << u"%1 is in %2 but the report is in %3: give a %2→%3 conversion "
                            "rate"_s.arg(itemLabel(a.item, countedIndex[k]), a.item.currency,
                                         b.currency);
                continue;
            }
            const auto converted = a.counted.times(rate->rate);
            if (!converted) {
                b.errors << u"%1: converted amount out of range"_s.arg(
                    itemLabel(a.item, countedIndex[k]));
                continue;
            }
            a.countedInReportCurrency = *converted;
            a.why += u"; converted at 1 %1 = %2 %3: %4 %3"_s.arg(
                a.item.currency, rate->rate.toString(), b.currency, converted->toString());
            if (!b.conversionRates.contains(*rate))
                b.conversionRates << *rate;
        }
        auto &cat = b.byCategory[size_t(a.item.category)];
        const auto c = cat.plus(a.countedInReportCurrency);
        const auto s = sum.plus(a.countedInReportCurrency);
        if (!c || !s) {
            b.errors << u"the total is out of range"_s;
            break;
        }
        cat = *c;
        sum = *s;
        any = true;
    }
    for (const auto &a : counted)
        (a.attribution == ItemAttribution::Inside ? b.included : b.overlapping) << a;
    if (!b.errors.isEmpty()) {
        b.byCategory = {};
        return fail(u"the cost inputs have errors"_s);
    }

    // 4. Totals and unit costs: not available rather than zero or a guess.
    if (items.isEmpty()) {
        return fail(u"no bill items: add the SUT's bills (the tool never makes up a price)"_s);
    }
    if (!any) {
        return fail(u"no bill item counts toward this window (%1 excluded, %2 need a decision)"_s
                        .arg(b.excluded.size())
                        .arg(b.undecided.size()));
    }
    b.total = CostFigure::of(sum);
    if (!b.undecided.isEmpty()) {
        const QString why = u"%1 bill item(s) overlapping the window need a decision (prorate or "
                            "include whole)"_s.arg(b.undecided.size());
        b.warnings << why + u"; the total leaves them out"_s;
        b.perSuccessfulRequest = b.perOutputToken = b.perMillionOutputTokens =
            CostFigure::unavailable(why);
    } else {
        if (b.successfulRequests > 0)
            b.perSuccessfulRequest = CostFigure::of(*sum.mulDiv(1, b.successfulRequests));
        else
            b.perSuccessfulRequest =
                CostFigure::unavailable(u"the window holds no successful requests"_s);
        if (b.outputTokens > 0) {
            b.perOutputToken = CostFigure::of(*sum.mulDiv(1, b.outputTokens));
            const auto perMillion = sum.mulDiv(1000000, b.outputTokens);
            b.perMillionOutputTokens = perMillion ? CostFigure::of(*perMillion)
                                                  : CostFigure::unavailable(u"out of range"_s);
        } else {
            b.perOutputToken = b.perMillionOutputTokens =
                CostFigure::unavailable(u"the window holds no output tokens"_s);
        }
    }

    // 5. Things the reader must know before using the numbers.
    if (b.loads.size() > 1)
        b.warnings << u"the window holds runs with different loads (%1): the unit costs are over "
                      "all of them together, not an average per load"_s.arg(b.loads.join(u"; "_s));
    if (window.runs.isEmpty())
        b.warnings << u"the window holds no runs"_s;
    int unconfirmed = 0;
    for (const auto &a : counted)
        unconfirmed += a.item.confirmed ? 0 : 1;
    if (unconfirmed > 0)
        b.warnings << u"%1 counted bill item(s) are not confirmed against an invoice"_s.arg(
            unconfirmed);
    return b;
}

} // namespace sb
