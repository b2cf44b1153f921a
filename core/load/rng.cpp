#include "rng.h"

#include <cmath>
#include <numbers>

namespace sb {

namespace {
constexpr quint64 kGolden = 0x9E3779B97F4A7C15ull;
}

quint64 splitmix64Mix(quint64 z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

quint64 deriveSeed(quint64 seed, quint64 stream)
{
    return splitmix64Mix(seed + (stream + 1) * kGolden);
}

double Rng::uniform01()
{
    return double(m_engine() >> 11) * 0x1.0p-53;
}

double Rng::uniformOpen01()
{
    // Half-step offset keeps both ends out: (k + 0.5) / 2^53 for k in [0, 2^53).
    return (double(m_engine() >> 11) + 0.5) * 0x1.0p-53;
}

double Rng::exponential(double rate)
{
    return -std::log(uniformOpen01()) / rate;
}

double Rng::normal()
{
    // Box-Muller with one value per call: simpler to keep reproducible than caching the pair.
    const double u1 = uniformOpen01();
    const double u2 = uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double Rng::gamma(double shape, double scale)
{
    if (shape < 1.0) {
        // Boost to shape + 1 and scale back with U^(1/shape) (Marsaglia & Tsang, section 6).
        const double g = gamma(shape + 1.0, 1.0);
        return g * std::pow(uniformOpen01(), 1.0 / shape) * scale;
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x;
        double v;
        do {
            x = normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = uniformOpen01();
        const double x2 = x * x;
        if (u < 1.0 - 0.0331 * x2 * x2)
            return d * v * scale;
        if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v)))
            return d * v * scale;
    }
}

} // namespace sb
