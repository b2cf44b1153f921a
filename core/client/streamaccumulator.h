#pragma once

#include "client/responselimits.h"
#include "config/runplan.h"
#include "metrics/requestrecord.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <memory>

class QJsonObject;

namespace sb {

class SseParser;
class Tokenizer;
struct ChunkFields;
struct ChunkText;

// Turns the bytes of one streamed HTTP response into a RequestRecord, whatever transport
// delivered them. It knows the streaming protocols (docs/design.md, "Wire protocol"): OpenAI
// chunks (completions, chat) and the typed events of the Responses and Messages APIs
// (apievents.h); transports know sockets. The non-streamed embeddings and rerank answers are
// read whole when the body ends (docs/metrics.md, "Embeddings and rerank"): usage, and the
// number of embeddings or results against the record's batchItems (ResultMismatch when they
// differ); no token chunk, no first token.
//
// Call order: onHttpStatus() once when headers arrive, onBytes() for every body read (already
// de-chunked: the transport removes HTTP chunked framing), then finish() exactly once.
class StreamAccumulator
{
public:
    StreamAccumulator(ApiFlavour flavour, RequestRecord *record);
    ~StreamAccumulator();
    StreamAccumulator(const StreamAccumulator &) = delete;
    StreamAccumulator &operator=(const StreamAccumulator &) = delete;

    // Caps on one SSE line/event and on the body (the bytes given to onBytes); before onBytes.
    void setLimits(const ResponseLimits &limits) { m_limits = limits; }

    void onHttpStatus(int status);
    // tRecvNs: monotonic time the bytes were received. A token chunk is stamped with the time of
    // the read that completed its (last) data line (SseParser::eventTime()).
    void onBytes(const char *data, qsizetype size, qint64 tRecvNs);
    // transportError: None when the transport saw a clean end of the response body.
    void finish(ErrorClass transportError, const QString &message, qint64 tEndNs);

    // True once the stream's end ([DONE], response.completed or .incomplete, message_stop) or a
    // stream error arrived: the transport may stop reading.
    bool complete() const;
    // The response broke a cap (ErrorClass::Oversize): the transport should close at once.
    bool oversize() const { return m_failed && m_record->error == ErrorClass::Oversize; }
    // Bytes held back between reads (an unfinished line or event).
    qsizetype bufferedBytes() const;

    // Reads ordinary chunk events with ChunkScanner instead of a QJsonDocument (the default);
    // anything the scanner is not sure of still goes to the full parser. Off: always the full
    // parser — for tests that prove both paths give the same record.
    void setFastScan(bool on) { m_fastScan = on; }
    // Keeps the generated text (completions: choices[0].text; chat: delta.content, not the
    // reasoning; Responses and Messages: the content deltas) in the record's outputText, for a session's history. Every event then goes to
    // the full parser: the scanner counts characters without decoding them.
    void setCaptureText(bool on) { m_captureText = on; }
    // The model's tokenizer (docs/tokenizers.md), or null. With one, the generated text
    // (reasoning and content apart) is kept while the stream lasts and counted in finish():
    // record.clientOutputTokens always, outputTokens when the server sent no usage, and
    // reasoningTokens when it sent no completion_tokens_details.reasoning_tokens. The text is
    // dropped once counted. Must outlive the accumulator.
    void setTokenizer(const Tokenizer *tokenizer) { m_tokenizer = tokenizer; }

private:
    void onEvent(QByteArrayView data, qint64 tRecvNs);
    void onChunk(const QJsonObject &chunk, qint64 tRecvNs);
    void onApiEvent(const QJsonObject &event, qint64 tRecvNs);
    void applyChunk(const ChunkFields &fields, qint64 tRecvNs);
    void keepText(const ChunkText &text);
    void keepText(const QJsonObject &chunk);
    void countText();
    // Embeddings and rerank: the whole answer, read when the body ended.
    void readPoolingAnswer();
    void fail(ErrorClass error, const QString &message);
    void classifyHttpError();

    ApiFlavour m_flavour;
    RequestRecord *m_record;
    std::unique_ptr<SseParser> m_parser;
    ResponseLimits m_limits;
    qint64 m_bodyBytes = 0;
    QByteArray m_errorBody;         // body of a non-2xx response, bounded
    QByteArray m_head;              // the first bytes of the body, quoted when no event ever came
    QByteArray m_body;              // embeddings and rerank: the whole answer, until finish()
    qint64 m_events = 0;            // data events seen
    qint32 m_runningCompletion = 0; // last usage.completion_tokens seen on a token chunk
    bool m_httpError = false;
    bool m_done = false;   // data: [DONE] (or the flavour's end event) arrived
    qint32 m_uncachedInput = -1; // Messages: the last usage.input_tokens
    bool m_failed = false; // a stream error or invalid JSON was seen
    bool m_finished = false;
    bool m_fastScan = true;
    bool m_captureText = false;
    const Tokenizer *m_tokenizer = nullptr;
    QByteArray m_contentText;   // UTF-8, only with a tokenizer
    QByteArray m_reasoningText; // UTF-8, only with a tokenizer
    qint64 m_reasoningChunkTokens = 0;
};

} // namespace sb
