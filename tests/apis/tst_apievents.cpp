// The stream side of the OpenAI Responses and Anthropic Messages APIs (core/client/apievents.h,
// StreamAccumulator): event sequences taken from the official SDKs' own test fixtures
// (tests/data/apis/*.sse, each names its source) give the records those sequences say — text
// length, token counts from usage, error class — whichever way the bytes are cut.

#include "client/apievents.h"
#include "client/streamaccumulator.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QByteArray fixture(const QString &name)
{
    QFile f(QStringLiteral(SB_TEST_DATA_DIR "/apis/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(f.fileName()));
    return f.readAll();
}

// Feeds the body one SSE block at a time (block i, 1-based, is received at time i), or cut at
// every byte (each byte its own read, at time 1), then finishes with a clean end at 1000000.
RequestRecord feed(const QByteArray &body, ApiFlavour flavour, bool bytewise = false,
                   bool captureText = false, int status = 200)
{
    RequestRecord r;
    StreamAccumulator acc(flavour, &r);
    acc.setCaptureText(captureText);
    acc.onHttpStatus(status);
    if (bytewise) {
        for (qsizetype i = 0; i < body.size(); ++i)
            acc.onBytes(body.constData() + i, 1, 1);
    } else {
        qsizetype from = 0;
        qint64 t = 1;
        for (qsizetype end = body.indexOf("\n\n"); end >= 0; end = body.indexOf("\n\n", from)) {
            acc.onBytes(body.constData() + from, end + 2 - from, t++);
            from = end + 2;
        }
        if (from < body.size())
            acc.onBytes(body.constData() + from, body.size() - from, t);
    }
    acc.finish(ErrorClass::None, {}, 1000000);
    return r;
}

QByteArray withCrLf(QByteArray body)
{
    body.replace("\n", "\r\n");
    return body;
}

} // namespace

class TestApiEvents : public QObject
{
    Q_OBJECT
private slots:
    void fixtures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("flavour");
        QTest::addColumn<QString>("error"); // errorClassName
        QTest::addColumn<QString>("message");
        QTest::addColumn<qint64>("contentChars");
        QTest::addColumn<qint64>("reasoningChars");
        QTest::addColumn<int>("chunks");
        QTest::addColumn<int>("input");
        QTest::addColumn<int>("output");
        QTest::addColumn<int>("cached");
        QTest::addColumn<int>("creation");
        QTest::addColumn<int>("reasoning");
        QTest::addColumn<QString>("finish");
        QTest::addColumn<int>("tFirst"); // the SSE block of the first delta (1-based)
        QTest::addColumn<int>("tFirstContent");
        QTest::addColumn<int>("tFirstReasoning");
        const int M = int(ApiFlavour::Messages), R = int(ApiFlavour::Responses);

        // Anthropic: text deltas after message_start, a ping between them; input 11 from
        // message_start, output 6 from message_delta (message_start's output_tokens 1 is not
        // the count).
        QTest::newRow("messages basic") << u"messages-basic.sse"_s << M << u"none"_s << QString()
                                        << 12LL << 0LL << 3 << 11 << 6 << -1 << -1 << -1
                                        << u"end_turn"_s << 5 << 5 << 0;
        // Thinking blocks (one empty thinking_delta, a signature_delta), then text; the final
        // message_delta carries output_tokens_details.thinking_tokens.
        QTest::newRow("messages thinking") << u"messages-thinking.sse"_s << M << u"none"_s
                                           << QString() << 2LL << 212LL << 4 << 28 << 106 << 0
                                           << 0 << 67 << u"refusal"_s << 5 << 12 << 5;
        // The usage-only final event repeats input and cache counts: they replace
        // message_start's. Input = input_tokens + cache read + cache creation = 42 + 8 + 7.
        QTest::newRow("messages usage in message_delta")
            << u"messages-usage-delta.sse"_s << M << u"none"_s << QString() << 5LL << 0LL << 1
            << 57 << 99 << 8 << 7 << 30 << u"end_turn"_s << 4 << 4 << 0;
        // message_delta with output_tokens only: message_start's input and cache counts stay.
        QTest::newRow("messages usage in message_start")
            << u"messages-usage-start.sse"_s << M << u"none"_s << QString() << 3LL << 0LL << 1
            << 15 << 12 << 3 << 2 << -1 << u"end_turn"_s << 4 << 4 << 0;
        // An error event mid-stream: overloaded_error is its own class; the tokens before it
        // were received (output counted from the chunks: no usage came).
        QTest::newRow("messages overloaded mid-stream")
            << u"messages-overloaded.sse"_s << M << u"overloaded"_s
            << u"overloaded_error: Overloaded"_s << 11LL << 0LL << 2 << 11 << 2 << -1 << -1 << -1
            << QString() << 5 << 5 << 0;
        QTest::newRow("messages api_error mid-stream")
            << u"messages-error.sse"_s << M << u"stream_error"_s
            << u"api_error: Internal server error"_s << 11LL << 0LL << 2 << 11 << 2 << -1 << -1
            << -1 << QString() << 5 << 5 << 0;

        // OpenAI Responses: output_text deltas, usage in response.completed (then [DONE],
        // which the snapshot adds).
        QTest::newRow("responses text") << u"responses-text.sse"_s << R << u"none"_s << QString()
                                        << 11LL << 0LL << 2 << 10 << 2 << 0 << -1 << 0
                                        << u"completed"_s << 5 << 5 << 0;
        QTest::newRow("responses reasoning")
            << u"responses-reasoning.sse"_s << R << u"none"_s << QString() << 16LL << 22LL << 4
            << 0 << 6 << 0 << -1 << 2 << u"completed"_s << 5 << 9 << 5;
        // A flat error event after the first delta.
        QTest::newRow("responses error mid-stream")
            << u"responses-error.sse"_s << R << u"stream_error"_s
            << u"server_error: The server had an error while processing your request."_s << 6LL
            << 0LL << 1 << -1 << 1 << -1 << -1 << -1 << QString() << 5 << 5 << 0;
        QTest::newRow("responses failed")
            << u"responses-failed.sse"_s << R << u"stream_error"_s
            << u"response.failed: server_error: The response failed."_s << 0LL << 0LL << 0 << -1
            << 0 << -1 << -1 << -1 << QString() << 0 << 0 << 0;
        QTest::newRow("responses nested error")
            << u"responses-nested-error.sse"_s << R << u"stream_error"_s
            << u"rate_limit_exceeded: The model is currently over capacity."_s << 0LL << 0LL << 0
            << -1 << 0 << -1 << -1 << -1 << QString() << 0 << 0 << 0;
    }

    void fixtures()
    {
        QFETCH(QString, file);
        QFETCH(int, flavour);
        QFETCH(QString, error);
        QFETCH(QString, message);
        QFETCH(qint64, contentChars);
        QFETCH(qint64, reasoningChars);
        QFETCH(int, chunks);
        QFETCH(int, input);
        QFETCH(int, output);
        QFETCH(int, cached);
        QFETCH(int, creation);
        QFETCH(int, reasoning);
        QFETCH(QString, finish);
        QFETCH(int, tFirst);
        QFETCH(int, tFirstContent);
        QFETCH(int, tFirstReasoning);
        const QByteArray body = fixture(file);
        const RequestRecord r = feed(body, ApiFlavour(flavour));
        QCOMPARE(QString::fromLatin1(errorClassName(r.error)), error);
        QCOMPARE(r.errorMessage, message);
        QCOMPARE(r.outputChars, contentChars + reasoningChars);
        QCOMPARE(r.chunkTimes.size(), chunks);
        QCOMPARE(r.inputTokens, input);
        QCOMPARE(r.outputTokens, output);
        QCOMPARE(r.cachedTokens, cached);
        QCOMPARE(r.cacheCreationTokens, creation);
        QCOMPARE(r.reasoningTokens, reasoning);
        QCOMPARE(r.finishReason, finish);
        QCOMPARE(r.tFirst, qint64(tFirst));
        QCOMPARE(r.tFirstContent, qint64(tFirstContent));
        QCOMPARE(r.tFirstReasoning, qint64(tFirstReasoning));
        if (input >= 0)
            QCOMPARE(r.inputSource, TokenSource::ServerUsage);
        if (r.ok())
            QCOMPARE(r.outputSource, TokenSource::ServerUsage);
        if (reasoning >= 0) // every row's reasoning count is the usage's
            QCOMPARE(r.reasoningSource, TokenSource::ServerUsage);

        // The same record whatever the reads and line endings.
        for (const QByteArray &variant : {body, withCrLf(body)}) {
            const RequestRecord b = feed(variant, ApiFlavour(flavour), true);
            QCOMPARE(b.error, r.error);
            QCOMPARE(b.errorMessage, r.errorMessage);
            QCOMPARE(b.outputChars, r.outputChars);
            QCOMPARE(b.chunkTimes.size(), r.chunkTimes.size());
            QCOMPARE(b.inputTokens, r.inputTokens);
            QCOMPARE(b.outputTokens, r.outputTokens);
            QCOMPARE(b.cachedTokens, r.cachedTokens);
            QCOMPARE(b.cacheCreationTokens, r.cacheCreationTokens);
            QCOMPARE(b.reasoningTokens, r.reasoningTokens);
        }
        // The captured text (a session's history) is the content deltas, not the reasoning.
        const RequestRecord c = feed(body, ApiFlavour(flavour), false, true);
        QCOMPARE(qint64(c.outputText.toUcs4().size()), contentChars);
    }

    // A stream cut before its end event is incomplete and says which event it missed.
    void cutBeforeTheEnd_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("flavour");
        QTest::addColumn<QByteArray>("endEvent");
        QTest::addColumn<QString>("said");
        QTest::newRow("responses") << u"responses-text.sse"_s << int(ApiFlavour::Responses)
                                   << QByteArray("response.completed") << u"response.completed"_s;
        QTest::newRow("messages") << u"messages-basic.sse"_s << int(ApiFlavour::Messages)
                                  << QByteArray("message_stop") << u"message_stop"_s;
    }
    void cutBeforeTheEnd()
    {
        QFETCH(QString, file);
        QFETCH(int, flavour);
        QFETCH(QByteArray, endEvent);
        QFETCH(QString, said);
        QByteArray body = fixture(file);
        const qsizetype at = body.indexOf(endEvent);
        QVERIFY(at > 0);
        body.truncate(body.lastIndexOf("\n\n", at) + 2);
        const RequestRecord r = feed(body, ApiFlavour(flavour));
        QCOMPARE(r.error, ErrorClass::Incomplete);
        QVERIFY2(r.errorMessage.contains(said), qPrintable(r.errorMessage));
        QVERIFY(r.chunkTimes.size() > 0);
    }

    // HTTP 529 is Anthropic's "overloaded": its own class, whatever the body.
    void overloadedStatus_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("flavour");
        QTest::addColumn<QString>("error");
        const QString overloaded = u"overloaded"_s;
        QTest::newRow("529 messages") << 529 << int(ApiFlavour::Messages) << overloaded;
        QTest::newRow("529 chat") << 529 << int(ApiFlavour::Chat) << overloaded;
        QTest::newRow("503 messages") << 503 << int(ApiFlavour::Messages) << u"http_5xx"_s;
        QTest::newRow("429 responses") << 429 << int(ApiFlavour::Responses) << u"http_429"_s;
    }
    void overloadedStatus()
    {
        QFETCH(int, status);
        QFETCH(int, flavour);
        QFETCH(QString, error);
        const RequestRecord r =
            feed(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})",
                 ApiFlavour(flavour), false, false, status);
        QCOMPARE(QString::fromLatin1(errorClassName(r.error)), error);
        QCOMPARE(r.errorMessage, u"HTTP %1: Overloaded"_s.arg(status));
    }

    // One event at a time: what is read and what is left alone.
    void events_data()
    {
        QTest::addColumn<int>("flavour");
        QTest::addColumn<QByteArray>("event");
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("reasoning");
        QTest::addColumn<QString>("usage"); // "in out cached creation reasoning"
        QTest::addColumn<QString>("finish");
        QTest::addColumn<bool>("done");
        QTest::addColumn<QString>("error");
        const int M = int(ApiFlavour::Messages), R = int(ApiFlavour::Responses);
        const QString none = u"-1 -1 -1 -1 -1"_s;
        QTest::newRow("ping") << M << QByteArray(R"({"type": "ping"})") << QString() << QString()
                              << none << QString() << false << u"none"_s;
        QTest::newRow("content_block_start") << M
                                             << QByteArray(R"({"type":"content_block_start",)"
                                                           R"("index":0,"content_block":)"
                                                           R"({"type":"text","text":"x"}})")
                                             << QString() << QString() << none << QString()
                                             << false << u"none"_s;
        QTest::newRow("signature_delta")
            << M
            << QByteArray(R"({"type":"content_block_delta","index":0,"delta":)"
                          R"({"type":"signature_delta","signature":"abc"}})")
            << QString() << QString() << none << QString() << false << u"none"_s;
        QTest::newRow("input_json_delta (tool use)")
            << M
            << QByteArray(R"({"type":"content_block_delta","index":1,"delta":)"
                          R"({"type":"input_json_delta","partial_json":"{}"}})")
            << QString() << QString() << none << QString() << false << u"none"_s;
        QTest::newRow("text_delta") << M
                                    << QByteArray(R"({"type":"content_block_delta","index":0,)"
                                                  R"("delta":{"type":"text_delta","text":"é😀"}})")
                                    << u"é😀"_s << QString() << none << QString() << false
                                    << u"none"_s;
        QTest::newRow("message_start output_tokens is not the count")
            << M
            << QByteArray(R"({"type":"message_start","message":{"usage":{"input_tokens":5,)"
                          R"("output_tokens":1}}})")
            << QString() << QString() << u"5 -1 -1 -1 -1"_s << QString() << false << u"none"_s;
        QTest::newRow("message_stop") << M << QByteArray(R"({"type":"message_stop"})")
                                      << QString() << QString() << none << QString() << true
                                      << u"none"_s;
        QTest::newRow("messages error without message")
            << M << QByteArray(R"({"type":"error","error":{"type":"overloaded_error"}})")
            << QString() << QString() << none << QString() << false << u"overloaded"_s;
        QTest::newRow("keepalive") << R << QByteArray(R"({"type":"keepalive","sequence_number":3})")
                                   << QString() << QString() << none << QString() << false
                                   << u"none"_s;
        QTest::newRow("reasoning summary delta")
            << R
            << QByteArray(R"({"type":"response.reasoning_summary_text.delta","item_id":"r",)"
                          R"("output_index":0,"summary_index":0,"delta":"plan"})")
            << QString() << u"plan"_s << none << QString() << false << u"none"_s;
        QTest::newRow("refusal delta is not content")
            << R << QByteArray(R"({"type":"response.refusal.delta","delta":"no"})") << QString()
            << QString() << none << QString() << false << u"none"_s;
        QTest::newRow("incomplete at the output cap")
            << R
            << QByteArray(R"({"type":"response.incomplete","response":{"status":"incomplete",)"
                          R"("incomplete_details":{"reason":"max_output_tokens"},"usage":)"
                          R"({"input_tokens":7,"input_tokens_details":{"cached_tokens":4},)"
                          R"("output_tokens":16,"output_tokens_details":{"reasoning_tokens":3}}}})")
            << QString() << QString() << u"7 16 4 -1 3"_s << u"max_output_tokens"_s << true
            << u"none"_s;
        QTest::newRow("completed without usage")
            << R << QByteArray(R"({"type":"response.completed","response":{"usage":null}})")
            << QString() << QString() << none << u"completed"_s << true << u"none"_s;
        QTest::newRow("a proxy's OpenAI-shaped error")
            << R << QByteArray(R"({"error":{"message":"upstream timed out","code":504}})")
            << QString() << QString() << none << QString() << false << u"stream_error"_s;
    }
    void events()
    {
        QFETCH(int, flavour);
        QFETCH(QByteArray, event);
        QFETCH(QString, content);
        QFETCH(QString, reasoning);
        QFETCH(QString, usage);
        QFETCH(QString, finish);
        QFETCH(bool, done);
        QFETCH(QString, error);
        const ApiEventFields f =
            readApiEvent(QJsonDocument::fromJson(event).object(), ApiFlavour(flavour));
        QCOMPARE(f.content, content);
        QCOMPARE(f.reasoning, reasoning);
        QCOMPARE(u"%1 %2 %3 %4 %5"_s.arg(f.inputTokens)
                     .arg(f.outputTokens)
                     .arg(f.cachedTokens)
                     .arg(f.cacheCreationTokens)
                     .arg(f.reasoningTokens),
                 usage);
        QCOMPARE(f.finishReason, finish);
        QCOMPARE(f.done, done);
        QCOMPARE(QString::fromLatin1(errorClassName(f.error)), error);
        if (f.error != ErrorClass::None)
            QVERIFY(!f.errorMessage.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestApiEvents)
#include "tst_apievents.moc"
