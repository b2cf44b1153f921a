#include "shardmerge.h"

#include "shardclock.h"
#include "shardrecords.h"

#include "common/version.h"

#include <QJsonArray>
#include <QMap>
#include <QTimeZone>
#include <QUrl>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

struct Agent
{
    const ShardRun *run = nullptr;
    int index = 0;
    ClockAnchor anchor;
    ClockOffset offset;
    qint64 startMono = 0;
    qint64 startUtc = 0; // corrected when offsets are applied
};

qint64 toInt64(const QJsonValue &v)
{
    return v.isString() ? v.toString().toLongLong() : v.toInteger();
}

QString statusOf(const QList<Agent> &agents)
{
    bool failed = false, interrupted = false;
    for (const Agent &a : agents) {
        failed |= a.run->status == "failed"_L1;
        interrupted |= a.run->status != "completed"_L1 && a.run->status != "failed"_L1;
    }
    return failed ? u"failed"_s : interrupted ? u"interrupted"_s : u"completed"_s;
}

} // namespace

bool mergeShardRuns(const QList<ShardRun> &runs, MergedRun *out, QString *error)
{
    if (runs.isEmpty()) {
        *error = u"nothing to merge: give the agents' result files"_s;
        return false;
    }
    QList<Agent> agents;
    QString hash;
    int count = 0;
    QMap<int, QString> seen; // shard index -> source
    for (const ShardRun &r : runs) {
        const QJsonObject s = r.shard();
        Agent a;
        a.run = &r;
        a.index = s.value(u"index"_s).toInt(-1);
        const int n = s.value(u"count"_s).toInt(0);
        const QString h = s.value(u"plan_hash"_s).toString();
        if (a.index < 0 || n < 1 || h.isEmpty() ||
            !ClockAnchor::fromJson(s.value(u"clock"_s).toObject(), &a.anchor)) {
            *error = u"%1: incomplete shard block (index, count, plan_hash, clock)"_s.arg(r.source);
            return false;
        }
        if (hash.isEmpty()) {
            hash = h;
            count = n;
        } else if (h != hash) {
            *error = u"%1 belongs to another plan than %2 (plan hash %3… against %4…): shards "
                     "merge only when every agent ran the same command apart from --shard"_s.arg(
                         r.source, runs.first().source, h.left(12), hash.left(12));
            return false;
        } else if (n != count) {
            *error = u"%1 is a shard of %2 agents, %3 one of %4"_s.arg(r.source)
                         .arg(n)
                         .arg(runs.first().source)
                         .arg(count);
            return false;
        }
        if (a.index >= n) {
            *error = u"%1: shard index %2 is not below the agent count %3"_s.arg(r.source)
                         .arg(a.index)
                         .arg(n);
            return false;
        }
        if (seen.contains(a.index)) {
            *error = u"shard %1/%2 appears twice: %3 and %4"_s.arg(a.index).arg(n).arg(
                seen.value(a.index), r.source);
            return false;
        }
        seen.insert(a.index, r.source);
        a.offset = ClockOffset::fromJson(s.value(u"clock_offset"_s).toObject());
        a.startMono = toInt64(s.value(u"start_monotonic_ns"_s));
        if (a.startMono == 0)
            a.startMono = a.anchor.monoNs;
        agents.append(a);
    }
    QStringList missing;
    for (int i = 0; i < count; ++i)
        if (!seen.contains(i))
            missing.append(QString::number(i));
    if (!missing.isEmpty()) {
        *error = u"shard%1 %2 of %3 %4 missing: a merged run must hold every agent's requests"_s
                     .arg(missing.size() > 1 ? u"s"_s : QString(), missing.join(u", "_s))
                     .arg(count)
                     .arg(missing.size() > 1 ? u"are"_s : u"is"_s);
        return false;
    }
    std::sort(agents.begin(), agents.end(),
              [](const Agent &a, const Agent &b) { return a.index < b.index; });

    // Offsets are applied only when every agent measured one against the same reference host:
    // correcting some agents and not others would put them on different axes.
    QString refHost;
    bool applyOffsets = true;
    for (const Agent &a : agents) {
        const QString host = QUrl(a.offset.reference).authority();
        if (!a.offset.measured() || (!refHost.isEmpty() && host != refHost))
            applyOffsets = false;
        refHost = host;
    }
    auto toAxis = [&](const Agent &a, qint64 mono) {
        return a.anchor.toWall(mono) - (applyOffsets ? a.offset.offsetNs : 0);
    };

    MergedRun m;
    const QJsonObject first = agents.first().run->snapshot;
    const QJsonObject firstShard = agents.first().run->shard();
    m.plan = RunPlan::fromJson(firstShard.value(u"plan"_s).toObject());
    m.datasetInfo = first.value(u"dataset_info"_s).toObject();
    m.datasetHash = m.datasetInfo.value(u"sha256"_s).toString();
    m.offsetsApplied = applyOffsets;
    m.startNs = std::numeric_limits<qint64>::max();
    m.endNs = 0;
    qint64 latestStart = 0;

    QJsonArray shardsJson;
    for (Agent &a : agents) {
        a.startUtc = toAxis(a, a.startMono);
        m.startNs = std::min(m.startNs, a.startUtc);
        latestStart = std::max(latestStart, a.startUtc);
        for (RequestRecord r : a.run->records) {
            if (r.index < 0) {
                *error = u"%1: a record without an index"_s.arg(a.run->source);
                return false;
            }
            r.index = a.index + r.index * count;
            for (qint64 *t :
                 {&r.tSched, &r.tQueued, &r.tDispatch, &r.tSend, &r.tFirst, &r.tLast, &r.tEnd}) {
                if (*t != 0)
                    *t = toAxis(a, *t);
            }
            for (qint64 &t : r.chunkTimes)
                t = toAxis(a, t);
            m.endNs = std::max({m.endNs, r.tEnd, r.tLast, r.tSend});
            m.records.append(r);
        }
        m.hosts.append(a.run->host);
    }
    m.startSkewNs = latestStart - m.startNs;
    if (m.endNs < m.startNs)
        m.endNs = m.startNs;
    std::sort(m.records.begin(), m.records.end(),
              [](const RequestRecord &a, const RequestRecord &b) { return a.index < b.index; });
    for (qsizetype i = 1; i < m.records.size(); ++i) {
        if (m.records.at(i).index == m.records.at(i - 1).index) {
            *error =
                u"request %1 was recorded twice: the shards overlap"_s.arg(m.records.at(i).index);
            return false;
        }
    }
    for (const Agent &a : agents) {
        const QJsonObject s = a.run->shard();
        QJsonObject j{
            {u"index"_s, a.index},
            {u"source"_s, a.run->source},
            {u"host"_s, a.run->host},
            {u"status"_s, a.run->status},
            {u"records"_s, qint64(a.run->records.size())},
            {u"mode"_s, s.value(u"mode"_s)},
            {u"clock"_s, a.anchor.toJson()},
            {u"clock_offset"_s, a.offset.toJson()},
            {u"start_utc_ns"_s, QString::number(a.startUtc)},
            {u"start_delay_ms"_s, double(a.startUtc - m.startNs) / 1e6},
            {u"command"_s, a.run->snapshot.value(u"command"_s)},
        };
        if (s.contains(u"start_at_ms"_s))
            j[u"start_at_ms"_s] = s.value(u"start_at_ms"_s);
        shardsJson.append(j);
    }

    m.status = statusOf(agents);
    m.wallStart = QDateTime::fromMSecsSinceEpoch(m.startNs / 1'000'000, QTimeZone::utc());
    m.wallEnd = QDateTime::fromMSecsSinceEpoch(m.endNs / 1'000'000, QTimeZone::utc());

    QJsonObject snapshot = m.plan.toJson();
    snapshot[u"dataset_info"_s] = m.datasetInfo;
    // One command reproduces the merged run: each agent's command with its own --shard.
    snapshot[u"command"_s] = first.value(u"command"_s)
                                 .toString()
                                 .replace(u"--shard %1/%2"_s.arg(agents.first().index).arg(count),
                                          u"--shard I/%1"_s.arg(count));
    snapshot[u"tool_version"_s] = QString::fromLatin1(toolVersion());
    snapshot[u"merge"_s] = QJsonObject{
        {u"plan_hash"_s, hash},
        {u"agents"_s, count},
        {u"shards"_s, shardsJson},
        {u"start_skew_ms"_s, double(m.startSkewNs) / 1e6},
        {u"clock_offsets_applied"_s, applyOffsets},
        {u"time_axis"_s,
         u"record times are UTC nanoseconds since the Unix epoch: each agent's CLOCK_MONOTONIC "
         "times moved onto CLOCK_REALTIME through the anchor it read at start%1"_s.arg(
             applyOffsets ? u", minus its clock offset against the shared reference"_s
                          : u"; no clock offsets applied (not every agent measured one against "
                            "the same reference), so agents' host clocks are trusted"_s)},
        {u"statistics"_s,
         u"recomputed from the union of the agents' raw records, never averaged"_s},
    };
    m.snapshot = snapshot;
    *out = m;
    return true;
}

} // namespace sb
