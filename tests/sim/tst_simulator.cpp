#include "../common/schedprobe.h"
#include "common/clock.h"
#include "sim/simconfig.h"
#include "sim/simrenderer.h"
#include "sim/simulator.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTest>
#include <memory>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// One HTTP response as read off the wire, with the chunked framing checked and removed.
struct Response
{
    int status = 0;
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;                       // de-chunked
    QList<QByteArray> chunks;              // payload of every HTTP chunk
    bool chunked = false;
    bool complete = false; // the body ended as HTTP says (terminating chunk or content-length)
    bool closed = false;   // the peer closed or reset the connection
    bool framingError = false;
};

struct SseEvent
{
    QByteArray data;
    QJsonObject json;
    bool validJson = false;
    bool done = false;
};

QList<SseEvent> sseEvents(const QByteArray &body)
{
    QList<SseEvent> events;
    const QList<QByteArray> blocks = body.split('\n');
    QByteArray data;
    auto flush = [&] {
        if (data.isNull())
            return;
        SseEvent e;
        e.data = data;
        e.done = data == "[DONE]";
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(data, &err);
        e.validJson = err.error == QJsonParseError::NoError && doc.isObject();
        e.json = doc.object();
        events.append(e);
        data = QByteArray();
    };
    for (const QByteArray &line : blocks) {
        if (line.isEmpty()) {
            flush();
        } else if (line.startsWith("data: ")) {
            data = line.mid(6);
        }
    }
    flush();
    return events;
}

// A deliberately plain blocking HTTP/1.1 client, so the test checks the simulator's bytes rather
// than what Qt's network stack makes of them.
class RawClient
{
public:
    bool connectTo(quint16 port)
    {
        m_socket.connectToHost(u"127.0.0.1"_s, port);
        return m_socket.waitForConnected(5000);
    }
    QTcpSocket &socket() { return m_socket; }

    void send(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
        m_socket.waitForBytesWritten(1000);
    }

    static QByteArray request(const QByteArray &method, const QByteArray &path,
                              const QByteArray &body, const QList<QByteArray> &headers = {})
    {
        QByteArray r = method + ' ' + path + " HTTP/1.1\r\nhost: 127.0.0.1\r\n";
        for (const QByteArray &h : headers)
            r += h + "\r\n";
        if (!body.isNull())
            r += "content-type: application/json\r\ncontent-length: " +
                 QByteArray::number(body.size()) + "\r\n";
        return r + "\r\n" + body;
    }

    Response post(const QByteArray &path, const QJsonObject &body,
                  const QList<QByteArray> &headers = {}, int timeoutMs = 10000)
    {
        send(request("POST", path, QJsonDocument(body).toJson(QJsonDocument::Compact), headers));
        return read(timeoutMs);
    }

    // Reads one response; stops at its end, at close, or after timeoutMs.
    Response read(int timeoutMs = 10000)
    {
        Response r;
        QElapsedTimer timer;
        timer.start();
        enum { Head, Body } state = Head;
        qsizetype contentLength = -1;
        for (;;) {
            if (state == Head) {
                const qsizetype end = m_buffer.indexOf("\r\n\r\n");
                if (end >= 0) {
                    const QList<QByteArray> lines = m_buffer.left(end).split('\n');
                    m_buffer.remove(0, end + 4);
                    const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
                    r.status = statusLine.value(1).toInt();
                    for (qsizetype i = 1; i < lines.size(); ++i) {
                        const qsizetype colon = lines[i].indexOf(':');
                        if (colon > 0)
                            r.headers.insert(lines[i].left(colon).trimmed().toLower(),
                                             lines[i].mid(colon + 1).trimmed());
                    }
                    if (r.status == 100) { // interim response: the real one follows
                        r = Response();
                        continue;
                    }
                    r.chunked = r.headers.value("transfer-encoding") == "chunked";
                    contentLength = r.headers.value("content-length", "-1").toLongLong();
                    state = Body;
                    continue;
                }
            } else if (r.chunked) {
                const qsizetype eol = m_buffer.indexOf("\r\n");
                if (eol >= 0) {
                    bool ok = false;
                    const qsizetype size = m_buffer.left(eol).toLongLong(&ok, 16);
                    if (!ok) {
                        r.framingError = true;
                        return r;
                    }
                    if (m_buffer.size() >= eol + 2 + size + 2) {
                        if (m_buffer.mid(eol + 2 + size, 2) != "\r\n") {
                            r.framingError = true;
                            return r;
                        }
                        const QByteArray payload = m_buffer.mid(eol + 2, size);
                        m_buffer.remove(0, eol + 2 + size + 2);
                        if (size == 0) {
                            r.complete = true;
                            return r;
                        }
                        r.chunks.append(payload);
                        r.body += payload;
                        continue;
                    }
                }
            } else if (contentLength >= 0 && m_buffer.size() >= contentLength) {
                r.body = m_buffer.left(contentLength);
                m_buffer.remove(0, contentLength);
                r.complete = true;
                return r;
            }
            const qint64 left = timeoutMs - timer.elapsed();
            if (left <= 0)
                return r;
            if (!m_socket.waitForReadyRead(int(left))) {
                m_buffer += m_socket.readAll();
                if (m_socket.state() != QAbstractSocket::ConnectedState) {
                    r.closed = true;
                    if (state == Body && !r.chunked && contentLength < 0) {
                        r.body = m_buffer;
                        r.complete = true;
                    }
                    return r;
                }
                continue;
            }
            m_buffer += m_socket.readAll();
        }
    }

    // True when the peer closes within timeoutMs (reading and discarding anything it sends).
    bool waitForClose(int timeoutMs)
    {
        QElapsedTimer t;
        t.start();
        while (m_socket.state() == QAbstractSocket::ConnectedState && t.elapsed() < timeoutMs) {
            m_socket.waitForReadyRead(int(qMax<qint64>(1, timeoutMs - t.elapsed())));
            m_buffer += m_socket.readAll();
        }
        return m_socket.state() != QAbstractSocket::ConnectedState;
    }

private:
    QTcpSocket m_socket;
    QByteArray m_buffer;
};

QJsonObject completionBody(int maxTokens, const QString &prompt = u"one two three four"_s,
                           bool stream = true, bool usage = true)
{
    QJsonObject o{{"model"_L1, "m"_L1},
                  {"prompt"_L1, prompt},
                  {"max_tokens"_L1, maxTokens},
                  {"stream"_L1, stream},
                  {"ignore_eos"_L1, true}};
    if (usage)
        o.insert("stream_options"_L1, QJsonObject{{"include_usage"_L1, true}});
    return o;
}

QJsonObject chatBody(int maxTokens, const QString &content = u"hello there simulator"_s)
{
    return QJsonObject{
        {"model"_L1, "m"_L1},
        {"messages"_L1,
         QJsonArray{QJsonObject{{"role"_L1, "system"_L1}, {"content"_L1, "be brief"_L1}},
                    QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, content}}}},
        {"max_completion_tokens"_L1, maxTokens},
        {"max_tokens"_L1, maxTokens},
        {"stream"_L1, true},
        {"stream_options"_L1, QJsonObject{{"include_usage"_L1, true}}}};
}

// Token chunks: events with non-empty choices carrying text (completions) or delta.content (chat).
struct TokenStats
{
    int tokenChunks = 0;
    int words = 0;
    QString text;
    int lengthFinishes = 0;
    bool finishOnLastOnly = true;
    int usageChunks = 0;
    QJsonObject usage;
    bool roleFirst = false;
    int invalidJson = 0;
    int errorEvents = 0;
    bool doneLast = false;
};

TokenStats analyse(const QList<SseEvent> &events, bool chat)
{
    TokenStats s;
    for (qsizetype i = 0; i < events.size(); ++i) {
        const SseEvent &e = events[i];
        if (e.done) {
            s.doneLast = i == events.size() - 1;
            continue;
        }
        if (!e.validJson) {
            ++s.invalidJson;
            continue;
        }
        if (e.json.contains("error"_L1)) {
            ++s.errorEvents;
            continue;
        }
        const QJsonArray choices = e.json.value("choices"_L1).toArray();
        if (choices.isEmpty()) {
            ++s.usageChunks;
            s.usage = e.json.value("usage"_L1).toObject();
            continue;
        }
        const QJsonObject c = choices.first().toObject();
        QString piece;
        if (chat) {
            const QJsonObject delta = c.value("delta"_L1).toObject();
            if (i == 0 && delta.value("role"_L1).toString() == "assistant"_L1 &&
                delta.value("content"_L1).toString().isEmpty()) {
                s.roleFirst = true;
                continue;
            }
            piece = delta.value("content"_L1).toString();
        } else {
            piece = c.value("text"_L1).toString();
        }
        ++s.tokenChunks;
        s.text += piece;
        if (c.value("finish_reason"_L1).toString() == "length"_L1)
            ++s.lengthFinishes;
        else if (!c.value("finish_reason"_L1).isNull())
            s.finishOnLastOnly = false;
    }
    s.words = SimRenderer::countTokens(s.text);
    return s;
}

// "stem0 stem1 ... stem{n-1}": n distinct words (n simulator tokens).
QString numberedWords(const QString &stem, int n)
{
    QStringList w;
    for (int i = 0; i < n; ++i)
        w << stem + QString::number(i);
    return w.join(u' ');
}

SimConfig fastConfig()
{
    SimConfig c;
    c.ttftMs = 5;
    c.itlMs = 2;
    c.modelName = u"sim-model"_s;
    return c;
}

} // namespace

class TestSimulator : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<Simulator> m_sim;

    void startSim(const SimConfig &c)
    {
        m_sim = std::make_unique<Simulator>(c);
        QVERIFY2(m_sim->start(), qPrintable(m_sim->errorString()));
        QVERIFY(m_sim->port() != 0);
    }

private slots:
    void cleanup() { m_sim.reset(); }

    void startStop()
    {
        Simulator sim(fastConfig());
        QVERIFY(!sim.isRunning());
        QVERIFY(sim.start());
        QVERIFY(sim.isRunning());
        const quint16 port = sim.port();
        QVERIFY(port != 0);
        QCOMPARE(sim.baseUrl().toString(), u"http://127.0.0.1:%1"_s.arg(port));
        sim.stop();
        QVERIFY(!sim.isRunning());
        RawClient c;
        QVERIFY(!c.connectTo(port)); // nothing listens any more

        SimConfig bad = fastConfig();
        bad.host = u"not an address"_s;
        Simulator broken(bad);
        QVERIFY(!broken.start());
        QVERIFY(broken.errorString().contains("not an address"_L1));
    }

    void models()
    {
        startSim(fastConfig());
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        c.send(RawClient::request("GET", "/v1/models", {}));
        const Response r = c.read();
        QCOMPARE(r.status, 200);
        QVERIFY(r.complete);
        const QJsonObject o = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(o.value("object"_L1).toString(), u"list"_s);
        QCOMPARE(o.value("data"_L1).toArray().first().toObject().value("id"_L1).toString(),
                 u"sim-model"_s);
    }

    void tokenize()
    {
        startSim(fastConfig());
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        const Response r =
            c.post("/tokenize", QJsonObject{{"prompt"_L1, "  alpha beta\tgamma\n delta "_L1}});
        QCOMPARE(r.status, 200);
        const QJsonObject o = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(o.value("count"_L1).toInt(), 4);
        QCOMPARE(o.value("tokens"_L1).toArray().size(), 4);
        QCOMPARE(o.value("max_model_len"_L1).toInt(), fastConfig().maxModelLen);
    }

    void stream_data()
    {
        QTest::addColumn<bool>("chat");
        QTest::addColumn<int>("maxTokens");
        QTest::addColumn<int>("tokensPerChunk");
        QTest::addColumn<bool>("includeUsage");
        QTest::addColumn<bool>("continuousUsage");
        QTest::addColumn<bool>("unpaced");
        QTest::newRow("completions") << false << 12 << 1 << true << false << false;
        QTest::newRow("completions-no-usage") << false << 7 << 1 << false << false << false;
        QTest::newRow("completions-one-token") << false << 1 << 1 << true << false << false;
        QTest::newRow("completions-spec-k3") << false << 10 << 3 << true << false << false;
        QTest::newRow("completions-continuous") << false << 5 << 1 << true << true << false;
        QTest::newRow("chat") << true << 12 << 1 << true << false << false;
        QTest::newRow("chat-spec-k4") << true << 9 << 4 << true << false << false;
        QTest::newRow("chat-continuous") << true << 4 << 1 << true << true << false;
        QTest::newRow("completions-unpaced") << false << 50 << 1 << true << false << true;
        QTest::newRow("chat-unpaced") << true << 20 << 2 << true << false << true;
    }

    void stream()
    {
        QFETCH(bool, chat);
        QFETCH(int, maxTokens);
        QFETCH(int, tokensPerChunk);
        QFETCH(bool, includeUsage);
        QFETCH(bool, continuousUsage);
        QFETCH(bool, unpaced);
        SimConfig cfg = fastConfig();
        cfg.tokensPerChunk = tokensPerChunk;
        cfg.unpaced = unpaced;
        startSim(cfg);

        QJsonObject body = chat ? chatBody(maxTokens) : completionBody(maxTokens);
        QJsonObject so;
        if (includeUsage)
            so.insert("include_usage"_L1, true);
        if (continuousUsage)
            so.insert("continuous_usage_stats"_L1, true);
        body.insert("stream_options"_L1, so);
        const int promptTokens = chat ? 5 : 4; // "be brief" + "hello there simulator"

        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        const QByteArray path = chat ? "/v1/chat/completions" : "/v1/completions";
        const Response r = c.post(path, body, {"x-request-id: req-42"});
        QCOMPARE(r.status, 200);
        QVERIFY(r.chunked);
        QVERIFY(!r.framingError);
        QVERIFY(r.complete);
        QVERIFY(r.headers.value("content-type").startsWith("text/event-stream"));
        QCOMPARE(r.headers.value("x-request-id"), QByteArray("req-42"));
        // Every HTTP chunk holds whole SSE events: no event is split across chunks.
        for (const QByteArray &chunk : r.chunks) {
            QVERIFY2(chunk.startsWith("data: "), chunk.constData());
            QVERIFY2(chunk.endsWith("\n\n"), chunk.constData());
        }

        const QList<SseEvent> events = sseEvents(r.body);
        const TokenStats s = analyse(events, chat);
        const int expectedChunks = (maxTokens + tokensPerChunk - 1) / tokensPerChunk;
        QCOMPARE(s.invalidJson, 0);
        QCOMPARE(s.errorEvents, 0);
        QCOMPARE(s.roleFirst, chat);
        QCOMPARE(s.tokenChunks, expectedChunks);
        QCOMPARE(s.words, maxTokens);
        QCOMPARE(s.lengthFinishes, 1);
        QVERIFY(s.finishOnLastOnly);
        QVERIFY(s.doneLast);
        QCOMPARE(s.usageChunks, includeUsage ? 1 : 0);
        if (includeUsage) {
            QCOMPARE(s.usage.value("prompt_tokens"_L1).toInt(), promptTokens);
            QCOMPARE(s.usage.value("completion_tokens"_L1).toInt(), maxTokens);
            QCOMPARE(s.usage.value("total_tokens"_L1).toInt(), promptTokens + maxTokens);
        }
        // Check the shape of a token chunk against vLLM's.
        const QJsonObject first = events.value(chat ? 1 : 0).json;
        QCOMPARE(first.value("object"_L1).toString(),
                 chat ? u"chat.completion.chunk"_s : u"text_completion"_s);
        QCOMPARE(first.value("model"_L1).toString(), u"m"_s);
        QVERIFY(first.value("id"_L1).toString().startsWith(chat ? "chatcmpl-"_L1 : "cmpl-"_L1));
        QVERIFY(first.value("created"_L1).toInteger() > 1600000000);
        const QJsonObject choice = first.value("choices"_L1).toArray().first().toObject();
        QCOMPARE(choice.value("index"_L1).toInt(), 0);
        QVERIFY(choice.contains("logprobs"_L1) && choice.value("logprobs"_L1).isNull());
        if (continuousUsage) {
            int expectedRunning = 0;
            for (const SseEvent &e : events) {
                if (e.done)
                    continue;
                const QJsonArray choices = e.json.value("choices"_L1).toArray();
                QVERIFY2(e.json.value("usage"_L1).isObject(), e.data.constData());
                const QJsonObject u = e.json.value("usage"_L1).toObject();
                if (!choices.isEmpty() && !(chat && &e == &events.first()))
                    expectedRunning = qMin(maxTokens, expectedRunning + tokensPerChunk);
                QCOMPARE(u.value("completion_tokens"_L1).toInt(), expectedRunning);
            }
        } else {
            QVERIFY(!first.contains("usage"_L1));
        }

        QVERIFY(m_sim->waitForLogEntries(1, 5000));
        const QList<SimLogEntry> log = m_sim->requestLog();
        QCOMPARE(log.size(), 1);
        const SimLogEntry &e = log.first();
        QCOMPARE(e.requestId, u"req-42"_s);
        QCOMPARE(e.path, QString::fromLatin1(path));
        QCOMPARE(e.httpStatus, 200);
        QVERIFY(e.stream);
        QCOMPARE(e.fault, SimFault::None);
        QCOMPARE(e.promptTokens, promptTokens);
        QCOMPARE(e.maxTokens, maxTokens);
        QCOMPARE(e.completionTokens, maxTokens);
        QCOMPARE(e.chunkWriteNs.size(), expectedChunks);
        QCOMPARE(e.chunkTokens.size(), expectedChunks);
        int sum = 0;
        for (int t : e.chunkTokens)
            sum += t;
        QCOMPARE(sum, maxTokens);
        QVERIFY(e.prompt.contains(chat ? "hello there simulator"_L1 : "one two three four"_L1));
        QVERIFY(e.tAccept > 0 && e.tAccept <= e.tAdmit && e.tAdmit <= e.tFirstWrite &&
                e.tFirstWrite <= e.tEnd);
        QCOMPARE(e.tFirstWrite, e.chunkWriteNs.first());
        for (qsizetype i = 1; i < e.chunkWriteNs.size(); ++i)
            QVERIFY(e.chunkWriteNs[i] >= e.chunkWriteNs[i - 1]);
        if (unpaced)
            QCOMPARE(e.chunkWriteNs.last(), e.chunkWriteNs.first());
        else
            QVERIFY(e.tFirstWrite - e.tAdmit >= qint64(cfg.ttftMs * 1e6) - 100'000);
        QVERIFY(e.tEnd <= monotonicNs()); // the same clock as the client's
    }

    void nonStreamed_data()
    {
        QTest::addColumn<bool>("chat");
        QTest::newRow("completions") << false;
        QTest::newRow("chat") << true;
    }

    void nonStreamed()
    {
        QFETCH(bool, chat);
        startSim(fastConfig());
        QJsonObject body = chat ? chatBody(6) : completionBody(6);
        body.remove("stream"_L1);
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        const Response r = c.post(chat ? "/v1/chat/completions" : "/v1/completions", body);
        QCOMPARE(r.status, 200);
        QVERIFY(!r.chunked);
        QVERIFY(r.complete);
        const QJsonObject o = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(o.value("object"_L1).toString(),
                 chat ? u"chat.completion"_s : u"text_completion"_s);
        const QJsonObject choice = o.value("choices"_L1).toArray().first().toObject();
        const QString text =
            chat ? choice.value("message"_L1).toObject().value("content"_L1).toString()
                 : choice.value("text"_L1).toString();
        QCOMPARE(SimRenderer::countTokens(text), 6);
        QCOMPARE(choice.value("finish_reason"_L1).toString(), u"length"_s);
        QCOMPARE(o.value("usage"_L1).toObject().value("completion_tokens"_L1).toInt(), 6);
    }

    void defaultMaxTokensAndUtf8()
    {
        SimConfig cfg = fastConfig();
        cfg.defaultMaxTokens = 60;
        cfg.itlMs = 0.2;
        startSim(cfg);
        QJsonObject body = completionBody(1);
        body.remove("max_tokens"_L1);
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        const Response r = c.post("/v1/completions", body);
        QCOMPARE(r.status, 200);
        const TokenStats s = analyse(sseEvents(r.body), false);
        QCOMPARE(s.words, 60);
        // Multi-byte words appear, and the text survives a UTF-8 round trip.
        bool nonAscii = false;
        for (const QChar ch : s.text)
            nonAscii = nonAscii || ch.unicode() > 127;
        QVERIFY(nonAscii);
        QVERIFY(!s.text.contains(QChar::ReplacementCharacter));
    }

    void keepAliveAndPipelining()
    {
        startSim(fastConfig());
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        // Two requests, one after the other, on one connection.
        const Response a = c.post("/v1/completions", completionBody(3), {"x-request-id: a"});
        const Response b = c.post("/v1/chat/completions", chatBody(3), {"x-request-id: b"});
        QVERIFY(a.complete && b.complete);
        QCOMPARE(a.status, 200);
        QCOMPARE(b.status, 200);
        QCOMPARE(analyse(sseEvents(b.body), true).words, 3);

        // Two pipelined requests in one write, the second one split across writes.
        const QByteArray r1 =
            RawClient::request("POST", "/v1/completions", QJsonDocument(completionBody(2)).toJson(),
                               {"x-request-id: p1"});
        const QByteArray r2 =
            RawClient::request("POST", "/v1/completions", QJsonDocument(completionBody(4)).toJson(),
                               {"x-request-id: p2"});
        c.send(r1 + r2.left(10));
        QTest::qWait(20);
        c.send(r2.mid(10, 30));
        QTest::qWait(20);
        c.send(r2.mid(40));
        const Response p1 = c.read();
        const Response p2 = c.read();
        QVERIFY(p1.complete && p2.complete);
        QCOMPARE(p1.headers.value("x-request-id"), QByteArray("p1"));
        QCOMPARE(p2.headers.value("x-request-id"), QByteArray("p2"));
        QCOMPARE(analyse(sseEvents(p1.body), false).words, 2);
        QCOMPARE(analyse(sseEvents(p2.body), false).words, 4);

        QVERIFY(m_sim->waitForLogEntries(4, 5000));
        const QList<SimLogEntry> log = m_sim->requestLog();
        QCOMPARE(log.size(), 4);
        for (const SimLogEntry &e : log)
            QCOMPARE(e.connectionId, log.first().connectionId);
        QCOMPARE(m_sim->counters().totalConnections, quint64(1));
        QCOMPARE(m_sim->counters().totalRequests, quint64(4));

        // Connection: close is honoured.
        c.send(RawClient::request("GET", "/v1/models", {}, {"connection: close"}));
        const Response last = c.read();
        QCOMPARE(last.status, 200);
        QVERIFY(c.waitForClose(5000));
    }

    void httpErrors_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<int>("status");
        const QByteArray okBody = QJsonDocument(completionBody(2)).toJson();
        QTest::newRow("unknown path") << RawClient::request("GET", "/v2/nothing", {}) << 404;
        QTest::newRow("GET completions") << RawClient::request("GET", "/v1/completions", {}) << 405;
        QTest::newRow("POST models")
            << RawClient::request("POST", "/v1/models", QByteArray("{}")) << 405;
        QTest::newRow("bad json") << RawClient::request("POST", "/v1/completions",
                                                        QByteArray("{\"prompt\": "))
                                  << 400;
        QTest::newRow("no body") << RawClient::request("POST", "/v1/chat/completions", {}) << 400;
        QTest::newRow("no prompt")
            << RawClient::request("POST", "/v1/completions", QByteArray("{\"max_tokens\":3}"))
            << 400;
        QTest::newRow("no messages")
            << RawClient::request("POST", "/v1/chat/completions", QByteArray("{\"messages\":[]}"))
            << 400;
        QTest::newRow("bad max_tokens")
            << RawClient::request("POST", "/v1/completions",
                                  QByteArray("{\"prompt\":\"x\",\"max_tokens\":-1}"))
            << 400;
        QTest::newRow("too long") << RawClient::request(
                                         "POST", "/v1/completions",
                                         QByteArray("{\"prompt\":\"x\",\"max_tokens\":40000}"))
                                  << 400;
        QTest::newRow("unknown fault")
            << RawClient::request("POST", "/v1/completions", okBody, {"x-sim-fault: gremlins"})
            << 400;
    }

    void httpErrors()
    {
        QFETCH(QByteArray, raw);
        QFETCH(int, status);
        startSim(fastConfig());
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        c.send(raw);
        const Response r = c.read();
        QCOMPARE(r.status, status);
        QVERIFY(r.complete);
        QVERIFY(QJsonDocument::fromJson(r.body).object().value("error"_L1).isObject());
        if (status == 405)
            QVERIFY(!r.headers.value("allow").isEmpty());
        // The connection survives an error answer.
        const Response ok = c.post("/v1/completions", completionBody(2));
        QCOMPARE(ok.status, 200);
        QVERIFY(ok.complete);
        QVERIFY(m_sim->waitForLogEntries(2, 5000));
        QCOMPARE(m_sim->requestLog().first().httpStatus, status);
    }

    void faults_data()
    {
        QTest::addColumn<QByteArray>("kind");
        QTest::addColumn<bool>("chat");
        QTest::newRow("http429") << QByteArray("http429") << false;
        QTest::newRow("http500") << QByteArray("http500") << true;
        QTest::newRow("reset") << QByteArray("reset") << false;
        QTest::newRow("reset-chat") << QByteArray("reset") << true;
        QTest::newRow("malformed") << QByteArray("malformed") << false;
        QTest::newRow("error-event") << QByteArray("error-event") << false;
        QTest::newRow("error-event-chat") << QByteArray("error-event") << true;
        QTest::newRow("stall") << QByteArray("stall") << false;
    }

    void faults()
    {
        QFETCH(QByteArray, kind);
        QFETCH(bool, chat);
        SimConfig cfg = fastConfig();
        cfg.itlMs = 5;
        startSim(cfg);
        const int maxTokens = 10; // mid-stream faults strike after 5 tokens
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        const QByteArray path = chat ? "/v1/chat/completions" : "/v1/completions";
        const QJsonObject body = chat ? chatBody(maxTokens) : completionBody(maxTokens);
        const int timeout = kind == "stall" ? 400 : 10000;
        const Response r = c.post(path, body, {"x-sim-fault: " + kind, "x-request-id: f"}, timeout);
        const TokenStats s = analyse(sseEvents(r.body), chat);

        QVERIFY(m_sim->waitForLogEntries(1, 5000));
        const SimLogEntry e = m_sim->requestLog().first();
        QCOMPARE(QByteArray(simFaultName(e.fault)), kind);
        QCOMPARE(e.faultName(), QString::fromLatin1(kind));
        QCOMPARE(e.requestId, u"f"_s);

        if (kind == "http429" || kind == "http500") {
            const int status = kind == "http429" ? 429 : 500;
            QCOMPARE(r.status, status);
            QCOMPARE(e.httpStatus, status);
            QVERIFY(r.complete);
            QVERIFY(QJsonDocument::fromJson(r.body).object().value("error"_L1).isObject());
            QVERIFY(e.chunkWriteNs.isEmpty());
            // The connection stays usable.
            QCOMPARE(c.post(path, body).status, 200);
        } else if (kind == "reset") {
            QCOMPARE(r.status, 200);
            QVERIFY(r.closed);
            QVERIFY(!r.complete);
            QVERIFY(!s.doneLast);
            QCOMPARE(s.words, maxTokens / 2);
            QCOMPARE(e.completionTokens, maxTokens / 2);
            QTRY_COMPARE(m_sim->openConnections(), 0);
        } else if (kind == "malformed") {
            QCOMPARE(r.status, 200);
            QVERIFY(r.complete);
            QCOMPARE(s.invalidJson, 1);
            QVERIFY(s.doneLast);
            QCOMPARE(s.words, maxTokens);
        } else if (kind == "error-event") {
            QCOMPARE(r.status, 200);
            QVERIFY(r.complete);
            QCOMPARE(s.errorEvents, 1);
            QCOMPARE(s.words, maxTokens / 2);
            QCOMPARE(s.lengthFinishes, 0);
            QCOMPARE(s.usageChunks, 0);
            // The error comes after the tokens, as vLLM sends it.
            const QList<SseEvent> events = sseEvents(r.body);
            QVERIFY(events.size() >= 2);
            QVERIFY(
                events[events.size() - 2].json.value("error"_L1).toObject().contains("message"_L1));
            QVERIFY(s.doneLast);
        } else if (kind == "stall") {
            QCOMPARE(r.status, 200);
            QVERIFY(!r.complete);
            QVERIFY(!r.closed); // still open after 80 ITLs of silence
            QCOMPARE(s.words, maxTokens / 2);
            QCOMPARE(c.socket().state(), QAbstractSocket::ConnectedState);
            QCOMPARE(m_sim->openConnections(), 1);
            QCOMPARE(m_sim->activeStreams(), 0); // a stalled stream gives its capacity slot back
            c.socket().abort();
            QTRY_COMPARE(m_sim->openConnections(), 0);
        }
    }

    void faultAfterHeader()
    {
        startSim(fastConfig());
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        const Response r = c.post("/v1/completions", completionBody(10),
                                  {"x-sim-fault: error-event", "x-sim-fault-after: 8"});
        QCOMPARE(analyse(sseEvents(r.body), false).words, 8);
    }

    void faultRatesAreSeeded()
    {
        SimConfig cfg = fastConfig();
        cfg.ttftMs = 0;
        cfg.itlMs = 0;
        cfg.seed = 7;
        cfg.setFaultRate(SimFault::Http429, 0.3);
        cfg.setFaultRate(SimFault::Http500, 0.2);
        QString error;
        QVERIFY(!cfg.setFaultRateFromSpec(u"bogus=0.1"_s, &error));
        QVERIFY(error.contains("bogus"_L1));
        QVERIFY(!cfg.setFaultRateFromSpec(u"reset=2"_s, &error));
        QVERIFY(cfg.setFaultRateFromSpec(u"reset=0.1"_s, &error));

        auto statuses = [this, &cfg] {
            startSim(cfg);
            RawClient c;
            if (!c.connectTo(m_sim->port()))
                return QList<int>();
            QList<int> out;
            for (int i = 0; i < 40; ++i) {
                const Response r = c.post("/v1/completions", completionBody(2));
                out.append(r.closed ? -1 : r.status);
                if (r.closed && !c.connectTo(m_sim->port()))
                    return QList<int>();
            }
            return out;
        };
        const QList<int> first = statuses();
        QCOMPARE(first.size(), 40);
        const QList<SimLogEntry> log = m_sim->requestLog();
        int n429 = 0, n500 = 0, nReset = 0;
        for (qsizetype i = 0; i < log.size(); ++i) {
            n429 += log[i].fault == SimFault::Http429;
            n500 += log[i].fault == SimFault::Http500;
            nReset += log[i].fault == SimFault::ResetMidStream;
        }
        QCOMPARE(first.count(429), n429);
        QCOMPARE(first.count(500), n500);
        QCOMPARE(first.count(-1), nReset);
        QVERIFY(n429 > 0 && n500 > 0 && nReset > 0 && first.count(200) > 0);
        // The same seed gives the same faults to the same requests.
        QCOMPARE(statuses(), first);
    }

    void capacityQueues()
    {
        SimConfig cfg = fastConfig();
        cfg.capacity = 2;
        cfg.ttftMs = 100;
        cfg.itlMs = 20;
        startSim(cfg);
        const int n = 4;
        RawClient clients[n];
        for (RawClient &c : clients)
            QVERIFY(c.connectTo(m_sim->port()));
        const QByteArray raw = RawClient::request("POST", "/v1/completions",
                                                  QJsonDocument(completionBody(10)).toJson());
        for (RawClient &c : clients)
            c.send(raw);
        for (RawClient &c : clients) {
            const Response r = c.read();
            QCOMPARE(r.status, 200);
            QCOMPARE(analyse(sseEvents(r.body), false).words, 10);
        }
        QVERIFY(m_sim->waitForLogEntries(n, 5000));
        QList<SimLogEntry> log = m_sim->requestLog();
        std::sort(log.begin(), log.end(),
                  [](const SimLogEntry &a, const SimLogEntry &b) { return a.tAdmit < b.tAdmit; });
        QCOMPARE(m_sim->maxActiveStreams(), 2);
        QVERIFY(m_sim->counters().maxQueuedRequests >= 1);
        const qint64 firstEnd = qMin(log[0].tEnd, log[1].tEnd);
        const qint64 duration = qMin(log[0].tEnd - log[0].tAdmit, log[1].tEnd - log[1].tAdmit);
        QVERIFY(duration >= qint64((cfg.ttftMs + 9 * cfg.itlMs) * 1e6 * 0.95));
        for (int k = 2; k < n; ++k) {
            // Admitted only once an earlier request had finished, and its TTFT grew by roughly a
            // whole request.
            QVERIFY(log[k].tAdmit >= firstEnd);
            const qint64 ttft = log[k].tFirstWrite - log[k].tAccept;
            QVERIFY2(
                ttft >= duration / 2 + qint64(cfg.ttftMs * 1e6),
                qPrintable(u"ttft %1 ms, request %2 ms"_s.arg(nsToMs(ttft)).arg(nsToMs(duration))));
        }
        // Nothing overlapped beyond the capacity: at most two streams were ever between admission
        // and end.
        for (int k = 2; k < n; ++k) {
            int overlapping = 0;
            for (int j = 0; j < k; ++j)
                overlapping += log[j].tEnd > log[k].tAdmit;
            QVERIFY(overlapping <= 1);
        }
    }

    void clientGoesAway()
    {
        SimConfig cfg = fastConfig();
        cfg.capacity = 1;
        cfg.ttftMs = 5;
        cfg.itlMs = 10;
        startSim(cfg);
        RawClient a, b;
        QVERIFY(a.connectTo(m_sim->port()));
        QVERIFY(b.connectTo(m_sim->port()));
        a.send(RawClient::request("POST", "/v1/completions",
                                  QJsonDocument(completionBody(500)).toJson(),
                                  {"x-request-id: a"}));
        QTRY_COMPARE(m_sim->activeStreams(), 1);
        b.send(RawClient::request("POST", "/v1/completions",
                                  QJsonDocument(completionBody(3)).toJson(), {"x-request-id: b"}));
        QTRY_COMPARE(m_sim->counters().queuedRequests, 1);
        a.socket().abort(); // gives up mid-stream: its slot goes to the queued request
        const Response r = b.read(5000);
        QVERIFY(r.complete);
        QCOMPARE(analyse(sseEvents(r.body), false).words, 3);
        QVERIFY(m_sim->waitForLogEntries(2, 5000));
        const QList<SimLogEntry> log = m_sim->requestLog();
        QCOMPARE(log.size(), 2);
        QCOMPARE(log[0].requestId, u"a"_s);
        QVERIFY(log[0].clientClosed);
        QVERIFY(log[0].completionTokens < 500);
        QVERIFY(!log[1].clientClosed);
        QVERIFY(log[1].tAdmit >= log[0].tEnd);
        QTRY_COMPARE(m_sim->activeStreams(), 0);
        QCOMPARE(m_sim->counters().queuedRequests, 0);
    }

    void stopWithStreamsInFlight()
    {
        SimConfig cfg = fastConfig();
        cfg.capacity = 1;
        cfg.itlMs = 10;
        startSim(cfg);
        RawClient a, b, stalled;
        QVERIFY(a.connectTo(m_sim->port()));
        QVERIFY(b.connectTo(m_sim->port()));
        QVERIFY(stalled.connectTo(m_sim->port()));
        const QByteArray raw = RawClient::request("POST", "/v1/completions",
                                                  QJsonDocument(completionBody(500)).toJson());
        a.send(raw);
        QTRY_COMPARE(m_sim->activeStreams(), 1);
        b.send(raw); // queued behind a
        QTRY_COMPARE(m_sim->counters().queuedRequests, 1);
        m_sim->stop();
        QVERIFY(!m_sim->isRunning());
        QCOMPARE(m_sim->openConnections(), 0);
        QCOMPARE(m_sim->activeStreams(), 0);
        QCOMPARE(m_sim->counters().queuedRequests, 0);
        QVERIFY(a.waitForClose(5000));
        QVERIFY(b.waitForClose(5000));
        QVERIFY(stalled.waitForClose(5000));
        // And it starts again.
        QVERIFY(m_sim->start());
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        QCOMPARE(c.post("/v1/completions", completionBody(2)).status, 200);
    }

    void prefillGrowsTtft()
    {
        SimConfig cfg = fastConfig();
        cfg.ttftMs = 10;
        cfg.prefillMsPerToken = 1.0;
        startSim(cfg);
        QStringList words;
        for (int i = 0; i < 100; ++i)
            words << u"w%1"_s.arg(i);
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        QCOMPARE(c.post("/v1/completions", completionBody(2, words.join(u' '))).status, 200);
        QVERIFY(m_sim->waitForLogEntries(1, 5000));
        const SimLogEntry e = m_sim->requestLog().first();
        QCOMPARE(e.promptTokens, 100);
        QVERIFY(e.tFirstWrite - e.tAdmit >= qint64(110 * 1e6) - 100'000);
    }

    void prefixCacheRepeatedPrompt_data()
    {
        QTest::addColumn<bool>("chat");
        QTest::addColumn<bool>("stream");
        QTest::newRow("completions") << false << true;
        QTest::newRow("chat") << true << true;
        QTest::newRow("completions, not streamed") << false << false;
    }

    void prefixCacheRepeatedPrompt()
    {
        QFETCH(bool, chat);
        QFETCH(bool, stream);
        SimConfig cfg = fastConfig();
        cfg.ttftMs = 5;
        cfg.prefillMsPerToken = 2.0;
        cfg.prefixCache = true;
        startSim(cfg);
        // 40 words: two full blocks of 16 and an 8-word tail that is never cached.
        const QString prompt = numberedWords(u"rep"_s, 40);
        QJsonObject body = chat ? chatBody(2, prompt) : completionBody(2, prompt, stream);
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        QList<QJsonObject> usages;
        sb::test::SchedProbe probe; // how late this machine wakes a thread, during the requests
        for (int i = 0; i < 2; ++i) {
            const Response r = c.post(chat ? "/v1/chat/completions" : "/v1/completions", body);
            QCOMPARE(r.status, 200);
            if (stream) {
                const TokenStats st = analyse(sseEvents(r.body), chat);
                QCOMPARE(st.usageChunks, 1);
                usages.append(st.usage);
            } else {
                usages.append(
                    QJsonDocument::fromJson(r.body).object().value("usage"_L1).toObject());
            }
        }
        QVERIFY(m_sim->waitForLogEntries(2, 5000));
        const QList<SimLogEntry> log = m_sim->requestLog();
        // Chat prompts also hold the system message ("be brief": 2 words) before the content.
        const int promptTokens = chat ? 42 : 40;
        const int cached = 32; // floor(42/16) = floor(40/16) = 2 full blocks
        QCOMPARE(log[0].promptTokens, promptTokens);
        QCOMPARE(log[0].cachedTokens, 0);
        QCOMPARE(log[1].cachedTokens, cached);
        QCOMPARE(usages[0].value("prompt_tokens"_L1).toInt(), promptTokens);
        QCOMPARE(usages[0]
                     .value("prompt_tokens_details"_L1)
                     .toObject()
                     .value("cached_tokens"_L1)
                     .toInt(-1),
                 0);
        QCOMPARE(usages[1]
                     .value("prompt_tokens_details"_L1)
                     .toObject()
                     .value("cached_tokens"_L1)
                     .toInt(-1),
                 cached);

        // The simulator writes no earlier than its due time; lateness only adds. So the lower
        // bounds are exact, and the cached request's first token must come before an uncached
        // one's could (ttft + prefill of the whole prompt): a cache that skips nothing is never
        // early, so it fails this whatever the machine; the cached one passes unless its timer is
        // later than the whole skipped prefill (2 ms × 32 tokens). The longest wake-up delay
        // measured meanwhile is in the message.
        probe.stop();
        const double cold = nsToMs(log[0].tFirstWrite - log[0].tAdmit);
        const double warm = nsToMs(log[1].tFirstWrite - log[1].tAdmit);
        QVERIFY2(cold >= cfg.ttftMs + 2.0 * promptTokens - 0.1,
                 qPrintable(u"cold %1 ms"_s.arg(cold)));
        QVERIFY2(warm >= cfg.ttftMs + 2.0 * (promptTokens - cached) - 0.1,
                 qPrintable(u"warm %1 ms"_s.arg(warm)));
        QVERIFY2(warm < cfg.ttftMs + 2.0 * promptTokens,
                 qPrintable(u"cold %1 ms, warm %2 ms, an uncached first token is due at %3 ms "
                            "(longest wake-up delay measured %4 ms)"_s.arg(cold)
                                .arg(warm)
                                .arg(cfg.ttftMs + 2.0 * promptTokens)
                                .arg(probe.maxMs())));
    }

    void prefixCacheSharedPrefix_data()
    {
        QTest::addColumn<int>("shared");
        QTest::addColumn<int>("blockTokens");
        for (int k : {0, 1, 15, 16, 17, 31, 32, 50, 64}) {
            QTest::addRow("%d shared words", k) << k << 16;
        }
        QTest::newRow("blocks of 5, 23 shared") << 23 << 5;
    }

    void prefixCacheSharedPrefix()
    {
        QFETCH(int, shared);
        QFETCH(int, blockTokens);
        SimConfig cfg = fastConfig();
        cfg.ttftMs = 0;
        cfg.itlMs = 0;
        cfg.prefixCache = true;
        cfg.prefixBlockTokens = blockTokens;
        startSim(cfg);
        const QString prefix = numberedWords(u"shared"_s, shared);
        const QString a = (prefix + u' ' + numberedWords(u"a"_s, 40)).trimmed();
        const QString b = (prefix + u' ' + numberedWords(u"b"_s, 40)).trimmed();
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        QCOMPARE(c.post("/v1/completions", completionBody(1, a)).status, 200);
        QCOMPARE(c.post("/v1/completions", completionBody(1, b)).status, 200);
        QVERIFY(m_sim->waitForLogEntries(2, 5000));
        const QList<SimLogEntry> log = m_sim->requestLog();
        QCOMPARE(log[0].cachedTokens, 0);
        QCOMPARE(log[1].cachedTokens, shared / blockTokens * blockTokens);
    }

    void prefixCacheLruBound()
    {
        SimConfig cfg = fastConfig();
        cfg.ttftMs = 0;
        cfg.itlMs = 0;
        cfg.prefixCache = true;
        cfg.prefixBlockTokens = 4;
        cfg.prefixCacheBlocks = 4;
        startSim(cfg);
        const QString a = numberedWords(u"a"_s, 8);  // 2 blocks
        const QString b = numberedWords(u"b"_s, 12); // 3 blocks: 5 in a cache of 4
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        for (const QString &p : {a, b, a, b, b})
            QCOMPARE(c.post("/v1/completions", completionBody(1, p)).status, 200);
        QVERIFY(m_sim->waitForLogEntries(5, 5000));
        QList<int> cached;
        for (const SimLogEntry &e : m_sim->requestLog())
            cached << e.cachedTokens;
        // a: miss. b: miss, evicts a's tail block. a: its first block only (4), re-inserting
        // its tail evicts b's tail. b: 2 of 3 blocks (8), evicting a's tail again. b: all 12.
        QCOMPARE(cached, (QList<int>{0, 0, 4, 8, 12}));
    }

    void prefixCacheOff()
    {
        SimConfig cfg = fastConfig();
        cfg.ttftMs = 0;
        cfg.itlMs = 0;
        QVERIFY(!cfg.prefixCache); // off by default
        startSim(cfg);
        const QString prompt = numberedWords(u"w"_s, 40);
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        for (int i = 0; i < 2; ++i) {
            const Response r = c.post("/v1/completions", completionBody(1, prompt));
            const TokenStats st = analyse(sseEvents(r.body), false);
            QCOMPARE(st.usageChunks, 1);
            QCOMPARE(st.usage.value("prompt_tokens"_L1).toInt(), 40);
            QVERIFY(!st.usage.contains("prompt_tokens_details"_L1));
            QVERIFY(!r.body.contains("cached_tokens"));
        }
        const Response full = c.post("/v1/completions", completionBody(1, prompt, false));
        QVERIFY(!full.body.contains("cached_tokens"));
        QVERIFY(m_sim->waitForLogEntries(3, 5000));
        for (const SimLogEntry &e : m_sim->requestLog())
            QCOMPARE(e.cachedTokens, 0);
    }

    void chunkGapsFollowItl_data()
    {
        QTest::addColumn<int>("streams");
        QTest::addColumn<double>("jitterMs");
        QTest::newRow("one stream") << 1 << 0.0;
        QTest::newRow("one stream, jitter") << 1 << 4.0;
        QTest::newRow("100 streams") << 100 << 0.0;
    }

    void chunkGapsFollowItl()
    {
        QFETCH(int, streams);
        QFETCH(double, jitterMs);
        SimConfig cfg = fastConfig();
        cfg.ttftMs = 20;
        cfg.itlMs = 10;
        cfg.jitterMs = jitterMs;
        cfg.seed = 3;
        startSim(cfg);
        const int tokens = 30;
        std::vector<std::unique_ptr<RawClient>> clients;
        const QByteArray raw = RawClient::request("POST", "/v1/completions",
                                                  QJsonDocument(completionBody(tokens)).toJson());
        for (int i = 0; i < streams; ++i) {
            clients.push_back(std::make_unique<RawClient>());
            QVERIFY(clients.back()->connectTo(m_sim->port()));
        }
        test::SchedProbe probe; // how late this machine wakes a thread, during the streams
        for (auto &c : clients)
            c->send(raw);
        for (auto &c : clients)
            QVERIFY(c->read(30000).complete);
        probe.stop();
        QVERIFY(m_sim->waitForLogEntries(streams, 5000));
        const QList<SimLogEntry> log = m_sim->requestLog();
        QCOMPARE(log.size(), streams);
        QCOMPARE(m_sim->maxOpenConnections(), streams);
        double sumGapMs = 0;
        int gaps = 0;
        for (const SimLogEntry &e : log) {
            QCOMPARE(e.chunkWriteNs.size(), tokens);
            for (qsizetype i = 1; i < e.chunkWriteNs.size(); ++i) {
                sumGapMs += nsToMs(e.chunkWriteNs[i] - e.chunkWriteNs[i - 1]);
                ++gaps;
            }
        }
        const double mean = sumGapMs / gaps;
        // Never faster than the ITL (less the jitter's spread); slower only by what this
        // machine's scheduling delay explains: a wake-up late by the measured p99 on every gap.
        QVERIFY2(mean >= cfg.itlMs * 0.8 && mean <= cfg.itlMs * 2.0 + probe.percentileMs(99),
                 qPrintable(u"mean gap %1 ms (ITL %2 ms); scheduling delay measured: p99 %3 ms, "
                            u"max %4 ms"_s.arg(mean)
                                .arg(cfg.itlMs)
                                .arg(probe.percentileMs(99))
                                .arg(probe.maxMs())));
    }

    void connectionsCounted()
    {
        startSim(fastConfig());
        const int n = 5;
        {
            RawClient clients[n];
            for (RawClient &c : clients)
                QVERIFY(c.connectTo(m_sim->port()));
            QTRY_COMPARE(m_sim->openConnections(), n);
            QCOMPARE(m_sim->maxOpenConnections(), n);
            QCOMPARE(m_sim->counters().totalConnections, quint64(n));
        }
        QTRY_COMPARE(m_sim->openConnections(), 0);
        QCOMPARE(m_sim->maxOpenConnections(), n);
        m_sim->reset();
        QCOMPARE(m_sim->maxOpenConnections(), 0);
        QCOMPARE(m_sim->counters().totalConnections, quint64(0));
        QVERIFY(m_sim->requestLog().isEmpty());
    }

    void logIsBounded()
    {
        SimConfig cfg = fastConfig();
        cfg.ttftMs = 0;
        cfg.itlMs = 0;
        cfg.maxLogEntries = 3;
        startSim(cfg);
        RawClient c;
        QVERIFY(c.connectTo(m_sim->port()));
        for (int i = 0; i < 5; ++i)
            c.post("/v1/completions", completionBody(1),
                   {"x-request-id: r" + QByteArray::number(i)});
        QVERIFY(m_sim->waitForLogEntries(5, 5000));
        const QList<SimLogEntry> log = m_sim->requestLog();
        QCOMPARE(log.size(), 3);
        QCOMPARE(log.first().requestId, u"r2"_s); // the most recent ones are kept
        QCOMPARE(m_sim->counters().droppedLogEntries, quint64(2));

        cfg.recordLog = false;
        m_sim->setConfig(cfg);
        m_sim->reset();
        c.post("/v1/completions", completionBody(1));
        QVERIFY(m_sim->waitForLogEntries(1, 5000)); // counted, not stored
        QVERIFY(m_sim->requestLog().isEmpty());
    }

    void faultNames()
    {
        for (SimFault f : allSimFaults()) {
            SimFault back = SimFault::None;
            QVERIFY(simFaultFromName(QString::fromLatin1(simFaultName(f)), &back));
            QCOMPARE(back, f);
        }
        SimFault f = SimFault::None;
        QVERIFY(simFaultFromName(u"429"_s, &f));
        QCOMPARE(f, SimFault::Http429);
        QVERIFY(!simFaultFromName(u"nope"_s, &f));
    }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
