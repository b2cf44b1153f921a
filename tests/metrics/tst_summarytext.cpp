#include "metrics/summary.h"
#include "metrics/summarytext.h"
#include "syntheticrun.h"

#include <QTest>

#include <limits>

using namespace sb;
using namespace Qt::StringLiterals;

// Expected blocks were produced by running vLLM's own print statements ("{:<40} {:<10}",
// "{s:{c}^{n}}") in CPython on the synthetic run's hand-computed values (see tst_summary.cpp):
// trailing spaces are part of vLLM's output.
static const char kClassic[] = "============ Serving Benchmark Result ============\n"
                               "Successful requests:                     3         \n"
                               "Benchmark duration (s):                  0.10      \n"
                               "Total input tokens:                      60        \n"
                               "Total generated tokens:                  11        \n"
                               "Request throughput (req/s):              30.00     \n"
                               "Output token throughput (tok/s):         110.00    \n"
                               "Total Token throughput (tok/s):          710.00    \n"
                               "---------------Time to First Token----------------\n"
                               "Mean TTFT (ms):                          20.00     \n"
                               "Median TTFT (ms):                        20.00     \n"
                               "P99 TTFT (ms):                           29.80     \n"
                               "-----Time per Output Token (excl. 1st token)------\n"
                               "Mean TPOT (ms):                          8.00      \n"
                               "Median TPOT (ms):                        8.00      \n"
                               "P99 TPOT (ms):                           9.96      \n"
                               "---------------Inter-token Latency----------------\n"
                               "Mean ITL (ms):                           12.00     \n"
                               "Median ITL (ms):                         10.00     \n"
                               "P99 ITL (ms):                            19.60     \n"
                               "==================================================\n";

static const char kBenchServe[] = "============ Serving Benchmark Result ============\n"
                                  "Successful requests:                     3         \n"
                                  "Failed requests:                         2         \n"
                                  "Maximum request concurrency:             8         \n"
                                  "Request rate configured (RPS):           12.50     \n"
                                  "Benchmark duration (s):                  0.10      \n"
                                  "Total input tokens:                      60        \n"
                                  "Total generated tokens:                  11        \n"
                                  "Request throughput (req/s):              30.00     \n"
                                  "Request goodput (req/s):                 10.00     \n"
                                  "Output token throughput (tok/s):         110.00    \n"
                                  "Peak output token throughput (tok/s):    11.00     \n"
                                  "Peak concurrent requests:                3.00      \n"
                                  "Total Token throughput (tok/s):          710.00    \n"
                                  "---------------Time to First Token----------------\n"
                                  "Mean TTFT (ms):                          20.00     \n"
                                  "Median TTFT (ms):                        20.00     \n"
                                  "P50 TTFT (ms):                           20.00     \n"
                                  "P99.9 TTFT (ms):                         29.98     \n"
                                  "-----Time per Output Token (excl. 1st token)------\n"
                                  "Mean TPOT (ms):                          8.00      \n"
                                  "Median TPOT (ms):                        8.00      \n"
                                  "P50 TPOT (ms):                           8.00      \n"
                                  "P99.9 TPOT (ms):                         10.00     \n"
                                  "---------------Inter-token Latency----------------\n"
                                  "Mean ITL (ms):                           12.00     \n"
                                  "Median ITL (ms):                         10.00     \n"
                                  "P50 ITL (ms):                            10.00     \n"
                                  "P99.9 ITL (ms):                          19.96     \n"
                                  "----------------End-to-end Latency----------------\n"
                                  "Mean E2EL (ms):                          40.00     \n"
                                  "Median E2EL (ms):                        40.00     \n"
                                  "P50 E2EL (ms):                           40.00     \n"
                                  "P99.9 E2EL (ms):                         49.98     \n"
                                  "==================================================\n";

class TestSummaryText : public QObject
{
    Q_OBJECT

private slots:
    void classicBlock();
    void benchServeBlock();
    void goodputLineOnlyWithSlo();
    void additions();
    void cancelledByLoadLine();
    void forProfile();
    void unknownPrintsNotAvailableWithTheReason();
    void pythonFixed_data();
    void pythonFixed();
};

void TestSummaryText::classicBlock()
{
    const RunSummary s = summarize(synthetic::records());
    SummaryTextOptions o;
    o.servebenchAdditions = false;
    const QString text = formatVllmSummary(s, o);
    QCOMPARE(text, QString::fromLatin1(kClassic));
    QCOMPARE(formatVllmBlock(s, o), text);
}

void TestSummaryText::benchServeBlock()
{
    SummaryOptions so;
    so.goodput.ttftMs = 25; // R2 only, see tst_summary
    so.goodput.tpotMs = 9;
    const RunSummary s = summarize(synthetic::records(), so);
    SummaryTextOptions o;
    o.style = VllmTextStyle::BenchServe;
    o.percentileMetrics = {u"ttft"_s, u"tpot"_s, u"itl"_s, u"e2el"_s};
    o.metricPercentiles = {50, 99.9};
    o.maxConcurrency = 8;
    o.requestRate = 12.5;
    QCOMPARE(formatVllmBlock(s, o), QString::fromLatin1(kBenchServe));
}

void TestSummaryText::goodputLineOnlyWithSlo()
{
    SummaryTextOptions o;
    o.servebenchAdditions = false;
    QVERIFY(!formatVllmSummary(summarize(synthetic::records()), o).contains(u"goodput"_s));
    SummaryOptions so;
    so.goodput.e2elMs = 40; // R1 and R3 -> 2 / 0.1 s
    const QString text = formatVllmSummary(summarize(synthetic::records(), so), o);
    QVERIFY(text.contains(u"\nRequest goodput (req/s):                 20.00     \n"_s));
    // Classic style never prints the lines vLLM 0.10 added.
    QVERIFY(!text.contains(u"Failed requests:"_s));
    QVERIFY(!text.contains(u"Peak"_s));
}

// The cancellation load's class in the additions: counted apart from the failures, with the
// configuration it ran under (docs/metrics.md, "Cancelled by the load").
void TestSummaryText::cancelledByLoadLine()
{
    QList<RequestRecord> recs = synthetic::records();
    RequestRecord c = synthetic::rec(6, 148, 148, 150, {{160, 1}, {170, 1}}, 205);
    c.error = ErrorClass::CancelledByLoad;
    recs.append(c);
    const RunSummary s = summarize(recs);
    LoadProfile p;
    p.cancelRatePct = 30;
    p.cancelAfterTokens = 5;
    const QString text = formatServeBenchAdditions(s, SummaryTextOptions::forProfile(p));
    const QStringList lines = text.split(u'\n');
    QVERIFY(lines.contains(u"Failed requests:                         2         "_s));
    QVERIFY2(lines.contains(u"Cancelled by the load:                   1 of 6 (rate 30 %, after 5 tokens)"_s),
             qPrintable(text));
    QVERIFY(lines.contains(
        u"  before the cancel:                     1 had a first token, 2 token chunks received"_s));
    QVERIFY(!text.contains(u"cancelled_by_load"_s)); // not among the failures by class
    // After a delay, as configured; and nothing at all without a cancellation load.
    p.cancelAfterTokens = 0;
    p.cancelDelayS = 0.2;
    QVERIFY(formatServeBenchAdditions(s, SummaryTextOptions::forProfile(p))
                .contains(u"1 of 6 (rate 30 %, 0.2 s after the request was written)"_s));
    QVERIFY(!formatServeBenchAdditions(summarize(synthetic::records()), SummaryTextOptions())
                 .contains(u"Cancelled"_s));
}

void TestSummaryText::additions()
{
    const RunSummary s = summarize(synthetic::records());
    SummaryTextOptions o;
    o.datasetHash = u"sha256:abc123"_s;
    o.clientHealthWarnings = {u"client CPU above 90% for 12 s"_s};
    const QString text = formatVllmSummary(s, o);
    QVERIFY(text.startsWith(QString::fromLatin1(kClassic)));
    const QString add = text.mid(qsizetype(sizeof kClassic) - 1);
    QCOMPARE(add, formatServeBenchAdditions(s, o));
    const QStringList lines = add.split(u'\n');
    QCOMPARE(lines.first(), u"=============== ServeBench Details ==============="_s);
    const auto has = [&lines](const QString &l) {
        if (!lines.contains(l)) {
            qWarning().noquote() << "missing line:" << l;
            return false;
        }
        return true;
    };
    QVERIFY(has(u"Failed requests:                         2         "_s));
    QVERIFY(has(u"  http_5xx:                              1         "_s));
    QVERIFY(has(u"  timeout:                               1         "_s));
    QVERIFY(has(u"Warm-up requests (excluded):             1         "_s));
    // 4 / 0.039 s = 102.564...
    QVERIFY(has(u"Achieved request rate (req/s):           102.56    "_s));
    QVERIFY(has(u"-------------------Schedule Lag-------------------"_s));
    QVERIFY(has(u"Mean schedule lag (ms):                  1.60      "_s));
    QVERIFY(has(u"P99 schedule lag (ms):                   4.88      "_s));
    QVERIFY(has(u"Max schedule lag (ms):                   5.00      "_s));
    QVERIFY(has(u"Mean client queue time (ms):             1.40      "_s));
    QVERIFY(has(u"Mean ITL per token (ms):                 9.00      "_s));
    QVERIFY(has(u"Median ITL per token (ms):               10.00     "_s));
    QVERIFY(has(u"Input token count source:                mixed (server_usage 2, dataset 1)"_s));
    QVERIFY(
        has(u"Output token count source:               mixed (server_usage 2, chunk_count 1)"_s));
    QVERIFY(has(u"Cached prompt tokens:                    5         "_s));
    QVERIFY(has(u"Dataset hash:                            sha256:abc123"_s));
    QVERIFY(has(u"Metric definitions version:              1         "_s));
    QVERIFY(has(u"WARNING: client CPU above 90% for 12 s"_s));
    QCOMPARE(lines.at(lines.size() - 2), QString(50, u'='));
    QCOMPARE(lines.last(), QString()); // ends with a newline

    // BenchServe prints "Failed requests:" in vLLM's block; the additions keep only the classes.
    o.style = VllmTextStyle::BenchServe;
    const QString bs = formatVllmSummary(s, o);
    QCOMPARE(bs.count(u"Failed requests:"_s), 1);
    QVERIFY(bs.contains(u"  timeout:"_s));
}

void TestSummaryText::unknownPrintsNotAvailableWithTheReason()
{
    // Every request sent at one instant (what an import without send times leaves): the rate
    // and the peaks cannot be told; the label stays, the number becomes "n/a (why)".
    QList<RequestRecord> recs = synthetic::records();
    for (RequestRecord &r : recs)
        r.tSend = synthetic::ms(100);
    SummaryTextOptions o;
    o.style = VllmTextStyle::BenchServe;
    const QString text = formatVllmSummary(summarize(recs), o);
    const QString why = u"n/a (every request has the same send time: the records carry no real "
                        "send times)"_s;
    QVERIFY2(text.contains(u"Achieved request rate (req/s):           "_s + why), qPrintable(text));
    QVERIFY(text.contains(u"Peak concurrent requests:                "_s + why));
    QVERIFY(text.contains(u"Peak output token throughput (tok/s):    "_s + why));
    QVERIFY(!text.contains(u"Achieved request rate (req/s):           0.00"_s));

    // Every request failed: vLLM would print 0.00 for each latency; ServeBench says why not.
    recs = synthetic::records();
    for (RequestRecord &r : recs)
        if (!r.warmup)
            r.error = ErrorClass::Reset;
    const QString failed = formatVllmSummary(summarize(recs), SummaryTextOptions());
    for (const char *label : {"Mean TTFT (ms):", "Median TTFT (ms):", "P99 TTFT (ms):",
                              "Mean TPOT (ms):", "Mean ITL (ms):", "Mean ITL per token (ms):"})
        QVERIFY2(failed.contains(QString::fromLatin1(label).leftJustified(40) +
                                 u" n/a (no request succeeded)"_s),
                 label);
    QVERIFY2(!failed.contains(u"TTFT (ms):                          0.00"_s), qPrintable(failed));
    // Schedule lag is measured for failed requests too: still a number.
    QVERIFY(failed.contains(u"Mean schedule lag (ms):                  1.60      "_s));
}

void TestSummaryText::forProfile()
{
    LoadProfile p;
    p.maxConcurrency = 4;
    p.requestRate = 2.5;
    p.metricPercentiles = {90, 99};
    p.percentileMetrics = {u"ttft"_s, u"e2el"_s};
    const SummaryTextOptions o = SummaryTextOptions::forProfile(p);
    QCOMPARE(o.maxConcurrency, 4);
    QCOMPARE(o.requestRate, 2.5);
    QCOMPARE(o.metricPercentiles, (QList<double>{90, 99}));
    QCOMPARE(o.percentileMetrics, (QStringList{u"ttft"_s, u"e2el"_s}));
    p.requestRate = std::numeric_limits<double>::infinity();
    QVERIFY(std::isinf(SummaryTextOptions::forProfile(p).requestRate));

    // A requested percentile the summary did not compute prints "nan", as Python would.
    SummaryTextOptions missing;
    missing.servebenchAdditions = false;
    missing.metricPercentiles = {12.5};
    QVERIFY(formatVllmSummary(summarize(synthetic::records()), missing)
                .contains(u"P12.5 TTFT (ms):                         nan       \n"_s));
}

// Expected strings are CPython's "{:.2f}".format(v): exact decimal expansion, ties to even.
void TestSummaryText::pythonFixed_data()
{
    QTest::addColumn<double>("v");
    QTest::addColumn<QString>("expected");
    QTest::newRow("0.125 tie -> even") << 0.125 << u"0.12"_s;
    QTest::newRow("0.375 tie -> even") << 0.375 << u"0.38"_s;
    QTest::newRow("2.675 below tie") << 2.675 << u"2.67"_s;
    QTest::newRow("1.005 below tie") << 1.005 << u"1.00"_s;
    QTest::newRow("-0.0") << -0.0 << u"-0.00"_s;
    QTest::newRow("1e20") << 1e20 << u"100000000000000000000.00"_s;
    QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << u"nan"_s;
    QTest::newRow("inf") << std::numeric_limits<double>::infinity() << u"inf"_s;
    QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << u"-inf"_s;
}

void TestSummaryText::pythonFixed()
{
    QFETCH(double, v);
    QFETCH(QString, expected);
    QCOMPARE(sb::pythonFixed(v, 2), expected);
}

QTEST_GUILESS_MAIN(TestSummaryText)
#include "tst_summarytext.moc"
