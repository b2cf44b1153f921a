#include "servermetrics/enginecatalog.h"
#include "servermetrics/metricseriesstore.h"
#include "servermetrics/promparser.h"

#include <QFile>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QByteArray readData(const QString &relative)
{
    QFile f(QStringLiteral(SB_TEST_DATA_DIR "/servermetrics/") + relative);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open test data %s", qPrintable(f.fileName()));
    return f.readAll();
}

MetricSeriesStore storeOf(const QByteArray &payload)
{
    MetricSeriesStore store;
    const PromParseResult parsed = PromParser::parse(payload);
    ScrapeRecord rec;
    rec.tNs = 1'000'000'000;
    store.addScrape(rec, &parsed);
    return store;
}

bool quantityFromName(const QString &name, ServerQuantity *out)
{
    for (int i = 0; i < ServerQuantityCount; ++i) {
        if (name == QLatin1StringView(serverQuantityName(ServerQuantity(i)))) {
            *out = ServerQuantity(i);
            return true;
        }
    }
    return false;
}

// The quantity's value at the store's only scrape, aggregated and scaled as the catalog says;
// for a histogram: its bucket count, or "mean" for a sum/count pair.
QString valueOf(const ResolvedQuantity &r)
{
    if (EngineCatalog::kind(r.quantity) == QuantityKind::Histogram) {
        if (!r.selector.countName.isEmpty())
            return u"mean"_s;
        return u"%1 buckets"_s.arg(r.buckets.size());
    }
    double sum = 0;
    for (const MetricSeriesStore::Series *s : r.series)
        sum += s->values.value(0);
    if (EngineCatalog::aggregation(r.quantity) == QuantityAggregation::Mean)
        sum /= double(r.series.size());
    return QString::number(sum * r.selector.scale, 'g', 12);
}

} // namespace

class TestEngineCatalog : public QObject
{
    Q_OBJECT

private slots:
    void payloads_data();
    void payloads();
    void olderVllmNames();
    void detectionByPrefix_data();
    void detectionByPrefix();
    void everySelectorNamesItsSource();
};

void TestEngineCatalog::payloads_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QStringList>("found");   // "quantity=value"
    QTest::addColumn<QStringList>("missing"); // quantities the payload does not export

    QTest::newRow("vllm design doc")
        << u"vllm_design_doc_example.txt"_s << u"vllm"_s
        << QStringList{u"running=8"_s, u"generation_tokens_total=27453"_s, u"requests_total=132"_s,
                       u"ttft=8 buckets"_s}
        << QStringList{u"waiting"_s, u"kv_cache_usage"_s, u"prefix_cache_hits"_s,
                       u"e2e"_s,     u"gpu_util"_s,       u"power_w"_s};
    QTest::newRow("sglang doc")
        << u"sglang_production_metrics_doc.txt"_s << u"sglang"_s
        << QStringList{u"running=162"_s,
                       u"waiting=2826"_s,
                       u"kv_cache_usage=0.28"_s,
                       u"prompt_tokens_total=8128902"_s,
                       u"generation_tokens_total=7557572"_s,
                       u"prefix_cache_queries=8128902"_s,
                       u"ttft=21 buckets"_s,
                       u"itl=19 buckets"_s, // through the older time_per_output_token name
                       u"e2e=16 buckets"_s}
        << QStringList{u"prefix_cache_hits"_s, u"preemptions_total"_s, u"requests_total"_s};
    QTest::newRow("dcgm a100") << u"dcgm_gpu_telemetry_a100.txt"_s << u"dcgm"_s
                               << QStringList{u"power_w=409.692"_s, u"energy_j=319159.391"_s,
                                              u"fb_used_bytes=5080350720"_s}
                               << QStringList{u"gpu_util"_s, u"running"_s, u"ttft"_s};
    QTest::newRow("dcgm readme") << u"dcgm_exporter_readme.txt"_s << u"dcgm"_s << QStringList{}
                                 << QStringList{u"power_w"_s, u"energy_j"_s, u"gpu_util"_s,
                                                u"fb_used_bytes"_s};
    QTest::newRow("triton trt-llm")
        << u"triton_trtllm_readme.txt"_s << u"trtllm"_s
        << QStringList{u"running=0"_s, u"waiting=1"_s, u"kv_cache_usage=0.4875"_s,
                       u"requests_total=0"_s, u"e2e=mean"_s}
        << QStringList{u"ttft"_s, u"prompt_tokens_total"_s, u"preemptions_total"_s};
    // The user guide's hand-written histogram has _sum and _count but no _bucket series: the
    // TTFT resolves with no buckets (a mean, no quantiles).
    QTest::newRow("triton user guide") << u"triton_user_guide_examples.txt"_s << u"triton"_s
                                       << QStringList{u"requests_total=161"_s, u"ttft=0 buckets"_s}
                                       << QStringList{u"e2e"_s, u"running"_s, u"kv_cache_usage"_s};
    QTest::newRow("tgi") << u"tgi_router_constructed.txt"_s << u"tgi"_s
                         << QStringList{u"running=2"_s,
                                        u"waiting=3"_s,
                                        u"prompt_tokens_total=3600"_s,
                                        u"generation_tokens_total=720"_s,
                                        u"requests_total=8"_s,
                                        u"itl=36 buckets"_s,
                                        u"e2e=36 buckets"_s}
                         << QStringList{u"ttft"_s, u"kv_cache_usage"_s, u"preemptions_total"_s,
                                        u"prefix_cache_hits"_s};
}

void TestEngineCatalog::payloads()
{
    QFETCH(QString, file);
    QFETCH(QString, engine);
    QFETCH(QStringList, found);
    QFETCH(QStringList, missing);
    const MetricSeriesStore store = storeOf(readData(file));
    const ServerEngine detected = EngineCatalog::detect(store);
    QCOMPARE(QString::fromLatin1(serverEngineName(detected)), engine);
    for (const QString &f : found) {
        const qsizetype eq = f.indexOf(u'=');
        ServerQuantity q;
        QVERIFY2(quantityFromName(f.left(eq), &q), qPrintable(f));
        ResolvedQuantity r;
        QVERIFY2(EngineCatalog::resolve(store, detected, q, &r), qPrintable(f));
        QCOMPARE(valueOf(r), f.mid(eq + 1));
        QVERIFY(!r.selector.source.isEmpty());
    }
    for (const QString &m : missing) {
        ServerQuantity q;
        QVERIFY2(quantityFromName(m, &q), qPrintable(m));
        ResolvedQuantity r;
        QVERIFY2(!EngineCatalog::resolve(store, detected, q, &r), qPrintable(m));
    }
}

void TestEngineCatalog::olderVllmNames()
{
    // Names of vLLM releases before the renames (vllm/v1/metrics/loggers.py @a6f0308c):
    // gpu_cache_usage_perc, gpu_prefix_cache_*, time_per_output_token_seconds.
    const QByteArray payload =
        "vllm:num_requests_running{model_name=\"m\"} 3.0\n"
        "vllm:gpu_cache_usage_perc{model_name=\"m\"} 0.5\n"
        "vllm:gpu_prefix_cache_queries_total{model_name=\"m\"} 64.0\n"
        "vllm:gpu_prefix_cache_hits_total{model_name=\"m\"} 16.0\n"
        "vllm:time_per_output_token_seconds_bucket{le=\"0.01\",model_name=\"m\"} 1.0\n"
        "vllm:time_per_output_token_seconds_bucket{le=\"+Inf\",model_name=\"m\"} 2.0\n"
        "vllm:time_per_output_token_seconds_count{model_name=\"m\"} 2.0\n"
        "vllm:time_per_output_token_seconds_sum{model_name=\"m\"} 0.05\n";
    const MetricSeriesStore store = storeOf(payload);
    QCOMPARE(EngineCatalog::detect(store), ServerEngine::Vllm);
    ResolvedQuantity kv, hits, itl;
    QVERIFY(EngineCatalog::resolve(store, ServerEngine::Vllm, ServerQuantity::KvCacheUsage, &kv));
    QCOMPARE(kv.selector.name, QByteArray("vllm:gpu_cache_usage_perc"));
    QVERIFY(kv.selector.note.contains(u"deprecated"_s));
    QCOMPARE(valueOf(kv), u"0.5"_s);
    QVERIFY(
        EngineCatalog::resolve(store, ServerEngine::Vllm, ServerQuantity::PrefixCacheHits, &hits));
    QCOMPARE(valueOf(hits), u"16"_s);
    QVERIFY(EngineCatalog::resolve(store, ServerEngine::Vllm, ServerQuantity::Itl, &itl));
    QCOMPARE(itl.selector.name, QByteArray("vllm:time_per_output_token_seconds"));
    QCOMPARE(itl.buckets.size(), 2);

    // Both names exported at once (a release that keeps the deprecated one): the current wins.
    const MetricSeriesStore both = storeOf(payload + "vllm:kv_cache_usage_perc{model_name=\"m\"} "
                                                     "0.25\n");
    QVERIFY(EngineCatalog::resolve(both, ServerEngine::Vllm, ServerQuantity::KvCacheUsage, &kv));
    QCOMPARE(kv.selector.name, QByteArray("vllm:kv_cache_usage_perc"));
    QCOMPARE(valueOf(kv), u"0.25"_s);
}

void TestEngineCatalog::detectionByPrefix_data()
{
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<QString>("engine");
    QTest::newRow("nothing known")
        << QByteArray("go_goroutines 12\nprocess_cpu_seconds_total 3\n") << u"unknown"_s;
    QTest::newRow("empty") << QByteArray() << u"unknown"_s;
    // Triton's vLLM backend: vLLM's names beside Triton's own.
    QTest::newRow("triton vllm backend")
        << QByteArray("nv_inference_request_success{model=\"m\",version=\"1\"} 1\n"
                      "nv_gpu_utilization{gpu_uuid=\"GPU-1\"} 0.5\n"
                      "vllm:num_requests_running{model=\"m\",version=\"1\"} 2\n")
        << u"vllm"_s;
    QTest::newRow("triton alone") << QByteArray("nv_inference_request_success 1\n") << u"triton"_s;
    QTest::newRow("python client extras")
        << QByteArray("python_gc_objects_collected_total{generation=\"0\"} 1\n"
                      "sglang:num_running_reqs 1\n")
        << u"sglang"_s;
}

void TestEngineCatalog::detectionByPrefix()
{
    QFETCH(QByteArray, payload);
    QFETCH(QString, engine);
    const MetricSeriesStore store = storeOf(payload);
    QCOMPARE(QString::fromLatin1(serverEngineName(EngineCatalog::detect(store))), engine);
    // An unknown engine's series are all still there, raw.
    QCOMPARE(store.series().size(), PromParser::parse(payload).samples);
}

void TestEngineCatalog::everySelectorNamesItsSource()
{
    const ServerEngine engines[] = {ServerEngine::Vllm,   ServerEngine::Sglang,
                                    ServerEngine::Tgi,    ServerEngine::TritonTrtllm,
                                    ServerEngine::Triton, ServerEngine::Dcgm};
    int selectors = 0;
    for (ServerEngine e : engines) {
        for (int q = 0; q < ServerQuantityCount; ++q) {
            for (const SeriesSelector &s : EngineCatalog::selectors(e, ServerQuantity(q))) {
                QVERIFY(!s.name.isEmpty());
                QVERIFY2(!s.source.isEmpty(), s.name.constData());
                QVERIFY(s.scale > 0);
                ++selectors;
            }
        }
    }
    QVERIFY(selectors > 50);
}

QTEST_GUILESS_MAIN(TestEngineCatalog)
#include "tst_enginecatalog.moc"
