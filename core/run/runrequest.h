#pragma once

#include "config/runplan.h"
#include "run/runcontroller.h"
#include "shard/shardspec.h"

#include <QJsonObject>
#include <QString>

namespace sb {

// What is executed for one press of Run (or one `servebench-cli run`): a single run of the plan,
// a rate sweep (a synchronous baseline, the maximum throughput, then rates between them), or the
// search for the highest Server rate that stays VALID (bisection).
enum class RunMode { Single, Sweep, MaxValidRate };
const char *runModeName(RunMode m); // "single" | "sweep" | "find-max-valid-rate"
bool runModeFromName(const QString &name, RunMode *out);

// How a load profile is executed, as the workbench keeps it with the profile (the CLI takes the
// same from --sweep, --find-max-valid-rate, --rate-tolerance and --transport).
struct RunExecution
{
    RunMode mode = RunMode::Single;
    int sweepRates = 4;
    double rateTolerance = 0.05;
    TransportKind transport = TransportKind::Socket;
    int numRuns = 1; // > 1: the plan runs that many times as a series

    QJsonObject toJson() const;
    static RunExecution fromJson(const QJsonObject &o);
};

// Everything the pipeline needs besides the API key (which never travels in a value that could
// be stored): the plan and how to execute it. Both front ends fill one of these; the pipeline
// (core/run) validates, prepares, snapshots, executes, derives and records it the same way
// whichever front end made it.
struct RunRequest
{
    RunPlan plan;
    RunMode mode = RunMode::Single;
    int sweepRates = 0;          // Sweep: rates between the baseline and the maximum
    double rateTolerance = 0.05; // MaxValidRate: stop when the bracket is below this fraction
    TransportKind transport = TransportKind::Socket;
    // Single mode: run the plan this many times as a series (--num-runs): each run stored on
    // its own, and the spread over runs reported per metric (mean, 95 % interval, CV).
    int numRuns = 1;
    // Stop an open-loop run of finite rate early when it over-saturates the server (its queue
    // and TTFT grow without bound while throughput stays flat): always for the rate steps of a
    // sweep or search, on request for a single run (--stop-when-saturated). The detector looks
    // at the last saturationWindowS seconds (docs/statistics.md, saturation).
    bool stopWhenSaturated = false;
    double saturationWindowS = 60;
    ShardSpec shard;      // this agent's share of the plan (count 1: the whole plan)
    qint64 startAtMs = 0; // shared start, UTC ms since the epoch; 0 = now
    QString frontEnd;     // "cli" | "workbench": recorded with the run, changes nothing
    // Synthetic prompts are sized in words; preparation measures the model's tokens per word
    // with the server's POST /tokenize unless the plan's calibration is given (a reproduced run
    // uses the one its original measured, so the same prompts come out).
    bool calibrateTokens = true;

    bool isSharded() const { return shard.count > 1 || startAtMs > 0; }
    void setExecution(const RunExecution &e);
};

} // namespace sb
