#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

#include <QByteArrayView>
#include <QStringList>

class QJsonArray;
class QString;
class QUrl;

namespace sb {

struct SutConfig;
struct RequestParams;

// The request side of the OpenAI streaming protocol (docs/design.md, "Wire protocol"), shared by
// every transport.

// The anthropic-version header Messages requests carry.
inline constexpr char kAnthropicVersion[] = "2023-06-01";
// max_tokens of a Messages request when the dataset gives no output length (Anthropic requires
// the field; AIPerf's default).
inline constexpr int kMessagesDefaultMaxTokens = 1024;

// JSON body of one streamed request. Completions send `prompt`; chat sends `messages` (the given
// ones, or one user message holding prompt) with `max_completion_tokens` and, for older servers,
// `max_tokens`, and asks for usage (stream_options.include_usage). Responses sends `input` (prompt
// as a string, or the messages) and `max_output_tokens`. Messages (Anthropic) sends `messages`
// without the system messages, which go to a top-level `system`, `max_tokens` (always: the API
// requires it; kMessagesDefaultMaxTokens when maxTokens < 0) and, with
// params.thinkingBudgetTokens > 0, `thinking`. maxTokens < 0 leaves the length to the server.
// params.extraBody is merged on top last, recursively into nested objects, so the user can
// override any field; a null value there removes the field (for servers that reject one).
//
// images (chat and Responses; docs/datasets.md, "Images in prompts"): data URLs
// ("data:image/png;base64,…") sent after the text of the last user message, whose content
// becomes a list of parts: chat {"type":"text"} then {"type":"image_url","image_url":{"url"}}
// per image; Responses {"type":"input_text"} then {"type":"input_image","image_url"}. Other
// flavours ignore them. The URLs are copied into the body as bytes, not through the JSON
// writer (base64 needs no escaping), so megabytes of images cost a copy, not a serialisation.
//
// Embeddings and Rerank are sent as buildPoolingBody() with prompt as the one input (rerank:
// the query and its one document), for callers that hold a single prompt (the connection test).
QByteArray buildRequestBody(const SutConfig &sut, const RequestParams &params,
                            const QString &prompt, const QJsonArray &messages, int maxTokens,
                            const QList<QByteArray> &images = {});

// JSON body of one non-streamed request of a pooling endpoint (docs/metrics.md, "Embeddings and
// rerank"). Embeddings (OpenAI's and vLLM's /v1/embeddings): model, input (the one input as a
// string, a batch as a list of strings) and encoding_format "float". Rerank (vLLM, Jina, Cohere
// /v1/rerank and /rerank): model, query, documents (the inputs) and top_n (their number, so
// every document is scored and returned). params.extraBody is merged on top as for
// buildRequestBody(); sampling fields are not sent.
QByteArray buildPoolingBody(const SutConfig &sut, const RequestParams &params,
                            const QString &query, const QStringList &inputs);

// Request headers: Content-Type, Accept: text/event-stream (application/json for the non-streamed
// embeddings and rerank), Accept-Encoding: identity (so Qt does
// not ask for compression and buffer the stream), Authorization only when apiKey is non-empty
// (Messages: x-api-key instead, and anthropic-version always),
// x-request-id when requestId is non-empty, then sut.extraHeaders, each of which replaces a
// default of the same name (case-insensitive).
QList<QPair<QByteArray, QByteArray>>
buildRequestHeaders(const SutConfig &sut, const QByteArray &apiKey, const QString &requestId);

// RFC 9110 §5: a field name is a token (letters, digits and !#$%&'*+-.^_`|~), a field value holds
// no control character but HTAB (so never CR, LF or NUL: a header cannot smuggle a line into the
// request). False with *error naming the field and the offending character. Both transports
// refuse to send a request with such a header; the CLI and the workbench check what the user
// typed with it before anything is sent.
bool validateHeader(QByteArrayView name, QByteArrayView value, QString *error);
bool validateHeader(const QString &name, const QString &value, QString *error);
// Everything of the SUT that ends up in a request's head: its extra headers (as
// buildRequestHeaders() will send them) and the endpoint URL. The model name travels in the JSON
// body, and the URL's path and query are percent-encoded (QUrl), so neither can reach the
// request line raw.
bool validateSutRequest(const SutConfig &sut, QString *error);

// sut.baseUrl joined with sut.endpoint, or with the flavour's default path when endpoint is
// empty. Tolerates missing or doubled slashes and a baseUrl that already ends in /v1; an endpoint
// that is a full http(s) URL is used as it is.
QUrl endpointUrl(const SutConfig &sut);

// The path used when SutConfig::endpoint is empty: /v1/completions, /v1/chat/completions,
// /v1/responses, /v1/messages, /v1/embeddings or /v1/rerank.
QString defaultEndpoint(const SutConfig &sut);

} // namespace sb
