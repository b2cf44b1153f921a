#pragma once

#include "requestrecord.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <limits>

namespace sb {

// The prefix-cache audit (docs/design.md, load generation, cache policy): does the server answer a
// repeated prompt faster than a new one? Three passes over the same N prompt bodies:
//   A (cold)    every prompt behind a new unique prefix, so nothing can be cached;
//   B (warm)    exactly A's prompts again: cached if the server caches prefixes;
//   C (control) the same bodies behind new unique prefixes: cold again, run after B, so drift
//               over time (a server warming up, a neighbour's load) shows in C as well as in B.
// The effect is TTFT(B) / TTFT(C), paired by prompt.

enum class CacheVerdict { Detected, NotDetected, Inconclusive };
const char *cacheVerdictKey(CacheVerdict v); // "detected" | "not-detected" | "inconclusive"
// "prefix cache detected" | "no prefix-cache effect detected" | "inconclusive"
QString cacheVerdictText(CacheVerdict v);

struct CacheAuditPass
{
    QString name;         // "A", "B", "C"
    QString description;  // "cold: new unique prefixes", ...
    qint64 requests = 0;  // measured (not warm-up) records
    qint64 succeeded = 0; // successful, with a first token: the TTFT sample
    double meanTtftMs = std::numeric_limits<double>::quiet_NaN();   // NaN without a sample
    double medianTtftMs = std::numeric_limits<double>::quiet_NaN(); // linear interpolation
    qint64 cachedReported = 0; // of the successful ones, how many reported cached_tokens
    qint64 cachedTokens = 0;   // their sum (RequestRecord::cachedTokens)

    bool cachedTokensReported() const { return cachedReported > 0; }
    QJsonObject toJson() const;
};

struct CacheAuditResult
{
    static constexpr double kConfidence = 0.95;
    // A ratio whose whole interval lies below this is a cache effect worth reporting: 10 % is
    // beyond what timing noise between two passes of the same prompts plausibly produces.
    static constexpr double kDetectBelow = 0.9;

    CacheAuditPass cold;    // A
    CacheAuditPass warm;    // B
    CacheAuditPass control; // C

    // TTFT(B) / TTFT(C), paired by prompt (RequestRecord::datasetItem): d_i = ln(B_i / C_i);
    // ratio = exp(mean d); interval = exp(mean d +- t(0.975, n-1) * s / sqrt(n)), s the sample
    // standard deviation (n - 1). Needs n >= 2 pairs; NaN otherwise.
    qint64 pairs = 0;
    double ratio = std::numeric_limits<double>::quiet_NaN();
    double ciLow = std::numeric_limits<double>::quiet_NaN();
    double ciHigh = std::numeric_limits<double>::quiet_NaN();
    double meanLogRatio = std::numeric_limits<double>::quiet_NaN();
    double sdLogRatio = std::numeric_limits<double>::quiet_NaN();
    double tQuantile = std::numeric_limits<double>::quiet_NaN();

    // Detected: the interval's upper bound is below kDetectBelow, or pass B reported cached
    // tokens. NotDetected: the interval contains 1 and B reported no cached tokens (zero or not
    // at all). Inconclusive: anything else (an interval that excludes 1 but not below 0.9, or
    // fewer than two pairs).
    CacheVerdict verdict = CacheVerdict::Inconclusive;

    bool hasInterval() const;
    static QString methodText();
    QString meaning() const; // what the verdict means for benchmark results
    QJsonObject toJson() const;
    QString formatText() const;
};

// A pure function of the three passes' records (warm-up and failed records are left out).
CacheAuditResult auditCache(const QList<RequestRecord> &cold, const QList<RequestRecord> &warm,
                            const QList<RequestRecord> &control);

// Student's t distribution: the p-quantile for df degrees of freedom (p in (0, 1), df > 0),
// from the regularized incomplete beta function by bisection; accurate to about 1e-9.
double studentTQuantile(double p, double df);

} // namespace sb
