#include "studydefinition.h"

#include "common/args.h"
#include "config/runplan.h"
#include "cost/billitem.h"
#include "cost/decimal.h"
#include "run/planvalidation.h"
#include "run/runflags.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// A credential written into a study's flags would be stored in the project file with the
// definition and travel with every copy of it: refused, as the SUT editor refuses a literal
// credential header. The key comes from the keychain or the environment and a header names it
// as {api_key} (docs/study.md, "Secrets").
void refuseLiteralSecrets(const QStringList &flags, const QString &field, QList<StudyIssue> *issues)
{
    for (qsizetype i = 0; i + 1 < flags.size(); ++i) {
        const QString &flag = flags.at(i);
        const QString &value = flags.at(i + 1);
        if (flag == "--header"_L1) {
            QPair<QString, QString> kv;
            if (parseHeaderArg(value, &kv) && looksLikeSecretHeader(kv.first) &&
                !isApiKeyReference(kv.second))
                issues->append({field, Message("study.literal_secret", {kv.first})});
        } else if (flag == "--api-key"_L1 && !isApiKeyReference(value)) {
            issues->append({field, Message("study.literal_secret", {flag})});
        }
    }
}

// Flags the study sets itself: a cell's own flags may not override them.
const QStringList &reservedFlags()
{
    static const QStringList r = {u"--project"_s,    u"--num-runs"_s,
                                  u"--sweep"_s,      u"--find-max-valid-rate"_s,
                                  u"--sut-name"_s,   u"--name"_s,
                                  u"--seed"_s,       u"--save-result"_s,
                                  u"--shard"_s,      u"--start-at"_s,
                                  u"--base-url"_s,   u"--model"_s,
                                  u"--tokenizer"_s,  u"--connection-mode"_s,
                                  u"--cache-bust"_s, u"--sut"_s,
                                  u"--cache-policy"_s};
    return r;
}

const QStringList kKinds = {u"open-loop"_s, u"offline"_s, u"single-stream"_s, u"server"_s};

class Reader
{
public:
    explicit Reader(QList<StudyIssue> *issues) : m_issues(issues) {}

    void add(const QString &field, const Message &m) { m_issues->append({field, m}); }

    QString string(const QJsonObject &o, const QString &key, const QString &field,
                   bool required = false, const QString &fallback = {})
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull()) {
            if (required)
                add(field, Message("study.required"));
            return fallback;
        }
        if (!v.isString()) {
            add(field, Message("study.type.string"));
            return fallback;
        }
        return v.toString();
    }

    double number(const QJsonObject &o, const QString &key, const QString &field, double fallback)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull())
            return fallback;
        if (!v.isDouble()) {
            add(field, Message("study.type.number"));
            return fallback;
        }
        return v.toDouble();
    }

    QStringList strings(const QJsonObject &o, const QString &key, const QString &field)
    {
        const QJsonValue v = o.value(key);
        QStringList out;
        if (v.isUndefined() || v.isNull())
            return out;
        if (!v.isArray()) {
            add(field, Message("study.type.strings"));
            return out;
        }
        for (const QJsonValue &x : v.toArray()) {
            if (!x.isString()) {
                add(field, Message("study.type.strings"));
                return {};
            }
            out << x.toString();
        }
        return out;
    }

    QJsonObject object(const QJsonObject &o, const QString &key, const QString &field,
                       bool required = false)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull()) {
            if (required)
                add(field, Message("study.required"));
            return {};
        }
        if (!v.isObject()) {
            add(field, Message("study.type.object"));
            return {};
        }
        return v.toObject();
    }

    QJsonArray array(const QJsonObject &o, const QString &key, const QString &field)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull()) {
            add(field, Message("study.required"));
            return {};
        }
        if (!v.isArray()) {
            add(field, Message("study.type.array"));
            return {};
        }
        return v.toArray();
    }

private:
    QList<StudyIssue> *m_issues;
};

QJsonValue optionalNumber(double v)
{
    return v >= 0 ? QJsonValue(v) : QJsonValue();
}

void putIf(QJsonObject *o, const QString &key, const QJsonValue &v)
{
    if (!v.isNull() && !(v.isString() && v.toString().isEmpty()) &&
        !(v.isArray() && v.toArray().isEmpty()))
        o->insert(key, v);
}

QString num(double v)
{
    return QString::number(v, 'g', 12);
}

} // namespace

QString StudyIssue::text() const
{
    return field + u": "_s + message.text();
}

QString StudyScenario::figureOfMerit() const
{
    if (!rankBy.isEmpty())
        return rankBy;
    if (kind == "offline"_L1)
        return u"output_throughput"_s;
    if (kind == "single-stream"_L1)
        return u"e2el.p90"_s;
    if (isRateSearch())
        return QString::fromLatin1(kStudyMaxValidRate);
    return u"ttft.p99"_s;
}

bool StudyScenario::isRateSearch() const
{
    return kind == "server"_L1;
}

StudyDefinition StudyDefinition::fromJson(const QJsonObject &o, QList<StudyIssue> *issues)
{
    const qsizetype before = issues->size();
    Reader r(issues);
    StudyDefinition d;
    d.name = r.string(o, u"name"_s, u"name"_s, true);
    d.question = r.string(o, u"question"_s, u"question"_s, true);
    d.repeats = int(r.number(o, u"repeats"_s, u"repeats"_s, 3));
    d.seed = quint64(std::max(0.0, r.number(o, u"seed"_s, u"seed"_s, 0)));
    d.baseline = r.string(o, u"baseline"_s, u"baseline"_s);

    const QJsonObject b = r.object(o, u"boundary"_s, u"boundary"_s, true);
    d.boundary.model = r.string(b, u"model"_s, u"boundary.model"_s, true);
    const QJsonObject ds = r.object(b, u"dataset"_s, u"boundary.dataset"_s, true);
    d.boundary.datasetFlags = r.strings(ds, u"flags"_s, u"boundary.dataset.flags"_s);
    d.boundary.datasetSha256 = r.string(ds, u"sha256"_s, u"boundary.dataset.sha256"_s);
    const QJsonObject rq = r.object(b, u"request"_s, u"boundary.request"_s);
    d.boundary.requestFlags = r.strings(rq, u"flags"_s, u"boundary.request.flags"_s);
    refuseLiteralSecrets(d.boundary.requestFlags, u"boundary.request.flags"_s, issues);
    d.boundary.tokenizer = r.string(b, u"tokenizer"_s, u"boundary.tokenizer"_s);
    d.boundary.connectionMode =
        r.string(b, u"connection_mode"_s, u"boundary.connection_mode"_s, false, u"warm"_s);
    d.boundary.cachePolicy =
        r.string(b, u"cache_policy"_s, u"boundary.cache_policy"_s, false, u"cache-bust"_s);

    const QJsonArray scenarios = r.array(o, u"scenarios"_s, u"scenarios"_s);
    for (int i = 0; i < scenarios.size(); ++i) {
        const QString f = u"scenarios[%1]"_s.arg(i);
        if (!scenarios.at(i).isObject()) {
            r.add(f, Message("study.type.object"));
            continue;
        }
        const QJsonObject s = scenarios.at(i).toObject();
        StudyScenario sc;
        sc.name = r.string(s, u"name"_s, f + u".name"_s, true);
        sc.kind = r.string(s, u"kind"_s, f + u".kind"_s, false, u"open-loop"_s);
        sc.flags = r.strings(s, u"flags"_s, f + u".flags"_s);
        refuseLiteralSecrets(sc.flags, f + u".flags"_s, issues);
        sc.rankBy = r.string(s, u"rank_by"_s, f + u".rank_by"_s);
        const QJsonObject slo = r.object(s, u"slo"_s, f + u".slo"_s);
        sc.ttftSloMs = r.number(slo, u"ttft_ms"_s, f + u".slo.ttft_ms"_s, -1);
        sc.tpotSloMs = r.number(slo, u"tpot_ms"_s, f + u".slo.tpot_ms"_s, -1);
        sc.e2elSloMs = r.number(slo, u"e2el_ms"_s, f + u".slo.e2el_ms"_s, -1);
        d.scenarios << sc;
    }

    const QJsonArray candidates = r.array(o, u"candidates"_s, u"candidates"_s);
    for (int i = 0; i < candidates.size(); ++i) {
        const QString f = u"candidates[%1]"_s.arg(i);
        if (!candidates.at(i).isObject()) {
            r.add(f, Message("study.type.object"));
            continue;
        }
        const QJsonObject c = candidates.at(i).toObject();
        StudyCandidate cand;
        cand.name = r.string(c, u"name"_s, f + u".name"_s, true);
        cand.baseUrl = r.string(c, u"base_url"_s, f + u".base_url"_s);
        cand.flags = r.strings(c, u"flags"_s, f + u".flags"_s);
        refuseLiteralSecrets(cand.flags, f + u".flags"_s, issues);
        if (c.contains(u"simulator"_s)) {
            const QJsonObject sim = r.object(c, u"simulator"_s, f + u".simulator"_s);
            cand.simulator = true;
            cand.simTtftMs = r.number(sim, u"ttft_ms"_s, f + u".simulator.ttft_ms"_s, -1);
            cand.simItlMs = r.number(sim, u"itl_ms"_s, f + u".simulator.itl_ms"_s, -1);
        }
        const QJsonObject cost = r.object(c, u"cost"_s, f + u".cost"_s, true);
        const QString source = r.string(cost, u"source"_s, f + u".cost.source"_s, true, u"bills"_s);
        if (source == "price_per_hour"_L1)
            cand.cost.source = StudyCost::Source::PricePerHour;
        else if (source != "bills"_L1)
            r.add(f + u".cost.source"_s, Message("study.cost.source", {source}));
        const QJsonValue price = cost.value(u"price_per_hour"_s);
        cand.cost.pricePerHour = price.isDouble() ? num(price.toDouble()) : price.toString();
        cand.cost.currency = r.string(cost, u"currency"_s, f + u".cost.currency"_s);
        cand.cost.resources = int(r.number(cost, u"resources"_s, f + u".cost.resources"_s, 1));
        cand.cost.category =
            r.string(cost, u"category"_s, f + u".cost.category"_s, false, u"gpu"_s);
        cand.cost.overlapRule =
            r.string(cost, u"overlap_rule"_s, f + u".cost.overlap_rule"_s, false, u"prorate"_s);
        d.candidates << cand;
    }
    if (issues->size() == before)
        issues->append(d.validate());
    return d;
}

StudyDefinition StudyDefinition::fromFile(const QString &path, QList<StudyIssue> *issues)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        issues->append({path, Message("study.file.unreadable", {f.errorString()})});
        return {};
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        issues->append(
            {path, Message("study.file.json",
                           {pe.error != QJsonParseError::NoError
                                ? pe.errorString() + u" at offset "_s + QString::number(pe.offset)
                                : u"the top level is not an object"_s})});
        return {};
    }
    return fromJson(doc.object(), issues);
}

QJsonObject StudyDefinition::toJson() const
{
    QJsonObject dataset;
    dataset[u"flags"_s] = QJsonArray::fromStringList(boundary.datasetFlags);
    putIf(&dataset, u"sha256"_s, boundary.datasetSha256);
    QJsonObject b{{u"model"_s, boundary.model},
                  {u"dataset"_s, dataset},
                  {u"request"_s,
                   QJsonObject{{u"flags"_s, QJsonArray::fromStringList(boundary.requestFlags)}}},
                  {u"connection_mode"_s, boundary.connectionMode},
                  {u"cache_policy"_s, boundary.cachePolicy}};
    putIf(&b, u"tokenizer"_s, boundary.tokenizer);
    QJsonArray scs;
    for (const StudyScenario &s : scenarios) {
        QJsonObject o{{u"name"_s, s.name},
                      {u"kind"_s, s.kind},
                      {u"flags"_s, QJsonArray::fromStringList(s.flags)}};
        putIf(&o, u"rank_by"_s, s.rankBy);
        QJsonObject slo;
        putIf(&slo, u"ttft_ms"_s, optionalNumber(s.ttftSloMs));
        putIf(&slo, u"tpot_ms"_s, optionalNumber(s.tpotSloMs));
        putIf(&slo, u"e2el_ms"_s, optionalNumber(s.e2elSloMs));
        if (!slo.isEmpty())
            o[u"slo"_s] = slo;
        scs.append(o);
    }
    QJsonArray cands;
    for (const StudyCandidate &c : candidates) {
        QJsonObject o{{u"name"_s, c.name}};
        if (c.simulator) {
            QJsonObject sim;
            putIf(&sim, u"ttft_ms"_s, optionalNumber(c.simTtftMs));
            putIf(&sim, u"itl_ms"_s, optionalNumber(c.simItlMs));
            o[u"simulator"_s] = sim;
        }
        putIf(&o, u"base_url"_s, c.baseUrl);
        putIf(&o, u"flags"_s, QJsonArray::fromStringList(c.flags));
        QJsonObject cost{{u"source"_s, c.cost.source == StudyCost::Source::Bills
                                           ? u"bills"_s
                                           : u"price_per_hour"_s},
                         {u"overlap_rule"_s, c.cost.overlapRule}};
        if (c.cost.source == StudyCost::Source::PricePerHour) {
            cost[u"price_per_hour"_s] = c.cost.pricePerHour;
            cost[u"currency"_s] = c.cost.currency;
            cost[u"resources"_s] = c.cost.resources;
            cost[u"category"_s] = c.cost.category;
        }
        o[u"cost"_s] = cost;
        cands.append(o);
    }
    QJsonObject out{{u"name"_s, name},       {u"question"_s, question}, {u"boundary"_s, b},
                    {u"scenarios"_s, scs},   {u"repeats"_s, repeats},   {u"seed"_s, double(seed)},
                    {u"candidates"_s, cands}};
    putIf(&out, u"baseline"_s, baseline);
    return out;
}

QByteArray StudyDefinition::canonicalJson() const
{
    return QJsonDocument(toJson()).toJson(QJsonDocument::Compact);
}

QString StudyDefinition::sha256() const
{
    return QString::fromLatin1(
        QCryptographicHash::hash(canonicalJson(), QCryptographicHash::Sha256).toHex());
}

int StudyDefinition::candidateIndex(const QString &n) const
{
    for (int i = 0; i < candidates.size(); ++i)
        if (candidates.at(i).name == n)
            return i;
    return -1;
}

int StudyDefinition::scenarioIndex(const QString &n) const
{
    for (int i = 0; i < scenarios.size(); ++i)
        if (scenarios.at(i).name == n)
            return i;
    return -1;
}

int StudyDefinition::baselineIndex() const
{
    return baseline.isEmpty() ? 0 : std::max(0, candidateIndex(baseline));
}

QStringList StudyDefinition::cellFlags(int k, int s, int repeat) const
{
    const StudyCandidate &c = candidates.at(k);
    const StudyScenario &sc = scenarios.at(s);
    QStringList f = boundary.datasetFlags + boundary.requestFlags;
    if (!boundary.model.isEmpty())
        f << u"--model"_s << boundary.model;
    if (!boundary.tokenizer.isEmpty())
        f << u"--tokenizer"_s << boundary.tokenizer;
    f << u"--connection-mode"_s << boundary.connectionMode;
    if (boundary.cachePolicy == "cache-bust"_L1)
        f << u"--cache-bust"_s;
    else if (boundary.cachePolicy == "reset"_L1)
        f << u"--cache-policy"_s << u"reset"_s;
    f += sc.flags;
    // A server scenario's cell is the rate search `run --find-max-valid-rate` makes, through the
    // same flags and the same RunSession (docs/study.md, "Server scenarios"); the flag is the
    // study's to set, so it is reserved in the scenario's own flags.
    if (sc.isRateSearch())
        f << u"--find-max-valid-rate"_s;
    QStringList slo;
    if (sc.ttftSloMs >= 0)
        slo << u"ttft:"_s + num(sc.ttftSloMs);
    if (sc.tpotSloMs >= 0)
        slo << u"tpot:"_s + num(sc.tpotSloMs);
    if (sc.e2elSloMs >= 0)
        slo << u"e2el:"_s + num(sc.e2elSloMs);
    if (!slo.isEmpty())
        f << u"--goodput"_s << slo;
    f << u"--seed"_s << QString::number(seed);
    f << u"--sut-name"_s << c.name;
    if (c.simulator) {
        if (c.simTtftMs >= 0)
            f << u"--sim-ttft-ms"_s << num(c.simTtftMs);
        if (c.simItlMs >= 0)
            f << u"--sim-itl-ms"_s << num(c.simItlMs);
    } else {
        f << u"--base-url"_s << c.baseUrl;
    }
    f += c.flags;
    f << u"--name"_s << u"%1 · %2 · %3 · r%4"_s.arg(name, c.name, sc.name).arg(repeat + 1);
    return f;
}

QList<StudyIssue> StudyDefinition::validate() const
{
    QList<StudyIssue> out;
    const auto add = [&out](const QString &field, const Message &m) {
        out.append({field, m});
    };
    if (name.trimmed().isEmpty())
        add(u"name"_s, Message("study.required"));
    if (question.trimmed().isEmpty())
        add(u"question"_s, Message("study.required"));
    if (repeats < 1 || repeats > 100)
        add(u"repeats"_s, Message("study.repeats", {QString::number(repeats)}));
    if (boundary.model.isEmpty())
        add(u"boundary.model"_s, Message("study.required"));
    if (boundary.cachePolicy != "cache-bust"_L1 && boundary.cachePolicy != "as-is"_L1 &&
        boundary.cachePolicy != "reset"_L1 && boundary.cachePolicy != "restart"_L1)
        add(u"boundary.cache_policy"_s, Message("study.cache_policy", {boundary.cachePolicy}));
    if (boundary.cachePolicy == "restart"_L1)
        for (int k = 0; k < candidates.size(); ++k)
            if (!candidates.at(k).flags.contains(u"--server-start-cmd"_s))
                add(u"boundary.cache_policy"_s,
                    Message("study.cache_policy.restart", {candidates.at(k).name}));
    if (boundary.connectionMode != "warm"_L1 && boundary.connectionMode != "per-request"_L1 &&
        boundary.connectionMode != "lazy"_L1)
        add(u"boundary.connection_mode"_s,
            Message("study.connection_mode", {boundary.connectionMode}));
    const auto checkReserved = [&](const QStringList &flags, const QString &field) {
        for (const QString &fl : flags)
            if (reservedFlags().contains(fl.section(u'=', 0, 0)))
                add(field, Message("study.flags.reserved", {fl}));
    };
    checkReserved(boundary.datasetFlags, u"boundary.dataset.flags"_s);
    checkReserved(boundary.requestFlags, u"boundary.request.flags"_s);
    if (scenarios.isEmpty())
        add(u"scenarios"_s, Message("study.scenarios.none"));
    QSet<QString> seen;
    for (int i = 0; i < scenarios.size(); ++i) {
        const StudyScenario &s = scenarios.at(i);
        const QString f = u"scenarios[%1]"_s.arg(i);
        if (s.name.trimmed().isEmpty())
            add(f + u".name"_s, Message("study.required"));
        else if (seen.contains(u"s:"_s + s.name))
            add(f + u".name"_s, Message("study.name.duplicate", {s.name}));
        seen.insert(u"s:"_s + s.name);
        if (!kKinds.contains(s.kind))
            add(f + u".kind"_s, Message("study.scenario.kind", {s.kind}));
        else if (s.rankBy == QLatin1StringView(kStudyMaxValidRate) && !s.isRateSearch())
            add(f + u".rank_by"_s, Message("study.rank_by.search", {s.kind}));
        checkReserved(s.flags, f + u".flags"_s);
    }
    if (candidates.size() < 2)
        add(u"candidates"_s, Message("study.candidates.few"));
    for (int i = 0; i < candidates.size(); ++i) {
        const StudyCandidate &c = candidates.at(i);
        const QString f = u"candidates[%1]"_s.arg(i);
        if (c.name.trimmed().isEmpty())
            add(f + u".name"_s, Message("study.required"));
        else if (seen.contains(u"c:"_s + c.name))
            add(f + u".name"_s, Message("study.name.duplicate", {c.name}));
        seen.insert(u"c:"_s + c.name);
        if (!c.simulator && c.baseUrl.isEmpty())
            add(f + u".base_url"_s, Message("study.candidate.where"));
        if (c.simulator && !c.baseUrl.isEmpty())
            add(f + u".base_url"_s, Message("study.candidate.both"));
        checkReserved(c.flags, f + u".flags"_s);
        const StudyCost &cost = c.cost;
        if (cost.overlapRule != "prorate"_L1 && cost.overlapRule != "whole"_L1)
            add(f + u".cost.overlap_rule"_s, Message("study.cost.overlap", {cost.overlapRule}));
        if (cost.source == StudyCost::Source::PricePerHour) {
            const auto price = Decimal::parse(cost.pricePerHour);
            if (!price || !(price->toDouble() > 0))
                add(f + u".cost.price_per_hour"_s,
                    Message("study.cost.price", {cost.pricePerHour}));
            if (!isCurrencyCode(cost.currency))
                add(f + u".cost.currency"_s, Message("study.cost.currency", {cost.currency}));
            if (cost.resources < 1)
                add(f + u".cost.resources"_s,
                    Message("study.cost.resources", {QString::number(cost.resources)}));
            BillCategory cat;
            if (!billCategoryFromName(cost.category, &cat))
                add(f + u".cost.category"_s, Message("study.cost.category", {cost.category}));
        }
    }
    if (!baseline.isEmpty() && candidateIndex(baseline) < 0)
        add(u"baseline"_s, Message("study.baseline.unknown", {baseline}));
    if (!out.isEmpty())
        return out;
    // Every cell's flags must make a valid run request: checked once per candidate × scenario.
    for (int k = 0; k < candidates.size(); ++k)
        for (int s = 0; s < scenarios.size(); ++s) {
            RunRequest request;
            RunFlagOptions opts;
            QString error;
            const QString field = u"candidates[%1] × scenarios[%2]"_s.arg(k).arg(s);
            if (!parseRunFlags(cellFlags(k, s, 0), &request, &opts, &error)) {
                add(field, Message("study.flags.invalid", {Message::literal(error)}));
                continue;
            }
            request.frontEnd = u"study"_s; // as the executor runs it
            const QList<PlanIssue> issues = validateRunRequest(request);
            if (!issues.isEmpty())
                add(field, Message("study.flags.invalid",
                                   {Message::literal(u"--"_s + issues.first().field + u' ' +
                                                     issues.first().message.text())}));
        }
    return out;
}

} // namespace sb
