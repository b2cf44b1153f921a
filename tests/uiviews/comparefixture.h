#pragma once

// The report fixture (runs A and B: same workload, two SUTs, failures, a test window each) plus
// what the Compare tab needs besides: an Offline run of A's SUT on the same dataset, and a rate
// sweep per SUT (5, 10 and 20 req/s) whose 10 req/s runs each lie in a test window of their own.

#include "../report/reportfixture.h"

#include <QDateTime>
#include <QList>

#include <limits>

namespace comparefixture {

using namespace Qt::StringLiterals;

struct Project : fixture::Project
{
    qint64 offline = 0;
    qint64 sweepIdA = 0;
    qint64 sweepIdB = 0;
    QList<qint64> sweepA; // vllm-a100 at 5, 10, 20 req/s
    QList<qint64> sweepB; // sglang-h100 at 5, 10, 20 req/s
};

inline const QList<double> kRates = {5, 10, 20};

// n successful requests sent 1/rate s apart, 32 one-token chunks each; TTFT and ITL vary a
// little from request to request so the CDFs have a shape.
inline QList<sb::RequestRecord> sweepRecords(int n, double rate, double ttftMs, double itlMs)
{
    QList<sb::RequestRecord> out;
    for (int i = 0; i < n; ++i) {
        sb::RequestRecord r;
        r.index = i;
        r.datasetItem = i;
        r.requestId = u"req-%1"_s.arg(i);
        r.tSched = fixture::kT0 + qint64(double(i) / rate * 1e9);
        r.tQueued = r.tDispatch = r.tSched;
        r.tSend = r.tSched + 50'000;
        const double ttft = ttftMs * (0.8 + 0.1 * (i % 5));
        const double itl = itlMs * (0.9 + 0.05 * (i % 4));
        qint64 t = r.tSend + qint64(ttft * 1e6);
        for (int k = 0; k < 32; ++k) {
            r.chunkTimes.append(t);
            r.chunkTokens.append(1);
            t += qint64(itl * 1e6);
        }
        r.tFirst = r.chunkTimes.constFirst();
        r.tLast = r.chunkTimes.constLast();
        r.tEnd = r.tLast + 100'000;
        r.inputTokens = 256;
        r.outputTokens = 32;
        r.inputSource = r.outputSource = sb::TokenSource::ServerUsage;
        r.finishReason = u"length"_s;
        r.httpStatus = 200;
        out.append(r);
    }
    return out;
}

inline bool build(const QString &path, Project *out, QString *error)
{
    if (!fixture::build(path, out, error))
        return false;
    const QDateTime startA(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC);
    const QDateTime startB(QDate(2024, 5, 1), QTime(11, 0), Qt::UTC);
    {
        sb::ProjectStore s;
        if (!s.open(path)) {
            *error = s.lastError();
            return false;
        }
        out->sweepIdA = s.saveSweep({0, u"rate sweep vllm-a100"_s, u"rate-sweep"_s, {}, {}});
        out->sweepIdB = s.saveSweep({0, u"rate sweep sglang-h100"_s, u"rate-sweep"_s, {}, {}});
        if (!out->sweepIdA || !out->sweepIdB) {
            *error = u"sweep: "_s + s.lastError();
            return false;
        }
    }
    {
        sb::RunWriter w;
        if (!w.open(path, error))
            return false;
        sb::RunPlan offline = fixture::plan(u"vllm-a100"_s, u"vllm"_s, u"A100"_s);
        offline.profile.scenario = sb::Scenario::Offline;
        offline.profile.requestRate = std::numeric_limits<double>::infinity();
        out->offline =
            fixture::writeRun(w, offline, sweepRecords(40, 2000, 180, 16), u"Offline A"_s,
                              startA.addSecs(300), out->links(out->sutA));
        // Latency rises with the rate, A faster to saturate than B.
        const QList<double> ttftA = {48, 70, 150}, itlA = {10, 12, 19};
        const QList<double> ttftB = {34, 40, 58}, itlB = {7, 7.5, 9};
        for (int k = 0; k < kRates.size(); ++k) {
            sb::RunPlan a = fixture::plan(u"vllm-a100"_s, u"vllm"_s, u"A100"_s);
            a.profile.requestRate = kRates.at(k);
            out->sweepA << fixture::writeRun(
                w, a, sweepRecords(40, kRates.at(k), ttftA.at(k), itlA.at(k)),
                u"vllm-a100 @ %1 req/s"_s.arg(kRates.at(k)), startA.addSecs(600 + 300 * k),
                out->links(out->sutA, out->sweepIdA, k));
            sb::RunPlan b = fixture::plan(u"sglang-h100"_s, u"sglang"_s, u"H100"_s);
            b.profile.requestRate = kRates.at(k);
            out->sweepB << fixture::writeRun(
                w, b, sweepRecords(40, kRates.at(k), ttftB.at(k), itlB.at(k)),
                u"sglang-h100 @ %1 req/s"_s.arg(kRates.at(k)), startB.addSecs(600 + 300 * k),
                out->links(out->sutB, out->sweepIdB, k));
        }
        w.close();
        if (!out->offline || out->sweepA.contains(0) || out->sweepB.contains(0)) {
            *error = u"writing the runs failed"_s;
            return false;
        }
    }
    sb::ProjectStore s;
    if (!s.open(path)) {
        *error = s.lastError();
        return false;
    }
    sb::CostStore cost(&s);
    for (const auto &[name, run, item] :
         {std::tuple{u"window A 10 req/s"_s, out->sweepA.at(1), u"gpu-a"_s},
          std::tuple{u"window B 10 req/s"_s, out->sweepB.at(1), u"gpu-b"_s}}) {
        const auto window = cost.windowFromRuns(name, {run});
        if (!window || cost.saveWindow(*window) == 0 ||
            !cost.setOverlapRule(name, item, sb::OverlapRule::Prorate)) {
            *error = u"window: "_s + cost.lastError();
            return false;
        }
    }
    return true;
}

} // namespace comparefixture
