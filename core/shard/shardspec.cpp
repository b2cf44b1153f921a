#include "shardspec.h"

#include "load/rng.h"
#include "load/schedule.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace sb {

QString ShardSpec::text() const
{
    return u"%1/%2"_s.arg(index).arg(count);
}

bool ShardSpec::parse(const QString &text, ShardSpec *out, QString *error)
{
    static const QRegularExpression re(u"^\\s*(\\d{1,6})\\s*/\\s*(\\d{1,6})\\s*$"_s);
    const auto m = re.match(text);
    if (!m.hasMatch()) {
        *error = u"--shard expects I/N (agent I of N, 0-based), got '%1'"_s.arg(text);
        return false;
    }
    const int i = m.captured(1).toInt();
    const int n = m.captured(2).toInt();
    if (n < 1 || i >= n) {
        *error = u"--shard I/N needs 0 <= I < N, got '%1'"_s.arg(text);
        return false;
    }
    out->index = i;
    out->count = n;
    return true;
}

const char *shardModeName(ShardMode m)
{
    switch (m) {
    case ShardMode::PoissonSplit:
        return "poisson-split";
    case ShardMode::Interleave:
        return "interleave";
    case ShardMode::ConcurrencySplit:
        return "concurrency-split";
    }
    return "interleave";
}

int shardShare(int total, int index, int count)
{
    if (total <= index)
        return 0;
    return (total - index + count - 1) / count;
}

QJsonObject ShardAssignment::toJson() const
{
    return QJsonObject{
        {u"index"_s, spec.index},
        {u"count"_s, spec.count},
        {u"mode"_s, QString::fromLatin1(shardModeName(mode))},
        {u"warmup_requests"_s, warmupRequests},
        {u"measured_requests"_s, measuredRequests},
        // How an agent's record maps back onto the plan: global index = index + local * count.
        {u"index_map"_s, u"global = index + local * count"_s},
    };
}

QString shardPlanHash(const RunPlan &full, const QString &datasetSha256)
{
    QJsonObject o = full.toJson();
    o[u"dataset_sha256"_s] = datasetSha256;
    // Compact QJsonDocument output has sorted keys, so the bytes are the same on every agent.
    const QByteArray bytes = QJsonDocument(o).toJson(QJsonDocument::Compact);
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

namespace {

bool isClosedLoop(const LoadProfile &p)
{
    return p.closedLoopConcurrency > 0 || p.scenario == Scenario::SingleStream ||
           (p.durationS > 0 && p.unlimitedRate());
}

bool isPoisson(const LoadProfile &p)
{
    if (p.scenario == Scenario::Offline || p.unlimitedRate() || !p.tracePath.isEmpty() ||
        p.rampUpStrategy != RampUpStrategy::None)
        return false;
    // The Server scenario always draws Poisson arrivals (RunController), whatever --arrival says.
    return p.scenario == Scenario::Server || p.arrival == ArrivalProcess::Poisson ||
           (p.arrival == ArrivalProcess::Gamma && p.burstiness == 1.0);
}

// Agent `index`'s share of `total` slots when each agent needs at least one.
int splitSlots(int total, int index, int count)
{
    return total / count + (index < total % count ? 1 : 0);
}

} // namespace

bool assignShard(const ShardSpec &spec, const RunPlan &full, const QList<PromptItem> &items,
                 const QList<qint64> &traceSchedule, ShardAssignment *out, QString *error)
{
    const LoadProfile &p = full.profile;
    const int n = spec.count;
    const int me = spec.index;
    if (items.isEmpty()) {
        *error = u"the dataset has no prompts"_s;
        return false;
    }
    if (p.scenario == Scenario::SingleStream) {
        *error = u"--shard cannot divide the single-stream scenario: it issues one query at a "
                 "time by definition"_s;
        return false;
    }
    ShardAssignment a;
    a.spec = spec;
    a.plan = full;
    LoadProfile &mine = a.plan.profile;

    const bool closed = isClosedLoop(p) && traceSchedule.isEmpty();
    if (closed)
        a.mode = ShardMode::ConcurrencySplit;
    else if (isPoisson(p) && traceSchedule.isEmpty())
        a.mode = ShardMode::PoissonSplit;
    else
        a.mode = ShardMode::Interleave;

    if (a.mode == ShardMode::Interleave && (p.durationS > 0 || p.warmupSeconds > 0)) {
        *error = u"--shard with --duration or --warmup-seconds needs Poisson arrivals or a closed "
                 "loop: a %1 schedule is divided request by request, so give --num-prompts and "
                 "--warmup-requests instead"_s.arg(!traceSchedule.isEmpty() ? u"trace"_s
                                                   : p.unlimitedRate()      ? u"unlimited-rate"_s
                                                                            : u"non-Poisson"_s);
        return false;
    }

    // Requests: the plan's warm-ups come first (global indices 0..W-1), then the measured ones.
    const int totalWarmup = std::max(0, p.warmupRequests);
    const int totalMeasured = !traceSchedule.isEmpty() ? int(traceSchedule.size()) - totalWarmup
                                                       : std::max(0, p.numPrompts);
    const int total = totalWarmup + totalMeasured;
    if (p.durationS <= 0 && totalMeasured < n) {
        *error = u"--shard %1: the plan has %2 measured requests, fewer than the %3 agents"_s
                     .arg(spec.text())
                     .arg(totalMeasured)
                     .arg(n);
        return false;
    }
    a.warmupRequests = shardShare(totalWarmup, me, n);
    a.measuredRequests = shardShare(total, me, n) - a.warmupRequests;
    mine.warmupRequests = a.warmupRequests;
    mine.numPrompts = p.durationS > 0 && p.numPrompts <= 0 ? p.numPrompts : a.measuredRequests;

    // A duration-bound run has no fixed count: items are cycled by local index, so the agent
    // takes every N-th item of a long enough list.
    const int localCount = p.durationS > 0
                               ? std::max<int>(int(items.size()), shardShare(total, me, n))
                               : shardShare(total, me, n);
    for (int i = 0; i < localCount; ++i)
        a.items.append(items.at(int((qint64(me) + qint64(i) * n) % items.size())));

    auto splitConcurrency = [&](int c, const char *flag) {
        if (c <= 0)
            return true;
        if (c < n) {
            *error = u"--shard %1: %2 %3 leaves some of the %4 agents without a slot"_s
                         .arg(spec.text(), QString::fromLatin1(flag))
                         .arg(c)
                         .arg(n);
            return false;
        }
        return true;
    };
    if (!splitConcurrency(p.closedLoopConcurrency, "--concurrency") ||
        !splitConcurrency(p.maxConcurrency, "--max-concurrency"))
        return false;
    if (p.closedLoopConcurrency > 0)
        mine.closedLoopConcurrency = splitSlots(p.closedLoopConcurrency, me, n);
    if (p.maxConcurrency > 0)
        mine.maxConcurrency = splitSlots(p.maxConcurrency, me, n);
    if (p.minQueryCount > 0)
        mine.minQueryCount = shardShare(int(p.minQueryCount), me, n);

    switch (a.mode) {
    case ShardMode::PoissonSplit:
        mine.requestRate = p.requestRate / n;
        mine.seed = deriveSeed(p.seed, kShardStreamBase + quint64(me));
        break;
    case ShardMode::Interleave: {
        QList<qint64> global = traceSchedule;
        if (global.isEmpty()) {
            LoadProfile sched = p;
            if (sched.scenario == Scenario::Offline)
                sched.requestRate = std::numeric_limits<double>::infinity();
            global = buildSchedule(sched, total, p.seed); // what RunController would compute
            if (global.size() != total) {
                *error = scheduleError(sched);
                return false;
            }
        }
        for (int k = me; k < global.size(); k += n)
            a.schedule.append(global.at(k));
        if (!traceSchedule.isEmpty())
            mine.numPrompts = int(a.schedule.size()) - a.warmupRequests;
        break;
    }
    case ShardMode::ConcurrencySplit:
        break;
    }
    *out = a;
    return true;
}

} // namespace sb
