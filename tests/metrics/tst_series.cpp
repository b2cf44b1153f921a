#include "metrics/samples.h"
#include "metrics/series.h"
#include "metrics/summary.h"

#include "syntheticrun.h"

#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <vector>

using namespace sb;
using namespace Qt::StringLiterals;

class TestSeries : public QObject
{
    Q_OBJECT

private slots:
    void seriesByHand();
    void seriesTooSmall();
    void runLevelValues_data();
    void runLevelValues();
    void summarizeSeriesNotesMissingValues();
    void samplesMatchTheSummary_data();
    void samplesMatchTheSummary();
    void itlClustersMatchTheSummary();
    void inFlightSteps();
};

// {10, 12, 14}: mean 12, s = 2, CV 2/12, t(0.975, 2) = 4.302652729911275.
void TestSeries::seriesByHand()
{
    const SeriesStats s = seriesStats({10, 12, 14});
    QCOMPARE(s.runs, qint64(3));
    QCOMPARE(s.mean, 12.0);
    QCOMPARE(s.stddev, 2.0);
    QCOMPARE(s.cv, 2.0 / 12);
    QCOMPARE(s.min, 10.0);
    QCOMPARE(s.max, 14.0);
    QVERIFY(std::fabs(s.meanInterval.hi - (12 + 4.302652729911275 * 2 / std::sqrt(3.0))) < 1e-8);
    const QJsonObject o = s.toJson();
    QCOMPARE(o.value(u"cv"_s).toDouble(), 2.0 / 12);
    QCOMPARE(o.value(u"mean_interval"_s).toObject().value(u"method"_s).toString(), u"student-t"_s);
}

void TestSeries::seriesTooSmall()
{
    const SeriesStats one = seriesStats({5});
    QCOMPARE(one.mean, 5.0);
    QVERIFY(std::isnan(one.stddev));
    QVERIFY(std::isnan(one.cv));
    QVERIFY(!one.meanInterval.available);
    QVERIFY(one.toJson().value(u"cv"_s).isNull());
    QVERIFY(std::isnan(seriesStats({0, 0}).cv)); // zero mean: no CV
}

// Values from tst_summary's hand-made run (syntheticrun.h): TTFT of R1, R2, R3 = 10, 20, 30 ms;
// duration 0.102..0.202 s = 100 ms; 3 completed, 2 failed.
void TestSeries::runLevelValues_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("present");
    QTest::addColumn<double>("value");
    QTest::newRow("ttft.mean") << u"ttft.mean"_s << true << 20.0;
    QTest::newRow("ttft.median") << u"ttft.median"_s << true << 20.0;
    QTest::newRow("ttft.p99") << u"ttft.p99"_s << true << 29.8;
    QTest::newRow("ttft.p42 not computed") << u"ttft.p42"_s << false << 0.0;
    QTest::newRow("completed") << u"completed"_s << true << 3.0;
    QTest::newRow("failed") << u"failed"_s << true << 2.0;
    QTest::newRow("failure_rate") << u"failure_rate"_s << true << 40.0;
    QTest::newRow("request_throughput") << u"request_throughput"_s << true << 30.0;
    QTest::newRow("goodput without SLO") << u"request_goodput"_s << false << 0.0;
    QTest::newRow("unknown") << u"nonsense"_s << false << 0.0;
    QTest::newRow("unknown metric") << u"foo.mean"_s << false << 0.0;
}

void TestSeries::runLevelValues()
{
    QFETCH(QString, key);
    QFETCH(bool, present);
    QFETCH(double, value);
    const RunSummary s = summarize(synthetic::records());
    QString note;
    const std::optional<double> v = runLevelValue(s, key, &note);
    QCOMPARE(v.has_value(), present);
    if (present)
        QVERIFY2(std::fabs(*v - value) < 1e-9, qPrintable(QString::number(*v)));
    else
        QVERIFY(!note.isEmpty());
}

void TestSeries::summarizeSeriesNotesMissingValues()
{
    const RunSummary s = summarize(synthetic::records());
    RunSummary empty;
    const QList<SeriesMetric> m =
        summarizeSeries({s, s, empty}, {u"ttft.mean"_s, u"request_throughput"_s});
    QCOMPARE(m.size(), 2);
    QCOMPARE(m[0].values.size(), 2);
    QCOMPARE(m[0].stats.mean, 20.0);
    QCOMPARE(m[0].stats.stddev, 0.0);
    QCOMPARE(m[0].notes, (QStringList{u"run 3: no ttft samples"_s}));
    QCOMPARE(m[1].notes, (QStringList{u"run 3: no duration"_s}));
    QVERIFY(lowerIsBetter(u"ttft.p99"_s));
    QVERIFY(!lowerIsBetter(u"output_throughput"_s));
    QVERIFY(defaultSeriesKeys().contains(u"itl.p99"_s));
    QCOMPARE(m[0].toJson().value(u"key"_s).toString(), u"ttft.mean"_s);
}

// requestSamples() must give exactly the samples the summary reduces: same statistics.
void TestSeries::samplesMatchTheSummary_data()
{
    QTest::addColumn<QString>("metric");
    for (const char *m : {"ttft", "tpot", "e2el", "ttft_from_sched", "e2el_from_sched",
                          "schedule_lag", "client_queue_time"})
        QTest::newRow(m) << QString::fromLatin1(m);
}

void TestSeries::samplesMatchTheSummary()
{
    QFETCH(QString, metric);
    const QList<RequestRecord> records = synthetic::records();
    const RunSummary s = summarize(records);
    const QList<double> v = requestSamples(records, metric);
    const MetricStats mine = computeStats(v, s.percentiles);
    const MetricStats *theirs = s.stats(metric);
    QVERIFY(theirs);
    QCOMPARE(mine.count, theirs->count);
    QCOMPARE(mine.mean, theirs->mean);
    QCOMPARE(mine.percentiles, theirs->percentiles);
    QVERIFY(requestSamples(records, u"nonsense"_s).isEmpty());
}

void TestSeries::itlClustersMatchTheSummary()
{
    const QList<RequestRecord> records = synthetic::records();
    const RunSummary s = summarize(records);
    for (bool perToken : {false, true}) {
        std::vector<double> pooled;
        const QList<QList<double>> clusters = itlByRequest(records, perToken);
        QCOMPARE(clusters.size(), 2); // R1 and R2 have more than one chunk
        for (const QList<double> &c : clusters)
            pooled.insert(pooled.end(), c.cbegin(), c.cend());
        const MetricStats mine = computeStats(std::span<double>(pooled), s.percentiles);
        const MetricStats &theirs = perToken ? s.itlPerToken : s.itl;
        QCOMPARE(mine.count, theirs.count);
        QCOMPARE(mine.mean, theirs.mean);
        QCOMPARE(mine.percentiles, theirs.percentiles);
    }
}

// Hand-made run: sends at 1, 102, 110, 125, 130, 141 ms; completions (t_end) at 22, 143, 161,
// 156, 135, 202 ms. At 130 ms: R1, R2, R3, R4 in flight.
void TestSeries::inFlightSteps()
{
    const QList<RequestRecord> records = synthetic::records();
    const QList<InFlightStep> steps = sb::inFlightSteps(records);
    QCOMPARE(inFlightAt(steps, synthetic::ms(0)), qint64(0));
    QCOMPARE(inFlightAt(steps, synthetic::ms(5)), qint64(1));
    QCOMPARE(inFlightAt(steps, synthetic::ms(22)), qint64(0)); // an end frees at once
    QCOMPARE(inFlightAt(steps, synthetic::ms(130)), qint64(4));
    QCOMPARE(inFlightAt(steps, synthetic::ms(142)), qint64(4)); // R4 ended at 135, R5 began 141
    QCOMPARE(inFlightAt(steps, synthetic::ms(300)), qint64(0));
    QCOMPARE(completionTimeNs(records.at(0)), synthetic::ms(22));
    // Without warm-up the first step is R1's send.
    QCOMPARE(sb::inFlightSteps(records, false).constFirst().tNs, synthetic::ms(102));
}

QTEST_APPLESS_MAIN(TestSeries)
#include "tst_series.moc"
