#pragma once

#include "common/specialfunctions.h" // logGamma, used by callers too

#include <QList>
#include <QtGlobal>
#include <limits>

namespace sb {

// MLPerf early stopping, as LoadGen's early_stopping.cc and results.cc define it (docs/design.md,
// load generation).
//
// With N queries of which t exceed the latency bound, the run supports "the p-th percentile is
// under the bound" with confidence c when the chance of seeing t or fewer over-latency queries,
// if the true over-latency rate were 1 - p, is below 1 - c:
//   odds(h, t, p) = I_p(h, t + 1) = P(Binomial(h + t, 1 - p) <= t)      (h = N - t)
//   find(t, p)    = the smallest h with odds(h, t, p) < 1 - c
// Server passes when N >= find(t, p) + t. Since odds falls as h grows with t fixed, that is the
// same as P(Binomial(N, 1 - p) <= t) < 1 - c, a single binomial CDF value; and that CDF grows
// with t, so the largest t an N can absorb is found by walking the CDF once (no search per t).
// That is what makes a 1,000,000-query judgement take milliseconds.
// Tolerance d is 0 (LoadGen's value); confidence defaults to LoadGen's 0.99.

enum class BetaMethod {
    ContinuedFraction, // Lentz's modified continued fraction for I_x(a, b), any a, b > 0
    BinomialSum,       // exact sum of binomial terms in log space (integer b only)
};

// Regularized incomplete beta I_x(a, b). BinomialSum needs an integer b >= 1 and integer a >= 1.
double regularizedIncompleteBeta(double x, double a, double b,
                                 BetaMethod method = BetaMethod::ContinuedFraction);

// P(Binomial(n, q) <= k), summed in log space.
double binomialCdf(qint64 n, qint64 k, double q);

// I_p(h, t + 1).
double earlyStoppingOdds(qint64 h, qint64 t, double p,
                         BetaMethod method = BetaMethod::ContinuedFraction);

// find(t, p): the smallest h >= 1 with odds(h, t, p) < 1 - confidence. Binary search after a
// galloping bracket: O(log h) odds evaluations.
qint64 findMinPassingH(qint64 t, double p, double confidence = 0.99,
                       BetaMethod method = BetaMethod::ContinuedFraction);

// The largest t with queries >= find(t, p) + t, or -1 when even t = 0 fails
// (queries < find(0, p)). One pass over the binomial CDF.
qint64 maxPassingOverlatency(qint64 queries, double p, double confidence = 0.99);

struct EarlyStoppingResult
{
    double percentile = 0; // p, e.g. 0.99
    qint64 queries = 0;    // N (failed requests included)
    // Server: t, the queries over the bound (failed requests count here).
    // SingleStream/MultiStream: t of the estimate, which is the t-th largest latency;
    // LoadGen prints this as "would discard t - 1 highest latency queries".
    qint64 overlatencyQueries = 0;
    // SingleStream: the early-stopping percentile estimate sorted[N - t] (ms).
    // Server: the tightest bound this N supports: sorted[N - 1 - tmax] with tmax =
    // maxPassingOverlatency(N); early stopping passes exactly when this is <= the bound.
    // NaN when N is too small for any estimate; +inf when failed requests reach into it.
    double estimateMs = std::numeric_limits<double>::quiet_NaN();
    bool satisfied = false;
    // Smallest total N with which this outcome passes: Server find(t, p) + t (assuming every
    // additional query is under the bound); SingleStream find(1, p) + 1.
    qint64 queriesNeeded = 0;

    qint64 moreQueriesNeeded() const
    {
        return queriesNeeded > queries ? queriesNeeded - queries : 0;
    }
    // What LoadGen reports for SingleStream as the number of discarded highest latencies.
    qint64 discarded() const { return overlatencyQueries > 0 ? overlatencyQueries - 1 : 0; }
};

// Server: latencies of all queries in ms, in any order; a failed request is +inf (always over).
// t counts latencies > boundMs (LoadGen's rule: strictly greater).
EarlyStoppingResult serverEarlyStopping(const QList<double> &latenciesMs, double boundMs,
                                        double percentile = 0.99, double confidence = 0.99);
// The same from counts alone (estimateMs stays NaN).
EarlyStoppingResult serverEarlyStopping(qint64 queries, qint64 overlatencyQueries,
                                        double percentile = 0.99, double confidence = 0.99);

// SingleStream / MultiStream: needs N >= find(1, p) + 1; then t = the largest t with
// N >= find(t, p) + t (LoadGen: the first i >= 2 with N < find(i, p) + i, minus one) and the
// estimate is sorted[N - t] (0-based ascending). Failed requests are +inf.
EarlyStoppingResult singleStreamEarlyStopping(QList<double> latenciesMs, double percentile = 0.90,
                                              double confidence = 0.99);

} // namespace sb
