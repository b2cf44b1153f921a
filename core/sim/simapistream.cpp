#include "simapistream.h"

namespace sb {

namespace {

QByteArray num(qint64 v)
{
    return QByteArray::number(v);
}

// A JSON string literal of text that needs no escaping (the simulator's words).
QByteArray quoted(const QByteArray &text)
{
    return '"' + text + '"';
}

// The signature a real thinking block ends with, here only its shape.
constexpr char kSignature[] = "c2ltdWxhdGVkIHRoaW5raW5n";

} // namespace

QByteArray SimApiStream::event(const char *type, const QByteArray &fields)
{
    QByteArray e;
    e.reserve(fields.size() + 64);
    e.append("event: ").append(type).append("\ndata: {\"type\":\"").append(type).append('"');
    if (!fields.isEmpty())
        e.append(',').append(fields);
    if (m_ctx.api == SimApi::Responses)
        e.append(",\"sequence_number\":").append(num(m_sequence++));
    e.append("}\n\n");
    return e;
}

int SimApiStream::uncachedInput() const
{
    return qMax(0, m_ctx.promptTokens - m_cacheRead - m_cacheCreation);
}

QByteArray SimApiStream::responsesUsage(int outputTokens, int reasoningTokens) const
{
    if (!m_ctx.usage)
        return "null";
    return "{\"input_tokens\":" + num(m_ctx.promptTokens) +
           ",\"input_tokens_details\":{\"cached_tokens\":" + num(m_cacheRead) +
           "},\"output_tokens\":" + num(outputTokens) +
           ",\"output_tokens_details\":{\"reasoning_tokens\":" + num(reasoningTokens) +
           "},\"total_tokens\":" + num(m_ctx.promptTokens + outputTokens) + '}';
}

QByteArray SimApiStream::messagesUsage(int outputTokens, int reasoningTokens, bool withInput) const
{
    QByteArray u = "{";
    if (withInput) {
        // Anthropic's input_tokens leaves out what was read from or written to the cache.
        u += "\"input_tokens\":" + num(uncachedInput()) +
             ",\"cache_creation_input_tokens\":" + num(m_cacheCreation) +
             ",\"cache_read_input_tokens\":" + num(m_cacheRead) + ',';
    }
    u += "\"output_tokens\":" + num(outputTokens);
    if (m_ctx.reasoningUsageDetails && reasoningTokens > 0)
        u += ",\"output_tokens_details\":{\"thinking_tokens\":" + num(reasoningTokens) + '}';
    u += '}';
    return u;
}

QByteArray SimApiStream::outputItems() const
{
    QByteArray items = "[";
    if (!m_reasoning.isEmpty()) {
        items += "{\"id\":\"rs_" + m_ctx.id +
                 "\",\"type\":\"reasoning\",\"summary\":[],\"content\":[{\"type\":"
                 "\"reasoning_text\",\"text\":" +
                 quoted(m_reasoning) + "}],\"status\":\"completed\"}";
    }
    if (!m_content.isEmpty()) {
        if (items.size() > 1)
            items += ',';
        items += "{\"id\":\"msg_" + m_ctx.id +
                 "\",\"type\":\"message\",\"role\":\"assistant\",\"status\":\"completed\","
                 "\"content\":[{\"type\":\"output_text\",\"text\":" +
                 quoted(m_content) + ",\"annotations\":[],\"logprobs\":[]}]}";
    }
    items += ']';
    return items;
}

QByteArray SimApiStream::responseObject(const char *status, int outputTokens,
                                        int reasoningTokens) const
{
    const bool final = qstrcmp(status, "in_progress") != 0;
    QByteArray r = "{\"id\":\"" + m_ctx.id + "\",\"object\":\"response\",\"created_at\":" +
                   num(m_ctx.created) + ",\"status\":\"" + status + "\",\"error\":null," +
                   "\"incomplete_details\":" +
                   (qstrcmp(status, "incomplete") == 0 ? QByteArray("{\"reason\":\"max_output_tokens\"}")
                                                       : QByteArray("null")) +
                   ",\"instructions\":null,\"max_output_tokens\":" + num(m_ctx.maxTokens) +
                   ",\"model\":" + m_ctx.model + ",\"output\":" +
                   (final ? outputItems() : QByteArray("[]")) +
                   ",\"parallel_tool_calls\":true,\"temperature\":null,\"tool_choice\":\"auto\","
                   "\"tools\":[],\"top_p\":null,\"usage\":" +
                   (final ? responsesUsage(outputTokens, reasoningTokens) : QByteArray("null")) +
                   '}';
    return r;
}

QByteArray SimApiStream::start()
{
    if (m_ctx.api == SimApi::Responses) {
        // One statement per event: the sequence numbers follow the order of the calls.
        const QByteArray r = responseObject("in_progress", 0, 0);
        QByteArray e = event("response.created", "\"response\":" + r);
        e += event("response.in_progress", "\"response\":" + r);
        return e;
    }
    return event("message_start",
                 "\"message\":{\"id\":\"" + m_ctx.id +
                     "\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":" +
                     m_ctx.model + ",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":" +
                     messagesUsage(1, 0, true) + '}');
}

QByteArray SimApiStream::openBlock(bool reasoning)
{
    m_open = true;
    m_openReasoning = reasoning;
    const int index = m_blocks++;
    if (m_ctx.api == SimApi::Responses) {
        const QByteArray itemId = (reasoning ? "rs_" : "msg_") + m_ctx.id;
        const QByteArray item =
            reasoning ? "{\"id\":\"" + itemId +
                            "\",\"type\":\"reasoning\",\"summary\":[],\"content\":[],"
                            "\"status\":\"in_progress\"}"
                      : "{\"id\":\"" + itemId +
                            "\",\"type\":\"message\",\"role\":\"assistant\",\"status\":"
                            "\"in_progress\",\"content\":[]}";
        const QByteArray part = reasoning ? "{\"type\":\"reasoning_text\",\"text\":\"\"}"
                                          : "{\"type\":\"output_text\",\"text\":\"\","
                                            "\"annotations\":[],\"logprobs\":[]}";
        QByteArray e = event("response.output_item.added",
                             "\"output_index\":" + num(index) + ",\"item\":" + item);
        e += event("response.content_part.added", "\"item_id\":\"" + itemId +
                                                      "\",\"output_index\":" + num(index) +
                                                      ",\"content_index\":0,\"part\":" + part);
        return e;
    }
    QByteArray e = event("content_block_start",
                         "\"index\":" + num(index) + ",\"content_block\":" +
                             (reasoning ? QByteArray("{\"type\":\"thinking\",\"thinking\":\"\","
                                                     "\"signature\":\"\"}")
                                        : QByteArray("{\"type\":\"text\",\"text\":\"\"}")));
    if (index == 0)
        e += event("ping", {}); // as Anthropic's API sends one early in every stream
    return e;
}

QByteArray SimApiStream::closeBlock()
{
    if (!m_open)
        return {};
    m_open = false;
    const int index = m_blocks - 1;
    if (m_ctx.api == SimApi::Responses) {
        const bool reasoning = m_openReasoning;
        const QByteArray itemId = (reasoning ? "rs_" : "msg_") + m_ctx.id;
        const QByteArray &text = reasoning ? m_reasoning : m_content;
        const QByteArray where = "\"item_id\":\"" + itemId + "\",\"output_index\":" + num(index) +
                                 ",\"content_index\":0";
        const QByteArray part = reasoning ? "{\"type\":\"reasoning_text\",\"text\":" +
                                                quoted(text) + '}'
                                          : "{\"type\":\"output_text\",\"text\":" + quoted(text) +
                                                ",\"annotations\":[],\"logprobs\":[]}";
        const QByteArray item =
            reasoning ? "{\"id\":\"" + itemId +
                            "\",\"type\":\"reasoning\",\"summary\":[],\"content\":[" + part +
                            "],\"status\":\"completed\"}"
                      : "{\"id\":\"" + itemId +
                            "\",\"type\":\"message\",\"role\":\"assistant\",\"status\":"
                            "\"completed\",\"content\":[" +
                            part + "]}";
        QByteArray e = reasoning ? event("response.reasoning_text.done",
                                         where + ",\"text\":" + quoted(text))
                                 : event("response.output_text.done",
                                         where + ",\"text\":" + quoted(text) + ",\"logprobs\":[]");
        e += event("response.content_part.done", where + ",\"part\":" + part);
        e += event("response.output_item.done",
                   "\"output_index\":" + num(index) + ",\"item\":" + item);
        return e;
    }
    QByteArray e;
    if (m_openReasoning)
        e += event("content_block_delta",
                   "\"index\":" + num(index) +
                       ",\"delta\":{\"type\":\"signature_delta\",\"signature\":\"" + kSignature +
                       "\"}");
    e += event("content_block_stop", "\"index\":" + num(index));
    return e;
}

QByteArray SimApiStream::delta(const QByteArray &text, bool reasoning)
{
    QByteArray e;
    if (!m_open || m_openReasoning != reasoning) {
        e += closeBlock();
        e += openBlock(reasoning);
    }
    (reasoning ? m_reasoning : m_content) += text;
    const int index = m_blocks - 1;
    if (m_ctx.api == SimApi::Responses) {
        const QByteArray where = "\"item_id\":\"" + QByteArray(reasoning ? "rs_" : "msg_") +
                                 m_ctx.id +
                                 "\",\"output_index\":" + num(index) + ",\"content_index\":0";
        e += reasoning ? event("response.reasoning_text.delta", where + ",\"delta\":" + quoted(text))
                       : event("response.output_text.delta",
                               where + ",\"delta\":" + quoted(text) + ",\"logprobs\":[]");
        return e;
    }
    e += event("content_block_delta",
               "\"index\":" + num(index) + ",\"delta\":" +
                   (reasoning ? "{\"type\":\"thinking_delta\",\"thinking\":" + quoted(text) + '}'
                              : "{\"type\":\"text_delta\",\"text\":" + quoted(text) + '}'));
    return e;
}

QByteArray SimApiStream::finish(int outputTokens, int reasoningTokens)
{
    QByteArray e = closeBlock();
    if (m_ctx.api == SimApi::Responses) {
        // The final event is response.completed even at the output cap, as vLLM and SGLang send
        // it (OpenAI's own API sends response.incomplete); the response says incomplete.
        e += event("response.completed",
                   "\"response\":" + responseObject("incomplete", outputTokens, reasoningTokens));
        return e;
    }
    e += event("message_delta",
               "\"delta\":{\"stop_reason\":\"max_tokens\",\"stop_sequence\":null},\"usage\":" +
                   messagesUsage(outputTokens, reasoningTokens, true));
    e += event("message_stop", {});
    return e;
}

QByteArray SimApiStream::error(const QByteArray &message)
{
    if (m_ctx.api == SimApi::Responses)
        return event("error", "\"code\":\"server_error\",\"message\":" + message + ",\"param\":null");
    return event("error", "\"error\":{\"type\":\"api_error\",\"message\":" + message + '}');
}

QByteArray SimApiStream::fullBody(const QByteArray &content, int outputTokens) const
{
    if (m_ctx.api == SimApi::Responses) {
        SimApiStream copy = *this;
        copy.m_content = content;
        return copy.responseObject("incomplete", outputTokens, 0);
    }
    return "{\"id\":\"" + m_ctx.id + "\",\"type\":\"message\",\"role\":\"assistant\",\"content\":" +
           "[{\"type\":\"text\",\"text\":" + quoted(content) + "}],\"model\":" + m_ctx.model +
           ",\"stop_reason\":\"max_tokens\",\"stop_sequence\":null,\"usage\":" +
           messagesUsage(outputTokens, 0, true) + '}';
}

} // namespace sb
