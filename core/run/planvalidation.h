#pragma once

#include "common/message.h"

#include <QList>
#include <QString>

namespace sb {

struct RunRequest;

// One thing wrong with a run request. `field` names the setting in the words of the CLI flag
// without its dashes ("request-rate", "num-prompts", "ttft-slo-ms"), so the CLI prints
// "--request-rate must be positive…" and the workbench marks the editor field of that key. The
// message never names a flag itself: each front end words the place its own way.
struct PlanIssue
{
    QString field;
    Message message;

    QString text() const; // "<field>: <message>" in English, for logs and tests
};

// The stated ranges every numeric setting must lie in; beyond them the arithmetic of schedules
// (nanosecond offsets in 64 bits) or the memory a run holds would no longer be trustworthy.
namespace limits {
inline constexpr double kMinRate = 1e-4;        // req/s: one request every 2.8 hours
inline constexpr double kMaxRate = 1e6;         // req/s
inline constexpr double kMaxSpanS = 30 * 86400; // a schedule spans at most 30 days
inline constexpr int kMaxRequests = 10'000'000; // requests per run (records live in memory)
inline constexpr int kMaxConcurrency = 100'000; // streams in flight
inline constexpr double kMaxTimeoutS = 86400;
inline constexpr qint64 kMinResponseCapBytes = 1024;            // a head or an event fits
inline constexpr qint64 kMaxResponseCapBytes = qint64(1) << 40; // 1 TiB
inline constexpr int kMaxTokens = 1'000'000;                    // synthetic input or output length
inline constexpr double kMinBurstiness = 0.01;
inline constexpr double kMaxBurstiness = 1000;
inline constexpr double kMaxTraceTimeScale = 1000;
inline constexpr int kMaxSweepRates = 100;
inline constexpr int kMaxSeriesRuns = 1000;
inline constexpr int kMaxSessionTurns = 10'000;       // user turns per session
inline constexpr double kMaxPrefillMsPerToken = 1000; // the built-in simulator's prefill cost
inline constexpr int kMaxCacheBlocks = 1'000'000'000; // the built-in simulator's prefix cache
inline constexpr int kMaxBatchSize = 65'536;          // embeddings inputs / rerank documents
inline constexpr int kMaxImagesPerRequest = 256;
inline constexpr int kMaxImageSide = 16'384;          // pixels
// Synthetic images are drawn before the run and held as data URLs (docs/datasets.md).
inline constexpr qint64 kMaxImageMemoryBytes = qint64(4) << 30;
} // namespace limits

// Checks a request before anything is loaded or sent: every range, every combination that
// cannot run (a Server scenario without a finite rate, a closed loop with a cap, warm-up that
// would consume every request, …), header names and values that could inject into the request,
// credentials in URLs. Pure: no file or network access (preparation checks files). Returns every
// issue found, in a stable order; empty when the request can run.
QList<PlanIssue> validateRunRequest(const RunRequest &request);

// Header name and value as they may go on the wire: a name is an RFC 9110 token, and neither may
// hold CR, LF or NUL (which would let a value start a header of its own).
bool validHeader(const QString &name, const QString &value, Message *why);

} // namespace sb
