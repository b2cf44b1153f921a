// The simulator's /metrics and /dcgm/metrics against what it really served: requests go
// through the real engine (RunController) while a MetricsScraper scrapes both endpoints.
#include "common/clock.h"
#include "config/runplan.h"
#include "data/dataset.h"
#include "run/runcontroller.h"
#include "servermetrics/enginecatalog.h"
#include "servermetrics/metricsscraper.h"
#include "servermetrics/promparser.h"
#include "servermetrics/serverevidence.h"
#include "sim/simmetrics.h"
#include "sim/simulator.h"

#include <QSignalSpy>
#include <QTest>
#include <memory>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QList<PromptItem> items(int n, int outputTokens)
{
    QList<PromptItem> out;
    for (int i = 0; i < n; ++i) {
        PromptItem it;
        // Shared leading words, so the prefix cache has something to find.
        it.prompt =
            u"the same long system prompt shared by every request of this test number %1"_s.arg(i);
        it.inputTokens = 14;
        it.outputTokens = outputTokens;
        it.sourceIndex = i;
        out.append(it);
    }
    return out;
}

double last(const MetricSeriesStore &store, const QByteArray &key)
{
    const MetricSeriesStore::Series *s = store.find(key);
    if (!s)
        qFatal("no series %s", key.constData());
    return s->values.last();
}

struct Served
{
    qint64 tokens = 0;   // token chunks' tokens written, every completion request
    qint64 prompt = 0;   // prompt tokens of requests that got a first token
    int finished = 0;    // requests that got every token and no engine failure
    int firstTokens = 0; // requests that got a first token
    qint64 gaps = 0;     // gaps between token chunks
    double ttftSumS = 0; // sum of (first write - arrival)
};

Served served(const QList<SimLogEntry> &log)
{
    Served s;
    for (const SimLogEntry &e : log) {
        if (!e.path.startsWith(u"/v1/"_s))
            continue;
        s.tokens += e.completionTokens;
        if (!e.chunkWriteNs.isEmpty()) {
            ++s.firstTokens;
            s.prompt += e.promptTokens;
            s.gaps += e.chunkWriteNs.size() - 1;
            s.ttftSumS += double(e.chunkWriteNs.first() - e.tAccept) / 1e9;
        }
        if (e.completionTokens == e.maxTokens && e.fault != SimFault::ErrorEvent &&
            e.httpStatus == 200)
            ++s.finished;
    }
    return s;
}

} // namespace

class TestSimMetrics : public QObject
{
    Q_OBJECT

private slots:
    void energyIsTheIntegralOfPower();
    void bucketsAreInclusive();
    void scrapedDuringARunMatchesWhatWasServed();
    void faultsCountTokensNotSuccesses();
};

void TestSimMetrics::energyIsTheIntegralOfPower()
{
    SimMetrics m;
    m.configure(u"m"_s, 1000, 60, 350, 64);
    const qint64 s = 1'000'000'000;
    m.load(0, 0, 0, 0);
    m.load(32, 3, 500, 1 * s); // 50 % busy from 1 s: 60 + 290 x 0.5 = 205 W
    QCOMPARE(m.gpuUtilPercent(), 50.0);
    QCOMPARE(m.powerW(), 205.0);
    QCOMPARE(m.kvCacheUsage(), 0.5);
    m.load(0, 0, 0, 3 * s);
    // 60 J + 2 x 205 J + 60 J up to 4 s, in mJ
    QCOMPARE(m.energyMilliJoules(4 * s), 530'000.0);
    m.load(200, 0, 5000, 4 * s); // beyond saturation and capacity: capped
    QCOMPARE(m.gpuUtilPercent(), 100.0);
    QCOMPARE(m.kvCacheUsage(), 1.0);
    QCOMPARE(m.powerW(), 350.0);
    // The rendered DCGM page carries the same numbers, in DCGM's units.
    const PromParseResult r = PromParser::parse(m.renderDcgm(5 * s));
    QVERIFY(r.errors.isEmpty());
    QCOMPARE(r.sample("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")->value, 880'000.0);
    QCOMPARE(r.sample("DCGM_FI_DEV_POWER_USAGE")->value, 350.0);
    QCOMPARE(r.sample("DCGM_FI_DEV_GPU_UTIL")->value, 100.0);
    QCOMPARE(r.family("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")->type, PromType::Counter);
}

void TestSimMetrics::bucketsAreInclusive()
{
    SimMetrics m;
    m.configure(u"a \"quoted\" model"_s, 100, 60, 350, 64);
    m.interTokenGap(10'000'000); // exactly 0.01 s: in le="0.01"
    m.interTokenGap(10'000'001); // just above: in le="0.025"
    const PromParseResult r = PromParser::parse(m.renderVllm());
    QVERIFY(r.errors.isEmpty());
    QCOMPARE(r.sample("vllm:inter_token_latency_seconds_bucket", {{"le", "0.01"}})->value, 1.0);
    QCOMPARE(r.sample("vllm:inter_token_latency_seconds_bucket", {{"le", "0.025"}})->value, 2.0);
    QCOMPARE(r.sample("vllm:inter_token_latency_seconds_bucket", {{"le", "+Inf"}})->value, 2.0);
    QCOMPARE(r.sample("vllm:inter_token_latency_seconds_count")->value, 2.0);
    QCOMPARE(r.sample("vllm:num_requests_running")->label("model_name"),
             QByteArray("a \"quoted\" model"));
    QCOMPARE(r.family("vllm:time_to_first_token_seconds")->type, PromType::Histogram);
    QCOMPARE(r.sample("vllm:time_to_first_token_seconds_bucket")->label("le"), QByteArray("0.001"));
}

void TestSimMetrics::scrapedDuringARunMatchesWhatWasServed()
{
    SimConfig cfg;
    cfg.ttftMs = 30;
    cfg.itlMs = 4;
    cfg.capacity = 4; // 8 streams offered: 4 run, 4 queue
    cfg.prefixCache = true;
    cfg.prefixBlockTokens = 4;
    cfg.kvCacheTokens = 100;
    Simulator sim(cfg);
    QVERIFY(sim.start());
    const QUrl base = sim.baseUrl();

    MetricsScraper scraper;
    ScraperOptions o;
    o.intervalMs = 100;
    o.timeoutMs = 80;
    scraper.setOptions(o);
    QUrl metrics = base, dcgm = base;
    metrics.setPath(u"/metrics"_s);
    dcgm.setPath(u"/dcgm/metrics"_s);
    scraper.setTargets({{u"sut"_s, metrics, {}, true}, {u"dcgm"_s, dcgm, {}, false}});
    QVERIFY(scraper.start());

    RunPlan plan;
    plan.sut.baseUrl = base.toString();
    plan.sut.model = u"servebench-sim"_s;
    plan.profile.numPrompts = 40;
    plan.profile.maxConcurrency = 8;
    plan.params.ignoreEos = true;
    RunController c;
    c.configure(plan, items(40, 12), {});
    QSignalSpy done(&c, &RunController::finished);
    QString error;
    QVERIFY2(c.start(&error), qPrintable(error));
    QVERIFY(done.wait(60000));
    QCOMPARE(c.status(), RunStatus::Completed);
    QVERIFY(sim.waitForLogEntries(40, 5000));
    scraper.stop();

    const Served truth = served(sim.requestLog());
    qint64 clientTokens = 0;
    qint64 tFirstSend = 0, tLastEnd = 0;
    for (const RequestRecord &r : c.records()) {
        QVERIFY2(r.ok(), qPrintable(r.errorMessage));
        clientTokens += r.outputTokens;
        tFirstSend = tFirstSend ? qMin(tFirstSend, r.tSend) : r.tSend;
        tLastEnd = qMax(tLastEnd, r.tEnd);
    }
    QCOMPARE(truth.finished, 40);
    QCOMPARE(truth.tokens, 40 * 12);
    QCOMPARE(clientTokens, truth.tokens);

    const MetricSeriesStore sut = scraper.store(0), gpu = scraper.store(1);
    QVERIFY(scraper.notes().isEmpty());
    QCOMPARE(EngineCatalog::detect(sut), ServerEngine::Vllm);
    QCOMPARE(EngineCatalog::detect(gpu), ServerEngine::Dcgm);
    for (const ScrapeRecord &r : sut.scrapes()) {
        QVERIFY2(r.ok(), qPrintable(r.detail));
        QCOMPARE(r.malformedLines, 0);
    }
    // The final scrape, after the last request: the counters equal what was served.
    const QByteArray l = "{engine=\"0\",model_name=\"servebench-sim\"}";
    QCOMPARE(last(sut, "vllm:generation_tokens_total" + l), double(truth.tokens));
    QCOMPARE(last(sut, "vllm:prompt_tokens_total" + l), double(truth.prompt));
    QCOMPARE(last(sut, "vllm:request_success_total{engine=\"0\",finished_reason=\"length\","
                       "model_name=\"servebench-sim\"}"),
             40.0);
    QCOMPARE(last(sut, "vllm:time_to_first_token_seconds_count" + l), double(truth.firstTokens));
    QCOMPARE(last(sut, "vllm:inter_token_latency_seconds_count" + l), double(truth.gaps));
    QCOMPARE(last(sut, "vllm:e2e_request_latency_seconds_count" + l), 40.0);
    QVERIFY(qAbs(last(sut, "vllm:time_to_first_token_seconds_sum" + l) - truth.ttftSumS) < 1e-9);
    const double queries = last(sut, "vllm:prefix_cache_queries_total" + l);
    const double hits = last(sut, "vllm:prefix_cache_hits_total" + l);
    QCOMPARE(queries, double(truth.prompt));
    QVERIFY(hits > 0 && hits < queries);
    QCOMPARE(last(sut, "vllm:num_requests_running" + l), 0.0); // idle again
    QCOMPARE(last(sut, "vllm:num_requests_waiting" + l), 0.0);
    QCOMPARE(last(sut, "vllm:kv_cache_usage_perc" + l), 0.0);

    // The evidence over the run window, from the scraped series.
    EvidenceInput in;
    in.stores = {&sut, &gpu};
    in.t0Ns = tFirstSend;
    in.t1Ns = tLastEnd;
    in.client.outputTokens = clientTokens;
    in.client.requests = 40;
    const ServerEvidence ev = ServerEvidence::compute(in);
    auto item = [&ev](const char *name) {
        const EvidenceItem *it = ev.item(QString::fromLatin1(name));
        if (!it->available)
            qWarning("%s: %s", name, qPrintable(it->reason));
        return it;
    };
    QCOMPARE(item("server_generation_tokens")->value, double(clientTokens));
    QCOMPARE(item("server_generation_tokens")->detail.value("difference"_L1).toDouble(), 0.0);
    QCOMPARE(item("server_requests")->value, 40.0);
    QCOMPARE(item("preemptions")->value, 0.0);
    QVERIFY(item("running_peak")->value >= 1 && item("running_peak")->value <= 4);
    QVERIFY(item("waiting_peak")->value <= 4);
    QVERIFY(item("kv_cache_usage_peak")->value > 0 && item("kv_cache_usage_peak")->value <= 1);
    // Every TTFT is 30 ms or more in the engine (queueing adds to it): in (0.02, +Inf).
    QVERIFY(item("server_ttft_mean_ms")->value >= 30);
    QVERIFY(item("server_ttft_p50_ms")->available);
    QVERIFY(item("prefix_cache_hit_rate")->value > 0);
    QVERIFY(item("energy_j")->available);
    QCOMPARE(item("energy_j")->detail.value("method"_L1).toString(), u"energy counter"_s);
    // Between idle and full power over the bracketing scrapes.
    const double spanS = (item("energy_j")->detail.value("to_ns"_L1).toDouble() -
                          item("energy_j")->detail.value("from_ns"_L1).toDouble()) /
                         1e9;
    QVERIFY(item("energy_j")->value >= 60 * spanS * 0.999);
    QVERIFY(item("energy_j")->value <= 350 * spanS * 1.001);
    QCOMPARE(item("joules_per_output_token")->value, item("energy_j")->value / clientTokens);
    QVERIFY(item("power_mean_w")->value > 60);
    sim.stop();
}

void TestSimMetrics::faultsCountTokensNotSuccesses()
{
    SimConfig cfg;
    cfg.ttftMs = 5;
    cfg.itlMs = 2;
    cfg.seed = 7;
    cfg.setFaultRate(SimFault::ResetMidStream, 0.25);
    cfg.setFaultRate(SimFault::ErrorEvent, 0.25);
    Simulator sim(cfg);
    QVERIFY(sim.start());
    RunPlan plan;
    plan.sut.baseUrl = sim.baseUrl().toString();
    plan.sut.model = u"servebench-sim"_s;
    plan.profile.numPrompts = 40;
    plan.profile.maxConcurrency = 8;
    plan.params.ignoreEos = true;
    RunController c;
    c.configure(plan, items(40, 10), {});
    QSignalSpy done(&c, &RunController::finished);
    QString error;
    QVERIFY2(c.start(&error), qPrintable(error));
    QVERIFY(done.wait(60000));
    QVERIFY(sim.waitForLogEntries(40, 5000));
    const Served truth = served(sim.requestLog());
    QVERIFY(truth.finished < 40 && truth.finished > 0); // some requests failed on purpose
    QVERIFY(truth.tokens < 400);

    MetricsScraper scraper;
    QUrl metrics = sim.baseUrl();
    metrics.setPath(u"/metrics"_s);
    scraper.setTargets({{u"sut"_s, metrics, {}, false}});
    QVERIFY(scraper.start());
    scraper.stop();
    const MetricSeriesStore sut = scraper.store(0);
    const QByteArray l = "{engine=\"0\",model_name=\"servebench-sim\"}";
    // A reset or an error event still generated the tokens before it; only whole requests
    // without an engine failure are successes.
    QCOMPARE(last(sut, "vllm:generation_tokens_total" + l), double(truth.tokens));
    QCOMPARE(last(sut, "vllm:request_success_total{engine=\"0\",finished_reason=\"length\","
                       "model_name=\"servebench-sim\"}"),
             double(truth.finished));
    QCOMPARE(last(sut, "vllm:e2e_request_latency_seconds_count" + l), double(truth.finished));
    sim.stop();
}

QTEST_GUILESS_MAIN(TestSimMetrics)
#include "tst_simmetrics.moc"
