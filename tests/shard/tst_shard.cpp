// Sharding a plan over N agents and merging their records back (app/cli/shard*.cpp): the
// division of the schedule, the plan identity, lossless raw records, the clock measurement
// against an HTTP Date header, and the merge's checks and time axis.
#include "client/endpointprobe.h"
#include "schedprobe.h"
#include "shard/shardclock.h"
#include "shard/shardmerge.h"
#include "shard/shardrecords.h"
#include "shard/shardspec.h"

#include "config/runplan.h"
#include "data/dataset.h"
#include "load/rng.h"
#include "load/schedule.h"
#include "metrics/requestrecord.h"

#include <QDateTime>
#include <QLocale>
#include <QSet>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimeZone>
#include <time.h>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QList<PromptItem> makeItems(int n)
{
    QList<PromptItem> items;
    for (int i = 0; i < n; ++i) {
        PromptItem it;
        it.prompt = u"prompt %1"_s.arg(i);
        it.inputTokens = 10 + i;
        it.outputTokens = 5 + i % 3;
        it.sourceIndex = i;
        items.append(it);
    }
    return items;
}

RunPlan basePlan()
{
    RunPlan p;
    p.sut.baseUrl = u"http://127.0.0.1:9"_s;
    p.sut.model = u"m"_s;
    p.profile.numPrompts = 23;
    p.profile.requestRate = 40;
    p.profile.seed = 1234;
    return p;
}

qint64 wallNow()
{
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// A minimal HTTP server whose Date header runs `offsetNs` ahead of this machine's clock (or
// sends none), to measure against.
class DateServer : public QTcpServer
{
public:
    qint64 offsetNs = 0;
    bool sendDate = true;

protected:
    void incomingConnection(qintptr fd) override
    {
        auto *s = new QTcpSocket(this);
        s->setSocketDescriptor(fd);
        connect(s, &QTcpSocket::readyRead, s, [this, s] {
            if (!s->readAll().contains("\r\n\r\n"))
                return;
            const qint64 serverS = (wallNow() + offsetNs) / 1'000'000'000;
            QByteArray resp = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n";
            if (sendDate)
                resp += "Date: " +
                        QLocale::c()
                            .toString(QDateTime::fromSecsSinceEpoch(serverS, QTimeZone::utc()),
                                      u"ddd, dd MMM yyyy HH:mm:ss"_s)
                            .toLatin1() +
                        " GMT\r\n";
            resp += "Content-Length: 11\r\n\r\n{\"data\":[]}";
            s->write(resp);
        });
        connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
    }
};

RequestRecord makeRecord(qint64 index, qint64 t0, int chunks)
{
    RequestRecord r;
    r.index = index;
    r.datasetItem = qint32(index * 7);
    r.requestId = u"sb-x-%1"_s.arg(index);
    r.tSched = t0;
    r.tQueued = t0 + 10;
    r.tDispatch = t0 + 20;
    r.tSend = t0 + 30;
    for (int c = 0; c < chunks; ++c) {
        r.chunkTimes.append(t0 + 1'000'000 + c * 333'333);
        r.chunkTokens.append(c == 1 ? 3 : 1);
    }
    r.tFirst = r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.first();
    r.tLast = r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.last();
    r.tEnd = t0 + 9'000'000;
    r.inputTokens = 12;
    r.outputTokens = chunks + 2;
    r.inputSource = TokenSource::ServerUsage;
    r.outputSource = TokenSource::ServerUsage;
    r.expectedInputTokens = 12;
    r.expectedOutputTokens = 8;
    r.httpStatus = 200;
    r.finishReason = u"length"_s;
    r.outputChars = 40;
    return r;
}

ShardRun makeShardRun(int index, int count, const QString &hash, qint64 monoOrigin,
                      qint64 wallAtOrigin, const ClockOffset &offset, int records)
{
    ShardRun run;
    run.source = u"shard-%1.json"_s.arg(index);
    run.status = u"completed"_s;
    run.host = u"host-%1"_s.arg(index);
    ClockAnchor anchor{wallAtOrigin, monoOrigin, 50};
    QJsonObject shard{{u"index"_s, index},
                      {u"count"_s, count},
                      {u"mode"_s, u"poisson-split"_s},
                      {u"plan_hash"_s, hash},
                      {u"plan"_s, basePlan().toJson()},
                      {u"host"_s, run.host},
                      {u"clock"_s, anchor.toJson()},
                      {u"clock_offset"_s, offset.toJson()},
                      {u"start_monotonic_ns"_s, QString::number(monoOrigin + 1'000'000)}};
    run.snapshot = basePlan().toJson();
    run.snapshot[u"shard"_s] = shard;
    run.snapshot[u"command"_s] = u"servebench-cli run --shard %1/%2"_s.arg(index).arg(count);
    for (int i = 0; i < records; ++i)
        run.records.append(makeRecord(i, monoOrigin + 1'000'000 + i * 5'000'000, 3));
    return run;
}

} // namespace

class TestShard : public QObject
{
    Q_OBJECT

private slots:
    void parseSpec_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("count");
        QTest::newRow("first of four") << u"0/4"_s << true << 0 << 4;
        QTest::newRow("last of four") << u"3/4"_s << true << 3 << 4;
        QTest::newRow("spaces") << u" 1 / 2 "_s << true << 1 << 2;
        QTest::newRow("one agent") << u"0/1"_s << true << 0 << 1;
        QTest::newRow("index = count") << u"4/4"_s << false << 0 << 0;
        QTest::newRow("zero agents") << u"0/0"_s << false << 0 << 0;
        QTest::newRow("negative") << u"-1/4"_s << false << 0 << 0;
        QTest::newRow("words") << u"a/b"_s << false << 0 << 0;
        QTest::newRow("no slash") << u"3"_s << false << 0 << 0;
    }
    void parseSpec()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(int, index);
        QFETCH(int, count);
        ShardSpec s;
        QString error;
        QCOMPARE(ShardSpec::parse(text, &s, &error), ok);
        if (ok) {
            QCOMPARE(s.index, index);
            QCOMPARE(s.count, count);
        } else {
            QVERIFY2(error.contains("--shard"_L1), qPrintable(error));
        }
    }

    void sharesCoverEveryRequestOnce()
    {
        for (int total : {0, 1, 7, 23, 100})
            for (int n : {1, 2, 3, 8}) {
                int sum = 0;
                for (int i = 0; i < n; ++i)
                    sum += shardShare(total, i, n);
                QCOMPARE(sum, total);
            }
    }

    // Each mode gives agent I the plan's requests I, I+N, …: the union of the agents' prompt
    // lists is the plan's, item for item.
    void assignDividesItemsAndCounts_data()
    {
        QTest::addColumn<QString>("arrival");
        QTest::addColumn<double>("rate");
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<int>("warmup");
        QTest::addColumn<QString>("mode");
        QTest::newRow("poisson") << u"poisson"_s << 40.0 << 0 << 0 << u"poisson-split"_s;
        QTest::newRow("poisson + warmup") << u"poisson"_s << 40.0 << 0 << 5 << u"poisson-split"_s;
        QTest::newRow("constant") << u"constant"_s << 40.0 << 0 << 3 << u"interleave"_s;
        QTest::newRow("gamma") << u"gamma"_s << 40.0 << 0 << 0 << u"interleave"_s;
        QTest::newRow("unlimited") << u"poisson"_s << qInf() << 0 << 0 << u"interleave"_s;
        QTest::newRow("closed loop") << u"poisson"_s << qInf() << 7 << 2 << u"concurrency-split"_s;
    }
    void assignDividesItemsAndCounts()
    {
        QFETCH(QString, arrival);
        QFETCH(double, rate);
        QFETCH(int, concurrency);
        QFETCH(int, warmup);
        QFETCH(QString, mode);
        RunPlan plan = basePlan();
        QVERIFY(arrivalFromName(arrival, &plan.profile.arrival));
        if (arrival == "gamma"_L1)
            plan.profile.burstiness = 0.5;
        plan.profile.requestRate = rate;
        plan.profile.closedLoopConcurrency = concurrency;
        plan.profile.warmupRequests = warmup;
        const QList<PromptItem> items = makeItems(plan.profile.numPrompts);
        const int n = 3;
        const int total = warmup + plan.profile.numPrompts;
        QMap<qint64, qint32> byGlobal; // global index -> dataset item
        int warmups = 0, measured = 0, slotSum = 0;
        for (int i = 0; i < n; ++i) {
            ShardAssignment a;
            QString error;
            QVERIFY2(assignShard({i, n}, plan, items, {}, &a, &error), qPrintable(error));
            QCOMPARE(QString::fromLatin1(shardModeName(a.mode)), mode);
            QCOMPARE(a.items.size(), qsizetype(shardShare(total, i, n)));
            for (int local = 0; local < a.items.size(); ++local) {
                const qint64 global = i + qint64(local) * n;
                QVERIFY(!byGlobal.contains(global));
                byGlobal.insert(global, a.items.at(local).sourceIndex);
            }
            QCOMPARE(a.plan.profile.warmupRequests, a.warmupRequests);
            QCOMPARE(a.plan.profile.numPrompts, a.measuredRequests);
            warmups += a.warmupRequests;
            measured += a.measuredRequests;
            slotSum += a.plan.profile.closedLoopConcurrency;
            if (a.mode == ShardMode::PoissonSplit) {
                QCOMPARE(a.plan.profile.requestRate, rate / n);
                QCOMPARE(a.plan.profile.seed, deriveSeed(plan.profile.seed, kShardStreamBase + i));
                QVERIFY(a.schedule.isEmpty());
            }
        }
        QCOMPARE(warmups, warmup);
        QCOMPARE(measured, plan.profile.numPrompts);
        QCOMPARE(slotSum, concurrency);
        QCOMPARE(byGlobal.size(), total);
        for (auto it = byGlobal.cbegin(); it != byGlobal.cend(); ++it)
            QCOMPARE(it.value(), items.at(int(it.key() % items.size())).sourceIndex);
    }

    // Interleaved agents send exactly the plan's own schedule between them.
    void interleaveReproducesTheScheduleExactly()
    {
        RunPlan plan = basePlan();
        plan.profile.arrival = ArrivalProcess::Gamma;
        plan.profile.burstiness = 0.25;
        plan.profile.warmupRequests = 4;
        const int total = plan.profile.warmupRequests + plan.profile.numPrompts;
        const QList<qint64> global = buildSchedule(plan.profile, total, plan.profile.seed);
        QCOMPARE(global.size(), total);
        QList<qint64> merged(total, -1);
        for (int i = 0; i < 4; ++i) {
            ShardAssignment a;
            QString error;
            QVERIFY2(assignShard({i, 4}, plan, makeItems(23), {}, &a, &error), qPrintable(error));
            QCOMPARE(a.schedule.size(), a.items.size());
            for (int local = 0; local < a.schedule.size(); ++local)
                merged[i + local * 4] = a.schedule.at(local);
        }
        QCOMPARE(merged, global);
    }

    void poissonSeedsAreDisjoint()
    {
        QSet<quint64> seeds;
        RunPlan plan = basePlan();
        for (int i = 0; i < 16; ++i) {
            ShardAssignment a;
            QString error;
            QVERIFY(assignShard({i, 16}, plan, makeItems(23), {}, &a, &error));
            QVERIFY(a.plan.profile.seed != plan.profile.seed);
            seeds.insert(a.plan.profile.seed);
        }
        QCOMPARE(seeds.size(), 16);
    }

    void refusals_data()
    {
        QTest::addColumn<int>("scenarioOrCase");
        QTest::addColumn<QString>("needle");
        QTest::newRow("single-stream") << 0 << u"single-stream"_s;
        QTest::newRow("fewer requests than agents") << 1 << u"fewer than"_s;
        QTest::newRow("concurrency below agents") << 2 << u"--concurrency"_s;
        QTest::newRow("duration with a fixed schedule") << 3 << u"--duration"_s;
        QTest::newRow("max-concurrency below agents") << 4 << u"--max-concurrency"_s;
    }
    void refusals()
    {
        QFETCH(int, scenarioOrCase);
        QFETCH(QString, needle);
        RunPlan plan = basePlan();
        switch (scenarioOrCase) {
        case 0:
            plan.profile.scenario = Scenario::SingleStream;
            break;
        case 1:
            plan.profile.numPrompts = 3;
            break;
        case 2:
            plan.profile.closedLoopConcurrency = 3;
            break;
        case 3:
            plan.profile.arrival = ArrivalProcess::Constant;
            plan.profile.durationS = 5;
            break;
        case 4:
            plan.profile.maxConcurrency = 2;
            break;
        }
        ShardAssignment a;
        QString error;
        QVERIFY(!assignShard({1, 4}, plan, makeItems(23), {}, &a, &error));
        QVERIFY2(error.contains(needle), qPrintable(error));
    }

    void planHashIgnoresTheShardButNotThePlan()
    {
        const RunPlan plan = basePlan();
        const QString h = shardPlanHash(plan, u"abc"_s);
        QCOMPARE(h.size(), 64);
        QCOMPARE(shardPlanHash(basePlan(), u"abc"_s), h);
        ShardAssignment a;
        QString error;
        QVERIFY(assignShard({1, 2}, plan, makeItems(23), {}, &a, &error));
        QVERIFY(shardPlanHash(a.plan, u"abc"_s) != h); // the agent's own plan is not the plan
        RunPlan other = plan;
        other.profile.requestRate = 41;
        QVERIFY(shardPlanHash(other, u"abc"_s) != h);
        QVERIFY(shardPlanHash(plan, u"abd"_s) != h);
    }

    // Monotonic times far beyond 2^53 ns (a host up for months) and a time equal to the base
    // survive the JSON round trip bit for bit.
    void rawRecordsRoundTrip()
    {
        const qint64 base = (qint64(1) << 60) + 12345;
        QList<RequestRecord> records = {makeRecord(0, base, 4), makeRecord(1, base + 777, 0)};
        records[0].tSched = base; // equal to the base: relative 0, must not become "unset"
        records[1].error = ErrorClass::StreamError;
        records[1].errorMessage = u"boom ü"_s;
        records[1].tFirst = records[1].tLast = 0;
        records[1].cachedTokens = 6;
        records[1].warmup = true;
        const QJsonArray json = rawRecordsJson(records, base);
        QList<RequestRecord> back;
        QString error;
        QVERIFY2(rawRecordsFromJson(json, base, &back, &error), qPrintable(error));
        QCOMPARE(back.size(), records.size());
        for (int i = 0; i < records.size(); ++i) {
            const RequestRecord &a = records.at(i);
            const RequestRecord &b = back.at(i);
            QCOMPARE(b.index, a.index);
            QCOMPARE(b.datasetItem, a.datasetItem);
            QCOMPARE(b.warmup, a.warmup);
            QCOMPARE(b.requestId, a.requestId);
            QCOMPARE(b.tSched, a.tSched);
            QCOMPARE(b.tQueued, a.tQueued);
            QCOMPARE(b.tDispatch, a.tDispatch);
            QCOMPARE(b.tSend, a.tSend);
            QCOMPARE(b.tFirst, a.tFirst);
            QCOMPARE(b.tLast, a.tLast);
            QCOMPARE(b.tEnd, a.tEnd);
            QCOMPARE(b.chunkTimes, a.chunkTimes);
            QCOMPARE(b.chunkTokens, a.chunkTokens);
            QCOMPARE(b.inputTokens, a.inputTokens);
            QCOMPARE(b.outputTokens, a.outputTokens);
            QCOMPARE(b.cachedTokens, a.cachedTokens);
            QCOMPARE(b.inputSource, a.inputSource);
            QCOMPARE(b.outputSource, a.outputSource);
            QCOMPARE(b.expectedInputTokens, a.expectedInputTokens);
            QCOMPARE(b.expectedOutputTokens, a.expectedOutputTokens);
            QCOMPARE(b.httpStatus, a.httpStatus);
            QCOMPARE(b.finishReason, a.finishReason);
            QCOMPARE(b.error, a.error);
            QCOMPARE(b.errorMessage, a.errorMessage);
            QCOMPARE(b.outputChars, a.outputChars);
        }
        QCOMPARE(records[1].tFirst, 0);
    }

    void clockAnchorIsConsistent()
    {
        const ClockAnchor a = ClockAnchor::now();
        QVERIFY(a.readSpanNs >= 0);
        QVERIFY(qAbs(a.wallNs - wallNow()) < 5'000'000'000LL);
        ClockAnchor b;
        QVERIFY(ClockAnchor::fromJson(a.toJson(), &b));
        QCOMPARE(b.wallNs, a.wallNs);
        QCOMPARE(b.monoNs, a.monoNs);
        QCOMPARE(a.toMono(a.toWall(a.monoNs + 42)), a.monoNs + 42);
    }

    void parseHttpDate_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("epoch"); // -1: refused
        QTest::newRow("RFC 9110 example")
            << QByteArray("Sun, 06 Nov 1994 08:49:37 GMT") << qint64(784111777);
        QTest::newRow("2026") << QByteArray("Thu, 01 Jan 2026 00:00:00 GMT") << qint64(1767225600);
        QTest::newRow("not GMT") << QByteArray("Sun, 06 Nov 1994 08:49:37 +0100") << qint64(-1);
        QTest::newRow("asctime") << QByteArray("Sun Nov  6 08:49:37 1994") << qint64(-1);
        QTest::newRow("empty") << QByteArray() << qint64(-1);
    }
    void parseHttpDate()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, epoch);
        qint64 got = -1;
        QCOMPARE(sb::parseHttpDate(text, &got), epoch >= 0);
        if (epoch >= 0)
            QCOMPARE(got, epoch);
    }

    // The server's clock is 3.25 s ahead: the agent is 3.25 s behind it. The second-edge method
    // must bound the truth; its interval is a probe gap plus a round trip on this machine.
    void httpDateOffsetCatchesTheSecondEdge()
    {
        DateServer server;
        server.offsetNs = 3'250'000'000;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        SutConfig sut;
        sut.baseUrl = u"http://127.0.0.1:%1"_s.arg(server.serverPort());
        EndpointProbe probe(sut, {}, TransportOptions(), 3000);
        sb::test::SchedProbe sched; // how late this machine wakes a thread meanwhile
        const ClockOffset off = measureHttpDateOffset(probe, u"/v1/models"_s, 3000, 5);
        sched.stop();
        QCOMPARE(off.source, u"http-date"_s);
        QCOMPARE(off.method, u"second-edge"_s);
        QVERIFY(off.probes >= 2);
        // Far tighter than a single Date reading's ±0.5 s: a probe gap plus a round trip, each
        // of which a loaded machine stretches by its wake-up delay (measured, not assumed).
        const qint64 boundNs = 400'000'000 + qint64(4 * sched.maxMs() * 1e6);
        QVERIFY2(off.uncertaintyNs < boundNs,
                 qPrintable(u"uncertainty %1 ns, bound %2 ns (longest wake-up delay measured "
                            "%3 ms)"_s.arg(off.uncertaintyNs)
                                .arg(boundNs)
                                .arg(sched.maxMs())));
        const qint64 err = off.offsetNs - -server.offsetNs;
        QVERIFY2(qAbs(err) <= off.uncertaintyNs + 1'000'000,
                 qPrintable(u"error %1 ns, uncertainty %2 ns"_s.arg(err).arg(off.uncertaintyNs)));
    }

    void httpDateOffsetWithoutDateSaysSo()
    {
        DateServer server;
        server.sendDate = false;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        SutConfig sut;
        sut.baseUrl = u"http://127.0.0.1:%1"_s.arg(server.serverPort());
        EndpointProbe probe(sut, {}, TransportOptions(), 2000);
        const ClockOffset off = measureHttpDateOffset(probe, u"/v1/models"_s, 2000);
        QCOMPARE(off.source, u"none"_s);
        QVERIFY(!off.measured());
        QVERIFY2(off.note.contains("Date"_L1), qPrintable(off.note));
    }

    // Agents whose monotonic clocks have unrelated origins land on one UTC axis; offsets are
    // applied when every agent measured one.
    void mergePutsAgentsOnOneAxis_data()
    {
        QTest::addColumn<bool>("measured");
        QTest::newRow("offsets measured") << true;
        QTest::newRow("no reference") << false;
    }
    void mergePutsAgentsOnOneAxis()
    {
        QFETCH(bool, measured);
        const qint64 wall0 = 1'800'000'000'000'000'000LL;
        ClockOffset o0, o1;
        if (measured) {
            o0.source = o1.source = u"http-date"_s;
            o0.reference = o1.reference = u"http://sut:8000/v1/models"_s;
            o0.offsetNs = 2'000'000;  // agent 0 is 2 ms ahead
            o1.offsetNs = -3'000'000; // agent 1 is 3 ms behind
            o0.uncertaintyNs = o1.uncertaintyNs = 100'000;
        }
        // Agent 1 booted long after agent 0 (small monotonic origin), wall clocks 1 ms apart.
        QList<ShardRun> runs = {
            makeShardRun(1, 2, u"h"_s, 5'000'000'000LL, wall0 + 1'000'000, o1, 3),
            makeShardRun(0, 2, u"h"_s, 9'000'000'000'000LL, wall0, o0, 4),
        };
        MergedRun m;
        QString error;
        QVERIFY2(mergeShardRuns(runs, &m, &error), qPrintable(error));
        QCOMPARE(m.records.size(), 7);
        QCOMPARE(m.offsetsApplied, measured);
        for (int k = 0; k < m.records.size(); ++k)
            QCOMPARE(m.records.at(k).index, qint64(k)); // 0,2,4,6 from agent 0; 1,3,5 from 1
        const qint64 c0 = measured ? o0.offsetNs : 0;
        const qint64 c1 = measured ? o1.offsetNs : 0;
        // Agent 0's local record 1 is global 2; agent 1's local record 1 is global 3.
        QCOMPARE(m.records.at(2).tSend, wall0 + 1'000'000 + 5'000'000 + 30 - c0);
        QCOMPARE(m.records.at(3).tSend, wall0 + 1'000'000 + 1'000'000 + 5'000'000 + 30 - c1);
        QCOMPARE(m.records.at(3).chunkTimes.first(),
                 wall0 + 1'000'000 + 1'000'000 + 5'000'000 + 1'000'000 - c1);
        // TTFT does not depend on the axis.
        QCOMPARE(m.records.at(3).tFirst - m.records.at(3).tSend,
                 runs.at(0).records.at(1).tFirst - runs.at(0).records.at(1).tSend);
        const qint64 start0 = wall0 + 1'000'000 - c0;
        const qint64 start1 = wall0 + 2'000'000 - c1;
        QCOMPARE(m.startNs, std::min(start0, start1));
        QCOMPARE(m.startSkewNs, qAbs(start1 - start0));
        QCOMPARE(m.hosts, QStringList({u"host-0"_s, u"host-1"_s}));
        QCOMPARE(m.status, u"completed"_s);
        const QJsonObject merge = m.snapshot.value(u"merge"_s).toObject();
        QCOMPARE(merge.value(u"agents"_s).toInt(), 2);
        QCOMPARE(merge.value(u"shards"_s).toArray().size(), 2);
        QCOMPARE(RunPlan::fromJson(m.snapshot).profile.requestRate, 40.0);
    }

    void mergeRefuses_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("needle");
        QTest::newRow("another plan") << 0 << u"another plan"_s;
        QTest::newRow("missing shard") << 1 << u"shard 2 of 3 is missing"_s;
        QTest::newRow("duplicate shard") << 2 << u"appears twice"_s;
        QTest::newRow("different agent count") << 3 << u"agents"_s;
        QTest::newRow("two missing") << 4 << u"shards 1, 2 of 3 are missing"_s;
    }
    void mergeRefuses()
    {
        QFETCH(int, which);
        QFETCH(QString, needle);
        const ClockOffset none;
        QList<ShardRun> runs = {makeShardRun(0, 3, u"h"_s, 1000, 2'000'000'000, none, 2),
                                makeShardRun(1, 3, u"h"_s, 1000, 2'000'000'000, none, 2),
                                makeShardRun(2, 3, u"h"_s, 1000, 2'000'000'000, none, 2)};
        switch (which) {
        case 0:
            runs[2] = makeShardRun(2, 3, u"other"_s, 1000, 2'000'000'000, none, 2);
            break;
        case 1:
            runs.removeLast();
            break;
        case 2:
            runs[2] = makeShardRun(1, 3, u"h"_s, 1000, 2'000'000'000, none, 2);
            break;
        case 3:
            runs[2] = makeShardRun(2, 4, u"h"_s, 1000, 2'000'000'000, none, 2);
            break;
        case 4:
            runs.removeLast();
            runs.removeLast();
            break;
        }
        MergedRun m;
        QString error;
        QVERIFY(!mergeShardRuns(runs, &m, &error));
        QVERIFY2(error.contains(needle), qPrintable(error));
    }

    void mergedStatusIsTheWorstAgents()
    {
        const ClockOffset none;
        QList<ShardRun> runs = {makeShardRun(0, 2, u"h"_s, 1000, 2'000'000'000, none, 2),
                                makeShardRun(1, 2, u"h"_s, 1000, 2'000'000'000, none, 2)};
        runs[1].status = u"interrupted"_s;
        MergedRun m;
        QString error;
        QVERIFY2(mergeShardRuns(runs, &m, &error), qPrintable(error));
        QCOMPARE(m.status, u"interrupted"_s);
    }
};

QTEST_GUILESS_MAIN(TestShard)
#include "tst_shard.moc"
