#pragma once

#include <QByteArray>

namespace sb {

// The APIs the simulator serves (docs/metrics.md, "Fields per API"): /v1/completions,
// /v1/chat/completions, /v1/responses (OpenAI Responses) and /v1/messages (Anthropic Messages).
enum class SimApi { Completions, Chat, Responses, Messages };

// Renders one streamed answer of the Responses or Messages API as its typed SSE events
// ("event: <type>\ndata: {...}\n\n", without HTTP chunk framing), in the order and shapes the
// official SDKs accumulate: the response or message is opened, each output block (reasoning
// first, then the answer) is opened, filled by deltas and closed, and the final event carries the
// usage. It keeps what the closing events repeat: the texts, the block index, the Responses
// sequence numbers. The token text is the simulator's words, which need no JSON escaping.
//
// Responses: response.created, response.in_progress; per block response.output_item.added,
// response.content_part.added, response.reasoning_text.delta | response.output_text.delta…,
// the matching .done events; then response.completed with the usage, its response's status
// incomplete with incomplete_details {reason: max_output_tokens} (the simulator always stops at
// the output cap; vLLM and SGLang end with response.completed whatever the status).
// Messages: message_start (input and cache usage), per block content_block_start (thinking or
// text), a ping after the first, thinking_delta | text_delta…, a signature_delta closing a
// thinking block, content_block_stop; then message_delta (stop_reason max_tokens, usage) and
// message_stop.
class SimApiStream
{
public:
    struct Context
    {
        SimApi api = SimApi::Responses;
        QByteArray id;      // "resp_sim_<seq>" / "msg_sim_<seq>"
        QByteArray model;   // a JSON string literal
        qint64 created = 0; // unix seconds
        int maxTokens = 0;
        int promptTokens = 0;
        bool usage = true;                 // Responses: false sends usage null
        bool reasoningUsageDetails = false; // Messages: usage.output_tokens_details.thinking_tokens
    };

    explicit SimApiStream(const Context &context) : m_ctx(context) {}

    // Prompt tokens read from and written to the prefix cache (known at admission).
    void setCache(int readTokens, int creationTokens)
    {
        m_cacheRead = readTokens;
        m_cacheCreation = creationTokens;
    }

    // The events before the first token: response.created and .in_progress, or message_start.
    QByteArray start();
    // One token chunk's delta, opening (or switching to) its block first when needed.
    QByteArray delta(const QByteArray &text, bool reasoning);
    // Closes the open block and ends the answer with its usage.
    QByteArray finish(int outputTokens, int reasoningTokens);
    // A mid-stream failure (the stream ends after it). message: a JSON string literal.
    QByteArray error(const QByteArray &message);
    // The whole non-streamed body (a Response or a Message object) of an answer of this text.
    QByteArray fullBody(const QByteArray &content, int outputTokens) const;

private:
    QByteArray event(const char *type, const QByteArray &fields);
    QByteArray openBlock(bool reasoning);
    QByteArray closeBlock();
    QByteArray responseObject(const char *status, int outputTokens, int reasoningTokens) const;
    QByteArray outputItems() const;
    QByteArray responsesUsage(int outputTokens, int reasoningTokens) const;
    QByteArray messagesUsage(int outputTokens, int reasoningTokens, bool withInput) const;
    int uncachedInput() const;

    Context m_ctx;
    int m_cacheRead = 0;
    int m_cacheCreation = 0;
    int m_sequence = 0;     // Responses: sequence_number of the next event
    int m_blocks = 0;       // blocks opened so far
    bool m_open = false;    // a block is open
    bool m_openReasoning = false;
    QByteArray m_reasoning; // the texts so far, repeated by the closing events
    QByteArray m_content;
};

} // namespace sb
