// SocketTransport against scripted servers that misbehave on purpose, a TLS server, and the
// built-in simulator. The engine tests (tests/engine) run every protocol and fault case through
// the run controller on both transports; these cover what only this transport does: keep-alive
// reuse and its retry, HTTP framing errors, kernel timestamps, https.
#include "client/sockettransport.h"
#include "common/clock.h"
#include "sim/simulator.h"

#include <QFile>
#include <QSignalSpy>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTest>
#include <QThread>

#include <arpa/inet.h>
#include <atomic>
#include <functional>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// One HTTP chunk holding data.
QByteArray chunk(const QByteArray &data)
{
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}

const QByteArray kHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                         "Transfer-Encoding: chunked\r\n\r\n";
const QByteArray kToken = chunk("data: {\"choices\":[{\"text\":\"hi\"}]}\n\n");
const QByteArray kSse = kHead + kToken + chunk("data: [DONE]\n\n") + "0\r\n\r\n";

// A blocking loopback server: one thread per connection, each request answered by the script.
// Reply: the bytes to write, then what to do with the connection.
struct Reply
{
    enum class After { KeepOpen, Close, Reset, Stall };
    QByteArray bytes;
    After after = After::KeepOpen;
};

class ScriptServer
{
public:
    // script(connection index from 0, request index on that connection from 0)
    explicit ScriptServer(std::function<Reply(int, int)> script) : m_script(std::move(script))
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const int one = 1;
        ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_listen, reinterpret_cast<sockaddr *>(&a), sizeof a);
        ::listen(m_listen, 64);
        socklen_t len = sizeof a;
        ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&a), &len);
        m_port = ntohs(a.sin_port);
        m_acceptor = std::thread([this] { acceptLoop(); });
    }
    ~ScriptServer()
    {
        m_stop = true;
        ::shutdown(m_listen, SHUT_RDWR);
        ::close(m_listen);
        m_acceptor.join();
        for (auto &t : m_threads)
            t.join();
    }
    QUrl url() const { return QUrl(u"http://127.0.0.1:%1/v1/completions"_s.arg(m_port)); }
    int connections() const { return m_connections.load(); }
    int requests() const { return m_requests.load(); }

private:
    void acceptLoop()
    {
        for (int index = 0;; ++index) {
            const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0)
                return;
            ++m_connections;
            m_threads.emplace_back([this, fd, index] { serve(fd, index); });
        }
    }
    void serve(int fd, int index)
    {
        QByteArray in;
        char buf[4096];
        for (int req = 0; !m_stop; ++req) {
            // Read one request: head, then Content-Length bytes.
            qsizetype end;
            while ((end = in.indexOf("\r\n\r\n")) < 0) {
                const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
                if (n <= 0) {
                    ::close(fd);
                    return;
                }
                in.append(buf, n);
            }
            const qsizetype cl = in.toLower().indexOf("content-length:");
            const int length = in.mid(cl + 15, in.indexOf('\r', cl) - cl - 15).trimmed().toInt();
            while (in.size() < end + 4 + length) {
                const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
                if (n <= 0) {
                    ::close(fd);
                    return;
                }
                in.append(buf, n);
            }
            in.remove(0, end + 4 + length);
            ++m_requests;
            const Reply r = m_script(index, req);
            if (!r.bytes.isEmpty())
                ::send(fd, r.bytes.constData(), size_t(r.bytes.size()), MSG_NOSIGNAL);
            if (r.after == Reply::After::Stall) {
                while (!m_stop)
                    QThread::msleep(10);
            }
            if (r.after == Reply::After::Reset) {
                linger l{1, 0};
                ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
            }
            if (r.after != Reply::After::KeepOpen) {
                ::close(fd);
                return;
            }
        }
        ::close(fd);
    }

    std::function<Reply(int, int)> m_script;
    int m_listen = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_connections{0};
    std::atomic<int> m_requests{0};
    std::thread m_acceptor;
    std::vector<std::thread> m_threads;
};

RequestJob job(const QUrl &url, qint64 index, qint64 timeoutNs = 0)
{
    RequestJob j;
    j.url = url;
    j.body = "{\"prompt\":\"x\",\"stream\":true}";
    j.headers = {{"Content-Type", "application/json"}};
    j.timeoutNs = timeoutNs;
    j.record.index = index;
    j.record.requestId = u"r%1"_s.arg(index);
    return j;
}

// Submits the jobs one after another (each after the previous finished) and returns the records.
QList<RequestRecord> runSequentially(SocketTransport &t, const QList<RequestJob> &jobs)
{
    QList<RequestRecord> out;
    QSignalSpy spy(&t, &Transport::requestFinished);
    for (const RequestJob &j : jobs) {
        const qsizetype before = spy.size();
        t.submit(j);
        if (!spy.wait(20000) && spy.size() == before)
            break;
    }
    for (const auto &args : std::as_const(spy))
        out.append(args.at(0).value<RequestRecord>());
    return out;
}

} // namespace

class TestSocketTransport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<sb::RequestRecord>(); }

    void keepAliveReusesOneConnection()
    {
        ScriptServer server([](int, int) { return Reply{kSse}; });
        SocketTransport t;
        t.prepare(4);
        QList<RequestJob> jobs;
        for (int i = 0; i < 5; ++i)
            jobs.append(job(server.url(), i));
        const auto records = runSequentially(t, jobs);
        QCOMPARE(records.size(), 5);
        for (const auto &r : records) {
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
            QCOMPARE(r.chunkTimes.size(), 1);
            QCOMPARE(r.outputChars, 2);
        }
        QCOMPARE(server.connections(), 1);
        QCOMPARE(t.openConnections(), 1);
    }

    void staleKeepAliveConnectionIsRetriedOnce()
    {
        // The server answers, then closes the connection behind the client's back: the next
        // request on it meets a closed socket and must go out again on a fresh one.
        ScriptServer server([](int, int) { return Reply{kSse, Reply::After::Close}; });
        SocketTransport t;
        t.prepare(1);
        const auto records =
            runSequentially(t, {job(server.url(), 0), job(server.url(), 1), job(server.url(), 2)});
        QCOMPARE(records.size(), 3);
        for (const auto &r : records)
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
        QCOMPARE(server.requests(), 3);
    }

    void connectionCloseResponsesAreNotReused()
    {
        QByteArray closing = kSse;
        closing.replace("Transfer-Encoding: chunked",
                        "Connection: close\r\nTransfer-Encoding: chunked");
        ScriptServer server([closing](int, int) { return Reply{closing, Reply::After::Close}; });
        SocketTransport t;
        t.prepare(1);
        const auto records = runSequentially(t, {job(server.url(), 0), job(server.url(), 1)});
        QCOMPARE(records.size(), 2);
        for (const auto &r : records)
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
        QCOMPARE(server.connections(), 2);
        QCOMPARE(server.requests(), 2); // no retry was needed
    }

    void failuresAreClassified_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<int>("after");
        QTest::addColumn<ErrorClass>("expected");
        QTest::addColumn<bool>("someTokens");
        using A = Reply::After;
        const QByteArray head = kHead + kToken;
        QTest::newRow("closed without a response")
            << QByteArray() << int(A::Close) << ErrorClass::Reset << false;
        QTest::newRow("reset mid-stream") << head << int(A::Reset) << ErrorClass::Reset << true;
        QTest::newRow("closed mid-stream") << head << int(A::Close) << ErrorClass::Reset << true;
        QTest::newRow("stall") << head << int(A::Stall) << ErrorClass::Timeout << true;
        QTest::newRow("stall before the head")
            << QByteArray("HTTP/1.1 200") << int(A::Stall) << ErrorClass::Timeout << false;
        QTest::newRow("malformed status line")
            << QByteArray("HTTP/9 oops\r\n\r\n") << int(A::KeepOpen) << ErrorClass::Transport
            << false;
        QTest::newRow("malformed chunk")
            << QByteArray(head + "zz\r\n") << int(A::KeepOpen) << ErrorClass::Transport << true;
        QTest::newRow("503 with content length")
            << QByteArray("HTTP/1.1 503 Busy\r\nContent-Length: "
                          "27\r\n\r\n{\"error\":{\"message\":\"x\"}}\n")
            << int(A::KeepOpen) << ErrorClass::Http5xx << false;
        QTest::newRow("sse until close without [DONE]")
            << QByteArray("HTTP/1.1 200 OK\r\n\r\ndata: {\"choices\":[{\"text\":\"a\"}]}\n\n")
            << int(A::Close) << ErrorClass::Incomplete << true;
        QTest::newRow("sse until close with [DONE]")
            << QByteArray("HTTP/1.0 200 OK\r\n\r\ndata: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: "
                          "[DONE]\n\n")
            << int(A::Close) << ErrorClass::None << true;
    }
    void failuresAreClassified()
    {
        QFETCH(QByteArray, reply);
        QFETCH(int, after);
        QFETCH(ErrorClass, expected);
        QFETCH(bool, someTokens);
        ScriptServer server([&](int, int) { return Reply{reply, Reply::After(after)}; });
        SocketTransport t;
        t.prepare(1);
        const auto records = runSequentially(t, {job(server.url(), 0, 800'000'000)});
        QCOMPARE(records.size(), 1);
        const RequestRecord &r = records.first();
        QVERIFY2(r.error == expected,
                 qPrintable(u"%1: %2"_s.arg(QString::fromLatin1(errorClassName(r.error)),
                                            r.errorMessage)));
        QCOMPARE(!r.chunkTimes.isEmpty(), someTokens);
        QCOMPARE(server.requests(), 1); // a fresh connection is never retried
    }

    void unreachableIsConnect_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("refused") << u"http://127.0.0.1:1/v1/completions"_s;
        QTest::newRow("no such host") << u"http://no-such-host.invalid/v1/completions"_s;
        QTest::newRow("https refused") << u"https://127.0.0.1:1/v1/completions"_s;
    }
    void unreachableIsConnect()
    {
        QFETCH(QString, url);
        SocketTransport t;
        t.prepare(2);
        const auto records = runSequentially(t, {job(QUrl(url), 0, 5'000'000'000)});
        QCOMPARE(records.size(), 1);
        QVERIFY2(records.first().error == ErrorClass::Connect,
                 qPrintable(records.first().errorMessage));
    }

    void cancelAllEndsQueuedAndOpenStreams()
    {
        ScriptServer server([](int, int) {
            return Reply{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                         Reply::After::Stall};
        });
        SocketTransport t;
        t.prepare(8);
        QSignalSpy spy(&t, &Transport::requestFinished);
        for (int i = 0; i < 8; ++i)
            t.submit(job(server.url(), i));
        QTRY_COMPARE_WITH_TIMEOUT(server.requests(), 8, 10000);
        t.cancelAll();
        QTRY_COMPARE_WITH_TIMEOUT(spy.size(), 8, 10000);
        for (const auto &args : std::as_const(spy))
            QCOMPARE(args.at(0).value<RequestRecord>().error, ErrorClass::Cancelled);
        QCOMPARE(t.openConnections(), 0);
    }

    void receiveTimesComeFromTheKernel_data()
    {
        QTest::addColumn<bool>("kernel");
        QTest::newRow("kernel timestamps") << true;
        QTest::newRow("wake-up timestamps") << false;
    }
    void receiveTimesComeFromTheKernel()
    {
        QFETCH(bool, kernel);
        SimConfig cfg;
        cfg.ttftMs = 20;
        cfg.itlMs = 5;
        Simulator sim(cfg);
        QVERIFY(sim.start());
        SocketTransport t;
        t.setKernelTimestamps(kernel);
        t.prepare(4);
        QSignalSpy spy(&t, &Transport::requestFinished);
        for (int i = 0; i < 4; ++i) {
            RequestJob j = job(QUrl(u"http://127.0.0.1:%1/v1/completions"_s.arg(sim.port())), i);
            j.body = "{\"model\":\"servebench-sim\",\"prompt\":\"a "
                     "b\",\"max_tokens\":10,\"stream\":true}";
            j.headers.append({"x-request-id", j.record.requestId.toLatin1()});
            t.submit(std::move(j));
        }
        QTRY_COMPARE_WITH_TIMEOUT(spy.size(), 4, 20000);
        QVERIFY(sim.waitForLogEntries(4, 5000));
        QHash<QString, SimLogEntry> log;
        for (const auto &e : sim.requestLog())
            log.insert(e.requestId, e);
        for (const auto &args : std::as_const(spy)) {
            const auto r = args.at(0).value<RequestRecord>();
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
            const SimLogEntry e = log.value(r.requestId);
            QCOMPARE(r.chunkTimes.size(), e.chunkWriteNs.size());
            for (int k = 0; k < r.chunkTimes.size(); ++k)
                QVERIFY2(r.chunkTimes[k] >= e.chunkWriteNs[k], "received before it was written");
        }
        if (kernel) {
            // The kernel turns packet timestamping on a moment after the first socket asks for
            // it (a deferred static key); the worker asks at start, so nearly every read has one.
            QVERIFY(t.kernelStampedReads() > 0);
            QVERIFY2(
                t.userStampedReads() * 10 <= t.kernelStampedReads(),
                qPrintable(
                    u"%1 kernel, %2 user"_s.arg(t.kernelStampedReads()).arg(t.userStampedReads())));
        } else {
            QCOMPARE(t.kernelStampedReads(), quint64(0));
            QVERIFY(t.userStampedReads() > 0);
        }
    }

    void httpsWithTrustedCertificate_data()
    {
        QTest::addColumn<bool>("trusted");
        QTest::newRow("trusted") << true;
        QTest::newRow("untrusted") << false;
    }
    void httpsWithTrustedCertificate()
    {
        QFETCH(bool, trusted);
        if (!QSslSocket::supportsSsl())
            QSKIP("no TLS backend");
        QFile certFile(QStringLiteral(SB_TEST_DATA_DIR "/tls/server.crt"));
        QFile keyFile(QStringLiteral(SB_TEST_DATA_DIR "/tls/server.key"));
        QVERIFY(certFile.open(QIODevice::ReadOnly) && keyFile.open(QIODevice::ReadOnly));
        const QSslCertificate cert(&certFile, QSsl::Pem);
        const QSslKey key(&keyFile, QSsl::Rsa, QSsl::Pem);
        QVERIFY(!cert.isNull() && !key.isNull());

        // The TLS server lives in a thread of its own, as a real server would.
        QThread serverThread;
        auto *server = new QSslServer;
        QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
        conf.setLocalCertificate(cert);
        conf.setPrivateKey(key);
        server->setSslConfiguration(conf);
        QVERIFY(server->listen(QHostAddress::LocalHost));
        const quint16 port = server->serverPort();
        std::atomic<int> served{0};
        QObject::connect(
            server, &QTcpServer::pendingConnectionAvailable, server, [server, &served] {
                while (QTcpSocket *s = server->nextPendingConnection()) {
                    auto *buf = new QByteArray;
                    QObject::connect(s, &QTcpSocket::readyRead, s, [s, buf, &served] {
                        buf->append(s->readAll());
                        while (true) {
                            const qsizetype end = buf->indexOf("\r\n\r\n");
                            const qsizetype cl = buf->toLower().indexOf("content-length:");
                            if (end < 0 || cl < 0)
                                return;
                            const int len = buf->mid(cl + 15, buf->indexOf('\r', cl) - cl - 15)
                                                .trimmed()
                                                .toInt();
                            if (buf->size() < end + 4 + len)
                                return;
                            buf->remove(0, end + 4 + len);
                            s->write(kSse);
                            ++served;
                        }
                    });
                    QObject::connect(s, &QTcpSocket::disconnected, s, [s, buf] {
                        delete buf;
                        s->deleteLater();
                    });
                }
            });
        server->moveToThread(&serverThread);
        serverThread.start();
        struct Stop // also when a check fails and returns early
        {
            QThread *thread;
            QSslServer *server;
            ~Stop()
            {
                QMetaObject::invokeMethod(
                    server, [s = server] { delete s; }, Qt::BlockingQueuedConnection);
                thread->quit();
                thread->wait();
            }
        } stop{&serverThread, server};

        SocketTransport t;
        if (trusted)
            t.addCaCertificates({cert});
        t.prepare(2);
        const QUrl url(u"https://127.0.0.1:%1/v1/completions"_s.arg(port));
        const auto records =
            runSequentially(t, {job(url, 0, 10'000'000'000), job(url, 1, 10'000'000'000)});
        QCOMPARE(records.size(), 2);
        for (const auto &r : records) {
            if (trusted) {
                QVERIFY2(r.ok(), qPrintable(r.errorMessage));
                QCOMPARE(r.chunkTimes.size(), 1);
            } else {
                QVERIFY2(r.error == ErrorClass::Connect, qPrintable(r.errorMessage));
            }
        }
        if (trusted) {
            QCOMPARE(served.load(), 2);
            // Connection phases: the first request opened the connection (TCP, then TLS), the
            // second reused it.
            const RequestRecord &a = records[0];
            QCOMPARE(a.connection, ConnectionUse::New);
            QVERIFY(a.tSend > 0 && a.tConnectStart >= a.tSend);
            QVERIFY(a.tConnected >= a.tConnectStart);
            QVERIFY(a.tTlsDone >= a.tConnected);
            QVERIFY(a.tRequestWritten >= a.tTlsDone);
            QVERIFY(a.tHeadReceived >= a.tRequestWritten);
            QVERIFY(a.tFirst >= a.tHeadReceived);
            const RequestRecord &b = records[1];
            QCOMPARE(b.connection, ConnectionUse::Reused);
            QCOMPARE(b.tConnectStart, 0);
            QCOMPARE(b.tTlsDone, 0);
            QVERIFY(b.tRequestWritten >= b.tSend && b.tHeadReceived >= b.tRequestWritten);

            // Warm: the TLS handshake happens in prewarm(), before the request.
            SocketTransport warm;
            warm.addCaCertificates({cert});
            warm.prepare(1);
            QString error;
            QVERIFY2(warm.prewarm(url, 1, monotonicNs() + 5'000'000'000, &error),
                     qPrintable(error));
            const auto warmRecords = runSequentially(warm, {job(url, 2, 10'000'000'000)});
            QCOMPARE(warmRecords.size(), 1);
            QVERIFY2(warmRecords[0].ok(), qPrintable(warmRecords[0].errorMessage));
            QCOMPARE(warmRecords[0].connection, ConnectionUse::Prewarmed);
            QCOMPARE(warmRecords[0].tTlsDone, 0);
            QCOMPARE(served.load(), 3);
        }
    }

    void prewarmReportsWhatItCouldNotOpen()
    {
        // Warm connections to a live server are opened and then used; to a port where nothing
        // listens, prewarm() reports what it could not open.
        ScriptServer server([](int, int) { return Reply{kSse}; });
        const QUrl url = server.url();
        SocketTransport t;
        t.prepare(3);
        QString error;
        QVERIFY(t.prewarm(url, 3, monotonicNs() + 5'000'000'000, &error));
        QTRY_COMPARE(server.connections(), 3);
        QCOMPARE(t.openConnections(), 3);
        QUrl refused(u"http://127.0.0.1:1/v1/completions"_s);
        QVERIFY(!t.prewarm(refused, 2, monotonicNs() + 5'000'000'000, &error));
        QVERIFY2(error.contains(u"opened 0 of 2"_s) && error.contains(u"refused"_s),
                 qPrintable(error));
        // The three warm connections carry the next three requests, no new one is opened.
        QList<RequestJob> jobs;
        for (int i = 0; i < 3; ++i)
            jobs.append(job(url, i));
        const auto records = runSequentially(t, jobs);
        QCOMPARE(records.size(), 3);
        QCOMPARE(records[0].connection, ConnectionUse::Prewarmed);
        QCOMPARE(server.connections(), 3);
    }
};

QTEST_GUILESS_MAIN(TestSocketTransport)
#include "tst_sockettransport.moc"
