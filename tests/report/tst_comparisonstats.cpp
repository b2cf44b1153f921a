// The comparison's statistics (core/report/comparisonstats.h): per row and candidate the
// difference from the baseline with its interval and a verdict, the reasons where there is
// none, series compared over runs, the ranking with ties and the sample-size hints, in the
// table's text and JSON. Runs are synthetic and seeded (syntheticreportruns.h): a configuration
// 5 ms slower in TTFT, and two draws of one configuration.

#include "syntheticreportruns.h"

#include "report/comparison.h"
#include "report/comparisonstats.h"
#include "report/reportcost.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestComparisonStats : public QObject
{
    Q_OBJECT
private slots:
    void knownDifferenceIsDetected_data();
    void knownDifferenceIsDetected();
    void sameConfigurationIsNoDifference();
    void tooFewRequestsForP99();
    void throughputNeedsSeries();
    void seriesCompareOverRuns();
    void seriesAgainstSingleRun();
    void rankingMarksTies();
    void hintsAndText();
    void json();

private:
    static Comparison compare(const QList<ReportRun> &runs, const QString &rankBy = u"ttft:p99"_s,
                              int baseline = 0)
    {
        ComparisonOptions o;
        o.baseline = baseline;
        RankBy::parse(rankBy, &o.rankBy, nullptr);
        return buildComparison(runs, {}, o);
    }
    static const CandidateTest &test(const Comparison &c, const QString &key, int candidate)
    {
        static const CandidateTest none;
        const ComparisonRow *row = c.row(key);
        return row && candidate < row->tests.size() ? row->tests.at(candidate) : none;
    }
};

void TestComparisonStats::knownDifferenceIsDetected_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("mustBeSignificant");
    // Mean, median and p90 have the power to see 5 ms at 400 requests a side; p99's bootstrap
    // interval is wide, so it need only contain the truth.
    QTest::newRow("mean") << u"ttft.mean"_s << true;
    QTest::newRow("median") << u"ttft.median"_s << true;
    QTest::newRow("p90") << u"ttft.p90"_s << true;
    QTest::newRow("p99") << u"ttft.p99"_s << false;
}

void TestComparisonStats::knownDifferenceIsDetected()
{
    QFETCH(QString, key);
    QFETCH(bool, mustBeSignificant);
    synthetic::RunShape base;
    synthetic::RunShape slow = base;
    slow.ttftShiftMs += 5; // every TTFT quantile is 5 ms later
    const Comparison c = compare({synthetic::run(1, u"sim-50"_s, synthetic::records(base, 11)),
                                  synthetic::run(2, u"sim-55"_s, synthetic::records(slow, 12))});
    QCOMPARE(c.candidates.size(), 2);
    const CandidateTest &t = test(c, key, 1);
    QVERIFY2(t.difference.absolute.available, qPrintable(t.noteMessage.text()));
    QVERIFY2(t.difference.absolute.contains(5.0),
             qPrintable(formatDifference(t.difference, 2, u"ms"_s)));
    if (mustBeSignificant) {
        QCOMPARE(t.verdict(), Verdict::Worse);
        QCOMPARE(t.verdictMessage.text(), u"worse"_s);
    }
    // The candidate's estimate is the table's own number.
    QCOMPARE(t.difference.candidate, *c.row(key)->cells.at(1).value);
    QVERIFY(test(c, key, 0).baseline);
}

void TestComparisonStats::sameConfigurationIsNoDifference()
{
    synthetic::RunShape shape;
    const Comparison c = compare({synthetic::run(1, u"sim-50"_s, synthetic::records(shape, 21)),
                                  synthetic::run(2, u"sim-50"_s, synthetic::records(shape, 22))});
    for (const QString &key : {u"ttft.mean"_s, u"ttft.median"_s, u"ttft.p90"_s, u"ttft.p99"_s,
                               u"tpot.mean"_s, u"itl.median"_s, u"e2el.mean"_s}) {
        const CandidateTest &t = test(c, key, 1);
        QVERIFY2(t.verdict() == Verdict::NoDetectableDifference,
                 qPrintable(key + u": "_s + formatTest(*c.row(key), t, false)));
        QCOMPARE(t.verdictMessage.text(), u"no detectable difference at 95 %"_s);
        // The table still shows the raw difference; only the verdict calls it noise.
        QVERIFY(c.row(key)->cells.at(1).absDiff);
    }
}

void TestComparisonStats::tooFewRequestsForP99()
{
    // The case: 40 requests each, p99 TTFT "21 % better" — there is no p99 interval
    // below 299 requests, and no verdict.
    synthetic::RunShape shape;
    shape.requests = 40;
    const Comparison c = compare({synthetic::run(1, u"sim"_s, synthetic::records(shape, 31)),
                                  synthetic::run(2, u"sim"_s, synthetic::records(shape, 32))});
    const CandidateTest &t = test(c, u"ttft.p99"_s, 1);
    QCOMPARE(t.verdict(), Verdict::NotAvailable);
    QVERIFY2(t.noteMessage.text().contains(u"needs at least 299 requests a side"_s),
             qPrintable(t.noteMessage.text()));
    // The reason is a catalogue message (translatable), its numbers recovered.
    QCOMPARE(QByteArray(t.noteMessage.id()), QByteArray("sig.reason.percentile_few"));
    QVERIFY(!t.significant());
}

void TestComparisonStats::throughputNeedsSeries()
{
    synthetic::RunShape a, b;
    b.ratePerS = 40; // twice the throughput: still not testable from one run each
    const Comparison c = compare({synthetic::run(1, u"sim"_s, synthetic::records(a, 41)),
                                  synthetic::run(2, u"sim"_s, synthetic::records(b, 42))});
    for (const QString &key :
         {u"request_throughput"_s, u"output_throughput"_s, u"duration"_s, u"failure_rate"_s}) {
        const CandidateTest &t = test(c, key, 1);
        QCOMPARE(t.verdict(), Verdict::NotAvailable);
        QCOMPARE(QByteArray(t.noteMessage.id()), QByteArray("sig.note.one_run"));
        QVERIFY(t.noteMessage.text().startsWith(u"not testable from one run"_s));
        QVERIFY(!t.difference.absolute.available); // no invented interval
    }
}

void TestComparisonStats::seriesCompareOverRuns()
{
    // Two series of 4 runs: B's runs send twice as fast; its throughput is higher in every run.
    QList<ReportRun> runs;
    for (int i = 0; i < 8; ++i) {
        synthetic::RunShape s;
        s.requests = 60;
        s.ratePerS = (i < 4 ? 20 : 40) * (1 + 0.02 * (i % 4));
        ReportRun r = synthetic::run(i + 1, u"sim"_s, synthetic::records(s, 100 + i));
        r.seriesId = i < 4 ? 7 : 8;
        r.seriesName = i < 4 ? u"A"_s : u"B"_s;
        r.seriesCacheState = u"not cache-busted: runs after the first may hit the server's prefix "
                             "cache"_s;
        runs << r;
    }
    const Comparison c = compare(runs, u"request_throughput"_s);
    QCOMPARE(c.candidates.size(), 2);
    QVERIFY(c.candidates.at(0).isSeries());
    QCOMPARE(c.candidates.at(1).columns, (QList<int>{4, 5, 6, 7}));
    QCOMPARE(c.candidates.at(1).label, u"series B (4 runs)"_s);
    QCOMPARE(c.candidateOf(6), 1);
    const CandidateTest &t = test(c, u"request_throughput"_s, 1);
    QCOMPARE(t.difference.unit, u"runs"_s);
    QCOMPARE(t.verdict(), Verdict::Better);
    QCOMPARE(t.series.runs, 4);
    QVERIFY(std::isfinite(t.series.cv));
    // The series' estimate is the mean of its runs' values.
    double sum = 0;
    for (int i = 4; i < 8; ++i)
        sum += *c.row(u"request_throughput"_s)->cells.at(i).value;
    QCOMPARE(*t.estimate, sum / 4);
    // Latencies too are compared over runs (one value per run), not per request.
    QCOMPARE(test(c, u"ttft.mean"_s, 1).difference.unit, u"runs"_s);
    // The cache state is said.
    QVERIFY(c.formatText().contains(u"not cache-busted"_s));
    // Without grouping every run is its own candidate.
    ComparisonOptions o;
    o.groupSeries = false;
    QCOMPARE(buildComparison(runs, {}, o).candidates.size(), 8);
}

void TestComparisonStats::seriesAgainstSingleRun()
{
    QList<ReportRun> runs;
    synthetic::RunShape s;
    s.requests = 60;
    runs << synthetic::run(1, u"sim"_s, synthetic::records(s, 1));
    for (int i = 0; i < 3; ++i) {
        ReportRun r = synthetic::run(2 + i, u"sim"_s, synthetic::records(s, 2 + i));
        r.seriesId = 9;
        runs << r;
    }
    const Comparison c = compare(runs);
    QCOMPARE(c.candidates.size(), 2);
    QCOMPARE(QByteArray(test(c, u"ttft.mean"_s, 1).noteMessage.id()), QByteArray("sig.note.mixed"));
}

void TestComparisonStats::rankingMarksTies()
{
    // A and B: one configuration; C: 5 ms slower. By mean TTFT: A and B cannot be separated and
    // share rank 1; C is worse than both (rank 1 + 2).
    synthetic::RunShape base;
    synthetic::RunShape slow = base;
    slow.ttftShiftMs += 5;
    const Comparison c = compare({synthetic::run(1, u"sim"_s, synthetic::records(base, 51)),
                                  synthetic::run(2, u"sim"_s, synthetic::records(base, 52)),
                                  synthetic::run(3, u"sim"_s, synthetic::records(slow, 53))},
                                 u"ttft:mean"_s);
    bool tied = false;
    QCOMPARE(c.tiedRankOf(0, &tied), 1);
    QVERIFY(tied);
    QCOMPARE(c.tiedRankOf(1, &tied), 1);
    QVERIFY(tied);
    QCOMPARE(c.tiedRankOf(2, &tied), 3);
    QVERIFY(!tied);
    const QString tie = c.tieNoteMessage.text();
    QVERIFY2(tie.startsWith(u"Tied: the data cannot separate "_s) && tie.contains(u"#1 sim"_s) &&
                 tie.contains(u"#2 sim"_s) && !tie.contains(u"#3 sim"_s),
             qPrintable(tie));
    // The plain order by estimate is still there for tools that read it.
    QCOMPARE(c.ranking.size(), 3);
    QCOMPARE(c.ranking.last(), 2);
    const QString text = c.formatText();
    QVERIFY2(text.contains(u"tied with #2 sim"_s), qPrintable(text));

    // Ranked by a single run's throughput, nothing can be separated.
    const Comparison byRate = compare({synthetic::run(1, u"sim"_s, synthetic::records(base, 51)),
                                       synthetic::run(3, u"sim"_s, synthetic::records(slow, 53))},
                                      u"request_throughput"_s);
    QCOMPARE(byRate.tiedRankOf(0), 1);
    QCOMPARE(byRate.tiedRankOf(1), 1);
}

void TestComparisonStats::hintsAndText()
{
    synthetic::RunShape shape;
    const Comparison c = compare({synthetic::run(1, u"sim-a"_s, synthetic::records(shape, 61)),
                                  synthetic::run(2, u"sim-b"_s, synthetic::records(shape, 62))});
    const CandidateTest &t = test(c, u"ttft.mean"_s, 1);
    QVERIFY(t.hint.available);
    QCOMPARE(t.hint.unit, u"requests"_s);
    QVERIFY(t.hint.perSide > 2);
    QCOMPARE(t.hintMessage.text(), t.hint.text()); // the catalogue's wording is the library's
    const QString text = c.formatText();
    QVERIFY2(text.contains(u"Statistical tests at 95 %"_s), qPrintable(text));
    if (qEnvironmentVariableIsSet("SB_PRINT"))
        qInfo().noquote() << text;
    QVERIFY(text.contains(u"no detectable difference at 95 %"_s));
    QVERIFY(text.contains(
        u"hint: about %1 requests per side would detect a 5 % difference"_s.arg(t.hint.perSide)));
    QVERIFY(text.contains(u"not testable from one run"_s));
    // The earlier table is unchanged above it.
    QVERIFY(text.startsWith(u"Comparison\n"_s) || text.contains(u"Ranked by P99 TTFT"_s));
}

void TestComparisonStats::json()
{
    synthetic::RunShape base;
    synthetic::RunShape slow = base;
    slow.ttftShiftMs += 5;
    const Comparison c = compare({synthetic::run(1, u"sim-50"_s, synthetic::records(base, 11)),
                                  synthetic::run(2, u"sim-55"_s, synthetic::records(slow, 12))},
                                 u"ttft:mean"_s);
    const QJsonObject o = c.toJson();
    QCOMPARE(o.value(u"confidence"_s).toDouble(), 0.95);
    QCOMPARE(o.value(u"candidates"_s).toArray().size(), 2);
    QVERIFY(o.value(u"ranking_with_ties"_s).toObject().contains(u"order"_s));
    for (const QJsonValue &row : o.value(u"rows"_s).toArray()) {
        if (row[u"key"_s].toString() != "ttft.mean"_L1)
            continue;
        const QJsonObject cand = row[u"tests"_s].toArray().at(1).toObject();
        QCOMPARE(cand.value(u"verdict"_s).toString(), u"worse"_s);
        const QJsonObject diff = cand.value(u"test"_s).toObject().value(u"difference"_s).toObject();
        QVERIFY(diff.value(u"lo"_s).toDouble() <= 5 && 5 <= diff.value(u"hi"_s).toDouble());
        QVERIFY(cand.contains(u"sample_size_hint"_s));
        return;
    }
    QFAIL("no ttft.mean row");
}

QTEST_GUILESS_MAIN(TestComparisonStats)
#include "tst_comparisonstats.moc"
