#include "prng.h"

#include <cmath>
#include <numbers>

namespace sb {

namespace {

inline quint64 rotl(quint64 x, int k)
{
    return (x << k) | (x >> (64 - k));
}

} // namespace

quint64 splitMix64(quint64 &state)
{
    quint64 z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

Prng::Prng(quint64 seed)
{
    quint64 sm = seed;
    for (quint64 &s : m_s)
        s = splitMix64(sm);
}

Prng::Prng(quint64 s0, quint64 s1, quint64 s2, quint64 s3) : m_s{s0, s1, s2, s3} {}

quint64 Prng::next()
{
    const quint64 result = rotl(m_s[1] * 5, 7) * 9;
    const quint64 t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

quint64 Prng::below(quint64 n)
{
    if (n == 0)
        return 0;
    // 2^64 mod n values at the bottom would make small results more likely; skip them.
    const quint64 threshold = (0 - n) % n;
    for (;;) {
        const quint64 r = next();
        if (r >= threshold)
            return r % n;
    }
}

double Prng::uniform()
{
    return double(next() >> 11) * 0x1.0p-53;
}

double Prng::normal()
{
    if (m_hasSpare) {
        m_hasSpare = false;
        return m_spare;
    }
    double u1 = uniform();
    while (u1 <= 0)
        u1 = uniform();
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 2.0 * std::numbers::pi * u2;
    m_spare = r * std::sin(a);
    m_hasSpare = true;
    return r * std::cos(a);
}

} // namespace sb
