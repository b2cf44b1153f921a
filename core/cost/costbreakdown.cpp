#include "costbreakdown.h"

#include "cost/costattribution.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// vLLM prints "{:<40} {:<10}": the label padded to 40, a space, the value. Same here so the
// cost block lines up under the benchmark summary.
constexpr int kLabelWidth = 40;
constexpr int kRuleWidth = 50;

QString line(const QString &label, const QString &value)
{
    return (label + u':').leftJustified(kLabelWidth) + u' ' + value + u'\n';
}

QString heading(const QString &title, QChar fill)
{
    const QString t = title.isEmpty() ? QString() : u' ' + title + u' ';
    const qsizetype left = qMax<qsizetype>(0, (kRuleWidth - t.size()) / 2);
    return (QString(left, fill) + t).leftJustified(kRuleWidth, fill) + u'\n';
}

QJsonValue figureJson(const CostFigure &f)
{
    if (f.available())
        return QJsonObject{{u"available"_s, true}, {u"value"_s, f.value->toString()}};
    return QJsonObject{{u"available"_s, false}, {u"reason"_s, f.reason}};
}

QString figureText(const CostFigure &f, int decimals, const QString &currency)
{
    if (!f.available())
        return u"not available (%1)"_s.arg(f.reason);
    return f.value->toString(decimals) + u' ' + currency;
}

QJsonArray itemsJson(const QList<AttributedItem> &list)
{
    QJsonArray a;
    for (const auto &i : list) {
        QJsonObject o = i.item.toJson();
        o[u"attribution"_s] = QLatin1StringView(itemAttributionName(i.attribution));
        o[u"overlap_ms"_s] = double(i.overlapMs);
        o[u"item_total"_s] = i.itemTotal.toString();
        o[u"counted"_s] = i.counted.toString();
        o[u"counted_in_report_currency"_s] = i.countedInReportCurrency.toString();
        o[u"why"_s] = i.why;
        a.append(o);
    }
    return a;
}

QString itemsText(const QString &title, const QList<AttributedItem> &list, bool showCounted,
                  const QString &currency, int decimals)
{
    if (list.isEmpty())
        return {};
    QString s = u"%1 (%2):\n"_s.arg(title).arg(list.size());
    for (const auto &a : list) {
        const BillItem &it = a.item;
        QStringList head{u"[%1]"_s.arg(billCategoryLabel(it.category))};
        for (const QString &part : {it.provider, it.resourceId})
            if (!part.isEmpty())
                head << part;
        if (!it.id.isEmpty())
            head << u"(id %1)"_s.arg(it.id);
        s += u"  "_s + head.join(u' ') + u'\n';
        s += u"      %1 – %2; %3\n"_s.arg(formatUtcTimestamp(it.start), formatUtcTimestamp(it.end),
                                          it.pricingText());
        if (showCounted) {
            s += u"      counted %1 %2"_s.arg(a.countedInReportCurrency.toString(decimals),
                                              currency);
            if (it.currency != currency)
                s += u" (%1 %2)"_s.arg(a.counted.toString(), it.currency);
            s += u": "_s + a.why + u'\n';
        } else {
            s += u"      item total %1 %2: %3\n"_s.arg(a.itemTotal.toString(), it.currency, a.why);
        }
        QStringList notes;
        QString source = QLatin1StringView(billSourceName(it.source)).toString();
        source.replace(u'_', u' ');
        if (source.isEmpty())
            source = u"source not stated"_s;
        if (!it.reference.isEmpty())
            source += u' ' + it.reference;
        notes << source + (it.confirmed ? u" (confirmed)"_s : u" (not confirmed)"_s);
        if (!it.idleNotes.isEmpty())
            notes << u"idle: "_s + it.idleNotes;
        if (!it.startStopNotes.isEmpty())
            notes << u"start/stop: "_s + it.startStopNotes;
        if (!it.autoscalingNotes.isEmpty())
            notes << u"autoscaling: "_s + it.autoscalingNotes;
        s += u"      "_s + notes.join(u"; "_s) + u'\n';
    }
    return s;
}

} // namespace

const char *itemAttributionName(ItemAttribution a)
{
    switch (a) {
    case ItemAttribution::Inside:
        return "inside";
    case ItemAttribution::Prorated:
        return "prorated";
    case ItemAttribution::Whole:
        return "whole";
    case ItemAttribution::NeedsDecision:
        return "needs-decision";
    case ItemAttribution::Outside:
        break;
    }
    return "outside";
}

QString CostBreakdown::roundingRule()
{
    return u"amounts are exact to 1e-9 of the currency; prorating, conversion and unit costs "
           "round once to 1e-9, half to even; shown amounts are rounded half to even "
           "(banker's rounding) to the currency's minor unit"_s;
}

QJsonObject CostBreakdown::toJson() const
{
    QJsonObject o;
    o[u"window"_s] = QJsonObject{{u"name"_s, windowName},
                                 {u"sut"_s, sut},
                                 {u"start"_s, formatUtcTimestamp(windowStart)},
                                 {u"end"_s, formatUtcTimestamp(windowEnd)},
                                 {u"runs"_s, QJsonArray::fromStringList(runIds)},
                                 {u"loads"_s, QJsonArray::fromStringList(loads)}};
    o[u"currency"_s] = currency;
    o[u"display_decimals"_s] = displayDecimals;
    o[u"rounding"_s] = roundingRule();
    if (total.available()) {
        QJsonObject cats;
        for (BillCategory c : allBillCategories())
            cats[QLatin1StringView(billCategoryName(c))] = categoryTotal(c).toString();
        o[u"by_category"_s] = cats;
    } else {
        o[u"by_category"_s] = QJsonValue::Null;
    }
    o[u"total"_s] = figureJson(total);
    o[u"successful_requests"_s] = double(successfulRequests);
    o[u"output_tokens"_s] = double(outputTokens);
    o[u"cost_per_successful_request"_s] = figureJson(perSuccessfulRequest);
    o[u"cost_per_output_token"_s] = figureJson(perOutputToken);
    o[u"cost_per_million_output_tokens"_s] = figureJson(perMillionOutputTokens);
    o[u"items"_s] = QJsonObject{{u"included"_s, itemsJson(included)},
                                {u"overlapping"_s, itemsJson(overlapping)},
                                {u"needs_decision"_s, itemsJson(undecided)},
                                {u"excluded"_s, itemsJson(excluded)}};
    QJsonArray rates;
    for (const auto &r : conversionRates)
        rates.append(QJsonObject{{u"from"_s, r.from},
                                 {u"to"_s, r.to},
                                 {u"rate"_s, r.rate.toString()},
                                 {u"source"_s, r.source}});
    o[u"conversion_rates"_s] = rates;
    o[u"warnings"_s] = QJsonArray::fromStringList(warnings);
    o[u"errors"_s] = QJsonArray::fromStringList(errors);
    return o;
}

QString CostBreakdown::formatText() const
{
    const int d = displayDecimals;
    const int unitDecimals = qMin(d + 4, Decimal::kFractionDigits);
    QString s = heading(u"Cost breakdown"_s, u'=');
    s += line(u"Test window"_s, windowName.isEmpty() ? u"(unnamed)"_s : windowName);
    if (!sut.isEmpty())
        s += line(u"SUT"_s, sut);
    s += line(u"From"_s, formatUtcTimestamp(windowStart));
    s += line(u"To (exclusive)"_s, formatUtcTimestamp(windowEnd));
    if (windowStart.isValid() && windowEnd.isValid())
        s += line(u"Duration"_s, formatDurationMs(windowEnd.toMSecsSinceEpoch() -
                                                  windowStart.toMSecsSinceEpoch()));
    s += line(u"Runs"_s, runIds.isEmpty() ? u"none"_s : runIds.join(u", "_s));
    s += line(u"Currency"_s, currency.isEmpty() ? u"-"_s : currency);
    s += line(u"Successful requests"_s, QString::number(successfulRequests));
    s += line(u"Output tokens"_s, QString::number(outputTokens));

    if (!errors.isEmpty()) {
        s += heading(u"Errors"_s, u'-');
        for (const auto &e : errors)
            s += u"  - "_s + e + u'\n';
    }
    // A category or total missing an undecided item must not read as complete.
    const auto pending = [this](std::optional<BillCategory> c) {
        qsizetype n = 0;
        for (const auto &a : undecided)
            n += (!c || a.item.category == *c) ? 1 : 0;
        return n == 0 ? QString() : u" (+%1 item(s) needing a decision, not counted)"_s.arg(n);
    };
    s += heading(u"By category"_s, u'-');
    for (BillCategory c : allBillCategories())
        s += line(billCategoryLabel(c),
                  total.available() ? categoryTotal(c).toString(d) + u' ' + currency + pending(c)
                                    : u"not available"_s);
    s += line(u"Total"_s, figureText(total, d, currency) +
                              (total.available() ? pending(std::nullopt) : QString()));
    s += heading(u"Unit cost"_s, u'-');
    s += line(u"Cost per successful request"_s,
              figureText(perSuccessfulRequest, unitDecimals, currency));
    s += line(u"Cost per output token"_s,
              figureText(perOutputToken, Decimal::kFractionDigits, currency));
    s += line(u"Cost per 1M output tokens"_s,
              figureText(perMillionOutputTokens, unitDecimals, currency));

    const QString itemText =
        itemsText(u"Included"_s, included, true, currency, d) +
        itemsText(u"Overlapping, counted by choice"_s, overlapping, true, currency, d) +
        itemsText(u"Overlapping, NEEDS A DECISION (not counted)"_s, undecided, false, currency, d) +
        itemsText(u"Excluded"_s, excluded, false, currency, d);
    if (!itemText.isEmpty()) {
        s += heading(u"Bill items"_s, u'-');
        s += itemText;
    }
    if (!conversionRates.isEmpty()) {
        s += heading(u"Conversion rates"_s, u'-');
        for (const auto &r : conversionRates)
            s += u"  1 %1 = %2 %3%4\n"_s.arg(r.from, r.rate.toString(), r.to,
                                             r.source.isEmpty() ? QString()
                                                                : u" ("_s + r.source + u')');
    }
    if (!warnings.isEmpty()) {
        s += heading(u"Warnings"_s, u'-');
        for (const auto &w : warnings)
            s += u"  - "_s + w + u'\n';
    }
    s += u"Rounding: "_s + roundingRule() + u'\n';
    s += heading(QString(), u'=');
    return s;
}

} // namespace sb
