#include "client/httprequestwriter.h"
#include "client/requestbuilder.h"
#include "config/runplan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QUrl>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QJsonObject json(const QByteArray &text)
{
    QJsonParseError err;
    const QJsonDocument d = QJsonDocument::fromJson(text, &err);
    if (err.error != QJsonParseError::NoError || !d.isObject())
        qFatal("bad JSON in test data: %s", text.constData());
    return d.object();
}

using Headers = QList<QPair<QByteArray, QByteArray>>;

QList<QByteArray> valuesOf(const Headers &h, QByteArrayView name)
{
    QList<QByteArray> out;
    for (const auto &[n, v] : h) {
        if (QByteArrayView(n).compare(name, Qt::CaseInsensitive) == 0)
            out.append(v);
    }
    return out;
}

} // namespace

class TestRequestBuilder : public QObject
{
    Q_OBJECT

private slots:
    void body_data();
    void body();
    void headers();
    void extraHeadersReplaceDefaults();
    void apiKeyPlacedByHeader();
    void endpointUrl_data();
    void endpointUrl();
    void validateHeader_data();
    void validateHeader();
    void validateSutRequest();
    void nothingReachesTheRequestLineRaw_data();
    void nothingReachesTheRequestLineRaw();
};

void TestRequestBuilder::body_data()
{
    QTest::addColumn<bool>("chat");
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("ignoreEos");
    QTest::addColumn<double>("temperature");
    QTest::addColumn<qint64>("seed");
    QTest::addColumn<QByteArray>("extraBody");
    QTest::addColumn<QByteArray>("messages");
    QTest::addColumn<int>("maxTokens");
    QTest::addColumn<QByteArray>("expected");

    const QString m = u"meta-llama/Llama-3.1-8B-Instruct"_s;
    QTest::newRow("completions") << false << m << false << -1.0 << qint64(-1) << QByteArray("{}")
                                 << QByteArray("[]") << 128
                                 << QByteArray(R"({"model":"meta-llama/Llama-3.1-8B-Instruct",
        "prompt":"Hello","max_tokens":128,"stream":true,"stream_options":{"include_usage":true}})");
    QTest::newRow("chat from prompt")
        << true << m << false << -1.0 << qint64(-1) << QByteArray("{}") << QByteArray("[]") << 64
        << QByteArray(R"({"model":"meta-llama/Llama-3.1-8B-Instruct",
        "messages":[{"role":"user","content":"Hello"}],"max_completion_tokens":64,"max_tokens":64,
        "stream":true,"stream_options":{"include_usage":true}})");
    QTest::newRow("chat with given messages")
        << true << m << false << -1.0 << qint64(-1) << QByteArray("{}")
        << QByteArray(R"([{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}])")
        << 10 << QByteArray(R"({"model":"meta-llama/Llama-3.1-8B-Instruct",
        "messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}],
        "max_completion_tokens":10,"max_tokens":10,"stream":true,
        "stream_options":{"include_usage":true}})");
    QTest::newRow("no max tokens, no model")
        << true << QString() << false << -1.0 << qint64(-1) << QByteArray("{}") << QByteArray("[]")
        << -1 << QByteArray(R"({"messages":[{"role":"user",
        "content":"Hello"}],"stream":true,"stream_options":{"include_usage":true}})");
    QTest::newRow("ignore_eos, temperature 0, seed 0")
        << false << m << true << 0.0 << qint64(0) << QByteArray("{}") << QByteArray("[]") << 5
        << QByteArray(R"({"model":"meta-llama/Llama-3.1-8B-Instruct","prompt":"Hello",
        "max_tokens":5,"stream":true,"stream_options":{"include_usage":true},"ignore_eos":true,
        "temperature":0,"seed":0})");
    QTest::newRow("ignore_eos false, temperature and seed unset")
        << false << m << false << -1.0 << qint64(-1) << QByteArray("{}") << QByteArray("[]") << 5
        << QByteArray(R"({"model":"meta-llama/Llama-3.1-8B-Instruct","prompt":"Hello",
        "max_tokens":5,"stream":true,"stream_options":{"include_usage":true}})");
    QTest::newRow("extra body wins, merges and removes")
        << true << m << false << 0.7 << qint64(1234567890123)
        << QByteArray(R"({"temperature":0.2,"top_k":20,"max_completion_tokens":null,
        "stream_options":{"continuous_usage_stats":true},"model":"other"})")
        << QByteArray("[]") << 32
        << QByteArray(R"({"model":"other","messages":[{"role":"user","content":"Hello"}],
        "max_tokens":32,"stream":true,
        "stream_options":{"include_usage":true,"continuous_usage_stats":true},
        "temperature":0.2,"top_k":20,"seed":1234567890123})");
}

void TestRequestBuilder::body()
{
    QFETCH(bool, chat);
    QFETCH(QString, model);
    QFETCH(bool, ignoreEos);
    QFETCH(double, temperature);
    QFETCH(qint64, seed);
    QFETCH(QByteArray, extraBody);
    QFETCH(QByteArray, messages);
    QFETCH(int, maxTokens);
    QFETCH(QByteArray, expected);

    SutConfig sut;
    sut.flavour = chat ? ApiFlavour::Chat : ApiFlavour::Completions;
    sut.model = model;
    RequestParams p;
    p.ignoreEos = ignoreEos;
    p.temperature = temperature;
    p.seed = seed;
    p.extraBody = json(extraBody);
    const QJsonArray msgs = QJsonDocument::fromJson(messages).array();

    const QByteArray body = buildRequestBody(sut, p, u"Hello"_s, msgs, maxTokens);
    QVERIFY2(!body.contains('\n'), body.constData()); // compact: one line on the wire
    QCOMPARE(json(body), json(expected));
}

void TestRequestBuilder::headers()
{
    SutConfig sut;
    Headers h = buildRequestHeaders(sut, "sk-test", u"run1-42"_s);
    QCOMPARE(valuesOf(h, "Content-Type"), QList<QByteArray>{"application/json"});
    QCOMPARE(valuesOf(h, "Accept"), QList<QByteArray>{"text/event-stream"});
    QCOMPARE(valuesOf(h, "Accept-Encoding"), QList<QByteArray>{"identity"});
    QCOMPARE(valuesOf(h, "Authorization"), QList<QByteArray>{"Bearer sk-test"});
    QCOMPARE(valuesOf(h, "x-request-id"), QList<QByteArray>{"run1-42"});
    QCOMPARE(h.size(), 5);

    h = buildRequestHeaders(sut, QByteArray(), u"run1-43"_s);
    QVERIFY(valuesOf(h, "authorization").isEmpty());
    for (const auto &[n, v] : std::as_const(h))
        QVERIFY2(!v.contains("Bearer"), n.constData());
    QCOMPARE(h.size(), 4);

    h = buildRequestHeaders(sut, QByteArray(), QString());
    QVERIFY(valuesOf(h, "x-request-id").isEmpty());
}

void TestRequestBuilder::extraHeadersReplaceDefaults()
{
    SutConfig sut;
    sut.extraHeaders = {{u"X-Tenant"_s, u"team-a"_s}, {u"accept-encoding"_s, u"gzip"_s}};
    const Headers h = buildRequestHeaders(sut, "k", u"id"_s);
    QCOMPARE(valuesOf(h, "X-Tenant"), QList<QByteArray>{"team-a"});
    QCOMPARE(valuesOf(h, "Accept-Encoding"), QList<QByteArray>{"gzip"});
    QCOMPARE(h.last(), (QPair<QByteArray, QByteArray>{"accept-encoding", "gzip"}));
    QCOMPARE(h.size(), 6);
}

void TestRequestBuilder::apiKeyPlacedByHeader()
{
    // A gateway that wants the key in its own header: the key replaces {api_key} there, and no
    // Bearer header carries it a second time.
    SutConfig sut;
    sut.extraHeaders = {{u"X-Api-Key"_s, u"{api_key}"_s}, {u"X-Tenant"_s, u"team-a"_s}};
    Headers h = buildRequestHeaders(sut, "sk-gw", u"id"_s);
    QCOMPARE(valuesOf(h, "X-Api-Key"), QList<QByteArray>{"sk-gw"});
    QVERIFY(valuesOf(h, "Authorization").isEmpty());
    sut.extraHeaders = {{u"Authorization"_s, u"Token {api_key}"_s}};
    h = buildRequestHeaders(sut, "sk-gw", u"id"_s);
    QCOMPARE(valuesOf(h, "Authorization"), QList<QByteArray>{"Token sk-gw"});
    // The stored form keeps the reference and drops a literal credential.
    SutConfig stored;
    stored.extraHeaders = {{u"X-Api-Key"_s, u"{api_key}"_s},
                           {u"X-Api-Token"_s, u"literal-secret"_s},
                           {u"Authorization"_s, u"Bearer {api_key}"_s}};
    const QByteArray json = QJsonDocument(scrubSecrets(stored.toJson())).toJson();
    QVERIFY2(!json.contains("literal-secret"), json.constData());
    QVERIFY2(json.contains("\"{api_key}\""), json.constData());
    QVERIFY2(json.contains("Bearer {api_key}"), json.constData());
}

void TestRequestBuilder::endpointUrl_data()
{
    QTest::addColumn<QString>("baseUrl");
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<bool>("chat");
    QTest::addColumn<QString>("expected");

    QTest::newRow("default completions") << u"http://127.0.0.1:8000"_s << QString() << false
                                         << u"http://127.0.0.1:8000/v1/completions"_s;
    QTest::newRow("default chat") << u"http://127.0.0.1:8000"_s << QString() << true
                                  << u"http://127.0.0.1:8000/v1/chat/completions"_s;
    QTest::newRow("trailing slash") << u"http://h:8000/"_s << u"/v1/completions"_s << false
                                    << u"http://h:8000/v1/completions"_s;
    QTest::newRow("missing slash")
        << u"http://h:8000"_s << u"v1/completions"_s << false << u"http://h:8000/v1/completions"_s;
    QTest::newRow("base ends in /v1") << u"https://api.example.com/v1"_s << QString() << true
                                      << u"https://api.example.com/v1/chat/completions"_s;
    QTest::newRow("base ends in /v1/, endpoint with /v1")
        << u"https://api.example.com/v1/"_s << u"/v1/completions"_s << false
        << u"https://api.example.com/v1/completions"_s;
    QTest::newRow("base with path prefix") << u"https://gw.example.com/llm"_s << QString() << false
                                           << u"https://gw.example.com/llm/v1/completions"_s;
    QTest::newRow("custom endpoint") << u"http://h:30000"_s << u"/generate_stream"_s << false
                                     << u"http://h:30000/generate_stream"_s;
    QTest::newRow("base /v1, custom endpoint")
        << u"http://h/v1"_s << u"/chat"_s << true << u"http://h/v1/chat"_s;
    QTest::newRow("endpoint is a full URL")
        << u"http://ignored"_s << u"https://other.example.com/x/completions"_s << false
        << u"https://other.example.com/x/completions"_s;
}

void TestRequestBuilder::endpointUrl()
{
    QFETCH(QString, baseUrl);
    QFETCH(QString, endpoint);
    QFETCH(bool, chat);
    QFETCH(QString, expected);
    SutConfig sut;
    sut.baseUrl = baseUrl;
    sut.endpoint = endpoint;
    sut.flavour = chat ? ApiFlavour::Chat : ApiFlavour::Completions;
    const QUrl url = sb::endpointUrl(sut);
    QVERIFY(url.isValid());
    QCOMPARE(url.toString(), expected);
}

void TestRequestBuilder::validateHeader_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("error"); // a part of the message; empty: valid
    QTest::newRow("plain") << "X-Api-Key"_ba
                           << "abc 123"_ba << QString();
    QTest::newRow("every token character") << "!#$%&'*+-.^_`|~09azAZ"_ba
                                           << "v"_ba << QString();
    QTest::newRow("tab and UTF-8 in the value") << "X-A"_ba
                                                << "a\tb \xc3\xbc"_ba << QString();
    QTest::newRow("empty value") << "X-A"_ba
                                 << ""_ba << QString();
    QTest::newRow("CR in the value") << "X-A"_ba
                                     << "a\rInjected: 1"_ba << u"carriage return"_s;
    QTest::newRow("LF in the value") << "X-A"_ba
                                     << "a\nInjected: 1"_ba << u"line feed"_s;
    QTest::newRow("CRLF in the value") << "X-A"_ba
                                       << "a\r\n\r\nGET / HTTP/1.1"_ba << u"carriage return"_s;
    QTest::newRow("NUL in the value") << "X-A"_ba << QByteArray("a\0b", 3) << u"NUL"_s;
    QTest::newRow("DEL in the value") << "X-A"_ba
                                      << "a\x7f"_ba << u"0x7f"_s;
    QTest::newRow("other control in the value") << "X-A"_ba
                                                << "a\x01"_ba << u"0x01"_s;
    QTest::newRow("empty name") << ""_ba
                                << "v"_ba << u"empty name"_s;
    QTest::newRow("space in the name") << "X A"_ba
                                       << "v"_ba << u"a space"_s;
    QTest::newRow("colon in the name") << "X:A"_ba
                                       << "v"_ba << u"0x3a"_s;
    QTest::newRow("CRLF in the name") << "X\r\nInjected"_ba
                                      << "v"_ba << u"carriage return"_s;
    QTest::newRow("NUL in the name") << QByteArray("X\0A", 3) << "v"_ba << u"NUL"_s;
}

void TestRequestBuilder::validateHeader()
{
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, value);
    QFETCH(QString, error);
    QString message;
    const bool ok = sb::validateHeader(QByteArrayView(name), QByteArrayView(value), &message);
    QCOMPARE(ok, error.isEmpty());
    if (!ok)
        QVERIFY2(message.contains(error), qPrintable(message));
}

void TestRequestBuilder::validateSutRequest()
{
    SutConfig sut;
    sut.baseUrl = u"http://localhost:8000"_s;
    QString error;
    QVERIFY(sb::validateSutRequest(sut, &error));
    sut.extraHeaders = {{u"X-Good"_s, u"ok"_s}, {u"  "_s, u"skipped: no name"_s}};
    QVERIFY2(sb::validateSutRequest(sut, &error), qPrintable(error));
    sut.extraHeaders.append({u"X-Bad"_s, u"a\r\nX-Injected: 1"_s});
    QVERIFY(!sb::validateSutRequest(sut, &error));
    QVERIFY2(error.contains(u"X-Bad"_s) && error.contains(u"carriage return"_s), qPrintable(error));
    sut.extraHeaders = {{u"X-Ünïcode"_s, u"v"_s}};
    QVERIFY(!sb::validateSutRequest(sut, &error));
    QVERIFY2(error.contains(u"non-ASCII"_s), qPrintable(error));
    sut.extraHeaders.clear();
    sut.baseUrl = u"http://bad host\r\n:80"_s;
    QVERIFY(!sb::validateSutRequest(sut, &error));
    QVERIFY2(error.contains(u"endpoint URL"_s), qPrintable(error));
}

void TestRequestBuilder::nothingReachesTheRequestLineRaw_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QString>("model");
    QTest::newRow("CRLF and a header in the path")
        << u"/v1/completions HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET /"_s << u"m"_s;
    QTest::newRow("CRLF in the query") << u"/v1/completions?a=\r\nX-Injected: 1"_s << u"m"_s;
    QTest::newRow("encoded CRLF stays encoded") << u"/v1/%0d%0aX-Injected:%201"_s << u"m"_s;
    QTest::newRow("NUL, tab and non-ASCII") << u"/v1/a\u0000b\tc/ü"_s << u"m"_s;
    QTest::newRow("model with CRLF and quotes") << u""_s << u"evil\r\nX-Injected: 1\"}\r\n\r\n"_s;
}

void TestRequestBuilder::nothingReachesTheRequestLineRaw()
{
    QFETCH(QString, endpoint);
    QFETCH(QString, model);
    SutConfig sut;
    sut.baseUrl = u"http://localhost:8000"_s;
    sut.endpoint = endpoint;
    sut.model = model;
    RequestParams params;
    const QByteArray body = buildRequestBody(sut, params, u"hi"_s, {}, 4);
    const QByteArray request = serializeHttpRequest(sb::endpointUrl(sut), {}, body);
    const qsizetype headEnd = request.indexOf("\r\n\r\n");
    QVERIFY(headEnd > 0);
    QList<QByteArray> lines = request.first(headEnd + 2).split('\n');
    lines.removeLast(); // after the last line's \n
    // Request line: method, a target without whitespace or control bytes, the version.
    const QByteArray requestLine = lines.first().chopped(1);
    const QList<QByteArray> parts = requestLine.split(' ');
    QCOMPARE(parts.size(), 3);
    QCOMPARE(parts[0], "POST"_ba);
    QCOMPARE(parts[2], "HTTP/1.1"_ba);
    for (char c : parts[1])
        QVERIFY2(uchar(c) > 0x20 && uchar(c) < 0x7f, requestLine.constData());
    // No header line came from the endpoint or the model: every line is one of ours.
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QVERIFY2(lines[i].endsWith('\r'), lines[i].constData());
        QVERIFY2(!lines[i].toLower().startsWith("x-injected"), lines[i].constData());
    }
    // The model travels in the JSON body, escaped: the body parses back to it.
    QCOMPARE(QJsonDocument::fromJson(body).object().value(u"model"_s).toString(), model);
}

QTEST_GUILESS_MAIN(TestRequestBuilder)
#include "tst_requestbuilder.moc"
