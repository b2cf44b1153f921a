#pragma once

#include "metricseriesstore.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace sb {

// The serving engines (and GPU exporters) whose metric names ServeBench knows.
enum class ServerEngine : quint8 {
    Unknown = 0, // raw series only
    Vllm,
    Sglang,
    Tgi,
    TritonTrtllm, // Triton Inference Server with the TensorRT-LLM backend
    Triton,       // Triton without TensorRT-LLM's series (other backends)
    Dcgm,         // NVIDIA DCGM exporter
};
const char *serverEngineName(ServerEngine engine); // "vllm", "sglang", "tgi", "trtllm", ...

// What ServeBench reads from an engine's metrics, in ServeBench's units.
enum class ServerQuantity : quint8 {
    Running = 0,           // requests being generated (gauge, requests)
    Waiting,               // requests queued in the engine (gauge, requests)
    KvCacheUsage,          // fraction of the KV cache in use, 0..1 (gauge)
    PreemptionsTotal,      // preemptions (vLLM) or retractions (SGLang) (counter)
    PromptTokensTotal,     // prompt tokens processed (counter, tokens)
    GenerationTokensTotal, // tokens generated (counter, tokens)
    PrefixCacheQueries,    // prompt tokens looked up in the prefix cache (counter)
    PrefixCacheHits,       // of those, tokens found cached (counter)
    RequestsTotal,         // requests finished successfully (counter)
    Ttft,                  // engine's time-to-first-token histogram (seconds)
    Itl,                   // engine's inter-token latency histogram (seconds)
    E2e,                   // engine's end-to-end request latency histogram (seconds)
    GpuUtil,               // GPU utilisation (gauge, percent 0..100)
    PowerW,                // GPU power draw (gauge, watts)
    EnergyJ,               // GPU energy since some origin (counter, joules)
    FbUsedBytes,           // GPU framebuffer memory used (gauge, bytes)
};
constexpr int ServerQuantityCount = 16;
const char *serverQuantityName(ServerQuantity q); // "running", "kv_cache_usage", "ttft", ...

enum class QuantityKind : quint8 { Gauge, Counter, Histogram };
// How several series of one quantity combine (data-parallel engines, several GPUs).
enum class QuantityAggregation : quint8 { Sum, Mean };

// One way an engine exports a quantity. For a histogram `name` is the family's base name (the
// series are name_bucket{le}, name_sum, name_count); with `countName` set it is instead a pair
// of counters (sum, count) that gives a mean and no quantiles.
struct SeriesSelector
{
    QByteArray name;
    QList<QPair<QByteArray, QByteArray>> labels; // required label values
    double scale = 1.0; // multiplies values (and histogram bounds and sums) into the unit
    QByteArray countName;
    QString source; // where the name was verified: repository, path, commit
    QString note;   // what differs from ServeBench's definition, or since when it exists
};

// A quantity found in a store: the selector that matched and the series it matched.
struct ResolvedQuantity
{
    ServerQuantity quantity = ServerQuantity::Running;
    SeriesSelector selector;
    QList<const MetricSeriesStore::Series *> series; // gauges and counters
    // Histograms: per bucket (its upper bound, scaled) the series of every label set; the sums
    // and counts. For a sum/count counter pair only `sums` and `counts` are set.
    QList<QPair<double, QList<const MetricSeriesStore::Series *>>> buckets;
    QList<const MetricSeriesStore::Series *> sums;
    QList<const MetricSeriesStore::Series *> counts;
};

// The per-engine meaning of metric names. Every name in the table was checked against the
// engine's source or documentation; docs/server-metrics.md lists them with their sources.
class EngineCatalog
{
public:
    // The engine whose names a payload carries, by the prefixes its sample names use.
    static ServerEngine detect(const QList<QByteArray> &sampleNames);
    static ServerEngine detect(const MetricSeriesStore &store);

    static QuantityKind kind(ServerQuantity q);
    static QuantityAggregation aggregation(ServerQuantity q);
    static const char *unit(ServerQuantity q); // "requests", "fraction", "s", "W", "J", ...

    // The selectors an engine's quantity may come from, in order of preference (current name
    // first, then older names). GPU quantities (DCGM's and Triton's names) are tried on every
    // engine: a DCGM target detects as Dcgm, and Triton serves its own GPU series.
    static QList<SeriesSelector> selectors(ServerEngine engine, ServerQuantity q);

    // The first selector with at least one matching series in the store; false if none has.
    static bool resolve(const MetricSeriesStore &store, ServerEngine engine, ServerQuantity q,
                        ResolvedQuantity *out);
};

} // namespace sb
