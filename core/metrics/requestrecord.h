#pragma once

#include "common/message.h"

#include <QAnyStringView>
#include <QList>
#include <QStringList>

class QJsonObject;
#include <QMetaType>
#include <QString>

namespace sb {

// Why a request failed. The names (errorClassName) are stable: they are stored in project files,
// result JSON and reports.
enum class ErrorClass : quint8 {
    None = 0,
    Http429,     // server said "too many requests"
    Http4xx,     // any other 4xx status
    Http5xx,     // 5xx status
    HttpOther,   // unexpected non-2xx status outside 4xx/5xx
    Connect,     // refused, unreachable, DNS, TLS handshake
    Reset,       // connection closed or reset by the peer before the stream ended
    Timeout,     // per-request timeout elapsed
    StreamError, // HTTP 200 followed by an error object in the stream
    InvalidJson, // a data event that is not valid JSON
    Incomplete,  // the stream ended without data: [DONE]
    NoTokens,    // the stream completed but no token was ever received
    Cancelled,   // the run was stopped while the request was in flight
    Transport,   // any other transport failure
    Oversize,    // the response exceeded a size cap (head, one SSE line/event, the body)
    Overloaded,  // the server said it is overloaded: Anthropic's HTTP 529 or overloaded_error event
    // The cancellation load closed it on purpose (LoadProfile::cancelRatePct; docs/metrics.md,
    // "Cancelled by the load"): a class of its own, neither a failure nor a completed request.
    // Not Cancelled, which is the user stopping the run.
    CancelledByLoad,
    // A non-streamed endpoint's answer does not match its request: an embeddings response
    // whose number of embeddings is not the batch size, a rerank response whose results are not
    // one per document or name a document that was not sent (docs/metrics.md, "Embeddings and
    // rerank").
    ResultMismatch,
};

const char *errorClassName(ErrorClass c);
ErrorClass errorClassFromName(QAnyStringView name);
QList<ErrorClass> allErrorClasses();
// What a reader sees for an error class ("timeout" -> "timeout", "http_5xx" -> "HTTP 5xx (server
// error)"), translatable; the stored name stays errorClassName().
Message errorClassLabel(ErrorClass c);

// Where a token count came from; recorded per request because the sources differ in what they
// can be trusted for (docs/metrics.md, token counts).
enum class TokenSource : quint8 {
    Unknown = 0,
    ServerUsage, // the stream's usage object
    ChunkCount,  // one token per token chunk, counted by the client
    Dataset,     // the dataset's own length (input side, when the server gave no usage)
    Tokenizer,   // the model's own tokenizer (--tokenizer) over the streamed text
};
const char *tokenSourceName(TokenSource s);
TokenSource tokenSourceFromName(QAnyStringView name);
// What a reader sees for a token source ("server usage"), translatable.
Message tokenSourceLabel(TokenSource s);

// How the connection that carried a request came about. Stable names (connectionUseName) are
// stored in project files.
enum class ConnectionUse : quint8 {
    Unknown = 0, // the transport cannot tell (the manager pool)
    New,         // opened for this request: its set-up is part of the request's times
    Reused,      // a keep-alive connection that carried an earlier response
    Prewarmed,   // opened before the run's clock started (warm mode); this is its first request
};
const char *connectionUseName(ConnectionUse u);
ConnectionUse connectionUseFromName(QAnyStringView name);

// One request as the client saw it. Times are CLOCK_MONOTONIC nanoseconds; 0 means "did not
// happen". Definitions of the metrics derived from these fields live in metrics/definitions.h.
struct RequestRecord
{
    qint64 index = -1;       // position in the run's schedule (0-based)
    qint32 datasetItem = -1; // item of the dataset that supplied the prompt
    bool warmup = false;     // issued and stored, excluded from every metric
    QString requestId;       // x-request-id sent to the server

    qint64 tSched = 0;    // when the schedule said to send
    qint64 tQueued = 0;   // when it was due and began waiting for a concurrency slot
    qint64 tDispatch = 0; // when it got its slot and was handed to the transport
    qint64 tSend = 0;     // handed to the transport (right before the socket write is queued)
    qint64 tFirst = 0;    // first token chunk received (reasoning or content: vLLM's TTFT)
    qint64 tLast = 0;     // last token chunk received
    qint64 tEnd = 0;      // stream finished ([DONE], error or close)
    // Reasoning models stream reasoning deltas (delta.reasoning_content or delta.reasoning)
    // before the answer (delta.content). The first chunk of each kind; a chunk carrying both
    // sets both. Completions requests have no reasoning: their text is content.
    qint64 tFirstReasoning = 0;
    qint64 tFirstContent = 0;

    // Connection phases, in order (0 = did not happen for this request: a reused or pre-opened
    // connection has no set-up of its own; or the transport cannot see the phase).
    qint64 tConnectStart = 0;   // connect() called (after name resolution)
    qint64 tConnected = 0;      // TCP connection established (through a proxy: to the proxy)
    qint64 tTlsDone = 0;        // TLS handshake completed (https only)
    qint64 tRequestWritten = 0; // right before the call that handed the request's last byte over
    qint64 tHeadReceived = 0;   // receive time of the read that completed the response head
    ConnectionUse connection = ConnectionUse::Unknown;

    QList<qint64> chunkTimes;  // receive time of every token chunk, ascending
    QList<qint32> chunkTokens; // tokens carried by each token chunk (1 unless the server said)

    qint32 inputTokens = -1;
    qint32 outputTokens = -1;
    // Prompt tokens served from the server's prompt cache (OpenAI cached_tokens, Anthropic
    // cache_read_input_tokens), part of inputTokens; -1 when not reported.
    qint32 cachedTokens = -1;
    // Prompt tokens written to the prompt cache (Anthropic cache_creation_input_tokens), part of
    // inputTokens; -1 when not reported (docs/metrics.md, "Fields per API").
    qint32 cacheCreationTokens = -1;
    TokenSource inputSource = TokenSource::Unknown;
    TokenSource outputSource = TokenSource::Unknown;
    // Reasoning tokens: usage.completion_tokens_details.reasoning_tokens when the server sends
    // it, else the tokenizer's count of the reasoning text, else the reasoning chunks; -1 when
    // the stream held no reasoning and the server reported none. Part of outputTokens.
    qint32 reasoningTokens = -1;
    TokenSource reasoningSource = TokenSource::Unknown;
    // The tokenizer's count of the streamed text (reasoning and content counted apart, then
    // added) whenever a tokenizer was loaded, -1 otherwise. Beside a server_usage outputTokens
    // it shows whether the two agree (RunSummary::outputCountMismatched).
    qint32 clientOutputTokens = -1;
    qint32 expectedInputTokens = -1;  // what the dataset asked for
    qint32 expectedOutputTokens = -1; // max_tokens sent

    qint32 httpStatus = 0;
    QString finishReason;
    ErrorClass error = ErrorClass::None;
    QString errorMessage;
    qint64 outputChars = 0; // characters of generated text (reasoning included)

    // Non-streamed endpoints (embeddings, rerank; docs/metrics.md, "Embeddings and rerank"):
    // the inputs the request carried (embeddings: its batch; rerank: its documents), 0 for a
    // generation request, and the results the response held (embeddings in data[], rerank
    // results[]), -1 when none was read.
    qint32 batchItems = 0;
    qint32 resultItems = -1;
    // Images in the prompt (docs/datasets.md, "Images in prompts"): the bytes of the image
    // files the request carried (decoded, not their base64 text); 0 without images.
    qint64 imageBytes = 0;

    // Sessions (docs/sessions.md); -1 outside a session workload.
    qint64 sessionId = -1;     // the session's position in the run (0-based)
    qint32 turnIndex = -1;     // the turn's position in its session (0-based)
    qint32 sessionTurns = -1;  // turns the session was planned to have
    qint32 historyTokens = -1; // tokens of the conversation before the new user message
    qint64 thinkNs = -1;       // think time drawn before this turn (0 for a session's first)
    // The generated text (content, not reasoning), kept only when the job asked for it
    // (RequestJob::captureText): a session's history resends it. Never stored.
    QString outputText;

    bool inSession() const { return sessionId >= 0; }

    bool ok() const { return error == ErrorClass::None; }
    // Closed by the cancellation load: kept with what arrived before (TTFT, chunks), t_end is
    // when the client closed it; counted apart from failures and latency (docs/metrics.md).
    bool cancelledByLoad() const { return error == ErrorClass::CancelledByLoad; }
    bool failed() const { return error != ErrorClass::None && !cancelledByLoad(); }
};

// The connection-phase times under the names the store's columns, raw-record JSON and CSV use,
// in phase order: t_connect_start, t_connected, t_tls_done, t_request_written, t_head_received.
struct RecordTimeField
{
    const char *name;
    qint64 RequestRecord::*member;
};
QList<RecordTimeField> connectionPhaseFields();
// Raw-record JSON: the phase times relative to baseNs (left out when 0, as the t_* fields are)
// and "connection" by its name. readConnectionPhases() is the inverse (absent times: 0).
void writeConnectionPhases(const RequestRecord &r, qint64 baseNs, QJsonObject *out);
void readConnectionPhases(const QJsonObject &in, qint64 baseNs, RequestRecord *r);
// CSV: the header cells and one record's cells (times in ns relative to baseNs, empty when 0).
QStringList connectionPhaseCsvHeader();
QStringList connectionPhaseCsvCells(const RequestRecord &r, qint64 baseNs);

} // namespace sb

Q_DECLARE_METATYPE(sb::RequestRecord)
