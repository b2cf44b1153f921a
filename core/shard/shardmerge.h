#pragma once

#include "config/runplan.h"
#include "metrics/requestrecord.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace sb {

struct ShardRun;

// The agents' runs combined into one run of the unsharded plan. Statistics are never combined:
// the caller summarizes `records` (summarize()), exactly as for a run made by one agent.
struct MergedRun
{
    RunPlan plan;         // the unsharded plan the agents shared
    QJsonObject snapshot; // plan + dataset_info + command + "merge" block
    QJsonObject datasetInfo;
    QString datasetHash;
    // Plan indices (agent I's local request i is request I + i·N); times on one axis: UTC ns
    // since the epoch, from each agent's CLOCK_REALTIME/CLOCK_MONOTONIC anchor, minus its
    // measured clock offset when every agent has one.
    QList<RequestRecord> records;
    QString status;      // completed only when every agent completed
    qint64 startNs = 0;  // earliest agent start, on the merged axis
    qint64 endNs = 0;    // latest record end, on the merged axis
    QDateTime wallStart; // startNs as a date (UTC)
    QDateTime wallEnd;
    QStringList hosts;      // per agent, by shard index
    qint64 startSkewNs = 0; // latest minus earliest agent start, on the merged axis
    bool offsetsApplied = false;
};

// Checks that the runs are the N shards of one plan (same plan hash, same N, every index once)
// and combines their raw records. On refusal names the files and the shard indices involved.
bool mergeShardRuns(const QList<ShardRun> &runs, MergedRun *out, QString *error);

} // namespace sb
