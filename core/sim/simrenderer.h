#pragma once

#include <QByteArray>
#include <QString>

namespace sb {

// Renders the simulator's bytes: HTTP heads, chunked framing, and OpenAI/vLLM-shaped JSON.
// JSON is assembled by hand rather than through QJsonDocument: the simulator writes up to a
// hundred thousand chunks a second, and the shapes are fixed.
class SimRenderer
{
public:
    struct Context
    {
        bool chat = false;
        bool continuousUsage = false;
        QByteArray id;      // "cmpl-..." / "chatcmpl-..."
        QByteArray model;   // already a JSON string literal (quoted, escaped)
        qint64 created = 0; // unix seconds
        int promptTokens = 0;
        int cachedTokens = -1; // >= 0: usage carries prompt_tokens_details.cached_tokens
        // Reasoning mode: the delta field of reasoning text, and whether usage carries
        // completion_tokens_details.reasoning_tokens.
        QByteArray reasoningField = "reasoning_content";
        bool reasoningUsageDetails = false;
    };

    explicit SimRenderer(const Context &context);
    // Known only when the request is admitted (the prefix cache is looked up then).
    void setCachedTokens(int cachedTokens) { m_ctx.cachedTokens = cachedTokens; }

    // SSE events ("data: ...\n\n"), without HTTP chunk framing.
    QByteArray roleEvent() const;
    // reasoningTokens: of the completion so far, how many were reasoning (usage details).
    QByteArray tokenEvent(const QByteArray &text, bool last, int completionTokensSoFar,
                          int reasoningTokens = 0) const;
    // A reasoning delta: {"delta":{"<reasoningField>":text}} (chat only).
    QByteArray reasoningEvent(const QByteArray &text, int completionTokensSoFar) const;
    QByteArray usageEvent(int completionTokens, int reasoningTokens = 0) const;
    static QByteArray errorEvent(const QByteArray &message, int code);
    QByteArray malformedEvent() const;
    static QByteArray doneEvent();

    // The whole non-streamed response body.
    QByteArray fullResponse(const QByteArray &text, int completionTokens) const;

    // " word" for token tokenIndex of the response seq: fixed words, occasionally multi-byte UTF-8.
    static QByteArray tokenText(quint64 seq, int tokenIndex);
    static void appendTokenText(QByteArray *out, quint64 seq, int tokenIndex);
    // The simulator's tokenizer: whitespace-separated words.
    static int countTokens(const QString &text);
    // A stable pseudo token id for a word (for /tokenize).
    static int tokenId(QStringView word);

    static QByteArray jsonString(QStringView s);
    // message: a JSON string literal (see jsonString), as in every *error* function here.
    // message: a JSON string literal (see jsonString), here and in every error function.
    static QByteArray errorBody(int status, const QByteArray &message);
    static const char *reasonPhrase(int status);
    // Status line and headers. contentLength < 0 means chunked transfer encoding.
    static QByteArray head(int status, const QByteArray &contentType, qint64 contentLength,
                           bool keepAlive, const QByteArray &requestId,
                           const QByteArray &extraHeaders = {});
    // A complete response with a fixed body.
    static QByteArray response(int status, const QByteArray &contentType, const QByteArray &body,
                               bool keepAlive, const QByteArray &requestId,
                               const QByteArray &extraHeaders = {});
    static QByteArray jsonError(int status, const QByteArray &message, bool keepAlive,
                                const QByteArray &requestId, const QByteArray &extraHeaders = {});
    // One HTTP/1.1 chunk around data; the zero-size last chunk ends the body.
    static QByteArray chunk(const QByteArray &data);
    static void appendChunk(QByteArray *out, const QByteArray &data);
    static QByteArray lastChunk();

private:
    QByteArray usageObject(int completionTokens, int reasoningTokens = 0) const;

    Context m_ctx;
    QByteArray m_prefix; // {"id":..,"object":..,"created":..,"model":..,
};

} // namespace sb
