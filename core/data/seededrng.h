#pragma once

#include <QtGlobal>
#include <random>

namespace sb {

// A reproducible random source: std::mt19937_64 is fully specified by the standard, but the
// std:: distributions are not (libstdc++, libc++ and MSVC give different numbers for the same
// seed). Every distribution here is written out so a seed means the same request list on every
// platform and compiler.
class SeededRng
{
public:
    explicit SeededRng(quint64 seed) : m_engine(seed) {}

    quint64 next() { return m_engine(); }
    // Uniform integer in [0, n) by rejection of the biased tail (no modulo bias). n > 0.
    quint64 below(quint64 n);
    // Uniform integer in [lo, hi], both inclusive. lo <= hi.
    qint64 between(qint64 lo, qint64 hi);
    // Uniform double in [0, 1) with 53 random bits.
    double uniform01();
    // Standard normal by Box–Muller; consumes exactly two draws, so the stream stays aligned.
    double normal();
    // Fisher–Yates, from the back, as in Knuth's Algorithm P.
    template <typename List> void shuffle(List &list)
    {
        for (qsizetype i = list.size() - 1; i > 0; --i) {
            const auto j = qsizetype(below(quint64(i) + 1));
            if (j != i)
                list.swapItemsAt(i, j);
        }
    }

private:
    std::mt19937_64 m_engine;
};

} // namespace sb
