#include "specialfunctions.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace sb {

namespace {

// Numerical Recipes' betacf with Lentz's method; converges fast for x < (a+1)/(a+b+2).
double betaContinuedFraction(double a, double b, double x)
{
    constexpr double kTiny = 1e-300;
    constexpr double kEps = 1e-16;
    constexpr int kMaxIter = 10'000'000;
    const double qab = a + b;
    const double qap = a + 1;
    const double qam = a - 1;
    double c = 1;
    double d = 1 - qab * x / qap;
    if (std::abs(d) < kTiny)
        d = kTiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= kMaxIter; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        if (std::abs(d) < kTiny)
            d = kTiny;
        c = 1 + aa / c;
        if (std::abs(c) < kTiny)
            c = kTiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        if (std::abs(d) < kTiny)
            d = kTiny;
        c = 1 + aa / c;
        if (std::abs(c) < kTiny)
            c = kTiny;
        d = 1 / d;
        const double del = d * c;
        h *= del;
        if (std::abs(del - 1) < kEps)
            break;
    }
    return h;
}

} // namespace

double regularizedIncompleteBetaCf(double x, double a, double b)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const double logFront =
        logGamma(a + b) - logGamma(a) - logGamma(b) + a * std::log(x) + b * std::log1p(-x);
    const double front = std::exp(logFront);
    if (x < (a + 1) / (a + b + 2))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1 - front * betaContinuedFraction(b, a, 1 - x) / b;
}

double logGamma(double x)
{
    if (!(x > 0))
        return std::numeric_limits<double>::quiet_NaN();
    if (std::isinf(x))
        return std::numeric_limits<double>::infinity();
    // Shift up to where the Stirling series is accurate, remembering the product we skipped.
    double product = 1;
    while (x < 15) {
        product *= x;
        x += 1;
    }
    const double inv = 1 / x;
    const double inv2 = inv * inv;
    const double series =
        inv *
        (1.0 / 12 - inv2 * (1.0 / 360 - inv2 * (1.0 / 1260 - inv2 * (1.0 / 1680 - inv2 / 1188))));
    return (x - 0.5) * std::log(x) - x + 0.5 * std::log(2 * std::numbers::pi) + series -
           std::log(product);
}

} // namespace sb
