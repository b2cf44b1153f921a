#pragma once

// Helpers for the statistics tests: seeded synthetic samples and the binomial acceptance bounds
// that decide whether a simulated rate (coverage, false positives, power) matches its expected
// value. Everything comes from sb::Prng, so every simulation is reproducible.

#include "metrics/confidence.h"
#include "metrics/prng.h"

#include <QList>
#include <QString>

#include <cmath>

namespace statsim {

// n draws of shift + scale * exp(sigma * Z): a right-skewed, TTFT-like sample. Median
// shift + scale; every quantile moves by exactly `shift`.
inline QList<double> lognormal(sb::Prng &rng, int n, double shift, double scale, double sigma)
{
    QList<double> v;
    v.reserve(n);
    for (int i = 0; i < n; ++i)
        v.append(shift + scale * std::exp(sigma * rng.normal()));
    return v;
}

inline QList<double> normal(sb::Prng &rng, int n, double mean, double sd)
{
    QList<double> v;
    v.reserve(n);
    for (int i = 0; i < n; ++i)
        v.append(mean + sd * rng.normal());
    return v;
}

// Acceptance bounds [lo, hi] for the count of successes in K trials when the true rate is
// anywhere in [pLow, pHigh]: P(X < lo) <= tail at pLow and P(X > hi) <= tail at pHigh, so a
// correct implementation passes with probability >= 1 - 2 * tail.
struct Bounds
{
    qint64 lo = 0;
    qint64 hi = 0;
    QString text(qint64 k) const { return QStringLiteral("[%1, %2] of %3").arg(lo).arg(hi).arg(k); }
    bool contains(qint64 x) const { return lo <= x && x <= hi; }
};
inline Bounds binomialBounds(qint64 k, double pLow, double pHigh, double tail = 0.0005)
{
    Bounds b;
    b.lo = 0;
    while (b.lo < k && sb::binomialCdfAtMost(b.lo, k, pLow) <= tail)
        ++b.lo;
    // b.lo is now the smallest count with P(X <= lo) > tail, so P(X < lo) <= tail.
    b.hi = k;
    while (b.hi > 0 && 1 - sb::binomialCdfAtMost(b.hi - 1, k, pHigh) <= tail)
        --b.hi;
    return b;
}

} // namespace statsim
