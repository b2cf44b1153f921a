#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>

namespace sb {

// The faults the simulator can inject. The names (simFaultName) are what --fault-rate and the
// x-sim-fault request header accept, and what the request log reports.
enum class SimFault : quint8 {
    None = 0,
    Http429,        // "http429": 429 with a JSON error body, before any capacity is used
    Http500,        // "http500": 500 with a JSON error body
    ResetMidStream, // "reset": some tokens, then the socket is reset (RST, no terminating chunk)
    MalformedJson,  // "malformed": some tokens, one data event with invalid JSON, then the rest
    ErrorEvent,     // "error-event": HTTP 200, some tokens, data: {"error": {...}}, data: [DONE]
    Stall,          // "stall": some tokens, then nothing more; the connection stays open
};
constexpr int SimFaultCount = 7;

const char *simFaultName(SimFault f);
// Accepts the names above plus a few aliases ("429", "500", "reset-mid-stream", "malformed-json",
// "error", "errorEvent", "resetMidStream", ...), case-insensitively.
bool simFaultFromName(const QString &name, SimFault *out);
QList<SimFault> allSimFaults(); // without None

enum class SimJitter : quint8 { Uniform, Gaussian };

// The simulated engine. Times are milliseconds (fractions allowed). Plain fields so the CLI,
// the GUI's "built-in simulator" SUT and tests can fill them directly.
struct SimConfig
{
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 0; // 0 = let the system pick; Simulator::port() tells which

    QString modelName = QStringLiteral("servebench-sim");
    int maxModelLen = 32768; // prompt + max_tokens beyond it is a 400, as in vLLM

    double ttftMs = 50.0;  // admission to first token chunk
    double itlMs = 10.0;   // gap between token chunks
    double jitterMs = 0.0; // 0 = none; uniform: +-jitterMs, gaussian: sigma = jitterMs
    SimJitter jitter = SimJitter::Uniform;
    double prefillMsPerToken =
        0.0;                // added to TTFT per prompt token not served from the prefix cache
    int tokensPerChunk = 1; // >1 models speculative decoding (k tokens per chunk)
    int capacity = 0;       // concurrent sequences; more requests queue FIFO. 0 = unlimited
    int defaultMaxTokens =
        16; // when the request gives neither max_tokens nor max_completion_tokens

    // Reasoning mode (a reasoning model behind a reasoning parser, as vLLM serves DeepSeek R1 or
    // Qwen 3): the first reasoningTokens tokens of a streamed chat answer are reasoning deltas
    // (delta.<reasoningField>), the rest its content. They count toward max_tokens and
    // completion_tokens, as vLLM counts them, and are capped at max_tokens − 1 so an answer
    // always follows. 0 = off. Completions and non-streamed answers have no reasoning.
    int reasoningTokens = 0;
    QString reasoningField = QStringLiteral("reasoning_content"); // or "reasoning" (vLLM >= 0.10)
    // usage carries completion_tokens_details.reasoning_tokens (reasoning mode only).
    bool reasoningUsageDetails = false;
    // false: no usage object ever, even when stream_options.include_usage asks for it (a server
    // that reports no token counts).
    bool usage = true;

    // Writes the whole pre-rendered response at once on arrival, ignoring TTFT, ITL and capacity:
    // measures the client's parsing ceiling rather than its timing.
    bool unpaced = false;

    quint64 seed = 0;                      // jitter and fault draws
    double faultRates[SimFaultCount] = {}; // fraction of completion requests, indexed by SimFault
    int faultAfterTokens = -1; // tokens before a mid-stream fault; -1 = half of max_tokens (>= 1)

    // Automatic prefix caching, modelled on vLLM's (see SimPrefixCache): prompts are split into
    // full blocks of prefixBlockTokens words; the longest run of leading blocks seen before (an
    // LRU set of at most prefixCacheBlocks blocks) counts as cached and skips prefill, so
    // TTFT = ttftMs + prefillMsPerToken * (promptTokens - cachedTokens). The cache therefore
    // changes timing only when prefillMsPerToken > 0. When on, usage reports
    // prompt_tokens_details.cached_tokens, as vLLM does with --enable-prompt-tokens-details.
    // The answer's blocks are cached too when a request completes (prompt and generated tokens
    // together, as vLLM keeps a finished sequence's full blocks), so a conversation that resends
    // the served answer finds it cached (docs/sessions.md).
    bool prefixCache = false;
    int prefixBlockTokens = 16;
    int prefixCacheBlocks = 100000;
    // POST /reset_prefix_cache (vLLM's) and POST /flush_cache (SGLang's) empty the prefix cache
    // (docs/cache-audit.md, "Cache policy"); off, both answer 404 as a server without them does.
    bool cacheResetEndpoints = true;

    // What GET /metrics and GET /dcgm/metrics report (SimMetrics); none of it changes timing.
    // vllm:kv_cache_usage_perc is the tokens held by the running sequences (prompt + generated
    // so far) over kvCacheTokens, capped at 1.
    int kvCacheTokens = 131072;
    // The simulated GPU: utilisation = running / gpuSaturationRunning (capped at 100 %; 0 means
    // `capacity` when set, else 64), power = gpuIdleW + (gpuMaxW - gpuIdleW) x utilisation, and
    // an energy counter that integrates that power exactly.
    double gpuIdleW = 60.0;
    double gpuMaxW = 350.0;
    int gpuSaturationRunning = 0;

    bool recordLog = true;
    int maxLogEntries = 100000; // oldest entries are dropped beyond this
    int maxLoggedPromptChars = 4096;

    // Embeddings and rerank (/v1/embeddings, /v1/rerank, /rerank; docs/metrics.md, "Embeddings and
    // rerank"): an answer is ready poolingMs + poolingMsPerToken x its prompt tokens after the
    // request is admitted (capacity and jitter as for generation), and embeds every input in
    // embeddingDimensions floats.
    double poolingMs = 5.0;
    double poolingMsPerToken = 0.01;
    int embeddingDimensions = 384;

    double faultRate(SimFault f) const { return faultRates[int(f)]; }
    void setFaultRate(SimFault f, double rate) { faultRates[int(f)] = rate; }
    // Parses "KIND=RATE" (rate in [0, 1]); on failure returns false and explains in *error.
    bool setFaultRateFromSpec(const QString &spec, QString *error = nullptr);
};

} // namespace sb
