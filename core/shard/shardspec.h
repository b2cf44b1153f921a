#pragma once

#include "config/runplan.h"
#include "data/dataset.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sb {

// `--shard I/N`: this agent is number I (0-based) of N agents that together issue one plan.
struct ShardSpec
{
    int index = 0;
    int count = 1;

    bool isSharded() const { return count > 1; }
    QString text() const; // "I/N"
    // Accepts "I/N" with 0 <= I < N, N >= 1; the error names the flag.
    static bool parse(const QString &text, ShardSpec *out, QString *error);
};

// How a plan is divided between agents. Both ways give agent I the requests I, I+N, I+2N, … of
// the plan (so the union of the shards sends exactly the plan's dataset items, and a merged
// record's index is I + local·N); they differ in where the send times come from.
enum class ShardMode {
    // Poisson arrivals: each agent draws its own Poisson process at rate/N from a disjoint
    // derived seed (deriveSeed(seed, kShardStreamBase + I)). The superposition of N independent
    // Poisson processes at rate/N is a Poisson process at the full rate, so no agent needs to
    // know when the others send.
    PoissonSplit,
    // Everything else with a schedule computed up front (constant, gamma with burstiness != 1,
    // ramp-up, trace replay, unlimited rate / Offline): agent I sends exactly the plan's own
    // requests I, I+N, … at the plan's own times. Superposed independent gamma processes would
    // not be a gamma process, so splitting the rate would change the arrival process.
    Interleave,
    // Closed loop (--concurrency C) or a concurrency cap: agent I keeps its share of C in
    // flight and takes the requests I, I+N, … in order.
    ConcurrencySplit,
};
const char *shardModeName(ShardMode m); // "poisson-split" | "interleave" | "concurrency-split"

// One agent's share of a plan.
struct ShardAssignment
{
    ShardSpec spec;
    ShardMode mode = ShardMode::Interleave;
    RunPlan plan;            // the agent's own plan (its rate, seed, counts, concurrency)
    QList<PromptItem> items; // the agent's prompts, in its issue order
    QList<qint64> schedule;  // Interleave: the agent's send offsets (ns); else empty
    int warmupRequests = 0;  // of the agent's requests, the first ones that are warm-up
    int measuredRequests = 0;

    // {"index", "count", "mode", ...}: stored in the agent's snapshot.
    QJsonObject toJson() const;
};

// Divides `full` (the unsharded plan, with its loaded dataset items and, for trace replay, its
// trace schedule) for agent spec.index. Refuses, with a message that names the flag, what cannot
// be divided: SingleStream (one query at a time), fewer requests or concurrency slots than
// agents, and --duration / --warmup-seconds with a schedule that is not Poisson.
bool assignShard(const ShardSpec &spec, const RunPlan &full, const QList<PromptItem> &items,
                 const QList<qint64> &traceSchedule, ShardAssignment *out, QString *error);

// The identity of the plan all agents share: sha256 over the unsharded plan (RunPlan::toJson,
// no shard fields, no secrets) and the dataset's content hash. Hex.
QString shardPlanHash(const RunPlan &full, const QString &datasetSha256);

// How many of the plan's requests 0..total-1 fall to agent `index` of `count` (k ≡ index mod
// count).
int shardShare(int total, int index, int count);

} // namespace sb
