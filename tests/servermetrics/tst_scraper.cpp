#include "common/clock.h"
#include "schedprobe.h"
#include "servermetrics/metricsscraper.h"
#include "servermetrics/seriescodec.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <atomic>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// A deliberately plain HTTP/1.1 server in a thread of its own (the scraper's start() blocks
// the test's thread until its first round is over). Each path is one behaviour.
class BehaviourServer : public QObject
{
public:
    QTcpServer *server = nullptr;
    std::atomic<int> okServed{0};
    QMutex mutex;
    QList<QByteArray> authHeaders; // guarded by mutex

    void listen()
    {
        server = new QTcpServer(this);
        server->listen(QHostAddress::LocalHost, 0);
        connect(server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = server->nextPendingConnection()) {
                s->setParent(this);
                auto *buffer = new QByteArray;
                connect(s, &QTcpSocket::readyRead, this, [this, s, buffer] {
                    buffer->append(s->readAll());
                    const qsizetype end = buffer->indexOf("\r\n\r\n");
                    if (end < 0)
                        return;
                    const QByteArray head = buffer->left(end);
                    buffer->clear();
                    respond(s, head);
                });
                connect(s, &QTcpSocket::disconnected, this, [s, buffer] {
                    delete buffer;
                    s->deleteLater();
                });
            }
        });
    }

    static QByteArray reply(const QByteArray &status, const QByteArray &type,
                            const QByteArray &body, const QByteArray &extra = {})
    {
        return "HTTP/1.1 " + status + "\r\nContent-Type: " + type +
               "\r\nContent-Length: " + QByteArray::number(body.size()) +
               "\r\nConnection: close\r\n" + extra + "\r\n" + body;
    }

    void send(QTcpSocket *s, const QByteArray &bytes)
    {
        s->write(bytes);
        s->disconnectFromHost();
    }

    void respond(QTcpSocket *s, const QByteArray &head)
    {
        const QList<QByteArray> lines = head.split('\n');
        const QByteArray path = lines.value(0).split(' ').value(1);
        QByteArray auth;
        for (const QByteArray &l : lines) {
            if (l.toLower().startsWith("authorization:"))
                auth = l.mid(14).trimmed();
        }
        if (path == "/ok" || path == "/metrics/") {
            const int n = ++okServed;
            send(s, reply("200 OK", "text/plain; version=0.0.4; charset=utf-8",
                          "# TYPE vllm:generation_tokens_total counter\n"
                          "vllm:generation_tokens_total{model_name=\"m\"} " +
                              QByteArray::number(10 * n) +
                              "\nvllm:num_requests_running{model_name=\"m\"} 3\n"));
        } else if (path == "/metrics") {
            // As prometheus_client's ASGI app mounted by vLLM answers.
            send(s, reply("307 Temporary Redirect", "text/plain", {}, "Location: /metrics/\r\n"));
        } else if (path == "/openmetrics") {
            send(s, reply("200 OK", "application/openmetrics-text; version=1.0.0; charset=utf-8",
                          "# TYPE g gauge\ng 1\n# EOF\n"));
        } else if (path == "/html") {
            send(s, reply("200 OK", "text/html; charset=utf-8",
                          "<!DOCTYPE html><html><body>Welcome</body></html>\n"));
        } else if (path == "/htmlplain") {
            send(s, reply("200 OK", "text/plain", "<!DOCTYPE html>\n<html>\n</html>\n"));
        } else if (path == "/empty") {
            send(s, reply("200 OK", "text/plain", {}));
        } else if (path == "/malformed") {
            send(s, reply("200 OK", "text/plain",
                          "good 1\nbad{a=\"x} 1\nalso_good{a=\"b\"} 2\nworse abc\n"));
        } else if (path == "/404") {
            send(s, reply("404 Not Found", "application/json", "{\"detail\":\"Not Found\"}"));
        } else if (path == "/big") {
            // Announces 100 MB and sends a little: the cap applies before reading.
            s->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
                     "104857600\r\nConnection: close\r\n\r\nx 1\n");
        } else if (path == "/bigchunked") {
            // No length: chunks of 16 KB until the client goes away.
            s->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: "
                     "chunked\r\nConnection: close\r\n\r\n");
            auto *timer = new QTimer(s);
            connect(timer, &QTimer::timeout, s, [s] {
                const QByteArray line = "padding_metric{k=\"" + QByteArray(40, 'x') + "\"} 1\n";
                QByteArray data;
                while (data.size() < 16384)
                    data += line;
                s->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
            });
            timer->start(1);
        } else if (path == "/slow") {
            QTimer::singleShot(1500, s,
                               [this, s] { send(s, reply("200 OK", "text/plain", "late 1\n")); });
        } else if (path == "/auth") {
            {
                QMutexLocker lock(&mutex);
                authHeaders.append(auth);
            }
            if (auth == "Bearer sekr1t-token")
                send(s, reply("200 OK", "text/plain", "secured 1\n"));
            else
                send(s, reply("401 Unauthorized", "text/plain", "who are you\n"));
        } else {
            send(s, reply("404 Not Found", "text/plain", "no\n"));
        }
    }
};

class ServerThread
{
public:
    ServerThread()
    {
        m_server = new BehaviourServer;
        m_server->moveToThread(&m_thread);
        m_thread.start();
        BehaviourServer *srv = m_server;
        QMetaObject::invokeMethod(
            srv, [srv] { srv->listen(); }, Qt::BlockingQueuedConnection);
        m_port = m_server->server->serverPort();
    }
    ~ServerThread()
    {
        BehaviourServer *srv = m_server;
        QMetaObject::invokeMethod(
            srv, [srv] { delete srv; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    QUrl url(const char *path) const
    {
        return QUrl(u"http://127.0.0.1:%1%2"_s.arg(m_port).arg(QLatin1StringView(path)));
    }
    BehaviourServer *server() const { return m_server; }

private:
    QThread m_thread;
    BehaviourServer *m_server;
    quint16 m_port = 0;
};

ScraperOptions fastOptions()
{
    ScraperOptions o;
    o.intervalMs = 200;
    o.timeoutMs = 150;
    o.maxPayloadBytes = 64 * 1024;
    return o;
}

quint16 closedPort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    const quint16 port = s.serverPort();
    s.close();
    return port;
}

} // namespace

class TestScraper : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void scrapesBeforeDuringAndAfter();
    void outcomes_data();
    void outcomes();
    void optionalTargetSwitchedOffWithNote();
    void bearerTokenSentNeverStored();
    void slowTargetDoesNotHoldBackOthers();
    void validation_data();
    void validation();

private:
    std::unique_ptr<ServerThread> m_srv;
};

void TestScraper::initTestCase()
{
    m_srv = std::make_unique<ServerThread>();
}

void TestScraper::scrapesBeforeDuringAndAfter()
{
    MetricsScraper scraper;
    scraper.setOptions(fastOptions());
    scraper.setTargets({{u"sut"_s, m_srv->url("/ok"), {}, false}});
    int signalled = 0;
    connect(&scraper, &MetricsScraper::scraped, this, [&signalled] { ++signalled; });
    const qint64 beforeStart = monotonicNs();
    QVERIFY(scraper.start());
    const qint64 afterStart = monotonicNs();
    // The first round is over when start() returns: the "before" scrape precedes the run.
    QCOMPARE(scraper.status(0).scrapes, 1);
    QVERIFY(scraper.status(0).available());
    // The owner's event loop runs: scraped() is delivered here. Until a periodic round came
    // (the cap only stops a scraper that never scrapes again; no count per time is asserted).
    QTRY_VERIFY_WITH_TIMEOUT(scraper.status(0).scrapes >= 2, 30000);
    const qint64 beforeStop = monotonicNs();
    scraper.stop();
    QVERIFY(!scraper.isRunning());
    const MetricSeriesStore store = scraper.store(0);
    const QList<ScrapeRecord> &scrapes = store.scrapes();
    // First + periodic + final.
    QVERIFY2(scrapes.size() >= 3, qPrintable(QString::number(scrapes.size())));
    QVERIFY(scrapes.first().tNs >= beforeStart && scrapes.first().tNs <= afterStart);
    QVERIFY(scrapes.last().tNs >= beforeStop); // the final round is sent after stop()
    for (qsizetype i = 0; i < scrapes.size(); ++i) {
        QVERIFY2(scrapes[i].ok(), qPrintable(scrapes[i].detail));
        QCOMPARE(scrapes[i].httpStatus, 200);
        QCOMPARE(scrapes[i].samples, 2);
        QVERIFY(scrapes[i].durationNs > 0);
        if (i > 0)
            QVERIFY(scrapes[i].tNs > scrapes[i - 1].tNs);
    }
    const MetricSeriesStore::Series *gen =
        store.find("vllm:generation_tokens_total{model_name=\"m\"}");
    QVERIFY(gen);
    QCOMPARE(gen->values.size(), scrapes.size());
    QCOMPARE(gen->tNs.first(), scrapes.first().tNs);
    for (qsizetype i = 1; i < gen->values.size(); ++i)
        QVERIFY(gen->values[i] > gen->values[i - 1]); // a fresh answer every time
    QCOMPARE(store.targetName(), u"sut"_s);
    QTRY_COMPARE(signalled, int(scrapes.size()));
}

void TestScraper::outcomes_data()
{
    QTest::addColumn<QString>("path"); // empty: a closed port
    QTest::addColumn<int>("outcome");
    QTest::addColumn<QString>("detail");
    QTest::addColumn<int>("samples");
    QTest::addColumn<int>("malformed");

    QTest::newRow("ok") << u"/ok"_s << int(ScrapeOutcome::Ok) << QString() << 2 << 0;
    QTest::newRow("redirect to /metrics/")
        << u"/metrics"_s << int(ScrapeOutcome::Ok) << QString() << 2 << 0;
    QTest::newRow("openmetrics") << u"/openmetrics"_s << int(ScrapeOutcome::Ok) << QString() << 1
                                 << 0;
    QTest::newRow("html") << u"/html"_s << int(ScrapeOutcome::NotPrometheus)
                          << u"not Prometheus text: the server answered text/html"_s << 0 << 0;
    QTest::newRow("html sent as text/plain")
        << u"/htmlplain"_s << int(ScrapeOutcome::NotPrometheus)
        << u"not Prometheus text: no line is a metric (line 1: invalid metric name"_s << 0 << 3;
    QTest::newRow("empty") << u"/empty"_s << int(ScrapeOutcome::NotPrometheus)
                           << u"not Prometheus text: empty body"_s << 0 << 0;
    QTest::newRow("malformed lines")
        << u"/malformed"_s << int(ScrapeOutcome::Ok)
        << u"2 malformed line(s) skipped: line 2: label 'a': quoted string is not terminated; "
           "line 4: invalid value 'abc' for 'worse'"_s
        << 2 << 2;
    QTest::newRow("404") << u"/404"_s << int(ScrapeOutcome::HttpStatus) << u"HTTP 404 Not Found"_s
                         << 0 << 0;
    QTest::newRow("content-length over the cap")
        << u"/big"_s << int(ScrapeOutcome::Oversize)
        << u"oversize: Content-Length 104857600 exceeds the 65536-byte cap"_s << 0 << 0;
    QTest::newRow("streamed past the cap")
        << u"/bigchunked"_s << int(ScrapeOutcome::Oversize)
        << u"oversize: the body passed the 65536-byte cap"_s << 0 << 0;
    QTest::newRow("slow") << u"/slow"_s << int(ScrapeOutcome::Timeout)
                          << u"timeout: no complete response within 150 ms"_s << 0 << 0;
    QTest::newRow("unreachable") << QString() << int(ScrapeOutcome::Unreachable)
                                 << u"unreachable: Connection refused"_s << 0 << 0;
}

void TestScraper::outcomes()
{
    QFETCH(QString, path);
    QFETCH(int, outcome);
    QFETCH(QString, detail);
    QFETCH(int, samples);
    QFETCH(int, malformed);
    const QUrl url = path.isEmpty() ? QUrl(u"http://127.0.0.1:%1/metrics"_s.arg(closedPort()))
                                    : m_srv->url(path.toLatin1().constData());
    MetricsScraper scraper;
    scraper.setOptions(fastOptions());
    scraper.setTargets({{u"t"_s, url, {}, false}});
    QElapsedTimer clock;
    sb::test::SchedProbe sched;
    clock.start();
    QVERIFY(scraper.start()); // a failing target never fails the start: the run goes on
    scraper.stop();
    const qint64 elapsed = clock.elapsed();
    sched.stop();
    // Bounded by the timeout, not by the slow server: a scraper that waited for its answer
    // would take its 1.5 s twice (the first and the final round). Two 150 ms timeouts take far
    // less even when this machine wakes threads late (the delay measured meanwhile is added).
    const double boundMs = 1500 + sched.maxMs();
    QVERIFY2(elapsed < boundMs,
             qPrintable(u"start + stop took %1 ms, bound %2 ms (longest wake-up delay measured "
                        "%3 ms)"_s.arg(elapsed)
                            .arg(boundMs)
                            .arg(sched.maxMs())));
    const MetricSeriesStore store = scraper.store(0);
    QVERIFY(store.scrapes().size() >= 2); // before and after
    for (const ScrapeRecord &r : store.scrapes()) {
        QCOMPARE(int(r.outcome), outcome);
        QVERIFY2(r.detail.startsWith(detail), qPrintable(r.detail));
        QCOMPARE(r.samples, samples);
        QCOMPARE(r.malformedLines, malformed);
        if (!r.ok())
            QVERIFY(!r.detail.isEmpty());
    }
    QCOMPARE(scraper.status(0).available(), outcome == int(ScrapeOutcome::Ok));
    if (outcome != int(ScrapeOutcome::Ok))
        QCOMPARE(store.pointCount(), 0);
}

void TestScraper::optionalTargetSwitchedOffWithNote()
{
    MetricsScraper scraper;
    scraper.setOptions(fastOptions());
    scraper.setTargets(
        {{u"sut"_s, m_srv->url("/404"), {}, true}, {u"dcgm"_s, m_srv->url("/ok"), {}, false}});
    QVERIFY(scraper.start());
    // Until the other target has had a periodic round besides the first.
    QTRY_VERIFY_WITH_TIMEOUT(scraper.status(1).scrapes >= 2, 30000);
    scraper.stop();
    QCOMPARE(scraper.notes(),
             QStringList{u"server metrics off for 'sut' (%1): HTTP 404 Not Found at the first "
                         "scrape"_s.arg(m_srv->url("/404").toString())});
    QCOMPARE(scraper.status(0).scrapes, 1); // never asked again, not even at stop()
    QVERIFY(!scraper.status(0).enabled);
    QVERIFY(scraper.status(1).scrapes >= 3);
    QVERIFY(scraper.status(1).available());
}

void TestScraper::bearerTokenSentNeverStored()
{
    MetricsScraper scraper;
    scraper.setOptions(fastOptions());
    const QUrl url = m_srv->url("/auth");
    scraper.setTargets({{u"secure"_s, url, {{"Authorization", "Bearer sekr1t-token"}}, false},
                        {u"anonymous"_s, url, {}, false}});
    QVERIFY(scraper.start());
    scraper.stop();
    QVERIFY(scraper.status(0).available());
    QCOMPARE(scraper.status(1).lastOutcome, ScrapeOutcome::HttpStatus);
    QCOMPARE(scraper.status(1).lastDetail, u"HTTP 401 Unauthorized"_s);
    {
        QMutexLocker lock(&m_srv->server()->mutex);
        QVERIFY(m_srv->server()->authHeaders.contains("Bearer sekr1t-token"));
    }
    const QByteArray blob = encodeSeriesStore(scraper.store(0));
    QVERIFY(!blob.contains("sekr1t"));
    QVERIFY(!blob.contains("Bearer"));
}

void TestScraper::slowTargetDoesNotHoldBackOthers()
{
    MetricsScraper scraper;
    scraper.setOptions(fastOptions());
    scraper.setTargets(
        {{u"slow"_s, m_srv->url("/slow"), {}, false}, {u"ok"_s, m_srv->url("/ok"), {}, false}});
    sb::test::SchedProbe sched;
    QVERIFY(scraper.start());
    // A few rounds (the cap only stops a scraper that never scrapes again).
    QTRY_VERIFY_WITH_TIMEOUT(scraper.status(1).scrapes >= 4, 30000);
    scraper.stop();
    sched.stop();
    const ScrapeTargetStatus slow = scraper.status(0), ok = scraper.status(1);
    QCOMPARE(slow.ok, 0);
    QCOMPARE(slow.lastOutcome, ScrapeOutcome::Timeout);
    QCOMPARE(ok.ok, ok.scrapes);
    // Not held back: in every round the healthy target's request went out before the slow
    // target's timed out (an order of events; a scraper that waits for one target before the
    // next sends the healthy one 150 ms later). The machine's measured wake-up delay is added.
    const QList<ScrapeRecord> slowScrapes = scraper.store(0).scrapes();
    const QList<ScrapeRecord> okScrapes = scraper.store(1).scrapes();
    const qint64 slackNs =
        qint64(fastOptions().timeoutMs) * 1'000'000 + qint64(sched.maxMs() * 1e6);
    const qsizetype rounds = std::min(slowScrapes.size(), okScrapes.size());
    QVERIFY(rounds >= 3);
    for (qsizetype i = 0; i < rounds; ++i)
        QVERIFY2(okScrapes[i].tNs < slowScrapes[i].tNs + slackNs,
                 qPrintable(u"round %1: healthy target sent %2 ms after the slow one (timeout "
                            "%3 ms, longest wake-up delay measured %4 ms)"_s.arg(i)
                                .arg((okScrapes[i].tNs - slowScrapes[i].tNs) / 1e6)
                                .arg(fastOptions().timeoutMs)
                                .arg(sched.maxMs())));
}

void TestScraper::validation_data()
{
    QTest::addColumn<int>("interval");
    QTest::addColumn<int>("timeout");
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("error");
    QTest::newRow("fine") << 500 << 300 << u"http://h:1/metrics"_s << QString();
    QTest::newRow("timeout = interval")
        << 500 << 500 << u"http://h:1/metrics"_s
        << u"scrape timeout (500 ms) must be positive and below the interval (500 ms)"_s;
    QTest::newRow("zero interval")
        << 0 << 300 << u"http://h:1/metrics"_s << u"scrape interval must be positive, got 0 ms"_s;
    QTest::newRow("not http") << 500 << 300 << u"ftp://h/metrics"_s
                              << u"metrics target 't': 'ftp://h/metrics' is not an http(s) URL"_s;
}

void TestScraper::validation()
{
    QFETCH(int, interval);
    QFETCH(int, timeout);
    QFETCH(QString, url);
    QFETCH(QString, error);
    MetricsScraper scraper;
    ScraperOptions o;
    o.intervalMs = interval;
    o.timeoutMs = timeout;
    scraper.setOptions(o);
    scraper.setTargets({{u"t"_s, QUrl(url), {}, false}});
    QString got;
    QCOMPARE(scraper.validate(&got), error.isEmpty());
    QCOMPARE(got, error);
    if (!error.isEmpty())
        QVERIFY(!scraper.start());
}

QTEST_GUILESS_MAIN(TestScraper)
#include "tst_scraper.moc"
