// A request whose headers could smuggle a line into the request (CR, LF or NUL in a name or a
// value) is refused before anything is sent: by both transports (the record fails with class
// transport and the server receives no byte) and by the run controller (start() refuses the SUT).
#include "client/qnamtransport.h"
#include "client/sockettransport.h"
#include "data/dataset.h"
#include "run/runcontroller.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestRequestRefusal : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<sb::RequestRecord>(); }

    void transportsSendNothing_data()
    {
        QTest::addColumn<bool>("qnam");
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        for (bool qnam : {false, true}) {
            const char *t = qnam ? "qnam" : "socket";
            QTest::addRow("%s: CRLF in a value", t) << qnam << "X-A"_ba
                                                    << "a\r\nX-Injected: 1"_ba;
            QTest::addRow("%s: NUL in a value", t) << qnam << "X-A"_ba << QByteArray("a\0b", 3);
            QTest::addRow("%s: LF in a name", t) << qnam << "X-A\nX-Injected"_ba
                                                 << "1"_ba;
        }
    }
    void transportsSendNothing()
    {
        QFETCH(bool, qnam);
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        qint64 received = 0;
        int connections = 0;
        connect(&server, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket *s = server.nextPendingConnection()) {
                ++connections;
                connect(s, &QTcpSocket::readyRead, this,
                        [&received, s] { received += s->readAll().size(); });
            }
        });
        std::unique_ptr<Transport> t;
        if (qnam)
            t = std::make_unique<QnamTransport>();
        else
            t = std::make_unique<SocketTransport>();
        TransportOptions options;
        options.connectionMode = ConnectionMode::Lazy;
        t->setOptions(options);
        t->prepare(1);
        QSignalSpy spy(t.get(), &Transport::requestFinished);
        RequestJob job;
        job.url = QUrl(u"http://127.0.0.1:%1/v1/completions"_s.arg(server.serverPort()));
        job.body = "{}";
        job.headers = {{"Content-Type", "application/json"}, {name, value}};
        job.timeoutNs = 5'000'000'000;
        t->submit(job);
        // Not spy.wait(): the record may come before the wait begins (it is refused at once).
        QTRY_COMPARE_WITH_TIMEOUT(spy.size(), 1, 10000);
        const RequestRecord r = spy.at(0).at(0).value<RequestRecord>();
        QCOMPARE(errorClassName(r.error), "transport");
        QVERIFY2(r.errorMessage.startsWith(u"request not sent: "_s), qPrintable(r.errorMessage));
        QTest::qWait(200); // anything sent would have arrived by now
        QCOMPARE(received, 0);
        QCOMPARE(connections, 0);
    }

    void runControllerRefusesTheSut()
    {
        RunPlan plan;
        plan.sut.baseUrl = u"http://127.0.0.1:9"_s;
        plan.sut.extraHeaders = {{u"X-Tenant"_s, u"a\r\nX-Injected: 1"_s}};
        plan.profile.numPrompts = 1;
        PromptItem item;
        item.prompt = u"hi"_s;
        RunController c;
        c.configure(plan, {item}, {});
        QString error;
        QVERIFY(!c.start(&error));
        QVERIFY2(error.contains(u"X-Tenant"_s), qPrintable(error));
        QCOMPARE(c.status(), RunStatus::Idle);
    }
};

QTEST_GUILESS_MAIN(TestRequestRefusal)
#include "tst_requestrefusal.moc"
