#include "planvalidation.h"

#include "run/managedserver.h"

#include "client/connectionmode.h"
#include "load/mlperfprofile.h"
#include "run/metricsplan.h"
#include "run/runrequest.h"

#include <QUrl>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QString num(double v)
{
    return QString::number(v, 'g', 10);
}

class Issues
{
public:
    void add(const char *field, const char *id, const QStringList &args = {})
    {
        m_list.append({QString::fromLatin1(field), Message(id, args)});
    }
    QList<PlanIssue> m_list;
};

bool finiteIn(double v, double lo, double hi)
{
    return std::isfinite(v) && v >= lo && v <= hi;
}

void checkRate(Issues &is, const char *field, double rate, bool infAllowed)
{
    // LoadProfile reads a rate of 0 as unlimited, like inf (the workbench's "unlimited").
    if ((std::isinf(rate) && rate > 0) || rate == 0) {
        if (!infAllowed)
            is.add(field, "plan.rate.finite");
        return;
    }
    if (!finiteIn(rate, limits::kMinRate, limits::kMaxRate))
        is.add(field, infAllowed ? "plan.rate.range_or_inf" : "plan.rate.range",
               {num(limits::kMinRate), num(limits::kMaxRate)});
}

bool isTokenChar(QChar c)
{
    if (c.unicode() > 126 || c.unicode() <= 32)
        return false;
    return !QStringView(u"\"(),/:;<=>?@[\\]{}").contains(c);
}

void checkUrl(Issues &is, const char *field, const QString &text)
{
    const QUrl url(text);
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != "http"_L1 && url.scheme() != "https"_L1)) {
        is.add(field, "plan.url.invalid", {text});
        return;
    }
    if (!url.userInfo().isEmpty())
        is.add(field, "plan.url.credentials");
    for (QChar c : text)
        if (c.unicode() < 32 || c.unicode() == 127 || c == u' ') {
            is.add(field, "plan.url.control");
            return;
        }
}

} // namespace

QString PlanIssue::text() const
{
    return field + u": "_s + message.text();
}

bool validHeader(const QString &name, const QString &value, Message *why)
{
    if (name.isEmpty()) {
        *why = Message("plan.header.empty_name");
        return false;
    }
    for (QChar c : name)
        if (!isTokenChar(c)) {
            *why = Message("plan.header.bad_name", {name});
            return false;
        }
    for (QChar c : value)
        if (c == u'\r' || c == u'\n' || c == QChar(0)) {
            *why = Message("plan.header.bad_value", {name});
            return false;
        }
    return true;
}

QList<PlanIssue> validateRunRequest(const RunRequest &request)
{
    Issues is;
    const RunPlan &plan = request.plan;
    const SutConfig &sut = plan.sut;
    const LoadProfile &p = plan.profile;
    const DatasetSpec &d = plan.dataset;
    const RequestParams &rp = plan.params;

    // --- the SUT: what reaches the wire ---
    if (!sut.builtInSimulator) {
        if (sut.baseUrl.isEmpty())
            is.add("base-url", "plan.url.missing");
        else
            checkUrl(is, "base-url", sut.baseUrl);
    }
    if (!sut.endpoint.isEmpty() && !sut.endpoint.startsWith("http://"_L1) &&
        !sut.endpoint.startsWith("https://"_L1)) {
        for (QChar c : sut.endpoint)
            if (c.unicode() <= 32 || c.unicode() == 127) {
                is.add("endpoint", "plan.endpoint.control");
                break;
            }
    } else if (!sut.endpoint.isEmpty()) {
        checkUrl(is, "endpoint", sut.endpoint);
    }
    for (const auto &[name, value] : sut.extraHeaders) {
        Message why;
        if (!validHeader(name, value, &why))
            is.m_list.append({u"header"_s, why});
    }
    if (!sut.proxy.isEmpty() && sut.proxy.compare("none"_L1, Qt::CaseInsensitive) != 0) {
        const QString proxy = sut.proxy.trimmed();
        const QUrl url(proxy.contains("://"_L1) ? proxy : u"http://"_s + proxy);
        if (!url.password().isEmpty())
            is.add("proxy", "plan.proxy.password");
    }

    // --- counts and times ---
    const bool durationBound = p.durationS > 0;
    if (!durationBound && (p.numPrompts < 1 || p.numPrompts > limits::kMaxRequests))
        is.add("num-prompts", "plan.num_prompts.range", {QString::number(limits::kMaxRequests)});
    if (durationBound && p.numPrompts > limits::kMaxRequests)
        is.add("num-prompts", "plan.num_prompts.range", {QString::number(limits::kMaxRequests)});
    if (p.durationS < 0 || !std::isfinite(p.durationS) || p.durationS > limits::kMaxSpanS)
        is.add("duration", "plan.duration.range", {num(limits::kMaxSpanS)});
    if (p.warmupRequests < 0)
        is.add("warmup-requests", "plan.not_negative");
    else if (!durationBound && p.numPrompts > 0 && p.warmupRequests > limits::kMaxRequests)
        is.add("warmup-requests", "plan.num_prompts.range",
               {QString::number(limits::kMaxRequests)});
    if (!(p.warmupSeconds >= 0) || !std::isfinite(p.warmupSeconds) ||
        p.warmupSeconds > limits::kMaxSpanS)
        is.add("warmup-seconds", "plan.duration.range", {num(limits::kMaxSpanS)});
    else if (durationBound && p.warmupSeconds >= p.durationS)
        is.add("warmup-seconds", "plan.warmup_seconds.whole_run");
    if (p.maxErrorRate >= 0 && !(p.maxErrorRate < 1))
        is.add("max-error-rate", "plan.max_error_rate.range");
    if (std::isnan(p.maxErrorRate))
        is.add("max-error-rate", "plan.max_error_rate.range");
    // The cancellation load (docs/metrics.md, "Cancelled by the load").
    if (!finiteIn(p.cancelRatePct, 0, 100))
        is.add("request-cancellation-rate", "plan.cancel.rate");
    if (!finiteIn(p.cancelDelayS, 0, limits::kMaxTimeoutS))
        is.add("request-cancellation-delay", "plan.cancel.delay", {num(limits::kMaxTimeoutS)});
    if (p.cancelAfterTokens < 0 || p.cancelAfterTokens > limits::kMaxTokens)
        is.add("request-cancellation-after-tokens", "plan.cancel.tokens",
               {QString::number(limits::kMaxTokens)});
    if (p.cancelAfterTokens > 0 && p.cancelDelayS > 0)
        is.add("request-cancellation-after-tokens", "plan.cancel.both");
    if (!p.cancels()) {
        if (p.cancelDelayS > 0)
            is.add("request-cancellation-delay", "plan.cancel.needs_rate");
        if (p.cancelAfterTokens > 0)
            is.add("request-cancellation-after-tokens", "plan.cancel.needs_rate");
    } else if (p.scenario != Scenario::None) {
        is.add("request-cancellation-rate", "plan.cancel.mlperf");
    }
    if (!finiteIn(p.timeoutS, 0.001, limits::kMaxTimeoutS))
        is.add("timeout", "plan.timeout.range", {num(limits::kMaxTimeoutS)});
    if (ConnectionMode mode; !connectionModeFromName(p.connectionMode, &mode))
        is.add("connection-mode", "plan.connection_mode.name", {p.connectionMode});
    if (p.idleTimeoutS != 0 && !finiteIn(p.idleTimeoutS, 0.001, limits::kMaxTimeoutS))
        is.add("idle-timeout", "plan.idle_timeout.range", {num(limits::kMaxTimeoutS)});
    for (const auto &[flag, cap] : {std::pair{"max-head-bytes", p.maxHeadBytes},
                                    std::pair{"max-event-bytes", p.maxEventBytes},
                                    std::pair{"max-body-bytes", p.maxBodyBytes}})
        if (cap != -1 && cap != 0 &&
            !(cap >= limits::kMinResponseCapBytes && cap <= limits::kMaxResponseCapBytes))
            is.add(flag, "plan.response_cap.range",
                   {QString::number(limits::kMinResponseCapBytes),
                    QString::number(limits::kMaxResponseCapBytes)});

    // --- the arrival process ---
    const bool searching = request.mode == RunMode::MaxValidRate;
    const bool ramp = p.rampUpStrategy != RampUpStrategy::None;
    const bool trace = !p.tracePath.isEmpty();
    checkRate(is, "request-rate", p.requestRate, true);
    if (!finiteIn(p.burstiness, limits::kMinBurstiness, limits::kMaxBurstiness))
        is.add("burstiness", "plan.burstiness.range",
               {num(limits::kMinBurstiness), num(limits::kMaxBurstiness)});
    if (ramp) {
        checkRate(is, "ramp-up-start-rps", p.rampUpStartRps, false);
        checkRate(is, "ramp-up-end-rps", p.rampUpEndRps, false);
        // A ramp-up climbs; a falling rate is no ramp-up.
        if (p.rampUpEndRps < p.rampUpStartRps)
            is.add("ramp-up-end-rps", "plan.ramp.down");
    }
    if (p.maxConcurrency < 0 || p.maxConcurrency > limits::kMaxConcurrency)
        is.add("max-concurrency", "plan.concurrency.range",
               {QString::number(limits::kMaxConcurrency)});
    if (p.closedLoopConcurrency < 0 || p.closedLoopConcurrency > limits::kMaxConcurrency)
        is.add("concurrency", "plan.concurrency.range", {QString::number(limits::kMaxConcurrency)});
    if (p.closedLoopConcurrency > 0 && p.maxConcurrency > 0)
        is.add("concurrency", "plan.concurrency.both");
    if (!(p.traceTimeScale >= 0) || p.traceTimeScale > limits::kMaxTraceTimeScale)
        is.add("trace-time-scale", "plan.trace_time_scale.range",
               {num(limits::kMaxTraceTimeScale)});
    if (trace && ramp)
        is.add("trace", "plan.trace.with_ramp");

    // A schedule must fit its nanosecond offsets: the expected span of an open-loop run.
    if (!p.unlimitedRate() && !ramp && !trace && p.requestRate >= limits::kMinRate) {
        const double n = durationBound ? 0 : double(p.numPrompts) + p.warmupRequests;
        if (n / p.requestRate > limits::kMaxSpanS)
            is.add("request-rate", "plan.rate.span",
                   {num(n), num(p.requestRate), num(limits::kMaxSpanS / 86400)});
    }
    if (ramp && p.rampUpStartRps >= limits::kMinRate && p.rampUpEndRps >= limits::kMinRate &&
        !durationBound) {
        const double slowest = std::min(p.rampUpStartRps, p.rampUpEndRps);
        if (double(p.numPrompts) / slowest > limits::kMaxSpanS)
            is.add("ramp-up-start-rps", "plan.rate.span",
                   {num(p.numPrompts), num(slowest), num(limits::kMaxSpanS / 86400)});
    }

    const bool closedLoop = p.closedLoopConcurrency > 0 || p.scenario == Scenario::SingleStream;
    // (A session workload's duration is checked with its session rate, below.)
    if (durationBound && p.unlimitedRate() && !ramp && !trace && p.maxConcurrency <= 0 &&
        p.closedLoopConcurrency <= 0 && p.scenario != Scenario::SingleStream &&
        !plan.isSessionWorkload())
        is.add("duration", "plan.duration.unlimited_rate");
    if (p.warmupSeconds > 0 && p.unlimitedRate() && !ramp && !trace && !closedLoop &&
        !(durationBound && p.maxConcurrency > 0))
        is.add("warmup-seconds", "plan.warmup_seconds.unlimited_rate");

    // --- scenarios ---
    switch (p.scenario) {
    case Scenario::Server:
        if (p.unlimitedRate() && !ramp && !searching)
            is.add("request-rate", "plan.server.finite_rate");
        if (p.arrival != ArrivalProcess::Poisson)
            is.add("arrival", "plan.server.poisson");
        if (p.closedLoopConcurrency > 0)
            is.add("concurrency", "plan.server.closed_loop");
        break;
    case Scenario::Offline:
        if (!p.unlimitedRate())
            is.add("request-rate", "plan.offline.rate");
        break;
    case Scenario::SingleStream:
        if (p.closedLoopConcurrency > 1 || p.maxConcurrency > 1)
            is.add("concurrency", "plan.single_stream.concurrency");
        break;
    case Scenario::None:
        break;
    }
    if (p.scenario != Scenario::None || searching) {
        MlperfConstraints c;
        QString why;
        if (!p.mlperfPreset.isEmpty() && !mlperfConstraintsForProfile(p, &c, &why))
            is.add("mlperf-preset", "plan.mlperf.preset", {p.mlperfPreset});
    }
    if (p.sloPercentile > 0 && p.sloPercentile >= 100)
        is.add("slo-percentile", "plan.slo_percentile.range");
    if (p.minQueryCount < 0)
        is.add("min-query-count", "plan.not_negative");
    if (p.minDurationS < 0 || !std::isfinite(p.minDurationS))
        is.add("min-duration", "plan.not_negative");

    // --- measurement ---
    for (double pct : p.metricPercentiles)
        if (!finiteIn(pct, 0, 100)) {
            is.add("metric-percentiles", "plan.percentile.range", {num(pct)});
            break;
        }
    for (const QString &m : p.percentileMetrics)
        if (m != "ttft"_L1 && m != "tpot"_L1 && m != "itl"_L1 && m != "e2el"_L1) {
            is.add("percentile-metrics", "plan.percentile_metrics.unknown", {m});
            break;
        }
    for (double slo : {p.goodput.ttftMs, p.goodput.tpotMs, p.goodput.e2elMs})
        if (!std::isfinite(slo) || (slo >= 0 && slo > 1e9)) {
            is.add("goodput", "plan.goodput.range");
            break;
        }
    if (p.ttftSloMs > 1e9 || !std::isfinite(p.ttftSloMs))
        is.add("ttft-slo-ms", "plan.goodput.range");
    if (p.tpotSloMs > 1e9 || !std::isfinite(p.tpotSloMs))
        is.add("tpot-slo-ms", "plan.goodput.range");

    // --- dataset ---
    if (d.kind != DatasetKind::Random && d.path.isEmpty() && !trace)
        is.add("dataset-path", "plan.dataset.path_missing",
               {QString::fromLatin1(datasetKindName(d.kind))});
    if (d.randomInputLen < 1 || d.randomInputLen > limits::kMaxTokens)
        is.add("random-input-len", "plan.tokens.range", {QString::number(limits::kMaxTokens)});
    if (d.randomOutputLen < 1 || d.randomOutputLen > limits::kMaxTokens)
        is.add("random-output-len", "plan.tokens.range", {QString::number(limits::kMaxTokens)});
    if (!(d.randomRangeRatio >= 0 && d.randomRangeRatio < 1))
        is.add("random-range-ratio", "plan.range_ratio.range");
    if (d.randomPrefixLen < 0 || d.randomPrefixLen > limits::kMaxTokens)
        is.add("random-prefix-len", "plan.tokens.range", {QString::number(limits::kMaxTokens)});
    if (d.sharegptOutputLen > limits::kMaxTokens)
        is.add("sharegpt-output-len", "plan.tokens.range", {QString::number(limits::kMaxTokens)});

    // --- embeddings and rerank (docs/metrics.md, "Embeddings and rerank") ---
    const bool pooling = apiFlavourIsPooling(sut.flavour);
    if (p.batchSize < 1 || p.batchSize > limits::kMaxBatchSize)
        is.add("random-batch-size", "plan.batch.range", {QString::number(limits::kMaxBatchSize)});
    else if (p.batchSize > 1 && !pooling)
        is.add("random-batch-size", "plan.batch.not_pooling");
    if (pooling) {
        if (plan.isSessionWorkload())
            is.add("multi-turn", "plan.pooling.sessions");
        if (p.cancelAfterTokens > 0)
            is.add("request-cancellation-after-tokens", "plan.pooling.streamed");
        if (p.goodput.ttftMs >= 0 || p.goodput.tpotMs >= 0)
            is.add("goodput", "plan.pooling.streamed");
        if (p.scenario != Scenario::None || searching)
            is.add(searching ? "find-max-valid-rate" : "scenario", "plan.pooling.mlperf");
        if (request.isSharded() && plan.itemsPerRequest() > 1)
            is.add("shard", "plan.pooling.shard");
    }

    // --- images in prompts (docs/datasets.md, "Images in prompts") ---
    if (d.imageCount < 0 || d.imageCount > limits::kMaxImagesPerRequest)
        is.add("image-count", "plan.images.count", {QString::number(limits::kMaxImagesPerRequest)});
    if (d.imageCount > 0) {
        if (d.imageWidth < 1 || d.imageWidth > limits::kMaxImageSide)
            is.add("image-width", "plan.images.size", {QString::number(limits::kMaxImageSide)});
        if (d.imageHeight < 1 || d.imageHeight > limits::kMaxImageSide)
            is.add("image-height", "plan.images.size", {QString::number(limits::kMaxImageSide)});
        if (d.imageFormat != "png"_L1)
            is.add("image-format", "plan.images.format", {d.imageFormat});
        if (!apiFlavourTakesImages(sut.flavour))
            is.add("image-count", "plan.images.flavour",
                   {QString::fromLatin1(apiFlavourName(sut.flavour))});
        if (plan.isSessionWorkload())
            is.add("image-count", "plan.images.sessions");
        if (trace)
            is.add("image-count", "plan.images.trace");
        // Every request's images are drawn before the run: RGB, about 4/3 of it as base64.
        const double requests = durationBound ? 1000.0 : double(std::max(1, p.numPrompts));
        const double bytes = requests * d.imageCount * double(std::max(1, d.imageWidth)) *
                             double(std::max(1, d.imageHeight)) * 3.0 * 4.0 / 3.0;
        if (bytes > double(limits::kMaxImageMemoryBytes))
            is.add("image-count", "plan.images.memory",
                   {num(std::ceil(bytes / 1048576.0)), num(requests), num(d.imageCount),
                    num(d.imageWidth), num(d.imageHeight),
                    num(double(limits::kMaxImageMemoryBytes) / 1048576.0)});
    }

    // --- sessions (docs/sessions.md) ---
    const bool sessions = plan.isSessionWorkload();
    if (sessions) {
        // MLPerf scenarios, sweeps and rate searches are about single requests at a rate.
        if (p.scenario != Scenario::None)
            is.add("scenario", "plan.sessions.mlperf");
        if (p.cancels())
            is.add("request-cancellation-rate", "plan.cancel.sessions");
        if (request.mode == RunMode::Sweep)
            is.add("sweep", "plan.sessions.search");
        if (searching)
            is.add("find-max-valid-rate", "plan.sessions.search");
        if (trace)
            is.add("trace", "plan.sessions.trace");
        if (ramp)
            is.add("ramp-up-strategy", "plan.sessions.ramp");
        if (!p.unlimitedRate())
            is.add("request-rate", "plan.sessions.request_rate");
        if (p.closedLoopConcurrency > 0)
            is.add("concurrency", "plan.sessions.concurrency");
        if (p.warmupRequests > 0)
            is.add("warmup-requests", "plan.sessions.warmup");
        if (p.warmupSeconds > 0)
            is.add("warmup-seconds", "plan.sessions.warmup");
        if (request.isSharded())
            is.add("shard", "plan.sessions.shard");
        checkRate(is, "session-rate", p.sessionRate, true);
        if (p.sessionUsers < 0 || p.sessionUsers > limits::kMaxConcurrency)
            is.add("users", "plan.concurrency.range", {QString::number(limits::kMaxConcurrency)});
        const bool finiteSessionRate = p.sessionRate > 0 && p.sessionRate < 1e300;
        if (p.sessionUsers > 0 && finiteSessionRate)
            is.add("users", "plan.sessions.users_and_rate");
        if (!durationBound && (p.numSessions < 1 || p.numSessions > limits::kMaxRequests))
            is.add("num-sessions", "plan.num_prompts.range",
                   {QString::number(limits::kMaxRequests)});
        if (durationBound && !finiteSessionRate && p.sessionUsers <= 0)
            is.add("duration", "plan.sessions.duration");
        if (finiteSessionRate && !durationBound &&
            p.numSessions / p.sessionRate > limits::kMaxSpanS)
            is.add("session-rate", "plan.rate.span",
                   {num(p.numSessions), num(p.sessionRate), num(limits::kMaxSpanS / 86400)});
        if (d.kind == DatasetKind::Random &&
            (d.sessionTurns < 1 || d.sessionTurns > limits::kMaxSessionTurns))
            is.add("session-turns", "plan.sessions.turns",
                   {QString::number(limits::kMaxSessionTurns)});
        if (d.sessionPrefixLen < 0 || d.sessionPrefixLen > limits::kMaxTokens)
            is.add("session-prefix-len", "plan.tokens.range",
                   {QString::number(limits::kMaxTokens)});
        if (d.maxTurns < 0 || d.maxTurns > limits::kMaxSessionTurns)
            is.add("max-turns", "plan.sessions.max_turns",
                   {QString::number(limits::kMaxSessionTurns)});
        if (!finiteIn(p.thinkTimeMs, 0, limits::kMaxSpanS * 1000))
            is.add("think-time-ms", "plan.think_time.range", {num(limits::kMaxSpanS * 1000)});
        else if (p.thinkTime == ThinkTimeModel::Exponential && !(p.thinkTimeMs > 0))
            is.add("think-time-ms", "plan.think_time.mean");
        if (p.thinkTime == ThinkTimeModel::Dataset && d.kind != DatasetKind::Custom)
            is.add("think-time", "plan.think_time.dataset",
                   {QString::fromLatin1(datasetKindName(d.kind))});
        if (!p.sessionHeader.isEmpty()) {
            Message why;
            if (!validHeader(p.sessionHeader, QString(), &why))
                is.m_list.append({u"session-header"_s, why});
        }
    } else {
        // Session settings on a single-request plan would be silently ignored: say so.
        if (p.sessionUsers > 0)
            is.add("users", "plan.sessions.not_sessions");
        if (p.sessionRate > 0 && p.sessionRate < 1e300)
            is.add("session-rate", "plan.sessions.not_sessions");
        if (p.thinkTime != ThinkTimeModel::None)
            is.add("think-time", "plan.sessions.not_sessions");
        if (!p.sessionHeader.isEmpty())
            is.add("session-header", "plan.sessions.not_sessions");
    }
    if (trace && p.traceFormat == TraceFormat::Mooncake &&
        (p.traceBlockSize < 1 || p.traceBlockSize > limits::kMaxTokens))
        is.add("trace-block-size", "plan.tokens.range", {QString::number(limits::kMaxTokens)});

    // --- a managed server (docs/managed-servers.md) and the cache policy ---
    if (sut.managed.enabled()) {
        if (sut.builtInSimulator)
            is.add("server-start-cmd", "plan.managed.builtin");
        if (!sut.managed.healthUrl.isEmpty())
            checkUrl(is, "server-health-url", sut.managed.healthUrl);
        if (const QString secret = literalSecretIn(sut.managed.startCommand); !secret.isEmpty())
            is.add("server-start-cmd", "plan.managed.secret", {secret});
        if (const QString secret = literalSecretIn(sut.managed.stopCommand); !secret.isEmpty())
            is.add("server-stop-cmd", "plan.managed.secret", {secret});
        if (!(sut.managed.startTimeoutS > 0 && sut.managed.startTimeoutS <= 86400))
            is.add("server-start-timeout", "plan.managed.timeout", {u"86400"_s});
        // "candidate" is a study's: it keeps the server up across a candidate's cells.
        if (sut.managed.lifetime != "session"_L1 && sut.managed.lifetime != "run"_L1 &&
            !(sut.managed.lifetime == "candidate"_L1 && request.frontEnd == "study"_L1))
            is.add("server-lifetime", "plan.managed.lifetime", {sut.managed.lifetime});
    }
    if (p.cacheReset && p.cacheResetFallback != "refuse"_L1 && p.cacheResetFallback != "bust"_L1)
        is.add("cache-reset-fallback", "plan.cache.fallback", {p.cacheResetFallback});

    // --- the built-in simulator's engine model ---
    if ((sut.simTtftMs >= 0 || sut.simItlMs >= 0) && !sut.builtInSimulator)
        is.add(sut.simTtftMs >= 0 ? "sim-ttft-ms" : "sim-itl-ms", "plan.sim.not_builtin");
    if (sut.simTtftMs > 600000 || sut.simItlMs > 600000)
        is.add(sut.simTtftMs > 600000 ? "sim-ttft-ms" : "sim-itl-ms", "plan.sim.timing");
    if (sut.simPrefillMsPerToken >= 0 || sut.simPrefixCacheBlocks >= 0) {
        if (!sut.builtInSimulator)
            is.add(sut.simPrefillMsPerToken >= 0 ? "sim-prefill-ms-per-token"
                                                 : "sim-prefix-cache-blocks",
                   "plan.sim.not_builtin");
        if (!(sut.simPrefillMsPerToken <= limits::kMaxPrefillMsPerToken))
            is.add("sim-prefill-ms-per-token", "plan.sim.prefill",
                   {num(limits::kMaxPrefillMsPerToken)});
        if (sut.simPrefixCacheBlocks > limits::kMaxCacheBlocks)
            is.add("sim-prefix-cache-blocks", "plan.sim.cache_blocks",
                   {QString::number(limits::kMaxCacheBlocks)});
    }

    // --- request parameters ---
    if (rp.temperature >= 0 && !(rp.temperature <= 100))
        is.add("temperature", "plan.temperature.range");
    if (!std::isfinite(rp.temperature))
        is.add("temperature", "plan.temperature.range");

    // --- execution ---
    if (request.mode == RunMode::Sweep &&
        (request.sweepRates < 0 || request.sweepRates > limits::kMaxSweepRates))
        is.add("sweep", "plan.sweep.range", {QString::number(limits::kMaxSweepRates)});
    if (searching) {
        if (!(request.rateTolerance > 0 && request.rateTolerance < 1))
            is.add("rate-tolerance", "plan.rate_tolerance.range");
        if (p.scenario != Scenario::Server)
            is.add("find-max-valid-rate", "plan.search.server");
        if (p.ttftSloMs < 0 && p.tpotSloMs < 0 && p.mlperfPreset.isEmpty())
            is.add("find-max-valid-rate", "plan.search.bounds");
    }
    if (!finiteIn(request.saturationWindowS, 5, limits::kMaxSpanS))
        is.add("saturation-window", "plan.saturation_window.range");
    if (request.numRuns < 1 || request.numRuns > limits::kMaxSeriesRuns)
        is.add("num-runs", "plan.num_runs.range", {QString::number(limits::kMaxSeriesRuns)});
    else if (request.numRuns > 1 && request.mode != RunMode::Single)
        is.add("num-runs", "plan.num_runs.single");
    if (request.isSharded()) {
        if (request.mode != RunMode::Single || request.numRuns > 1)
            is.add("shard", "plan.shard.single");
        if (request.shard.count > 1 && sut.builtInSimulator)
            is.add("shard", "plan.shard.simulator");
    }
    validateServerMetrics(plan, &is.m_list);
    return is.m_list;
}

} // namespace sb
