#include "comparability.h"

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
    QString display;
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
    return Value{s, s.isEmpty() ? u"—"_s : s, true};
}

QString num(double v)
{
    return QString::number(v, 'g', 10);
}

QString rateText(double r)
{
    return r > 0 && r < 1e300 ? num(r) + u" req/s"_s : u"inf (all at t=0)"_s;
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
                 return Value{QString(), u"unknown"_s, false};
             QString shown = u"sha256 "_s + hash.left(16) + u'…';
             const QString label = info.value(u"version_label"_s).toString();
             if (!label.isEmpty())
                 shown += u" (version %1)"_s.arg(label);
             return Value{hash, shown, true};
         }},
        {"requests", "request count / duration", FieldRole::Workload, false, nullptr,
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             if (r.plan.isSessionWorkload() && p.durationS <= 0)
                 return text(u"%1 sessions"_s.arg(p.numSessions));
             return text(p.durationS > 0 ? u"%1 s"_s.arg(num(p.durationS))
                                         : u"%1 requests"_s.arg(p.numPrompts));
         }},
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
                 return text(u"single requests"_s);
             return text(d.kind == DatasetKind::Random
                             ? u"synthetic sessions"_s
                             : u"%1 sessions"_s.arg(QString::fromLatin1(datasetKindName(d.kind))));
         }},
        {"session_history", "session history", FieldRole::Workload, true, nullptr,
         [](const R &r) {
             if (!r.plan.isSessionWorkload())
                 return text(u"n/a (single requests)"_s);
             return text(r.plan.profile.history == HistoryMode::Served ? u"served answers"_s
                                                                       : u"reference answers"_s);
         }},
        {"think_time", "think time", FieldRole::Workload, true, nullptr,
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             if (!r.plan.isSessionWorkload())
                 return text(u"n/a (single requests)"_s);
             switch (p.thinkTime) {
             case ThinkTimeModel::None:
                 return text(u"none"_s);
             case ThinkTimeModel::Fixed:
                 return text(u"fixed %1 ms"_s.arg(num(p.thinkTimeMs)));
             case ThinkTimeModel::Exponential:
                 return text(u"exponential, mean %1 ms"_s.arg(num(p.thinkTimeMs)));
             case ThinkTimeModel::Dataset:
                 return text(u"from the dataset"_s);
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
                 return text(u"trace replay ×%1"_s.arg(num(p.traceTimeScale)));
             if (p.closedLoopConcurrency > 0)
                 return text(u"closed loop"_s);
             if (p.unlimitedRate() && p.rampUpStrategy == RampUpStrategy::None)
                 return text(u"all at t=0"_s);
             QString a = QString::fromLatin1(arrivalName(p.arrival));
             if (p.arrival == ArrivalProcess::Gamma)
                 a += u" (burstiness %1)"_s.arg(num(p.burstiness));
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
                 return text(u"%1 ramp-up %2 → %3 req/s"_s.arg(
                     QString::fromLatin1(rampUpStrategyName(p.rampUpStrategy)),
                     num(p.rampUpStartRps), num(p.rampUpEndRps)));
             return text(rateText(p.requestRate));
         }},
        {"concurrency", "concurrency", FieldRole::Workload, false, nullptr,
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             if (p.closedLoopConcurrency > 0)
                 return text(u"closed loop, %1 in flight"_s.arg(p.closedLoopConcurrency));
             return text(p.maxConcurrency > 0 ? u"max %1"_s.arg(p.maxConcurrency) : u"unlimited"_s);
         }},
        {"max_tokens", "max tokens (output length)", FieldRole::Workload, false, "max_tokens",
         [](const R &r) {
             const DatasetSpec &d = r.plan.dataset;
             switch (d.kind) {
             case DatasetKind::Random:
                 return text(
                     d.randomRangeRatio > 0
                         ? u"%1 ± %2 %"_s.arg(d.randomOutputLen).arg(num(d.randomRangeRatio * 100))
                         : QString::number(d.randomOutputLen));
             case DatasetKind::ShareGpt:
                 return text(d.sharegptOutputLen > 0 ? QString::number(d.sharegptOutputLen)
                                                     : u"reference answer length"_s);
             case DatasetKind::Custom:
                 return text(u"per item (output_tokens)"_s);
             }
             return text(QString());
         }},
        {"ignore_eos", "output-length policy (ignore_eos)", FieldRole::Workload, false,
         "ignore_eos",
         [](const R &r) {
             return text(r.plan.params.ignoreEos ? u"ignore_eos: run to max tokens"_s
                                                 : u"stop at EOS"_s);
         }},
        {"temperature", "temperature", FieldRole::Workload, false, "temperature",
         [](const R &r) {
             return text(r.plan.params.temperature >= 0 ? num(r.plan.params.temperature)
                                                        : u"server default"_s);
         }},
        {"request_seed", "sampling seed", FieldRole::Workload, false, "request_seed",
         [](const R &r) {
             return text(r.plan.params.seed >= 0 ? QString::number(r.plan.params.seed)
                                                 : u"not sent"_s);
         }},
        {"extra_body", "extra body", FieldRole::Workload, false, "extra_body",
         [](const R &r) {
             return text(compactJson(r.plan.params.extraBody));
         }},
        {"slo", "SLOs", FieldRole::Workload, false, "slo",
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             QStringList parts;
             const QString goodput = sloText(p.goodput);
             if (!goodput.isEmpty())
                 parts << u"goodput: "_s + goodput;
             if (!p.mlperfPreset.isEmpty())
                 parts << u"MLPerf preset "_s + p.mlperfPreset;
             Slo ml;
             ml.ttftMs = p.ttftSloMs;
             ml.tpotMs = p.tpotSloMs;
             if (ml.any())
                 parts << u"MLPerf: "_s + sloText(ml);
             if (p.sloPercentile >= 0)
                 parts << u"at p%1"_s.arg(num(p.sloPercentile));
             return text(parts.isEmpty() ? u"none"_s : parts.join(u"; "_s));
         }},
        {"cache_policy", "cache policy", FieldRole::Workload, false, "cache_policy",
         [](const R &r) {
             return text(r.plan.profile.cacheBust ? u"cache-busting prompt prefix"_s
                                                  : u"prompts as sampled (prefix cache may hit)"_s);
         }},
        {"warmup", "warm-up", FieldRole::Workload, false, "warmup",
         [](const R &r) {
             const LoadProfile &p = r.plan.profile;
             if (p.warmupRequests <= 0 && p.warmupSeconds <= 0)
                 return text(u"none"_s);
             QStringList parts;
             if (p.warmupRequests > 0)
                 parts << u"%1 requests"_s.arg(p.warmupRequests);
             if (p.warmupSeconds > 0)
                 parts << u"%1 s"_s.arg(num(p.warmupSeconds));
             return text(parts.join(u", "_s));
         }},
        {"timeout", "request timeout", FieldRole::Workload, false, "timeout",
         [](const R &r) {
             return text(u"%1 s"_s.arg(num(r.plan.profile.timeoutS)));
         }},

        // --- SUT: what is compared ---
        {"sut_name", "SUT", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.name);
         }},
        {"endpoint", "endpoint", FieldRole::Sut, false, nullptr,
         [](const R &r) {
             return text(r.plan.sut.builtInSimulator ? u"built-in simulator"_s
                                                     : r.plan.sut.baseUrl + r.plan.sut.endpoint);
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
                 return text(u"measured by ServeBench"_s);
             return text(u"imported from %1%2"_s.arg(
                 imp.value(u"tool"_s).toString(),
                 imp.value(u"raw_records"_s).toBool() ? QString() : u" (summary only)"_s));
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
    if (variableCount() != 1)
        return {};
    const auto workload = workloadDifferences();
    if (!workload.isEmpty())
        return workload.constFirst().label;
    QStringList parts;
    for (const auto &f : sutDifferences())
        parts << f.label;
    return u"SUT (%1)"_s.arg(parts.join(u", "_s));
}

QString Comparability::verdict() const
{
    if (!rankable())
        return u"Not rankable: "_s + refusals.join(u" "_s);
    QString v;
    const int n = variableCount();
    if (n == 0)
        v = u"Comparable: the runs share the workload and the SUT (repeat runs)."_s;
    else if (n == 1)
        v = u"Comparable: exactly one variable differs — %1."_s.arg(singleVariable());
    else {
        QStringList names;
        for (const auto &f : workloadDifferences())
            names << f.label;
        if (!sutDifferences().isEmpty())
            names << u"SUT"_s;
        v = u"Confounded: %1 variables differ (%2); a difference in the results cannot be "
            "attributed to one of them."_s.arg(n)
                .arg(names.join(u", "_s));
    }
    const auto unk = unknowns();
    if (!unk.isEmpty()) {
        QStringList names;
        for (const auto &f : unk)
            names << f.label;
        v += u" Not confirmed: %1 unknown for at least one run."_s.arg(names.join(u", "_s));
    }
    return v;
}

QString Comparability::formatText() const
{
    QString out = u"Comparability: "_s + verdict() + u'\n';
    const auto diffs = differences();
    const auto unk = unknowns();
    if (diffs.isEmpty() && unk.isEmpty()) {
        out += u"  no differences in the compared settings\n"_s;
    } else {
        for (const auto &f : fields) {
            if (!f.differs && !f.unknown)
                continue;
            const char *role = f.role == FieldRole::Sut           ? "compared (SUT)"
                               : f.role == FieldRole::Measurement ? "measurement"
                               : f.blocker                        ? "blocks ranking"
                                                                  : "workload";
            out += u"  %1 [%2]\n"_s.arg(f.label, QLatin1StringView(role));
            for (qsizetype i = 0; i < f.values.size(); ++i)
                out += u"      %1: %2\n"_s.arg(runLabels.value(i), f.values.at(i));
        }
    }
    for (const QString &w : warnings)
        out += u"  WARNING: "_s + w + u'\n';
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
        f.role = spec.role;
        f.blocker = spec.blocker;
        QString first;
        bool haveFirst = false;
        for (const RunView &v : views) {
            Value val = spec.value(v);
            if (spec.unknownKey && v.unknownFields.contains(QLatin1StringView(spec.unknownKey)))
                val = Value{QString(), u"unknown"_s, false};
            f.values << val.display;
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

    for (const auto &f : c.fields) {
        if (!f.differs || !f.blocker)
            continue;
        if (f.key == "scenario"_L1)
            c.refusals << u"the runs use different scenarios (%1). A Server run is judged on "
                          "latency at an arrival rate, an Offline run on throughput with every "
                          "query issued at once, a single-stream run on one query at a time: "
                          "their numbers measure different things."_s.arg(f.values.join(u" vs "_s));
        else if (f.key == "workload_shape"_L1 || f.key == "session_history"_L1 ||
                 f.key == "think_time"_L1)
            c.refusals << u"the runs' workloads differ in %1 (%2). Session runs compare only with "
                          "session runs of the same source, history mode and think-time model: "
                          "each turn's history and timing change what the server caches."_s.arg(
                              f.label, f.values.join(u" vs "_s));
        else if (f.key == "dataset_hash"_L1)
            c.refusals << u"the runs used different datasets (%1). Different prompts and output "
                          "lengths change latency and throughput by themselves."_s.arg(
                              f.values.join(u" vs "_s));
    }
    if (c.variableCount() > 1)
        c.warnings << u"%1 variables differ: change one thing at a time to attribute a "
                      "difference."_s.arg(c.variableCount());
    for (const auto &f : c.unknowns()) {
        QStringList who;
        for (qsizetype i = 0; i < f.known.size(); ++i)
            if (!f.known.at(i))
                who << c.runLabels.at(i);
        c.warnings << u"%1 is unknown for %2: it cannot be confirmed equal."_s.arg(
            f.label, who.join(u", "_s));
    }
    for (const auto &f : c.measurementDifferences())
        c.warnings << u"%1 differs (%2): check the metric definitions before reading small "
                      "differences."_s.arg(f.label, f.values.join(u" vs "_s));
    return c;
}

} // namespace sb
