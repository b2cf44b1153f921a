#pragma once

#include <QJsonObject>
#include <QString>

namespace sb {

class EndpointProbe;
struct SutConfig;

// The server's prefix-cache counters at one instant, read from one scrape of its /metrics
// through the engine catalogue (vLLM: vllm:prefix_cache_queries_total and _hits_total; SGLang:
// sglang:prompt_tokens_total and sglang:cached_tokens_total; summed over their label sets).
struct PrefixCounters
{
    bool available = false; // both counters were exported
    double queries = 0;     // prompt tokens looked up
    double hits = 0;        // of those, found cached
    QString engine;         // "vllm", "sglang", "unknown"
    QString why;            // why they are not available

    QJsonObject toJson() const;
};

PrefixCounters readPrefixCounters(EndpointProbe &probe);

// One call of the engine's own prefix-cache reset (docs/cache-audit.md, "Cache policy").
struct CacheResetOutcome
{
    bool done = false;  // a 2xx answer from one of the reset endpoints
    QString engine;     // whose reset was tried first: the SUT's stated engine or the detected one
    QString endpoint;   // the path that answered 2xx, or the last one tried
    int httpStatus = 0; // of that answer (0: none)
    double ms = -1;     // the successful call's round trip
    QString detail;     // what went wrong, in words, when !done
    PrefixCounters atReset; // read right after the reset: the verification's baseline

    QJsonObject toJson() const;
};

// Calls POST /reset_prefix_cache (vLLM; served only with VLLM_SERVER_DEV_MODE=1) or POST
// /flush_cache (SGLang), the stated engine's first: sut.engine when it names one, else the engine
// the SUT's /metrics names, else both in that order. A 404 or 405 means "no such endpoint" and
// the next is tried; any other answer is the server's refusal.
CacheResetOutcome resetPrefixCache(EndpointProbe &probe, const SutConfig &sut);

// What the first requests after a reset say about it: the counters' increase between the reset
// and the moment `requests` requests had finished, and the cached tokens those requests' usage
// reported (prompt_tokens_details.cached_tokens, -1: none reported). Cold when the counters saw
// at most 1 % of the looked-up tokens as hits (or, without counters, no cached token reported).
QJsonObject verifyCacheReset(const PrefixCounters &atReset, const PrefixCounters &after,
                             qint64 requests, qint64 cachedTokensReported);

// The share of looked-up tokens found cached under which a reset counts as verified cold.
inline constexpr double kColdHitRatio = 0.01;

} // namespace sb
