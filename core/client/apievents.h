#pragma once

#include "config/runplan.h"
#include "metrics/requestrecord.h"

#include <QString>

class QJsonObject;

namespace sb {

// What the protocol layer takes from one event of a typed-event stream: the OpenAI Responses API
// (ApiFlavour::Responses) or Anthropic's Messages API (ApiFlavour::Messages). Both send one JSON
// object per SSE event whose "type" says what it is (the SSE `event:` line repeats it and is not
// read). docs/metrics.md ("Fields per API") lists which field feeds which metric.
//
// Values the event does not carry keep their defaults (-1, empty, false).
struct ApiEventFields
{
    // Generated text of a delta event: content is the answer, reasoning the model's reasoning.
    //   Responses: response.output_text.delta → content; response.reasoning_text.delta and
    //              response.reasoning_summary_text.delta → reasoning (their "delta").
    //   Messages:  content_block_delta with delta.type text_delta → content (delta.text),
    //              thinking_delta → reasoning (delta.thinking).
    QString content;
    QString reasoning;

    // Usage, as the event reports it.
    //   Responses (response.completed / response.incomplete / response.failed, response.usage):
    //     inputTokens = input_tokens (cached ones included), outputTokens = output_tokens
    //     (reasoning included), cachedTokens = input_tokens_details.cached_tokens,
    //     reasoningTokens = output_tokens_details.reasoning_tokens.
    //   Messages (message_start's message.usage and message_delta's usage): inputTokens =
    //     input_tokens, which counts only the prompt tokens neither read from nor written to the
    //     cache; cachedTokens = cache_read_input_tokens; cacheCreationTokens =
    //     cache_creation_input_tokens; outputTokens = output_tokens of message_delta only (the
    //     one in message_start is a placeholder); reasoningTokens =
    //     output_tokens_details.thinking_tokens where sent.
    qint32 inputTokens = -1;
    qint32 outputTokens = -1;
    qint32 cachedTokens = -1;
    qint32 cacheCreationTokens = -1;
    qint32 reasoningTokens = -1;

    // Why the generation stopped, in the API's own words: Responses "completed" or
    // incomplete_details.reason ("max_output_tokens", …); Messages delta.stop_reason
    // ("end_turn", "max_tokens", …).
    QString finishReason;
    // The response is complete: response.completed, response.incomplete, message_stop.
    bool done = false;

    // A failure the stream reports: Responses `error` (flat or nested message) and
    // response.failed (response.error.message) → StreamError; Messages `error` → Overloaded when
    // error.type is overloaded_error, StreamError otherwise; any other object with a top-level
    // "error" object or string → StreamError.
    ErrorClass error = ErrorClass::None;
    QString errorMessage;
};

// Reads one event object of a Responses or Messages stream. Unknown or purely structural event
// types (response.created, content_block_start, ping, keepalive, …) give an empty result.
ApiEventFields readApiEvent(const QJsonObject &event, ApiFlavour flavour);

// True for the flavours whose streams readApiEvent reads.
inline bool apiFlavourHasTypedEvents(ApiFlavour f)
{
    return f == ApiFlavour::Responses || f == ApiFlavour::Messages;
}

// What a complete stream of the flavour ends with, for messages: "data: [DONE]",
// "response.completed", "message_stop".
QString apiFlavourEndMarker(ApiFlavour f);

} // namespace sb
