#include "studyfromproject.h"

#include "run/runflags.h"

#include <QSet>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// The part of a definition a flag of runFlags() belongs to; Dropped: the study sets it itself or
// holds it in a field of its own.
enum class Part { Candidate, Dataset, Load, Request, Dropped };

Part partOf(const QString &flag)
{
    static const QSet<QString> candidate = {u"--backend"_s,
                                            u"--endpoint"_s,
                                            u"--header"_s,
                                            u"--ca-file"_s,
                                            u"--proxy"_s,
                                            u"--metrics"_s,
                                            u"--metrics-target"_s,
                                            u"--sim-prefill-ms-per-token"_s,
                                            u"--sim-prefix-cache-blocks"_s,
                                            // a managed server (docs/managed-servers.md)
                                            u"--server-start-cmd"_s,
                                            u"--server-stop-cmd"_s,
                                            u"--server-health-url"_s,
                                            u"--server-start-timeout"_s,
                                            u"--server-workdir"_s,
                                            u"--server-lifetime"_s};
    static const QSet<QString> dataset = {u"--dataset-name"_s,        u"--dataset-path"_s,
                                          u"--dataset-version"_s,     u"--tokens-per-word"_s,
                                          u"--sharegpt-output-len"_s, u"--with-replacement"_s,
                                          u"--multi-turn"_s,          u"--session-turns"_s,
                                          u"--session-prefix-len"_s,  u"--max-turns"_s};
    static const QSet<QString> request = {u"--ignore-eos"_s, u"--temperature"_s,
                                          u"--request-seed"_s, u"--extra-body"_s};
    // base-url, model, tokenizer, sim-ttft/itl: fields of their own; the rest: set per cell by
    // the study (StudyDefinition::cellFlags) or one run's execution, which a cell never has.
    static const QSet<QString> dropped = {u"--base-url"_s,
                                          u"--model"_s,
                                          u"--sut-name"_s,
                                          u"--sut"_s,
                                          u"--tokenizer"_s,
                                          u"--sim-ttft-ms"_s,
                                          u"--sim-itl-ms"_s,
                                          u"--seed"_s,
                                          u"--connection-mode"_s,
                                          u"--cache-bust"_s,
                                          u"--cache-policy"_s, // the boundary's cache policy
                                          u"--cache-reset-fallback"_s,
                                          u"--goodput"_s,
                                          u"--num-runs"_s,
                                          u"--sweep"_s,
                                          u"--find-max-valid-rate"_s,
                                          u"--rate-tolerance"_s,
                                          u"--shard"_s,
                                          u"--start-at"_s,
                                          u"--name"_s,
                                          u"--stop-when-saturated"_s,
                                          u"--saturation-window"_s};
    if (candidate.contains(flag))
        return Part::Candidate;
    if (dataset.contains(flag) || flag.startsWith(u"--random-"_s))
        return Part::Dataset;
    if (request.contains(flag))
        return Part::Request;
    if (dropped.contains(flag))
        return Part::Dropped;
    return Part::Load;
}

// The flags of `part`, each with its values (the words up to the next flag), in runFlags' order.
QStringList flagsOf(const RunRequest &request, Part part)
{
    QStringList out;
    bool keep = false;
    for (const QString &word : runFlags(request)) {
        if (word.startsWith(u"--"_s))
            keep = partOf(word) == part;
        if (keep)
            out << word;
    }
    return out;
}

RunRequest blankRequest()
{
    RunRequest r;
    RunFlagOptions opts;
    QString error;
    parseRunFlags({}, &r, &opts, &error); // the CLI's defaults: runFlags leaves those out
    return r;
}

QString kindOf(Scenario s)
{
    switch (s) {
    case Scenario::Offline:
        return u"offline"_s;
    case Scenario::SingleStream:
        return u"single-stream"_s;
    case Scenario::Server:
        return u"server"_s;
    case Scenario::None:
        break;
    }
    return u"open-loop"_s;
}

} // namespace

StudyCandidate studyCandidateFromSut(const SutConfig &sut)
{
    RunRequest r = blankRequest();
    r.plan.sut = sut;
    StudyCandidate c;
    c.name = sut.name;
    c.simulator = sut.builtInSimulator;
    if (c.simulator) {
        c.simTtftMs = sut.simTtftMs;
        c.simItlMs = sut.simItlMs;
    } else {
        c.baseUrl = sut.baseUrl;
    }
    c.flags = flagsOf(r, Part::Candidate);
    return c;
}

StudyScenario studyScenarioFromProfile(const QString &name, const LoadProfile &profile,
                                       const RunExecution &execution, const DatasetSpec &dataset)
{
    RunRequest r = blankRequest();
    r.plan.profile = profile;
    r.plan.dataset = dataset;
    r.transport = execution.transport;
    StudyScenario s;
    s.name = name;
    s.kind = kindOf(profile.scenario);
    s.ttftSloMs = profile.goodput.ttftMs;
    s.tpotSloMs = profile.goodput.tpotMs;
    s.e2elSloMs = profile.goodput.e2elMs;
    s.flags = flagsOf(r, Part::Load);
    return s;
}

QStringList studyDatasetFlags(const DatasetSpec &dataset)
{
    RunRequest r = blankRequest();
    r.plan.dataset = dataset;
    QStringList f = flagsOf(r, Part::Dataset);
    const qsizetype i = f.indexOf(u"--tokens-per-word"_s);
    if (i >= 0 && i + 1 < f.size() && dataset.tokensPerWord == 1.0)
        f.remove(i, 2);
    return f;
}

QStringList studyRequestFlags(const RequestParams &params)
{
    RunRequest r = blankRequest();
    r.plan.params = params;
    return flagsOf(r, Part::Request);
}

} // namespace sb
