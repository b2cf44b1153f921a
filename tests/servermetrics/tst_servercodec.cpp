#include "servermetrics/metricseriesstore.h"
#include "servermetrics/promparser.h"
#include "servermetrics/seriescodec.h"

#include <QFile>
#include <QTest>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

constexpr qint64 kInterval = 500'000'000; // 0.5 s

// A payload in the shape of vLLM's /metrics at one instant of a run.
QByteArray vllmLikePayload(int i, std::mt19937_64 &rng)
{
    const QByteArray m = "model_name=\"meta-llama/Llama-3.1-8B-Instruct\",engine=\"0\"";
    QByteArray p;
    const int running = int(rng() % 64), waiting = int(rng() % 8);
    p += "vllm:num_requests_running{" + m + "} " + QByteArray::number(running) + "\n";
    p += "vllm:num_requests_waiting{" + m + "} " + QByteArray::number(waiting) + "\n";
    p +=
        "vllm:kv_cache_usage_perc{" + m + "} " + QByteArray::number(running / 64.0, 'g', 17) + "\n";
    p += "vllm:generation_tokens_total{" + m + "} " + QByteArray::number(i * 1234.0, 'f', 1) + "\n";
    p += "vllm:prompt_tokens_total{" + m + "} " + QByteArray::number(i * 4321.0, 'f', 1) + "\n";
    p += "vllm:num_preemptions_total{" + m + "} 0.0\n";
    const double le[] = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75};
    double cum = 0;
    for (double b : le) {
        cum += double(i) * double(rng() % 3);
        p += "vllm:time_to_first_token_seconds_bucket{le=\"" + QByteArray::number(b) + "\"," + m +
             "} " + QByteArray::number(cum, 'f', 1) + "\n";
    }
    p += "vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"," + m + "} " +
         QByteArray::number(cum, 'f', 1) + "\n";
    p += "vllm:time_to_first_token_seconds_sum{" + m + "} " +
         QByteArray::number(cum * 0.0371234567, 'g', 17) + "\n";
    p += "vllm:time_to_first_token_seconds_count{" + m + "} " + QByteArray::number(cum, 'f', 1) +
         "\n";
    return p;
}

MetricSeriesStore runLikeStore(int scrapes, quint64 seed)
{
    std::mt19937_64 rng(seed);
    MetricSeriesStore store;
    store.setIdentity(u"sut"_s, u"http://127.0.0.1:8000/metrics"_s);
    qint64 t = 123'456'789'012'345;
    for (int i = 0; i < scrapes; ++i) {
        t += kInterval + qint64(rng() % 2'000'000) - 1'000'000; // scheduling jitter
        ScrapeRecord rec;
        rec.tNs = t;
        rec.durationNs = 1'000'000 + qint64(rng() % 500'000);
        rec.httpStatus = 200;
        if (i % 97 == 13) {
            rec.outcome = ScrapeOutcome::Timeout;
            rec.httpStatus = 0;
            rec.detail = u"no response within 300 ms"_s;
            store.addScrape(rec, nullptr);
            continue;
        }
        const QByteArray body = vllmLikePayload(i, rng);
        const PromParseResult parsed = PromParser::parse(body);
        rec.bytes = body.size();
        rec.samples = parsed.samples;
        store.addScrape(rec, &parsed);
    }
    return store;
}

} // namespace

class TestServerCodec : public QObject
{
    Q_OBJECT

private slots:
    void roundTripIsExact();
    void specialDoublesSurviveBitForBit();
    void seriesAppearingAndDisappearing();
    void sizeOfAnHourAtHalfASecond();
    void costPerPointByKind_data();
    void costPerPointByKind();
    void corruptBlobsAreRejected_data();
    void corruptBlobsAreRejected();
    void identityDropsUserInfo();
};

void TestServerCodec::roundTripIsExact()
{
    const MetricSeriesStore store = runLikeStore(400, 7);
    QCOMPARE(store.scrapes().size(), 400);
    QVERIFY(store.series().size() >= 19);
    const QByteArray blob = encodeSeriesStore(store);
    MetricSeriesStore back;
    QString error;
    QVERIFY2(decodeSeriesStore(blob, &back, &error), qPrintable(error));
    QVERIFY(back == store);
    QCOMPARE(back.targetName(), u"sut"_s);
    QCOMPARE(back.scrapes()[13].outcome, ScrapeOutcome::Timeout);
    QCOMPARE(back.scrapes()[13].detail, u"no response within 300 ms"_s);
    const MetricSeriesStore::Series *ttft =
        back.find("vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"+Inf\","
                  "model_name=\"meta-llama/Llama-3.1-8B-Instruct\"}");
    QVERIFY(ttft);
    QCOMPARE(ttft->name, QByteArray("vllm:time_to_first_token_seconds_bucket"));
    QCOMPARE(ttft->label("le"), QByteArray("+Inf"));
    QCOMPARE(ttft->values.size(), 400 - 4); // the 4 timed-out scrapes have no points
    // Encoding the decoded store gives the same bytes.
    QCOMPARE(encodeSeriesStore(back), blob);
}

void TestServerCodec::specialDoublesSurviveBitForBit()
{
    const double nanPayload = [] {
        const quint64 bits = 0x7ff8'0000'dead'beefull;
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }();
    const QList<double> values = {0.0,
                                  -0.0,
                                  std::numeric_limits<double>::quiet_NaN(),
                                  nanPayload,
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::denorm_min(),
                                  std::numeric_limits<double>::max(),
                                  -1e-300,
                                  9223372036854775794.0,
                                  0.1,
                                  0.1};
    MetricSeriesStore store;
    qint64 t = -5; // times before 0 are legal CLOCK_MONOTONIC deltas in tests
    for (int i = 0; i < values.size(); ++i) {
        ScrapeRecord rec;
        rec.tNs = t;
        t += (i % 2) ? 1 : 999'999'999'999;
        PromParseResult parsed;
        PromFamily f;
        f.name = "g";
        f.type = PromType::Gauge;
        PromSample s;
        s.name = "g";
        s.value = values[i];
        f.samples.append(s);
        parsed.families.append(f);
        store.addScrape(rec, &parsed);
    }
    MetricSeriesStore back;
    QVERIFY(decodeSeriesStore(encodeSeriesStore(store), &back));
    QVERIFY(back == store);
    const QList<double> &got = back.series()[0].values;
    for (int i = 0; i < values.size(); ++i)
        QVERIFY2(std::memcmp(&got[i], &values[i], sizeof(double)) == 0,
                 qPrintable(QString::number(i)));
    QVERIFY(std::signbit(got[1]));
    QCOMPARE(back.series()[0].type, PromType::Gauge);
}

void TestServerCodec::seriesAppearingAndDisappearing()
{
    // A series that exists only in some scrapes keeps exactly those points.
    MetricSeriesStore store;
    for (int i = 0; i < 10; ++i) {
        QByteArray body = "always 1\n";
        if (i % 3 == 0)
            body += "sometimes{k=\"v\"} " + QByteArray::number(i) + "\n";
        const PromParseResult parsed = PromParser::parse(body);
        ScrapeRecord rec;
        rec.tNs = 1'000 * (i + 1);
        store.addScrape(rec, &parsed);
    }
    MetricSeriesStore back;
    QVERIFY(decodeSeriesStore(encodeSeriesStore(store), &back));
    const MetricSeriesStore::Series *s = back.find("sometimes{k=\"v\"}");
    QVERIFY(s);
    QCOMPARE(s->tNs, (QList<qint64>{1'000, 4'000, 7'000, 10'000}));
    QCOMPARE(s->values, (QList<double>{0, 3, 6, 9}));
}

void TestServerCodec::sizeOfAnHourAtHalfASecond()
{
    // 7200 scrapes of 20 series: 144 000 points, 2.3 MB as raw (time, value) pairs.
    const MetricSeriesStore store = runLikeStore(7200, 11);
    const qsizetype points = store.pointCount();
    QVERIFY(points > 140'000);
    const QByteArray blob = encodeSeriesStore(store);
    const double bytesPerPoint = double(blob.size()) / double(points);
    qInfo("%lld points, %lld bytes: %.2f bytes a point (raw: 16)", qint64(points),
          qint64(blob.size()), bytesPerPoint);
    // The payload above is pseudo-random (gauges jump, sums have full mantissas): a worst case.
    // costPerPointByKind() pins the cost of the common kinds exactly.
    QVERIFY2(bytesPerPoint < 5.5, qPrintable(QString::number(bytesPerPoint)));
    MetricSeriesStore back;
    QVERIFY(decodeSeriesStore(blob, &back));
    QVERIFY(back == store);
}

void TestServerCodec::costPerPointByKind_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("bytesPerPoint");
    // index (1 byte: the series is in every scrape) + value
    QTest::newRow("constant gauge") << 0 << 2;             // XOR 0: one 0 byte
    QTest::newRow("counter +7 a scrape") << 1 << 3;        // control 65 + 1-byte varint
    QTest::newRow("counter +1000 a scrape") << 2 << 4;     // control 65 + 2-byte varint
    QTest::newRow("gauge alternating 0.25/0.5") << 3 << 3; // XOR: control + 1 byte
}

void TestServerCodec::costPerPointByKind()
{
    QFETCH(int, kind);
    QFETCH(int, bytesPerPoint);
    constexpr int n = 1000;
    auto build = [&](int points) {
        MetricSeriesStore store;
        for (int i = 0; i < points; ++i) {
            ScrapeRecord rec;
            rec.tNs = qint64(i) * kInterval; // constant spacing: 5-byte varint per scrape
            const double v = kind == 0   ? 42.0
                             : kind == 1 ? 7.0 * i
                             : kind == 2 ? 1000.0 * i
                                         : (i % 2 ? 0.25 : 0.5);
            const PromParseResult parsed =
                PromParser::parse("x " + QByteArray::number(v, 'g', 17) + "\n");
            store.addScrape(rec, &parsed);
        }
        return encodeSeriesStore(store).size();
    };
    // The difference between n and n/2 points cancels the header and the first point.
    const qsizetype full = build(n), half = build(n / 2);
    // Per scrape record: 5-byte time delta (zigzag(5e8) < 2^35) and 7 one-byte fields.
    const qsizetype scrapeBytes = (n / 2) * 12;
    QCOMPARE((full - half - scrapeBytes) / (n / 2), qsizetype(bytesPerPoint));
    QCOMPARE((full - half - scrapeBytes) % (n / 2), qsizetype(0));
}

void TestServerCodec::corruptBlobsAreRejected_data()
{
    QTest::addColumn<int>("cut");         // truncate to this many bytes (-1: keep)
    QTest::addColumn<QByteArray>("tail"); // then append
    QTest::addColumn<int>("setByte");     // then set byte 0 to this (-1: keep)
    QTest::addColumn<QString>("expect");
    QTest::newRow("empty") << 0 << QByteArray() << -1 << u"truncated"_s;
    QTest::newRow("version") << -1 << QByteArray() << 9 << u"unknown format version 9"_s;
    QTest::newRow("trailing") << -1 << QByteArray("x") << -1 << u"1 trailing bytes"_s;
    QTest::newRow("truncated middle") << 40 << QByteArray() << -1 << QString();
}

void TestServerCodec::corruptBlobsAreRejected()
{
    QFETCH(int, cut);
    QFETCH(QByteArray, tail);
    QFETCH(int, setByte);
    QFETCH(QString, expect);
    QByteArray blob = encodeSeriesStore(runLikeStore(20, 3));
    if (cut >= 0)
        blob.truncate(cut);
    blob += tail;
    if (setByte >= 0)
        blob[0] = char(setByte);
    MetricSeriesStore back;
    QString error;
    QVERIFY(!decodeSeriesStore(blob, &back, &error));
    QVERIFY(back.isEmpty());
    QVERIFY(error.startsWith(u"server metrics blob: "_s));
    if (!expect.isEmpty())
        QVERIFY2(error.contains(expect), qPrintable(error));
    // Every truncation of a valid blob fails cleanly, never reads past the end.
    const QByteArray full = encodeSeriesStore(runLikeStore(5, 1));
    for (qsizetype n = 0; n < full.size(); ++n)
        QVERIFY(!decodeSeriesStore(full.left(n), &back));
}

void TestServerCodec::identityDropsUserInfo()
{
    MetricSeriesStore store;
    store.setIdentity(u"dcgm"_s, u"https://user:secret@gpu-node:9400/metrics"_s);
    QCOMPARE(store.url(), u"https://gpu-node:9400/metrics"_s);
    MetricSeriesStore back;
    QVERIFY(decodeSeriesStore(encodeSeriesStore(store), &back));
    QCOMPARE(back.url(), u"https://gpu-node:9400/metrics"_s);
    QCOMPARE(back.targetName(), u"dcgm"_s);
}

QTEST_GUILESS_MAIN(TestServerCodec)
#include "tst_servercodec.moc"
