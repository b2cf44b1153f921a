// The engine against a server that is not the project's own: FastAPI + uvicorn (the stack vLLM
// serves with), which logs its own write times on the same CLOCK_MONOTONIC. This proves the
// client against an independent HTTP stack, and the simulator's timing model against it.
#include "enginetestutil.h"

#include "common/clock.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <numeric>

using namespace Qt::StringLiterals;
using namespace sb;

class TestIndependentServer : public QObject
{
    Q_OBJECT
    QProcess m_server;
    QTemporaryDir m_dir;
    QString m_baseUrl;

    QString logPath() const { return m_dir.filePath(u"writes.jsonl"_s); }

    int m_itlMs = 0;

    // (Re)starts the server with this ITL; on failure the test has failed.
    void startServer(int itlMs)
    {
        stopServer();
        const QString python =
            QFile::exists(u"/usr/bin/python3"_s) ? u"/usr/bin/python3"_s : u"python3"_s;
        m_server.setProgram(python);
        m_server.setArguments({QString::fromUtf8(SB_FASTAPI_SERVER), u"--port"_s, u"0"_s,
                               u"--ttft-ms"_s, u"50"_s, u"--itl-ms"_s, QString::number(itlMs),
                               u"--log"_s, logPath()});
        m_server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_server.start();
        QVERIFY2(m_server.waitForStarted(10000), "python3 did not start");
        QByteArray line;
        const qint64 deadline = monotonicNs() + 30'000'000'000;
        while (!line.contains('\n') && monotonicNs() < deadline) {
            if (m_server.state() != QProcess::Running)
                QFAIL("the FastAPI server exited (are python3-fastapi and python3-uvicorn "
                      "installed? ./scripts/deps.sh installs them)");
            m_server.waitForReadyRead(200);
            line += m_server.readAllStandardOutput();
        }
        QVERIFY2(line.startsWith("LISTENING "), line.constData());
        const int port = line.mid(10).trimmed().toInt();
        QVERIFY(port > 0);
        m_baseUrl = u"http://127.0.0.1:%1"_s.arg(port);
        m_itlMs = itlMs;
    }

    void stopServer()
    {
        if (m_server.state() == QProcess::NotRunning)
            return;
        m_server.terminate();
        if (!m_server.waitForFinished(10000))
            m_server.kill();
        m_server.waitForFinished(2000);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        startServer(10);
    }

    void cleanupTestCase() { stopServer(); }

    void timingAgreesWithTheServersOwnTimestamps_data()
    {
        QTest::addColumn<int>("flavour");
        QTest::newRow("completions") << int(ApiFlavour::Completions);
        QTest::newRow("chat") << int(ApiFlavour::Chat);
    }
    // A first token stamped with a later read's time is late by one whole ITL whatever the ITL;
    // a late-running client (or Python's own queueing) by a delay that does not grow with it. So
    // every request's first token must be delivered within half an ITL, and if some are not,
    // the run is repeated with the ITL doubled (10, 20, 40, 80 ms): a stamping bug fails every
    // attempt. The TTFT difference's median, the delivery mean and the ITL difference depend on
    // this machine's load (5-15 ms medians with the cores busy): printed, not asserted.
    void timingAgreesWithTheServersOwnTimestamps()
    {
        QFETCH(int, flavour);
        QStringList attempts;
        bool onTime = false;
        for (const int itlMs : {10, 20, 40, 80}) {
            if (m_itlMs != itlMs) {
                startServer(itlMs);
                if (QTest::currentTestFailed())
                    return;
            }
            const double lateMs = itlMs / 2.0;
            int late = 0;
            double maxDelivery = 0;
            timingAttempt(flavour, lateMs, &late, &maxDelivery);
            if (QTest::currentTestFailed())
                return;
            attempts << u"ITL %1 ms: %2 of 40 first tokens %3 ms late or more (max %4 ms)"_s
                            .arg(itlMs)
                            .arg(late)
                            .arg(lateMs)
                            .arg(maxDelivery, 0, 'f', 1);
            if (late == 0) {
                onTime = true;
                break;
            }
        }
        QVERIFY2(onTime, qPrintable(u"first tokens stamped half an ITL late or more at every ITL "
                                    u"tried: "_s +
                                    attempts.join(u"; "_s)));
    }

private:
    void timingAttempt(int flavour, double lateMs, int *late, double *maxDelivery)
    {
        // The server keeps its log open: the file is never removed; request ids are unique per
        // run, so each row finds its own entries.
        RunPlan plan = test::makePlan(m_baseUrl, 40, 10);
        // One warm-up request per connection: connection set-up and the Python server's first
        // requests are not what this test measures.
        plan.profile.warmupRequests = 10;
        plan.sut.model = u"independent"_s;
        plan.sut.flavour = ApiFlavour(flavour);
        RunController c;
        c.configure(plan, test::makeItems(40, 20), {});
        QVERIFY(test::runToEnd(c, 120000));
        QCOMPARE(c.records().size(), 50);

        // The server appends its log line right after the last chunk; give it a moment.
        QHash<QString, QJsonObject> log;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                log.clear();
                QFile f(logPath());
                if (!f.open(QIODevice::ReadOnly))
                    return false;
                for (const QByteArray &l : f.readAll().split('\n')) {
                    const QJsonObject o = QJsonDocument::fromJson(l).object();
                    if (!o.isEmpty())
                        log.insert(o.value(u"request_id"_s).toString(), o);
                }
                for (const RequestRecord &r : c.records())
                    if (!log.contains(r.requestId))
                        return false;
                return true;
            }(),
            10000);

        // Per request: client TTFT (send → first token) minus the server's (handler start → first
        // write), and first-token delivery (received minus written).
        std::vector<double> ttftDiffs, deliveries;
        double sumClientItl = 0, sumServerItl = 0;
        qint64 nItl = 0;
        for (const RequestRecord &r : c.records()) {
            if (r.warmup)
                continue;
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
            const QJsonObject e = log.value(r.requestId);
            QVERIFY2(!e.isEmpty(), qPrintable(r.requestId));
            const QJsonArray writes = e.value(u"chunk_times_ns"_s).toArray();
            QCOMPARE(r.chunkTimes.size(), writes.size());
            QCOMPARE(r.outputTokens, 20);
            // From the moment uvicorn handed the request to the application (before routing).
            const qint64 serverTtft =
                writes.at(0).toInteger() - e.value(u"t_arrival_ns"_s).toInteger();
            ttftDiffs.push_back(nsToMs((r.tFirst - r.tSend) - serverTtft));
            deliveries.push_back(nsToMs(r.tFirst - writes.at(0).toInteger()));
            // The client can never see a request's first token sooner than the server took to
            // write it: every request, not on average.
            QVERIFY2(ttftDiffs.back() >= 0, qPrintable(r.requestId));
            // Stamped by the read that brought its bytes, every request: a first token stamped
            // with the next read's time is an ITL late.
            *late += deliveries.back() >= lateMs ? 1 : 0;
            *maxDelivery = std::max(*maxDelivery, deliveries.back());
            for (int k = 0; k < writes.size(); ++k)
                QVERIFY2(r.chunkTimes[k] >= writes.at(k).toInteger(),
                         "received before the server wrote it: not the same clock?");
            for (int k = 1; k < writes.size(); ++k) {
                sumClientItl += nsToMs(r.chunkTimes[k] - r.chunkTimes[k - 1]);
                sumServerItl += nsToMs(writes.at(k).toInteger() - writes.at(k - 1).toInteger());
                ++nItl;
            }
        }
        QCOMPARE(qsizetype(ttftDiffs.size()), 40);
        std::sort(ttftDiffs.begin(), ttftDiffs.end());
        const double ttftMedian = (ttftDiffs[19] + ttftDiffs[20]) / 2;
        const double deliveryMean =
            std::accumulate(deliveries.begin(), deliveries.end(), 0.0) / double(deliveries.size());
        const double itlDiff = (sumClientItl - sumServerItl) / double(nItl);
        qInfo("ITL %d ms: TTFT client - server: min %.3f median %.3f max %.3f ms; first-token "
              "delivery mean "
              "%.3f max %.3f ms; mean ITL client - server %.4f ms over %lld gaps",
              m_itlMs, ttftDiffs.front(), ttftMedian, ttftDiffs.back(), deliveryMean,
              *std::max_element(deliveries.begin(), deliveries.end()), itlDiff, nItl);
        // The TTFT difference is the client's send error plus the delivery plus Python's own
        // queueing between the request reaching the socket and uvicorn handing it over: 1-4 ms on
        // a quiet machine, 5-15 ms with the cores busy. Printed above; the client's send side to
        // the microsecond is checked against kernel arrival stamps in tst_pacedserver.
    }
};

QTEST_GUILESS_MAIN(TestIndependentServer)
#include "tst_independentserver.moc"
