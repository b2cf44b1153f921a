#include "requestbuilder.h"

#include "config/runplan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QUrl>

#include <algorithm>
#include <cstring>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

void mergeInto(QJsonObject &base, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        if (it->isNull()) {
            base.remove(it.key());
        } else if (it->isObject() && base.value(it.key()).isObject()) {
            QJsonObject nested = base.value(it.key()).toObject();
            mergeInto(nested, it->toObject());
            base.insert(it.key(), nested);
        } else {
            base.insert(it.key(), *it);
        }
    }
}

// The sampling fields every flavour sends when the plan sets them (as given: a server that does
// not know one answers with its own error, which the run records).
void appendCommonParams(const RequestParams &params, QJsonObject *body)
{
    if (params.ignoreEos)
        body->insert("ignore_eos"_L1, true);
    if (params.temperature >= 0)
        body->insert("temperature"_L1, params.temperature);
    if (params.seed >= 0)
        body->insert("seed"_L1, params.seed);
}

// Where image k's data URL goes while the body is written: a string no prompt holds (NUL
// characters, which the JSON writer escapes as \u0000), replaced by the URL's bytes afterwards.
QString imageMarker(qsizetype k)
{
    return QChar(0) + u"sb-image-%1"_s.arg(k) + QChar(0);
}

QByteArray writtenImageMarker(qsizetype k)
{
    return "\\u0000sb-image-"_ba + QByteArray::number(k) + "\\u0000"_ba;
}

// The messages with the images appended to the last user message as content parts (chat
// image_url, Responses input_image) after its text; urls are the images' URLs (or markers).
QJsonArray withImages(QJsonArray messages, ApiFlavour flavour, const QStringList &urls)
{
    qsizetype at = messages.size() - 1;
    while (at >= 0 && messages.at(at).toObject().value("role"_L1).toString() != "user"_L1)
        --at;
    if (at < 0) {
        messages.append(QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, QString()}});
        at = messages.size() - 1;
    }
    QJsonObject message = messages.at(at).toObject();
    const bool responses = flavour == ApiFlavour::Responses;
    QJsonArray parts;
    const QJsonValue content = message.value("content"_L1);
    if (content.isArray()) {
        parts = content.toArray();
    } else if (!content.toString().isEmpty()) {
        parts.append(QJsonObject{{"type"_L1, responses ? "input_text"_L1 : "text"_L1},
                                 {"text"_L1, content.toString()}});
    }
    for (const QString &url : urls) {
        if (responses)
            parts.append(QJsonObject{{"type"_L1, "input_image"_L1}, {"image_url"_L1, url}});
        else
            parts.append(QJsonObject{{"type"_L1, "image_url"_L1},
                                     {"image_url"_L1, QJsonObject{{"url"_L1, url}}}});
    }
    message.insert("content"_L1, parts);
    messages[at] = message;
    return messages;
}

// The body's JSON with each image marker replaced by its data URL; null when a marker is not
// found exactly once (a prompt that holds one, or an extra body that removed the messages): the
// caller then writes the body again with the URLs as ordinary strings (slower, never wrong).
QByteArray spliceImages(const QByteArray &json, const QList<QByteArray> &images)
{
    QList<qsizetype> at;
    for (qsizetype k = 0; k < images.size(); ++k) {
        const QByteArray marker = writtenImageMarker(k);
        const qsizetype i = json.indexOf(marker);
        if (i < 0 || json.indexOf(marker, i + 1) >= 0)
            return QByteArray();
        at.append(i);
    }
    qsizetype size = json.size();
    for (qsizetype k = 0; k < images.size(); ++k)
        size += images.at(k).size() - writtenImageMarker(k).size();
    // In the order the markers appear, so each copy goes once.
    QList<qsizetype> order(images.size());
    for (qsizetype k = 0; k < order.size(); ++k)
        order[k] = k;
    std::sort(order.begin(), order.end(), [&at](qsizetype a, qsizetype b) { return at[a] < at[b]; });
    QByteArray out;
    out.reserve(size);
    qsizetype from = 0;
    for (qsizetype k : order) {
        out.append(json.constData() + from, at[k] - from);
        out.append(images.at(k));
        from = at[k] + writtenImageMarker(k).size();
    }
    out.append(json.constData() + from, json.size() - from);
    return out;
}

} // namespace

QByteArray buildPoolingBody(const SutConfig &sut, const RequestParams &params,
                            const QString &query, const QStringList &inputs)
{
    QJsonObject body;
    if (!sut.model.isEmpty())
        body.insert("model"_L1, sut.model);
    if (sut.flavour == ApiFlavour::Rerank) {
        body.insert("query"_L1, query);
        body.insert("documents"_L1, QJsonArray::fromStringList(inputs));
        body.insert("top_n"_L1, int(inputs.size()));
    } else {
        body.insert("input"_L1, inputs.size() == 1 ? QJsonValue(inputs.constFirst())
                                                   : QJsonValue(QJsonArray::fromStringList(inputs)));
        body.insert("encoding_format"_L1, "float"_L1);
    }
    mergeInto(body, params.extraBody);
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

namespace {

// The body of a streamed request as JSON, with imageUrls (chat and Responses only) as the URLs of
// the images' content parts.
QJsonObject streamedBody(const SutConfig &sut, const RequestParams &params, const QString &prompt,
                         const QJsonArray &messages, int maxTokens, const QStringList &imageUrls)
{
    QJsonObject body;
    if (!sut.model.isEmpty())
        body.insert("model"_L1, sut.model);
    const QJsonArray userOnly{QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, prompt}}};
    const bool sendImages = !imageUrls.isEmpty() && apiFlavourTakesImages(sut.flavour);
    if (sut.flavour == ApiFlavour::Responses) {
        // input is the prompt as a string, or the conversation as messages (role and content,
        // system messages included: the Responses API takes them in input).
        if (sendImages)
            body.insert("input"_L1, withImages(messages.isEmpty() ? userOnly : messages,
                                               sut.flavour, imageUrls));
        else
            body.insert("input"_L1,
                        messages.isEmpty() ? QJsonValue(prompt) : QJsonValue(messages));
        if (maxTokens >= 0)
            body.insert("max_output_tokens"_L1, maxTokens);
        body.insert("stream"_L1, true);
        appendCommonParams(params, &body);
        mergeInto(body, params.extraBody);
        return body;
    }
    if (sut.flavour == ApiFlavour::Messages) {
        // Anthropic takes the system prompt as a top-level field, not as a message, and
        // requires max_tokens.
        QJsonArray turns;
        QString system;
        for (const QJsonValue &m : messages.isEmpty() ? userOnly : messages) {
            const QJsonObject o = m.toObject();
            if (o.value("role"_L1).toString() == "system"_L1) {
                if (!system.isEmpty())
                    system += u"\n\n"_s;
                system += o.value("content"_L1).toString();
            } else {
                turns.append(o);
            }
        }
        if (!system.isEmpty())
            body.insert("system"_L1, system);
        body.insert("messages"_L1, turns);
        body.insert("max_tokens"_L1, maxTokens >= 0 ? maxTokens : kMessagesDefaultMaxTokens);
        body.insert("stream"_L1, true);
        if (params.thinkingBudgetTokens > 0)
            body.insert("thinking"_L1,
                        QJsonObject{{"type"_L1, "enabled"_L1},
                                    {"budget_tokens"_L1, params.thinkingBudgetTokens}});
        appendCommonParams(params, &body);
        mergeInto(body, params.extraBody);
        return body;
    }
    if (sut.flavour == ApiFlavour::Chat) {
        const QJsonArray sent = messages.isEmpty() ? userOnly : messages;
        body.insert("messages"_L1, sendImages ? withImages(sent, sut.flavour, imageUrls) : sent);
        if (maxTokens >= 0)
            body.insert("max_completion_tokens"_L1, maxTokens);
    } else {
        body.insert("prompt"_L1, prompt);
    }
    if (maxTokens >= 0)
        body.insert("max_tokens"_L1, maxTokens);
    body.insert("stream"_L1, true);
    body.insert("stream_options"_L1, QJsonObject{{"include_usage"_L1, true}});
    appendCommonParams(params, &body);
    mergeInto(body, params.extraBody);
    return body;
}

} // namespace

QByteArray buildRequestBody(const SutConfig &sut, const RequestParams &params,
                            const QString &prompt, const QJsonArray &messages, int maxTokens,
                            const QList<QByteArray> &images)
{
    if (apiFlavourIsPooling(sut.flavour))
        return buildPoolingBody(sut, params, prompt, QStringList{prompt});
    if (images.isEmpty() || !apiFlavourTakesImages(sut.flavour))
        return QJsonDocument(streamedBody(sut, params, prompt, messages, maxTokens, {}))
            .toJson(QJsonDocument::Compact);
    QStringList markers;
    for (qsizetype k = 0; k < images.size(); ++k)
        markers.append(imageMarker(k));
    const QByteArray spliced = spliceImages(
        QJsonDocument(streamedBody(sut, params, prompt, messages, maxTokens, markers))
            .toJson(QJsonDocument::Compact),
        images);
    if (!spliced.isNull())
        return spliced;
    // A marker was not found exactly once: the URLs go through the JSON writer as strings.
    QStringList urls;
    for (const QByteArray &url : images)
        urls.append(QString::fromLatin1(url));
    return QJsonDocument(streamedBody(sut, params, prompt, messages, maxTokens, urls))
        .toJson(QJsonDocument::Compact);
}

QList<QPair<QByteArray, QByteArray>>
buildRequestHeaders(const SutConfig &sut, const QByteArray &apiKey, const QString &requestId)
{
    QList<QPair<QByteArray, QByteArray>> h;
    h.reserve(6 + sut.extraHeaders.size());
    h.append({"Content-Type"_ba, "application/json"_ba});
    h.append({"Accept"_ba, apiFlavourIsPooling(sut.flavour) ? "application/json"_ba
                                                            : "text/event-stream"_ba});
    h.append({"Accept-Encoding"_ba, "identity"_ba});
    // A header that names the key ("X-Api-Key: {api_key}") carries it instead of the default
    // Authorization header: gateways that want the key elsewhere reject a second credential.
    const bool keyPlacedByHeader =
        std::any_of(sut.extraHeaders.cbegin(), sut.extraHeaders.cend(),
                    [](const auto &hv) { return isApiKeyReference(hv.second); });
    if (sut.flavour == ApiFlavour::Messages) {
        // Anthropic's API takes the key as x-api-key and no Authorization header.
        if (!apiKey.isEmpty() && !keyPlacedByHeader)
            h.append({"x-api-key"_ba, apiKey});
        h.append({"anthropic-version"_ba, QByteArray(kAnthropicVersion)});
    } else if (!apiKey.isEmpty() && !keyPlacedByHeader) {
        h.append({"Authorization"_ba, "Bearer "_ba + apiKey});
    }
    if (!requestId.isEmpty())
        h.append({"x-request-id"_ba, requestId.toUtf8()});
    for (const auto &[name, value] : sut.extraHeaders) {
        const QByteArray n = name.trimmed().toLatin1();
        if (n.isEmpty())
            continue;
        h.removeIf([&](const QPair<QByteArray, QByteArray> &p) {
            return p.first.compare(n, Qt::CaseInsensitive) == 0;
        });
        QByteArray v = value.toUtf8();
        v.replace(QByteArray(kApiKeyPlaceholder.data(), kApiKeyPlaceholder.size()), apiKey);
        h.append({n, v});
    }
    return h;
}

namespace {
bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return std::strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != '\0';
}

QString describeByte(char c)
{
    switch (c) {
    case '\r':
        return u"a carriage return (CR)"_s;
    case '\n':
        return u"a line feed (LF)"_s;
    case '\0':
        return u"a NUL byte"_s;
    default:
        return u"the byte 0x%1"_s.arg(QString::number(uint(uchar(c)), 16).rightJustified(2, u'0'));
    }
}
} // namespace

bool validateHeader(QByteArrayView name, QByteArrayView value, QString *error)
{
    const QString shownName = QString::fromLatin1(name.first(std::min<qsizetype>(name.size(), 64)))
                                  .toHtmlEscaped()
                                  .simplified();
    if (name.isEmpty()) {
        if (error)
            *error = u"a request header has an empty name"_s;
        return false;
    }
    for (qsizetype i = 0; i < name.size(); ++i) {
        if (!isTokenChar(name[i])) {
            if (error)
                *error = u"request header name \"%1\" contains %2 at position %3; a header name "
                         "may hold only letters, digits and !#$%&'*+-.^_`|~"_s
                             .arg(shownName, name[i] == ' ' ? u"a space"_s : describeByte(name[i]))
                             .arg(i + 1);
            return false;
        }
    }
    for (qsizetype i = 0; i < value.size(); ++i) {
        const auto c = uchar(value[i]);
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            if (error)
                *error = u"the value of request header \"%1\" contains %2 at position %3: it "
                         "would end the header line"_s.arg(shownName, describeByte(char(c)))
                             .arg(i + 1);
            return false;
        }
    }
    return true;
}

bool validateHeader(const QString &name, const QString &value, QString *error)
{
    // As buildRequestHeaders() sends them: the name trimmed, in Latin-1; the value in UTF-8.
    const QString trimmed = name.trimmed();
    for (const QChar ch : trimmed) {
        if (ch.unicode() > 0x7f) {
            if (error)
                *error = u"request header name \"%1\" contains the non-ASCII character '%2'"_s.arg(
                    trimmed.left(64), QString(ch));
            return false;
        }
    }
    return validateHeader(QByteArrayView(trimmed.toLatin1()), QByteArrayView(value.toUtf8()),
                          error);
}

bool validateSutRequest(const SutConfig &sut, QString *error)
{
    for (const auto &[name, value] : sut.extraHeaders) {
        if (name.trimmed().isEmpty())
            continue; // buildRequestHeaders() skips it
        if (!validateHeader(name, value, error))
            return false;
    }
    const QUrl url = endpointUrl(sut);
    if (!url.isValid() || url.host().isEmpty()) {
        if (error)
            *error = u"the endpoint URL is not valid: %1"_s.arg(
                url.errorString().isEmpty() ? u"no host"_s : url.errorString());
        return false;
    }
    return true;
}

QString defaultEndpoint(const SutConfig &sut)
{
    switch (sut.flavour) {
    case ApiFlavour::Chat:
        return u"/v1/chat/completions"_s;
    case ApiFlavour::Responses:
        return u"/v1/responses"_s;
    case ApiFlavour::Messages:
        return u"/v1/messages"_s;
    case ApiFlavour::Embeddings:
        return u"/v1/embeddings"_s;
    case ApiFlavour::Rerank:
        return u"/v1/rerank"_s;
    case ApiFlavour::Completions:
        break;
    }
    return u"/v1/completions"_s;
}

QUrl endpointUrl(const SutConfig &sut)
{
    QString path = sut.endpoint.trimmed();
    if (path.startsWith("http://"_L1, Qt::CaseInsensitive) ||
        path.startsWith("https://"_L1, Qt::CaseInsensitive))
        return QUrl(path);
    if (path.isEmpty())
        path = defaultEndpoint(sut);
    if (!path.startsWith(u'/'))
        path.prepend(u'/');

    QString base = sut.baseUrl.trimmed();
    while (base.endsWith(u'/'))
        base.chop(1);
    // Users copy the base URL from the OpenAI SDK, where it ends in /v1.
    if (base.endsWith("/v1"_L1, Qt::CaseInsensitive) &&
        (path.startsWith("/v1/"_L1, Qt::CaseInsensitive) ||
         path.compare("/v1"_L1, Qt::CaseInsensitive) == 0))
        base.chop(3);
    return QUrl(base + path);
}

} // namespace sb
