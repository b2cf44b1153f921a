#include "shardagent.h"

#include "runoptions.h"
#include "runreport.h"
#include "shardrecords.h"
#include "shardspec.h"

#include "data/dataset.h"

#include <QHostInfo>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace sb::cli {

namespace {
constexpr qint64 kMsNs = 1'000'000;
// A start time this far in the past is a mistake (a stale ConfigMap), not a late pod.
constexpr qint64 kStartAtLateLimitNs = 2'000 * kMsNs;
} // namespace

bool prepareShard(const RunCliOptions &opts, RunPlan *plan, LoadedDataset *dataset,
                  QList<qint64> *schedule, const QByteArray &apiKey, ShardSetup *out,
                  QString *error)
{
    QTextStream err(stderr);
    ShardSetup setup;
    setup.active = true;
    const ShardSpec spec{opts.shardIndex, opts.shardCount};
    if (spec.isSharded()) {
        if (opts.sweep > 0 || opts.findMaxValidRate) {
            *error = u"--shard runs one plan; sweeps and rate searches are not sharded"_s;
            return false;
        }
        if (plan->sut.builtInSimulator) {
            *error = u"--shard needs an endpoint all agents share (--base-url): without one each "
                     "agent would benchmark its own built-in simulator"_s;
            return false;
        }
    }
    const RunPlan full = *plan;
    ShardAssignment a;
    if (!assignShard(spec, full, dataset->items, *schedule, &a, error))
        return false;
    if (spec.isSharded() && a.plan.name.isEmpty())
        a.plan.name = u"shard %1"_s.arg(spec.text());
    else if (spec.isSharded())
        a.plan.name += u" shard %1"_s.arg(spec.text());

    QList<QPair<QByteArray, QByteArray>> headers;
    if (!apiKey.isEmpty())
        headers.append({"Authorization", "Bearer " + apiKey});
    for (const auto &[k, v] : full.sut.extraHeaders)
        headers.append({k.toUtf8(), v.toUtf8()});
    QString base = full.sut.baseUrl;
    if (base.endsWith("/v1"_L1))
        base.chop(3);
    TransportOptions route;
    if (!resolveTransportOptions(full.sut, QProcessEnvironment::systemEnvironment(), &route, error))
        return false;
    const ClockOffset offset =
        measureHttpDateOffset(QUrl(base + u"/v1/models"_s), headers, route, 2500);
    if (offset.measured())
        err << "Clock offset against " << offset.reference << " (HTTP Date, " << offset.method
            << "): " << QString::number(double(offset.offsetNs) / 1e6, 'f', 1) << " ms ± "
            << QString::number(double(offset.uncertaintyNs) / 1e6, 'f', 1) << " ms\n";
    else
        err << offset.note << "\n";

    setup.anchor = ClockAnchor::now();
    QJsonObject block = a.toJson();
    block[u"plan_hash"_s] = shardPlanHash(full, dataset->info.sha256);
    block[u"plan"_s] = full.toJson();
    block[u"host"_s] = QHostInfo::localHostName();
    block[u"clock"_s] = setup.anchor.toJson();
    block[u"clock_offset"_s] = offset.toJson();
    if (opts.startAtMs > 0) {
        const qint64 target = opts.startAtMs * kMsNs;
        const qint64 now = setup.anchor.wallNs;
        if (now - target > kStartAtLateLimitNs) {
            *error =
                u"--start-at %1 passed %2 s ago: give a time in the future"_s.arg(opts.startAtMs)
                    .arg(double(now - target) / 1e9, 0, 'f', 1);
            return false;
        }
        setup.startAtMono = setup.anchor.toMono(target);
        block[u"start_at_ms"_s] = QString::number(opts.startAtMs);
        err << "Waiting for --start-at " << opts.startAtMs << " ("
            << QString::number(double(target - now) / 1e9, 'f', 1) << " s)\n";
    }
    err.flush();
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
    (*resultJson)[u"raw_records"_s] = rawRecordsJson(in.records, anchor.monoNs);
    (*resultJson)[u"raw_records_time_base"_s] =
        u"ns after config_snapshot.shard.clock.monotonic_ns (the agent's CLOCK_MONOTONIC)"_s;
}

} // namespace sb::cli
