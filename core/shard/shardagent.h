#pragma once

#include "shardclock.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>

namespace sb {

class EndpointProbe;
struct LoadedDataset;
struct RunPlan;
struct RunReportInput;
struct ShardSpec;

// What `run --shard I/N` / `--start-at` adds to a run: the agent's share of the plan, its clock
// anchor and offset, and the shared start.
struct ShardSetup
{
    bool active = false; // --shard or --start-at given
    QJsonObject block;   // the snapshot's "shard" block, without the start fields
    ClockAnchor anchor;
    qint64 startAtMono = 0; // 0: RunController's own "now + a little"
};

// Turns the loaded full plan into this agent's plan (assignShard), reads the clock anchor,
// measures the clock offset against the server's Date header (through `probe`, so with the run's
// headers and route) and converts startAtMs (UTC ms, 0 = none) into a monotonic instant.
// `dataset` and `schedule` (trace replay) are replaced by the agent's share. What the user should
// read (the measured offset, the wait) is appended to *notes.
bool prepareShard(const ShardSpec &spec, qint64 startAtMs, RunPlan *plan, LoadedDataset *dataset,
                  QList<qint64> *schedule, EndpointProbe &probe, ShardSetup *out,
                  QStringList *notes, QString *error);
// The "shard" block with the run's start: start_monotonic_ns and start_wall_utc_ns.
QJsonObject shardBlockAt(const ShardSetup &setup, qint64 startMono);

// Adds "raw_records" (shardrecords.h) to a sharded run's result JSON so merge has the records
// themselves, not just their statistics. Does nothing for an unsharded run.
void addRawRecords(QJsonObject *resultJson, const RunReportInput &in);

} // namespace sb
