#include "shardagent.h"

#include "shardrecords.h"
#include "shardspec.h"

#include "data/dataset.h"
#include "report/runreport.h"

#include <QHostInfo>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr qint64 kMsNs = 1'000'000;
// A start time this far in the past is a mistake (a stale ConfigMap), not a late pod.
constexpr qint64 kStartAtLateLimitNs = 2'000 * kMsNs;
} // namespace

bool prepareShard(const ShardSpec &spec, qint64 startAtMs, RunPlan *plan, LoadedDataset *dataset,
                  QList<qint64> *schedule, EndpointProbe &probe, ShardSetup *out,
                  QStringList *notes, QString *error)
{
    ShardSetup setup;
    setup.active = true;
    const RunPlan full = *plan;
    ShardAssignment a;
    if (!assignShard(spec, full, dataset->items, *schedule, &a, error))
        return false;
    if (spec.isSharded() && a.plan.name.isEmpty())
        a.plan.name = u"shard %1"_s.arg(spec.text());
    else if (spec.isSharded())
        a.plan.name += u" shard %1"_s.arg(spec.text());

    const ClockOffset offset = measureHttpDateOffset(probe, u"/v1/models"_s, 2500);
    if (offset.measured())
        notes->append(u"Clock offset against %1 (HTTP Date, %2): %3 ms ± %4 ms"_s.arg(
            offset.reference, offset.method, QString::number(double(offset.offsetNs) / 1e6, 'f', 1),
            QString::number(double(offset.uncertaintyNs) / 1e6, 'f', 1)));
    else
        notes->append(offset.note);

    setup.anchor = ClockAnchor::now();
    QJsonObject block = a.toJson();
    block[u"plan_hash"_s] = shardPlanHash(full, dataset->info.sha256);
    block[u"plan"_s] = full.toJson();
    block[u"host"_s] = QHostInfo::localHostName();
    block[u"clock"_s] = setup.anchor.toJson();
    block[u"clock_offset"_s] = offset.toJson();
    if (startAtMs > 0) {
        const qint64 target = startAtMs * kMsNs;
        const qint64 now = setup.anchor.wallNs;
        if (now - target > kStartAtLateLimitNs) {
            *error =
                u"--start-at %1 passed %2 s ago: give a time in the future"_s.arg(startAtMs).arg(
                    double(now - target) / 1e9, 0, 'f', 1);
            return false;
        }
        setup.startAtMono = setup.anchor.toMono(target);
        block[u"start_at_ms"_s] = QString::number(startAtMs);
        notes->append(u"Waiting for --start-at %1 (%2 s)"_s.arg(startAtMs).arg(
            double(target - now) / 1e9, 0, 'f', 1));
    }
    setup.block = block;

    *plan = a.plan;
    dataset->items = a.items;
    *schedule = a.schedule;
    *out = setup;
    return true;
}

QJsonObject shardBlockAt(const ShardSetup &setup, qint64 startMono)
{
    QJsonObject b = setup.block;
    b[u"start_monotonic_ns"_s] = QString::number(startMono);
    b[u"start_wall_utc_ns"_s] = QString::number(setup.anchor.toWall(startMono));
    return b;
}

void addRawRecords(QJsonObject *resultJson, const RunReportInput &in)
{
    const QJsonObject shard = in.snapshot.value(u"shard"_s).toObject();
    if (shard.isEmpty())
        return;
    ClockAnchor anchor;
    if (!ClockAnchor::fromJson(shard.value(u"clock"_s).toObject(), &anchor))
        return;
    (*resultJson)[u"raw_records"_s] = rawRecordsJson(in.records.list(), anchor.monoNs);
    (*resultJson)[u"raw_records_time_base"_s] =
        u"ns after config_snapshot.shard.clock.monotonic_ns (the agent's CLOCK_MONOTONIC)"_s;
}

} // namespace sb
