#include "streamaccumulator.h"

#include "apievents.h"
#include "chunkscanner.h"
#include "sseparser.h"

#include "tokenizer/tokenizer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// An error body is for a human to read; a misbehaving server must not make us hold megabytes.
constexpr qsizetype kMaxErrorBody = 64 * 1024;
// Enough of the body's start to recognise what a non-streaming server sent instead of SSE.
constexpr qsizetype kHeadBytes = 256;
constexpr qsizetype kMaxMessage = 500;
constexpr qsizetype kMaxQuoted = 200;

QString truncated(QString s, qsizetype max = kMaxMessage)
{
    s = s.trimmed();
    if (s.size() <= max)
        return s;
    qsizetype cut = max;
    if (s.at(cut - 1).isHighSurrogate())
        --cut;
    s.truncate(cut);
    s += u"…"_s;
    return s;
}

QString quoted(QByteArrayView bytes)
{
    const bool cut = bytes.size() > kMaxQuoted;
    // A cut through a UTF-8 sequence shows as U+FFFD, which is fine for a diagnostic.
    QString s = QString::fromUtf8(bytes.first(std::min(bytes.size(), kMaxQuoted)));
    return u'"' + s + (cut ? u"…\""_s : u"\""_s);
}

QString compactJson(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// The server's own words from an error object, whichever of the usual shapes it uses:
// OpenAI {"error":{"message":…}}, vLLM's older top-level {"object":"error","message":…},
// FastAPI {"detail":…}, or {"error":"…"}.
QString errorMessageOf(const QJsonObject &o)
{
    const QJsonValue error = o.value("error"_L1);
    if (error.isObject()) {
        const QString m = error.toObject().value("message"_L1).toString();
        return m.isEmpty() ? compactJson(error.toObject()) : m;
    }
    if (error.isString() && !error.toString().isEmpty())
        return error.toString();
    const QJsonValue message = o.value("message"_L1);
    if (message.isString() && !message.toString().isEmpty())
        return message.toString();
    const QJsonValue detail = o.value("detail"_L1);
    if (detail.isString())
        return detail.toString();
    return compactJson(o);
}

bool isErrorObject(const QJsonObject &o)
{
    const QJsonValue error = o.value("error"_L1);
    if (error.isObject() || (error.isString() && !error.toString().isEmpty()))
        return true;
    return o.value("object"_L1).toString() == "error"_L1;
}

// Code points, as ChunkScanner counts a chunk's text.
qsizetype codePoints(QStringView s)
{
    qsizetype n = s.size();
    for (QChar c : s) {
        if (c.isLowSurrogate())
            --n;
    }
    return n;
}

ErrorClass classForStatus(int status)
{
    if (status == 529)
        return ErrorClass::Overloaded; // Anthropic's "overloaded", before any 5xx
    if (status == 429)
        return ErrorClass::Http429;
    if (status >= 400 && status < 500)
        return ErrorClass::Http4xx;
    if (status >= 500 && status < 600)
        return ErrorClass::Http5xx;
    return ErrorClass::HttpOther;
}

} // namespace

StreamAccumulator::StreamAccumulator(ApiFlavour flavour, RequestRecord *record)
    : m_flavour(flavour), m_record(record), m_parser(std::make_unique<SseParser>())
{}

StreamAccumulator::~StreamAccumulator() = default;

void StreamAccumulator::onHttpStatus(int status)
{
    m_record->httpStatus = status;
    m_httpError = status < 200 || status >= 300;
}

void StreamAccumulator::onBytes(const char *data, qsizetype size, qint64 tRecvNs)
{
    if (m_finished || complete() || size <= 0)
        return;
    m_bodyBytes += size;
    if (m_limits.maxBodyBytes > 0 && m_bodyBytes > m_limits.maxBodyBytes) {
        fail(ErrorClass::Oversize,
             u"the response body exceeded the cap of %1 bytes"_s.arg(m_limits.maxBodyBytes));
        return;
    }
    if (m_httpError) {
        m_errorBody.append(data, std::min(size, kMaxErrorBody - m_errorBody.size()));
        return;
    }
    if (m_head.size() < kHeadBytes)
        m_head.append(data, std::min(size, kHeadBytes - m_head.size()));
    if (apiFlavourIsPooling(m_flavour)) {
        // One JSON answer, read whole when the body ends (finish()); the body cap bounds it.
        m_body.append(data, size);
        return;
    }
    m_parser->feed(data, size, tRecvNs, [this](QByteArrayView event) {
        // Whatever follows [DONE] or an error in the same read is not part of the response.
        if (!complete())
            onEvent(event, m_parser->eventTime());
    });
    // A line or event that never ends must not grow without bound.
    if (!complete() && m_limits.maxEventBytes > 0 &&
        m_parser->bufferedBytes() > m_limits.maxEventBytes)
        fail(ErrorClass::Oversize,
             u"an SSE line or event exceeded the cap of %1 bytes without ending"_s.arg(
                 m_limits.maxEventBytes));
}

qsizetype StreamAccumulator::bufferedBytes() const
{
    return m_parser->bufferedBytes() + m_errorBody.size() + m_body.size();
}

void StreamAccumulator::finish(ErrorClass transportError, const QString &message, qint64 tEndNs)
{
    if (m_finished)
        return;
    m_finished = true;
    RequestRecord &r = *m_record;
    r.tEnd = tEndNs;

    const bool pooling = apiFlavourIsPooling(m_flavour);
    if (!m_httpError && !complete() && !pooling) {
        // A server that closes right after "data: [DONE]\n" without the blank line still said
        // it was done; SseParser::flush only delivers fully terminated lines.
        m_parser->flush([this](QByteArrayView event) { onEvent(event, m_parser->eventTime()); });
    }

    if (m_failed) {
        // keep the stream error / invalid JSON
    } else if (m_httpError) {
        classifyHttpError();
    } else if (transportError != ErrorClass::None) {
        r.error = transportError;
        r.errorMessage = truncated(message);
    } else if (pooling) {
        readPoolingAnswer();
    } else if (!m_done) {
        r.error = ErrorClass::Incomplete;
        r.errorMessage = u"stream ended without %1 after %2 token chunks"_s.arg(
            apiFlavourEndMarker(m_flavour)).arg(r.chunkTimes.size());
        if (m_events == 0 && !m_head.isEmpty())
            r.errorMessage += u"; no SSE data event, body began "_s + quoted(m_head);
    } else if (r.chunkTimes.isEmpty()) {
        r.error = ErrorClass::NoTokens;
        r.errorMessage = u"stream completed without a token chunk"_s;
        if (!r.finishReason.isEmpty())
            r.errorMessage += u" (finish_reason %1)"_s.arg(r.finishReason);
    }

    if (pooling) {
        // Nothing is generated: no output tokens, from no source (docs/metrics.md, "Embeddings
        // and rerank"); the input count is the server's usage, else the dataset's.
        m_body = QByteArray();
        r.outputTokens = 0;
        r.outputSource = TokenSource::Unknown;
        if (r.inputTokens < 0 && r.expectedInputTokens >= 0) {
            r.inputTokens = r.expectedInputTokens;
            r.inputSource = TokenSource::Dataset;
        }
        return;
    }
    if (m_tokenizer)
        countText();
    if (r.reasoningTokens < 0 && r.tFirstReasoning > 0) {
        r.reasoningTokens = qint32(m_reasoningChunkTokens);
        r.reasoningSource = TokenSource::ChunkCount;
    }
    if (r.outputTokens < 0) {
        qint64 sum = 0;
        for (qint32 n : std::as_const(r.chunkTokens))
            sum += n;
        r.outputTokens = qint32(sum);
        r.outputSource = TokenSource::ChunkCount;
    }
    if (r.inputTokens < 0 && r.expectedInputTokens >= 0) {
        r.inputTokens = r.expectedInputTokens;
        r.inputSource = TokenSource::Dataset;
    }
}

bool StreamAccumulator::complete() const
{
    return m_done || m_failed;
}

void StreamAccumulator::onEvent(QByteArrayView data, qint64 tRecvNs)
{
    ++m_events;
    const QByteArrayView payload = data.trimmed();
    if (payload.isEmpty())
        return; // an empty data event carries nothing; some proxies send them as keep-alives
    if (payload == "[DONE]") {
        m_done = true;
        return;
    }
    if (m_fastScan && !m_captureText && !apiFlavourHasTypedEvents(m_flavour)) {
        ChunkFields fields;
        ChunkText text;
        if (ChunkScanner::scan(payload, m_flavour, &fields, m_tokenizer ? &text : nullptr)) {
            applyChunk(fields, tRecvNs);
            if (m_tokenizer)
                keepText(text);
            return;
        }
    }
    QJsonParseError err;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromRawData(payload.data(), payload.size()), &err);
    if (err.error != QJsonParseError::NoError) {
        fail(ErrorClass::InvalidJson,
             u"invalid JSON in stream event (%1 at offset %2): %3"_s.arg(err.errorString())
                 .arg(err.offset)
                 .arg(quoted(payload)));
        return;
    }
    if (!doc.isObject()) {
        fail(ErrorClass::InvalidJson,
             u"stream event is not a JSON object: %1"_s.arg(quoted(payload)));
        return;
    }
    onChunk(doc.object(), tRecvNs);
}

void StreamAccumulator::onChunk(const QJsonObject &chunk, qint64 tRecvNs)
{
    if (apiFlavourHasTypedEvents(m_flavour)) {
        onApiEvent(chunk, tRecvNs);
        return;
    }
    if (isErrorObject(chunk)) {
        fail(ErrorClass::StreamError, truncated(errorMessageOf(chunk)));
        return;
    }
    applyChunk(ChunkScanner::fromJson(chunk, m_flavour), tRecvNs);
    if (m_tokenizer)
        keepText(chunk);
    if (m_captureText) {
        const QJsonObject choice = chunk.value("choices"_L1).toArray().at(0).toObject();
        m_record->outputText +=
            m_flavour == ApiFlavour::Chat
                ? choice.value("delta"_L1).toObject().value("content"_L1).toString()
                : choice.value("text"_L1).toString();
    }
}

void StreamAccumulator::onApiEvent(const QJsonObject &event, qint64 tRecvNs)
{
    const ApiEventFields e = readApiEvent(event, m_flavour);
    if (e.error != ErrorClass::None) {
        fail(e.error, truncated(e.errorMessage));
        return;
    }
    RequestRecord &r = *m_record;
    ChunkFields f;
    f.completionTokens = e.outputTokens;
    f.reasoningTokens = e.reasoningTokens;
    if (e.cachedTokens >= 0)
        r.cachedTokens = e.cachedTokens;
    if (e.cacheCreationTokens >= 0)
        r.cacheCreationTokens = e.cacheCreationTokens;
    if (m_flavour == ApiFlavour::Messages) {
        // Anthropic's input_tokens leaves out the tokens read from or written to the prompt
        // cache; the record's input is the whole prompt, as every other flavour reports it
        // (docs/metrics.md, "Fields per API").
        if (e.inputTokens >= 0)
            m_uncachedInput = e.inputTokens;
        if (m_uncachedInput >= 0 &&
            (e.inputTokens >= 0 || e.cachedTokens >= 0 || e.cacheCreationTokens >= 0))
            f.promptTokens = m_uncachedInput + std::max(r.cachedTokens, 0) +
                             std::max(r.cacheCreationTokens, 0);
    } else {
        f.promptTokens = e.inputTokens;
    }
    if (!e.finishReason.isEmpty())
        r.finishReason = e.finishReason;
    f.reasoningChars = codePoints(e.reasoning);
    f.chars = codePoints(e.content) + f.reasoningChars;
    f.hasChoices = f.chars > 0;
    applyChunk(f, tRecvNs);
    if (m_tokenizer) {
        m_contentText += e.content.toUtf8();
        m_reasoningText += e.reasoning.toUtf8();
    }
    if (m_captureText)
        r.outputText += e.content;
    if (e.done)
        m_done = true;
}

void StreamAccumulator::applyChunk(const ChunkFields &f, qint64 tRecvNs)
{
    RequestRecord &r = *m_record;
    // Usage may ride on every chunk (vLLM continuous_usage_stats) or only on the final
    // `choices: []` one; the last report is the total.
    if (f.promptTokens >= 0) {
        r.inputTokens = f.promptTokens;
        r.inputSource = TokenSource::ServerUsage;
    }
    const qint32 usageCompletion = f.completionTokens;
    if (usageCompletion >= 0) {
        r.outputTokens = usageCompletion;
        r.outputSource = TokenSource::ServerUsage;
    }
    if (f.cachedTokens >= 0)
        r.cachedTokens = f.cachedTokens;
    if (f.reasoningTokens >= 0) {
        r.reasoningTokens = f.reasoningTokens;
        r.reasoningSource = TokenSource::ServerUsage;
    }

    if (!f.hasChoices)
        return;
    if (!f.finishReason.isEmpty())
        r.finishReason = f.finishReason;
    if (f.chars == 0)
        return; // a role-only or empty chunk: no token reached the user

    qint32 tokens = 1;
    if (usageCompletion >= 0) {
        // Running counts let multi-token chunks (speculative decoding) weigh what they carry.
        tokens = std::max<qint32>(1, usageCompletion - m_runningCompletion);
        m_runningCompletion = std::max(m_runningCompletion, usageCompletion);
    }
    if (r.tFirst == 0)
        r.tFirst = tRecvNs;
    if (f.reasoningChars > 0) {
        if (r.tFirstReasoning == 0)
            r.tFirstReasoning = tRecvNs;
        m_reasoningChunkTokens += tokens;
    }
    if (f.chars > f.reasoningChars && r.tFirstContent == 0)
        r.tFirstContent = tRecvNs;
    r.tLast = tRecvNs;
    r.chunkTimes.append(tRecvNs);
    r.chunkTokens.append(tokens);
    r.outputChars += f.chars;
}

void StreamAccumulator::keepText(const ChunkText &text)
{
    if (!text.content.isEmpty())
        appendJsonStringUtf8(text.content, text.contentEscaped, &m_contentText);
    if (!text.reasoning.isEmpty())
        appendJsonStringUtf8(text.reasoning, text.reasoningEscaped, &m_reasoningText);
}

void StreamAccumulator::keepText(const QJsonObject &chunk)
{
    // The same fields ChunkScanner::fromJson counts.
    const QJsonObject choice = chunk.value("choices"_L1).toArray().at(0).toObject();
    if (m_flavour != ApiFlavour::Chat) {
        m_contentText += choice.value("text"_L1).toString().toUtf8();
        return;
    }
    const QJsonObject delta = choice.value("delta"_L1).toObject();
    m_contentText += delta.value("content"_L1).toString().toUtf8();
    QString reasoning = delta.value("reasoning_content"_L1).toString();
    if (reasoning.isEmpty())
        reasoning = delta.value("reasoning"_L1).toString();
    m_reasoningText += reasoning.toUtf8();
}

void StreamAccumulator::countText()
{
    RequestRecord &r = *m_record;
    // Reasoning and answer are counted apart: in the model's output they are separate sections
    // (the reasoning parser strips the markers between them), so no token spans the two.
    const qsizetype reasoning =
        m_reasoningText.isEmpty()
            ? 0
            : m_tokenizer->countUtf8(
                  std::string_view(m_reasoningText.constData(), size_t(m_reasoningText.size())));
    const qsizetype content = m_contentText.isEmpty()
                                  ? 0
                                  : m_tokenizer->countUtf8(std::string_view(
                                        m_contentText.constData(), size_t(m_contentText.size())));
    r.clientOutputTokens = qint32(std::min<qsizetype>(reasoning + content, INT32_MAX));
    if (r.outputTokens < 0) {
        r.outputTokens = r.clientOutputTokens;
        r.outputSource = TokenSource::Tokenizer;
    }
    if (r.reasoningTokens < 0 && r.tFirstReasoning > 0) {
        r.reasoningTokens = qint32(std::min<qsizetype>(reasoning, INT32_MAX));
        r.reasoningSource = TokenSource::Tokenizer;
    }
    // Counted: the text is not kept beyond the stream.
    m_contentText = QByteArray();
    m_reasoningText = QByteArray();
}

void StreamAccumulator::readPoolingAnswer()
{
    RequestRecord &r = *m_record;
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(m_body, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        r.error = ErrorClass::InvalidJson;
        r.errorMessage = err.error != QJsonParseError::NoError
                             ? u"invalid JSON in the response body (%1 at offset %2): %3"_s
                                   .arg(err.errorString())
                                   .arg(err.offset)
                                   .arg(quoted(m_body))
                             : u"the response body is not a JSON object: %1"_s.arg(quoted(m_body));
        return;
    }
    const QJsonObject o = doc.object();
    if (isErrorObject(o)) {
        r.error = ErrorClass::StreamError;
        r.errorMessage = truncated(errorMessageOf(o));
        return;
    }
    // usage.prompt_tokens (OpenAI, vLLM), else usage.total_tokens (Jina, Infinity, vLLM's rerank
    // before it reported prompt_tokens): nothing is generated, so the total is the input.
    const QJsonObject usage = o.value("usage"_L1).toObject();
    const QJsonValue tokens = usage.contains("prompt_tokens"_L1) ? usage.value("prompt_tokens"_L1)
                                                                 : usage.value("total_tokens"_L1);
    if (tokens.isDouble() && tokens.toDouble() >= 0) {
        r.inputTokens = qint32(std::min<double>(tokens.toDouble(), INT32_MAX));
        r.inputSource = TokenSource::ServerUsage;
    }
    const qint32 expected = std::max(1, r.batchItems);
    const bool rerank = m_flavour == ApiFlavour::Rerank;
    const QLatin1StringView listName = rerank ? "results"_L1 : "data"_L1;
    const QJsonValue list = o.value(listName);
    if (!list.isArray()) {
        r.error = ErrorClass::ResultMismatch;
        r.errorMessage = u"the answer has no \"%1\" list: %2"_s.arg(listName, quoted(m_body));
        return;
    }
    const QJsonArray items = list.toArray();
    r.resultItems = qint32(items.size());
    if (!rerank) {
        if (items.size() != expected) {
            r.error = ErrorClass::ResultMismatch;
            r.errorMessage =
                u"%1 embeddings for a batch of %2 inputs"_s.arg(items.size()).arg(expected);
        }
        return;
    }
    // One result per document (top_n was their number), each naming a document that was sent.
    QList<bool> seen(expected, false);
    for (const QJsonValue &v : items) {
        const QJsonObject result = v.toObject();
        const double index = result.value("index"_L1).toDouble(-1);
        if (index < 0 || index >= expected || index != std::floor(index) || seen[qsizetype(index)] ||
            !result.value("relevance_score"_L1).isDouble()) {
            r.error = ErrorClass::ResultMismatch;
            r.errorMessage = u"a rerank result is not a relevance_score for one of the %1 "
                             "documents sent: %2"_s.arg(expected).arg(
                                 QString::fromUtf8(QJsonDocument(result).toJson(
                                     QJsonDocument::Compact)).left(kMaxQuoted));
            return;
        }
        seen[qsizetype(index)] = true;
    }
    if (items.size() != expected) {
        r.error = ErrorClass::ResultMismatch;
        r.errorMessage =
            u"%1 rerank results for %2 documents (top_n %2)"_s.arg(items.size()).arg(expected);
    }
}

void StreamAccumulator::fail(ErrorClass error, const QString &message)
{
    if (m_failed)
        return;
    m_failed = true;
    m_record->error = error;
    m_record->errorMessage = message;
}

void StreamAccumulator::classifyHttpError()
{
    RequestRecord &r = *m_record;
    r.error = classForStatus(r.httpStatus);
    QString detail;
    const QByteArray body = m_errorBody.trimmed();
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &err);
    if (err.error == QJsonParseError::NoError && doc.isObject())
        detail = errorMessageOf(doc.object());
    else
        detail = QString::fromUtf8(body);
    if (detail.trimmed().isEmpty())
        detail = u"(empty body)"_s;
    r.errorMessage = truncated(u"HTTP %1: "_s.arg(r.httpStatus) + detail);
}

} // namespace sb
