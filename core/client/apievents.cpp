#include "apievents.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

qint32 intOf(const QJsonObject &o, QLatin1StringView key)
{
    return o.value(key).toInt(-1);
}

QString compact(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// "<code or type>: <message>", whichever parts the error object has.
QString describeError(const QJsonObject &e, QLatin1StringView kindKey)
{
    const QString message = e.value("message"_L1).toString();
    const QString kind = e.value(kindKey).toString();
    if (message.isEmpty())
        return compact(e);
    return kind.isEmpty() ? message : kind + u": "_s + message;
}

void readResponsesUsage(const QJsonObject &usage, ApiEventFields *f)
{
    f->inputTokens = intOf(usage, "input_tokens"_L1);
    f->outputTokens = intOf(usage, "output_tokens"_L1);
    f->cachedTokens =
        usage.value("input_tokens_details"_L1).toObject().value("cached_tokens"_L1).toInt(-1);
    f->reasoningTokens =
        usage.value("output_tokens_details"_L1).toObject().value("reasoning_tokens"_L1).toInt(-1);
}

ApiEventFields readResponses(const QJsonObject &o)
{
    ApiEventFields f;
    const QString type = o.value("type"_L1).toString();
    if (type == "response.output_text.delta"_L1) {
        f.content = o.value("delta"_L1).toString();
    } else if (type == "response.reasoning_text.delta"_L1 ||
               type == "response.reasoning_summary_text.delta"_L1) {
        f.reasoning = o.value("delta"_L1).toString();
    } else if (type == "response.completed"_L1 || type == "response.incomplete"_L1) {
        const QJsonObject response = o.value("response"_L1).toObject();
        if (response.value("usage"_L1).isObject())
            readResponsesUsage(response.value("usage"_L1).toObject(), &f);
        const QString reason =
            response.value("incomplete_details"_L1).toObject().value("reason"_L1).toString();
        f.finishReason = !reason.isEmpty()                         ? reason
                         : type == "response.completed"_L1         ? u"completed"_s
                                                                   : u"incomplete"_s;
        f.done = true;
    } else if (type == "response.failed"_L1) {
        const QJsonObject response = o.value("response"_L1).toObject();
        if (response.value("usage"_L1).isObject())
            readResponsesUsage(response.value("usage"_L1).toObject(), &f);
        f.error = ErrorClass::StreamError;
        const QJsonObject error = response.value("error"_L1).toObject();
        f.errorMessage = u"response.failed: "_s +
                         (error.isEmpty() ? u"(no error object)"_s
                                          : describeError(error, "code"_L1));
    } else if (type == "error"_L1) {
        // Documented flat ({type, code, message, param}) and, from some providers, nested
        // ({type, error: {type, code, message}}).
        f.error = ErrorClass::StreamError;
        const QJsonValue nested = o.value("error"_L1);
        f.errorMessage = nested.isObject() ? describeError(nested.toObject(), "code"_L1)
                                           : describeError(o, "code"_L1);
    }
    return f;
}

void readMessagesUsage(const QJsonObject &usage, bool withOutput, ApiEventFields *f)
{
    f->inputTokens = intOf(usage, "input_tokens"_L1);
    f->cachedTokens = intOf(usage, "cache_read_input_tokens"_L1);
    f->cacheCreationTokens = intOf(usage, "cache_creation_input_tokens"_L1);
    if (withOutput) {
        f->outputTokens = intOf(usage, "output_tokens"_L1);
        f->reasoningTokens = usage.value("output_tokens_details"_L1)
                                 .toObject()
                                 .value("thinking_tokens"_L1)
                                 .toInt(-1);
    }
}

ApiEventFields readMessages(const QJsonObject &o)
{
    ApiEventFields f;
    const QString type = o.value("type"_L1).toString();
    if (type == "content_block_delta"_L1) {
        const QJsonObject delta = o.value("delta"_L1).toObject();
        const QString kind = delta.value("type"_L1).toString();
        if (kind == "text_delta"_L1)
            f.content = delta.value("text"_L1).toString();
        else if (kind == "thinking_delta"_L1)
            f.reasoning = delta.value("thinking"_L1).toString();
    } else if (type == "message_start"_L1) {
        const QJsonObject usage =
            o.value("message"_L1).toObject().value("usage"_L1).toObject();
        if (!usage.isEmpty())
            readMessagesUsage(usage, false, &f);
    } else if (type == "message_delta"_L1) {
        // Cumulative: it may repeat input and cache counts, and its output_tokens is the total.
        const QJsonValue usage = o.value("usage"_L1);
        if (usage.isObject())
            readMessagesUsage(usage.toObject(), true, &f);
        f.finishReason = o.value("delta"_L1).toObject().value("stop_reason"_L1).toString();
    } else if (type == "message_stop"_L1) {
        f.done = true;
    } else if (type == "error"_L1) {
        const QJsonObject error = o.value("error"_L1).toObject();
        f.error = error.value("type"_L1).toString() == "overloaded_error"_L1
                      ? ErrorClass::Overloaded
                      : ErrorClass::StreamError;
        f.errorMessage = error.isEmpty() ? compact(o) : describeError(error, "type"_L1);
    }
    return f;
}

} // namespace

ApiEventFields readApiEvent(const QJsonObject &event, ApiFlavour flavour)
{
    ApiEventFields f =
        flavour == ApiFlavour::Messages ? readMessages(event) : readResponses(event);
    if (f.error == ErrorClass::None) {
        // Whatever its type, an object with a top-level error is one (a proxy's own error in
        // OpenAI's shape, vLLM's mid-stream error).
        const QJsonValue error = event.value("error"_L1);
        if (error.isObject()) {
            f = ApiEventFields();
            f.error = ErrorClass::StreamError;
            f.errorMessage = describeError(error.toObject(), "code"_L1);
        } else if (error.isString() && !error.toString().isEmpty()) {
            f = ApiEventFields();
            f.error = ErrorClass::StreamError;
            f.errorMessage = error.toString();
        }
    }
    return f;
}

QString apiFlavourEndMarker(ApiFlavour f)
{
    switch (f) {
    case ApiFlavour::Responses:
        return u"response.completed"_s;
    case ApiFlavour::Messages:
        return u"message_stop"_s;
    case ApiFlavour::Embeddings:
    case ApiFlavour::Rerank:
        return u"the end of the JSON body"_s;
    case ApiFlavour::Completions:
    case ApiFlavour::Chat:
        break;
    }
    return u"data: [DONE]"_s;
}

} // namespace sb
