#include "seededrng.h"

#include <cmath>
#include <numbers>

namespace sb {

quint64 SeededRng::below(quint64 n)
{
    Q_ASSERT(n > 0);
    // 2^64 mod n, computed without 128-bit arithmetic; draws below it would favour small values.
    const quint64 skew = (0 - n) % n;
    quint64 x = m_engine();
    while (x < skew)
        x = m_engine();
    return x % n;
}

qint64 SeededRng::between(qint64 lo, qint64 hi)
{
    Q_ASSERT(lo <= hi);
    const quint64 span = quint64(hi) - quint64(lo) + 1;
    if (span == 0) // the whole 64-bit range
        return qint64(m_engine());
    return qint64(quint64(lo) + below(span));
}

double SeededRng::uniform01()
{
    return double(m_engine() >> 11) * 0x1.0p-53;
}

double SeededRng::normal()
{
    const double u1 = 1.0 - uniform01(); // (0, 1]: log() stays finite
    const double u2 = uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

} // namespace sb
