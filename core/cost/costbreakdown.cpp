#include "costbreakdown.h"

#include "common/displaywidth.h"
#include "common/message.h"
#include "cost/costattribution.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// vLLM prints "{:<40} {:<10}": the label padded to 40, a space, the value. Same here so the
// cost block lines up under the benchmark summary. Widths are display columns, not characters:
// a Chinese label's characters take two columns each on screen, and padding it by its
// character count put its value further right than an English label's (displaywidth.h).
constexpr int kLabelWidth = 40;
constexpr int kRuleWidth = 50;

QString line(const QString &label, const QString &value)
{
    return padToWidth(label + u':', kLabelWidth) + u' ' + value + u'\n';
}

QString billCategoryText(BillCategory c, bool translate)
{
    return translate ? Message((QByteArray("cost.category.") + billCategoryName(c)).constData())
                           .translated()
                     : billCategoryLabel(c);
}

QString heading(const QString &title, QChar fill)
{
    const QString t = title.isEmpty() ? QString() : u' ' + title + u' ';
    const int left = qMax(0, (kRuleWidth - displayWidth(t)) / 2);
    return padToWidth(QString(left, fill) + t, kRuleWidth, fill) + u'\n';
}

QJsonValue figureJson(const CostFigure &f)
{
    if (f.available())
        return QJsonObject{{u"available"_s, true}, {u"value"_s, f.value->toString()}};
    return QJsonObject{{u"available"_s, false}, {u"reason"_s, f.reason}};
}

// An English text of the cost module in the reader's language when `translate`: its catalogue
// entry (cost.*) is found from the English wording the attribution wrote, its units too.
QString tx(const QString &english, bool translate)
{
    return costText(english, translate);
}

QString say(const char *id, bool translate, const QStringList &args = {})
{
    return Message(id, args).text(translate);
}

QString figureText(const CostFigure &f, int decimals, const QString &currency, bool translate)
{
    if (!f.available())
        return say("cost.not_available_why", translate, {tx(f.reason, translate)});
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

QString itemsText(const char *titleId, const QList<AttributedItem> &list, bool showCounted,
                  const QString &currency, int decimals, bool translate)
{
    if (list.isEmpty())
        return {};
    QString s = say("cost.items.title", translate,
                    {say(titleId, translate), QString::number(list.size())}) +
                u'\n';
    for (const auto &a : list) {
        const BillItem &it = a.item;
        QStringList head{u"[%1]"_s.arg(billCategoryText(it.category, translate))};
        for (const QString &part : {it.provider, it.resourceId})
            if (!part.isEmpty())
                head << part;
        if (!it.id.isEmpty())
            head << say("cost.item.id", translate, {it.id});
        s += u"  "_s + head.join(u' ') + u'\n';
        s += u"      %1 – %2; %3\n"_s.arg(formatUtcTimestamp(it.start), formatUtcTimestamp(it.end),
                                          tx(it.pricingText(), translate));
        if (showCounted) {
            s += u"      "_s + say("cost.item.counted", translate,
                                   {a.countedInReportCurrency.toString(decimals), currency});
            if (it.currency != currency)
                s += u" (%1 %2)"_s.arg(a.counted.toString(), it.currency);
            s += u": "_s + tx(a.why, translate) + u'\n';
        } else {
            s += u"      "_s +
                 say("cost.item.total", translate,
                     {a.itemTotal.toString(), it.currency, tx(a.why, translate)}) +
                 u'\n';
        }
        QStringList notes;
        const char *sourceName = billSourceName(it.source);
        QString source = *sourceName
                             ? say((QByteArray("cost.source.") + sourceName).constData(), translate)
                             : say("cost.item.source_missing", translate);
        if (!it.reference.isEmpty())
            source += u' ' + it.reference;
        notes << say(it.confirmed ? "cost.item.confirmed" : "cost.item.not_confirmed", translate,
                     {source});
        if (!it.idleNotes.isEmpty())
            notes << say("cost.item.idle", translate, {it.idleNotes});
        if (!it.startStopNotes.isEmpty())
            notes << say("cost.item.start_stop", translate, {it.startStopNotes});
        if (!it.autoscalingNotes.isEmpty())
            notes << say("cost.item.autoscaling", translate, {it.autoscalingNotes});
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
    return Message("cost.rounding_rule").text();
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

QString CostBreakdown::formatText(bool translate) const
{
    const bool t = translate;
    const int d = displayDecimals;
    const int unitDecimals = qMin(d + 4, Decimal::kFractionDigits);
    QString s = heading(say("cost.heading.breakdown", t), u'=');
    s += line(say("cost.line.window", t),
              windowName.isEmpty() ? say("cost.unnamed", t) : windowName);
    if (!sut.isEmpty())
        s += line(say("cost.line.sut", t), sut);
    s += line(say("cost.line.from", t), formatUtcTimestamp(windowStart));
    s += line(say("cost.line.to", t), formatUtcTimestamp(windowEnd));
    if (windowStart.isValid() && windowEnd.isValid())
        s += line(
            say("cost.line.duration", t),
            formatDurationMs(windowEnd.toMSecsSinceEpoch() - windowStart.toMSecsSinceEpoch(), t));
    s += line(say("cost.line.runs", t),
              runIds.isEmpty() ? say("cost.none", t) : runIds.join(u", "_s));
    s += line(say("cost.line.currency", t), currency.isEmpty() ? u"-"_s : currency);
    s += line(say("cost.line.successful", t), QString::number(successfulRequests));
    s += line(say("cost.line.output_tokens", t), QString::number(outputTokens));
    if (!errors.isEmpty()) {
        s += heading(say("cost.heading.errors", t), u'-');
        for (const auto &e : errors)
            s += u"  - "_s + tx(e, t) + u'\n';
    }
    // A category or total missing an undecided item must not read as complete.
    const auto pending = [this, t](std::optional<BillCategory> c) {
        qsizetype n = 0;
        for (const auto &a : undecided)
            n += (!c || a.item.category == *c) ? 1 : 0;
        return n == 0 ? QString() : u' ' + say("cost.pending", t, {QString::number(n)});
    };
    s += heading(say("cost.heading.by_category", t), u'-');
    for (BillCategory c : allBillCategories())
        s += line(billCategoryText(c, t),
                  total.available() ? categoryTotal(c).toString(d) + u' ' + currency + pending(c)
                                    : say("cost.not_available", t));
    s += line(say("cost.line.total", t),
              figureText(total, d, currency, t) +
                  (total.available() ? pending(std::nullopt) : QString()));
    s += heading(say("cost.heading.unit", t), u'-');
    s += line(say("cost.line.per_request", t),
              figureText(perSuccessfulRequest, unitDecimals, currency, t));
    s += line(say("cost.line.per_token", t),
              figureText(perOutputToken, Decimal::kFractionDigits, currency, t));
    s += line(say("cost.line.per_million", t),
              figureText(perMillionOutputTokens, unitDecimals, currency, t));
    const QString itemText =
        itemsText("cost.items.included", included, true, currency, d, t) +
        itemsText("cost.items.overlapping", overlapping, true, currency, d, t) +
        itemsText("cost.items.undecided", undecided, false, currency, d, t) +
        itemsText("cost.items.excluded", excluded, false, currency, d, t);
    if (!itemText.isEmpty()) {
        s += heading(say("cost.heading.items", t), u'-');
        s += itemText;
    }
    if (!conversionRates.isEmpty()) {
        s += heading(say("cost.heading.rates", t), u'-');
        for (const auto &r : conversionRates)
            s += u"  1 %1 = %2 %3%4\n"_s.arg(r.from, r.rate.toString(), r.to,
                                             r.source.isEmpty() ? QString()
                                                                : u" ("_s + r.source + u')');
    }
    if (!warnings.isEmpty()) {
        s += heading(say("cost.heading.warnings", t), u'-');
        for (const auto &w : warnings)
            s += u"  - "_s + tx(w, t) + u'\n';
    }
    s += say("cost.rounding", t, {say("cost.rounding_rule", t)}) + u'\n';
    s += heading(QString(), u'=');
    return s;
}

} // namespace sb
