// The socket transport's HTTP/1.1 response parser and chunked decoder, fed whole, byte by
// byte and cut at every offset.
#include "client/chunkeddecoder.h"
#include "client/httprequestwriter.h"
#include "client/httpresponseparser.h"

#include <QTest>
#include <QUrl>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

struct Collect
{
    int heads = 0;
    int status = 0;
    QByteArray body;
    void onHead(int s)
    {
        ++heads;
        status = s;
    }
    void onBody(const char *d, qsizetype n) { body.append(d, n); }
};

struct Outcome
{
    bool ok = true;
    bool done = false;
    bool keepAlive = false;
    int heads = 0;
    int status = 0;
    QByteArray body;
    qsizetype extra = 0;
};

Outcome feed(const QByteArray &wire, const QList<qsizetype> &cuts, bool eof)
{
    HttpResponseParser p;
    p.reset();
    Collect c;
    Outcome o;
    qsizetype from = 0;
    QList<qsizetype> all = cuts;
    all.append(wire.size());
    for (qsizetype cut : all) {
        if (!p.feed(wire.constData() + from, cut - from, c)) {
            o.ok = false;
            break;
        }
        from = cut;
    }
    if (o.ok && eof && !p.done())
        o.done = p.onEof();
    else
        o.done = p.done();
    o.keepAlive = p.keepAlive();
    o.heads = c.heads;
    o.status = c.status;
    o.body = c.body;
    o.extra = p.extraBytes();
    return o;
}

} // namespace

class TestHttpResponseParser : public QObject
{
    Q_OBJECT

private slots:
    void parses_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<bool>("eof"); // the peer closes after the bytes
        QTest::addColumn<bool>("ok");
        QTest::addColumn<bool>("done");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("keepAlive");

        QTest::newRow("chunked sse")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n"
                          "d\r\ndata: hello\n\n\r\n"
                          "E\r\ndata: [DONE]\n\n\r\n0\r\n\r\n")
            << false << true << true << 200 << QByteArray("data: hello\n\ndata: [DONE]\n\n")
            << true;
        QTest::newRow("chunk extension and trailer")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                          "3;name=value\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n")
            << false << true << true << 200 << QByteArray("abc") << true;
        QTest::newRow("content length")
            << QByteArray("HTTP/1.1 429 Too Many Requests\r\ncontent-length: 5\r\n\r\nhello")
            << false << true << true << 429 << QByteArray("hello") << true;
        QTest::newRow("content length zero")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") << false << true << true
            << 200 << QByteArray() << true;
        QTest::newRow("connection close")
            << QByteArray("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nhi")
            << false << true << true << 200 << QByteArray("hi") << false;
        QTest::newRow("until close")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: x\n\n")
            << true << true << true << 200 << QByteArray("data: x\n\n") << false;
        QTest::newRow("until close, cut short is still a clean end")
            << QByteArray("HTTP/1.1 200 OK\r\n\r\nda") << true << true << true << 200
            << QByteArray("da") << false;
        QTest::newRow("http 1.0 default close")
            << QByteArray("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx") << false << true << true
            << 200 << QByteArray("x") << false;
        QTest::newRow("http 1.0 keep-alive")
            << QByteArray("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\nx")
            << false << true << true << 200 << QByteArray("x") << true;
        QTest::newRow("100 continue first")
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: "
                          "2\r\n\r\nok")
            << false << true << true << 201 << QByteArray("ok") << true;
        QTest::newRow("bare LF head") << QByteArray("HTTP/1.1 200 OK\nContent-Length: 2\n\nok")
                                      << false << true << true << 200 << QByteArray("ok") << true;
        QTest::newRow("204 has no body") << QByteArray("HTTP/1.1 204 No Content\r\n\r\n") << false
                                         << true << true << 204 << QByteArray() << true;
        QTest::newRow("chunked cut by close")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab") << true
            << true << false << 200 << QByteArray("ab") << true;
        QTest::newRow("length cut by close")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nab") << true << true << false
            << 200 << QByteArray("ab") << true;
        QTest::newRow("garbage status line") << QByteArray("HTTP/2 200\r\n\r\n") << false << false
                                             << false << 0 << QByteArray() << true;
        QTest::newRow("bad chunk size")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") << false
            << false << false << 200 << QByteArray() << true;
        QTest::newRow("chunk without CRLF after data")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX") << false
            << false << false << 200 << QByteArray("ab") << true;
        QTest::newRow("conflicting lengths")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx")
            << false << false << false << 0 << QByteArray() << true;
    }
    void parses()
    {
        QFETCH(QByteArray, wire);
        QFETCH(bool, eof);
        QFETCH(bool, ok);
        QFETCH(bool, done);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(bool, keepAlive);
        // Whole, byte by byte, and cut once at every offset: the result never depends on reads.
        QList<QList<qsizetype>> splits = {{}};
        QList<qsizetype> bytewise;
        for (qsizetype i = 1; i < wire.size(); ++i) {
            bytewise.append(i);
            splits.append(QList<qsizetype>{i});
        }
        splits.append(bytewise);
        for (const auto &cuts : std::as_const(splits)) {
            const Outcome o = feed(wire, cuts, eof);
            const QByteArray where =
                "cuts " + QByteArray::number(cuts.size()) +
                (cuts.isEmpty() ? "" : " first " + QByteArray::number(cuts[0]));
            QVERIFY2(o.ok == ok, where.constData());
            QVERIFY2(o.done == done, where.constData());
            if (!ok)
                continue;
            QVERIFY2(o.status == status, where.constData());
            QVERIFY2(o.heads == 1, where.constData());
            QVERIFY2(o.body == body, where.constData());
            if (done)
                QVERIFY2(o.keepAlive == keepAlive, where.constData());
        }
    }

    void bytesAfterTheResponseAreCounted()
    {
        const QByteArray wire = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxJUNK";
        const Outcome o = feed(wire, {}, false);
        QVERIFY(o.done);
        QCOMPARE(o.extra, 4);
    }

    void resetAllowsTheNextResponse()
    {
        HttpResponseParser p;
        Collect c;
        const QByteArray one =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n";
        QVERIFY(p.feed(one.constData(), one.size(), c));
        QVERIFY(p.done());
        p.reset();
        const QByteArray two = "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 3\r\n\r\nbad";
        QVERIFY(p.feed(two.constData(), two.size(), c));
        QVERIFY(p.done());
        QCOMPARE(c.status, 500);
        QCOMPARE(c.body, QByteArray("abad"));
    }

    void headTooLargeFails()
    {
        HttpResponseParser p;
        Collect c;
        QByteArray wire = "HTTP/1.1 200 OK\r\nX: ";
        wire += QByteArray(70000, 'a');
        QVERIFY(!p.feed(wire.constData(), wire.size(), c));
        QVERIFY(p.failed());
    }

    void requestIsWellFormed()
    {
        const QByteArray req = serializeHttpRequest(
            QUrl(u"http://example.com:8000/v1/completions?x=1"_s),
            {{"Authorization", "Bearer k"}, {"content-length", "999"}, {"X-Request-Id", "r1"}},
            "{\"a\":1}");
        QVERIFY(req.startsWith("POST /v1/completions?x=1 HTTP/1.1\r\nHost: example.com:8000\r\n"));
        QVERIFY(req.contains("\r\nAuthorization: Bearer k\r\n"));
        QVERIFY(req.contains("\r\nX-Request-Id: r1\r\n"));
        QVERIFY(req.contains("\r\nAccept-Encoding: identity\r\n"));
        QVERIFY(req.contains("\r\nContent-Type: application/json\r\n"));
        QVERIFY(!req.contains("999")); // framing is the transport's, never the caller's
        QVERIFY(req.endsWith("\r\nContent-Length: 7\r\n\r\n{\"a\":1}"));
        QCOMPARE(hostPortKey(QUrl(u"https://h"_s)), QByteArray("h:443"));
        QCOMPARE(hostPortKey(QUrl(u"http://[::1]:9/x"_s)), QByteArray("[::1]:9"));
        const QByteArray v6 = serializeHttpRequest(QUrl(u"http://[::1]/"_s), {}, {});
        QVERIFY(v6.contains("\r\nHost: [::1]\r\n"));
    }
};

QTEST_GUILESS_MAIN(TestHttpResponseParser)
#include "tst_httpresponseparser.moc"
