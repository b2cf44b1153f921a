#pragma once

#include <QtGlobal>

namespace sb {

// SplitMix64 (Steele, Lea & Flood): one 64-bit step. Used to spread a user seed over the
// generator's state, as the xoshiro authors recommend.
quint64 splitMix64(quint64 &state);

// xoshiro256** (Blackman & Vigna): the statistics code's only source of randomness. Written
// out rather than taken from <random> because std's distributions (uniform_int_distribution,
// normal_distribution, ...) are implementation-defined: the same seed would give different
// bootstrap intervals on libstdc++ and libc++. next() and below() are exact integer arithmetic,
// so a bootstrap is bit-reproducible on every platform; uniform() is exact too; normal() goes
// through std::log/std::cos and is meant for synthetic test data only.
class Prng
{
public:
    explicit Prng(quint64 seed);
    // The raw state, for known-answer tests of the generator itself.
    Prng(quint64 s0, quint64 s1, quint64 s2, quint64 s3);

    quint64 next();
    // Uniform on [0, n) without modulo bias (rejection of the short last block); 0 for n == 0.
    quint64 below(quint64 n);
    // Uniform on [0, 1) with 53 random bits.
    double uniform();
    // Standard normal by Box-Muller (both values of a pair are used).
    double normal();

private:
    quint64 m_s[4];
    double m_spare = 0;
    bool m_hasSpare = false;
};

} // namespace sb
