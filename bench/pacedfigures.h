#pragma once

// The per-run timing figures the benches against the independent paced server print, in one
// order: bench_paced_timing (the CLI's pipeline) and bench_workbench_timing (the workbench's)
// must report the same quantities the same way to be compared.

#include "../tests/servers/pacedserverclient.h"
#include "benchutil.h"

#include <array>
#include <cstdio>

namespace bench {

inline constexpr int kTimingFigures = 13;
inline constexpr const char *kTimingFigureNames[kTimingFigures] = {
    "send p50",  "send p99", "send max", "recv p50", "recv p99",  "recv max", "first p99",
    "first max", "ttft p50", "ttft p99", "ttft max", "wave1 p99", "wave1 max"};

// Starts the paced server (SB_PACED_SERVER, the benches' build of tests/servers/pacedserver) with
// this schedule; false with the reason printed to stderr.
inline bool startPacedServer(sb::paced::PacedServer &server, double ttftMs, double itlMs)
{
    QString error;
    if (server.start(QStringLiteral(SB_PACED_SERVER),
                     {QStringLiteral("--ttft-ms"), QString::number(ttftMs),
                      QStringLiteral("--itl-ms"), QString::number(itlMs)},
                     &error))
        return true;
    std::fprintf(stderr, "%s\n", qPrintable(error));
    return false;
}

// send (request's kernel arrival − t_send), receive (every chunk: client stamp − server write),
// first token's receive, TTFT (send + receive) and the first wave's TTFT error, in ms.
inline std::array<double, kTimingFigures> timingFigures(const sb::paced::TimingErrors &t)
{
    return {percentile(t.sendMs, 50),           percentile(t.sendMs, 99),
            sb::paced::maxOf(t.sendMs),         percentile(t.receiveMs, 50),
            percentile(t.receiveMs, 99),        sb::paced::maxOf(t.receiveMs),
            percentile(t.firstReceiveMs, 99),   sb::paced::maxOf(t.firstReceiveMs),
            percentile(t.ttftMs, 50),           percentile(t.ttftMs, 99),
            sb::paced::maxOf(t.ttftMs),         percentile(t.firstWaveTtftMs, 99),
            sb::paced::maxOf(t.firstWaveTtftMs)};
}

} // namespace bench
