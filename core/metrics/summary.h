#pragma once

#include "config/runplan.h"
#include "metrics/recordset.h"
#include "metrics/requestrecord.h"
#include "metrics/stats.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <limits>
#include <memory>

namespace sb {

struct SummaryOptions
{
    // Percentiles computed for every latency metric. vLLM prints only its --metric-percentiles
    // (default 99); use forProfile() so those are always among these.
    QList<double> percentiles = {50, 90, 95, 99, 99.9};
    Slo goodput;                // ms; < 0 = unset. Goodput is reported only when any() is set
    bool includeWarmup = false; // never by default: docs/metrics.md
    PercentileMethod method = PercentileMethod::Linear;
    // A reader that can go over the records once more (loadStoredRunForReport) has the ITL
    // statistics streamed (SummaryBuilder::streamGaps) when a run has more gaps than this: the
    // same numbers, no pool of gaps, one more pass over the rows with their chunks (about 25 ns
    // a gap): a million 100-chunk requests pool 396 MB, or stream in 2.5 s more. Pooled by
    // default: `show`'s peak is its records, read after the pool is gone, so streaming would
    // cost it time for nothing. The workbench's Results view holds more beside the pool (the
    // table's sort keys, the charts) and streams above kStreamedGapsAbove.
    static constexpr qint64 kStreamedGapsAbove = 4'000'000; // 16 MB of float samples
    qint64 maxPooledGaps = std::numeric_limits<qint64>::max();

    // Defaults ∪ profile.metricPercentiles, goodput SLOs from the profile.
    static SummaryOptions forProfile(const LoadProfile &profile);
};

// How many requests' token counts came from each source.
struct TokenSourceCounts
{
    qint64 serverUsage = 0;
    qint64 chunkCount = 0;
    qint64 dataset = 0;
    qint64 tokenizer = 0;
    qint64 unknown = 0;

    qint64 total() const { return serverUsage + chunkCount + dataset + tokenizer + unknown; }
    void add(TokenSource s);
    // "server_usage" | "chunk_count" | "dataset" | "tokenizer" | "unknown" when one source
    // covers every request, "mixed" otherwise, "none" for no requests.
    QString name() const;
    // name(), and for "mixed" the counts: "mixed (server_usage 3, chunk_count 1)".
    QString describe() const;
    // In words for a reader: "server usage", "mixed (server usage 3, chunk count 1)".
    Message describeMessage() const;
    // {"source": name(), "server_usage": n, "chunk_count": n, "dataset": n, "tokenizer": n,
    //  "unknown": n}
    QJsonObject toJson() const;
};

// Everything the reports and the CLI print about one run. Latencies in milliseconds (doubles),
// durations in seconds, rates per second. Value type: cheap to copy, safe to hand across threads.
struct RunSummary
{
    // --- counts ---
    qint64 totalRecords = 0; // records passed to summarize()
    qint64 warmup = 0;       // warm-up records among them (excluded unless includeWarmup)
    bool warmupIncluded = false;
    qint64 measured = 0;  // records the metrics cover (non-warm-up, or all with includeWarmup)
    qint64 sent = 0;      // measured records with t_send
    qint64 completed = 0; // successful measured requests (vLLM's "completed")
    qint64 failed = 0;    // failed measured requests
    QMap<QString, qint64> failedByClass; // errorClassName() -> count, failed requests only
    // Measured requests the cancellation load closed (ErrorClass::CancelledByLoad): neither
    // completed nor failed, in no latency statistic, token total or throughput; their sends
    // and ends are inside the window (docs/metrics.md, "Cancelled by the load"). Of them, those
    // that had a first token, and the token chunks they received.
    qint64 cancelledByLoad = 0;
    qint64 cancelledWithFirstToken = 0;
    qint64 cancelledChunks = 0;

    // --- window (monotonic ns) and throughput ---
    qint64 windowStartNs = 0;        // earliest t_send of the measured requests
    qint64 windowEndNs = 0;          // latest completion (t_end, else t_last, else t_send)
    qint64 firstSchedNs = 0;         // earliest t_sched of the measured requests (0: none)
    double durationS = 0;            // (windowEnd - windowStart) / 1e9
    double requestThroughput = 0;    // completed / duration
    double outputThroughput = 0;     // totalOutputTokens / duration
    double totalTokenThroughput = 0; // (totalInputTokens + totalOutputTokens) / duration
    double achievedRequestRate = 0;  // (sent - 1) / (last t_send - first t_send); 0 if sent < 2
    // vLLM >= 0.10's "peak" lines: most output tokens in one 1-second bucket counted from the
    // first send of a successful request (tokens per chunk, where vLLM counts chunks), and the
    // most successful requests in flight at once over [t_send, t_last).
    double peakOutputTokensPerS = 0;
    qint64 peakConcurrentRequests = 0;

    // --- goodput ---
    Slo slo;
    bool goodputSet = false; // any SLO set; otherwise goodput is "not reported" (JSON null)
    qint64 goodRequests = 0;
    double requestGoodput = 0; // goodRequests / duration

    // --- tokens (successful measured requests, like vLLM's totals) ---
    qint64 totalInputTokens = 0;
    qint64 totalOutputTokens = 0;
    qint64 cachedTokens = 0;         // Σ usage cached_tokens where reported
    qint64 cachedTokensReported = 0; // requests that reported cached_tokens
    TokenSourceCounts inputSources;
    TokenSourceCounts outputSources;
    // Successful requests with no input token count at all (no usage, no dataset length): they
    // add 0 to totalInputTokens, which is then not the total and is reported unavailable.
    qint64 inputTokensMissing = 0;
    // Some chunk after the first carried > 1 token, so ITL per token differs from ITL.
    bool multiTokenChunks = false;
    // The client's count beside the server's (docs/metrics.md, token counts): successful
    // requests with a server_usage output count and a tokenizer count of the same stream, those
    // where the two differ, and the two sums over them. A high mismatch rate points at the wrong
    // tokenizer or a server that miscounts.
    qint64 outputCountCompared = 0;
    qint64 outputCountMismatched = 0;
    qint64 comparedServerOutputTokens = 0;
    qint64 comparedClientOutputTokens = 0;
    double outputCountMismatchRate() const
    {
        return outputCountCompared > 0 ? double(outputCountMismatched) / outputCountCompared : 0;
    }

    // --- non-streamed endpoints (docs/metrics.md, "Embeddings and rerank") ---
    // Every measured request went to an embeddings or rerank endpoint (its record carries
    // batchItems > 0): nothing is generated, so TTFT, TPOT, ITL, output tokens and the rates of
    // them are unavailable ("non-streamed endpoint: no tokens are generated"); E2EL is send to
    // the end of the answer's body.
    bool nonStreamed = false;
    qint64 totalItems = 0;       // Σ batchItems of the successful requests
    double itemThroughput = 0;   // totalItems / duration
    double inputThroughput = 0;  // totalInputTokens / duration
    // --- images in prompts (docs/datasets.md, "Images in prompts") ---
    // Measured sent requests that carried images, and the image bytes they carried.
    qint64 imageRequests = 0;
    qint64 totalImageBytes = 0;
    double meanImageBytes() const
    {
        return imageRequests > 0 ? double(totalImageBytes) / double(imageRequests) : 0;
    }

    // --- reasoning (docs/metrics.md, reasoning) ---
    // Successful requests that streamed reasoning, and Σ of their reasoning tokens (part of
    // totalOutputTokens) with where the counts came from.
    qint64 reasoningRequests = 0;
    qint64 totalReasoningTokens = 0;
    TokenSourceCounts reasoningSources;

    // --- latency statistics (ms) ---
    QList<double> percentiles;
    PercentileMethod method = PercentileMethod::Linear;
    MetricStats ttft;
    MetricStats tpot;
    MetricStats itl;
    MetricStats itlPerToken;
    MetricStats e2el;
    MetricStats ttfct;           // time to first content token: t_first_content − t_send
    MetricStats reasoningTime;   // t_first_content − t_first_reasoning, requests with both
    MetricStats reasoningTokens; // per reasoning request (counts, not ms)
    MetricStats ttftFromSched;   // MLPerf-style, from t_sched
    MetricStats e2elFromSched;
    MetricStats scheduleLag;     // all sent measured requests, failed ones included
    MetricStats clientQueueTime; // all sent measured requests with t_queued

    // Stats by metric key ("ttft", "tpot", "itl", "e2el", "itl_per_token", "schedule_lag",
    // "client_queue_time", "ttft_from_sched", "e2el_from_sched", "ttfct", "reasoning_time",
    // "reasoning_tokens"); nullptr for an unknown key.
    const MetricStats *stats(QStringView key) const;

    // --- what the records cannot tell ---
    // Quantities these records cannot tell, by key, each with the reason in a sentence (e.g.
    // "achieved_request_rate" -> "every request has the same send time: ..."). Their numeric
    // fields keep 0 (vLLM's convention for arithmetic), but every output shows "n/a (reason)"
    // and exports null with "<key>_unavailable_reason" (docs/metrics.md, "Not available").
    // Keys: the result JSON's names — "duration", "request_throughput", "output_throughput",
    // "total_token_throughput", "request_goodput", "total_input_tokens",
    // "max_output_tokens_per_s", "max_concurrent_requests", "achieved_request_rate",
    // "cached_tokens", "output_token_mismatch", "total_output_tokens" and
    // "total_reasoning_tokens" (non-streamed runs), and the stats keys above. summarize() fills
    // what the records show; an importer may add what it knows was lost.
    QMap<QString, QString> unavailable;
    bool isAvailable(const QString &key) const { return !unavailable.contains(key); }
    QString unavailableReason(const QString &key) const { return unavailable.value(key); }
    // Keeps the first reason given for a key.
    void markUnavailable(const QString &key, const QString &reason);
};

// The request's output token count as the summary uses it: usage when reported, else the
// tokenizer's count of the streamed text, else the sum of the chunks' tokens (one per chunk).
// *source (optional) receives where it came from.
qint32 effectiveOutputTokens(const RequestRecord &r, TokenSource *source = nullptr);
// Input count: usage when reported, else the dataset's length, else 0 (source Unknown).
qint32 effectiveInputTokens(const RequestRecord &r, TokenSource *source = nullptr);

// The reason every streaming metric of an embeddings or rerank run is unavailable:
// "non-streamed endpoint: no tokens are generated" (docs/metrics.md, "Embeddings and rerank").
QString nonStreamedReason();

// Fills summary->unavailable from its own counts (SummaryBuilder::finish() calls it):
// sendsAtOneInstant says every sent request had the same t_send.
void markUnavailableQuantities(RunSummary *summary, bool sendsAtOneInstant);

// Reduces the records of one run to its summary (docs/metrics.md). Records may come in any order.
// Two passes over the records; the pooled ITL samples are held once, as float milliseconds.
RunSummary summarize(const RecordSet &records, const SummaryOptions &opts = {});

// summarize() as two streamed passes, for records that are not all in memory at once (a stored
// run of a million requests): scan() every record first (chunk lists not needed, only their
// count), then add() every record again with its chunks, then finish(). Same arithmetic, same
// result as summarize() over the same records.
//
// add() pools every inter-token gap (4 bytes each) for the ITL statistics. With streamGaps()
// it keeps none; instead, when needsGapPass() says so after the last add(), the records go
// through addGaps() once more, with their chunks and in add()'s order, before finish(). The
// summary is bit-identical to the pooled one (StreamedStats).
class SummaryBuilder
{
public:
    explicit SummaryBuilder(const SummaryOptions &opts = {});
    ~SummaryBuilder();
    SummaryBuilder(const SummaryBuilder &) = delete;
    SummaryBuilder &operator=(const SummaryBuilder &) = delete;

    // Pass 1: counts for the buffers and the origin of the 1-second output buckets.
    void scan(const RequestRecord &r, qint64 chunkCount);
    // After pass 1: the inter-token gaps pass 2 will see (chunks - 1 of every measured
    // successful request), what the pooled mode holds as floats.
    qint64 gapCount() const;
    // Before pass 2: compute the ITL statistics without pooling the gaps.
    void streamGaps();
    // Pass 2, in any order (with streamGaps(), the order addGaps() repeats).
    void add(const RequestRecord &r);
    // After pass 2: streamGaps() was called and the gaps are too many to have been kept (more
    // than computeStats() sorts), so addGaps() must see every record again before finish().
    bool needsGapPass() const;
    // Pass 3, when needsGapPass() (ignored otherwise): the records of pass 2 in the same order,
    // with chunks.
    void addGaps(const RequestRecord &r);
    RunSummary finish();

private:
    struct State;
    std::unique_ptr<State> d;
};

} // namespace sb
