// Latency-versus-throughput curves: runs grouped by SUT, each curve sorted by achieved
// throughput, every point the run's own statistic, and runs that cannot give a point on the same
// footing (imported summary only, no successful request, statistic not computed) left out with
// a note instead of drawn at zero.

#include "metrics/summary.h"
#include "report/latencycurve.h"
#include "report/reportrun.h"

#include <QHash>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

enum class Kind { Measured, ImportedSummaryOnly, FailedOnly };

struct RunSpec
{
    qint64 id = 0;
    QString sut;
    double rate = 1; // req/s: requests are sent 1/rate s apart
    double ttftMs = 50;
    double itlMs = 10;
    Kind kind = Kind::Measured;
};

constexpr int kRequests = 20;
constexpr int kTokens = 16;
constexpr qint64 kT0 = 1'000'000'000;

QList<RequestRecord> records(const RunSpec &s)
{
    QList<RequestRecord> out;
    for (int i = 0; i < kRequests; ++i) {
        RequestRecord r;
        r.index = i;
        r.tSched = kT0 + qint64(double(i) / s.rate * 1e9);
        r.tQueued = r.tDispatch = r.tSend = r.tSched;
        if (s.kind == Kind::FailedOnly) {
            r.error = ErrorClass::Http5xx;
            r.httpStatus = 500;
            r.tEnd = r.tSend + 1'000'000;
            out.append(r);
            continue;
        }
        qint64 t = r.tSend + qint64(s.ttftMs * 1e6);
        for (int k = 0; k < kTokens; ++k) {
            r.chunkTimes.append(t);
            r.chunkTokens.append(1);
            t += qint64(s.itlMs * 1e6);
        }
        r.tFirst = r.chunkTimes.constFirst();
        r.tLast = r.chunkTimes.constLast();
        r.tEnd = r.tLast;
        r.inputTokens = 100;
        r.outputTokens = kTokens;
        r.inputSource = r.outputSource = TokenSource::ServerUsage;
        r.httpStatus = 200;
        out.append(r);
    }
    return out;
}

ReportRun reportRun(const RunSpec &s)
{
    ReportRun r;
    r.id = s.id;
    r.label = u"#%1 %2"_s.arg(s.id).arg(s.sut);
    r.input.plan.sut.name = s.sut;
    r.input.records = records(s);
    r.summary = summarize(r.input.records);
    r.rawRecords = s.kind != Kind::ImportedSummaryOnly;
    r.imported = s.kind == Kind::ImportedSummaryOnly;
    return r;
}

// The achieved rates straight from the records, apart from summarize(): successful requests
// (or their output tokens) over first send .. last end.
double expectedThroughput(const RunSpec &s, CurveThroughput x)
{
    const QList<RequestRecord> recs = records(s);
    const double seconds = double(recs.constLast().tEnd - recs.constFirst().tSend) / 1e9;
    return (x == CurveThroughput::Output ? double(kRequests * kTokens) : double(kRequests)) /
           seconds;
}

using Ids = QList<qint64>;

} // namespace

Q_DECLARE_METATYPE(RunSpec)
Q_DECLARE_METATYPE(CurveThroughput)

class TestLatencyCurve : public QObject
{
    Q_OBJECT
private slots:
    void curves_data();
    void curves();
    void saturatedPointsMarked();
};

void TestLatencyCurve::curves_data()
{
    QTest::addColumn<QList<RunSpec>>("runs");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("stat");
    QTest::addColumn<CurveThroughput>("x");
    QTest::addColumn<QStringList>("suts");  // curve order
    QTest::addColumn<QList<Ids>>("points"); // run ids per curve, in curve order
    QTest::addColumn<Ids>("leftOut");       // runs named in the notes
    QTest::addColumn<QString>("noteText");  // a phrase the notes must hold

    // Two SUTs, three rates each, listed out of order; latency grows with the rate.
    const QList<RunSpec> sweep = {
        {12, u"sglang-h100"_s, 8, 40, 7, Kind::Measured},
        {1, u"vllm-a100"_s, 4, 50, 10, Kind::Measured},
        {3, u"vllm-a100"_s, 16, 90, 14, Kind::Measured},
        {11, u"sglang-h100"_s, 4, 35, 6, Kind::Measured},
        {2, u"vllm-a100"_s, 8, 60, 11, Kind::Measured},
        {13, u"sglang-h100"_s, 16, 55, 9, Kind::Measured},
    };
    const QList<Ids> sorted = {{11, 12, 13}, {1, 2, 3}};
    const QStringList suts = {u"sglang-h100"_s, u"vllm-a100"_s};

    QTest::newRow("two SUTs, three rates each: p99 TTFT over output tok/s")
        << sweep << u"ttft"_s << u"p99"_s << CurveThroughput::Output << suts << sorted << Ids()
        << QString();
    QTest::newRow("request throughput on x, mean TPOT on y")
        << sweep << u"tpot"_s << u"mean"_s << CurveThroughput::Request << suts << sorted << Ids()
        << QString();

    QList<RunSpec> mixed = sweep;
    mixed.insert(2, {20, u"vllm-a100"_s, 12, 70, 12, Kind::ImportedSummaryOnly});
    mixed.append({21, u"sglang-h100"_s, 32, 80, 10, Kind::FailedOnly});
    QTest::newRow("imported summary-only and failed-only runs left out")
        << mixed << u"e2el"_s << u"median"_s << CurveThroughput::Output << suts << sorted
        << Ids{20, 21} << u"no successful request"_s;

    QList<RunSpec> twice = sweep;
    twice.append(sweep.at(1));
    QTest::newRow("a run listed twice counts once")
        << twice << u"itl"_s << u"p90"_s << CurveThroughput::Output << suts << sorted << Ids()
        << QString();

    // The summary computes p50, p90, p95, p99, p99.9: a p97 is not there for any run.
    QTest::newRow("statistic not computed: no curve, every run named")
        << sweep << u"ttft"_s << u"p97"_s << CurveThroughput::Output << QStringList()
        << QList<Ids>() << Ids{12, 1, 3, 11, 2, 13} << u"p97 not computed"_s;

    QTest::newRow("one SUT only") << QList<RunSpec>{sweep.at(4), sweep.at(2), sweep.at(1)}
                                  << u"ttft"_s << u"p99"_s << CurveThroughput::Output
                                  << QStringList{u"vllm-a100"_s} << QList<Ids>{{1, 2, 3}} << Ids()
                                  << QString();
}

void TestLatencyCurve::curves()
{
    QFETCH(QList<RunSpec>, runs);
    QFETCH(QString, metric);
    QFETCH(QString, stat);
    QFETCH(CurveThroughput, x);
    QFETCH(QStringList, suts);
    QFETCH(QList<Ids>, points);
    QFETCH(Ids, leftOut);
    QFETCH(QString, noteText);

    QList<ReportRun> reportRuns;
    QHash<qint64, RunSpec> specs;
    for (const RunSpec &s : runs) {
        reportRuns.append(reportRun(s));
        specs.insert(s.id, s);
    }
    LatencyCurveOptions options;
    options.metric = metric;
    options.stat = stat;
    options.throughput = x;
    const LatencyCurves result = latencyThroughputCurves(reportRuns, options);

    QCOMPARE(result.options.metric, metric);
    QStringList gotSuts;
    for (const LatencyCurve &c : result.curves)
        gotSuts << c.sut;
    QCOMPARE(gotSuts, suts);
    for (int ci = 0; ci < result.curves.size(); ++ci) {
        const LatencyCurve &c = result.curves.at(ci);
        Ids ids;
        for (const LatencyCurvePoint &p : c.points)
            ids << p.runId;
        QCOMPARE(ids, points.at(ci));
        double previous = 0;
        for (const LatencyCurvePoint &p : c.points) {
            const RunSpec &s = specs.value(p.runId);
            QVERIFY2(p.throughput > previous, qPrintable(c.sut));
            previous = p.throughput;
            QVERIFY2(std::abs(p.throughput - expectedThroughput(s, x)) <
                         1e-9 * expectedThroughput(s, x),
                     qPrintable(u"%1 vs %2"_s.arg(p.throughput).arg(expectedThroughput(s, x))));
            // Constant TTFT and ITL per run: every statistic of TTFT is the TTFT, of TPOT and
            // ITL the gap, of E2EL TTFT plus the gaps.
            const double expected = metric == "ttft"_L1   ? s.ttftMs
                                    : metric == "e2el"_L1 ? s.ttftMs + (kTokens - 1) * s.itlMs
                                                          : s.itlMs;
            QVERIFY2(std::abs(p.latency - expected) < 1e-6,
                     qPrintable(u"%1: %2 vs %3"_s.arg(p.runLabel).arg(p.latency).arg(expected)));
            QCOMPARE(p.runLabel, u"#%1 %2"_s.arg(s.id).arg(s.sut));
        }
    }

    QCOMPARE(result.notes.size(), leftOut.size());
    for (qsizetype i = 0; i < leftOut.size(); ++i)
        QVERIFY2(result.notes.at(i).startsWith(u"#%1 "_s.arg(leftOut.at(i))),
                 qPrintable(result.notes.at(i)));
    if (!leftOut.isEmpty()) {
        QVERIFY(result.notes.join(u'\n').contains(noteText));
        if (leftOut.contains(20))
            QVERIFY(result.notes.first().contains(u"imported without per-request results"_s));
    }
}

void TestLatencyCurve::saturatedPointsMarked()
{
    // A sweep of three steps: the last stopped early by the saturation detector (its stored
    // summary carries the evidence), the middle one found saturated in its records afterwards,
    // the first not saturated. Every step keeps its point; the two saturated ones are marked
    // and named in the notes, in the reader's language.
    QList<ReportRun> runs = {reportRun({1, u"sim"_s, 4, 50, 10, Kind::Measured}),
                             reportRun({2, u"sim"_s, 8, 80, 10, Kind::Measured}),
                             reportRun({3, u"sim"_s, 16, 400, 10, Kind::Measured})};
    const QString reason = u"over-saturated: in flight +1.50/s and median TTFT +20.0 ms/s over "
                           "30 s while throughput did not grow"_s;
    runs[1].derived.statisticsComputed = true;
    runs[1].derived.saturation.evaluated = true;
    runs[1].derived.saturation.saturated = true;
    runs[1].derived.saturation.reason = reason;
    runs[2].info.summary[u"stopped_early"_s] =
        QJsonObject{{u"reason"_s, u"stopped early: over-saturated ("_s + reason + u")"_s},
                    {u"saturation"_s, QJsonObject{{u"saturated"_s, true}, {u"reason"_s, reason}}}};
    const LatencyCurves result = latencyThroughputCurves(runs);
    QCOMPARE(result.curves.size(), 1);
    const QList<LatencyCurvePoint> &p = result.curves.first().points;
    QCOMPARE(p.size(), 3);
    QVERIFY(!p.at(0).saturated);
    QVERIFY(p.at(1).saturated && !p.at(1).stoppedEarly);
    QVERIFY(p.at(2).saturated && p.at(2).stoppedEarly);
    QCOMPARE(result.saturationMessages.size(), 2);
    QCOMPARE(result.saturationMessages.at(1).text(),
             u"#3 sim: stopped early as over-saturated — "_s + reason);
    QVERIFY(result.saturationMessages.at(0).text().startsWith(
        u"#2 sim: over-saturated, found in its records"_s));
    // The evidence is a catalogue text, found again from the stored English.
    QCOMPARE(QByteArray(result.saturationMessages.at(1).argMessages().at(1).id()),
             QByteArray("sat.reason.saturated"));
    QVERIFY(result.notes.isEmpty()); // nothing left out
}

QTEST_GUILESS_MAIN(TestLatencyCurve)
#include "tst_latencycurve.moc"
