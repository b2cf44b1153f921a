// deriveRun's ITL interval: a clustered bootstrap whose replicate count steps down with the
// run's inter-token gaps (its cost is B × gaps), says which B it used, and is omitted with the
// reason past the largest run it is computed for.
#include "report/runreport.h"

#include <QTest>

using namespace sb;
using namespace Qt::StringLiterals;

namespace {

// n requests of `chunks` chunks each, 10 ms apart with a little spread per request.
RunReportInput run(int n, int chunks)
{
    RunReportInput in;
    in.plan.profile.numPrompts = n;
    QList<RequestRecord> records;
    records.reserve(n);
    constexpr qint64 kMs = 1'000'000;
    for (int i = 0; i < n; ++i) {
        RequestRecord r;
        r.index = i;
        r.requestId = u"r%1"_s.arg(i);
        r.tSched = r.tSend = 1'000 * kMs + i * kMs;
        r.tFirst = r.tSend + 50 * kMs;
        r.chunkTimes.reserve(chunks);
        const qint64 gap = 10 * kMs + (i % 7) * 100'000;
        for (int c = 0; c < chunks; ++c)
            r.chunkTimes.append(r.tFirst + c * gap);
        r.chunkTokens = QList<qint32>(chunks, 1);
        r.tLast = r.chunkTimes.constLast();
        r.tEnd = r.tLast;
        r.outputTokens = chunks;
        r.httpStatus = 200;
        records.append(r);
    }
    in.runStartNs = records.constFirst().tSend;
    in.records = records;
    return in;
}

Interval itlInterval(const RunDerivation &d, const QString &stat)
{
    for (const auto &[metric, stats] : d.intervals)
        if (metric == "itl"_L1)
            for (const auto &[name, interval] : stats)
                if (name == stat)
                    return interval;
    return {};
}

} // namespace

class TestDerivationIntervals : public QObject
{
    Q_OBJECT
private slots:
    void replicatesStepDownWithTheGaps_data()
    {
        QTest::addColumn<int>("requests");
        QTest::addColumn<int>("chunks");
        QTest::addColumn<QString>("method");
        // gaps = requests × (chunks − 1); B is the largest of 2000/1000/500/200 with B × gaps
        // ≤ 1e8, never below 200.
        QTest::newRow("small: full B") << 200 << 51 << u"bootstrap-percentile (clustered)"_s;
        QTest::newRow("100,000 gaps")
            << 1000 << 101 << u"bootstrap-percentile (clustered), B = 1000"_s;
        QTest::newRow("256,000 gaps")
            << 2000 << 129 << u"bootstrap-percentile (clustered), B = 200"_s;
    }
    void replicatesStepDownWithTheGaps()
    {
        QFETCH(int, requests);
        QFETCH(int, chunks);
        QFETCH(QString, method);
        const RunDerivation d = deriveRun(run(requests, chunks));
        for (const char *stat : {"p50", "p99"}) {
            const Interval i = itlInterval(d, QString::fromLatin1(stat));
            QVERIFY2(i.available, qPrintable(i.reason));
            QCOMPARE(i.method, method);
            QCOMPARE(i.n, requests); // clusters: requests, not gaps
            QVERIFY(i.lo <= i.estimate && i.estimate <= i.hi);
        }
    }

    void omittedWithTheReasonPastTheLimit()
    {
        // 2,000,001 gaps: one more than the bootstrap is computed for.
        RunReportInput in = run(1000, 2001);
        QList<RequestRecord> records = in.records.list();
        records.last().chunkTimes.append(records.last().chunkTimes.constLast() + 10'000'000);
        records.last().chunkTokens.append(1);
        in.records = records;
        const RunDerivation d = deriveRun(in);
        const Interval i = itlInterval(d, u"p99"_s);
        QVERIFY(!i.available);
        QVERIFY2(i.reason.contains(u"2000001 inter-token gaps"_s), qPrintable(i.reason));
        QVERIFY2(i.reason.contains(u"up to 2000000"_s), qPrintable(i.reason));
    }
};

QTEST_GUILESS_MAIN(TestDerivationIntervals)
#include "tst_derivationintervals.moc"
