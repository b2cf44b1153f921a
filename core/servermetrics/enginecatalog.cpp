#include "enginecatalog.h"

#include <QHash>
#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// Where each name was checked (see docs/server-metrics.md for the full table).
const QString kVllm = u"vllm-project/vllm vllm/v1/metrics/loggers.py (PrometheusStatLogger); "
                      "docs/design/metrics.md @0328b592"_s;
const QString kVllmOld =
    u"vllm-project/vllm vllm/v1/metrics/loggers.py @a6f0308c (before the renames)"_s;
const QString kSglang = u"sgl-project/sglang python/sglang/srt/metrics/collector.py @93d04878"_s;
const QString kSglangDoc = u"sgl-project/sglang docs/references/production_metrics.md @40ef116f"_s;
const QString kTgi = u"huggingface/text-generation-inference router/src/server.rs, "
                     "backends/v3/src/{backend,queue}.rs @db931fcf"_s;
const QString kTrtllm =
    u"NVIDIA/TensorRT-LLM triton_backend/all_models/inflight_batcher_llm/"
    "tensorrt_llm/1/model.py @89fd9b74; tensorrtllm_backend README.md @0b9d7d5a"_s;
const QString kTritonCore = u"triton-inference-server/core src/metrics.cc @aa7283d2"_s;
const QString kTritonDoc = u"triton-inference-server/server docs/user_guide/metrics.md @e1db8a60, "
                           "qa/L0_metrics/histogram_metrics_test.py"_s;
const QString kDcgm = u"NVIDIA/dcgm-exporter etc/default-counters.csv @d5e5f510"_s;

SeriesSelector sel(const char *name, const QString &source, double scale = 1.0,
                   const QString &note = {},
                   const QList<QPair<QByteArray, QByteArray>> &labels = {})
{
    SeriesSelector s;
    s.name = name;
    s.labels = labels;
    s.scale = scale;
    s.source = source;
    s.note = note;
    return s;
}

QList<SeriesSelector> gpuSelectors(ServerQuantity q)
{
    switch (q) {
    case ServerQuantity::GpuUtil:
        return {sel("DCGM_FI_DEV_GPU_UTIL", kDcgm, 1.0, u"percent"_s),
                sel("nv_gpu_utilization", kTritonCore, 100.0, u"a fraction 0..1"_s)};
    case ServerQuantity::PowerW:
        return {sel("DCGM_FI_DEV_POWER_USAGE", kDcgm), sel("nv_gpu_power_usage", kTritonCore)};
    case ServerQuantity::EnergyJ:
        return {
            sel("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", kDcgm, 1e-3, u"millijoules since boot"_s),
            sel("nv_energy_consumption", kTritonCore, 1.0,
                u"joules since the Triton server started"_s)};
    case ServerQuantity::FbUsedBytes:
        return {sel("DCGM_FI_DEV_FB_USED", kDcgm, 1048576.0, u"MiB"_s),
                sel("nv_gpu_memory_used_bytes", kTritonCore)};
    default:
        return {};
    }
}

QList<SeriesSelector> vllm(ServerQuantity q)
{
    using Q = ServerQuantity;
    switch (q) {
    case Q::Running:
        return {sel("vllm:num_requests_running", kVllm)};
    case Q::Waiting:
        return {sel("vllm:num_requests_waiting", kVllm)};
    case Q::KvCacheUsage:
        return {sel("vllm:kv_cache_usage_perc", kVllm),
                sel("vllm:gpu_cache_usage_perc", kVllmOld, 1.0,
                    u"older name, deprecated for vllm:kv_cache_usage_perc"_s)};
    case Q::PreemptionsTotal:
        return {sel("vllm:num_preemptions_total", kVllm)};
    case Q::PromptTokensTotal:
        return {sel("vllm:prompt_tokens_total", kVllm)};
    case Q::GenerationTokensTotal:
        return {sel("vllm:generation_tokens_total", kVllm)};
    case Q::PrefixCacheQueries:
        return {sel("vllm:prefix_cache_queries_total", kVllm, 1.0, u"tokens"_s),
                sel("vllm:gpu_prefix_cache_queries_total", kVllmOld, 1.0,
                    u"older name; early V1 releases counted blocks, not tokens"_s)};
    case Q::PrefixCacheHits:
        return {sel("vllm:prefix_cache_hits_total", kVllm, 1.0, u"tokens"_s),
                sel("vllm:gpu_prefix_cache_hits_total", kVllmOld, 1.0,
                    u"older name; early V1 releases counted blocks, not tokens"_s)};
    case Q::RequestsTotal:
        return {sel("vllm:request_success_total", kVllm, 1.0,
                    u"finished requests, every finished_reason"_s)};
    case Q::Ttft:
        return {sel("vllm:time_to_first_token_seconds", kVllm, 1.0,
                    u"from the request's arrival in the frontend"_s)};
    case Q::Itl:
        return {sel("vllm:inter_token_latency_seconds", kVllm),
                sel("vllm:time_per_output_token_seconds", kVllmOld, 1.0,
                    u"older name, deprecated in 0.11 for vllm:inter_token_latency_seconds"_s)};
    case Q::E2e:
        return {sel("vllm:e2e_request_latency_seconds", kVllm)};
    default:
        return {};
    }
}

QList<SeriesSelector> sglang(ServerQuantity q)
{
    using Q = ServerQuantity;
    switch (q) {
    case Q::Running:
        return {sel("sglang:num_running_reqs", kSglang)};
    case Q::Waiting:
        return {sel("sglang:num_queue_reqs", kSglang)};
    case Q::KvCacheUsage:
        return {sel("sglang:token_usage", kSglang, 1.0, u"fraction of the KV token pool in use"_s)};
    case Q::PreemptionsTotal:
        return {sel("sglang:num_retracted_requests_total", kSglang, 1.0,
                    u"retractions (SGLang's preemption); a counter in recent releases only"_s)};
    case Q::PromptTokensTotal:
        return {sel("sglang:prompt_tokens_total", kSglang)};
    case Q::GenerationTokensTotal:
        return {sel("sglang:generation_tokens_total", kSglang)};
    case Q::PrefixCacheQueries:
        return {sel("sglang:prompt_tokens_total", kSglang, 1.0,
                    u"every prompt token is looked up in the radix cache"_s)};
    case Q::PrefixCacheHits:
        return {sel("sglang:cached_tokens_total", kSglang, 1.0,
                    u"prompt tokens served from the radix cache"_s)};
    case Q::RequestsTotal:
        return {sel("sglang:num_requests_total", kSglang)};
    case Q::Ttft:
        return {sel("sglang:time_to_first_token_seconds", kSglang)};
    case Q::Itl:
        return {sel("sglang:inter_token_latency_seconds", kSglang),
                sel("sglang:time_per_output_token_seconds", kSglangDoc, 1.0, u"older name"_s)};
    case Q::E2e:
        return {sel("sglang:e2e_request_latency_seconds", kSglang)};
    default:
        return {};
    }
}

QList<SeriesSelector> tgi(ServerQuantity q)
{
    using Q = ServerQuantity;
    switch (q) {
    case Q::Running:
        return {sel("tgi_batch_current_size", kTgi, 1.0, u"requests in the running batch"_s)};
    case Q::Waiting:
        return {sel("tgi_queue_size", kTgi)};
    case Q::PromptTokensTotal:
        return {sel("tgi_request_input_length_sum", kTgi, 1.0,
                    u"sum of the per-request input-length histogram (successful requests)"_s)};
    case Q::GenerationTokensTotal:
        return {sel("tgi_request_generated_tokens_sum", kTgi, 1.0,
                    u"sum of the per-request generated-tokens histogram (successful requests)"_s)};
    case Q::RequestsTotal:
        return {sel("tgi_request_success", kTgi)};
    case Q::Itl:
        return {sel("tgi_request_mean_time_per_token_duration", kTgi, 1.0,
                    u"one observation per request: its mean time per token (a TPOT), not every "
                    "gap"_s)};
    case Q::E2e:
        return {sel("tgi_request_duration", kTgi)};
    default:
        return {}; // TGI exports no KV usage, preemptions, prefix-cache counters or TTFT
    }
}

QList<SeriesSelector> triton(ServerQuantity q, bool trtllm)
{
    using Q = ServerQuantity;
    const QList<QPair<QByteArray, QByteArray>> none;
    switch (q) {
    case Q::Running:
        if (trtllm)
            return {sel("nv_trt_llm_request_metrics", kTrtllm, 1.0,
                        u"request_type=\"active\": requests in the executor"_s,
                        {{"request_type", "active"}})};
        return {};
    case Q::Waiting: {
        QList<SeriesSelector> out;
        if (trtllm)
            out.append(
                sel("nv_trt_llm_request_metrics", kTrtllm, 1.0, {}, {{"request_type", "waiting"}}));
        out.append(sel("nv_inference_pending_request_count", kTritonDoc, 1.0,
                       u"requests queued in Triton before the backend"_s));
        return out;
    }
    case Q::KvCacheUsage:
        if (trtllm)
            return {sel("nv_trt_llm_kv_cache_block_metrics", kTrtllm, 1.0,
                        u"kv_cache_block_type=\"fraction\": used blocks / max blocks"_s,
                        {{"kv_cache_block_type", "fraction"}})};
        return {};
    case Q::PromptTokensTotal:
        if (trtllm)
            return {sel("nv_llm_input_token_len_sum", kTrtllm, 1.0,
                        u"sum of the per-request input-length histogram"_s,
                        {{"response_metric_type", "total_input_tokens"}})};
        return {};
    case Q::GenerationTokensTotal:
        if (trtllm)
            return {sel("nv_llm_output_token_len_sum", kTrtllm, 1.0,
                        u"sum of the per-request output-length histogram"_s,
                        {{"response_metric_type", "total_output_tokens"}})};
        return {};
    case Q::RequestsTotal:
        return {sel("nv_inference_request_success", kTritonCore)};
    case Q::Ttft:
        return {sel("nv_inference_first_response_histogram_ms", kTritonDoc, 1e-3,
                    u"milliseconds; only with --metrics-config histogram_latencies=true"_s)};
    case Q::E2e: {
        SeriesSelector s = sel("nv_inference_request_duration_us", kTritonCore, 1e-6,
                               u"cumulative microseconds over successful requests: a mean, "
                               "no quantiles"_s);
        s.countName = "nv_inference_request_success";
        return {s};
    }
    default:
        return {};
    }
}

bool labelsMatch(const MetricSeriesStore::Series &s,
                 const QList<QPair<QByteArray, QByteArray>> &want)
{
    for (const auto &w : want) {
        bool found = false;
        for (const auto &l : s.labels) {
            if (l.first == w.first) {
                found = l.second == w.second;
                break;
            }
        }
        if (!found)
            return false;
    }
    return true;
}

QList<const MetricSeriesStore::Series *>
matching(const MetricSeriesStore &store, const QByteArray &name,
         const QList<QPair<QByteArray, QByteArray>> &labels)
{
    QList<const MetricSeriesStore::Series *> out;
    const QList<const MetricSeriesStore::Series *> named = store.seriesNamed(name);
    for (const MetricSeriesStore::Series *s : named) {
        if (labelsMatch(*s, labels))
            out.append(s);
    }
    return out;
}

} // namespace

const char *serverEngineName(ServerEngine engine)
{
    switch (engine) {
    case ServerEngine::Unknown:
        return "unknown";
    case ServerEngine::Vllm:
        return "vllm";
    case ServerEngine::Sglang:
        return "sglang";
    case ServerEngine::Tgi:
        return "tgi";
    case ServerEngine::TritonTrtllm:
        return "trtllm";
    case ServerEngine::Triton:
        return "triton";
    case ServerEngine::Dcgm:
        return "dcgm";
    }
    return "unknown";
}

const char *serverQuantityName(ServerQuantity q)
{
    static constexpr const char *kNames[ServerQuantityCount] = {
        "running",
        "waiting",
        "kv_cache_usage",
        "preemptions_total",
        "prompt_tokens_total",
        "generation_tokens_total",
        "prefix_cache_queries",
        "prefix_cache_hits",
        "requests_total",
        "ttft",
        "itl",
        "e2e",
        "gpu_util",
        "power_w",
        "energy_j",
        "fb_used_bytes",
    };
    const int i = int(q);
    return i >= 0 && i < ServerQuantityCount ? kNames[i] : "unknown";
}

ServerEngine EngineCatalog::detect(const QList<QByteArray> &sampleNames)
{
    int vllm = 0, sglang = 0, tgi = 0, trtllm = 0, triton = 0, dcgm = 0;
    for (const QByteArray &n : sampleNames) {
        if (n.startsWith("vllm:"))
            ++vllm;
        else if (n.startsWith("sglang:"))
            ++sglang;
        else if (n.startsWith("tgi_"))
            ++tgi;
        else if (n.startsWith("nv_trt_llm_") || n.startsWith("nv_llm_"))
            ++trtllm;
        else if (n.startsWith("nv_inference_") || n.startsWith("nv_gpu_") ||
                 n == "nv_energy_consumption")
            ++triton;
        else if (n.startsWith("DCGM_FI_"))
            ++dcgm;
    }
    // Triton's vLLM backend exports vllm:* names beside nv_inference_*: the engine's own
    // names decide. Triton's names alone mean Triton; GPU names alone, an exporter.
    if (trtllm)
        return ServerEngine::TritonTrtllm;
    if (vllm || sglang || tgi) {
        if (vllm >= sglang && vllm >= tgi)
            return ServerEngine::Vllm;
        return sglang >= tgi ? ServerEngine::Sglang : ServerEngine::Tgi;
    }
    if (triton)
        return ServerEngine::Triton;
    if (dcgm)
        return ServerEngine::Dcgm;
    return ServerEngine::Unknown;
}

ServerEngine EngineCatalog::detect(const MetricSeriesStore &store)
{
    return detect(store.sampleNames());
}

QuantityKind EngineCatalog::kind(ServerQuantity q)
{
    switch (q) {
    case ServerQuantity::Running:
    case ServerQuantity::Waiting:
    case ServerQuantity::KvCacheUsage:
    case ServerQuantity::GpuUtil:
    case ServerQuantity::PowerW:
    case ServerQuantity::FbUsedBytes:
        return QuantityKind::Gauge;
    case ServerQuantity::Ttft:
    case ServerQuantity::Itl:
    case ServerQuantity::E2e:
        return QuantityKind::Histogram;
    default:
        return QuantityKind::Counter;
    }
}

QuantityAggregation EngineCatalog::aggregation(ServerQuantity q)
{
    // A KV-cache fraction and a utilisation are per engine or per GPU: their mean describes
    // the whole; counts, power and energy add up.
    return q == ServerQuantity::KvCacheUsage || q == ServerQuantity::GpuUtil
               ? QuantityAggregation::Mean
               : QuantityAggregation::Sum;
}

const char *EngineCatalog::unit(ServerQuantity q)
{
    switch (q) {
    case ServerQuantity::Running:
    case ServerQuantity::Waiting:
    case ServerQuantity::RequestsTotal:
        return "requests";
    case ServerQuantity::KvCacheUsage:
        return "fraction";
    case ServerQuantity::PreemptionsTotal:
        return "preemptions";
    case ServerQuantity::PromptTokensTotal:
    case ServerQuantity::GenerationTokensTotal:
    case ServerQuantity::PrefixCacheQueries:
    case ServerQuantity::PrefixCacheHits:
        return "tokens";
    case ServerQuantity::Ttft:
    case ServerQuantity::Itl:
    case ServerQuantity::E2e:
        return "s";
    case ServerQuantity::GpuUtil:
        return "%";
    case ServerQuantity::PowerW:
        return "W";
    case ServerQuantity::EnergyJ:
        return "J";
    case ServerQuantity::FbUsedBytes:
        return "bytes";
    }
    return "";
}

QList<SeriesSelector> EngineCatalog::selectors(ServerEngine engine, ServerQuantity q)
{
    QList<SeriesSelector> out = gpuSelectors(q);
    if (!out.isEmpty())
        return out;
    switch (engine) {
    case ServerEngine::Vllm:
        return vllm(q);
    case ServerEngine::Sglang:
        return sglang(q);
    case ServerEngine::Tgi:
        return tgi(q);
    case ServerEngine::TritonTrtllm:
        return triton(q, true);
    case ServerEngine::Triton:
        return triton(q, false);
    case ServerEngine::Dcgm:
    case ServerEngine::Unknown:
        break;
    }
    return {};
}

bool EngineCatalog::resolve(const MetricSeriesStore &store, ServerEngine engine, ServerQuantity q,
                            ResolvedQuantity *out)
{
    const QList<SeriesSelector> candidates = selectors(engine, q);
    for (const SeriesSelector &s : candidates) {
        ResolvedQuantity r;
        r.quantity = q;
        r.selector = s;
        if (kind(q) != QuantityKind::Histogram) {
            r.series = matching(store, s.name, s.labels);
            if (r.series.isEmpty())
                continue;
        } else if (!s.countName.isEmpty()) {
            r.sums = matching(store, s.name, s.labels);
            r.counts = matching(store, s.countName, s.labels);
            if (r.sums.isEmpty() || r.counts.isEmpty())
                continue;
        } else {
            const QList<const MetricSeriesStore::Series *> buckets =
                matching(store, s.name + "_bucket", s.labels);
            QHash<double, qsizetype> byBound;
            for (const MetricSeriesStore::Series *b : buckets) {
                double le = 0;
                if (!PromParser::parseValue(b->label("le"), &le) || std::isnan(le))
                    continue; // a bucket without a readable bound cannot be placed
                if (!std::isinf(le))
                    le *= s.scale;
                const auto it = byBound.constFind(le);
                if (it == byBound.constEnd()) {
                    byBound.insert(le, r.buckets.size());
                    r.buckets.append({le, {b}});
                } else {
                    r.buckets[*it].second.append(b);
                }
            }
            std::sort(r.buckets.begin(), r.buckets.end(),
                      [](const auto &a, const auto &b) { return a.first < b.first; });
            r.sums = matching(store, s.name + "_sum", s.labels);
            r.counts = matching(store, s.name + "_count", s.labels);
            if (r.buckets.isEmpty() && r.counts.isEmpty())
                continue;
        }
        *out = r;
        return true;
    }
    return false;
}

} // namespace sb
