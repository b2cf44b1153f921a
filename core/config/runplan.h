#pragma once

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <limits>

namespace sb {

// The API a SUT speaks (docs/design.md, "Wire protocol"; docs/metrics.md, "Fields per API").
// Completions and Chat stream OpenAI chunks; Responses streams the OpenAI Responses API's typed
// events (/v1/responses); Messages streams Anthropic's Messages API events (/v1/messages).
// Embeddings (/v1/embeddings) and Rerank (/v1/rerank, /rerank) are not streamed: one JSON answer
// per request, no tokens generated (docs/metrics.md, "Embeddings and rerank").
enum class ApiFlavour { Completions, Chat, Responses, Messages, Embeddings, Rerank };
// "openai" | "openai-chat" (vLLM's backend names) | "openai-responses" | "anthropic-messages"
// (vLLM's benchmark has no name for these two) | "openai-embeddings" | "vllm-rerank" (vLLM's);
// apiFlavourFromName also takes "vllm", "openai-completions", vLLM's "infinity-embeddings" (the
// same body) and AIPerf's endpoint types "completions", "chat", "responses", "messages",
// "embeddings", "rerank".
const char *apiFlavourName(ApiFlavour f);
bool apiFlavourFromName(const QString &name, ApiFlavour *out);
// Every generation flavour but Completions sends its prompt as messages.
inline bool apiFlavourTakesMessages(ApiFlavour f)
{
    return f == ApiFlavour::Chat || f == ApiFlavour::Responses || f == ApiFlavour::Messages;
}
// Embeddings and rerank: a batch of inputs per request, one non-streamed JSON answer.
inline bool apiFlavourIsPooling(ApiFlavour f)
{
    return f == ApiFlavour::Embeddings || f == ApiFlavour::Rerank;
}
// Chat and Responses take images in the prompt (docs/datasets.md, "Images in prompts").
inline bool apiFlavourTakesImages(ApiFlavour f)
{
    return f == ApiFlavour::Chat || f == ApiFlavour::Responses;
}

using HeaderList = QList<QPair<QString, QString>>;

// A Prometheus-format endpoint scraped beside the SUT during every run (a DCGM exporter, a node
// exporter; docs/server-metrics.md). Its token is never part of it: tokenRef names where the
// token lives ("env:NAME" or "keychain:NAME"; "" sends none), as SutConfig::apiKeyRef does.
struct MetricsTarget
{
    QString name; // shown, stored and used in file names: letters, digits, '.', '_', '-'
    QString url;  // http(s)://host:port/path
    QString tokenRef;

    bool operator==(const MetricsTarget &o) const = default;
};

// What is scraped during the SUT's runs. `sut` is the SUT's own endpoint: "auto" (the base URL's
// /metrics, kept when its first scrape answers and switched off with a one-line note when it does
// not), "off", or a URL of its own (scraped whatever it answers).
struct ServerMetricsConfig
{
    QString sut = QStringLiteral("auto");
    QList<MetricsTarget> targets;

    bool operator==(const ServerMetricsConfig &o) const = default;
    QJsonObject toJson() const;
    static ServerMetricsConfig fromJson(const QJsonObject &o);
};

// A server ServeBench starts and stops itself (docs/managed-servers.md): a SUT that is a server
// configuration rather than an endpoint someone else keeps running. The commands run under
// /bin/sh in a process group of their own; they hold no secret (environment references such as
// $HF_TOKEN stay references: the shell expands them, the project stores them as written).
struct ManagedServerConfig
{
    QString startCommand; // empty: not managed
    QString stopCommand;  // empty: SIGTERM to the process group, SIGKILL after the grace period
    QString healthUrl;    // empty: the base URL's /health
    double startTimeoutS = 600;
    QString workingDirectory; // empty: the current directory
    // When the server is (re)started: "run" (around every run, every point of a sweep), "session"
    // (once per command or study cell; the default) or "candidate" (a study keeps it up for all
    // of the candidate's cells; the "restart" cache policy restarts it per repeat block).
    QString lifetime = QStringLiteral("session");

    bool enabled() const { return !startCommand.trimmed().isEmpty(); }
    bool operator==(const ManagedServerConfig &o) const = default;
    QJsonObject toJson() const;
    static ManagedServerConfig fromJson(const QJsonObject &o);
};

// Everything that is measured. API keys are never part of it: apiKeyRef names where the key
// lives (an environment variable "env:NAME" or a keychain entry "keychain:NAME").
struct SutConfig
{
    QString name;
    QString baseUrl;  // scheme://host:port, no trailing slash
    QString endpoint; // path, e.g. /v1/completions
    ApiFlavour flavour = ApiFlavour::Completions;
    QString model;
    QString weightsRevision;
    QString engine;
    QString engineVersion;
    QString gpuModel;
    int gpuCount = 0;
    QString image;
    int replicas = 0;
    int containers = 0;
    int workersPerContainer = 0;
    QString region;
    QString clientLocation;
    QString notes;
    QString apiKeyRef;
    HeaderList extraHeaders; // scrubbed of credentials before any snapshot is stored
    // PEM file of CA certificates trusted for this endpoint besides the system's (a private CA).
    QString caFile;
    // "" follows the environment (http_proxy, https_proxy, no_proxy), "none" goes direct, a URL
    // names an HTTP proxy. A password in it is never stored (put it in the environment).
    QString proxy;
    // The model's tokenizer (docs/tokenizers.md): a tokenizer.json, a folder holding one, or a
    // *.tiktoken file; "" = none. It belongs to the model: with it, synthetic prompts have exact
    // token lengths, dataset lengths are real token counts, and output tokens are counted from
    // the streamed text when the server sends no usage.
    QString tokenizer;
    bool builtInSimulator = false;
    // The built-in simulator's engine model (builtInSimulator only; docs/sessions.md): every
    // prompt token not served from its prefix cache adds simPrefillMsPerToken to TTFT, and the
    // cache holds at most simPrefixCacheBlocks blocks (LRU). < 0: the default, which for the
    // prefill is 0 ms for single requests and kSessionPrefillMsPerToken for session workloads
    // and prefix-reuse traces, whose latency is the prefix cache's doing.
    double simPrefillMsPerToken = -1;
    int simPrefixCacheBlocks = -1;
    // The built-in simulator's timing (builtInSimulator only): time to first token and the gap
    // between token chunks, in ms. < 0: the simulator's defaults (SimConfig). A selection study
    // (docs/study.md) uses them to make candidates of known, different speed with no server.
    double simTtftMs = -1;
    double simItlMs = -1;
    ServerMetricsConfig serverMetrics;
    ManagedServerConfig managed;

    QJsonObject toJson() const;
    static SutConfig fromJson(const QJsonObject &o);
};

enum class DatasetKind { Random, ShareGpt, Custom };
const char *datasetKindName(DatasetKind k);
bool datasetKindFromName(const QString &name, DatasetKind *out);

// How synthetic (random) lengths are drawn: Uniform is vLLM's --random-range-ratio; Normal is
// GuideLLM's synthetic data (mean, stdev, clamped to [min, max]).
enum class LengthDistribution { Uniform, Normal };
const char *lengthDistributionName(LengthDistribution d); // "uniform" | "normal"
bool lengthDistributionFromName(const QString &name, LengthDistribution *out);

struct DatasetSpec
{
    DatasetKind kind = DatasetKind::Random;
    QString path;         // sharegpt / custom
    QString versionLabel; // user's label
    int randomInputLen = 1024;
    int randomOutputLen = 128;
    double randomRangeRatio = 0.0; // vLLM: uniform in [len*(1-r), len*(1+r)]
    int randomPrefixLen = 0;
    int sharegptOutputLen = -1; // fixed output length; -1 = from the reference answer
    bool withReplacement = false;
    LengthDistribution randomDistribution = LengthDistribution::Uniform;
    int randomInputStdev = 0; // normal only
    int randomOutputStdev = 0;
    int randomInputMin = 1; // normal only; max 0 = no upper bound
    int randomInputMax = 0;
    int randomOutputMin = 1;
    int randomOutputMax = 0;
    // Synthetic prompts are words; a measured tokens-per-word ratio of the target model's
    // tokenizer (from the server's /tokenize) rescales them. 1 = uncalibrated.
    double tokensPerWord = 1.0;
    // Sessions (docs/sessions.md): every turn of each conversation instead of its first prompt.
    // ShareGPT and custom JSONL take the file's turns (at most maxTurns user turns, 0 = all);
    // random builds synthetic sessions of sessionTurns turns, each turn randomInputLen new input
    // tokens and randomOutputLen output tokens, behind a system prompt of randomPrefixLen tokens
    // that every session shares (the prefix-share ratio); the first user message of each
    // session also carries sessionPrefixLen tokens of its own (a document the conversation is
    // about, vLLM's per-conversation prefix), which only that session's later turns reuse.
    bool multiTurn = false;
    int sessionTurns = 4;
    int sessionPrefixLen = 0;
    int maxTurns = 0;
    // Images in prompts (docs/datasets.md, "Images in prompts"; chat and Responses only):
    // imageCount synthetic images of imageWidth x imageHeight pixels in imageFormat ("png") per
    // request, drawn from imageSeed (< 0: the run's seed), sent as data URLs after the text.
    // They are part of the dataset's identity (its hash). A custom JSONL line may name image
    // files of its own ("images"), sent besides these.
    int imageCount = 0;
    int imageWidth = 512;
    int imageHeight = 512;
    QString imageFormat = QStringLiteral("png");
    qint64 imageSeed = -1;

    QJsonObject toJson() const;
    static DatasetSpec fromJson(const QJsonObject &o);
};

enum class Scenario { None, SingleStream, Server, Offline };
const char *scenarioName(Scenario s); // "none" | "single-stream" | "server" | "offline"
bool scenarioFromName(const QString &name, Scenario *out);

enum class ArrivalProcess { Constant, Poisson, Gamma };
const char *arrivalName(ArrivalProcess a);
bool arrivalFromName(const QString &name, ArrivalProcess *out);

// vLLM's --ramp-up-strategy: the request rate moves from rampUpStartRps to rampUpEndRps over the
// run, per request index; requestRate is ignored while a ramp-up is set.
enum class RampUpStrategy { None, Linear, Exponential };
const char *rampUpStrategyName(RampUpStrategy s); // "none" | "linear" | "exponential"
bool rampUpStrategyFromName(const QString &name, RampUpStrategy *out);

// What a turn's history holds of the earlier answers: the text the server streamed in this run
// (realistic: what a chat client resends) or the dataset's reference answers (reproducible: the
// same prompts whatever the server says).
enum class HistoryMode { Served, Reference };
const char *historyModeName(HistoryMode m); // "served" | "reference"
bool historyModeFromName(const QString &name, HistoryMode *out);

// The pause between the end of a turn's answer and the send of the next turn.
enum class ThinkTimeModel { None, Fixed, Exponential, Dataset };
const char *thinkTimeModelName(ThinkTimeModel m); // "none" | "fixed" | "exponential" | "dataset"
bool thinkTimeModelFromName(const QString &name, ThinkTimeModel *out);

// The layout of a --trace file: ServeBench's {timestamp s, input_tokens, output_tokens | prompt}
// or Mooncake's {timestamp ms, input_length, output_length, hash_ids} (docs/sessions.md).
enum class TraceFormat { ServeBench, Mooncake };
const char *traceFormatName(TraceFormat f); // "servebench" | "mooncake"
bool traceFormatFromName(const QString &name, TraceFormat *out);

// The built-in simulator's prefill cost for session workloads and prefix-reuse traces when the
// plan gives none (SutConfig::simPrefillMsPerToken < 0).
inline constexpr double kSessionPrefillMsPerToken = 0.05;

struct Slo
{
    double ttftMs = -1; // < 0: not set
    double tpotMs = -1;
    double e2elMs = -1;
    bool any() const { return ttftMs >= 0 || tpotMs >= 0 || e2elMs >= 0; }
};

struct LoadProfile
{
    Scenario scenario = Scenario::None;
    ArrivalProcess arrival = ArrivalProcess::Poisson;
    double requestRate = std::numeric_limits<double>::infinity(); // req/s; inf = all at t=0
    double burstiness = 1.0;                                      // gamma shape; 1 = Poisson
    RampUpStrategy rampUpStrategy = RampUpStrategy::None;
    double rampUpStartRps = 0;
    double rampUpEndRps = 0;
    QString tracePath;           // non-empty: replay arrival times from this JSONL trace
    double traceTimeScale = 1.0; // trace offsets are multiplied by this (0.5 = twice as fast)
    TraceFormat traceFormat = TraceFormat::ServeBench;
    int traceBlockSize = 512;      // Mooncake: tokens per hash id (the published traces use 512)
    // Embeddings and rerank (docs/metrics.md, "Embeddings and rerank"): dataset items per
    // request (vLLM's --random-batch-size): an embeddings request embeds batchSize inputs, a
    // rerank request scores batchSize documents against one more item as its query. 1 for
    // generation endpoints.
    int batchSize = 1;
    int maxConcurrency = 0;        // 0 = unlimited (open loop)
    int closedLoopConcurrency = 0; // > 0: keep exactly C in flight
    int numPrompts = 1000;
    double durationS = 0; // > 0: duration-bound run
    int warmupRequests = 0;
    double warmupSeconds = 0;
    quint64 seed = 0;
    Slo goodput;
    double timeoutS = 600;
    // How the client opens connections (docs/performance.md, "Connection modes"): "warm" (before
    // the run's clock; the default), "per-request" (vLLM's client) or "lazy". Stored because it
    // decides whether set-up is inside TTFT.
    QString connectionMode = QStringLiteral("warm");
    double idleTimeoutS = 0; // > 0: a response silent this long fails as a timeout; 0 = none
    // Response caps in bytes (head, one SSE line or event, body); -1 = the client's default
    // (64 KiB, 8 MiB, 128 MiB), 0 = no cap.
    qint64 maxHeadBytes = -1;
    qint64 maxEventBytes = -1;
    qint64 maxBodyBytes = -1;
    // --max-error-rate: stop a run once more than this fraction of its recent requests failed
    // (ErrorRateStopper over the last 50); < 0: never.
    double maxErrorRate = -1;
    bool cacheBust = false;
    // --cache-policy reset (docs/cache-audit.md, "Cache policy"): the engine's own prefix-cache
    // reset is called before the run and verified from its counters. When the server has no
    // reset or refuses it, cacheResetFallback says what happens: "refuse" (the run does not
    // start) or "bust" (the run goes on with cacheBust).
    bool cacheReset = false;
    QString cacheResetFallback = QStringLiteral("refuse");
    // Cancellation load (docs/metrics.md, "Cancelled by the load"): cancelRatePct percent of
    // the measured requests, chosen from the seed by request index (requestCancelledByLoad()),
    // are closed by the client cancelDelayS seconds after the request was fully written, or
    // (cancelAfterTokens > 0) once that many token chunks arrived. AIPerf's
    // --request-cancellation-rate and --request-cancellation-delay. 0 = no cancellation.
    double cancelRatePct = 0;
    double cancelDelayS = 0;
    int cancelAfterTokens = 0;
    bool cancels() const { return cancelRatePct > 0; }
    QList<double> metricPercentiles = {99};
    QList<QString> percentileMetrics = {QStringLiteral("ttft"), QStringLiteral("tpot"),
                                        QStringLiteral("itl")};

    // MLPerf scenario constraints (--mlperf-preset, --ttft-slo-ms, --tpot-slo-ms,
    // --slo-percentile, --min-query-count, --min-duration): part of the plan, because whether a
    // run is VALID depends on them.
    QString mlperfPreset;
    double sloPercentile = -1; // percent; < 0: the scenario's default (Server 99, SingleStream 90)
    double ttftSloMs = -1;
    double tpotSloMs = -1;
    qint64 minQueryCount = 0;
    double minDurationS = 0;

    // Session workloads (DatasetSpec::multiTurn; docs/sessions.md). Sessions arrive open-loop
    // at sessionRate per second (arrival and burstiness as for requests; inf: all at once), or
    // sessionUsers users each run one session after another (closed loop). numSessions sessions
    // are run (with durationS > 0: sessions start until the duration is over).
    double sessionRate = std::numeric_limits<double>::infinity();
    int sessionUsers = 0;
    int numSessions = 100;
    HistoryMode history = HistoryMode::Served;
    ThinkTimeModel thinkTime = ThinkTimeModel::None;
    double thinkTimeMs = 0; // fixed: the pause; exponential: its mean
    QString sessionHeader;  // a header carrying the session's id (e.g. X-Session-ID); "" = none

    // Server metrics (docs/server-metrics.md): the SUT's targets are scraped this often during
    // a run, besides once before its first request and once after its last.
    double metricsIntervalS = 0.5;

    bool unlimitedRate() const { return !(requestRate > 0 && requestRate < 1e300); }
    QJsonObject toJson() const;
    static LoadProfile fromJson(const QJsonObject &o);
};

// Whether the cancellation load closes request `index` of a run (docs/metrics.md, "Cancelled
// by the load"): a draw from (seed, index) alone, so the same seed chooses the same requests on
// every run whatever the order requests finish in; false when the profile cancels nothing.
bool requestCancelledByLoad(const LoadProfile &profile, qint64 index);
// When a chosen request is closed, in words: "after 5 tokens" or "0.2 s after the request was
// written"; empty when the profile cancels nothing.
QString cancellationPointText(const LoadProfile &profile);

struct RequestParams
{
    bool ignoreEos = false;
    double temperature = -1; // < 0: not sent
    qint64 seed = -1;        // < 0: not sent
    // Anthropic Messages only: > 0 sends thinking {type: "enabled", budget_tokens: N}.
    int thinkingBudgetTokens = -1;
    QJsonObject extraBody;

    QJsonObject toJson() const;
    static RequestParams fromJson(const QJsonObject &o);
};

struct RunPlan
{
    QString name;
    SutConfig sut;
    DatasetSpec dataset;
    LoadProfile profile;
    RequestParams params;

    // The frozen snapshot stored with every run: no secrets, keys in a stable order.
    QJsonObject toJson() const;
    static RunPlan fromJson(const QJsonObject &o);

    bool isSessionWorkload() const { return dataset.multiTurn; }
    // Dataset items one request takes (docs/metrics.md, "Embeddings and rerank"): an embeddings
    // request its batch, a rerank request its documents and one query, any other request one.
    int itemsPerRequest() const
    {
        if (!apiFlavourIsPooling(sut.flavour))
            return 1;
        const int batch = profile.batchSize > 0 ? profile.batchSize : 1;
        return sut.flavour == ApiFlavour::Rerank ? batch + 1 : batch;
    }
};

// Removes Authorization / api-key-like headers and values from a snapshot (recursively).
QJsonObject scrubSecrets(const QJsonObject &o);
bool looksLikeSecretKey(const QString &key);
// Header names are judged more broadly than JSON keys ("max_tokens" is no secret, but an
// "X-Api-Token" header is): any name with "token" or "key" in it counts as a credential.
bool looksLikeSecretHeader(const QString &name);
// A header value may name the SUT's API key instead of holding it: "{api_key}" is replaced by
// the key (from the keychain or the environment) when requests are built. Such a value is a
// reference, not a secret, and is stored as written.
inline constexpr QLatin1StringView kApiKeyPlaceholder{"{api_key}"};
bool isApiKeyReference(const QString &headerValue);

} // namespace sb
