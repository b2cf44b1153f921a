// The client against an independent server (tests/servers/pacedserver: one-thread epoll, plain
// POSIX, none of the project's code), which logs for every request the kernel arrival time of
// the request and the CLOCK_MONOTONIC time right before each chunk's write(). The client's
// stored records are paired with that log by request id: the send-side, receive-side (every
// chunk) and TTFT errors are measured, not assumed; the connection modes are checked against
// the connections the server accepted.
#include "enginetestutil.h"

#include "../servers/pacedserverclient.h"
#include "client/sockettransport.h"
#include "common/clock.h"
#include "data/dataset.h"
#include "run/runrecorder.h"
#include "store/projectstore.h"

#include <QSet>
#include <QTemporaryDir>

Q_DECLARE_METATYPE(sb::TransportKind)
Q_DECLARE_METATYPE(sb::ConnectionMode)

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QString program()
{
    return QStringLiteral(SB_PACED_SERVER);
}

// Runs the plan through the controller with a recorder, and returns the records as stored.
QList<RequestRecord> runAndStore(RunController &c, const RunPlan &plan,
                                 const QList<PromptItem> &items, const QString &project)
{
    c.configure(plan, items, {});
    RunRecorder recorder;
    QString error;
    if (!recorder.open(project, &error)) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    const qint64 startAt = monotonicNs() + 50'000'000;
    c.setStartAt(startAt);
    if (!recorder.beginRun(plan, plan.toJson(), DatasetInfo{}, 0, 0, startAt, &error)) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    recorder.attach(&c);
    if (!test::runToEnd(c, 120000))
        return {};
    const qint64 runId = recorder.currentRunId();
    if (!recorder.finishRun(c.status(), {}, {}, {}, 0, &error))
        qWarning("%s", qPrintable(error));
    ProjectStore store;
    if (!store.open(project, ProjectStore::OpenMode::ReadOnly))
        return {};
    return store.loadRequests(runId);
}

RequestJob pacedJob(const QUrl &url, const QString &id, int tokens)
{
    RequestJob j;
    j.url = url;
    j.body = "{\"prompt\":\"x\",\"stream\":true,\"max_tokens\":" + QByteArray::number(tokens) + "}";
    j.headers = {{"Content-Type", "application/json"}, {"x-request-id", id.toUtf8()}};
    j.timeoutNs = 60'000'000'000;
    j.record.requestId = id;
    return j;
}

} // namespace

class TestPacedServer : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        qRegisterMetaType<sb::RequestRecord>();
        QVERIFY(m_dir.isValid());
    }

    void timingErrors_data()
    {
        QTest::addColumn<TransportKind>("transport");
        // Bounds in ms. Receive, every chunk: one stamped with a later read's time (the
        // first-token slip, a held-back middle chunk) is one ITL (20 ms) late and fails the max
        // of half an ITL; the p99 bounds leave a shared 2-core machine room for its scheduling
        // delays. The manager pool stamps in user space after Qt's own HTTP thread, and its
        // requests wait for that thread to write them: its send error is Qt's real delay in
        // sending (8-27 ms p99 measured at 100 streams on this machine, with load), hence its
        // wider bounds and no bound on its TTFT error's maximum.
        QTest::addColumn<double>("receiveP99");
        QTest::addColumn<double>("sendP99");
        QTest::addColumn<bool>("ttftMax");
        QTest::newRow("socket") << TransportKind::Socket << 2.0 << 2.0 << true;
        QTest::newRow("qnam") << TransportKind::Qnam << 5.0 << 50.0 << false;
    }
    void timingErrors()
    {
        QFETCH(TransportKind, transport);
        QFETCH(double, receiveP99);
        QFETCH(double, sendP99);
        QFETCH(bool, ttftMax);
        constexpr int kStreams = 100;
        constexpr double kItlMs = 20;
        constexpr double kMaxMs = kItlMs / 2; // no single chunk may be off by half an ITL
        paced::PacedServer server;
        QString error;
        QVERIFY2(server.start(program(), {u"--ttft-ms"_s, u"50"_s, u"--itl-ms"_s, u"20"_s}, &error),
                 qPrintable(error));
        RunPlan plan = test::makePlan(server.baseUrl(), 3 * kStreams, 0);
        plan.profile.maxConcurrency = 0;
        plan.profile.closedLoopConcurrency = kStreams;
        plan.profile.timeoutS = 60;
        RunController c;
        c.setTransportKind(transport);
        const QList<RequestRecord> records =
            runAndStore(c, plan, test::makeItems(3 * kStreams, 20),
                        m_dir.filePath(u"timing-%1.sbproj"_s.arg(
                            QLatin1StringView(transportKindName(transport)))));
        QCOMPARE(records.size(), 3 * kStreams);
        server.stop();
        const auto log = server.log();
        const paced::TimingErrors t = paced::pairWithLog(records, log, kStreams, kMaxMs);
        QCOMPARE(t.failed, 0);
        QCOMPARE(t.unmatched, 0);
        QCOMPARE(t.paired, 3 * kStreams);
        QCOMPARE(qint64(t.receiveMs.size()), qint64(3 * kStreams * 20));
        QCOMPARE(t.kernelRequests, 3 * kStreams); // the server's request times are the kernel's
        using paced::maxOf;
        using paced::percentileOf;
        qInfo("%s, %d streams: send p50 %.3f p99 %.3f max %.3f | receive (all %zu chunks) p50 "
              "%.3f p99 %.3f max %.3f min %.3f | first p99 %.3f | TTFT p50 %.3f p99 %.3f max "
              "%.3f | first wave TTFT p99 %.3f ms",
              transportKindName(transport), kStreams, percentileOf(t.sendMs, 50),
              percentileOf(t.sendMs, 99), maxOf(t.sendMs), t.receiveMs.size(),
              percentileOf(t.receiveMs, 50), percentileOf(t.receiveMs, 99), maxOf(t.receiveMs),
              *std::min_element(t.receiveMs.begin(), t.receiveMs.end()),
              percentileOf(t.firstReceiveMs, 99), percentileOf(t.ttftMs, 50),
              percentileOf(t.ttftMs, 99), maxOf(t.ttftMs), percentileOf(t.firstWaveTtftMs, 99));
        // Never received before it was written, never sent after it arrived: one clock.
        QVERIFY(*std::min_element(t.receiveMs.begin(), t.receiveMs.end()) >= 0);
        QVERIFY(*std::min_element(t.sendMs.begin(), t.sendMs.end()) >= 0);
        QVERIFY2(percentileOf(t.receiveMs, 99) <= receiveP99, "receive error p99");
        QVERIFY2(maxOf(t.receiveMs) < kMaxMs, "a chunk was stamped half an ITL late or more");
        QCOMPARE(t.lateChunks, 0);
        QVERIFY2(percentileOf(t.sendMs, 99) <= sendP99, "send error p99");
        QVERIFY2(percentileOf(t.ttftMs, 99) <= sendP99 + receiveP99, "TTFT error p99");
        if (ttftMax)
            QVERIFY2(maxOf(t.ttftMs) < kMaxMs, "a TTFT was off by half an ITL or more");

        // The stored connection phases agree with the server's log.
        for (const RequestRecord &r : records) {
            const paced::LogEntry e = log.value(r.requestId);
            QVERIFY2(r.tHeadReceived >= e.tHeadWrite, qPrintable(r.requestId));
            QVERIFY(r.tHeadReceived <= r.tFirst);
            QVERIFY(r.tRequestWritten >= r.tSend);
            if (transport == TransportKind::Socket) {
                // Warm mode: every stream's first request finds a connection opened before the
                // run, every later one a reused one.
                QCOMPARE(r.connection,
                         r.index < kStreams ? ConnectionUse::Prewarmed : ConnectionUse::Reused);
                QCOMPARE(r.tConnectStart, 0);
            } else {
                QCOMPARE(r.connection, ConnectionUse::Unknown);
            }
        }
    }

    // A burst of new requests (each with its connect) must not keep the worker from reading the
    // streams already open: a stream read late has its waiting chunks merged by the kernel, and
    // an earlier chunk then carries the later one's arrival time.
    void openStreamsAreReadDuringABurstOfNewConnections()
    {
        constexpr int kOpen = 40;
        constexpr int kBurst = 1500;
        // Long enough that this shared machine's own scheduling stalls (~10 ms at times) do not
        // merge chunks; starting the burst all at once blocked reads for 30-40 ms and more.
        constexpr double kItlMs = 25;
        paced::PacedServer server;
        QString error;
        QVERIFY2(server.start(program(), {u"--ttft-ms"_s, u"20"_s, u"--itl-ms"_s, u"25"_s}, &error),
                 qPrintable(error));
        SocketTransport t;
        TransportOptions options;
        options.connectionMode = ConnectionMode::Lazy;
        t.setOptions(options);
        t.setWorkerThreads(1); // one worker serves both: the case where it matters
        t.prepare(kOpen + kBurst);
        QSignalSpy spy(&t, &Transport::requestFinished);
        const QUrl url(server.baseUrl() + u"/v1/completions"_s);
        for (int i = 0; i < kOpen; ++i)
            t.submit(pacedJob(url, u"open-%1"_s.arg(i), 60));
        // Once they stream (TTFT 20 ms), the burst: every request a new connection.
        QTest::qWait(150);
        for (int i = 0; i < kBurst; ++i)
            t.submit(pacedJob(url, u"burst-%1"_s.arg(i), 1));
        QTRY_COMPARE_WITH_TIMEOUT(spy.size(), kOpen + kBurst, 60000);
        QList<RequestRecord> open;
        int burstOk = 0;
        for (const auto &args : std::as_const(spy)) {
            const RequestRecord r = args.at(0).value<RequestRecord>();
            if (r.requestId.startsWith(u"open-"))
                open.append(r);
            else
                burstOk += r.ok() ? 1 : 0;
        }
        server.stop();
        const paced::TimingErrors e = paced::pairWithLog(open, server.log(), 0, kItlMs / 2);
        qInfo("open streams: receive p99 %.3f max %.3f ms over %zu chunks; %d of %d burst "
              "requests ok; %llu late reads",
              paced::percentileOf(e.receiveMs, 99), paced::maxOf(e.receiveMs), e.receiveMs.size(),
              burstOk, kBurst, t.lateReads());
        QCOMPARE(e.paired, kOpen);
        QCOMPARE(burstOk, kBurst);
        QVERIFY2(paced::maxOf(e.receiveMs) < kItlMs / 2,
                 "a chunk of an open stream was stamped half an ITL late or more");
    }

    void connectionModes_data()
    {
        QTest::addColumn<TransportKind>("transport");
        QTest::addColumn<ConnectionMode>("mode");
        for (TransportKind k : {TransportKind::Socket, TransportKind::Qnam})
            for (ConnectionMode m :
                 {ConnectionMode::Warm, ConnectionMode::Lazy, ConnectionMode::PerRequest})
                QTest::addRow("%s-%s", transportKindName(k), connectionModeName(m)) << k << m;
    }
    void connectionModes()
    {
        QFETCH(TransportKind, transport);
        QFETCH(ConnectionMode, mode);
        constexpr int kStreams = 8;
        constexpr int kRequests = 24;
        paced::PacedServer server;
        QString error;
        QVERIFY2(server.start(program(), {u"--ttft-ms"_s, u"20"_s, u"--itl-ms"_s, u"2"_s}, &error),
                 qPrintable(error));
        RunPlan plan = test::makePlan(server.baseUrl(), kRequests, 0);
        plan.profile.maxConcurrency = 0;
        plan.profile.closedLoopConcurrency = kStreams;
        RunController c;
        c.setTransportKind(transport);
        TransportOptions options;
        options.connectionMode = mode;
        c.setTransportOptions(options);
        c.configure(plan, test::makeItems(kRequests, 4), {});
        QVERIFY(test::runToEnd(c, 60000));
        QCOMPARE(c.records().size(), kRequests);
        server.stop();
        const auto log = server.log();
        QSet<int> conns;
        qint64 firstSend = std::numeric_limits<qint64>::max();
        qint64 lastAccept = 0;
        for (const RequestRecord &r : c.records()) {
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
            const paced::LogEntry e = log.value(r.requestId);
            QVERIFY2(e.conn >= 0, qPrintable(r.requestId));
            conns.insert(e.conn);
            firstSend = std::min(firstSend, r.tSend);
            lastAccept = std::max(lastAccept, e.tAccept);
            QVERIFY(r.tHeadReceived >= e.tHeadWrite);
            if (mode == ConnectionMode::PerRequest)
                QCOMPARE(e.reqOnConn, 0);
            if (transport != TransportKind::Socket) {
                QCOMPARE(r.connection, ConnectionUse::Unknown);
                continue;
            }
            // Which connection the request found, and the phases that go with it.
            const bool firstWave = r.index < kStreams;
            const ConnectionUse expected = mode == ConnectionMode::PerRequest ? ConnectionUse::New
                                           : !firstWave                   ? ConnectionUse::Reused
                                           : mode == ConnectionMode::Warm ? ConnectionUse::Prewarmed
                                                                          : ConnectionUse::New;
            QCOMPARE(r.connection, expected);
            if (expected == ConnectionUse::New) {
                QVERIFY(r.tConnectStart >= r.tSend);
                QVERIFY(r.tConnected >= r.tConnectStart);
                QVERIFY(r.tRequestWritten >= r.tConnected);
                QVERIFY(e.tAccept >= r.tConnectStart);
            } else {
                QCOMPARE(r.tConnectStart, 0);
                QCOMPARE(r.tConnected, 0);
                QVERIFY(r.tRequestWritten >= r.tSend);
            }
            QCOMPARE(r.tTlsDone, 0);
            QVERIFY(r.tHeadReceived >= r.tRequestWritten);
            QVERIFY(r.tFirst >= r.tHeadReceived);
        }
        QCOMPARE(conns.size(), mode == ConnectionMode::PerRequest ? kRequests : kStreams);
        if (mode == ConnectionMode::Warm)
            QVERIFY2(lastAccept < firstSend, "a connection was opened after the run started");
    }
};

QTEST_GUILESS_MAIN(TestPacedServer)
#include "tst_pacedserver.moc"
