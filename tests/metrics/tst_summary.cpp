#include "exactstats.h"
#include "metrics/prng.h"
#include "metrics/statsparts.h"
#include "metrics/errorrate.h"
#include "metrics/summary.h"
#include "syntheticrun.h"

#include <QTest>

#include <cmath>

using namespace sb;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(sb::PercentileMethod)

namespace {

// Where a gap run's multi-token chunks are.
enum class Multi { None, FromStart, PartWay, LastRequest };

// A run whose measured successful requests have exactly `gaps` inter-token gaps (-1: a run with
// no records at all), among warm-up, failed and never-sent records that carry chunks too
// (multi-token ones: they must neither count nor switch ITL per token on unless measured).
// Gaps of 5..15 ms with ties (every fifth one 12.5 ms) and a few negative ones (chunk times out
// of order, as an import may have them); token lists that are shorter than the chunk list or
// hold zeros (both count one token).
QList<RequestRecord> gapRun(int gaps, Multi multi, quint64 seed)
{
    QList<RequestRecord> out;
    if (gaps < 0)
        return out;
    Prng rng(seed);
    std::vector<int> perRequest; // gaps of each measured successful request
    for (int left = gaps; left > 0;) {
        const int g = std::min(left, int(rng.below(40)));
        perRequest.push_back(g);
        left -= g;
    }
    perRequest.push_back(0); // and one single-chunk request
    size_t lastWithGaps = 0;
    for (size_t i = 0; i < perRequest.size(); ++i)
        if (perRequest[i] > 0)
            lastWithGaps = i;

    qint64 t = 1'000'000'000'000;
    qint64 gapIndex = 0;
    int index = 0;
    const auto request = [&](int chunks, bool multiTokens) {
        RequestRecord r;
        r.index = index++;
        r.tSched = t;
        r.tSend = t + 100'000;
        r.inputTokens = 100;
        r.inputSource = TokenSource::ServerUsage;
        qint64 c = r.tSend + 40'000'000 + qint64(rng.below(10'000'000));
        for (int k = 0; k < chunks; ++k) {
            if (k > 0) {
                ++gapIndex;
                c += gapIndex % 97 == 0  ? -1'000'000
                     : gapIndex % 5 == 0 ? 12'500'000
                                         : 5'000'000 + qint64(rng.below(10'000'000));
            }
            r.chunkTimes.append(c);
            r.chunkTokens.append(multiTokens && k % 3 == 1 ? 3 : (k % 11 == 4 ? 0 : 1));
        }
        if (r.index % 4 == 2 && r.chunkTokens.size() > 3)
            r.chunkTokens.removeLast(); // the last chunk counts one token
        r.tFirst = r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constFirst();
        r.tLast = r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constLast();
        r.tEnd = r.tLast + 100'000;
        r.outputTokens = chunks;
        r.outputSource = TokenSource::ServerUsage;
        t += 3'000'000 + qint64(rng.below(2'000'000));
        return r;
    };
    for (size_t i = 0; i < perRequest.size(); ++i) {
        if (i % 5 == 0) { // a warm-up request
            RequestRecord w = request(3 + int(rng.below(30)), true);
            w.warmup = true;
            out.append(w);
        }
        if (i % 7 == 3) { // one that failed mid-stream, and one never sent
            RequestRecord f = request(1 + int(rng.below(30)), true);
            f.error = ErrorClass::StreamError;
            out.append(f);
            RequestRecord u = request(0, false);
            u.tSend = 0;
            u.error = ErrorClass::Connect;
            out.append(u);
        }
        const bool m = multi == Multi::FromStart ||
                       (multi == Multi::PartWay && i >= perRequest.size() / 2) ||
                       (multi == Multi::LastRequest && i == lastWithGaps);
        out.append(request(perRequest[i] + 1, m));
    }
    return out;
}

// The builder's passes as loadStoredRunForReport() makes them, pooled or with streamGaps().
RunSummary buildSummary(const QList<RequestRecord> &records, const SummaryOptions &opts,
                        bool streamed, bool *gapPass)
{
    SummaryBuilder b(opts);
    for (const RequestRecord &r : records)
        b.scan(r, r.chunkTimes.size());
    if (streamed)
        b.streamGaps();
    for (const RequestRecord &r : records)
        b.add(r);
    *gapPass = b.needsGapPass();
    if (*gapPass)
        for (const RequestRecord &r : records)
            b.addGaps(r);
    return b.finish();
}

} // namespace

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
    void cancelledByLoadIsItsOwnClass();
    void forProfile();
    void noMultiTokenSharesItl();
    void unknownIsNotZero_data();
    void unknownIsNotZero();
    void streamedGapsEqualPooled_data();
    void streamedGapsEqualPooled();
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

// A request the cancellation load closed (docs/metrics.md, "Cancelled by the load") is counted
// in a class of its own: not failed, not completed, in no latency statistic, token total or
// throughput numerator; its send and end are part of the window like any sent request's.
void TestSummary::cancelledByLoadIsItsOwnClass()
{
    QList<RequestRecord> recs = synthetic::records();
    // R6: sent at 150, two token chunks (160, 170), closed by the client at 205 (after R5's 202).
    RequestRecord c = synthetic::rec(6, 148, 148, 150, {{160, 1}, {170, 1}}, 205);
    c.error = ErrorClass::CancelledByLoad;
    c.errorMessage = u"cancelled by the load after 2 token chunks"_s;
    c.outputTokens = 2;
    c.outputSource = TokenSource::ChunkCount;
    c.inputTokens = 40;
    c.inputSource = TokenSource::Dataset;
    recs.append(c);
    // And one chosen but closed before any token arrived (a delay shorter than the TTFT).
    RequestRecord early = synthetic::rec(7, 149, 149, 151, {}, 171);
    early.error = ErrorClass::CancelledByLoad;
    recs.append(early);

    const RunSummary base = summarize(synthetic::records());
    const RunSummary s = summarize(recs);
    QCOMPARE(s.measured, 7);
    QCOMPARE(s.sent, 7);
    QCOMPARE(s.completed, 3);
    QCOMPARE(s.failed, 2);
    QVERIFY(!s.failedByClass.contains(u"cancelled_by_load"_s));
    QCOMPARE(s.cancelledByLoad, 2);
    QCOMPARE(s.cancelledWithFirstToken, 1);
    QCOMPARE(s.cancelledChunks, 2);
    // Latency statistics are the completed requests' only: those of the run without them.
    for (const char *key : {"ttft", "tpot", "itl", "e2el", "itl_per_token", "ttft_from_sched",
                            "e2el_from_sched"}) {
        const QString k = QString::fromLatin1(key);
        QCOMPARE(s.stats(k)->count, base.stats(k)->count);
        QCOMPARE(s.stats(k)->mean, base.stats(k)->mean);
        QCOMPARE(s.stats(k)->percentile(99), base.stats(k)->percentile(99));
    }
    QCOMPARE(s.totalInputTokens, 60);
    QCOMPARE(s.totalOutputTokens, 11);
    QCOMPARE(s.peakOutputTokensPerS, 11.0);
    QCOMPARE(s.peakConcurrentRequests, 3);
    // The window runs to the cancelled request's end (205): 103 ms; throughput counts the
    // three completed requests and their tokens over it.
    QCOMPARE(s.windowEndNs, synthetic::ms(205));
    QCOMPARE(s.durationS, 0.103);
    QCOMPARE(s.requestThroughput, 3 / 0.103);
    QCOMPARE(s.outputThroughput, 11 / 0.103);
    // Schedule lag is the client's lateness: every sent request's, these included.
    QCOMPARE(s.scheduleLag.count, base.scheduleLag.count + 2);
    // Goodput counts completed requests within the SLOs only.
    SummaryOptions slo;
    slo.goodput.ttftMs = 1000;
    QCOMPARE(summarize(recs, slo).goodRequests, summarize(synthetic::records(), slo).goodRequests);
    // The error-rate stop (--max-error-rate) does not take them for failures either.
    ErrorRateStopper stopper(0.5, 2);
    QVERIFY(!stopper.add(c));
    QVERIFY(!stopper.add(early));
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

void TestSummary::streamedGapsEqualPooled_data()
{
    QTest::addColumn<int>("gaps"); // of the measured successful requests; -1: no records
    QTest::addColumn<int>("multi");
    QTest::addColumn<bool>("includeWarmup");
    QTest::addColumn<PercentileMethod>("method");
    const int t = int(statsparts::kRadixThreshold); // from here on the gaps are not kept
    const auto add = [](const char *name, int gaps, Multi multi, bool warmup) {
        for (PercentileMethod m : {PercentileMethod::Linear, PercentileMethod::LoadGen})
            QTest::addRow("%s, %s", name, percentileMethodName(m))
                << gaps << int(multi) << warmup << m;
    };
    add("no records", -1, Multi::None, false);
    add("no gaps", 0, Multi::None, false);
    add("no gaps, warm-up included", 0, Multi::None, true);
    add("one gap", 1, Multi::None, false);
    add("one gap, multi-token", 1, Multi::FromStart, false);
    add("small n%4=0", 400, Multi::PartWay, false);
    add("small n%4=1", 401, Multi::PartWay, false);
    add("small n%4=2", 402, Multi::None, false);
    add("small n%4=3", 403, Multi::FromStart, false);
    add("threshold - 1", t - 1, Multi::PartWay, false);
    add("threshold", t, Multi::PartWay, false);
    add("threshold + 1", t + 1, Multi::None, false);
    add("large n%4=0, multi part-way", 20000, Multi::PartWay, false);
    add("large n%4=1, multi part-way", 20001, Multi::PartWay, false);
    add("large n%4=2, multi part-way", 20002, Multi::PartWay, false);
    add("large n%4=3, multi part-way", 20003, Multi::PartWay, false);
    add("large n%4=1, one-token chunks", 20005, Multi::None, false);
    add("large n%4=2, multi from the start", 20006, Multi::FromStart, false);
    add("large n%4=3, multi in the last request", 20007, Multi::LastRequest, false);
    add("large, warm-up included", 20000, Multi::None, true);
    add("larger n%4=1, multi part-way", 250001, Multi::PartWay, false);
}

// streamGaps() and its extra pass give the pooled summary's ITL statistics to the bit.
void TestSummary::streamedGapsEqualPooled()
{
    QFETCH(int, gaps);
    QFETCH(int, multi);
    QFETCH(bool, includeWarmup);
    QFETCH(PercentileMethod, method);
    const QList<RequestRecord> records = gapRun(gaps, Multi(multi), quint64(gaps + 2) * 31 + 7);
    SummaryOptions opts;
    opts.includeWarmup = includeWarmup;
    opts.method = method;

    bool pooledPass = true;
    const RunSummary pooled = buildSummary(records, opts, false, &pooledPass);
    QVERIFY(!pooledPass);
    bool gapPass = false;
    const RunSummary streamed = buildSummary(records, opts, true, &gapPass);

    // The generator made what the row says, so the row tests what it names.
    if (!includeWarmup)
        QCOMPARE(pooled.itl.count, qint64(std::max(gaps, 0)));
    QCOMPARE(pooled.multiTokenChunks, includeWarmup || (gaps > 0 && Multi(multi) != Multi::None));
    // The gaps are kept (and the extra pass skipped) below the radix threshold only.
    QCOMPARE(gapPass, pooled.itl.count >= qint64(statsparts::kRadixThreshold));

    QCOMPARE(streamed.multiTokenChunks, pooled.multiTokenChunks);
    QString diff = testing::exactStatsDifference(streamed.itl, pooled.itl);
    QVERIFY2(diff.isEmpty(), qPrintable(u"itl "_s + diff));
    diff = testing::exactStatsDifference(streamed.itlPerToken, pooled.itlPerToken);
    QVERIFY2(diff.isEmpty(), qPrintable(u"itl per token "_s + diff));
    // The rest of the summary does not depend on the mode.
    for (const char *key : {"ttft", "tpot", "e2el", "schedule_lag"}) {
        diff = testing::exactStatsDifference(*streamed.stats(QString::fromLatin1(key)),
                                             *pooled.stats(QString::fromLatin1(key)));
        QVERIFY2(diff.isEmpty(), qPrintable(QString::fromLatin1(key) + u' ' + diff));
    }
    QCOMPARE(streamed.unavailable, pooled.unavailable);
    QCOMPARE(streamed.peakOutputTokensPerS, pooled.peakOutputTokensPerS);
    // ITL per token really differs from ITL where multi-token chunks were measured.
    if (pooled.multiTokenChunks && pooled.itl.count > 0)
        QVERIFY(pooled.itlPerToken.mean < pooled.itl.mean);
}

QTEST_GUILESS_MAIN(TestSummary)
#include "tst_summary.moc"
