#include "metrics/errorrate.h"
#include "metrics/saturation.h"

#include "syntheticqueue.h"

#include <QJsonObject>
#include <QTest>

#include <algorithm>

using namespace sb;
using namespace Qt::StringLiterals;

namespace {

// 8 slots, 2.0 s per request (0.25 s to the first of 8 chunks 0.25 s apart): capacity 4 req/s.
synthq::Config server(double rate, double seconds, quint64 seed)
{
    synthq::Config c;
    c.rate = [rate](double) {
        return rate;
    };
    c.poisson = true;
    c.sendSeconds = seconds;
    c.servers = 8;
    c.prefillS = 0.25;
    c.chunks = 8;
    c.chunkS = 0.25;
    c.seed = seed;
    return c;
}

RequestRecord finished(bool ok)
{
    RequestRecord r;
    r.tSend = 1;
    r.tEnd = 2;
    if (!ok)
        r.error = ErrorClass::Http5xx;
    return r;
}

} // namespace

class TestSaturation : public QObject
{
    Q_OBJECT

private slots:
    void growingQueueIsSaturated();
    void stableLoadIsNot_data();
    void stableLoadIsNot();
    void risingLoadBelowCapacityIsNot();
    void needsEnoughData();
    void incrementalFeedingIsOrderIndependent();
    void slopeByHand();
    void errorRate_data();
    void errorRate();
    void errorRateJson();
};

// 6 req/s into a 4 req/s server: the queue grows by ~2 requests a second and TTFT by ~0.5 s a
// second while completions stay at 4/s.
void TestSaturation::growingQueueIsSaturated()
{
    const SaturationVerdict v = detectSaturation(synthq::run(server(6, 60, 1)));
    QVERIFY2(v.saturated, qPrintable(v.reason));
    QVERIFY2(v.windowEndS <= 40, qPrintable(QString::number(v.windowEndS)));
    QVERIFY(v.inFlight.slope > 1 && v.inFlight.slope < 3);
    QVERIFY(v.ttft.slope > 200 && v.ttft.slope < 800); // ms per s
    QVERIFY(v.inFlight.lo > 0 && v.ttft.lo > 0);
    QVERIFY(!v.throughput.significantlyPositive);
    const QJsonObject o = v.toJson();
    QCOMPARE(o.value(u"saturated"_s).toBool(), true);
    QVERIFY(o.value(u"ttft_ms"_s).toObject().value(u"slope_lo"_s).toDouble() > 0);
    QVERIFY(v.reason.startsWith(u"over-saturated"_s));
}

// 70 % of capacity for two minutes, ten seeds: never saturated at any of the ~120 evaluations.
void TestSaturation::stableLoadIsNot_data()
{
    QTest::addColumn<quint64>("seed");
    for (quint64 s = 1; s <= 10; ++s)
        QTest::addRow("seed %llu", s) << s;
}

void TestSaturation::stableLoadIsNot()
{
    QFETCH(quint64, seed);
    const SaturationVerdict v = detectSaturation(synthq::run(server(2.8, 120, seed)));
    QVERIFY(v.evaluated);
    QVERIFY2(!v.saturated, qPrintable(v.reason + u" at "_s + QString::number(v.windowEndS)));
}

// Load rising from 0.5 to 3 req/s (below the 4 req/s capacity): requests in flight grow with the
// rate, but TTFT does not, and throughput grows with them.
void TestSaturation::risingLoadBelowCapacityIsNot()
{
    synthq::Config c = server(1, 60, 3);
    c.rate = [](double t) {
        return 0.5 + 2.5 * t / 60;
    };
    const SaturationVerdict v = detectSaturation(synthq::run(c));
    QVERIFY(v.evaluated);
    QVERIFY2(!v.saturated, qPrintable(v.reason));
}

void TestSaturation::needsEnoughData()
{
    const QList<RequestRecord> records = synthq::run(server(6, 60, 1));
    SaturationDetector d(synthq::kT0);
    for (const RequestRecord &r : records) {
        d.addSent(r.tSend);
        d.addFinished(r);
    }
    const SaturationVerdict early = d.evaluate(synthq::ns(15));
    QVERIFY(!early.evaluated);
    QVERIFY(!early.saturated);
    QVERIFY2(early.reason.contains(u"needs 20 s"_s), qPrintable(early.reason));
    QVERIFY(d.evaluate(synthq::ns(50)).saturated);
    QVERIFY(!detectSaturation({}).evaluated);
}

void TestSaturation::incrementalFeedingIsOrderIndependent()
{
    QList<RequestRecord> records = synthq::run(server(6, 40, 2));
    SaturationDetector a(synthq::kT0), b(synthq::kT0);
    for (const RequestRecord &r : records) {
        a.addSent(r.tSend);
        a.addFinished(r);
    }
    std::reverse(records.begin(), records.end());
    for (const RequestRecord &r : records)
        b.addFinished(r);
    for (const RequestRecord &r : records)
        b.addSent(r.tSend);
    const SaturationVerdict va = a.evaluate(synthq::ns(35)), vb = b.evaluate(synthq::ns(35));
    QVERIFY(va.evaluated);
    QCOMPARE(va.inFlight.slope, vb.inFlight.slope);
    QCOMPARE(va.ttft.slope, vb.ttft.slope);
    QCOMPARE(va.throughput.lo, vb.throughput.lo);
    QCOMPARE(va.saturated, vb.saturated);
}

// One request sent per second for 12 s, none finishing: in flight at the end of slice k is k + 1,
// a straight line of slope 1 with no residual, so the interval is [1, 1]; there are no TTFT
// points, so no verdict of saturation.
void TestSaturation::slopeByHand()
{
    SaturationOptions o;
    o.minSlices = 10;
    o.confidence = 0.95;
    SaturationDetector d(0, o);
    for (int k = 0; k < 12; ++k)
        d.addSent(qint64(k) * 1'000'000'000 + 500'000'000);
    const SaturationVerdict v = d.evaluate(12'000'000'000);
    QVERIFY(v.evaluated);
    QCOMPARE(v.windowStartS, 0.0);
    QCOMPARE(v.windowEndS, 12.0);
    QVERIFY(std::fabs(v.inFlight.slope - 1) < 1e-12);
    QVERIFY(std::fabs(v.inFlight.lo - 1) < 1e-9);
    QVERIFY(v.inFlight.risingMaterially);
    QVERIFY(!v.ttft.available);
    QVERIFY(!v.saturated);
    QCOMPARE(v.throughput.slope, 0.0);
}

void TestSaturation::errorRate_data()
{
    QTest::addColumn<QString>("pattern"); // o = ok, x = failed
    QTest::addColumn<double>("bound");
    QTest::addColumn<qint64>("window");
    QTest::addColumn<qint64>("trippedAt");
    QTest::newRow("never") << u"oooooooooooooooo"_s << 0.2 << qint64(10) << qint64(0);
    // 3 failures in the last 10 of 13: 30 % > 20 %.
    QTest::newRow("trips at 13") << u"ooooooooooxxx"_s << 0.2 << qint64(10) << qint64(13);
    // Exactly 20 %: not above the bound.
    QTest::newRow("equal is not above") << u"ooooooooxx"_s << 0.2 << qint64(10) << qint64(0);
    // Failures early, before the window has filled: judged only from the 10th request on, when
    // 3 of 10 have failed.
    QTest::newRow("waits for a full window") << u"xxxooooooo"_s << 0.2 << qint64(10) << qint64(10);
    // Old failures leave the window: 3 failures then 10 successes never exceeds once the window
    // moves past them (it did trip at 10 and stays tripped).
    QTest::newRow("latches") << u"xxxoooooooooooo"_s << 0.2 << qint64(10) << qint64(10);
}

void TestSaturation::errorRate()
{
    QFETCH(QString, pattern);
    QFETCH(double, bound);
    QFETCH(qint64, window);
    QFETCH(qint64, trippedAt);
    ErrorRateStopper s(bound, window);
    for (QChar c : pattern)
        s.add(finished(c == u'o'));
    QCOMPARE(s.trippedAt(), trippedAt);
    QCOMPARE(s.exceeded(), trippedAt > 0);
    QCOMPARE(s.finished(), qint64(pattern.size()));
}

void TestSaturation::errorRateJson()
{
    ErrorRateStopper s(0.1, 4);
    for (bool ok : {true, false, true, true})
        s.add(finished(ok));
    QVERIFY(s.exceeded());
    QCOMPARE(s.rate(), 0.25);
    QVERIFY2(s.reason().contains(u"25.0 %"_s) && s.reason().contains(u"10.0 %"_s),
             qPrintable(s.reason()));
    QCOMPARE(s.toJson().value(u"tripped_at"_s).toInteger(), 4);
}

QTEST_APPLESS_MAIN(TestSaturation)
#include "tst_saturation.moc"
