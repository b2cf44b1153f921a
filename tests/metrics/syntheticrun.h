#pragma once

// A hand-made run whose every metric is worked out by hand in tst_summary.cpp. Times are given
// in milliseconds after T0 (1 s, so no timestamp is 0 = "did not happen").
//
//   rec  idx  kind             sched queued send  chunks (ms : tokens)          end  in         out
//   W    0    warm-up, ok      0     0      1     11:1, 21:1                    22   5 usage    2
//   usage R1   1    ok               100   101    102   112,122,132,142 (1 each)      143  10 usage
//   4 usage, cached 5 R2   2    ok, multi-token  110   110    110   130:1, 150:4, 160:1 161  20
//   usage   6 usage R3   3    ok, n_out = 1    120   120    125   155:1                         156
//   30 dataset  1 chunk count R4   4    failed http_5xx  130   130    130   - 135  -          - R5
//   5    failed timeout   140   140    141   170:1                         202  -          -

#include "metrics/requestrecord.h"

#include <QList>

namespace synthetic {

inline constexpr qint64 kT0 = 1'000'000'000;
inline qint64 ms(double m)
{
    return kT0 + qint64(m * 1e6);
}

inline sb::RequestRecord rec(qint64 index, double sched, double queued, double send,
                             const QList<QPair<double, int>> &chunks, double end)
{
    sb::RequestRecord r;
    r.index = index;
    r.datasetItem = int(index);
    r.tSched = ms(sched);
    r.tQueued = ms(queued);
    r.tSend = ms(send);
    r.tDispatch = r.tSend; // no hop to the transport in these hand-made records
    for (const auto &c : chunks) {
        r.chunkTimes.append(ms(c.first));
        r.chunkTokens.append(c.second);
    }
    if (!chunks.isEmpty()) {
        r.tFirst = r.chunkTimes.constFirst();
        r.tLast = r.chunkTimes.constLast();
    }
    r.tEnd = ms(end);
    return r;
}

inline QList<sb::RequestRecord> records()
{
    using sb::TokenSource;
    QList<sb::RequestRecord> out;

    sb::RequestRecord w = rec(0, 0, 0, 1, {{11, 1}, {21, 1}}, 22);
    w.warmup = true;
    w.inputTokens = 5;
    w.inputSource = TokenSource::ServerUsage;
    w.outputTokens = 2;
    w.outputSource = TokenSource::ServerUsage;

    sb::RequestRecord r1 = rec(1, 100, 101, 102, {{112, 1}, {122, 1}, {132, 1}, {142, 1}}, 143);
    r1.inputTokens = 10;
    r1.inputSource = TokenSource::ServerUsage;
    r1.outputTokens = 4;
    r1.outputSource = TokenSource::ServerUsage;
    r1.cachedTokens = 5;

    sb::RequestRecord r2 = rec(2, 110, 110, 110, {{130, 1}, {150, 4}, {160, 1}}, 161);
    r2.inputTokens = 20;
    r2.inputSource = TokenSource::ServerUsage;
    r2.outputTokens = 6;
    r2.outputSource = TokenSource::ServerUsage;

    sb::RequestRecord r3 = rec(3, 120, 120, 125, {{155, 1}}, 156);
    r3.expectedInputTokens = 30; // no usage: input from the dataset, output from chunks

    sb::RequestRecord r4 = rec(4, 130, 130, 130, {}, 135);
    r4.error = sb::ErrorClass::Http5xx;
    r4.httpStatus = 500;
    r4.errorMessage = QStringLiteral("HTTP 500: internal error");

    sb::RequestRecord r5 = rec(5, 140, 140, 141, {{170, 1}}, 202);
    r5.error = sb::ErrorClass::Timeout; // message left empty on purpose

    // Deliberately not in index order: completion order, as a run delivers them.
    out << w << r1 << r3 << r2 << r5 << r4;
    return out;
}

} // namespace synthetic
