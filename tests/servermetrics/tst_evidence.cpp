#include "servermetrics/metricseriesstore.h"
#include "servermetrics/promparser.h"
#include "servermetrics/serverevidence.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

constexpr qint64 kS = 1'000'000'000; // one second in ns
using Buckets = QList<QPair<double, double>>;

void scrape(MetricSeriesStore *store, double seconds, const QByteArray &payload)
{
    const PromParseResult parsed = PromParser::parse(payload);
    ScrapeRecord rec;
    rec.tNs = qint64(seconds * double(kS));
    rec.httpStatus = 200;
    rec.samples = parsed.samples;
    store->addScrape(rec, &parsed);
}

void failedScrape(MetricSeriesStore *store, double seconds, ScrapeOutcome outcome,
                  const QString &detail)
{
    ScrapeRecord rec;
    rec.tNs = qint64(seconds * double(kS));
    rec.outcome = outcome;
    rec.detail = detail;
    store->addScrape(rec, nullptr);
}

QByteArray vllmAt(int running0, int running1, double kv0, double kv1, double genTokens,
                  const QByteArray &extra = {})
{
    QByteArray p;
    p += "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} " +
         QByteArray::number(running0) + "\n";
    p += "vllm:num_requests_running{engine=\"1\",model_name=\"m\"} " +
         QByteArray::number(running1) + "\n";
    p +=
        "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} " + QByteArray::number(kv0) + "\n";
    p +=
        "vllm:kv_cache_usage_perc{engine=\"1\",model_name=\"m\"} " + QByteArray::number(kv1) + "\n";
    p += "vllm:generation_tokens_total{engine=\"0\",model_name=\"m\"} " +
         QByteArray::number(genTokens) + "\n";
    return p + extra;
}

QByteArray ttft(double b01, double b02, double b05, double inf, double sum)
{
    QByteArray p;
    const QByteArray m = ",model_name=\"m\"";
    p += "vllm:time_to_first_token_seconds_bucket{le=\"0.1\"" + m + "} " + QByteArray::number(b01) +
         "\n";
    p += "vllm:time_to_first_token_seconds_bucket{le=\"0.2\"" + m + "} " + QByteArray::number(b02) +
         "\n";
    p += "vllm:time_to_first_token_seconds_bucket{le=\"0.5\"" + m + "} " + QByteArray::number(b05) +
         "\n";
    p += "vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"" + m + "} " +
         QByteArray::number(inf) + "\n";
    p += "vllm:time_to_first_token_seconds_sum{model_name=\"m\"} " + QByteArray::number(sum) + "\n";
    p += "vllm:time_to_first_token_seconds_count{model_name=\"m\"} " + QByteArray::number(inf) +
         "\n";
    return p;
}

// Power changing linearly between scrapes, an energy counter (mJ) that is its exact integral:
// 1000 J at t=0, then +150, +300, +350, +250, +175 J (trapezoids; deliberately unlike the
// left or right rectangles, 1200 and 1250 J).
QByteArray dcgmAt(int i, bool withEnergy, int gpus = 1)
{
    static const double power[] = {100, 200, 400, 300, 200, 150};
    static const double energyJ[] = {1000, 1150, 1450, 1800, 2050, 2225};
    static const double util[] = {0, 50, 100, 100, 50, 0};
    QByteArray p;
    for (int g = 0; g < gpus; ++g) {
        const QByteArray l =
            "{gpu=\"" + QByteArray::number(g) + "\",UUID=\"GPU-" + QByteArray::number(g) + "\"}";
        p += "DCGM_FI_DEV_POWER_USAGE" + l + " " + QByteArray::number(power[i] * (g + 1)) + "\n";
        p += "DCGM_FI_DEV_GPU_UTIL" + l + " " + QByteArray::number(util[i] / (g + 1)) + "\n";
        p += "DCGM_FI_DEV_FB_USED" + l + " " + QByteArray::number(1000 + 10 * i) + "\n";
        if (withEnergy)
            p += "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" + l + " " +
                 QByteArray::number(energyJ[i] * 1000.0 * (g + 1), 'f', 0) + "\n";
    }
    return p;
}

double value(const ServerEvidence &ev, const char *name)
{
    const EvidenceItem *it = ev.item(QString::fromLatin1(name));
    if (!it)
        qFatal("no evidence item %s", name);
    if (!it->available)
        qWarning("%s not available: %s", name, qPrintable(it->reason));
    return it->value;
}

QString reason(const ServerEvidence &ev, const char *name)
{
    const EvidenceItem *it = ev.item(QString::fromLatin1(name));
    return it && !it->available ? it->reason : QString();
}

} // namespace

class TestEvidence : public QObject
{
    Q_OBJECT

private slots:
    void gaugesPeakAndTimeWeightedMean();
    void counterResetIsCountedNotNegative();
    void histogramDeltaMeanAndQuantiles();
    void bucketQuantileFollowsPrometheus_data();
    void bucketQuantileFollowsPrometheus();
    void energyFromCounterEqualsIntegratedPower();
    void gpuFilterAndSeveralGpus();
    void prefixCacheHitRate();
    void notAvailableReasons();
    void jsonHasDefinitionsAndNoNaN();
};

void TestEvidence::gaugesPeakAndTimeWeightedMean()
{
    MetricSeriesStore store;
    store.setIdentity(u"sut"_s, u"http://sut/metrics"_s);
    // Two data-parallel engines; running adds up, KV usage averages.
    const int r0[] = {0, 1, 3, 2, 1, 0}, r1[] = {0, 1, 1, 2, 1, 0};
    const double kv0[] = {0, 0.25, 0.5, 0.5, 0.25, 0}, kv1[] = {0, 0.25, 0.5, 0.25, 0, 0};
    for (int i = 0; i < 6; ++i)
        scrape(&store, i, vllmAt(r0[i], r1[i], kv0[i], kv1[i], 0));
    EvidenceInput in;
    in.stores = {&store};
    in.t0Ns = 1 * kS; // window [1 s, 4 s]: scrapes at 1, 2, 3, 4
    in.t1Ns = 4 * kS;
    const ServerEvidence ev = ServerEvidence::compute(in);
    // running: 2, 4, 4, 2 -> peak 4; trapezoids (3 + 4 + 3) over 3 s = 3.3333
    QCOMPARE(value(ev, "running_peak"), 4.0);
    QCOMPARE(value(ev, "running_mean"), 10.0 / 3.0);
    // kv means of the two engines: 0.25, 0.5, 0.375, 0.125 -> peak 0.5;
    // trapezoids 0.375 + 0.4375 + 0.25 = 1.0625 over 3 s
    QCOMPARE(value(ev, "kv_cache_usage_peak"), 0.5);
    QCOMPARE(value(ev, "kv_cache_usage_mean"), 1.0625 / 3.0);
    QCOMPARE(ev.item(u"running_mean"_s)->detail.value("scrapes"_L1).toInt(), 4);
    QVERIFY(ev.item(u"running_peak"_s)->source.contains(u"vllm:num_requests_running"_s));
    // vLLM without a waiting gauge in this payload: said so, by engine.
    QCOMPARE(reason(ev, "waiting_peak"), u"not exported by the target (vllm)"_s);
}

void TestEvidence::counterResetIsCountedNotNegative()
{
    MetricSeriesStore store;
    const double gen[] = {100, 150, 200, 20, 70, 90}; // the engine restarted between 2 and 3
    for (int i = 0; i < 6; ++i)
        scrape(&store, i, vllmAt(0, 0, 0, 0, gen[i]));
    EvidenceInput in;
    in.stores = {&store};
    in.t0Ns = kS / 2; // bracket: the scrape at 0 s and the one at 5 s
    in.t1Ns = 4 * kS + kS / 2;
    in.client.outputTokens = 180;
    const ServerEvidence ev = ServerEvidence::compute(in);
    // 50 + 50 + (reset: +20) + 50 + 20 = 190, never the -180 of a plain difference
    QCOMPARE(value(ev, "server_generation_tokens"), 190.0);
    const QJsonObject d = ev.item(u"server_generation_tokens"_s)->detail;
    QCOMPARE(d.value("counter_resets"_L1).toInt(), 1);
    QCOMPARE(d.value("client_output_tokens"_L1).toDouble(), 180.0);
    QCOMPARE(d.value("difference"_L1).toDouble(), 10.0);
    QCOMPARE(d.value("from_ns"_L1).toInteger(), 0);
    QCOMPARE(d.value("to_ns"_L1).toInteger(), 5 * kS);
}

void TestEvidence::histogramDeltaMeanAndQuantiles()
{
    MetricSeriesStore store;
    scrape(&store, 0, ttft(10, 20, 30, 30, 6.0));
    scrape(&store, 2, ttft(10, 40, 70, 80, 26.0)); // inside: does not change the deltas
    scrape(&store, 5, ttft(10, 60, 110, 130, 46.0));
    EvidenceInput in;
    in.stores = {&store};
    in.t0Ns = kS;
    in.t1Ns = 4 * kS;
    in.client.ttftMeanMs = 450;
    const ServerEvidence ev = ServerEvidence::compute(in);
    // Deltas: le 0.1: 0, 0.2: 40, 0.5: 80, +Inf: 100; sum 40 s over 100 -> mean 400 ms
    QCOMPARE(value(ev, "server_ttft_mean_ms"), 400.0);
    // p50: rank 50 in (0.2, 0.5]: 0.2 + 0.3 x (50 - 40) / 40 = 0.275 s
    QCOMPARE(value(ev, "server_ttft_p50_ms"), 275.0);
    // p90 and p99 fall in +Inf: the highest finite bound
    QCOMPARE(value(ev, "server_ttft_p90_ms"), 500.0);
    QCOMPARE(value(ev, "server_ttft_p99_ms"), 500.0);
    QCOMPARE(value(ev, "ttft_outside_engine_ms"), 50.0);
    QCOMPARE(ev.item(u"server_ttft_mean_ms"_s)->detail.value("observations"_L1).toDouble(), 100.0);
    // No ITL histogram in this payload.
    QVERIFY(reason(ev, "server_itl_p50_ms").startsWith(u"not exported"_s));
}

void TestEvidence::bucketQuantileFollowsPrometheus_data()
{
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QTest::addColumn<double>("q");
    QTest::addColumn<Buckets>("buckets");
    QTest::addColumn<double>("expected");
    // rank 25102.8 in (0.5, 1]: 0.5 + 0.5 x (25102.8 - 24101) / 2250
    QTest::newRow("interpolated") << 0.9 << Buckets{{0.5, 24101}, {1.0, 26351}, {inf, 27892}}
                                  << 0.5 + 0.5 * (0.9 * 27892 - 24101) / 2250;
    QTest::newRow("lowest bucket from 0") << 0.5 << Buckets{{inf, 10}, {2.0, 10}} << 1.0;
    QTest::newRow("lowest bound <= 0") << 0.1 << Buckets{{-1.0, 5}, {1.0, 10}, {inf, 10}} << -1.0;
    QTest::newRow("in +Inf") << 0.99 << Buckets{{1.0, 1}, {2.0, 2}, {inf, 100}} << 2.0;
    QTest::newRow("no +Inf") << 0.5 << Buckets{{1.0, 1}, {2.0, 2}} << nan;
    QTest::newRow("no observations") << 0.5 << Buckets{{1.0, 0}, {inf, 0}} << nan;
    QTest::newRow("one bucket") << 0.5 << Buckets{{inf, 4}} << nan;
    QTest::newRow("q > 1") << 1.5 << Buckets{{1.0, 1}, {inf, 1}} << inf;
    QTest::newRow("q < 0") << -0.5 << Buckets{{1.0, 1}, {inf, 1}} << -inf;
    // A count that dips (a scrape between two bucket updates) is forced monotonic:
    // counts 10, 8 -> 10, 10; rank 5 in the first bucket: 1.0 x 5 / 10
    QTest::newRow("forced monotonic") << 0.5 << Buckets{{1.0, 10}, {2.0, 8}, {inf, 10}} << 0.5;
    // Equal bounds add up: (1, 3) + (1, 3) -> (1, 6); rank 5 in the first bucket: 5 / 6
    QTest::newRow("coalesced") << 0.5 << Buckets{{1.0, 3}, {1.0, 3}, {2.0, 10}, {inf, 10}}
                               << 5.0 / 6.0;
}

void TestEvidence::bucketQuantileFollowsPrometheus()
{
    QFETCH(double, q);
    QFETCH(Buckets, buckets);
    QFETCH(double, expected);
    const double got = ServerEvidence::bucketQuantile(q, buckets);
    if (std::isnan(expected))
        QVERIFY2(std::isnan(got), qPrintable(QString::number(got)));
    else
        QCOMPARE(got, expected);
}

void TestEvidence::energyFromCounterEqualsIntegratedPower()
{
    for (bool withCounter : {true, false}) {
        MetricSeriesStore gpu;
        gpu.setIdentity(u"dcgm"_s, u"http://gpu:9400/metrics"_s);
        for (int i = 0; i < 6; ++i)
            scrape(&gpu, i, dcgmAt(i, withCounter));
        EvidenceInput in;
        in.stores = {&gpu};
        in.t0Ns = kS / 2; // bracket [0 s, 5 s]
        in.t1Ns = 4 * kS + kS / 2;
        in.client.outputTokens = 245;
        const ServerEvidence ev = ServerEvidence::compute(in);
        // Counter: (2225 - 1000) J. Trapezoids of power: 150 + 300 + 350 + 250 + 175 J.
        QCOMPARE(value(ev, "energy_j"), 1225.0);
        QCOMPARE(ev.item(u"energy_j"_s)->detail.value("method"_L1).toString(),
                 withCounter ? u"energy counter"_s : u"integrated power"_s);
        QCOMPARE(value(ev, "joules_per_output_token"), 5.0);
        // In-window scrapes 1..4 s: power 200, 400, 300, 200 -> (300 + 350 + 250) / 3
        QCOMPARE(value(ev, "power_mean_w"), 300.0);
        // util 50, 100, 100, 50 -> (75 + 100 + 75) / 3
        QCOMPARE(value(ev, "gpu_util_mean"), 250.0 / 3.0);
        QCOMPARE(value(ev, "fb_used_peak_bytes"), 1040.0 * 1048576.0);
    }
}

void TestEvidence::gpuFilterAndSeveralGpus()
{
    MetricSeriesStore gpu;
    for (int i = 0; i < 6; ++i)
        scrape(&gpu, i, dcgmAt(i, true, 2)); // GPU 1 draws twice the power, half the util
    EvidenceInput in;
    in.stores = {&gpu};
    in.t0Ns = kS / 2;
    in.t1Ns = 4 * kS + kS / 2;
    const ServerEvidence both = ServerEvidence::compute(in);
    QCOMPARE(value(both, "energy_j"), 3675.0);                    // 1225 + 2450, summed
    QCOMPARE(value(both, "power_mean_w"), 900.0);                 // 300 + 600
    QCOMPARE(value(both, "gpu_util_mean"), (250.0 / 3.0) * 0.75); // mean of 100 % and 50 %
    QCOMPARE(reason(both, "joules_per_output_token"), u"no client output tokens given"_s);
    in.gpuLabel = "gpu";
    in.gpuValues = {"1"};
    const ServerEvidence one = ServerEvidence::compute(in);
    QCOMPARE(value(one, "energy_j"), 2450.0);
    QCOMPARE(value(one, "gpu_util_mean"), 125.0 / 3.0);
}

void TestEvidence::prefixCacheHitRate()
{
    MetricSeriesStore store;
    scrape(&store, 0,
           "vllm:prefix_cache_queries_total{model_name=\"m\"} 1000\n"
           "vllm:prefix_cache_hits_total{model_name=\"m\"} 100\n");
    scrape(&store, 3,
           "vllm:prefix_cache_queries_total{model_name=\"m\"} 2000\n"
           "vllm:prefix_cache_hits_total{model_name=\"m\"} 350\n");
    EvidenceInput in;
    in.stores = {&store};
    in.t0Ns = kS;
    in.t1Ns = 2 * kS;
    const ServerEvidence ev = ServerEvidence::compute(in);
    QCOMPARE(value(ev, "prefix_cache_hit_rate"), 0.25); // 250 / 1000 over the window
    QCOMPARE(ev.item(u"prefix_cache_hit_rate"_s)->detail.value("queries"_L1).toDouble(), 1000.0);
    // No lookups at all during the window.
    MetricSeriesStore idle;
    scrape(&idle, 0, "vllm:prefix_cache_queries_total 5\nvllm:prefix_cache_hits_total 1\n");
    scrape(&idle, 3, "vllm:prefix_cache_queries_total 5\nvllm:prefix_cache_hits_total 1\n");
    in.stores = {&idle};
    QCOMPARE(reason(ServerEvidence::compute(in), "prefix_cache_hit_rate"),
             u"no prefix-cache lookups during the window"_s);
}

void TestEvidence::notAvailableReasons()
{
    EvidenceInput in;
    in.t0Ns = 10 * kS;
    in.t1Ns = 20 * kS;
    QCOMPARE(reason(ServerEvidence::compute(in), "running_peak"), u"no server metrics target"_s);

    MetricSeriesStore down;
    down.setIdentity(u"sut"_s, u"http://127.0.0.1:1/metrics"_s);
    failedScrape(&down, 9, ScrapeOutcome::Unreachable, u"unreachable: connection refused"_s);
    failedScrape(&down, 21, ScrapeOutcome::Unreachable, u"unreachable: connection refused"_s);
    in.stores = {&down};
    const ServerEvidence evDown = ServerEvidence::compute(in);
    QCOMPARE(reason(evDown, "running_peak"),
             u"target 'sut' not available: unreachable: connection refused"_s);
    QCOMPARE(reason(evDown, "energy_j").contains(u"connection refused"_s), true);
    const QJsonObject target = evDown.toJson().value("targets"_L1).toArray().at(0).toObject();
    QCOMPARE(target.value("status"_L1).toString(), u"not available"_s);
    QCOMPARE(target.value("failures"_L1).toObject().value("unreachable"_L1).toInt(), 2);

    // TGI exports no KV usage and no TTFT histogram.
    MetricSeriesStore tgi;
    scrape(&tgi, 9, "tgi_queue_size 1\ntgi_batch_current_size 2\n");
    scrape(&tgi, 15, "tgi_queue_size 1\ntgi_batch_current_size 2\n");
    scrape(&tgi, 21, "tgi_queue_size 1\ntgi_batch_current_size 2\n");
    in.stores = {&tgi};
    const ServerEvidence evTgi = ServerEvidence::compute(in);
    QCOMPARE(reason(evTgi, "kv_cache_usage_mean"), u"not exported by the target (tgi)"_s);
    QCOMPARE(reason(evTgi, "server_ttft_p99_ms"), u"not exported by the target (tgi)"_s);
    QCOMPARE(value(evTgi, "running_peak"), 2.0);
    QCOMPARE(reason(evTgi, "gpu_util_mean"), u"not exported by the target (tgi)"_s);

    // Scrapes around the window but none inside it: gauges have nothing; counters bracket.
    MetricSeriesStore gap;
    gap.setIdentity(u"sut"_s, {});
    scrape(&gap, 5, vllmAt(1, 0, 0.1, 0.1, 10));
    failedScrape(&gap, 15, ScrapeOutcome::Timeout, u"timeout after 300 ms"_s);
    scrape(&gap, 25, vllmAt(1, 0, 0.1, 0.1, 30));
    in.stores = {&gap};
    const ServerEvidence evGap = ServerEvidence::compute(in);
    QCOMPARE(reason(evGap, "running_peak"), u"no successful scrape of 'sut' inside the window"_s);
    QCOMPARE(value(evGap, "server_generation_tokens"), 20.0);

    // Scraping started after the window began: no baseline for a counter.
    MetricSeriesStore late;
    late.setIdentity(u"sut"_s, {});
    scrape(&late, 12, vllmAt(1, 0, 0.1, 0.1, 10));
    scrape(&late, 25, vllmAt(1, 0, 0.1, 0.1, 30));
    in.stores = {&late};
    QCOMPARE(reason(ServerEvidence::compute(in), "server_generation_tokens"),
             u"no successful scrape of 'sut' at or before the window's start"_s);

    // A histogram that saw nothing during the window.
    MetricSeriesStore quiet;
    scrape(&quiet, 5, ttft(1, 1, 1, 1, 0.05));
    scrape(&quiet, 25, ttft(1, 1, 1, 1, 0.05));
    in.stores = {&quiet};
    QCOMPARE(reason(ServerEvidence::compute(in), "server_ttft_p50_ms"),
             u"no observations in 'vllm:time_to_first_token_seconds' during the window"_s);
}

void TestEvidence::jsonHasDefinitionsAndNoNaN()
{
    MetricSeriesStore store;
    store.setIdentity(u"sut"_s, u"http://sut/metrics"_s);
    MetricSeriesStore gpu;
    gpu.setIdentity(u"dcgm"_s, u"http://gpu/metrics"_s);
    for (int i = 0; i < 6; ++i) {
        scrape(&store, i, vllmAt(i, 0, 0.1, 0.1, 100.0 * i, ttft(0, i, 2 * i, 3 * i, 0.1 * i)));
        scrape(&gpu, i, dcgmAt(i, true));
    }
    EvidenceInput in;
    in.stores = {&store, &gpu};
    in.t0Ns = kS / 2;
    in.t1Ns = 4 * kS + kS / 2;
    in.client.outputTokens = 500;
    in.client.ttftMeanMs = 40;
    const ServerEvidence ev = ServerEvidence::compute(in);
    // Engine figures from the SUT, GPU figures from the exporter.
    QVERIFY(ev.item(u"running_peak"_s)->source.startsWith(u"sut:"_s));
    QVERIFY(ev.item(u"energy_j"_s)->source.startsWith(u"dcgm:"_s));
    QCOMPARE(value(ev, "joules_per_output_token"), 1225.0 / 500.0);
    const QJsonObject json = ev.toJson();
    const QByteArray text = QJsonDocument(json).toJson(QJsonDocument::Compact);
    QVERIFY(!text.contains("nan") && !text.contains("inf"));
    const QJsonObject evidence = json.value("evidence"_L1).toObject();
    const QJsonObject definitions = json.value("definitions"_L1).toObject();
    QCOMPARE(evidence.size(), ServerEvidence::names().size());
    for (const QString &name : ServerEvidence::names()) {
        QVERIFY2(evidence.contains(name), qPrintable(name));
        QVERIFY2(!definitions.value(name).toString().isEmpty(), qPrintable(name));
        const QJsonObject o = evidence.value(name).toObject();
        if (o.value("available"_L1).toBool())
            QVERIFY(o.contains("value"_L1) && o.contains("source"_L1));
        else
            QVERIFY2(!o.value("reason"_L1).toString().isEmpty(), qPrintable(name));
    }
    QCOMPARE(json.value("targets"_L1).toArray().size(), 2);
    QCOMPARE(json.value("targets"_L1).toArray().at(1).toObject().value("engine"_L1).toString(),
             u"dcgm"_s);
}

QTEST_GUILESS_MAIN(TestEvidence)
#include "tst_evidence.moc"
