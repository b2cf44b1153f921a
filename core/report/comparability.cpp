#include "comparability.h"

#include "common/message.h"
#include "config/runplan.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <functional>

namespace sb {

using namespace Qt::StringLiterals;

const char *fieldRoleName(FieldRole r)
{
    switch (r) {
    case FieldRole::Workload:
        return "workload";
    case FieldRole::Sut:
        return "sut";
    case FieldRole::Measurement:
        return "measurement";
    }
    return "workload";
}

namespace {

// A field's value in one run: `canonical` decides equality, `display` is what the reader sees
// (the dataset is the same whatever its label says; the hash decides).
struct Value
{
    QString canonical;
    Message display; // its English text is what the JSON and the text form store
    bool known = true;
};

struct RunView
{
    RunPlan plan;
    QJsonObject snapshot;
    QStringList unknownFields;
};

struct FieldSpec
{
    const char *key;
    const char *label;
    FieldRole role;
    bool blocker;
    const char *unknownKey; // the "unknown_fields" name that makes this field unknown, or null
    std::function<Value(const RunView &)> value;
};

Value text(const QString &s)
{
    return Value{s, Message::literal(s.isEmpty() ? u"—"_s : s), true};
}

// A value in words: equality is decided on its English text, as before it had an identifier.
Value said(const Message &m)
{
    return Value{m.text(), m, true};
}

Value said(const char *id, const QStringList &args = {})
{
    return said(Message(id, args));
}

Value unknownValue()
{
    return Value{QString(), Message("cmp.value.unknown"), false};
}

QString num(double v)
{
    return QString::number(v, 'g', 10);
}

Message rateText(double r)
{
    return r > 0 && r < 1e300 ? Message("cmp.value.rate", {num(r)}) : Message("cmp.value.rate_inf");
}

QString compactJson(const QJsonObject &o)
{
    return o.isEmpty() ? u"{}"_s
                       : QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString sloText(const Slo &s)
{
    QStringList parts;
    if (s.ttftMs >= 0)
        parts << u"TTFT ≤ %1 ms"_s.arg(num(s.ttftMs));
    if (s.tpotMs >= 0)
        parts << u"TPOT ≤ %1 ms"_s.arg(num(s.tpotMs));
    if (s.e2elMs >= 0)
        parts << u"E2EL ≤ %1 ms"_s.arg(num(s.e2elMs));
    return parts.join(u", "_s);
}

// What an API's runs measure. Completions, chat, Responses and Messages all stream generated
// text and give the same metrics (TTFT, ITL, TPOT, token throughput; docs/metrics.md), so their
// runs rank against each other: a hosted Messages endpoint beside a self-hosted chat one is what
// a selection compares. Embeddings and rerank runs generate nothing (no TTFT, ITL or output
// tokens; docs/metrics.md, "Embeddings and rerank"): each kind ranks only against its own, on
// latency and throughput, never against a generation run. A backend this build does not know
// keeps its own name, so it never ranks against a generation run.
Value apiKind(const RunView &r)
{
    const QString backend =
        r.snapshot.value(u"sut"_s).toObject().value(u"backend"_s).toString();
    ApiFlavour f = ApiFlavour::Completions;
    if (!backend.isEmpty() && !apiFlavourFromName(backend, &f))
        return text(backend);
    switch (f) {
    case ApiFlavour::Completions:
    case ApiFlavour::Chat:
    case ApiFlavour::Responses:
    case ApiFlavour::Messages:
        return said("cmp.value.api_generation");
    case ApiFlavour::Embeddings:
        return said("cmp.value.api_embeddings");
    case ApiFlavour::Rerank:
        return said("cmp.value.api_rerank");
    }
    return text(backend);
}

const QList<FieldSpec> &fieldSpecs()
{
    using R = RunView;
    static const QList<FieldSpec> specs = {
        // --- workload: must match ---
        {"model", "model", FieldRole::Workload, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.model);
         }},
        {"dataset_hash", "dataset (content hash)", FieldRole::Workload, true, "dataset_hash",
         [](const R &r) {
             const QJsonObject info = r.snapshot.value(u"dataset_info"_s).toObject();
             const QString hash = info.value(u"sha256"_s).toString();
             if (hash.isEmpty())
                 return unknownValue();
             const QString label = info.value(u"version_label"_s).toString();
             const Message shown = label.isEmpty()
                                       ? Message("cmp.value.hash", {hash.left(16)})
                                       : Message("cmp.value.hash_version", {hash.left(16), label});
             return Value{hash, shown, true};
         }},
        {"requests", "request count / duration", FieldRole::Workload, false, nullptr,
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             if (r.plan.isSessionWorkload() && p.durationS <= 0)
                 return said("cmp.value.sessions", {QString::number(p.numSessions)});
             return p.durationS > 0 ? said("cmp.value.seconds", {num(p.durationS)})
                                    : said("cmp.value.requests", {QString::number(p.numPrompts)});
         }},
        {"api_kind", "API kind", FieldRole::Workload, true, nullptr, apiKind},
        {"scenario", "scenario", FieldRole::Workload, true, nullptr,
         [](const R &r) {
             return text(QString::fromLatin1(scenarioName(r.plan.profile.scenario)));
         }},
        // Sessions (docs/sessions.md): a session run compares only with a session run of the
        // same source, history mode and think-time model.
        {"workload_shape", "workload (single requests or sessions)", FieldRole::Workload, true,
         nullptr,
         [](const R &r) {
             const DatasetSpec &d = r.plan.dataset;
             if (!r.plan.isSessionWorkload())
                 return said("cmp.value.single_requests");
             return d.kind == DatasetKind::Random
                        ? said("cmp.value.synthetic_sessions")
                        : said("cmp.value.kind_sessions",
                               {QString::fromLatin1(datasetKindName(d.kind))});
         }},
        {"session_history", "session history", FieldRole::Workload, true, nullptr,
         [](const R &r) {
             if (!r.plan.isSessionWorkload())
                 return said("cmp.value.na_single_requests");
             return said(r.plan.profile.history == HistoryMode::Served
                             ? "cmp.value.served_answers"
                             : "cmp.value.reference_answers");
         }},
        {"think_time", "think time", FieldRole::Workload, true, nullptr,
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             if (!r.plan.isSessionWorkload())
                 return said("cmp.value.na_single_requests");
             switch (p.thinkTime) {
             case ThinkTimeModel::None:
                 return said("cmp.value.none");
             case ThinkTimeModel::Fixed:
                 return said("cmp.value.think_fixed", {num(p.thinkTimeMs)});
             case ThinkTimeModel::Exponential:
                 return said("cmp.value.think_exponential", {num(p.thinkTimeMs)});
             case ThinkTimeModel::Dataset:
                 return said("cmp.value.think_dataset");
             }
             return text(QString());
         }},
        {"arrival", "arrival process", FieldRole::Workload, false, nullptr,
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             if (r.plan.isSessionWorkload()) {
                 if (p.sessionUsers > 0)
                     return text(u"sessions, closed loop (%1 users)"_s.arg(p.sessionUsers));
                 if (!(p.sessionRate > 0 && p.sessionRate < 1e300))
                     return text(u"sessions, all at t=0"_s);
                 QString a = u"sessions, "_s + QString::fromLatin1(arrivalName(p.arrival));
                 if (p.arrival == ArrivalProcess::Gamma)
                     a += u" (burstiness %1)"_s.arg(num(p.burstiness));
                 return text(a);
             }
             if (!p.tracePath.isEmpty())
                 return said("cmp.value.trace_replay", {num(p.traceTimeScale)});
             if (p.closedLoopConcurrency > 0)
                 return said("cmp.value.closed_loop");
             if (p.unlimitedRate() && p.rampUpStrategy == RampUpStrategy::None)
                 return said("cmp.value.all_at_t0");
             const QString a = QString::fromLatin1(arrivalName(p.arrival));
             if (p.arrival == ArrivalProcess::Gamma)
                 return said("cmp.value.burstiness", {a, num(p.burstiness)});
             return text(a);
         }},
        {"request_rate", "request rate", FieldRole::Workload, false, nullptr,
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             if (r.plan.isSessionWorkload())
                 return text(p.sessionUsers > 0 ? u"n/a (closed loop)"_s
                             : p.sessionRate > 0 && p.sessionRate < 1e300
                                 ? num(p.sessionRate) + u" sessions/s"_s
                                 : u"inf (all sessions at t=0)"_s);
             if (p.rampUpStrategy != RampUpStrategy::None)
                 return said("cmp.value.ramp_up",
                             {QString::fromLatin1(rampUpStrategyName(p.rampUpStrategy)),
                              num(p.rampUpStartRps), num(p.rampUpEndRps)});
             return said(rateText(p.requestRate));
         }},
        {"concurrency", "concurrency", FieldRole::Workload, false, nullptr,
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             if (p.closedLoopConcurrency > 0)
                 return said("cmp.value.closed_loop_in_flight",
                             {QString::number(p.closedLoopConcurrency)});
             return p.maxConcurrency > 0
                        ? said("cmp.value.max", {QString::number(p.maxConcurrency)})
                        : said("cmp.value.unlimited");
         }},
        {"max_tokens", "max tokens (output length)", FieldRole::Workload, false, "max_tokens",
         [](const R &r) {
             const DatasetSpec &d = r.plan.dataset;
             switch (d.kind) {
             case DatasetKind::Random:
                 return d.randomRangeRatio > 0
                            ? said("cmp.value.tokens_range", {QString::number(d.randomOutputLen),
                                                              num(d.randomRangeRatio * 100)})
                            : text(QString::number(d.randomOutputLen));
             case DatasetKind::ShareGpt:
                 return d.sharegptOutputLen > 0 ? text(QString::number(d.sharegptOutputLen))
                                                : said("cmp.value.reference_length");
             case DatasetKind::Custom:
                 return said("cmp.value.per_item");
             }
             return text(QString());
         }},
        {"ignore_eos", "output-length policy (ignore_eos)", FieldRole::Workload, false,
         "ignore_eos",
         [](const R &r) {
             return said(r.plan.params.ignoreEos ? "cmp.value.ignore_eos"
                                                 : "cmp.value.stop_at_eos");
         }},
        {"temperature", "temperature", FieldRole::Workload, false, "temperature",
         [](const R &r) {
             return r.plan.params.temperature >= 0 ? text(num(r.plan.params.temperature))
                                                   : said("cmp.value.server_default");
         }},
        {"thinking_budget", "thinking budget", FieldRole::Workload, false, nullptr,
         [](const R &r) {
             return r.plan.params.thinkingBudgetTokens > 0
                        ? text(QString::number(r.plan.params.thinkingBudgetTokens))
                        : said("cmp.value.not_sent");
         }},
        {"request_seed", "sampling seed", FieldRole::Workload, false, "request_seed",
         [](const R &r) {
             return r.plan.params.seed >= 0 ? text(QString::number(r.plan.params.seed))
                                            : said("cmp.value.not_sent");
         }},
        {"extra_body", "extra body", FieldRole::Workload, false, "extra_body",
         [](const R &r) {
             return text(compactJson(r.plan.params.extraBody));
         }},
        {"slo", "SLOs", FieldRole::Workload, false, "slo",
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             QList<Message> parts;
             const QString goodput = sloText(p.goodput);
             if (!goodput.isEmpty())
                 parts << Message("cmp.value.slo_goodput", {goodput});
             if (!p.mlperfPreset.isEmpty())
                 parts << Message("cmp.value.slo_mlperf_preset", {p.mlperfPreset});
             Slo ml;
             ml.ttftMs = p.ttftSloMs;
             ml.tpotMs = p.tpotSloMs;
             if (ml.any())
                 parts << Message("cmp.value.slo_mlperf", {sloText(ml)});
             if (p.sloPercentile >= 0)
                 parts << Message("cmp.value.slo_percentile", {num(p.sloPercentile)});
             return parts.isEmpty() ? said("cmp.value.none") : said(Message::join(parts, u"; "_s));
         }},
        {"cache_policy", "cache policy", FieldRole::Workload, false, "cache_policy",
         [](const R &r) {
             return said(r.plan.profile.cacheBust ? "cmp.value.cache_bust"
                                                  : "cmp.value.cache_as_sampled");
         }},
        {"warmup", "warm-up", FieldRole::Workload, false, "warmup",
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             if (p.warmupRequests <= 0 && p.warmupSeconds <= 0)
                 return said("cmp.value.none");
             QList<Message> parts;
             if (p.warmupRequests > 0)
                 parts << Message("cmp.value.requests", {QString::number(p.warmupRequests)});
             if (p.warmupSeconds > 0)
                 parts << Message("cmp.value.seconds", {num(p.warmupSeconds)});
             return said(Message::join(parts, u", "_s));
         }},
        {"timeout", "request timeout", FieldRole::Workload, false, "timeout",
         [](const R &r) {
             return said("cmp.value.seconds", {num(r.plan.profile.timeoutS)});
         }},

        // --- SUT: what is compared ---
        {"sut_name", "SUT", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.name);
         }},
        {"endpoint", "endpoint", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return r.plan.sut.builtInSimulator ? said("cmp.value.simulator")
                                                : text(r.plan.sut.baseUrl + r.plan.sut.endpoint);
         }},
        {"api_flavour", "API flavour", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(QString::fromLatin1(apiFlavourName(r.plan.sut.flavour)));
         }},
        {"weights_revision", "weights revision", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.weightsRevision);
         }},
        {"engine", "engine", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.engine);
         }},
        {"engine_version", "engine version", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.engineVersion);
         }},
        {"gpu", "GPUs", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             const SutConfig &s = r.plan.sut;
             if (s.gpuModel.isEmpty() && s.gpuCount == 0)
                 return text(QString());
             return text(u"%1 × %2"_s.arg(s.gpuCount).arg(s.gpuModel));
         }},
        {"image", "container image", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.image);
         }},
        {"topology", "replicas / containers / workers", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             const SutConfig &s = r.plan.sut;
             if (s.replicas == 0 && s.containers == 0 && s.workersPerContainer == 0)
                 return text(QString());
             return text(
                 u"%1 / %2 / %3"_s.arg(s.replicas).arg(s.containers).arg(s.workersPerContainer));
         }},
        {"region", "region", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.region);
         }},
        {"client_location", "client location", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.clientLocation);
         }},
        {"sut_notes", "SUT notes", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.notes);
         }},

        // --- measurement ---
        {"tool_version", "tool version", FieldRole::Measurement, false, nullptr,
         [](const R &r) {
             return text(r.snapshot.value(u"tool_version"_s).toString());
         }},
        {"source", "source of the numbers", FieldRole::Measurement, false, nullptr,
         [](const R &r) {
             const QJsonObject imp = r.snapshot.value(u"imported"_s).toObject();
             if (imp.isEmpty())
                 return said("cmp.value.measured");
             return said(imp.value(u"raw_records"_s).toBool() ? "cmp.value.imported"
                                                              : "cmp.value.imported_summary",
                         {imp.value(u"tool"_s).toString()});
         }},
    };
    return specs;
}

QList<FieldComparison> filtered(const QList<FieldComparison> &fields,
                                const std::function<bool(const FieldComparison &)> &keep)
{
    QList<FieldComparison> out;
    for (const auto &f : fields)
        if (keep(f))
            out.append(f);
    return out;
}

} // namespace

QList<FieldComparison> Comparability::differences() const
{
    return filtered(fields, [](const auto &f) { return f.differs; });
}
QList<FieldComparison> Comparability::workloadDifferences() const
{
    return filtered(fields,
                    [](const auto &f) { return f.differs && f.role == FieldRole::Workload; });
}
QList<FieldComparison> Comparability::sutDifferences() const
{
    return filtered(fields, [](const auto &f) { return f.differs && f.role == FieldRole::Sut; });
}
QList<FieldComparison> Comparability::measurementDifferences() const
{
    return filtered(fields,
                    [](const auto &f) { return f.differs && f.role == FieldRole::Measurement; });
}
QList<FieldComparison> Comparability::unknowns() const
{
    return filtered(fields, [](const auto &f) { return f.unknown; });
}

int Comparability::variableCount() const
{
    return int(workloadDifferences().size()) + (sutDifferences().isEmpty() ? 0 : 1);
}

QString Comparability::singleVariable() const
{
    return singleVariableMessage().text();
}

Message Comparability::singleVariableMessage() const
{
    if (variableCount() != 1)
        return {};
    const auto workload = workloadDifferences();
    if (!workload.isEmpty())
        return workload.constFirst().labelMessage;
    QList<Message> parts;
    for (const auto &f : sutDifferences())
        parts << f.labelMessage;
    return Message("cmp.sut_variable", {Message::join(parts, u", "_s)});
}

QString Comparability::verdict() const
{
    return verdictMessage().text();
}

Message Comparability::verdictMessage() const
{
    if (!rankable())
        return Message("cmp.verdict.not_rankable",
                       {Message::join(refusalMessages.isEmpty() ? Message::literals(refusals)
                                                                : refusalMessages,
                                      u" "_s)});
    Message v;
    const int n = variableCount();
    if (n == 0) {
        v = Message("cmp.verdict.repeat");
    } else if (n == 1) {
        v = Message("cmp.verdict.one_variable", {singleVariableMessage()});
    } else {
        QList<Message> names;
        for (const auto &f : workloadDifferences())
            names << f.labelMessage;
        if (!sutDifferences().isEmpty())
            names << Message("cmp.sut");
        v = Message("cmp.verdict.confounded",
                    {Message::literal(QString::number(n)), Message::join(names, u", "_s)});
    }
    const auto unk = unknowns();
    if (!unk.isEmpty()) {
        QList<Message> names;
        for (const auto &f : unk)
            names << f.labelMessage;
        v = Message("cmp.verdict.not_confirmed", {v, Message::join(names, u", "_s)});
    }
    return v;
}

QString Comparability::formatText(bool translate) const
{
    QString out = Message("cmp.text.heading", {verdictMessage()}).text(translate) + u'\n';
    const auto diffs = differences();
    const auto unk = unknowns();
    if (diffs.isEmpty() && unk.isEmpty()) {
        out += u"  "_s + Message("cmp.text.no_differences").text(translate) + u'\n';
    } else {
        for (const auto &f : fields) {
            if (!f.differs && !f.unknown)
                continue;
            const char *role = f.role == FieldRole::Sut           ? "cmp.role.sut"
                               : f.role == FieldRole::Measurement ? "cmp.role.measurement"
                               : f.blocker                        ? "cmp.role.blocker"
                                                                  : "cmp.role.workload";
            out +=
                u"  %1 [%2]\n"_s.arg(f.labelMessage.text(translate), Message(role).text(translate));
            for (qsizetype i = 0; i < f.valueMessages.size(); ++i)
                out += u"      %1: %2\n"_s.arg(runLabels.value(i),
                                               f.valueMessages.at(i).text(translate));
        }
    }
    for (const Message &w : warningMessages)
        out += u"  "_s + Message("cmp.text.warning", {w}).text(translate) + u'\n';
    return out;
}

QJsonObject Comparability::toJson() const
{
    QJsonArray fs;
    for (const auto &f : fields) {
        QJsonArray known;
        for (bool k : f.known)
            known.append(k);
        fs.append(QJsonObject{{u"key"_s, f.key},
                              {u"label"_s, f.label},
                              {u"role"_s, QString::fromLatin1(fieldRoleName(f.role))},
                              {u"blocker"_s, f.blocker},
                              {u"values"_s, QJsonArray::fromStringList(f.values)},
                              {u"known"_s, known},
                              {u"differs"_s, f.differs},
                              {u"unknown"_s, f.unknown}});
    }
    return QJsonObject{{u"runs"_s, QJsonArray::fromStringList(runLabels)},
                       {u"verdict"_s, verdict()},
                       {u"rankable"_s, rankable()},
                       {u"comparable"_s, comparable()},
                       {u"variable_count"_s, variableCount()},
                       {u"single_variable"_s, singleVariable()},
                       {u"refusals"_s, QJsonArray::fromStringList(refusals)},
                       {u"warnings"_s, QJsonArray::fromStringList(warnings)},
                       {u"fields"_s, fs}};
}

Comparability checkComparability(const QList<QJsonObject> &snapshots, const QStringList &labels)
{
    Comparability c;
    QList<RunView> views;
    for (qsizetype i = 0; i < snapshots.size(); ++i) {
        RunView v;
        v.snapshot = snapshots.at(i);
        v.plan = RunPlan::fromJson(v.snapshot);
        for (const auto &u : v.snapshot.value(u"unknown_fields"_s).toArray())
            v.unknownFields << u.toString();
        views.append(v);
        c.runLabels << (i < labels.size() ? labels.at(i) : u"run %1"_s.arg(i + 1));
    }

    for (const FieldSpec &spec : fieldSpecs()) {
        FieldComparison f;
        f.key = QString::fromLatin1(spec.key);
        f.label = QString::fromLatin1(spec.label);
        // A field without a catalogue entry keeps its English label in every language.
        const QByteArray labelId = QByteArray("cmp.field.") + spec.key;
        f.labelMessage = Message::known(labelId.constData()) ? Message(labelId.constData())
                                                             : Message::literal(f.label);
        f.role = spec.role;
        f.blocker = spec.blocker;
        QString first;
        bool haveFirst = false;
        for (const RunView &v : views) {
            Value val = spec.value(v);
            if (spec.unknownKey && v.unknownFields.contains(QLatin1StringView(spec.unknownKey)))
                val = unknownValue();
            f.values << val.display.text();
            f.valueMessages << val.display;
            f.known << val.known;
            if (!val.known) {
                f.unknown = true;
                continue;
            }
            if (!haveFirst) {
                first = val.canonical;
                haveFirst = true;
            } else if (val.canonical != first) {
                f.differs = true;
            }
        }
        c.fields.append(f);
    }

    const auto versus = [](const FieldComparison &f) {
        return Message::join(f.valueMessages, u" vs "_s);
    };
    for (const auto &f : c.fields) {
        if (!f.differs || !f.blocker)
            continue;
        if (f.key == "scenario"_L1)
            c.refusalMessages << Message("cmp.refusal.scenario", {versus(f)});
        else if (f.key == "workload_shape"_L1 || f.key == "session_history"_L1 ||
                 f.key == "think_time"_L1)
            c.refusalMessages << Message("cmp.refusal.session", {f.labelMessage, versus(f)});
        else if (f.key == "dataset_hash"_L1)
            c.refusalMessages << Message("cmp.refusal.dataset", {versus(f)});
        else if (f.key == "api_kind"_L1)
            c.refusalMessages << Message("cmp.refusal.api_kind", {versus(f)});
    }
    if (c.variableCount() > 1)
        c.warningMessages << Message("cmp.warning.variables", {QString::number(c.variableCount())});
    for (const auto &f : c.unknowns()) {
        QStringList who;
        for (qsizetype i = 0; i < f.known.size(); ++i)
            if (!f.known.at(i))
                who << c.runLabels.at(i);
        c.warningMessages << Message("cmp.warning.unknown",
                                     {f.labelMessage, Message::literal(who.join(u", "_s))});
    }
    for (const auto &f : c.measurementDifferences())
        c.warningMessages << Message("cmp.warning.measurement", {f.labelMessage, versus(f)});
    c.refusals = messageTexts(c.refusalMessages);
    c.warnings = messageTexts(c.warningMessages);
    return c;
}

} // namespace sb
