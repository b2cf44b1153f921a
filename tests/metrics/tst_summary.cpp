#include "metrics/summary.h"
#include "syntheticrun.h"

#include <QTest>

#include <cmath>

using namespace sb;
using namespace Qt::StringLiterals;

class TestSummary : public QObject
{
    Q_OBJECT

private slots:
    void countsAndWindow();
    void latencies();
    void clientSide();
    void tokens();
    void goodput_data();
    void goodput();
    void includeWarmup();
    void empty();
    void allFailed();
    void forProfile();
    void noMultiTokenSharesItl();
    void unknownIsNotZero_data();
    void unknownIsNotZero();
};

void TestSummary::countsAndWindow()
{
    const RunSummary s = summarize(synthetic::records());
    QCOMPARE(s.totalRecords, 6);
    QCOMPARE(s.warmup, 1);
    QVERIFY(!s.warmupIncluded);
    QCOMPARE(s.measured, 5);
    QCOMPARE(s.sent, 5);
    QCOMPARE(s.completed, 3);
    QCOMPARE(s.failed, 2);
    QCOMPARE(s.failedByClass.size(), 2);
    QCOMPARE(s.failedByClass.value(u"http_5xx"_s), 1);
    QCOMPARE(s.failedByClass.value(u"timeout"_s), 1);

    // Window: first send 102 (R1) to last completion 202 (R5's t_end; failed requests occupy
    // the run too) = 100 ms.
    QCOMPARE(s.windowStartNs, synthetic::ms(102));
    QCOMPARE(s.windowEndNs, synthetic::ms(202));
    QCOMPARE(s.durationS, 0.1);
    QCOMPARE(s.firstSchedNs, synthetic::ms(100));
    // 3 successful / 0.1 s; outputs 4+6+1 = 11 -> 110 tok/s; inputs 10+20+30 = 60 -> 71 total.
    QCOMPARE(s.requestThroughput, 30.0);
    QCOMPARE(s.outputThroughput, 110.0);
    QCOMPARE(s.totalTokenThroughput, 710.0);
    // Sends at 102,110,125,130,141: (5-1) / 0.039 s.
    QCOMPARE(s.achievedRequestRate, 4.0 / 0.039);
    // All successful tokens fall in the first second after the first successful send:
    // 4 + (1+4+1) + 1 = 11. In flight over [send, last): R1 [102,142), R2 [110,160),
    // R3 [125,155) all overlap at 125..142 -> 3.
    QCOMPARE(s.peakOutputTokensPerS, 11.0);
    QCOMPARE(s.peakConcurrentRequests, 3);
}

void TestSummary::latencies()
{
    const RunSummary s = summarize(synthetic::records());
    QCOMPARE(s.percentiles, (QList<double>{50, 90, 95, 99, 99.9}));

    // TTFT: R1 112-102 = 10, R2 130-110 = 20, R3 155-125 = 30.
    QCOMPARE(s.ttft.count, 3);
    QCOMPARE(s.ttft.mean, 20.0);
    QCOMPARE(s.ttft.median, 20.0);
    QCOMPARE(s.ttft.stddev, std::sqrt(200.0 / 3.0)); // (100 + 0 + 100) / 3
    QCOMPARE(s.ttft.min, 10.0);
    QCOMPARE(s.ttft.max, 30.0);
    QCOMPARE(s.ttft.percentile(99), 29.8);    // rank 1.98 -> 20 + 0.98*10
    QCOMPARE(s.ttft.percentile(90), 28.0);    // rank 1.8
    QCOMPARE(s.ttft.percentile(99.9), 29.98); // rank 1.998

    // E2EL: R1 142-102 = 40, R2 160-110 = 50, R3 155-125 = 30 (t_end does not count).
    QCOMPARE(s.e2el.count, 3);
    QCOMPARE(s.e2el.mean, 40.0);
    QCOMPARE(s.e2el.median, 40.0);
    QCOMPARE(s.e2el.percentile(99), 49.8);

    // TPOT: R1 (40-10)/(4-1) = 10, R2 (50-20)/(6-1) = 6, R3 has n_out = 1 -> no sample.
    QCOMPARE(s.tpot.count, 2);
    QCOMPARE(s.tpot.mean, 8.0);
    QCOMPARE(s.tpot.median, 8.0);
    QCOMPARE(s.tpot.stddev, 2.0);
    QCOMPARE(s.tpot.percentile(99), 9.96); // rank 0.99 -> 6 + 0.99*4

    // ITL (per chunk): R1 10,10,10; R2 20,10; R3 none; failed R5 excluded.
    // sorted 10,10,10,10,20: mean 12, median 10, std sqrt((4*4 + 64)/5) = 4.
    QCOMPARE(s.itl.count, 5);
    QCOMPARE(s.itl.mean, 12.0);
    QCOMPARE(s.itl.median, 10.0);
    QCOMPARE(s.itl.stddev, 4.0);
    QCOMPARE(s.itl.percentile(99), 19.6); // rank 3.96 -> 10 + 0.96*10
    QCOMPARE(s.itl.percentile(90), 16.0); // rank 3.6
    QCOMPARE(s.itl.max, 20.0);

    // ITL per token: R2's 20 ms gap brought 4 tokens -> 5; others /1.
    // 10,10,10,5,10: mean 9, median 10, min 5.
    QVERIFY(s.multiTokenChunks);
    QCOMPARE(s.itlPerToken.count, 5);
    QCOMPARE(s.itlPerToken.mean, 9.0);
    QCOMPARE(s.itlPerToken.median, 10.0);
    QCOMPARE(s.itlPerToken.min, 5.0);
    QCOMPARE(s.itlPerToken.max, 10.0);

    // MLPerf-style from t_sched: TTFT R1 112-100 = 12, R2 130-110 = 20, R3 155-120 = 35;
    // E2EL R1 142-100 = 42, R2 160-110 = 50, R3 155-120 = 35.
    QCOMPARE(s.ttftFromSched.count, 3);
    QCOMPARE(s.ttftFromSched.mean, 67.0 / 3.0);
    QCOMPARE(s.ttftFromSched.max, 35.0);
    QCOMPARE(s.e2elFromSched.mean, 127.0 / 3.0);
    QCOMPARE(s.e2elFromSched.median, 42.0);

    QCOMPARE(s.stats(u"ttft"), &s.ttft);
    QCOMPARE(s.stats(u"itl_per_token"), &s.itlPerToken);
    QCOMPARE(s.stats(u"nope"), nullptr);
}

void TestSummary::clientSide()
{
    const RunSummary s = summarize(synthetic::records());
    // Schedule lag over every sent measured request, failed included:
    // R1 2, R2 0, R3 5, R4 0, R5 1 -> sorted 0,0,1,2,5: mean 1.6, median 1,
    // p99 rank 3.96 -> 2 + 0.96*3 = 4.88.
    QCOMPARE(s.scheduleLag.count, 5);
    QCOMPARE(s.scheduleLag.mean, 1.6);
    QCOMPARE(s.scheduleLag.median, 1.0);
    QCOMPARE(s.scheduleLag.max, 5.0);
    QCOMPARE(s.scheduleLag.percentile(99), 4.88);
    // Client queue time t_dispatch - t_queued (t_dispatch = t_send here): R1 1, R2 0, R3 5, R4 0,
    // R5 1 -> mean 7/5.
    QCOMPARE(s.clientQueueTime.count, 5);
    QCOMPARE(s.clientQueueTime.mean, 1.4);
    QCOMPARE(s.clientQueueTime.median, 1.0);
}

void TestSummary::tokens()
{
    const RunSummary s = summarize(synthetic::records());
    QCOMPARE(s.totalInputTokens, 60);
    QCOMPARE(s.totalOutputTokens, 11);
    QCOMPARE(s.cachedTokens, 5);
    QCOMPARE(s.cachedTokensReported, 1);
    QCOMPARE(s.inputSources.serverUsage, 2);
    QCOMPARE(s.inputSources.dataset, 1);
    QCOMPARE(s.inputSources.name(), u"mixed"_s);
    QCOMPARE(s.inputSources.describe(), u"mixed (server_usage 2, dataset 1)"_s);
    QCOMPARE(s.outputSources.describe(), u"mixed (server_usage 2, chunk_count 1)"_s);

    TokenSourceCounts one;
    QCOMPARE(one.name(), u"none"_s);
    one.add(TokenSource::ServerUsage);
    one.add(TokenSource::ServerUsage);
    QCOMPARE(one.name(), u"server_usage"_s);
    QCOMPARE(one.describe(), u"server_usage"_s);

    // Fallbacks on one record.
    RequestRecord r;
    r.chunkTimes = {1, 2, 3};
    r.chunkTokens = {1, 3, 0}; // a zero/absent count is one token
    TokenSource src;
    QCOMPARE(effectiveOutputTokens(r, &src), 5);
    QCOMPARE(src, TokenSource::ChunkCount);
    QCOMPARE(effectiveInputTokens(r, &src), 0);
    QCOMPARE(src, TokenSource::Unknown);
}

void TestSummary::goodput_data()
{
    QTest::addColumn<double>("ttft");
    QTest::addColumn<double>("tpot");
    QTest::addColumn<double>("e2el");
    QTest::addColumn<int>("good");

    // Per request (ttft, tpot, e2el): R1 (10, 10, 40), R2 (20, 6, 50), R3 (30, n_out=1 -> 0, 30).
    QTest::newRow("ttft25 tpot9") << 25.0 << 9.0 << -1.0 << 1; // only R2
    // R3's n_out = 1 counts as TPOT 0, as in vLLM -> R2 and R3.
    QTest::newRow("tpot9") << -1.0 << 9.0 << -1.0 << 2;
    // Inclusive bound: R1's E2EL is exactly 40 -> R1 and R3.
    QTest::newRow("e2el40") << -1.0 << -1.0 << 40.0 << 2;
    QTest::newRow("ttft10 inclusive") << 10.0 << -1.0 << -1.0 << 1;
    QTest::newRow("all loose") << 1000.0 << 1000.0 << 1000.0 << 3;
    QTest::newRow("tpot0") << -1.0 << 0.0 << -1.0 << 1; // only R3 (TPOT 0 <= 0)
}

void TestSummary::goodput()
{
    QFETCH(double, ttft);
    QFETCH(double, tpot);
    QFETCH(double, e2el);
    QFETCH(int, good);

    SummaryOptions o;
    o.goodput.ttftMs = ttft;
    o.goodput.tpotMs = tpot;
    o.goodput.e2elMs = e2el;
    const RunSummary s = summarize(synthetic::records(), o);
    QVERIFY(s.goodputSet);
    QCOMPARE(s.goodRequests, good);
    QCOMPARE(s.requestGoodput, good / 0.1);
}

void TestSummary::includeWarmup()
{
    const RunSummary plain = summarize(synthetic::records());
    QVERIFY(!plain.goodputSet);
    QCOMPARE(plain.requestGoodput, 0.0);

    SummaryOptions o;
    o.includeWarmup = true;
    const RunSummary s = summarize(synthetic::records(), o);
    QVERIFY(s.warmupIncluded);
    QCOMPARE(s.warmup, 1);
    QCOMPARE(s.measured, 6);
    QCOMPARE(s.completed, 4);
    // Window now starts at W's send (1 ms) and still ends at 202 ms.
    QCOMPARE(s.durationS, 0.201);
    QCOMPARE(s.ttft.count, 4); // + W's 11 - 1 = 10
    QCOMPARE(s.ttft.min, 10.0);
    QCOMPARE(s.totalInputTokens, 65);
    QCOMPARE(s.firstSchedNs, synthetic::ms(0));
}

void TestSummary::empty()
{
    const RunSummary s = summarize({});
    QCOMPARE(s.totalRecords, 0);
    QCOMPARE(s.completed, 0);
    QCOMPARE(s.durationS, 0.0);
    QCOMPARE(s.requestThroughput, 0.0);
    QCOMPARE(s.ttft.count, 0);
    QCOMPARE(s.ttft.percentile(99), 0.0);
    QCOMPARE(s.inputSources.name(), u"none"_s);
}

void TestSummary::allFailed()
{
    QList<RequestRecord> recs = synthetic::records();
    for (RequestRecord &r : recs)
        if (!r.warmup)
            r.error = ErrorClass::Reset;
    const RunSummary s = summarize(recs);
    QCOMPARE(s.completed, 0);
    QCOMPARE(s.failed, 5);
    QCOMPARE(s.failedByClass.value(u"reset"_s), 5);
    QCOMPARE(s.durationS, 0.1); // the window still covers the failed run
    QCOMPARE(s.requestThroughput, 0.0);
    QCOMPARE(s.itl.count, 0);
    QCOMPARE(s.scheduleLag.count, 5); // client lateness is still measured
    QCOMPARE(s.peakConcurrentRequests, 0);
}

void TestSummary::forProfile()
{
    LoadProfile p;
    p.metricPercentiles = {99, 99.99, 25};
    p.goodput.ttftMs = 200;
    const SummaryOptions o = SummaryOptions::forProfile(p);
    QCOMPARE(o.percentiles, (QList<double>{25, 50, 90, 95, 99, 99.9, 99.99}));
    QCOMPARE(o.goodput.ttftMs, 200.0);
    QVERIFY(!o.includeWarmup);
}

void TestSummary::noMultiTokenSharesItl()
{
    QList<RequestRecord> recs = synthetic::records();
    for (RequestRecord &r : recs)
        for (qint32 &t : r.chunkTokens)
            t = 1;
    const RunSummary s = summarize(recs);
    QVERIFY(!s.multiTokenChunks);
    QCOMPARE(s.itlPerToken.count, s.itl.count);
    QCOMPARE(s.itlPerToken.mean, s.itl.mean);
    QCOMPARE(s.itlPerToken.percentile(99), s.itl.percentile(99));
}

void TestSummary::unknownIsNotZero_data()
{
    // Records missing what a quantity needs: the summary marks exactly those quantities
    // unavailable, with the reason, and nothing else.
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QStringList>("unavailable");
    QTest::addColumn<QString>("reason");
    QTest::newRow("complete") << u"none"_s << QStringList() << QString();
    QTest::newRow("sends at one instant")
        << u"one-instant"_s
        << QStringList{u"achieved_request_rate"_s, u"max_output_tokens_per_s"_s,
                       u"max_concurrent_requests"_s}
        << u"every request has the same send time"_s;
    QTest::newRow("no send times") << u"no-send"_s
                                   << QStringList{u"duration"_s,
                                                  u"request_throughput"_s,
                                                  u"output_throughput"_s,
                                                  u"total_token_throughput"_s,
                                                  u"ttft"_s,
                                                  u"tpot"_s,
                                                  u"e2el"_s,
                                                  u"schedule_lag"_s,
                                                  u"client_queue_time"_s,
                                                  u"achieved_request_rate"_s}
                                   << QString();
    QTest::newRow("no input count")
        << u"no-usage"_s << QStringList{u"total_input_tokens"_s, u"total_token_throughput"_s}
        << u"1 of 3 successful requests have no input token count"_s;
    QTest::newRow("no schedule") << u"no-sched"_s
                                 << QStringList{u"schedule_lag"_s, u"ttft_from_sched"_s,
                                                u"e2el_from_sched"_s}
                                 << u"scheduled time"_s;
    QTest::newRow("no queue time")
        << u"no-queue"_s << QStringList{u"client_queue_time"_s} << u"queued"_s;
    QTest::newRow("all failed") << u"all-failed"_s
                                << QStringList{u"ttft"_s,
                                               u"tpot"_s,
                                               u"itl"_s,
                                               u"e2el"_s,
                                               u"itl_per_token"_s,
                                               u"ttft_from_sched"_s,
                                               u"e2el_from_sched"_s,
                                               u"cached_tokens"_s}
                                << u"no request succeeded"_s;
}

void TestSummary::unknownIsNotZero()
{
    QFETCH(QString, damage);
    QFETCH(QStringList, unavailable);
    QFETCH(QString, reason);
    QList<RequestRecord> recs = synthetic::records();
    for (RequestRecord &r : recs) {
        if (damage == "one-instant"_L1)
            r.tSend = synthetic::ms(100);
        else if (damage == "no-send"_L1)
            r.tSend = 0;
        else if (damage == "no-usage"_L1 && r.index == 3)
            r.expectedInputTokens = -1; // R3 had only the dataset's length
        else if (damage == "no-sched"_L1)
            r.tSched = 0;
        else if (damage == "no-queue"_L1)
            r.tQueued = 0;
        else if (damage == "all-failed"_L1 && !r.warmup)
            r.error = ErrorClass::Reset;
    }
    const RunSummary s = summarize(recs);
    // Quantities every synthetic variant lacks: no goodput SLO is given.
    QVERIFY(!s.isAvailable(u"request_goodput"_s));
    for (const QString &key : unavailable) {
        QVERIFY2(!s.isAvailable(key), qPrintable(key));
        QVERIFY2(s.unavailableReason(key).contains(reason), qPrintable(s.unavailableReason(key)));
    }
    // The synthetic records stream no reasoning, were counted by no tokenizer and predate
    // first-content times: the reasoning quantities and the count comparison are never known.
    const QStringList always = {
        u"request_goodput"_s,      u"cached_tokens"_s,    u"ttfct"_s,
        u"reasoning_time"_s,       u"reasoning_tokens"_s, u"total_reasoning_tokens"_s,
        u"output_token_mismatch"_s};
    for (auto it = s.unavailable.cbegin(); it != s.unavailable.cend(); ++it)
        QVERIFY2(unavailable.contains(it.key()) || always.contains(it.key()),
                 qPrintable(u"%1 unavailable: %2"_s.arg(it.key(), it.value())));
}

QTEST_GUILESS_MAIN(TestSummary)
#include "tst_summary.moc"
