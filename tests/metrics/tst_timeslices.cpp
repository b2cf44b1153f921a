#include "metrics/timeslices.h"

#include "syntheticqueue.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace sb;
using namespace Qt::StringLiterals;

namespace {

// The steady-state test's run: 8 req/s evenly for 32 s, 2.0 s requests of 8 one-token chunks
// 0.25 s apart (first after 0.25 s), no queueing; exact binary times.
QList<RequestRecord> evenRun()
{
    synthq::Config c;
    c.rate = [](double) {
        return 8.0;
    };
    c.sendSeconds = 32;
    c.prefillS = 0.25;
    c.chunks = 8;
    c.chunkS = 0.25;
    return synthq::run(c);
}

} // namespace

class TestTimeSlices : public QObject
{
    Q_OBJECT

private slots:
    void slicesByHand_data();
    void slicesByHand();
    void lastSliceIsPartial();
    void failuresAndWarmup();
    void jsonAndTable();
};

void TestTimeSlices::slicesByHand_data()
{
    QTest::addColumn<int>("slice");
    QTest::addColumn<qint64>("sent");
    QTest::addColumn<qint64>("completed");
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<qint64>("ttftCount");
    QTest::addColumn<qint64>("itlCount");
    QTest::addColumn<qint64>("inFlight");
    // [0, 1): sends at 0..0.875 (8); first tokens at 0.25..0.875 (i = 0..5: 6); chunks at
    // 0.125 i + 0.25 (k + 1) < 1: k=0 i<=5 (6), k=1 i<=3 (4), k=2 i<=1 (2): 12 tokens, 6 of
    // them later chunks (ITL gaps); in flight at 1.0 s: sends 0..8 = 9, no completion yet.
    QTest::newRow("ramp [0,1)") << 0 << qint64(8) << qint64(0) << qint64(12) << qint64(6)
                                << qint64(6) << qint64(9);
    // [5, 6): 8 sends; completions at 2 + 0.125 i for i = 24..31; 8 requests x 8 chunks = 64
    // tokens (one per k and i), 8 first tokens, 56 gaps; at 6.0 s sends 0..48, completions
    // 0..32: 16 in flight.
    QTest::newRow("steady [5,6)") << 5 << qint64(8) << qint64(8) << qint64(64) << qint64(8)
                                  << qint64(56) << qint64(16);
    // [32, 33): no sends; completions of i = 240..247. Chunks 0.125 i + 0.25 (k + 1) in the slice:
    // k = 0: i = 254..255 (2), k = 1: 252..255 (4), k = 2: 250..255 (6), k = 3..7: 8 each (40):
    // 52 tokens, 2 first tokens (i = 254, 255), 50 gaps; in flight at 33 s: i = 249..255 (248
    // ends exactly at 33 s and is counted out).
    QTest::newRow("drain [32,33)")
        << 32 << qint64(0) << qint64(8) << qint64(52) << qint64(2) << qint64(50) << qint64(7);
}

void TestTimeSlices::slicesByHand()
{
    QFETCH(int, slice);
    QFETCH(qint64, sent);
    QFETCH(qint64, completed);
    QFETCH(qint64, tokens);
    QFETCH(qint64, ttftCount);
    QFETCH(qint64, itlCount);
    QFETCH(qint64, inFlight);
    const TimeSlices ts = timeSlices(evenRun());
    QCOMPARE(ts.slices.size(), 34); // the run ends at 33.875 s
    const TimeSlice &s = ts.slices.at(slice);
    QCOMPARE(s.startS, double(slice));
    QCOMPARE(s.sent, sent);
    QCOMPARE(s.completed, completed);
    QCOMPARE(s.outputTokens, tokens);
    QCOMPARE(s.ttft.count, ttftCount);
    QCOMPARE(s.itl.count, itlCount);
    QCOMPARE(s.inFlightAtEnd, inFlight);
    QCOMPARE(s.requestThroughput, double(completed));
    QCOMPARE(s.outputThroughput, double(tokens));
    if (ttftCount > 0)
        QCOMPARE(s.ttft.percentile(99), 250.0);
    if (itlCount > 0)
        QCOMPARE(s.itl.percentile(50), 250.0);
}

// [33, 33.875]: completions of i = 248..255 (8) over 0.875 s.
void TestTimeSlices::lastSliceIsPartial()
{
    const TimeSlices ts = timeSlices(evenRun());
    const TimeSlice &last = ts.slices.constLast();
    QCOMPARE(last.endS, 33.875);
    QCOMPARE(last.seconds(), 0.875);
    QCOMPARE(last.completed, qint64(8));
    QCOMPARE(last.requestThroughput, 8 / 0.875);
    QCOMPARE(last.inFlightAtEnd, qint64(0));
    qint64 completed = 0, sent = 0;
    for (const TimeSlice &s : ts.slices) {
        completed += s.completed;
        sent += s.sent;
    }
    QCOMPARE(completed, qint64(256));
    QCOMPARE(sent, qint64(256));
    // Two-second slices: 17 of them, the last [32, 33.875].
    TimeSliceOptions o;
    o.sliceSeconds = 2;
    QCOMPARE(timeSlices(evenRun(), o).slices.size(), 17);
}

void TestTimeSlices::failuresAndWarmup()
{
    QList<RequestRecord> records = evenRun();
    records[0].warmup = true; // left out: the origin moves to the second send, 0.125 s
    records[100].error = ErrorClass::Http5xx;
    const TimeSlices ts = timeSlices(records);
    QCOMPARE(ts.originNs, synthq::ns(0.125));
    qint64 failed = 0, completed = 0;
    for (const TimeSlice &s : ts.slices) {
        failed += s.failed;
        completed += s.completed;
    }
    QCOMPARE(failed, qint64(1));
    QCOMPARE(completed, qint64(254));
    TimeSliceOptions o;
    o.includeWarmup = true;
    QCOMPARE(timeSlices(records, o).originNs, synthq::ns(0));
    o.sliceSeconds = 0;
    QVERIFY(timeSlices(records, o).slices.isEmpty());
    QVERIFY(timeSlices({}).slices.isEmpty());
}

void TestTimeSlices::jsonAndTable()
{
    const TimeSlices ts = timeSlices(evenRun());
    const QJsonObject o = ts.toJson();
    QCOMPARE(o.value(u"slice_seconds"_s).toDouble(), 1.0);
    const QJsonArray arr = o.value(u"slices"_s).toArray();
    QCOMPARE(arr.size(), 34);
    const QJsonObject s5 = arr.at(5).toObject();
    QCOMPARE(s5.value(u"completed"_s).toInteger(), 8);
    QCOMPARE(s5.value(u"ttft_ms"_s).toObject().value(u"p99"_s).toDouble(), 250.0);
    QCOMPARE(s5.value(u"in_flight_at_end"_s).toInteger(), 16);
    const QString table = ts.formatTable();
    QCOMPARE(table.count(u'\n'), 35); // header + 34 slices
    QVERIFY(table.contains(u"TTFT p99"_s));
}

QTEST_APPLESS_MAIN(TestTimeSlices)
#include "tst_timeslices.moc"
