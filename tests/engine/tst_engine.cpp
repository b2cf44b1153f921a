// The real engine (run controller + transport + protocol layer) against the built-in simulator
// over real loopback sockets.
#include "../common/schedprobe.h"
#include "enginetestutil.h"

#include "common/clock.h"
#include "sim/simulator.h"

#include <QHash>

#include <algorithm>
#include <numeric>

Q_DECLARE_METATYPE(sb::TransportKind)

using namespace Qt::StringLiterals;
using namespace sb;

class TestEngine : public QObject
{
    Q_OBJECT

    std::unique_ptr<Simulator> startSim(const SimConfig &cfg)
    {
        auto sim = std::make_unique<Simulator>(cfg);
        if (!sim->start())
            qFatal("simulator did not start");
        return sim;
    }
    static QString url(const Simulator &sim) { return u"http://127.0.0.1:%1"_s.arg(sim.port()); }

    // Every protocol and fault test runs once per transport: both must give the same records.
    static void addTransportColumn() { QTest::addColumn<TransportKind>("transport"); }
    static void addTransportRows()
    {
        addTransportColumn();
        for (TransportKind k : {TransportKind::Qnam, TransportKind::Socket})
            QTest::newRow(transportKindName(k)) << k;
    }

private slots:
    void concurrencyIsReached_data()
    {
        addTransportColumn();
        QTest::addColumn<int>("concurrency");
        for (TransportKind k : {TransportKind::Qnam, TransportKind::Socket}) {
            const char *t = transportKindName(k);
            QTest::addRow("%s-1", t) << k << 1;
            QTest::addRow("%s-6", t) << k << 6; // exactly one manager's worth
            QTest::addRow("%s-7", t) << k << 7; // one more than one manager opens per host
            QTest::addRow("%s-64", t) << k << 64;
        }
    }
    void concurrencyIsReached()
    {
        QFETCH(TransportKind, transport);
        QFETCH(int, concurrency);
        SimConfig cfg;
        cfg.ttftMs = 300; // long enough that every stream of a wave is open at once
        cfg.itlMs = 5;
        auto sim = startSim(cfg);
        RunController c;
        c.setTransportKind(transport);
        c.configure(test::makePlan(url(*sim), concurrency, concurrency),
                    test::makeItems(concurrency, 4), {});
        QVERIFY(test::runToEnd(c, 60000));
        QCOMPARE(c.status(), RunStatus::Completed);
        QCOMPARE(c.records().size(), concurrency);
        for (const auto &r : c.records())
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
        const SimCounters k = sim->counters();
        QCOMPARE(k.maxActiveStreams, concurrency);
        QCOMPARE(k.maxOpenConnections, concurrency);
        QCOMPARE(c.transportName(), QString::fromLatin1(transportKindName(transport)));
    }

    void capIsNeverExceeded_data() { addTransportRows(); }
    void capIsNeverExceeded()
    {
        QFETCH(TransportKind, transport);
        SimConfig cfg;
        cfg.ttftMs = 20;
        cfg.itlMs = 2;
        auto sim = startSim(cfg);
        RunController c;
        c.setTransportKind(transport);
        c.configure(test::makePlan(url(*sim), 90, 9), test::makeItems(30, 5), {});
        QVERIFY(test::runToEnd(c, 60000));
        QCOMPARE(c.records().size(), 90);
        QCOMPARE(sim->counters().maxActiveStreams, 9);
        if (transport == TransportKind::Socket) {
            // Keep-alive: a connection freed by one request carries the next, so 90 requests
            // at a cap of 9 open exactly 9 connections.
            QCOMPARE(sim->counters().totalConnections, quint64(9));
            QCOMPARE(sim->counters().maxOpenConnections, 9);
        }
        // Items are cycled in order when the run needs more prompts than the dataset has.
        QCOMPARE(c.records().at(31).datasetItem, 1);
    }

    void faultsAreClassified_data() { addTransportRows(); }
    void faultsAreClassified()
    {
        QFETCH(TransportKind, transport);
        SimConfig cfg;
        cfg.ttftMs = 5;
        cfg.itlMs = 1;
        cfg.seed = 7;
        for (SimFault f : allSimFaults())
            cfg.setFaultRate(f, 0.1);
        auto sim = startSim(cfg);
        RunPlan plan = test::makePlan(url(*sim), 140, 16);
        plan.profile.timeoutS = 1.5; // a stalled stream must end as a timeout
        RunController c;
        c.setTransportKind(transport);
        c.configure(plan, test::makeItems(10, 8), {});
        QVERIFY(test::runToEnd(c, 120000));
        QCOMPARE(c.records().size(), 140);

        QHash<QString, SimFault> injected;
        for (const auto &e : sim->requestLog())
            injected.insert(e.requestId, e.fault);
        const QHash<SimFault, ErrorClass> expected = {
            {SimFault::None, ErrorClass::None},
            {SimFault::Http429, ErrorClass::Http429},
            {SimFault::Http500, ErrorClass::Http5xx},
            {SimFault::ResetMidStream, ErrorClass::Reset},
            {SimFault::MalformedJson, ErrorClass::InvalidJson},
            {SimFault::ErrorEvent, ErrorClass::StreamError},
            {SimFault::Stall, ErrorClass::Timeout},
        };
        QHash<SimFault, int> seen;
        int ok = 0, failed = 0, lost = 0;
        for (const auto &r : c.records()) {
            if (transport == TransportKind::Qnam && !injected.contains(r.requestId) &&
                r.error == ErrorClass::Reset) {
                // Known limit of the manager pool: when the simulator closes a keep-alive
                // connection right after a faulted response, Qt may already have sent the
                // next POST on it and reports the close instead of resending. The socket
                // transport resends such a request once on a fresh connection. Such a request
                // got no response at all: no status, no chunk.
                QCOMPARE(r.httpStatus, 0);
                QVERIFY(r.chunkTimes.isEmpty());
                ++lost;
                ++failed;
                continue;
            }
            QVERIFY2(
                injected.contains(r.requestId),
                qPrintable(u"%1 never reached the simulator: %2 (%3)"_s.arg(
                    r.requestId, QString::fromLatin1(errorClassName(r.error)), r.errorMessage)));
            const SimFault f = injected.value(r.requestId);
            ++seen[f];
            QVERIFY2(r.error == expected.value(f),
                     qPrintable(u"%1: fault %2 gave %3 (%4)"_s.arg(
                         r.requestId, QString::fromLatin1(simFaultName(f)),
                         QString::fromLatin1(errorClassName(r.error)), r.errorMessage)));
            if (f == SimFault::ErrorEvent || f == SimFault::ResetMidStream ||
                f == SimFault::MalformedJson || f == SimFault::Stall)
                QVERIFY2(!r.chunkTimes.isEmpty(), "mid-stream faults come after some tokens");
            r.ok() ? ++ok : ++failed;
        }
        QCOMPARE(ok + failed, 140);
        if (lost)
            qInfo("%d request(s) lost to a keep-alive close race (qnam)", lost);
        // Rare (0 in 18 runs of this test on a loaded 2-core machine): one is tolerated, as
        // docs/performance.md says; more means the pool lost requests for another reason.
        QVERIFY2(lost <= 1, qPrintable(QString::number(lost)));
        for (SimFault f : allSimFaults())
            QVERIFY2(seen.value(f) > 0, simFaultName(f)); // the seed injects every kind
        QVERIFY(ok > 0);
    }

    void timingAgreesWithTheServersWriteLog_data() { addTransportRows(); }
    // Every chunk against the simulator's write of it (one clock). A chunk stamped with a later
    // read's time (a slipped first token, a held-back chunk) is late by one whole ITL whatever
    // the ITL, a machine that runs the client late by its own delay: no chunk may be half an
    // ITL late, and if some are, the run is repeated with the ITL doubled (10, 20, 40, 80 ms);
    // a stamping bug fails every attempt. The error's mean and p99 (docs/performance.md's
    // figures) are printed here and measured by bench_timing_error, not asserted.
    void timingAgreesWithTheServersWriteLog()
    {
        QFETCH(TransportKind, transport);
        QStringList attempts;
        bool onTime = false;
        for (const int itlMs : {10, 20, 40, 80}) {
            const double lateMs = itlMs / 2.0;
            SimConfig cfg;
            cfg.ttftMs = 50;
            cfg.itlMs = itlMs;
            auto sim = startSim(cfg);
            RunController c;
            c.setTransportKind(transport);
            c.configure(test::makePlan(url(*sim), 30, 10), test::makeItems(30, 20), {});
            test::SchedProbe probe;
            QVERIFY(test::runToEnd(c, 120000));
            probe.stop();
            QHash<QString, SimLogEntry> log;
            for (const auto &e : sim->requestLog())
                log.insert(e.requestId, e);
            QList<double> firstErrors, chunkErrors;
            int late = 0;
            for (const auto &r : c.records()) {
                QVERIFY(r.ok());
                const SimLogEntry e = log.value(r.requestId);
                QCOMPARE(r.chunkTimes.size(), e.chunkWriteNs.size());
                QCOMPARE(r.outputTokens, 20);
                QCOMPARE(r.outputSource, TokenSource::ServerUsage);
                // Same clock on both sides: a chunk can only be received after it was written.
                for (int k = 0; k < r.chunkTimes.size(); ++k) {
                    const qint64 err = r.chunkTimes[k] - e.chunkWriteNs[k];
                    QVERIFY2(err >= 0, "received before it was written: clocks differ");
                    chunkErrors.append(nsToMs(err));
                    late += chunkErrors.back() >= lateMs ? 1 : 0;
                }
                QCOMPARE(r.tFirst, r.chunkTimes.first());
                firstErrors.append(nsToMs(r.tFirst - e.tFirstWrite));
                QVERIFY(r.tSend <= e.tAccept);
            }
            const auto meanOf = [](const QList<double> &v) {
                return std::accumulate(v.cbegin(), v.cend(), 0.0) / double(v.size());
            };
            const auto p99Of = [](QList<double> v) {
                std::sort(v.begin(), v.end());
                return v.at(qsizetype(0.99 * double(v.size() - 1)));
            };
            const double maxChunk = *std::max_element(chunkErrors.cbegin(), chunkErrors.cend());
            qInfo("ITL %d ms, receive error, first token: mean %.3f ms, p99 %.3f ms; every "
                  "chunk: mean %.3f ms, p99 %.3f ms, max %.3f ms; scheduling delay p99 %.3f max "
                  "%.3f ms",
                  itlMs, meanOf(firstErrors), p99Of(firstErrors), meanOf(chunkErrors),
                  p99Of(chunkErrors), maxChunk, probe.percentileMs(99), probe.maxMs());
            attempts << u"ITL %1 ms: %2 of %3 chunks %4 ms late or more (max %5 ms); "
                        u"scheduling delay measured: p99 %6 ms, max %7 ms"_s.arg(itlMs)
                            .arg(late)
                            .arg(chunkErrors.size())
                            .arg(lateMs)
                            .arg(maxChunk, 0, 'f', 1)
                            .arg(probe.percentileMs(99), 0, 'f', 1)
                            .arg(probe.maxMs(), 0, 'f', 1);
            if (late == 0) {
                onTime = true;
                break;
            }
        }
        QVERIFY2(onTime, qPrintable(u"chunks stamped half an ITL late or more at every ITL "
                                    u"tried: "_s +
                                    attempts.join(u"; "_s)));
    }

    void cancellationEndsEveryStream_data() { addTransportRows(); }
    void cancellationEndsEveryStream()
    {
        QFETCH(TransportKind, transport);
        SimConfig cfg;
        cfg.ttftMs = 10;
        cfg.itlMs = 50;
        auto sim = startSim(cfg);
        RunController c;
        c.setTransportKind(transport);
        c.configure(test::makePlan(url(*sim), 40, 20), test::makeItems(40, 200), {});
        QSignalSpy spy(&c, &RunController::finished);
        QString error;
        QVERIFY(c.start(&error));
        QTRY_COMPARE_WITH_TIMEOUT(sim->counters().activeStreams, 20, 10000);
        const qint64 t0 = monotonicNs();
        c.stop();
        QVERIFY(spy.wait(10000));
        qInfo("stop took %.1f ms", nsToMs(monotonicNs() - t0));
        QCOMPARE(c.status(), RunStatus::Interrupted);
        QCOMPARE(c.records().size(), 20);
        for (const auto &r : c.records())
            QCOMPARE(r.error, ErrorClass::Cancelled);
        QTRY_COMPARE_WITH_TIMEOUT(sim->counters().openConnections, 0, 10000);
    }

    void warmupRequestsAreMarked_data() { addTransportRows(); }
    void warmupRequestsAreMarked()
    {
        QFETCH(TransportKind, transport);
        SimConfig cfg;
        cfg.ttftMs = 1;
        cfg.itlMs = 1;
        auto sim = startSim(cfg);
        RunPlan plan = test::makePlan(url(*sim), 10, 4);
        plan.profile.warmupRequests = 3;
        RunController c;
        c.setTransportKind(transport);
        c.configure(plan, test::makeItems(5, 3), {});
        QVERIFY(test::runToEnd(c, 30000));
        QCOMPARE(c.records().size(), 13);
        for (const auto &r : c.records())
            QCOMPARE(r.warmup, r.index < 3);
    }

    void unreachableServerFailsAsConnect_data() { addTransportRows(); }
    void unreachableServerFailsAsConnect()
    {
        QFETCH(TransportKind, transport);
        RunController c;
        c.setTransportKind(transport);
        c.configure(test::makePlan(u"http://127.0.0.1:1"_s, 3, 3), test::makeItems(3, 3), {});
        QVERIFY(test::runToEnd(c, 30000));
        QCOMPARE(c.records().size(), 3);
        for (const auto &r : c.records())
            QCOMPARE(r.error, ErrorClass::Connect);
    }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
