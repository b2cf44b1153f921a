#include "client/streamaccumulator.h"
#include "tokenizer/tokenizer.h"

#include <QFile>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QByteArray readStream(const QString &name)
{
    QFile f(QStringLiteral(SB_TEST_DATA_DIR "/streams/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open recorded stream %s", qPrintable(f.fileName()));
    return f.readAll();
}

struct Input
{
    QByteArray body;
    ApiFlavour flavour = ApiFlavour::Completions;
    int status = 200;
    qint32 expectedInputTokens = -1;
};

// Feeds body cut at the given offsets; piece i is received at time i + 1, and finish() comes at
// time 1000000 with a clean transport end.
RequestRecord run(const Input &in, const QList<qsizetype> &cuts,
                  ErrorClass transportError = ErrorClass::None, const QString &message = {})
{
    RequestRecord r;
    r.expectedInputTokens = in.expectedInputTokens;
    StreamAccumulator acc(in.flavour, &r);
    acc.onHttpStatus(in.status);
    qsizetype from = 0;
    qint64 t = 1;
    for (qsizetype cut : cuts) {
        acc.onBytes(in.body.constData() + from, cut - from, t++);
        from = cut;
    }
    acc.onBytes(in.body.constData() + from, in.body.size() - from, t);
    acc.finish(transportError, message, 1000000);
    return r;
}

RequestRecord runBytewise(const Input &in)
{
    QList<qsizetype> cuts;
    for (qsizetype i = 1; i < in.body.size(); ++i)
        cuts.append(i);
    return run(in, cuts);
}

// Everything a record says about the response except when each chunk arrived.
QString difference(const RequestRecord &a, const RequestRecord &b)
{
    QStringList d;
    auto check = [&d](bool same, const char *what) {
        if (!same)
            d.append(QString::fromLatin1(what));
    };
    check(a.error == b.error, "error");
    check(a.errorMessage == b.errorMessage, "errorMessage");
    check(a.chunkTimes.size() == b.chunkTimes.size(), "chunk count");
    check(a.chunkTokens == b.chunkTokens, "chunkTokens");
    check(a.outputTokens == b.outputTokens, "outputTokens");
    check(a.outputSource == b.outputSource, "outputSource");
    check(a.inputTokens == b.inputTokens, "inputTokens");
    check(a.inputSource == b.inputSource, "inputSource");
    check(a.cachedTokens == b.cachedTokens, "cachedTokens");
    check(a.outputChars == b.outputChars, "outputChars");
    check(a.finishReason == b.finishReason, "finishReason");
    check(a.httpStatus == b.httpStatus, "httpStatus");
    check(a.tEnd == b.tEnd, "tEnd");
    for (const RequestRecord *r : {&a, &b}) {
        check(r->chunkTimes.size() == r->chunkTokens.size(), "chunkTimes/chunkTokens sizes");
        check(r->tFirst == (r->chunkTimes.isEmpty() ? 0 : r->chunkTimes.first()), "tFirst");
        check(r->tLast == (r->chunkTimes.isEmpty() ? 0 : r->chunkTimes.last()), "tLast");
        check(std::is_sorted(r->chunkTimes.begin(), r->chunkTimes.end()), "chunkTimes ascending");
    }
    if (!d.isEmpty()) {
        d.append(u"| a: %1 %2 chunks=%3 out=%4 chars=%5 | b: %6 %7 chunks=%8 out=%9 chars=%10"_s
                     .arg(QString::fromLatin1(errorClassName(a.error)), a.errorMessage)
                     .arg(a.chunkTimes.size())
                     .arg(a.outputTokens)
                     .arg(a.outputChars)
                     .arg(QString::fromLatin1(errorClassName(b.error)), b.errorMessage)
                     .arg(b.chunkTimes.size())
                     .arg(b.outputTokens)
                     .arg(b.outputChars));
    }
    return d.join(u' ');
}

// The same response with other line endings: SSE allows \r\n, \n and \r.
QByteArray withLineEnds(QByteArray body, QByteArrayView eol)
{
    body.replace("\r\n", "\n");
    body.replace("\n", eol.toByteArray());
    return body;
}

// Feeds body one SSE event at a time: event i (0-based) is received at time i + 1. With
// captureText every event goes through the full JSON parser, else through ChunkScanner.
RequestRecord runEvents(const QByteArray &body, ApiFlavour flavour,
                        const Tokenizer *tokenizer = nullptr, bool captureText = false)
{
    RequestRecord r;
    StreamAccumulator acc(flavour, &r);
    acc.setTokenizer(tokenizer);
    acc.setCaptureText(captureText);
    acc.onHttpStatus(200);
    qsizetype from = 0;
    qint64 t = 1;
    for (qsizetype end = body.indexOf("\n\n"); end >= 0; end = body.indexOf("\n\n", from)) {
        acc.onBytes(body.constData() + from, end + 2 - from, t++);
        from = end + 2;
    }
    acc.finish(ErrorClass::None, {}, 1000000);
    return r;
}

QByteArray sse(const QList<QByteArray> &payloads)
{
    QByteArray b;
    for (const QByteArray &p : payloads)
        b += "data: " + p + "\n\n";
    return b + "data: [DONE]\n\n";
}

} // namespace

class TestStreamAccumulator : public QObject
{
    Q_OBJECT

private slots:
    void recordedStream_data();
    void recordedStream();
    void everySplitPoint_data() { recordedStream_data(); }
    void everySplitPoint();

    void doneWithoutBlankLine();
    void bytesAfterDoneIgnored();
    void transportErrorPrecedence();
    void httpErrorBody_data();
    void httpErrorBody();
    void fallbackCounts();
    void streamErrorShapes_data();
    void streamErrorShapes();
    void notAJsonObject();
    void emptyDataEventIgnored();
    void nonStreamingBody();
    void reasoningStamps_data();
    void reasoningStamps();
    void tokenizerCountsTheText_data();
    void tokenizerCountsTheText();
};

void TestStreamAccumulator::recordedStream_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("chat");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("error");
    QTest::addColumn<QString>("messageContains");
    QTest::addColumn<QList<qint32>>("chunkTokens");
    QTest::addColumn<int>("outputTokens");
    QTest::addColumn<QString>("outputSource");
    QTest::addColumn<int>("inputTokens");
    QTest::addColumn<QString>("inputSource");
    QTest::addColumn<int>("cachedTokens");
    QTest::addColumn<qint64>("outputChars");
    QTest::addColumn<QString>("finishReason");

    const QList<qint32> ones7(7, 1);
    QTest::newRow("vllm completions, usage")
        << u"vllm_completions_usage.txt"_s << false << 200 << u"none"_s << QString()
        << QList<qint32>(8, 1) << 8 << u"server_usage"_s << 12 << u"server_usage"_s << -1
        << qint64(35) << u"length"_s;
    // The role-only first chunk and the empty finish chunk are not tokens; usage counts the EOS
    // token the user never sees, so usage (8) exceeds the token chunks (7).
    QTest::newRow("vllm chat, role-only first chunk, cached prefix")
        << u"vllm_chat_role_first.txt"_s << true << 200 << u"none"_s << QString() << ones7 << 8
        << u"server_usage"_s << 42 << u"server_usage"_s << 32 << qint64(22) << u"stop"_s;
    // 5 reasoning_content chunks, one carrying reasoning and reasoning_content with the same
    // text (counted once), one with reasoning only, then 6 content chunks.
    QTest::newRow("reasoning deltas")
        << u"vllm_chat_reasoning.txt"_s << true << 200 << u"none"_s << QString()
        << QList<qint32>(13, 1) << 14 << u"server_usage"_s << 9 << u"server_usage"_s << -1
        << qint64(34) << u"stop"_s;
    QTest::newRow("proxy chat, CRLF")
        << u"proxy_chat_crlf.txt"_s << true << 200 << u"none"_s << QString() << QList<qint32>(6, 1)
        << 6 << u"server_usage"_s << 20 << u"server_usage"_s << -1 << qint64(17) << u"length"_s;
    QTest::newRow("comments, fields, data: without space, multi-line data")
        << u"comments_nospace.txt"_s << true << 200 << u"none"_s << QString() << QList<qint32>(4, 1)
        << 4 << u"server_usage"_s << 7 << u"server_usage"_s << -1 << qint64(18) << u"stop"_s;
    QTest::newRow("mid-stream error after tokens")
        << u"vllm_midstream_error.txt"_s << false << 200 << u"stream_error"_s
        << u"longer than the maximum model length"_s << QList<qint32>(3, 1) << 3 << u"chunk_count"_s
        << -1 << u"unknown"_s << -1 << qint64(12) << QString();
    QTest::newRow("invalid JSON chunk")
        << u"invalid_json.txt"_s << false << 200 << u"invalid_json"_s << u"\"text\":\" wor"_s
        << QList<qint32>(2, 1) << 2 << u"chunk_count"_s << -1 << u"unknown"_s << -1 << qint64(9)
        << QString();
    QTest::newRow("missing [DONE]") << u"missing_done.txt"_s << false << 200 << u"incomplete"_s
                                    << u"[DONE]"_s << QList<qint32>(5, 1) << 5 << u"server_usage"_s
                                    << 5 << u"server_usage"_s << -1 << qint64(10) << QString();
    QTest::newRow("HTTP 500 JSON body")
        << u"http500_json.txt"_s << false << 500 << u"http_5xx"_s
        << u"HTTP 500: CUDA out of memory. Tried to allocate 2.00 GiB"_s << QList<qint32>() << 0
        << u"chunk_count"_s << -1 << u"unknown"_s << -1 << qint64(0) << QString();
    // 你好，世界！😀👍🏽 café: 14 code points, half of the chunks as raw UTF-8 and
    // half as \u escapes (surrogate pairs included).
    QTest::newRow("multi-byte UTF-8")
        << u"utf8_chat.txt"_s << true << 200 << u"none"_s << QString() << ones7 << 10
        << u"server_usage"_s << 15 << u"server_usage"_s << -1 << qint64(14) << u"stop"_s;
    QTest::newRow("continuous usage stats, multi-token chunks")
        << u"continuous_usage.txt"_s << true << 200 << u"none"_s << QString()
        << QList<qint32>{1, 2, 1, 3, 1, 1, 2} << 12 << u"server_usage"_s << 30 << u"server_usage"_s
        << -1 << qint64(44) << u"stop"_s;
    QTest::newRow("no token chunk")
        << u"no_tokens.txt"_s << true << 200 << u"no_tokens"_s << u"finish_reason stop"_s
        << QList<qint32>() << 1 << u"server_usage"_s << 11 << u"server_usage"_s << -1 << qint64(0)
        << u"stop"_s;
}

void TestStreamAccumulator::recordedStream()
{
    QFETCH(QString, file);
    QFETCH(bool, chat);
    QFETCH(int, status);
    QFETCH(QString, error);
    QFETCH(QString, messageContains);
    QFETCH(QList<qint32>, chunkTokens);
    QFETCH(int, outputTokens);
    QFETCH(QString, outputSource);
    QFETCH(int, inputTokens);
    QFETCH(QString, inputSource);
    QFETCH(int, cachedTokens);
    QFETCH(qint64, outputChars);
    QFETCH(QString, finishReason);

    const Input in{readStream(file), chat ? ApiFlavour::Chat : ApiFlavour::Completions, status};
    const RequestRecord r = run(in, {});
    QCOMPARE(QString::fromLatin1(errorClassName(r.error)), error);
    QCOMPARE(r.ok(), error == "none"_L1);
    if (messageContains.isEmpty())
        QVERIFY2(r.errorMessage.isEmpty(), qPrintable(r.errorMessage));
    else
        QVERIFY2(r.errorMessage.contains(messageContains), qPrintable(r.errorMessage));
    QCOMPARE(r.httpStatus, status);
    QCOMPARE(r.chunkTokens, chunkTokens);
    QCOMPARE(r.chunkTimes, QList<qint64>(chunkTokens.size(), 1));
    QCOMPARE(r.tFirst, chunkTokens.isEmpty() ? 0 : 1);
    QCOMPARE(r.tLast, chunkTokens.isEmpty() ? 0 : 1);
    QCOMPARE(r.tEnd, 1000000);
    QCOMPARE(r.outputTokens, outputTokens);
    QCOMPARE(QString::fromLatin1(tokenSourceName(r.outputSource)), outputSource);
    QCOMPARE(r.inputTokens, inputTokens);
    QCOMPARE(QString::fromLatin1(tokenSourceName(r.inputSource)), inputSource);
    QCOMPARE(r.cachedTokens, cachedTokens);
    QCOMPARE(r.outputChars, outputChars);
    QCOMPARE(r.finishReason, finishReason);
}

void TestStreamAccumulator::everySplitPoint()
{
    QFETCH(QString, file);
    QFETCH(bool, chat);
    QFETCH(int, status);

    const QByteArray original = readStream(file);
    const QList<QByteArray> variants = {original, withLineEnds(original, "\n"),
                                        withLineEnds(original, "\r\n"),
                                        withLineEnds(original, "\r")};
    const RequestRecord reference =
        run({original, chat ? ApiFlavour::Chat : ApiFlavour::Completions, status}, {});
    for (qsizetype v = 0; v < variants.size(); ++v) {
        if (v > 0 && variants[v] == original)
            continue; // already covered as variant 0
        const Input in{variants[v], chat ? ApiFlavour::Chat : ApiFlavour::Completions, status};
        const RequestRecord whole = run(in, {});
        QString diff = difference(reference, whole);
        QVERIFY2(diff.isEmpty(), qPrintable(u"line-end variant %1: "_s.arg(v) + diff));

        // Byte by byte, piece i arrives at time i + 1, so each chunk's time is one past the
        // offset of the byte that completed its event.
        const RequestRecord bytewise = runBytewise(in);
        diff = difference(whole, bytewise);
        QVERIFY2(diff.isEmpty(), qPrintable(u"variant %1 byte by byte: "_s.arg(v) + diff));

        for (qsizetype cut = 1; cut < in.body.size(); ++cut) {
            const RequestRecord split = run(in, {cut});
            diff = difference(whole, split);
            QVERIFY2(diff.isEmpty(),
                     qPrintable(u"variant %1 split at %2: "_s.arg(v).arg(cut) + diff));
            // A chunk belongs to the first read exactly when its event was complete by then.
            for (qsizetype i = 0; i < split.chunkTimes.size(); ++i) {
                const qint64 expected = bytewise.chunkTimes[i] <= cut ? 1 : 2;
                QVERIFY2(split.chunkTimes[i] == expected,
                         qPrintable(u"variant %1 split at %2: chunk %3 at %4, expected %5"_s.arg(v)
                                        .arg(cut)
                                        .arg(i)
                                        .arg(split.chunkTimes[i])
                                        .arg(expected)));
            }
        }
    }
}

void TestStreamAccumulator::doneWithoutBlankLine()
{
    const QByteArray token =
        R"(data: {"choices":[{"index":0,"text":"hi","finish_reason":"length"}]})"
        "\n\n";
    {
        const RequestRecord r = run({token + "data: [DONE]\n"}, {});
        QCOMPARE(r.error, ErrorClass::None);
        QCOMPARE(r.chunkTimes.size(), 1);
    }
    {
        // The line itself was cut short: the server never finished saying it was done.
        const RequestRecord r = run({token + "data: [DONE]"}, {});
        QCOMPARE(r.error, ErrorClass::Incomplete);
        QCOMPARE(r.chunkTimes.size(), 1);
        QCOMPARE(r.outputTokens, 1);
        QCOMPARE(r.outputSource, TokenSource::ChunkCount);
    }
}

void TestStreamAccumulator::bytesAfterDoneIgnored()
{
    RequestRecord r;
    StreamAccumulator acc(ApiFlavour::Completions, &r);
    acc.onHttpStatus(200);
    const QByteArray bytes = R"(data: {"choices":[{"index":0,"text":"a"}]})"
                             "\n\ndata: [DONE]\n\n"
                             R"(data: {"choices":[{"index":0,"text":"b"}]})"
                             "\n\n";
    QVERIFY(!acc.complete());
    acc.onBytes(bytes.constData(), bytes.size(), 5);
    QVERIFY(acc.complete());
    acc.onBytes("data: {broken\n\n", 15, 6);
    acc.finish(ErrorClass::None, {}, 7);
    QCOMPARE(r.error, ErrorClass::None);
    QCOMPARE(r.chunkTimes, QList<qint64>{5});
    QCOMPARE(r.outputChars, 1);
    QCOMPARE(r.tEnd, 7);
}

void TestStreamAccumulator::transportErrorPrecedence()
{
    const QByteArray tokens = R"(data: {"choices":[{"index":0,"text":"a"}]})"
                              "\n\n";
    {
        const RequestRecord r = run({tokens}, {}, ErrorClass::Reset, u"connection reset"_s);
        QCOMPARE(r.error, ErrorClass::Reset);
        QCOMPARE(r.errorMessage, u"connection reset"_s);
        QCOMPARE(r.chunkTimes.size(), 1); // what arrived before the reset is kept
    }
    {
        const RequestRecord r = run({tokens}, {}, ErrorClass::Timeout, u"timed out"_s);
        QCOMPARE(r.error, ErrorClass::Timeout);
    }
    {
        // The server's own error explains more than the reset that followed it.
        const RequestRecord r = run({tokens + R"(data: {"error":{"message":"boom"}})"
                                              "\n\n"},
                                    {}, ErrorClass::Reset, u"connection reset"_s);
        QCOMPARE(r.error, ErrorClass::StreamError);
        QCOMPARE(r.errorMessage, u"boom"_s);
    }
    {
        const RequestRecord r = run({"upstream failed", ApiFlavour::Completions, 502}, {},
                                    ErrorClass::Transport, u"Bad Gateway"_s);
        QCOMPARE(r.error, ErrorClass::Http5xx);
        QCOMPARE(r.errorMessage, u"HTTP 502: upstream failed"_s);
    }
}

void TestStreamAccumulator::httpErrorBody_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<ErrorClass>("error");
    QTest::addColumn<QString>("message");

    QTest::newRow("429 plain text") << 429 << QByteArray("Too Many Requests\n")
                                    << ErrorClass::Http429 << u"HTTP 429: Too Many Requests"_s;
    QTest::newRow("400 OpenAI error object")
        << 400
        << QByteArray(
               R"({"error":{"message":"max_tokens is too large","type":"invalid_request_error"}})")
        << ErrorClass::Http4xx << u"HTTP 400: max_tokens is too large"_s;
    QTest::newRow("400 vLLM top-level error")
        << 400
        << QByteArray(
               R"({"object":"error","message":"model not found","type":"NotFoundError","code":404})")
        << ErrorClass::Http4xx << u"HTTP 400: model not found"_s;
    QTest::newRow("404 FastAPI detail") << 404 << QByteArray(R"({"detail":"Not Found"})")
                                        << ErrorClass::Http4xx << u"HTTP 404: Not Found"_s;
    QTest::newRow("503 empty body")
        << 503 << QByteArray() << ErrorClass::Http5xx << u"HTTP 503: (empty body)"_s;
    QTest::newRow("302 redirect") << 302 << QByteArray("moved") << ErrorClass::HttpOther
                                  << u"HTTP 302: moved"_s;
}

void TestStreamAccumulator::httpErrorBody()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(ErrorClass, error);
    QFETCH(QString, message);
    const RequestRecord r = run({body, ApiFlavour::Chat, status}, {});
    QCOMPARE(r.error, error);
    QCOMPARE(r.errorMessage, message);
    QCOMPARE(r.httpStatus, status);
    QVERIFY(r.chunkTimes.isEmpty());

    // A huge body is bounded and its message truncated.
    const RequestRecord big = run({QByteArray(1 << 20, 'x'), ApiFlavour::Chat, status}, {});
    QCOMPARE(big.error, error);
    QVERIFY(big.errorMessage.startsWith(u"HTTP %1: xxx"_s.arg(status)));
    QVERIFY2(big.errorMessage.size() <= 501, qPrintable(QString::number(big.errorMessage.size())));
}

void TestStreamAccumulator::fallbackCounts()
{
    // No usage at all: tokens are counted per chunk, input comes from the dataset.
    Input in{R"(data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]})"
             "\n\n"
             R"(data: {"choices":[{"index":0,"delta":{"content":"a"}}]})"
             "\n\n"
             R"(data: {"choices":[{"index":0,"delta":{"content":" b"}}]})"
             "\n\n"
             R"(data: {"choices":[{"index":0,"delta":{"content":""},"finish_reason":"length"}]})"
             "\n\ndata: [DONE]\n\n",
             ApiFlavour::Chat};
    in.expectedInputTokens = 100;
    RequestRecord r = run(in, {});
    QCOMPARE(r.error, ErrorClass::None);
    QCOMPARE(r.outputTokens, 2);
    QCOMPARE(r.outputSource, TokenSource::ChunkCount);
    QCOMPARE(r.inputTokens, 100);
    QCOMPARE(r.inputSource, TokenSource::Dataset);
    QCOMPARE(r.finishReason, u"length"_s);
    QCOMPARE(r.outputChars, 3);

    in.expectedInputTokens = -1;
    r = run(in, {});
    QCOMPARE(r.inputTokens, -1);
    QCOMPARE(r.inputSource, TokenSource::Unknown);

    // A chat stream read as completions has no text: that must show as no tokens.
    in.flavour = ApiFlavour::Completions;
    r = run(in, {});
    QCOMPARE(r.error, ErrorClass::NoTokens);
}

void TestStreamAccumulator::streamErrorShapes_data()
{
    QTest::addColumn<QByteArray>("event");
    QTest::addColumn<QString>("message");
    QTest::newRow("error object") << QByteArray(R"({"error":{"message":"engine dead","code":500}})")
                                  << u"engine dead"_s;
    QTest::newRow("error object without message")
        << QByteArray(R"({"error":{"code":500}})") << u"{\"code\":500}"_s;
    QTest::newRow("error string") << QByteArray(R"({"error":"overloaded"})") << u"overloaded"_s;
    QTest::newRow("vLLM top-level ErrorResponse")
        << QByteArray(R"({"object":"error","message":"abort","type":"InternalServerError"})")
        << u"abort"_s;
}

void TestStreamAccumulator::streamErrorShapes()
{
    QFETCH(QByteArray, event);
    QFETCH(QString, message);
    const RequestRecord r = run({R"(data: {"choices":[{"index":0,"text":"a"}]})"
                                 "\n\ndata: " +
                                 event + "\n\ndata: [DONE]\n\n"},
                                {});
    QCOMPARE(r.error, ErrorClass::StreamError);
    QCOMPARE(r.errorMessage, message);
    QCOMPARE(r.chunkTimes.size(), 1);

    // "error": null is not an error (some servers send the key on every chunk).
    const RequestRecord ok = run({R"(data: {"error":null,"choices":[{"index":0,"text":"a"}]})"
                                  "\n\ndata: [DONE]\n\n"},
                                 {});
    QCOMPARE(ok.error, ErrorClass::None);
}

void TestStreamAccumulator::notAJsonObject()
{
    const RequestRecord r = run({"data: [1,2]\n\ndata: [DONE]\n\n"}, {});
    QCOMPARE(r.error, ErrorClass::InvalidJson);
    QVERIFY2(r.errorMessage.contains(u"[1,2]"_s), qPrintable(r.errorMessage));

    // The message quotes what came, bounded.
    const RequestRecord big = run({"data: {" + QByteArray(10000, 'y') + "\n\n"}, {});
    QCOMPARE(big.error, ErrorClass::InvalidJson);
    QVERIFY(big.errorMessage.contains(u"yyyy"_s));
    QVERIFY2(big.errorMessage.size() < 400, qPrintable(QString::number(big.errorMessage.size())));
}

void TestStreamAccumulator::emptyDataEventIgnored()
{
    const RequestRecord r = run({"data:\n\n"
                                 R"(data: {"choices":[{"index":0,"text":"a"}]})"
                                 "\n\ndata: \n\ndata: [DONE]\n\n"},
                                {});
    QCOMPARE(r.error, ErrorClass::None);
    QCOMPARE(r.chunkTimes.size(), 1);
}

void TestStreamAccumulator::nonStreamingBody()
{
    // A server that ignored stream:true answers with one JSON object and no SSE at all.
    const RequestRecord r =
        run({R"({"id":"cmpl-1","object":"text_completion","choices":[{"text":"hi"}]})"}, {});
    QCOMPARE(r.error, ErrorClass::Incomplete);
    QVERIFY2(r.errorMessage.contains(u"body began \"{\"id\":\"cmpl-1\""_s),
             qPrintable(r.errorMessage));
}

void TestStreamAccumulator::reasoningStamps_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("flavour");
    QTest::addColumn<qint64>("firstReasoning"); // receive tick, 0 = none
    QTest::addColumn<qint64>("firstContent");
    QTest::addColumn<int>("reasoningTokens");
    QTest::addColumn<int>("reasoningSource");
    const QByteArray role =
        R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]})";
    auto delta = [](const char *field, const char *text) {
        return QByteArray(R"({"choices":[{"index":0,"delta":{")") + field + "\":\"" + text +
               "\"}}]}";
    };
    const QByteArray usageDetails =
        R"({"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8,)"
        R"("completion_tokens_details":{"reasoning_tokens":3}}})";
    // Events: 1 role, 2..4 reasoning, 5..6 content (ticks are event positions).
    const QList<QByteArray> reasoningThenContent = {
        role,
        delta("reasoning_content", "Let"),
        delta("reasoning_content", " me"),
        delta("reasoning_content", " think"),
        delta("content", "Yes"),
        delta("content", "."),
    };
    QTest::newRow("reasoning_content, chunk count")
        << sse(reasoningThenContent) << int(ApiFlavour::Chat) << qint64(2) << qint64(5) << 3
        << int(TokenSource::ChunkCount);
    QTest::newRow("reasoning_content, usage details")
        << sse(reasoningThenContent + QList<QByteArray>{usageDetails}) << int(ApiFlavour::Chat)
        << qint64(2) << qint64(5) << 3 << int(TokenSource::ServerUsage);
    QTest::newRow("field reasoning")
        << sse({role, delta("reasoning", "hm"), delta("content", "ok")}) << int(ApiFlavour::Chat)
        << qint64(2) << qint64(3) << 1 << int(TokenSource::ChunkCount);
    QTest::newRow("one chunk with both")
        << sse({R"({"choices":[{"index":0,"delta":{"reasoning_content":"a","content":"b"}}]})",
                delta("content", "c")})
        << int(ApiFlavour::Chat) << qint64(1) << qint64(1) << 1 << int(TokenSource::ChunkCount);
    QTest::newRow("no reasoning") << sse({role, delta("content", "x"), delta("content", "y")})
                                  << int(ApiFlavour::Chat) << qint64(0) << qint64(2) << -1
                                  << int(TokenSource::Unknown);
    QTest::newRow("reasoning only (cut off)")
        << sse({role, delta("reasoning_content", "a"), delta("reasoning_content", "b")})
        << int(ApiFlavour::Chat) << qint64(2) << qint64(0) << 2 << int(TokenSource::ChunkCount);
    QTest::newRow("completions") << sse({R"({"choices":[{"index":0,"text":"hi"}]})",
                                         R"({"choices":[{"index":0,"text":" there"}]})"})
                                 << int(ApiFlavour::Completions) << qint64(0) << qint64(1) << -1
                                 << int(TokenSource::Unknown);
}

void TestStreamAccumulator::reasoningStamps()
{
    QFETCH(QByteArray, body);
    QFETCH(int, flavour);
    QFETCH(qint64, firstReasoning);
    QFETCH(qint64, firstContent);
    QFETCH(int, reasoningTokens);
    QFETCH(int, reasoningSource);
    // The scanner and the full parser must agree.
    for (bool full : {false, true}) {
        const RequestRecord r = runEvents(body, ApiFlavour(flavour), nullptr, full);
        QVERIFY2(r.error == ErrorClass::None, qPrintable(r.errorMessage));
        QCOMPARE(r.tFirstReasoning, firstReasoning);
        QCOMPARE(r.tFirstContent, firstContent);
        // TTFT takes the first token of either kind.
        QCOMPARE(r.tFirst,
                 firstReasoning > 0
                     ? qMin(firstReasoning, firstContent > 0 ? firstContent : firstReasoning)
                     : firstContent);
        QCOMPARE(r.reasoningTokens, reasoningTokens);
        QCOMPARE(int(r.reasoningSource), reasoningSource);
    }
}

void TestStreamAccumulator::tokenizerCountsTheText_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("flavour");
    QTest::addColumn<QString>("reasoning"); // the decoded texts the stream carries
    QTest::addColumn<QString>("content");
    QTest::addColumn<int>("usageOutput"); // -1: the stream has no usage
    // Escapes and a surrogate pair split over chunks: the counted text is the decoded one.
    QTest::newRow("chat, escapes, no usage")
        << sse({R"({"choices":[{"index":0,"delta":{"reasoning_content":"the \"quoted\"\n"}}]})",
                R"({"choices":[{"index":0,"delta":{"reasoning_content":" it's\tfine"}}]})",
                R"({"choices":[{"index":0,"delta":{"content":"caf\u00e9 \ud83d\ude00"}}]})",
                R"({"choices":[{"index":0,"delta":{"content":" theirs back\\slash"}}]})"})
        << int(ApiFlavour::Chat) << u"the \"quoted\"\n it's\tfine"_s
        << u"caf\u00e9 \U0001F600 theirs back\\slash"_s << -1;
    QTest::newRow("chat, usage")
        << sse({R"({"choices":[{"index":0,"delta":{"content":"hello there"}}]})",
                R"({"choices":[{"index":0,"delta":{"content":" world"}}]})",
                R"({"choices":[],"usage":{"prompt_tokens":2,"completion_tokens":7,"total_tokens":9}})"})
        << int(ApiFlavour::Chat) << QString() << u"hello there world"_s << 7;
    QTest::newRow("completions, no usage")
        << sse({R"({"choices":[{"index":0,"text":"the theory"}]})",
                R"({"choices":[{"index":0,"text":" of \u6771\u4eac"}]})"})
        << int(ApiFlavour::Completions) << QString() << u"the theory of \u6771\u4eac"_s << -1;
}

void TestStreamAccumulator::tokenizerCountsTheText()
{
    QFETCH(QByteArray, body);
    QFETCH(int, flavour);
    QFETCH(QString, reasoning);
    QFETCH(QString, content);
    QFETCH(int, usageOutput);
    QString why;
    const std::unique_ptr<Tokenizer> tok =
        Tokenizer::load(QStringLiteral(SB_TEST_DATA_DIR "/tokenizer/tiny"), &why);
    QVERIFY2(tok, qPrintable(why));
    // Reasoning and content are counted apart (no token spans the two), without special tokens.
    const int expected = int(tok->count(reasoning) + tok->count(content));
    QVERIFY(expected > 0);
    for (bool full : {false, true}) {
        const RequestRecord r = runEvents(body, ApiFlavour(flavour), tok.get(), full);
        QVERIFY2(r.error == ErrorClass::None, qPrintable(r.errorMessage));
        QCOMPARE(r.clientOutputTokens, expected);
        if (usageOutput >= 0) {
            QCOMPARE(r.outputTokens, usageOutput);
            QCOMPARE(r.outputSource, TokenSource::ServerUsage);
        } else {
            QCOMPARE(r.outputTokens, expected);
            QCOMPARE(r.outputSource, TokenSource::Tokenizer);
        }
        if (!reasoning.isEmpty()) {
            QCOMPARE(r.reasoningTokens, int(tok->count(reasoning)));
            QCOMPARE(r.reasoningSource, TokenSource::Tokenizer);
        }
    }
    // Without a tokenizer nothing is counted on the client's side.
    const RequestRecord plain = runEvents(body, ApiFlavour(flavour));
    QCOMPARE(plain.clientOutputTokens, -1);
}

QTEST_GUILESS_MAIN(TestStreamAccumulator)
#include "tst_streamaccumulator.moc"
