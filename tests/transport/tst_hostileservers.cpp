// Both transports against servers that misbehave on purpose (tests/servers/hostileserver, a
// child process): each case must end in its error class, on time, and without the client's
// memory growing with what the server sends.
//
// Timing: a case that must end by a deadline (the request timeout, or the idle timeout) ends
// within [deadline, deadline + 10 % + the scheduling delay measured during the case] — a read
// loop that keeps reading while the server keeps sending, or a timer starved by it, fails that;
// a machine that ran this process late does not (tests/common/schedprobe.h measures how late).
// A case that must end on its own (a cap, a malformed response, a close) ends before its
// request timeout; the caps' cases have timeouts that leave any client above a stated minimum
// rate time to reach the cap, and a timeout says how many bytes the server had sent by then.
// Memory: the growth of this process's peak RSS over the case (VmHWM after
// /proc/self/clear_refs) stays under 100 MB.
#include "client/qnamtransport.h"
#include "client/sockettransport.h"
#include "common/clock.h"

#include "../common/schedprobe.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

constexpr double kTolerance = 0.10;
constexpr qint64 kMaxGrowthKb = 100 * 1024;
// The manager pool against a body that only a cap can end (token flood, endless line, huge
// chunk): Qt 6.4's HTTP thread drains the socket in a loop for as long as the kernel holds bytes
// (QHttpNetworkReplyPrivate::readReplyBodyChunked), whatever the reply's read buffer, while this
// thread parses. Against a server at full loopback speed its peak is therefore a race between
// three threads on two cores: 24 to 246 MB on an idle machine, 2.2 GB once on a loaded CI
// machine (huge chunk: 1.35 s to parse the first 8 MiB). The socket transport (the default) is
// tested at full speed; for the manager pool the server pauses kQnamPaceUs after each 64 KB
// batch (at most ~100 MB/s), which keeps the test about the client's own buffering.
// Paced, its peak stayed under 55 MB (three busy loops beside it), so one bound holds for both.
constexpr int kQnamPaceUs = 500;
// The token flood up to the default body cap (128 MiB): the client parses ~1,000 events per
// 56 kB, and its parsing rate decides when the cap is crossed — the manager pool took 25 s
// (5.9 MiB/s) on this 2-core machine, over 30 s on the fresh one of issue 25. The timeout
// (160 s) leaves any client that takes at least kMinFloodMiBps time to cross the cap; one that
// times out instead is told the rate it reached (the server reports the bytes it sent).
constexpr double kMinFloodMiBps = 0.8;
constexpr qint64 kDefaultCapMiB = 128;
constexpr qint64 kFloodTimeoutMs = qint64(kDefaultCapMiB / kMinFloodMiBps * 1000);

struct Case
{
    QString mode;
    qint64 timeoutMs = 0;
    qint64 idleMs = 0;
    ResponseLimits limits;
    ErrorClass expected = ErrorClass::None;
    QString message;       // a part of the error message
    qint64 deadlineMs = 0; // must end within [deadline, deadline * 1.1]; 0: before the timeout
    // Where the manager pool differs (Qt parses the HTTP itself): its class, message, deadline.
    bool qnamDiffers = false;
    ErrorClass qnamExpected = ErrorClass::None;
    QString qnamMessage;
    qint64 qnamDeadlineMs = 0;
    bool fullSpeedBody = false; // a body that only a cap ends: paced for the manager pool
};

qint64 statusKb(const char *field)
{
    QFile f(u"/proc/self/status"_s);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qsizetype(qstrlen(field))).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

// Resets the peak RSS to the current RSS (Linux 4.0+).
bool resetPeakRss()
{
    QFile f(u"/proc/self/clear_refs"_s);
    return f.open(QIODevice::WriteOnly) && f.write("5") == 1;
}

} // namespace

Q_DECLARE_METATYPE(Case)

class TestHostileServers : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<sb::RequestRecord>(); }

    void failsOnTimeWithinBoundedMemory_data()
    {
        QTest::addColumn<bool>("qnam");
        QTest::addColumn<Case>("c");
        ResponseLimits noBodyCap;
        noBodyCap.maxBodyBytes = 0;
        ResponseLimits smallBodyCap;
        smallBodyCap.maxBodyBytes = 16 * 1024 * 1024;
        const QList<QPair<const char *, Case>> cases = {
            // The timeout fires on time however fast the server sends. The events carry no token
            // and the body cap is off, so that only the timeout can end it.
            {"flood without end",
             {u"flood-empty"_s, 3000, 0, noBodyCap, ErrorClass::Timeout, u"request timeout"_s,
              3000}},
            // Token events as fast as the client parses them: the default body cap (128 MiB)
            // bounds them, and with them the record's chunk list.
            {"token flood",
             {u"flood"_s,
              kFloodTimeoutMs,
              0,
              {},
              ErrorClass::Oversize,
              u"response body"_s,
              0,
              false,
              {},
              {},
              0,
              true}},
            {"token flood past a small body cap",
             {u"flood"_s,
              30000,
              0,
              smallBodyCap,
              ErrorClass::Oversize,
              u"response body"_s,
              0,
              false,
              {},
              {},
              0,
              true}},
            // 8 MiB to the SSE line cap: the timeout leaves kMinFloodMiBps time to reach it.
            {"endless line",
             {u"endless-line"_s,
              10000,
              0,
              {},
              ErrorClass::Oversize,
              u"SSE line or event"_s,
              0,
              false,
              {},
              {},
              0,
              true}},
            // Qt reports this close as an error or, at times, as the end of the body (the
            // stream then lacks [DONE]): failed either way, the class is Qt's call.
            {"head then close", {u"head-close"_s, 3000, 0, {}, ErrorClass::Reset, u"closed"_s, 0}},
            // A byte every 200 ms: the idle timeout (1 s) must not fire, the request timeout must.
            {"slow drip below the idle timeout",
             {u"drip"_s, 3000, 1000, {}, ErrorClass::Timeout, u"request timeout"_s, 3000}},
            {"stall after the head",
             {u"stall"_s, 20000, 1000, {}, ErrorClass::Timeout, u"idle timeout"_s, 1000}},
            {"never answers",
             {u"silent"_s, 2000, 0, {}, ErrorClass::Timeout, u"request timeout"_s, 2000}},
            {"never answers, idle timeout",
             {u"silent"_s, 20000, 1000, {}, ErrorClass::Timeout, u"idle timeout"_s, 1000}},
            // Qt's parser takes a size that is not hexadecimal for the last chunk: the response
            // ends cleanly, without [DONE].
            {"garbage chunk size",
             {u"garbage-chunk"_s,
              3000,
              0,
              {},
              ErrorClass::Transport,
              u"malformed"_s,
              0,
              true,
              ErrorClass::Incomplete,
              u"without data: [DONE]"_s,
              0}},
            // Its bytes never form a line: whichever cap comes first (here the SSE line's).
            {"huge chunk size",
             {u"huge-chunk"_s,
              30000,
              0,
              smallBodyCap,
              ErrorClass::Oversize,
              u"exceeded the cap"_s,
              0,
              false,
              {},
              {},
              0,
              true}},
            // Qt reads a head without end (without holding it: memory stays flat) and never
            // hands it over, so the manager pool cannot apply the head cap: its request timeout
            // ends it.
            {"huge head",
             {u"huge-head"_s,
              8000,
              0,
              {},
              ErrorClass::Oversize,
              u"head"_s,
              0,
              true,
              ErrorClass::Timeout,
              u"request timeout"_s,
              8000}},
            {"interim responses without end",
             {u"interim-flood"_s,
              8000,
              0,
              {},
              ErrorClass::Oversize,
              u"head"_s,
              0,
              true,
              ErrorClass::Timeout,
              u"request timeout"_s,
              8000}},
        };
        for (bool qnam : {false, true})
            for (const auto &[name, c] : cases)
                QTest::addRow("%s: %s", qnam ? "qnam" : "socket", name) << qnam << c;
    }

    void failsOnTimeWithinBoundedMemory()
    {
        QFETCH(bool, qnam);
        QFETCH(Case, c);
        if (qnam && c.qnamDiffers) {
            c.expected = c.qnamExpected;
            c.message = c.qnamMessage;
            c.deadlineMs = c.qnamDeadlineMs;
        }
        QProcess server;
        server.setProgram(QStringLiteral(SB_HOSTILE_SERVER));
        QStringList args{u"--mode"_s, c.mode};
        if (qnam && c.fullSpeedBody)
            args << u"--pace-us"_s << QString::number(kQnamPaceUs);
        server.setArguments(args);
        server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        server.start();
        QVERIFY(server.waitForStarted(10000));
        QByteArray line;
        while (!line.contains('\n') && server.waitForReadyRead(10000))
            line += server.readAllStandardOutput();
        QVERIFY2(line.startsWith("LISTENING "), line.constData());
        const int port = line.mid(10).trimmed().toInt();

        std::unique_ptr<Transport> t;
        if (qnam)
            t = std::make_unique<QnamTransport>();
        else
            t = std::make_unique<SocketTransport>();
        TransportOptions options;
        options.connectionMode = ConnectionMode::Lazy;
        options.limits = c.limits;
        options.idleTimeoutNs = c.idleMs * 1'000'000;
        t->setOptions(options);
        t->prepare(1);
        QSignalSpy spy(t.get(), &Transport::requestFinished);
        RequestJob job;
        job.url = QUrl(u"http://127.0.0.1:%1/v1/completions"_s.arg(port));
        job.body = "{\"prompt\":\"x\",\"stream\":true}";
        job.headers = {{"Content-Type", "application/json"}};
        job.timeoutNs = c.timeoutMs * 1'000'000;
        job.record.requestId = u"hostile"_s;

        QVERIFY(resetPeakRss());
        const qint64 rssBefore = statusKb("VmRSS:");
        test::SchedProbe probe;
        t->submit(job);
        // Not spy.wait(): a fast failure may come before the wait begins. The wait only stops a
        // case that never ends; whether it ended on time is checked below.
        QTRY_COMPARE_WITH_TIMEOUT(spy.size(), 1, int(c.timeoutMs * 3 / 2 + 20000));
        probe.stop();
        const qint64 peakGrowth = statusKb("VmHWM:") - rssBefore;
        const RequestRecord r = spy.at(0).at(0).value<RequestRecord>();
        const double elapsedMs = nsToMs(r.tEnd - r.tSend);
        server.kill();
        server.waitForFinished(5000);
        // The body bytes the server had sent (full-speed bodies only): its last report.
        qint64 sentBytes = -1;
        for (const QByteArray &l : server.readAllStandardOutput().split('\n'))
            if (l.startsWith("SENT "))
                sentBytes = l.mid(5).toLongLong();
        const QString measured =
            u"%1 after %2 ms; scheduling delay measured during the case: p99 %3 ms, max %4 ms"_s
                .arg(QLatin1StringView(errorClassName(r.error)))
                .arg(elapsedMs, 0, 'f', 0)
                .arg(probe.percentileMs(99), 0, 'f', 1)
                .arg(probe.maxMs(), 0, 'f', 1) +
            (sentBytes >= 0
                 ? u"; the server sent %1 MiB (%2 MiB/s)"_s
                       .arg(double(sentBytes) / (1 << 20), 0, 'f', 1)
                       .arg(double(sentBytes) / (1 << 20) / (elapsedMs / 1000), 0, 'f', 2)
                 : QString());
        qInfo("%s (%s), peak RSS +%lld kB: %s", qPrintable(measured),
              c.deadlineMs ? qPrintable(u"deadline %1 ms"_s.arg(c.deadlineMs))
                           : qPrintable(u"timeout %1 ms"_s.arg(c.timeoutMs)),
              peakGrowth, qPrintable(r.errorMessage));

        if (qnam && c.mode == u"head-close"_s && r.error == ErrorClass::Incomplete) {
            c.expected = ErrorClass::Incomplete;
            c.message = u"without data: [DONE]"_s;
        }
        QVERIFY2(r.error == c.expected,
                 qPrintable(u"expected %1, got %2"_s.arg(
                     QLatin1StringView(errorClassName(c.expected)), measured)));
        QVERIFY2(r.errorMessage.contains(c.message), qPrintable(r.errorMessage));
        if (c.deadlineMs > 0) {
            QVERIFY2(elapsedMs >= double(c.deadlineMs) - 1.0,
                     qPrintable(u"ended before its deadline: "_s + measured));
            // However late this machine ran us: the wake-up that ended it came at most as late
            // as the latest the probe saw.
            QVERIFY2(elapsedMs <= double(c.deadlineMs) * (1 + kTolerance) + probe.maxMs(),
                     qPrintable(u"ended more than 10 % after its deadline (plus the measured "
                                u"scheduling delay): "_s +
                                measured));
        } else {
            QVERIFY2(elapsedMs < double(c.timeoutMs),
                     qPrintable(u"ended only by the request timeout: "_s + measured));
        }
        QVERIFY2(peakGrowth < kMaxGrowthKb,
                 qPrintable(
                     u"peak RSS grew by %1 kB (bound %2 kB)"_s.arg(peakGrowth).arg(kMaxGrowthKb)));
    }
};

QTEST_GUILESS_MAIN(TestHostileServers)
#include "tst_hostileservers.moc"
