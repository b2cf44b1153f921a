#include "metrics/steadystate.h"
#include "metrics/summary.h"

#include "syntheticqueue.h"

#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace sb;
using namespace Qt::StringLiterals;

namespace {

// 8 req/s evenly spaced for 32 s (sends at 0.125 i, i = 0..255), no queueing, every request
// 2.0 s long: first chunk after 0.25 s, then 7 more every 0.25 s. All times are exact binary
// fractions, so every count below is worked out by hand.
synthq::Config evenRun()
{
    synthq::Config c;
    c.rate = [](double) {
        return 8.0;
    };
    c.sendSeconds = 32;
    c.prefillS = 0.25;
    c.chunks = 8;
    c.chunkS = 0.25;
    return c;
}

double sinceStart(qint64 ns)
{
    return double(ns - synthq::kT0) / 1e9;
}

} // namespace

class TestSteadyState : public QObject
{
    Q_OBJECT

private slots:
    void evenRampByHand();
    void steadySummaryUsesWindowRates();
    void poissonRamp();
    void neverSteady();
    void tooFewRequests();
    void warmupRecordsLoadTheServer();
    void json();
};

// In flight climbs by one per send to 16 at the 16th send (t = 1.875 s) and stays 16 until the
// last send (an end at t frees its slot before a start at t), so L = 16. The first completion is
// at 2.0 s, later than 1.875, so it ends the warm-up. The drain starts at the last send, 31.875 s,
// and lasts one request, 2.0 s.
void TestSteadyState::evenRampByHand()
{
    const QList<RequestRecord> records = synthq::run(evenRun());
    QCOMPARE(records.size(), 256);
    const SteadyStateWindow w = detectSteadyState(records);
    QVERIFY2(w.available, qPrintable(w.reason));
    QCOMPARE(w.steadyInFlight, qint64(16));
    QCOMPARE(sinceStart(w.reachedLevelNs), 1.875);
    QCOMPARE(sinceStart(w.firstCompletionNs), 2.0);
    QCOMPARE(w.warmupRule, u"first completion"_s);
    QCOMPARE(sinceStart(w.startNs), 2.0);
    QCOMPARE(sinceStart(w.endNs), 31.875);
    QCOMPARE(w.warmupSeconds(), 2.0);
    QCOMPARE(w.drainSeconds(), 2.0);
    QCOMPARE(w.requests, qint64(240)); // sends 16..255
    QCOMPARE(recordsInWindow(records, w).size(), 240);
}

// Whole run: 256 completions over 33.875 s = 7.557 req/s, diluted by the ramp and the drain.
// Steady state: completions at 2.0 + 0.125 i inside [2.0, 31.875] are i = 0..239, so
// 240 / 29.875 = 8.0335 req/s; chunks inside the window: 1920 (counted by enumeration), 64.268
// tok/s. Latencies come from the 240 requests sent inside: TTFT 250 ms each.
void TestSteadyState::steadySummaryUsesWindowRates()
{
    const QList<RequestRecord> records = synthq::run(evenRun());
    const SteadyStateWindow w = detectSteadyState(records);
    const RunSummary whole = summarize(records);
    const RunSummary steady = summarizeSteadyState(records, w, SummaryOptions{});
    QVERIFY(std::fabs(whole.requestThroughput - 256 / 33.875) < 1e-9);
    QVERIFY2(std::fabs(steady.requestThroughput - 240 / 29.875) < 1e-9,
             qPrintable(QString::number(steady.requestThroughput)));
    QVERIFY(std::fabs(steady.outputThroughput - 1920 / 29.875) < 1e-9);
    QVERIFY(std::fabs(steady.totalTokenThroughput - (1920 + 240 * 100) / 29.875) < 1e-9);
    QCOMPARE(steady.durationS, 29.875);
    QCOMPARE(steady.completed, qint64(240));
    QCOMPARE(steady.ttft.count, qint64(240));
    QVERIFY(std::fabs(steady.ttft.mean - 250) < 1e-9);
    QVERIFY(std::fabs(steady.e2el.max - 2000) < 1e-9);
    // An unavailable window gives an empty summary, never the whole run.
    SteadyStateWindow none;
    QCOMPARE(summarizeSteadyState(records, none, SummaryOptions{}).completed, qint64(0));
}

// Poisson arrivals at 10 req/s, 2 s requests: in flight ramps to ~20 over the first ~2 s.
void TestSteadyState::poissonRamp()
{
    synthq::Config c = evenRun();
    c.rate = [](double) {
        return 10.0;
    };
    c.poisson = true;
    c.seed = 5;
    const QList<RequestRecord> records = synthq::run(c);
    const SteadyStateWindow w = detectSteadyState(records);
    QVERIFY2(w.available, qPrintable(w.reason));
    QVERIFY2(w.steadyInFlight >= 15 && w.steadyInFlight <= 25,
             qPrintable(QString::number(w.steadyInFlight)));
    QVERIFY2(w.warmupSeconds() >= 1.0 && w.warmupSeconds() <= 4.0,
             qPrintable(QString::number(w.warmupSeconds())));
    QVERIFY(std::fabs(w.drainSeconds() - 2.0) < 0.5);
    const RunSummary steady = summarizeSteadyState(records, w, SummaryOptions{});
    QVERIFY2(std::fabs(steady.requestThroughput - 10) < 1.5,
             qPrintable(QString::number(steady.requestThroughput)));
}

// Five sends in half a second, each 2 s long: the first completion comes after the last send.
void TestSteadyState::neverSteady()
{
    synthq::Config c = evenRun();
    c.sendSeconds = 0.6;
    const SteadyStateWindow w = detectSteadyState(synthq::run(c));
    QVERIFY(!w.available);
    QVERIFY2(w.reason.contains(u"never reached a steady state"_s), qPrintable(w.reason));
    QVERIFY(!detectSteadyState({}).available);
}

void TestSteadyState::tooFewRequests()
{
    synthq::Config c = evenRun();
    c.sendSeconds = 3.0; // sends 0..23, window [2.0, 2.875]: 8 requests
    const SteadyStateWindow w = detectSteadyState(synthq::run(c));
    QVERIFY(!w.available);
    QCOMPARE(w.requests, qint64(8));
    QVERIFY2(w.reason.contains(u"only 8"_s), qPrintable(w.reason));
    SteadyStateOptions o;
    o.minRequests = 8;
    QVERIFY(detectSteadyState(synthq::run(c), o).available);
}

// With the first 40 requests marked warm-up (sent until 4.875 s), the server is already at its
// level when the measured requests start: the window starts at the first measured send.
void TestSteadyState::warmupRecordsLoadTheServer()
{
    QList<RequestRecord> records = synthq::run(evenRun());
    for (RequestRecord &r : records)
        r.warmup = r.index < 40;
    const SteadyStateWindow w = detectSteadyState(records);
    QVERIFY(w.available);
    QCOMPARE(w.steadyInFlight, qint64(16));
    QCOMPARE(sinceStart(w.startNs), 5.0);
    QCOMPARE(w.requests, qint64(216));
    const RunSummary steady = summarizeSteadyState(records, w, SummaryOptions{});
    QCOMPARE(steady.warmup, qint64(0)); // the window holds no warm-up request
    QCOMPARE(steady.ttft.count, qint64(216));
}

void TestSteadyState::json()
{
    const SteadyStateWindow w = detectSteadyState(synthq::run(evenRun()));
    const QJsonObject o = w.toJson();
    QCOMPARE(o.value(u"start_s"_s).toDouble(), 2.0);
    QCOMPARE(o.value(u"drain_s"_s).toDouble(), 2.0);
    QCOMPARE(o.value(u"steady_in_flight"_s).toInteger(), 16);
    QVERIFY(o.value(u"definition"_s).toString().contains(u"median"_s));
    QVERIFY(!detectSteadyState({}).toJson().value(u"reason"_s).toString().isEmpty());
}

QTEST_APPLESS_MAIN(TestSteadyState)
#include "tst_steadystate.moc"
