#pragma once

// A synthetic serving run for the steady-state, time-slice and saturation tests: requests
// arrive (evenly spaced or Poisson) at a rate that may change over time, and `servers` slots
// serve them first come, first served. A request holds its slot from the start of service
// until its last chunk: first chunk after `prefillS`, then `chunks - 1` more every `chunkS`.
// TTFT therefore = queueing wait + prefill, and a rate above servers / service time makes the
// queue (and TTFT) grow without bound. Times are ns after kT0 = 1 s.

#include "metrics/prng.h"
#include "metrics/requestrecord.h"

#include <QList>

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <vector>

namespace synthq {

inline constexpr qint64 kT0 = 1'000'000'000;

struct Config
{
    std::function<double(double)> rate = [](double) {
        return 10.0;
    }; // req/s at time t (s)
    bool poisson = false;
    double sendSeconds = 30; // arrivals in [0, sendSeconds)
    int servers = 1000;
    double prefillS = 0.2;
    int chunks = 10;
    double chunkS = 0.2;
    quint64 seed = 1;
};

inline qint64 ns(double s)
{
    return kT0 + qint64(std::llround(s * 1e9));
}

inline QList<sb::RequestRecord> run(const Config &c)
{
    sb::Prng rng(c.seed);
    std::priority_queue<double, std::vector<double>, std::greater<double>> free;
    for (int i = 0; i < c.servers; ++i)
        free.push(0.0);
    QList<sb::RequestRecord> out;
    double t = 0;
    for (qint64 i = 0;; ++i) {
        const double r = c.rate(t);
        t += c.poisson ? -std::log(1 - rng.uniform()) / r : (i == 0 ? 0 : 1 / r);
        if (t >= c.sendSeconds)
            break;
        const double start = std::max(t, free.top());
        free.pop();
        sb::RequestRecord rec;
        rec.index = i;
        rec.datasetItem = qint32(i);
        rec.tSched = rec.tQueued = rec.tDispatch = rec.tSend = ns(t);
        for (int k = 0; k < c.chunks; ++k) {
            rec.chunkTimes.append(ns(start + c.prefillS + k * c.chunkS));
            rec.chunkTokens.append(1);
        }
        rec.tFirst = rec.chunkTimes.constFirst();
        rec.tLast = rec.chunkTimes.constLast();
        rec.tEnd = rec.tLast;
        rec.inputTokens = 100;
        rec.inputSource = sb::TokenSource::ServerUsage;
        rec.outputTokens = c.chunks;
        rec.outputSource = sb::TokenSource::ServerUsage;
        free.push(start + c.prefillS + (c.chunks - 1) * c.chunkS);
        out.append(rec);
    }
    return out;
}

} // namespace synthq
