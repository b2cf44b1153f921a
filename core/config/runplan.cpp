#include "runplan.h"

#include <QJsonArray>
#include <QUrl>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

template <typename E> struct NameOf
{
    E value;
    const char *name;
};

template <typename E, size_t N> const char *nameFor(const NameOf<E> (&table)[N], E v)
{
    for (const auto &e : table)
        if (e.value == v)
            return e.name;
    return table[0].name;
}

template <typename E, size_t N>
bool valueFor(const NameOf<E> (&table)[N], const QString &name, E *out)
{
    for (const auto &e : table) {
        if (name.compare(QLatin1StringView(e.name), Qt::CaseInsensitive) == 0) {
            *out = e.value;
            return true;
        }
    }
    return false;
}

constexpr NameOf<ApiFlavour> kFlavours[] = {{ApiFlavour::Completions, "openai"},
                                            {ApiFlavour::Chat, "openai-chat"},
                                            {ApiFlavour::Responses, "openai-responses"},
                                            {ApiFlavour::Messages, "anthropic-messages"},
                                            {ApiFlavour::Embeddings, "openai-embeddings"},
                                            {ApiFlavour::Rerank, "vllm-rerank"}};
// Other names for the same flavours: vLLM's default backend, and AIPerf's --endpoint-type.
constexpr NameOf<ApiFlavour> kFlavourAliases[] = {{ApiFlavour::Completions, "vllm"},
                                                  {ApiFlavour::Completions, "openai-completions"},
                                                  {ApiFlavour::Completions, "completions"},
                                                  {ApiFlavour::Chat, "chat"},
                                                  {ApiFlavour::Responses, "responses"},
                                                  {ApiFlavour::Messages, "messages"},
                                                  {ApiFlavour::Embeddings, "infinity-embeddings"},
                                                  {ApiFlavour::Embeddings, "embeddings"},
                                                  {ApiFlavour::Rerank, "rerank"}};
constexpr NameOf<DatasetKind> kKinds[] = {{DatasetKind::Random, "random"},
                                          {DatasetKind::ShareGpt, "sharegpt"},
                                          {DatasetKind::Custom, "custom"}};
constexpr NameOf<LengthDistribution> kDistributions[] = {{LengthDistribution::Uniform, "uniform"},
                                                         {LengthDistribution::Normal, "normal"}};
constexpr NameOf<Scenario> kScenarios[] = {{Scenario::None, "none"},
                                           {Scenario::SingleStream, "single-stream"},
                                           {Scenario::Server, "server"},
                                           {Scenario::Offline, "offline"}};
constexpr NameOf<ArrivalProcess> kArrivals[] = {{ArrivalProcess::Poisson, "poisson"},
                                                {ArrivalProcess::Constant, "constant"},
                                                {ArrivalProcess::Gamma, "gamma"}};

constexpr NameOf<HistoryMode> kHistoryModes[] = {{HistoryMode::Served, "served"},
                                                 {HistoryMode::Reference, "reference"}};
constexpr NameOf<ThinkTimeModel> kThinkTimes[] = {{ThinkTimeModel::None, "none"},
                                                  {ThinkTimeModel::Fixed, "fixed"},
                                                  {ThinkTimeModel::Exponential, "exponential"},
                                                  {ThinkTimeModel::Dataset, "dataset"}};
constexpr NameOf<TraceFormat> kTraceFormats[] = {{TraceFormat::ServeBench, "servebench"},
                                                 {TraceFormat::Mooncake, "mooncake"}};

constexpr NameOf<RampUpStrategy> kRampUps[] = {{RampUpStrategy::None, "none"},
                                               {RampUpStrategy::Linear, "linear"},
                                               {RampUpStrategy::Exponential, "exponential"}};

QJsonValue rateToJson(double r)
{
    if (!(r > 0 && r < 1e300))
        return u"inf"_s;
    return r;
}

double rateFromJson(const QJsonValue &v)
{
    if (v.isString() || v.isNull() || v.isUndefined())
        return std::numeric_limits<double>::infinity();
    return v.toDouble();
}

QJsonArray headersToJson(const HeaderList &h)
{
    QJsonArray a;
    for (const auto &[k, v] : h)
        a.append(QJsonArray{k, v});
    return a;
}

HeaderList headersFromJson(const QJsonArray &a)
{
    HeaderList h;
    for (const auto &e : a) {
        const auto pair = e.toArray();
        if (pair.size() == 2)
            h.append({pair.at(0).toString(), pair.at(1).toString()});
    }
    return h;
}

QJsonObject sloToJson(const Slo &s)
{
    QJsonObject o;
    if (s.ttftMs >= 0)
        o[u"ttft_ms"_s] = s.ttftMs;
    if (s.tpotMs >= 0)
        o[u"tpot_ms"_s] = s.tpotMs;
    if (s.e2elMs >= 0)
        o[u"e2el_ms"_s] = s.e2elMs;
    return o;
}

Slo sloFromJson(const QJsonObject &o)
{
    Slo s;
    s.ttftMs = o.value(u"ttft_ms"_s).toDouble(-1);
    s.tpotMs = o.value(u"tpot_ms"_s).toDouble(-1);
    s.e2elMs = o.value(u"e2el_ms"_s).toDouble(-1);
    return s;
}

} // namespace

const char *apiFlavourName(ApiFlavour f)
{
    return nameFor(kFlavours, f);
}
bool apiFlavourFromName(const QString &name, ApiFlavour *out)
{
    return valueFor(kFlavours, name, out) || valueFor(kFlavourAliases, name, out);
}
const char *datasetKindName(DatasetKind k)
{
    return nameFor(kKinds, k);
}
bool datasetKindFromName(const QString &name, DatasetKind *out)
{
    return valueFor(kKinds, name, out);
}
const char *lengthDistributionName(LengthDistribution d)
{
    return nameFor(kDistributions, d);
}
bool lengthDistributionFromName(const QString &name, LengthDistribution *out)
{
    return valueFor(kDistributions, name, out);
}
const char *scenarioName(Scenario s)
{
    return nameFor(kScenarios, s);
}
bool scenarioFromName(const QString &name, Scenario *out)
{
    return valueFor(kScenarios, name, out);
}
const char *arrivalName(ArrivalProcess a)
{
    return nameFor(kArrivals, a);
}
bool arrivalFromName(const QString &name, ArrivalProcess *out)
{
    return valueFor(kArrivals, name, out);
}
const char *historyModeName(HistoryMode m)
{
    return nameFor(kHistoryModes, m);
}
bool historyModeFromName(const QString &name, HistoryMode *out)
{
    return valueFor(kHistoryModes, name, out);
}
const char *thinkTimeModelName(ThinkTimeModel m)
{
    return nameFor(kThinkTimes, m);
}
bool thinkTimeModelFromName(const QString &name, ThinkTimeModel *out)
{
    return valueFor(kThinkTimes, name, out);
}
const char *traceFormatName(TraceFormat f)
{
    return nameFor(kTraceFormats, f);
}
bool traceFormatFromName(const QString &name, TraceFormat *out)
{
    return valueFor(kTraceFormats, name, out);
}
const char *rampUpStrategyName(RampUpStrategy s)
{
    return nameFor(kRampUps, s);
}
bool rampUpStrategyFromName(const QString &name, RampUpStrategy *out)
{
    return valueFor(kRampUps, name, out);
}

namespace {
// "user:secret@host:3128" reads as scheme "user" to QUrl: give it curl's default scheme first.
QString proxyWithoutPassword(const QString &setting)
{
    const QString s = setting.trimmed();
    if (!s.contains(u'@'))
        return s;
    const QUrl url(s.contains("://"_L1) ? s : u"http://"_s + s);
    return url.adjusted(QUrl::RemovePassword).toString();
}
} // namespace

QJsonObject SutConfig::toJson() const
{
    QJsonObject o{
        {u"name"_s, name},
        {u"base_url"_s, baseUrl},
        {u"endpoint"_s, endpoint},
        {u"backend"_s, QString::fromLatin1(apiFlavourName(flavour))},
        {u"model"_s, model},
        {u"weights_revision"_s, weightsRevision},
        {u"engine"_s, engine},
        {u"engine_version"_s, engineVersion},
        {u"gpu_model"_s, gpuModel},
        {u"gpu_count"_s, gpuCount},
        {u"image"_s, image},
        {u"replicas"_s, replicas},
        {u"containers"_s, containers},
        {u"workers_per_container"_s, workersPerContainer},
        {u"region"_s, region},
        {u"client_location"_s, clientLocation},
        {u"notes"_s, notes},
        {u"api_key_ref"_s, apiKeyRef},
        {u"extra_headers"_s, headersToJson(extraHeaders)},
        {u"built_in_simulator"_s, builtInSimulator},
        {u"ca_file"_s, caFile},
        {u"proxy"_s, proxyWithoutPassword(proxy)},
        {u"simulator"_s, QJsonObject{{u"prefill_ms_per_token"_s, simPrefillMsPerToken},
                                     {u"prefix_cache_blocks"_s, simPrefixCacheBlocks}}},
        {u"server_metrics"_s, serverMetrics.toJson()},
    };
    // Only when set: the manifests of runs without one stay as they were.
    if (!tokenizer.isEmpty())
        o.insert(u"tokenizer"_s, tokenizer);
    if (managed.enabled())
        o.insert(u"managed_server"_s, managed.toJson());
    if (simTtftMs >= 0 || simItlMs >= 0) {
        QJsonObject sim = o.value(u"simulator"_s).toObject();
        if (simTtftMs >= 0)
            sim.insert(u"ttft_ms"_s, simTtftMs);
        if (simItlMs >= 0)
            sim.insert(u"itl_ms"_s, simItlMs);
        o.insert(u"simulator"_s, sim);
    }
    return o;
}

SutConfig SutConfig::fromJson(const QJsonObject &o)
{
    SutConfig s;
    s.name = o.value(u"name"_s).toString();
    s.baseUrl = o.value(u"base_url"_s).toString();
    s.endpoint = o.value(u"endpoint"_s).toString();
    apiFlavourFromName(o.value(u"backend"_s).toString(), &s.flavour);
    s.model = o.value(u"model"_s).toString();
    s.weightsRevision = o.value(u"weights_revision"_s).toString();
    s.engine = o.value(u"engine"_s).toString();
    s.engineVersion = o.value(u"engine_version"_s).toString();
    s.gpuModel = o.value(u"gpu_model"_s).toString();
    s.gpuCount = o.value(u"gpu_count"_s).toInt();
    s.image = o.value(u"image"_s).toString();
    s.replicas = o.value(u"replicas"_s).toInt();
    s.containers = o.value(u"containers"_s).toInt();
    s.workersPerContainer = o.value(u"workers_per_container"_s).toInt();
    s.region = o.value(u"region"_s).toString();
    s.clientLocation = o.value(u"client_location"_s).toString();
    s.notes = o.value(u"notes"_s).toString();
    s.apiKeyRef = o.value(u"api_key_ref"_s).toString();
    s.extraHeaders = headersFromJson(o.value(u"extra_headers"_s).toArray());
    s.builtInSimulator = o.value(u"built_in_simulator"_s).toBool();
    s.caFile = o.value(u"ca_file"_s).toString();
    s.proxy = o.value(u"proxy"_s).toString();
    s.tokenizer = o.value(u"tokenizer"_s).toString();
    const QJsonObject sim = o.value(u"simulator"_s).toObject();
    s.simPrefillMsPerToken = sim.value(u"prefill_ms_per_token"_s).toDouble(-1);
    s.simPrefixCacheBlocks = sim.value(u"prefix_cache_blocks"_s).toInt(-1);
    s.simTtftMs = sim.value(u"ttft_ms"_s).toDouble(-1);
    s.simItlMs = sim.value(u"itl_ms"_s).toDouble(-1);
    // A snapshot from before server metrics reads as the default ("auto", no extra target).
    s.serverMetrics = ServerMetricsConfig::fromJson(o.value(u"server_metrics"_s).toObject());
    s.managed = ManagedServerConfig::fromJson(o.value(u"managed_server"_s).toObject());
    return s;
}

QJsonObject ServerMetricsConfig::toJson() const
{
    QJsonArray a;
    for (const MetricsTarget &t : targets)
        a.append(QJsonObject{{u"name"_s, t.name}, {u"url"_s, t.url}, {u"token_ref"_s, t.tokenRef}});
    return QJsonObject{{u"sut"_s, sut}, {u"targets"_s, a}};
}

ServerMetricsConfig ServerMetricsConfig::fromJson(const QJsonObject &o)
{
    ServerMetricsConfig c;
    c.sut = o.value(u"sut"_s).toString(c.sut);
    for (const QJsonValue &v : o.value(u"targets"_s).toArray()) {
        const QJsonObject t = v.toObject();
        c.targets.append({t.value(u"name"_s).toString(), t.value(u"url"_s).toString(),
                          t.value(u"token_ref"_s).toString()});
    }
    return c;
}

QJsonObject ManagedServerConfig::toJson() const
{
    return QJsonObject{{u"start_command"_s, startCommand},
                       {u"stop_command"_s, stopCommand},
                       {u"health_url"_s, healthUrl},
                       {u"start_timeout_s"_s, startTimeoutS},
                       {u"working_directory"_s, workingDirectory},
                       {u"lifetime"_s, lifetime}};
}

ManagedServerConfig ManagedServerConfig::fromJson(const QJsonObject &o)
{
    ManagedServerConfig c;
    c.startCommand = o.value(u"start_command"_s).toString();
    c.stopCommand = o.value(u"stop_command"_s).toString();
    c.healthUrl = o.value(u"health_url"_s).toString();
    c.startTimeoutS = o.value(u"start_timeout_s"_s).toDouble(c.startTimeoutS);
    c.workingDirectory = o.value(u"working_directory"_s).toString();
    c.lifetime = o.value(u"lifetime"_s).toString(c.lifetime);
    return c;
}

QJsonObject DatasetSpec::toJson() const
{
    QJsonObject o{
        {u"kind"_s, QString::fromLatin1(datasetKindName(kind))},
        {u"path"_s, path},
        {u"version_label"_s, versionLabel},
        {u"random_input_len"_s, randomInputLen},
        {u"random_output_len"_s, randomOutputLen},
        {u"random_range_ratio"_s, randomRangeRatio},
        {u"random_prefix_len"_s, randomPrefixLen},
        {u"sharegpt_output_len"_s, sharegptOutputLen},
        {u"with_replacement"_s, withReplacement},
        {u"random_distribution"_s, QString::fromLatin1(lengthDistributionName(randomDistribution))},
        {u"random_input_stdev"_s, randomInputStdev},
        {u"random_output_stdev"_s, randomOutputStdev},
        {u"random_input_min"_s, randomInputMin},
        {u"random_input_max"_s, randomInputMax},
        {u"random_output_min"_s, randomOutputMin},
        {u"random_output_max"_s, randomOutputMax},
        {u"tokens_per_word"_s, tokensPerWord},
        {u"multi_turn"_s, multiTurn},
        {u"session_turns"_s, sessionTurns},
        {u"session_prefix_len"_s, sessionPrefixLen},
        {u"max_turns"_s, maxTurns},
    };
    // Only when set: datasets without images keep their content (and its hash).
    if (imageCount > 0)
        o.insert(u"images"_s, QJsonObject{{u"count"_s, imageCount},
                                          {u"width"_s, imageWidth},
                                          {u"height"_s, imageHeight},
                                          {u"format"_s, imageFormat},
                                          {u"seed"_s, QString::number(imageSeed)}});
    return o;
}

DatasetSpec DatasetSpec::fromJson(const QJsonObject &o)
{
    DatasetSpec d;
    datasetKindFromName(o.value(u"kind"_s).toString(), &d.kind);
    d.path = o.value(u"path"_s).toString();
    d.versionLabel = o.value(u"version_label"_s).toString();
    d.randomInputLen = o.value(u"random_input_len"_s).toInt(d.randomInputLen);
    d.randomOutputLen = o.value(u"random_output_len"_s).toInt(d.randomOutputLen);
    d.randomRangeRatio = o.value(u"random_range_ratio"_s).toDouble();
    d.randomPrefixLen = o.value(u"random_prefix_len"_s).toInt();
    d.sharegptOutputLen = o.value(u"sharegpt_output_len"_s).toInt(-1);
    d.withReplacement = o.value(u"with_replacement"_s).toBool();
    lengthDistributionFromName(o.value(u"random_distribution"_s).toString(), &d.randomDistribution);
    d.randomInputStdev = o.value(u"random_input_stdev"_s).toInt();
    d.randomOutputStdev = o.value(u"random_output_stdev"_s).toInt();
    d.randomInputMin = o.value(u"random_input_min"_s).toInt(d.randomInputMin);
    d.randomInputMax = o.value(u"random_input_max"_s).toInt();
    d.randomOutputMin = o.value(u"random_output_min"_s).toInt(d.randomOutputMin);
    d.randomOutputMax = o.value(u"random_output_max"_s).toInt();
    d.tokensPerWord = o.value(u"tokens_per_word"_s).toDouble(d.tokensPerWord);
    d.multiTurn = o.value(u"multi_turn"_s).toBool();
    d.sessionTurns = o.value(u"session_turns"_s).toInt(d.sessionTurns);
    d.sessionPrefixLen = o.value(u"session_prefix_len"_s).toInt();
    d.maxTurns = o.value(u"max_turns"_s).toInt();
    if (o.contains(u"images"_s)) {
        const QJsonObject im = o.value(u"images"_s).toObject();
        d.imageCount = im.value(u"count"_s).toInt();
        d.imageWidth = im.value(u"width"_s).toInt(d.imageWidth);
        d.imageHeight = im.value(u"height"_s).toInt(d.imageHeight);
        d.imageFormat = im.value(u"format"_s).toString(d.imageFormat);
        const QJsonValue seed = im.value(u"seed"_s);
        d.imageSeed = seed.isString() ? seed.toString().toLongLong() : seed.toInteger(-1);
    }
    return d;
}

QJsonObject LoadProfile::toJson() const
{
    QJsonArray pcts;
    for (double p : metricPercentiles)
        pcts.append(p);
    QJsonArray metrics;
    for (const auto &m : percentileMetrics)
        metrics.append(m);
    QJsonObject o{
        {u"scenario"_s, QString::fromLatin1(scenarioName(scenario))},
        {u"arrival"_s, QString::fromLatin1(arrivalName(arrival))},
        {u"request_rate"_s, rateToJson(requestRate)},
        {u"burstiness"_s, burstiness},
        {u"ramp_up_strategy"_s, QString::fromLatin1(rampUpStrategyName(rampUpStrategy))},
        {u"ramp_up_start_rps"_s, rampUpStartRps},
        {u"ramp_up_end_rps"_s, rampUpEndRps},
        {u"trace_path"_s, tracePath},
        {u"trace_time_scale"_s, traceTimeScale},
        {u"trace_format"_s, QString::fromLatin1(traceFormatName(traceFormat))},
        {u"trace_block_size"_s, traceBlockSize},
        {u"max_concurrency"_s, maxConcurrency},
        {u"closed_loop_concurrency"_s, closedLoopConcurrency},
        {u"num_prompts"_s, numPrompts},
        {u"duration_s"_s, durationS},
        {u"warmup_requests"_s, warmupRequests},
        {u"warmup_seconds"_s, warmupSeconds},
        // A string: a 64-bit seed does not survive a JSON double.
        {u"seed"_s, QString::number(seed)},
        {u"goodput"_s, sloToJson(goodput)},
        {u"timeout_s"_s, timeoutS},
        {u"connection_mode"_s, connectionMode},
        {u"idle_timeout_s"_s, idleTimeoutS},
        {u"response_caps"_s, QJsonObject{{u"head_bytes"_s, maxHeadBytes},
                                         {u"event_bytes"_s, maxEventBytes},
                                         {u"body_bytes"_s, maxBodyBytes}}},
        {u"max_error_rate"_s, maxErrorRate},
        {u"cache_bust"_s, cacheBust},
        {u"metric_percentiles"_s, pcts},
        {u"percentile_metrics"_s, metrics},
        {u"mlperf"_s, QJsonObject{{u"preset"_s, mlperfPreset},
                                  {u"slo_percentile"_s, sloPercentile},
                                  {u"ttft_slo_ms"_s, ttftSloMs},
                                  {u"tpot_slo_ms"_s, tpotSloMs},
                                  {u"min_query_count"_s, QString::number(minQueryCount)},
                                  {u"min_duration_s"_s, minDurationS}}},
        {u"sessions"_s,
         QJsonObject{{u"rate"_s, rateToJson(sessionRate)},
                     {u"users"_s, sessionUsers},
                     {u"count"_s, numSessions},
                     {u"history"_s, QString::fromLatin1(historyModeName(history))},
                     {u"think_time"_s, QString::fromLatin1(thinkTimeModelName(thinkTime))},
                     {u"think_time_ms"_s, thinkTimeMs},
                     {u"affinity_header"_s, sessionHeader}}},
        {u"metrics_interval_s"_s, metricsIntervalS},
    };
    // Only when set: profiles stored before cache policies keep their content (and its hash).
    if (cacheReset)
        o.insert(u"cache_reset"_s,
                 QJsonObject{{u"enabled"_s, true}, {u"fallback"_s, cacheResetFallback}});
    // Only when set: profiles of one item per request keep their content (and its hash).
    if (batchSize != 1)
        o.insert(u"batch_size"_s, batchSize);
    // Only when set: plans without a cancellation load keep their content (and its hash).
    if (cancels()) {
        QJsonObject c{{u"rate_percent"_s, cancelRatePct}};
        if (cancelAfterTokens > 0)
            c.insert(u"after_tokens"_s, cancelAfterTokens);
        else
            c.insert(u"delay_s"_s, cancelDelayS);
        o.insert(u"request_cancellation"_s, c);
    }
    return o;
}

LoadProfile LoadProfile::fromJson(const QJsonObject &o)
{
    LoadProfile p;
    scenarioFromName(o.value(u"scenario"_s).toString(), &p.scenario);
    arrivalFromName(o.value(u"arrival"_s).toString(), &p.arrival);
    p.requestRate = rateFromJson(o.value(u"request_rate"_s));
    p.burstiness = o.value(u"burstiness"_s).toDouble(1.0);
    rampUpStrategyFromName(o.value(u"ramp_up_strategy"_s).toString(), &p.rampUpStrategy);
    p.rampUpStartRps = o.value(u"ramp_up_start_rps"_s).toDouble();
    p.rampUpEndRps = o.value(u"ramp_up_end_rps"_s).toDouble();
    p.tracePath = o.value(u"trace_path"_s).toString();
    p.traceTimeScale = o.value(u"trace_time_scale"_s).toDouble(1.0);
    traceFormatFromName(o.value(u"trace_format"_s).toString(), &p.traceFormat);
    p.traceBlockSize = o.value(u"trace_block_size"_s).toInt(p.traceBlockSize);
    p.maxConcurrency = o.value(u"max_concurrency"_s).toInt();
    p.closedLoopConcurrency = o.value(u"closed_loop_concurrency"_s).toInt();
    p.batchSize = o.value(u"batch_size"_s).toInt(1);
    p.numPrompts = o.value(u"num_prompts"_s).toInt(p.numPrompts);
    p.durationS = o.value(u"duration_s"_s).toDouble();
    p.warmupRequests = o.value(u"warmup_requests"_s).toInt();
    p.warmupSeconds = o.value(u"warmup_seconds"_s).toDouble();
    const auto seed = o.value(u"seed"_s);
    p.seed = seed.isString() ? seed.toString().toULongLong() : quint64(seed.toInteger());
    p.goodput = sloFromJson(o.value(u"goodput"_s).toObject());
    p.timeoutS = o.value(u"timeout_s"_s).toDouble(p.timeoutS);
    p.connectionMode = o.value(u"connection_mode"_s).toString(p.connectionMode);
    p.idleTimeoutS = o.value(u"idle_timeout_s"_s).toDouble(0);
    const QJsonObject caps = o.value(u"response_caps"_s).toObject();
    p.maxHeadBytes = caps.value(u"head_bytes"_s).toInteger(-1);
    p.maxEventBytes = caps.value(u"event_bytes"_s).toInteger(-1);
    p.maxBodyBytes = caps.value(u"body_bytes"_s).toInteger(-1);
    p.maxErrorRate = o.value(u"max_error_rate"_s).toDouble(-1);
    p.cacheBust = o.value(u"cache_bust"_s).toBool();
    if (o.contains(u"cache_reset"_s)) {
        const QJsonObject r = o.value(u"cache_reset"_s).toObject();
        p.cacheReset = r.value(u"enabled"_s).toBool();
        p.cacheResetFallback = r.value(u"fallback"_s).toString(u"refuse"_s);
    }
    if (o.contains(u"request_cancellation"_s)) {
        const QJsonObject c = o.value(u"request_cancellation"_s).toObject();
        p.cancelRatePct = c.value(u"rate_percent"_s).toDouble();
        p.cancelDelayS = c.value(u"delay_s"_s).toDouble();
        p.cancelAfterTokens = c.value(u"after_tokens"_s).toInt();
    }
    if (o.contains(u"metric_percentiles"_s)) {
        p.metricPercentiles.clear();
        for (const auto &v : o.value(u"metric_percentiles"_s).toArray())
            p.metricPercentiles.append(v.toDouble());
    }
    if (o.contains(u"percentile_metrics"_s)) {
        p.percentileMetrics.clear();
        for (const auto &v : o.value(u"percentile_metrics"_s).toArray())
            p.percentileMetrics.append(v.toString());
    }
    const QJsonObject ml = o.value(u"mlperf"_s).toObject();
    p.mlperfPreset = ml.value(u"preset"_s).toString();
    p.sloPercentile = ml.value(u"slo_percentile"_s).toDouble(-1);
    p.ttftSloMs = ml.value(u"ttft_slo_ms"_s).toDouble(-1);
    p.tpotSloMs = ml.value(u"tpot_slo_ms"_s).toDouble(-1);
    p.minQueryCount = ml.value(u"min_query_count"_s).toString().toLongLong();
    p.minDurationS = ml.value(u"min_duration_s"_s).toDouble();
    const QJsonObject ss = o.value(u"sessions"_s).toObject();
    p.sessionRate = rateFromJson(ss.value(u"rate"_s));
    p.sessionUsers = ss.value(u"users"_s).toInt();
    p.numSessions = ss.value(u"count"_s).toInt(p.numSessions);
    historyModeFromName(ss.value(u"history"_s).toString(), &p.history);
    thinkTimeModelFromName(ss.value(u"think_time"_s).toString(), &p.thinkTime);
    p.thinkTimeMs = ss.value(u"think_time_ms"_s).toDouble();
    p.sessionHeader = ss.value(u"affinity_header"_s).toString();
    p.metricsIntervalS = o.value(u"metrics_interval_s"_s).toDouble(p.metricsIntervalS);
    return p;
}

QJsonObject RequestParams::toJson() const
{
    QJsonObject o{{u"ignore_eos"_s, ignoreEos}, {u"extra_body"_s, extraBody}};
    if (temperature >= 0)
        o[u"temperature"_s] = temperature;
    if (seed >= 0)
        o[u"seed"_s] = QString::number(seed);
    if (thinkingBudgetTokens > 0)
        o[u"thinking_budget_tokens"_s] = thinkingBudgetTokens;
    return o;
}

RequestParams RequestParams::fromJson(const QJsonObject &o)
{
    RequestParams r;
    r.ignoreEos = o.value(u"ignore_eos"_s).toBool();
    r.temperature = o.value(u"temperature"_s).toDouble(-1);
    const QJsonValue seed = o.value(u"seed"_s);
    r.seed = seed.isString()   ? seed.toString().toLongLong()
             : seed.isDouble() ? seed.toInteger()
                               : -1;
    r.thinkingBudgetTokens = o.value(u"thinking_budget_tokens"_s).toInt(-1);
    r.extraBody = o.value(u"extra_body"_s).toObject();
    return r;
}

QJsonObject RunPlan::toJson() const
{
    return scrubSecrets(QJsonObject{
        {u"name"_s, name},
        {u"sut"_s, sut.toJson()},
        {u"dataset"_s, dataset.toJson()},
        {u"load_profile"_s, profile.toJson()},
        {u"request_params"_s, params.toJson()},
    });
}

RunPlan RunPlan::fromJson(const QJsonObject &o)
{
    RunPlan p;
    p.name = o.value(u"name"_s).toString();
    p.sut = SutConfig::fromJson(o.value(u"sut"_s).toObject());
    p.dataset = DatasetSpec::fromJson(o.value(u"dataset"_s).toObject());
    p.profile = LoadProfile::fromJson(o.value(u"load_profile"_s).toObject());
    p.params = RequestParams::fromJson(o.value(u"request_params"_s).toObject());
    return p;
}

bool requestCancelledByLoad(const LoadProfile &profile, qint64 index)
{
    if (!profile.cancels() || index < 0)
        return false;
    if (profile.cancelRatePct >= 100)
        return true;
    // splitmix64 over (seed, index): a pure function of the two, independent of the schedule's
    // and the dataset's draws from the same seed (the salt keeps the streams apart).
    quint64 z = profile.seed ^ 0xC2B2AE3D27D4EB4Full;
    z += 0x9E3779B97F4A7C15ull * (quint64(index) + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const double u = double(z >> 11) * 0x1.0p-53; // uniform in [0, 1)
    return u * 100.0 < profile.cancelRatePct;
}

QString cancellationPointText(const LoadProfile &profile)
{
    if (!profile.cancels())
        return {};
    if (profile.cancelAfterTokens > 0)
        return profile.cancelAfterTokens == 1
                   ? u"after 1 token"_s
                   : u"after %1 tokens"_s.arg(profile.cancelAfterTokens);
    return u"%1 s after the request was written"_s.arg(profile.cancelDelayS, 0, 'g', 6);
}

bool looksLikeSecretKey(const QString &key)
{
    const QString k = key.toLower();
    static const char *const kParts[] = {"authorization", "api-key",    "api_key",
                                         "apikey",        "secret",     "password",
                                         "access_token",  "auth_token", "bearer"};
    for (const char *part : kParts)
        if (k.contains(QLatin1StringView(part)))
            return true;
    return k == "token"_L1 || k == "key"_L1;
}

bool looksLikeSecretHeader(const QString &name)
{
    const QString n = name.toLower();
    return looksLikeSecretKey(n) || n.contains("token"_L1) || n.contains("key"_L1);
}

bool isApiKeyReference(const QString &headerValue)
{
    return headerValue.contains(kApiKeyPlaceholder);
}

namespace {
bool looksLikeSecretValue(const QString &v)
{
    if (isApiKeyReference(v))
        return false;
    return v.startsWith("Bearer "_L1, Qt::CaseInsensitive) || v.startsWith("sk-"_L1);
}

QJsonValue scrubValue(const QJsonValue &v);

QJsonArray scrubArray(const QJsonArray &a)
{
    // Header lists are [name, value] pairs: a credential header is dropped whole.
    if (a.size() == 2 && a.at(0).isString() && a.at(1).isString() &&
        !isApiKeyReference(a.at(1).toString()) &&
        (looksLikeSecretHeader(a.at(0).toString()) || looksLikeSecretValue(a.at(1).toString())))
        return QJsonArray{a.at(0), u"<redacted>"_s};
    QJsonArray out;
    for (const auto &e : a)
        out.append(scrubValue(e));
    return out;
}

QJsonValue scrubValue(const QJsonValue &v)
{
    if (v.isObject())
        return scrubSecrets(v.toObject());
    if (v.isArray())
        return scrubArray(v.toArray());
    if (v.isString() && looksLikeSecretValue(v.toString()))
        return u"<redacted>"_s;
    return v;
}
} // namespace

QJsonObject scrubSecrets(const QJsonObject &o)
{
    QJsonObject out;
    for (auto it = o.begin(); it != o.end(); ++it) {
        // api_key_ref only names where the key lives; it is not a secret.
        if (it.key() != "api_key_ref"_L1 && looksLikeSecretKey(it.key()) && it.value().isString())
            out[it.key()] = u"<redacted>"_s;
        else
            out[it.key()] = scrubValue(it.value());
    }
    return out;
}

} // namespace sb
