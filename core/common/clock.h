#pragma once

#include <QtGlobal>
#include <time.h>

namespace sb {

// Every timestamp in ServeBench is CLOCK_MONOTONIC in nanoseconds. The built-in simulator reads
// the same clock, so the client's timing error can be measured against the server's own writes.
inline qint64 monotonicNs()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

inline double nsToMs(qint64 ns)
{
    return double(ns) / 1e6;
}
inline double nsToS(qint64 ns)
{
    return double(ns) / 1e9;
}

} // namespace sb
