#include "earlystopping.h"

#include "common/specialfunctions.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace sb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// log(exp(a) + exp(b)) without overflow; -inf is the log of zero.
double logAddExp(double a, double b)
{
    if (a == -kInf)
        return b;
    if (b == -kInf)
        return a;
    const double hi = std::max(a, b);
    return hi + std::log1p(std::exp(std::min(a, b) - hi));
}

double logChoose(qint64 n, qint64 k)
{
    return logGamma(double(n) + 1) - logGamma(double(k) + 1) - logGamma(double(n - k) + 1);
}

// I_x(a, b) for integers a, b >= 1 is P(Binomial(a + b - 1, 1 - x) <= b - 1).
double betaByBinomialSum(double x, double a, double b)
{
    const qint64 ia = qint64(a);
    const qint64 ib = qint64(b);
    if (double(ia) != a || double(ib) != b || ia < 1 || ib < 1)
        return kNaN;
    return binomialCdf(ia + ib - 1, ib - 1, 1 - x);
}

} // namespace

double binomialCdf(qint64 n, qint64 k, double q)
{
    if (k < 0)
        return 0;
    if (k >= n)
        return 1;
    if (q <= 0)
        return 1;
    if (q >= 1)
        return 0;
    const double logQ = std::log(q);
    const double logP = std::log1p(-q);
    double logCdf = -kInf;
    for (qint64 x = 0; x <= k; ++x)
        logCdf = logAddExp(logCdf, logChoose(n, x) + double(x) * logQ + double(n - x) * logP);
    return std::min(1.0, std::exp(logCdf));
}

double regularizedIncompleteBeta(double x, double a, double b, BetaMethod method)
{
    if (!(a > 0) || !(b > 0) || std::isnan(x))
        return kNaN;
    return method == BetaMethod::BinomialSum ? betaByBinomialSum(x, a, b)
                                             : regularizedIncompleteBetaCf(x, a, b);
}

double earlyStoppingOdds(qint64 h, qint64 t, double p, BetaMethod method)
{
    if (h <= 0)
        return 1; // no queries under the bound: nothing can be claimed
    return regularizedIncompleteBeta(p, double(h), double(t + 1), method);
}

qint64 findMinPassingH(qint64 t, double p, double confidence, BetaMethod method)
{
    if (t < 0 || !(p > 0 && p < 1) || !(confidence > 0 && confidence < 1))
        return -1;
    const double limit = 1 - confidence;
    auto passes = [&](qint64 h) {
        return earlyStoppingOdds(h, t, p, method) < limit;
    };
    // The mean number of under-bound queries per over-bound one is p/(1-p): h is at least about
    // t times that, so start the gallop there instead of at 1.
    qint64 lo = std::max<qint64>(1, qint64(double(t) * p / (1 - p)));
    if (passes(lo)) {
        qint64 good = lo;
        lo = 1;
        while (lo < good) {
            const qint64 mid = lo + (good - lo) / 2;
            if (passes(mid))
                good = mid;
            else
                lo = mid + 1;
        }
        return good;
    }
    qint64 step = std::max<qint64>(16, lo / 8);
    qint64 hi = lo + step;
    while (!passes(hi)) {
        lo = hi + 1;
        step *= 2;
        hi = lo + step;
    }
    // Invariant: lo fails or is unknown-and-below hi, hi passes.
    while (lo < hi) {
        const qint64 mid = lo + (hi - lo) / 2;
        if (passes(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return hi;
}

qint64 maxPassingOverlatency(qint64 queries, double p, double confidence)
{
    if (queries <= 0 || !(p > 0 && p < 1) || !(confidence > 0 && confidence < 1))
        return -1;
    // queries >= find(t) + t  <=>  P(Binomial(queries, 1 - p) <= t) < 1 - c; walk that CDF.
    const double logLimit = std::log(1 - confidence);
    const double logQ = std::log1p(-p);
    const double logP = std::log(p);
    double logCdf = -kInf;
    qint64 t = -1;
    for (qint64 x = 0; x < queries; ++x) {
        logCdf = logAddExp(logCdf,
                           logChoose(queries, x) + double(x) * logQ + double(queries - x) * logP);
        if (!(logCdf < logLimit))
            break;
        t = x;
    }
    return t;
}

EarlyStoppingResult serverEarlyStopping(qint64 queries, qint64 overlatencyQueries,
                                        double percentile, double confidence)
{
    EarlyStoppingResult r;
    r.percentile = percentile;
    r.queries = queries;
    r.overlatencyQueries = overlatencyQueries;
    const qint64 h = findMinPassingH(overlatencyQueries, percentile, confidence);
    r.queriesNeeded = h < 0 ? -1 : h + overlatencyQueries;
    r.satisfied = h >= 0 && queries >= r.queriesNeeded;
    return r;
}

EarlyStoppingResult serverEarlyStopping(const QList<double> &latenciesMs, double boundMs,
                                        double percentile, double confidence)
{
    const qint64 n = latenciesMs.size();
    const qint64 over = std::count_if(latenciesMs.begin(), latenciesMs.end(),
                                      [boundMs](double l) { return !(l <= boundMs); });
    EarlyStoppingResult r = serverEarlyStopping(n, over, percentile, confidence);
    const qint64 tmax = maxPassingOverlatency(n, percentile, confidence);
    if (tmax >= 0) {
        // The (tmax+1)-th largest: at most tmax latencies lie above it.
        const qint64 index = n - 1 - tmax;
        QList<double> sorted = latenciesMs;
        std::nth_element(sorted.begin(), sorted.begin() + index, sorted.end());
        r.estimateMs = sorted.at(index);
    }
    return r;
}

EarlyStoppingResult singleStreamEarlyStopping(QList<double> latenciesMs, double percentile,
                                              double confidence)
{
    EarlyStoppingResult r;
    r.percentile = percentile;
    r.queries = latenciesMs.size();
    const qint64 hMin = findMinPassingH(1, percentile, confidence);
    r.queriesNeeded = hMin < 0 ? -1 : hMin + 1;
    const qint64 t = maxPassingOverlatency(r.queries, percentile, confidence);
    if (hMin < 0 || t < 1)
        return r; // LoadGen: "Only processed N queries. Need to process at least find(1)+1."
    r.overlatencyQueries = t;
    r.satisfied = true;
    const qint64 index = r.queries - t;
    std::nth_element(latenciesMs.begin(), latenciesMs.begin() + index, latenciesMs.end());
    r.estimateMs = latenciesMs.at(index);
    return r;
}

} // namespace sb
