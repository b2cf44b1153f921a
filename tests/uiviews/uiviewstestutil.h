#pragma once

// Records for the views' tests: a few hand-made ones (every field the table shows, failures,
// warm-up, multi-token chunks) and a real run of the engine against the built-in simulator.

#include "config/runplan.h"
#include "data/dataset.h"
#include "metrics/requestrecord.h"
#include "run/runcontroller.h"
#include "servermetrics/metricsscraper.h"
#include "sim/simulator.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace sb::uitest {

inline constexpr qint64 kT0 = 2'000'000'000; // no timestamp may be 0 ("did not happen")

inline qint64 at(double ms)
{
    return kT0 + qint64(ms * 1e6);
}

inline RequestRecord record(qint64 index, double sched, double send,
                            const QList<QPair<double, int>> &chunks, double end)
{
    RequestRecord r;
    r.index = index;
    r.datasetItem = int(index);
    r.requestId = QStringLiteral("req-%1").arg(index);
    r.tSched = at(sched);
    r.tQueued = at(sched);
    r.tDispatch = at(send);
    r.tSend = at(send);
    for (const auto &c : chunks) {
        r.chunkTimes.append(at(c.first));
        r.chunkTokens.append(c.second);
    }
    if (!chunks.isEmpty()) {
        r.tFirst = r.chunkTimes.constFirst();
        r.tLast = r.chunkTimes.constLast();
    }
    r.tEnd = at(end);
    r.httpStatus = 200;
    r.finishReason = QStringLiteral("length");
    return r;
}

// rec  kind                 sched send  chunks (ms:tokens)             end   tokens
// 0    warm-up ok           0     1     11:1 21:1                      22    usage 5/2
// 1    ok                   100   102   112 122 132 142                143   usage 10/4
// 2    ok multi-token       110   110   130:1 150:4 160:1              161   usage 20/6
// 3    ok n_out = 1         120   125   155:1                          156   dataset 30 / chunk 1
// 4    failed http_5xx      130   130   -                              135   -
// 5    failed timeout       140   141   170:1                          202   -
// 6    ok, slow (spike)     150   150   400:1 900:1                    901   usage 8/2
inline QList<RequestRecord> syntheticRecords()
{
    QList<RequestRecord> out;
    RequestRecord w = record(0, 0, 1, {{11, 1}, {21, 1}}, 22);
    w.warmup = true;
    w.inputTokens = 5;
    w.outputTokens = 2;
    w.inputSource = w.outputSource = TokenSource::ServerUsage;
    out << w;

    RequestRecord r1 = record(1, 100, 102, {{112, 1}, {122, 1}, {132, 1}, {142, 1}}, 143);
    r1.inputTokens = 10;
    r1.outputTokens = 4;
    r1.cachedTokens = 5;
    r1.inputSource = r1.outputSource = TokenSource::ServerUsage;
    out << r1;

    RequestRecord r2 = record(2, 110, 110, {{130, 1}, {150, 4}, {160, 1}}, 161);
    r2.inputTokens = 20;
    r2.outputTokens = 6;
    r2.inputSource = r2.outputSource = TokenSource::ServerUsage;
    out << r2;

    RequestRecord r3 = record(3, 120, 125, {{155, 1}}, 156);
    r3.expectedInputTokens = 30;
    out << r3;

    RequestRecord r4 = record(4, 130, 130, {}, 135);
    r4.httpStatus = 500;
    r4.finishReason.clear();
    r4.error = ErrorClass::Http5xx;
    r4.errorMessage = QStringLiteral("HTTP 500: internal server error");
    out << r4;

    RequestRecord r5 = record(5, 140, 141, {{170, 1}}, 202);
    r5.error = ErrorClass::Timeout;
    r5.finishReason.clear();
    r5.errorMessage = QStringLiteral("request timed out after 0.06 s");
    out << r5;

    RequestRecord r6 = record(6, 150, 150, {{400, 1}, {900, 1}}, 901);
    r6.inputTokens = 8;
    r6.outputTokens = 2;
    r6.inputSource = r6.outputSource = TokenSource::ServerUsage;
    out << r6;
    return out;
}

inline QList<PromptItem> promptItems(int n, int outputTokens)
{
    QList<PromptItem> items;
    for (int i = 0; i < n; ++i) {
        PromptItem it;
        it.prompt = QStringLiteral("dashboard test prompt %1").arg(i);
        it.inputTokens = 4;
        it.outputTokens = outputTokens;
        it.sourceIndex = i;
        items.append(it);
    }
    return items;
}

inline RunPlan simPlan(const Simulator &sim, int numPrompts, int concurrency, double rate)
{
    RunPlan plan;
    plan.name = QStringLiteral("ui views test");
    plan.sut.name = QStringLiteral("built-in simulator");
    plan.sut.baseUrl = QStringLiteral("http://127.0.0.1:%1").arg(sim.port());
    plan.sut.model = QStringLiteral("servebench-sim");
    plan.sut.builtInSimulator = true;
    plan.profile.numPrompts = numPrompts;
    plan.profile.maxConcurrency = concurrency;
    plan.profile.requestRate = rate;
    plan.profile.seed = 11;
    plan.profile.timeoutS = 2;
    plan.params.ignoreEos = true;
    return plan;
}

inline std::unique_ptr<Simulator> startSimulator(double ttftMs, double itlMs, double faultRate)
{
    SimConfig cfg;
    cfg.ttftMs = ttftMs;
    cfg.itlMs = itlMs;
    cfg.jitterMs = itlMs / 2;
    cfg.seed = 5;
    cfg.setFaultRate(SimFault::Http500, faultRate);
    cfg.setFaultRate(SimFault::Http429, faultRate);
    auto sim = std::make_unique<Simulator>(cfg);
    if (!sim->start())
        qFatal("simulator did not start");
    return sim;
}

// A scraper of the simulator's /metrics and its simulated GPU (/dcgm/metrics), as a run of the
// workbench scrapes them (docs/server-metrics.md); `baseUrl` another server to see it fail.
inline void setUpScraper(MetricsScraper *scraper, const QString &baseUrl, int intervalMs)
{
    ScrapeTarget sut;
    sut.name = QStringLiteral("sut");
    sut.url = QUrl(baseUrl + QStringLiteral("/metrics"));
    ScrapeTarget gpu;
    gpu.name = QStringLiteral("dcgm");
    gpu.url = QUrl(baseUrl + QStringLiteral("/dcgm/metrics"));
    scraper->setTargets({sut, gpu});
    ScraperOptions o;
    o.intervalMs = intervalMs;
    o.timeoutMs = intervalMs / 2;
    scraper->setOptions(o);
}

} // namespace sb::uitest
