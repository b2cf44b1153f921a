#pragma once

#include <QtGlobal>
#include <random>

namespace sb {

// Seed derivation. A run stores one 64-bit seed; every random stream of the run gets its own
// seed from it, so adding a stream never shifts the numbers of another one.
//
//   deriveSeed(seed, stream) = splitmix64 output number (stream + 1) of a generator seeded
//                              with `seed`, i.e. mix64(seed + (stream + 1) * 0x9E3779B97F4A7C15)
//
// mix64 is a bijection and the golden-ratio increment is odd, so for one seed distinct streams
// always give distinct derived seeds. A future `--shard I/N` takes
// deriveSeed(seed, kShardStreamBase + I) as agent I's run seed: the agents' seeds are distinct
// from each other and from every stream of an unsharded run (stream ids stay below the base).
enum SeedStream : quint64 {
    kStreamArrivals = 1,           // inter-arrival gaps of buildSchedule()
    kStreamDataset = 2,            // reserved: dataset sampling
    kStreamCacheBust = 3,          // reserved: per-run random prefix
    kStreamThinkTime = 4,          // think times between a session's turns (SessionController)
    kShardStreamBase = 1ull << 32, // + shard index
};

quint64 splitmix64Mix(quint64 z);
quint64 deriveSeed(quint64 seed, quint64 stream);

// Random variates that are the same on every platform. std::mt19937_64's output sequence is fixed
// by the C++ standard, but the std:: distributions are implementation-defined (libstdc++, libc++
// and MSVC give different numbers for the same engine), so the transforms are written here.
// What remains platform-dependent is only the last-ulp behaviour of std::log/std::cos/std::sqrt.
class Rng
{
public:
    explicit Rng(quint64 seed) : m_engine(seed) {}

    quint64 next64() { return m_engine(); }
    double uniform01();                       // [0, 1), 53 random bits
    double uniformOpen01();                   // (0, 1)
    double exponential(double rate);          // mean 1/rate, by inversion
    double normal();                          // standard normal, Box-Muller (one value per call)
    double gamma(double shape, double scale); // Marsaglia-Tsang; mean shape*scale

private:
    std::mt19937_64 m_engine;
};

} // namespace sb
