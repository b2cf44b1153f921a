// summarize() over 1,000,000 synthetic records of 100 chunks each (100 million ITL samples).
//   bench_summary [requests=1000000] [chunks=100] [runs=3]
#include "common/clock.h"
#include "metrics/requestrecord.h"
#include "metrics/summary.h"

#include <QCoreApplication>
#include <QRandomGenerator>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace sb;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 n = argc > 1 ? QByteArray(argv[1]).toLongLong() : 1000000;
    const int chunks = argc > 2 ? std::atoi(argv[2]) : 100;
    const int runs = argc > 3 ? std::atoi(argv[3]) : 3;
    QRandomGenerator rng(42);
    QList<RequestRecord> records;
    records.reserve(n);
    for (qint64 i = 0; i < n; ++i) {
        RequestRecord r;
        r.index = i;
        r.tSched = 1'000'000'000'000 + i * 1'000'000;
        r.tQueued = r.tSched;
        r.tDispatch = r.tSched;
        r.tSend = r.tSched + qint64(rng.bounded(200'000));
        qint64 t = r.tSend + 80'000'000 + qint64(rng.bounded(40'000'000));
        r.chunkTimes.reserve(chunks);
        r.chunkTokens.reserve(chunks);
        for (int c = 0; c < chunks; ++c) {
            r.chunkTimes.append(t);
            r.chunkTokens.append(1);
            t += 10'000'000 + qint64(rng.bounded(5'000'000));
        }
        r.tFirst = r.chunkTimes.first();
        r.tLast = r.chunkTimes.last();
        r.tEnd = r.tLast + 100'000;
        r.inputTokens = 512;
        r.outputTokens = chunks;
        r.inputSource = TokenSource::ServerUsage;
        r.outputSource = TokenSource::ServerUsage;
        records.append(std::move(r));
    }
    std::vector<double> secs;
    RunSummary s;
    for (int i = 0; i < runs; ++i) {
        const qint64 t0 = monotonicNs();
        s = summarize(records);
        secs.push_back(nsToS(monotonicNs() - t0));
    }
    std::sort(secs.begin(), secs.end());
    std::printf("# summarize(): %lld records x %d chunks = %lld ITL samples, %d runs\n", qint64(n),
                chunks, qint64(n) * (chunks - 1), runs);
    std::printf("summary time (s): %.3f [%.3f – %.3f]  (completed %lld, ITL count %lld)\n",
                secs[secs.size() / 2], secs.front(), secs.back(), qint64(s.completed),
                qint64(s.itl.count));
    return 0;
}
