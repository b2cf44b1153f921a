#include "testwindow.h"

#include "cost/billitem.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

using namespace Qt::StringLiterals;

namespace sb {

const char *overlapRuleName(OverlapRule r)
{
    switch (r) {
    case OverlapRule::Prorate:
        return "prorate";
    case OverlapRule::IncludeWhole:
        return "whole";
    case OverlapRule::Undecided:
        break;
    }
    return "undecided";
}

bool overlapRuleFromName(QStringView name, OverlapRule *out)
{
    for (OverlapRule r :
         {OverlapRule::Undecided, OverlapRule::Prorate, OverlapRule::IncludeWhole}) {
        if (name.trimmed().compare(QLatin1StringView(overlapRuleName(r)), Qt::CaseInsensitive) ==
            0) {
            *out = r;
            return true;
        }
    }
    return false;
}

QJsonObject WindowRun::toJson() const
{
    QJsonObject o{{u"run_id"_s, runId},
                  {u"start"_s, formatUtcTimestamp(start)},
                  {u"end"_s, formatUtcTimestamp(end)},
                  // JSON numbers are doubles: exact up to 2^53, far beyond any run's counts.
                  {u"successful_requests"_s, double(successfulRequests)},
                  {u"output_tokens"_s, double(outputTokens)},
                  {u"load"_s, load}};
    if (std::isfinite(energyJ))
        o.insert(u"energy_j"_s, energyJ);
    return o;
}

WindowRun WindowRun::fromJson(const QJsonObject &o)
{
    WindowRun r;
    r.runId = o.value(u"run_id"_s).toString();
    r.start = parseUtcTimestamp(o.value(u"start"_s).toString());
    r.end = parseUtcTimestamp(o.value(u"end"_s).toString());
    r.successfulRequests = o.value(u"successful_requests"_s).toInteger();
    r.outputTokens = o.value(u"output_tokens"_s).toInteger();
    r.load = o.value(u"load"_s).toString();
    if (o.value(u"energy_j"_s).isDouble())
        r.energyJ = o.value(u"energy_j"_s).toDouble();
    return r;
}

TestWindow TestWindow::fromRuns(const QString &name, const QString &sut,
                                const QList<WindowRun> &runs)
{
    TestWindow w;
    w.name = name;
    w.sut = sut;
    w.runs = runs;
    for (const auto &r : runs) {
        if (r.start.isValid() && (!w.start.isValid() || r.start < w.start))
            w.start = r.start;
        if (r.end.isValid() && (!w.end.isValid() || r.end > w.end))
            w.end = r.end;
    }
    return w;
}

double TestWindow::energyJ() const
{
    if (runs.isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    double sum = 0;
    for (const auto &r : runs)
        sum += r.energyJ; // NaN stays NaN
    return sum;
}

QStringList TestWindow::runsWithoutEnergy() const
{
    QStringList out;
    for (const auto &r : runs)
        if (!std::isfinite(r.energyJ))
            out << r.runId;
    return out;
}

qint64 TestWindow::successfulRequests() const
{
    qint64 n = 0;
    for (const auto &r : runs)
        n += r.successfulRequests;
    return n;
}

qint64 TestWindow::outputTokens() const
{
    qint64 n = 0;
    for (const auto &r : runs)
        n += r.outputTokens;
    return n;
}

QStringList TestWindow::distinctLoads() const
{
    QStringList loads;
    for (const auto &r : runs) {
        const QString l = r.load.trimmed().isEmpty() ? u"not stated"_s : r.load.trimmed();
        if (!loads.contains(l))
            loads << l;
    }
    return loads;
}

QStringList TestWindow::validate() const
{
    QStringList errors;
    if (!start.isValid() || !end.isValid()) {
        errors << u"the test window has no valid start and end"_s;
        return errors;
    }
    if (!(end > start))
        errors << u"the test window ends (%1) at or before its start (%2)"_s.arg(
            formatUtcTimestamp(end), formatUtcTimestamp(start));
    QSet<QString> ids;
    for (const auto &r : runs) {
        const QString label = r.runId.isEmpty() ? u"(no id)"_s : r.runId;
        if (ids.contains(r.runId))
            errors << u"run %1 appears twice"_s.arg(label);
        ids.insert(r.runId);
        if (!r.start.isValid() || !r.end.isValid() || r.end < r.start) {
            errors << u"run %1 has no valid start and end"_s.arg(label);
            continue;
        }
        if (r.start < start || r.end > end)
            errors << u"run %1 (%2 – %3) lies outside the window"_s.arg(
                label, formatUtcTimestamp(r.start), formatUtcTimestamp(r.end));
        if (r.successfulRequests < 0 || r.outputTokens < 0)
            errors << u"run %1 has a negative count"_s.arg(label);
    }
    return errors;
}

QJsonObject TestWindow::toJson() const
{
    QJsonArray runArray;
    for (const auto &r : runs)
        runArray.append(r.toJson());
    QJsonObject rules;
    for (auto it = overlapRules.cbegin(); it != overlapRules.cend(); ++it)
        rules[it.key()] = QLatin1StringView(overlapRuleName(it.value()));
    return QJsonObject{{u"id"_s, id},
                       {u"name"_s, name},
                       {u"sut"_s, sut},
                       {u"start"_s, formatUtcTimestamp(start)},
                       {u"end"_s, formatUtcTimestamp(end)},
                       {u"runs"_s, runArray},
                       {u"overlap_rules"_s, rules}};
}

TestWindow TestWindow::fromJson(const QJsonObject &o)
{
    TestWindow w;
    w.id = o.value(u"id"_s).toString();
    w.name = o.value(u"name"_s).toString();
    w.sut = o.value(u"sut"_s).toString();
    w.start = parseUtcTimestamp(o.value(u"start"_s).toString());
    w.end = parseUtcTimestamp(o.value(u"end"_s).toString());
    for (const auto &v : o.value(u"runs"_s).toArray())
        w.runs.append(WindowRun::fromJson(v.toObject()));
    const QJsonObject rules = o.value(u"overlap_rules"_s).toObject();
    for (auto it = rules.begin(); it != rules.end(); ++it) {
        OverlapRule r;
        if (overlapRuleFromName(it.value().toString(), &r) && r != OverlapRule::Undecided)
            w.overlapRules.insert(it.key(), r);
    }
    return w;
}

} // namespace sb
