#include "simrenderer.h"

namespace sb {

namespace {

// ASCII words most of the time; a few multi-byte ones (2, 3 and 4 bytes in UTF-8) so clients
// meet characters split across reads.
const char *const kWords[] = {
    "the",
    "model",
    "answers",
    "with",
    "tokens",
    "from",
    "a",
    "fixed",
    "list",
    "of",
    "words",
    "that",
    "look",
    "like",
    "text",
    "caf\xc3\xa9",
    "and",
    "stream",
    "over",
    "time",
    "while",
    "the",
    "client",
    "measures",
    "latency",
    "na\xc3\xafve",
    "throughput",
    "every",
    "chunk",
    "arrives",
    "in",
    "order",
    "\xe6\x97\xa5\xe6\x9c\xac",
    "so",
    "tests",
    "can",
    "count",
    "them",
    "\xf0\x9f\x99\x82",
    "quickly",
    "under",
    "load",
    "gr\xc3\xb6\xc3\x9f"
    "e",
    "server",
    "engine",
    "queue",
    "slot",
    "\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
};
constexpr quint64 kWordCount = sizeof kWords / sizeof kWords[0];

} // namespace

SimRenderer::SimRenderer(const Context &context) : m_ctx(context)
{
    m_prefix = "{\"id\":\"" + m_ctx.id + "\",\"object\":\"" +
               (m_ctx.chat ? QByteArray("chat.completion.chunk") : QByteArray("text_completion")) +
               "\",\"created\":" + QByteArray::number(m_ctx.created) + ",\"model\":" + m_ctx.model +
               ',';
}

QByteArray SimRenderer::usageObject(int completionTokens, int reasoningTokens) const
{
    QByteArray u =
        "{\"prompt_tokens\":" + QByteArray::number(m_ctx.promptTokens) +
        ",\"total_tokens\":" + QByteArray::number(m_ctx.promptTokens + completionTokens) +
        ",\"completion_tokens\":" + QByteArray::number(completionTokens);
    if (m_ctx.cachedTokens >= 0) {
        // vLLM's field (with --enable-prompt-tokens-details): how much of the prompt hit the cache.
        u.append(",\"prompt_tokens_details\":{\"cached_tokens\":")
            .append(QByteArray::number(m_ctx.cachedTokens))
            .append('}');
    }
    if (m_ctx.reasoningUsageDetails) {
        // OpenAI's field, which vLLM fills for reasoning models.
        u.append(",\"completion_tokens_details\":{\"reasoning_tokens\":")
            .append(QByteArray::number(reasoningTokens))
            .append('}');
    }
    u.append('}');
    return u;
}

QByteArray SimRenderer::roleEvent() const
{
    QByteArray e = "data: " + m_prefix +
                   "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
                   "\"logprobs\":null,\"finish_reason\":null}]";
    if (m_ctx.continuousUsage)
        e += ",\"usage\":" + usageObject(0);
    e += "}\n\n";
    return e;
}

QByteArray SimRenderer::tokenEvent(const QByteArray &text, bool last, int completionTokensSoFar,
                                   int reasoningTokens) const
{
    // Appends rather than operator+: this runs once per chunk, and every temporary is a malloc.
    QByteArray e;
    e.reserve(m_prefix.size() + text.size() + (m_ctx.continuousUsage ? 200 : 120));
    e.append("data: ").append(m_prefix);
    if (m_ctx.chat)
        e.append("\"choices\":[{\"index\":0,\"delta\":{\"content\":\"").append(text).append("\"},");
    else
        e.append("\"choices\":[{\"index\":0,\"text\":\"").append(text).append("\",");
    e.append("\"logprobs\":null,\"finish_reason\":").append(last ? "\"length\"" : "null");
    if (!m_ctx.chat)
        e.append(",\"stop_reason\":null");
    e.append("}]");
    if (m_ctx.continuousUsage)
        e.append(",\"usage\":").append(usageObject(completionTokensSoFar, reasoningTokens));
    e.append("}\n\n");
    return e;
}

QByteArray SimRenderer::reasoningEvent(const QByteArray &text, int completionTokensSoFar) const
{
    QByteArray e;
    e.reserve(m_prefix.size() + text.size() + (m_ctx.continuousUsage ? 220 : 140));
    e.append("data: ").append(m_prefix);
    e.append("\"choices\":[{\"index\":0,\"delta\":{\"")
        .append(m_ctx.reasoningField)
        .append("\":\"")
        .append(text)
        .append("\"},\"logprobs\":null,\"finish_reason\":null}]");
    if (m_ctx.continuousUsage)
        e.append(",\"usage\":").append(usageObject(completionTokensSoFar, completionTokensSoFar));
    e.append("}\n\n");
    return e;
}

QByteArray SimRenderer::usageEvent(int completionTokens, int reasoningTokens) const
{
    return "data: " + m_prefix +
           "\"choices\":[],\"usage\":" + usageObject(completionTokens, reasoningTokens) + "}\n\n";
}

QByteArray SimRenderer::errorEvent(const QByteArray &message, int code)
{
    // vLLM's mid-stream error: HTTP 200 is already sent, so the error travels as a data event.
    return "data: {\"error\":{\"object\":\"error\",\"message\":" + message +
           ",\"type\":\"InternalServerError\",\"param\":null,\"code\":" + QByteArray::number(code) +
           "}}\n\n";
}

QByteArray SimRenderer::malformedEvent() const
{
    // Truncated mid-object, as a broken proxy or a buggy server would send it.
    return "data: " + m_prefix + "\"choices\":[{\"index\":0,\"text\":\"broken\n\n";
}

QByteArray SimRenderer::doneEvent()
{
    return QByteArrayLiteral("data: [DONE]\n\n");
}

QByteArray SimRenderer::fullResponse(const QByteArray &text, int completionTokens) const
{
    const QByteArray object =
        m_ctx.chat ? QByteArray("chat.completion") : QByteArray("text_completion");
    QByteArray r = "{\"id\":\"" + m_ctx.id + "\",\"object\":\"" + object +
                   "\",\"created\":" + QByteArray::number(m_ctx.created) +
                   ",\"model\":" + m_ctx.model + ',';
    if (m_ctx.chat) {
        r += "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + text +
             "\"},\"logprobs\":null,\"finish_reason\":\"length\"}]";
    } else {
        r += "\"choices\":[{\"index\":0,\"text\":\"" + text +
             "\",\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}]";
    }
    r += ",\"usage\":" + usageObject(completionTokens) + '}';
    return r;
}

QByteArray SimRenderer::tokenText(quint64 seq, int tokenIndex)
{
    QByteArray t;
    appendTokenText(&t, seq, tokenIndex);
    return t;
}

void SimRenderer::appendTokenText(QByteArray *out, quint64 seq, int tokenIndex)
{
    const quint64 i =
        (seq * 13 + quint64(tokenIndex) * 7 + quint64(tokenIndex) / kWordCount) % kWordCount;
    out->append(' ').append(kWords[i]);
}

int SimRenderer::countTokens(const QString &text)
{
    int n = 0;
    bool inWord = false;
    for (const QChar c : text) {
        const bool space = c.isSpace();
        if (!space && !inWord)
            ++n;
        inWord = !space;
    }
    return n;
}

int SimRenderer::tokenId(QStringView word)
{
    // FNV-1a over UTF-16 units, folded into a vocabulary-sized range.
    quint32 h = 2166136261u;
    for (const QChar c : word) {
        h ^= c.unicode();
        h *= 16777619u;
    }
    return int(h % 32000u);
}

QByteArray SimRenderer::jsonString(QStringView s)
{
    QByteArray out = "\"";
    const QByteArray utf8 = s.toUtf8();
    for (const char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                qsnprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += ch;
            }
        }
    }
    out += '"';
    return out;
}

const char *SimRenderer::reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Unknown";
    }
}

QByteArray SimRenderer::head(int status, const QByteArray &contentType, qint64 contentLength,
                             bool keepAlive, const QByteArray &requestId,
                             const QByteArray &extraHeaders)
{
    QByteArray h = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    h += "server: servebench-sim\r\ncontent-type: " + contentType + "\r\n";
    if (contentLength < 0)
        h += "cache-control: no-cache\r\ntransfer-encoding: chunked\r\n";
    else
        h += "content-length: " + QByteArray::number(contentLength) + "\r\n";
    if (!requestId.isEmpty())
        h += "x-request-id: " + requestId + "\r\n";
    h += keepAlive ? QByteArray("connection: keep-alive\r\n") : QByteArray("connection: close\r\n");
    h += extraHeaders;
    h += "\r\n";
    return h;
}

QByteArray SimRenderer::response(int status, const QByteArray &contentType, const QByteArray &body,
                                 bool keepAlive, const QByteArray &requestId,
                                 const QByteArray &extraHeaders)
{
    return head(status, contentType, body.size(), keepAlive, requestId, extraHeaders) + body;
}

QByteArray SimRenderer::errorBody(int status, const QByteArray &message)
{
    const char *type = status == 429   ? "RateLimitError"
                       : status == 404 ? "NotFoundError"
                       : status >= 500 ? "InternalServerError"
                                       : "BadRequestError";
    return "{\"error\":{\"object\":\"error\",\"message\":" + message + ",\"type\":\"" + type +
           "\",\"param\":null,\"code\":" + QByteArray::number(status) + "}}";
}

QByteArray SimRenderer::jsonError(int status, const QByteArray &message, bool keepAlive,
                                  const QByteArray &requestId, const QByteArray &extraHeaders)
{
    return response(status, "application/json", errorBody(status, message), keepAlive, requestId,
                    extraHeaders);
}

QByteArray SimRenderer::chunk(const QByteArray &data)
{
    QByteArray out;
    appendChunk(&out, data);
    return out;
}

void SimRenderer::appendChunk(QByteArray *out, const QByteArray &data)
{
    char size[20];
    const int n =
        qsnprintf(size, sizeof size, "%llx\r\n", static_cast<unsigned long long>(data.size()));
    out->append(size, n).append(data).append("\r\n", 2);
}

QByteArray SimRenderer::lastChunk()
{
    return QByteArrayLiteral("0\r\n\r\n");
}

} // namespace sb
