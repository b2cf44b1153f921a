#include "simserver.h"

#include "common/clock.h"
#include "simapistream.h"
#include "simconnection.h"
#include "simhttprequest.h"
#include "simlogentry.h"
#include "simmetrics.h"
#include "simpooling.h"
#include "simprefixcache.h"
#include "simrenderer.h"
#include "simscheduler.h"
#include "simstats.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTcpServer>
#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr qint64 msToNs(double ms)
{
    return qint64(ms * 1e6);
}

bool isMidStreamFault(SimFault f)
{
    return f == SimFault::ResetMidStream || f == SimFault::MalformedJson ||
           f == SimFault::ErrorEvent || f == SimFault::Stall;
}

// Prompt text as the simulator's tokenizer sees it; token-id arrays count one token per id.
void appendPrompt(const QJsonValue &v, QString *text, QList<qint64> *ids)
{
    if (v.isString()) {
        if (!text->isEmpty())
            *text += u'\n';
        *text += v.toString();
    } else if (v.isDouble()) {
        ids->append(qint64(v.toDouble()));
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (const QJsonValue &e : a)
            appendPrompt(e, text, ids);
    }
}

void appendMessageContent(const QJsonValue &content, QString *text)
{
    if (content.isString()) {
        if (!text->isEmpty())
            *text += u'\n';
        *text += content.toString();
    } else if (content.isArray()) {
        const QJsonArray parts = content.toArray();
        for (const QJsonValue &p : parts) {
            const QJsonObject part = p.toObject();
            if (part.value("type"_L1).toString() == "text"_L1)
                appendMessageContent(part.value("text"_L1), text);
        }
    }
}

// Images in a chat or Responses message's content parts (docs/datasets.md, "Images in
// prompts"): chat {"type":"image_url","image_url":{"url"}} and Responses {"type":"input_image",
// "image_url"} holding data URLs. Their bytes are the decoded base64; each counts
// ceil(width/28) x ceil(height/28) prompt tokens (one per 28-pixel patch, read from a PNG's
// IHDR; other formats count none), so usage tells images apart from text.
void addImages(const QJsonValue &content, SimLogEntry *log, int *tokens)
{
    if (!content.isArray())
        return;
    const QJsonArray parts = content.toArray();
    for (const QJsonValue &p : parts) {
        const QJsonObject part = p.toObject();
        const QString type = part.value("type"_L1).toString();
        QString url;
        if (type == "image_url"_L1)
            url = part.value("image_url"_L1).toObject().value("url"_L1).toString();
        else if (type == "input_image"_L1)
            url = part.value("image_url"_L1).toString();
        else
            continue;
        ++log->images;
        const qsizetype comma = url.indexOf(u',');
        if (!url.startsWith("data:"_L1) || comma < 0 || !url.left(comma).endsWith(";base64"_L1))
            continue;
        const QByteArray bytes = QByteArray::fromBase64(QStringView(url).mid(comma + 1).toLatin1());
        log->imageBytes += bytes.size();
        if (bytes.size() >= 24 && bytes.startsWith("\x89PNG\r\n\x1a\n")) {
            const auto be32 = [&bytes](int at) {
                return (quint32(uchar(bytes[at])) << 24) | (quint32(uchar(bytes[at + 1])) << 16) |
                       (quint32(uchar(bytes[at + 2])) << 8) | quint32(uchar(bytes[at + 3]));
            };
            const qint64 w = be32(16), h = be32(20);
            *tokens += int(std::min<qint64>(((w + 27) / 28) * ((h + 27) / 28), 1 << 20));
        }
    }
}

} // namespace

struct SimServer::Stream
{
    enum class Phase { Waiting, Active };

    Stream(const SimRenderer::Context &ctx) : renderer(ctx) {}

    quint64 id = 0;
    quint64 seq = 0;
    SimConnection *connection = nullptr;
    SimRenderer renderer;
    // Responses and Messages: their typed events (null for completions and chat).
    std::unique_ptr<SimApiStream> typed;
    // Embeddings and rerank: the request (null for the generation APIs).
    std::unique_ptr<SimPoolingRequest> pooling;
    QByteArray modelJson; // embeddings and rerank: the model named, as a JSON string
    SimLogEntry log;
    QByteArray requestId;
    SimApi api = SimApi::Completions;
    bool chat = false;
    bool streamed = false;
    bool includeUsage = false;
    bool keepAlive = true;
    int maxTokens = 0;
    int reasoningTokens = 0; // the first tokens of the answer that are reasoning deltas
    int tokensPerChunk = 1;
    int written = 0;
    SimFault fault = SimFault::None;
    int faultAfter = 0;
    bool faultDone = false;
    Phase phase = Phase::Waiting;
    bool holdsSlot = false;
    bool logged = false;
    qint64 nextDue = 0;
    qint64 firstDue = 0;      // when the first token is due (non-streamed: it is not written then)
    qint64 lastChunkNs = 0;   // the last token chunk's write time
    qint64 kvHeld = 0;        // this sequence's tokens in the KV-cache model
    QList<quint64> blockKeys; // prefix-cache keys of the prompt's full blocks (cache on only)
    QList<quint64> tokenHashes; // the prompt's token hashes (cache on only), for cacheAnswer()
};

SimServer::SimServer(SimStats *stats, QObject *parent)
    : QObject(parent), m_stats(stats), m_prefixCache(std::make_unique<SimPrefixCache>()),
      m_metrics(std::make_unique<SimMetrics>())
{}

SimServer::~SimServer()
{
    shutdown();
}

bool SimServer::listen(const SimConfig &config, QString *error)
{
    setConfig(config);
    m_faultRng.seed(config.seed);
    // A different stream for jitter, so enabling jitter does not change which requests fail.
    m_jitterRng.seed(config.seed ^ 0x9E3779B97F4A7C15ull);

    updateLoad(monotonicNs()); // the energy counter starts with the server

    m_scheduler = new SimScheduler(this);
    m_scheduler->setHandler([this](quint64 key, qint64 due) { onDue(key, due); });

    m_server = new QTcpServer(this);
    // A thousand clients connecting at once must not overflow the accept queue.
    m_server->setListenBacklogSize(4096);
    m_server->setMaxPendingConnections(4096);
    connect(m_server, &QTcpServer::newConnection, this, &SimServer::onNewConnection);
    QHostAddress address;
    if (config.host == "localhost"_L1)
        address = QHostAddress::LocalHost;
    else if (!address.setAddress(config.host)) {
        if (error)
            *error = u"invalid listen address '%1' (use an IP address)"_s.arg(config.host);
        return false;
    }
    if (!m_server->listen(address, config.port)) {
        if (error)
            *error = u"cannot listen on %1:%2: %3"_s.arg(config.host)
                         .arg(config.port)
                         .arg(m_server->errorString());
        return false;
    }
    return true;
}

quint16 SimServer::port() const
{
    return m_server ? m_server->serverPort() : 0;
}

void SimServer::setConfig(const SimConfig &config)
{
    m_config = config;
    m_config.tokensPerChunk = qMax(1, m_config.tokensPerChunk);
    m_config.capacity = qMax(0, m_config.capacity);
    m_stats->configure(m_config.recordLog, m_config.maxLogEntries);
    m_prefixCache->configure(m_config.prefixBlockTokens, m_config.prefixCacheBlocks);
    const int saturation = m_config.gpuSaturationRunning > 0 ? m_config.gpuSaturationRunning
                           : m_config.capacity > 0           ? m_config.capacity
                                                             : 64;
    m_metrics->configure(m_config.modelName, m_config.kvCacheTokens, m_config.gpuIdleW,
                         m_config.gpuMaxW, saturation);
    if (m_scheduler)
        admitWaiting();
}

void SimServer::shutdown()
{
    if (m_server) {
        m_server->close();
        delete m_server;
        m_server = nullptr;
    }
    if (m_scheduler)
        m_scheduler->clear();
    for (Stream *s : std::as_const(m_streams)) {
        if (s->phase == Stream::Phase::Waiting)
            m_stats->dequeued();
        releaseSlot(s);
        delete s;
    }
    m_streams.clear();
    m_streamOfConnection.clear();
    m_waiting.clear();
    const QList<SimConnection *> connections =
        findChildren<SimConnection *>(Qt::FindDirectChildrenOnly);
    for (SimConnection *c : connections) {
        c->abort(); // emits closed(): the open-connection count goes down
        delete c;
    }
    delete m_scheduler;
    m_scheduler = nullptr;
}

void SimServer::onNewConnection()
{
    while (m_server && m_server->hasPendingConnections()) {
        QTcpSocket *socket = m_server->nextPendingConnection();
        auto *c = new SimConnection(socket, m_nextConnectionId++, this);
        m_stats->connectionOpened();
        connect(c, &SimConnection::requestReady, this, &SimServer::onRequest);
        connect(c, &SimConnection::closed, this, &SimServer::onConnectionClosed);
    }
}

void SimServer::onConnectionClosed(SimConnection *connection)
{
    m_stats->connectionClosed();
    const quint64 id = m_streamOfConnection.take(connection);
    if (Stream *s = m_streams.take(id)) {
        if (s->phase == Stream::Phase::Waiting) {
            m_waiting.erase(std::remove(m_waiting.begin(), m_waiting.end(), id), m_waiting.end());
            m_stats->dequeued();
            updateLoad(monotonicNs());
        }
        releaseSlot(s);
        if (!s->logged) {
            s->log.clientClosed = true;
            logEntry(s, monotonicNs());
        }
        delete s;
        admitWaiting();
    }
    connection->deleteLater();
}

static SimLogEntry baseEntry(const SimHttpRequest &r, quint64 seq, quint64 connectionId)
{
    SimLogEntry e;
    e.seq = seq;
    e.connectionId = connectionId;
    e.requestId = QString::fromUtf8(r.header("x-request-id"));
    e.headers = r.headers;
    e.method = QString::fromLatin1(r.method);
    e.path = QString::fromUtf8(r.path);
    e.tAccept = r.tAccept;
    return e;
}

void SimServer::respondNow(SimConnection *connection, const SimHttpRequest &request, quint64 seq,
                           int status, const QByteArray &contentType, const QByteArray &body,
                           const QByteArray &extraHeaders)
{
    SimLogEntry e = baseEntry(request, seq, connection->id());
    const qint64 now = monotonicNs();
    e.httpStatus = status;
    m_metrics->httpRequest(status == 404 ? QByteArray("none") : request.path, request.method,
                           status);
    e.tFirstWrite = now;
    e.tEnd = now;
    m_stats->log(std::move(e));
    connection->write(SimRenderer::response(status, contentType, body, request.keepAlive,
                                            request.header("x-request-id"), extraHeaders));
    connection->finishResponse(request.keepAlive);
}

void SimServer::respondError(SimConnection *connection, const SimHttpRequest &request, quint64 seq,
                             int status, const QString &message, const QByteArray &extraHeaders)
{
    respondNow(connection, request, seq, status, "application/json",
               SimRenderer::errorBody(status, SimRenderer::jsonString(message)), extraHeaders);
}

void SimServer::onRequest(SimConnection *connection, const SimHttpRequest &request)
{
    m_stats->requestParsed();
    const quint64 seq = m_nextSeq++;
    const QByteArray &path = request.path;
    const QByteArray &method = request.method;

    const SimApi api = path == "/v1/completions"        ? SimApi::Completions
                       : path == "/v1/chat/completions" ? SimApi::Chat
                       : path == "/v1/responses"        ? SimApi::Responses
                       : path == "/v1/messages"         ? SimApi::Messages
                                                        : SimApi(-1);
    if (api != SimApi(-1)) {
        if (method != "POST")
            return respondError(connection, request, seq, 405, u"use POST"_s, "allow: POST\r\n");
        return handleCompletion(connection, request, api, seq);
    }
    // Embeddings and rerank (vLLM serves rerank at /v1/rerank, /rerank and /v2/rerank).
    const bool embeddings = path == "/v1/embeddings";
    if (embeddings || path == "/v1/rerank" || path == "/rerank" || path == "/v2/rerank") {
        if (method != "POST")
            return respondError(connection, request, seq, 405, u"use POST"_s, "allow: POST\r\n");
        return handlePooling(connection, request, !embeddings, seq);
    }
    if (path == "/v1/models") {
        if (method != "GET")
            return respondError(connection, request, seq, 405, u"use GET"_s, "allow: GET\r\n");
        const QJsonObject model{{"id"_L1, m_config.modelName},
                                {"object"_L1, "model"_L1},
                                {"created"_L1, QDateTime::currentSecsSinceEpoch()},
                                {"owned_by"_L1, "servebench"_L1},
                                {"root"_L1, m_config.modelName},
                                {"parent"_L1, QJsonValue::Null},
                                {"max_model_len"_L1, m_config.maxModelLen},
                                {"permission"_L1, QJsonArray()}};
        const QJsonObject list{{"object"_L1, "list"_L1}, {"data"_L1, QJsonArray{model}}};
        return respondNow(connection, request, seq, 200, "application/json",
                          QJsonDocument(list).toJson(QJsonDocument::Compact));
    }
    if (path == "/tokenize") {
        if (method != "POST")
            return respondError(connection, request, seq, 405, u"use POST"_s, "allow: POST\r\n");
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(request.body, &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject())
            return respondError(connection, request, seq, 400, u"invalid JSON body"_s);
        const QJsonObject o = doc.object();
        QString text;
        if (o.contains("messages"_L1)) {
            const QJsonArray messages = o.value("messages"_L1).toArray();
            for (const QJsonValue &m : messages)
                appendMessageContent(m.toObject().value("content"_L1), &text);
        } else if (o.value("prompt"_L1).isString()) {
            text = o.value("prompt"_L1).toString();
        } else {
            return respondError(connection, request, seq, 400,
                                u"'prompt' (a string) is required"_s);
        }
        QJsonArray tokens;
        const QStringList words = text.split(QRegularExpression(u"\\s+"_s), Qt::SkipEmptyParts);
        for (const QString &w : words)
            tokens.append(SimRenderer::tokenId(w));
        const QJsonObject answer{{"count"_L1, int(tokens.size())},
                                 {"max_model_len"_L1, m_config.maxModelLen},
                                 {"tokens"_L1, tokens}};
        return respondNow(connection, request, seq, 200, "application/json",
                          QJsonDocument(answer).toJson(QJsonDocument::Compact));
    }
    if (path == "/metrics" || path == "/dcgm/metrics") {
        if (method != "GET")
            return respondError(connection, request, seq, 405, u"use GET"_s, "allow: GET\r\n");
        // The engine's metrics (vLLM's names) and a simulated DCGM exporter on the same port.
        const qint64 now = monotonicNs();
        return respondNow(connection, request, seq, 200, "text/plain; version=0.0.4; charset=utf-8",
                          path == "/metrics" ? m_metrics->renderVllm()
                                             : m_metrics->renderDcgm(now));
    }
    if ((path == "/reset_prefix_cache" || path == "/flush_cache") && m_config.cacheResetEndpoints) {
        if (method != "POST")
            return respondError(connection, request, seq, 405, u"use POST"_s, "allow: POST\r\n");
        // vLLM answers 200 with an empty body, SGLang 200 "Cache flushed.".
        clearPrefixCache();
        return respondNow(connection, request, seq, 200, "text/plain",
                          path == "/flush_cache" ? QByteArray("Cache flushed.\n") : QByteArray());
    }
    if (path == "/health") {
        if (method != "GET")
            return respondError(connection, request, seq, 405, u"use GET"_s, "allow: GET\r\n");
        return respondNow(connection, request, seq, 200, "application/json", {});
    }
    respondError(connection, request, seq, 404, u"no route for %1"_s.arg(QString::fromUtf8(path)));
}

SimFault SimServer::drawFault()
{
    const double u = std::uniform_real_distribution<double>(0.0, 1.0)(m_faultRng);
    double acc = 0.0;
    for (SimFault f : allSimFaults()) {
        acc += m_config.faultRate(f);
        if (u < acc)
            return f;
    }
    return SimFault::None;
}

double SimServer::jitteredMs(double ms)
{
    const double j = m_config.jitterMs;
    if (j > 0.0) {
        if (m_config.jitter == SimJitter::Gaussian)
            ms += std::normal_distribution<double>(0.0, j)(m_jitterRng);
        else
            ms += std::uniform_real_distribution<double>(-j, j)(m_jitterRng);
    }
    return std::max(0.0, ms);
}

void SimServer::handleCompletion(SimConnection *connection, const SimHttpRequest &request,
                                 SimApi api, quint64 seq)
{
    const bool chat = api == SimApi::Chat;
    const bool typed = api == SimApi::Responses || api == SimApi::Messages;
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(request.body, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        return respondError(connection, request, seq, 400,
                            u"invalid JSON body: %1"_s.arg(err.error != QJsonParseError::NoError
                                                               ? err.errorString()
                                                               : u"not an object"_s));
    }
    const QJsonObject o = doc.object();

    QString promptText;
    QList<qint64> promptIds;
    if (api == SimApi::Responses) {
        // input: a string, or messages whose content is a string or input_text parts;
        // instructions: the system prompt.
        appendMessageContent(o.value("instructions"_L1), &promptText);
        const QJsonValue input = o.value("input"_L1);
        if (input.isString()) {
            appendMessageContent(input, &promptText);
        } else if (input.isArray() && !input.toArray().isEmpty()) {
            const QJsonArray a = input.toArray();
            for (const QJsonValue &m : a)
                appendMessageContent(m.toObject().value("content"_L1), &promptText);
        } else {
            return respondError(connection, request, seq, 400,
                                u"'input' must be a string or a non-empty array"_s);
        }
    } else if (chat || api == SimApi::Messages) {
        if (api == SimApi::Messages)
            appendMessageContent(o.value("system"_L1), &promptText);
        const QJsonValue messages = o.value("messages"_L1);
        if (!messages.isArray() || messages.toArray().isEmpty())
            return respondError(connection, request, seq, 400,
                                u"'messages' must be a non-empty array"_s);
        const QJsonArray a = messages.toArray();
        for (const QJsonValue &m : a)
            appendMessageContent(m.toObject().value("content"_L1), &promptText);
    } else {
        const QJsonValue prompt = o.value("prompt"_L1);
        if (!prompt.isString() && !prompt.isArray())
            return respondError(connection, request, seq, 400, u"'prompt' is required"_s);
        appendPrompt(prompt, &promptText, &promptIds);
    }
    // Images count as prompt tokens of their own (addImages()), after the text's.
    SimLogEntry images;
    int imageTokens = 0;
    if (chat || api == SimApi::Responses) {
        const QJsonValue list = chat ? o.value("messages"_L1) : o.value("input"_L1);
        for (const QJsonValue &m : list.toArray())
            addImages(m.toObject().value("content"_L1), &images, &imageTokens);
    }
    const int promptTokens =
        SimRenderer::countTokens(promptText) + int(promptIds.size()) + imageTokens;

    QJsonValue maxValue = chat                      ? o.value("max_completion_tokens"_L1)
                          : api == SimApi::Responses ? o.value("max_output_tokens"_L1)
                                                     : QJsonValue();
    if ((maxValue.isUndefined() || maxValue.isNull()) && api != SimApi::Responses)
        maxValue = o.value("max_tokens"_L1);
    if (api == SimApi::Messages && (maxValue.isUndefined() || maxValue.isNull()))
        return respondError(connection, request, seq, 400, u"max_tokens: Field required"_s);
    int maxTokens = m_config.defaultMaxTokens;
    if (!maxValue.isUndefined() && !maxValue.isNull()) {
        const double d = maxValue.toDouble(-1);
        if (!maxValue.isDouble() || d < 1 || d != std::floor(d) || d > 1e9)
            return respondError(connection, request, seq, 400,
                                u"max_tokens must be a positive integer"_s);
        maxTokens = int(d);
    }
    maxTokens = qMax(1, maxTokens);
    if (m_config.maxModelLen > 0 && qint64(promptTokens) + maxTokens > m_config.maxModelLen) {
        return respondError(
            connection, request, seq, 400,
            u"This model's maximum context length is %1 tokens. However, you requested "
            "%2 tokens (%3 in the messages, %4 in the completion)."_s.arg(m_config.maxModelLen)
                .arg(promptTokens + maxTokens)
                .arg(promptTokens)
                .arg(maxTokens));
    }

    // One draw per valid completion request in arrival order, even when the header overrides it,
    // so a test's override does not shift which later requests fail.
    SimFault fault = drawFault();
    if (request.hasHeader("x-sim-fault")) {
        const QString name = QString::fromUtf8(request.header("x-sim-fault"));
        if (!simFaultFromName(name, &fault)) {
            return respondError(
                connection, request, seq, 400,
                u"unknown x-sim-fault '%1' (none, http429, http500, reset, malformed, "
                "error-event, stall)"_s.arg(name));
        }
    }
    int faultAfter =
        m_config.faultAfterTokens >= 0 ? m_config.faultAfterTokens : qMax(1, maxTokens / 2);
    if (request.hasHeader("x-sim-fault-after")) {
        bool ok = false;
        const int n = request.header("x-sim-fault-after").toInt(&ok);
        if (!ok || n < 0)
            return respondError(connection, request, seq, 400, u"x-sim-fault-after must be >= 0"_s);
        faultAfter = n;
    }
    // The fault must happen before the last token, or it would never happen.
    faultAfter = qBound(0, faultAfter, maxTokens - 1);

    const QString modelName = o.value("model"_L1).toString();
    SimRenderer::Context ctx;
    ctx.chat = chat;
    const QByteArray model =
        SimRenderer::jsonString(modelName.isEmpty() ? m_config.modelName : modelName);
    ctx.id =
        (chat ? QByteArray("chatcmpl-sim-") : QByteArray("cmpl-sim-")) + QByteArray::number(seq);
    ctx.model = model;
    ctx.created = QDateTime::currentSecsSinceEpoch();
    ctx.promptTokens = promptTokens;
    ctx.cachedTokens = m_config.prefixCache ? 0 : -1;
    const QJsonObject streamOptions = o.value("stream_options"_L1).toObject();
    ctx.continuousUsage =
        m_config.usage && streamOptions.value("continuous_usage_stats"_L1).toBool();
    ctx.reasoningField = m_config.reasoningField.toUtf8();
    ctx.reasoningUsageDetails = m_config.reasoningUsageDetails && m_config.reasoningTokens > 0;

    auto *s = new Stream(ctx);
    s->id = m_nextStreamId++;
    s->seq = seq;
    s->connection = connection;
    s->requestId = request.header("x-request-id");
    s->api = api;
    s->chat = chat;
    s->streamed = o.value("stream"_L1).toBool(false);
    if (typed) {
        SimApiStream::Context t;
        t.api = api;
        t.id = (api == SimApi::Responses ? QByteArray("resp_sim_") : QByteArray("msg_sim_")) +
               QByteArray::number(seq);
        t.model = model;
        t.created = ctx.created;
        t.maxTokens = maxTokens;
        t.promptTokens = promptTokens;
        t.usage = m_config.usage || api == SimApi::Messages; // Anthropic always sends usage
        t.reasoningUsageDetails = m_config.reasoningUsageDetails;
        s->typed = std::make_unique<SimApiStream>(t);
    }
    s->includeUsage = m_config.usage && streamOptions.value("include_usage"_L1).toBool();
    s->keepAlive = request.keepAlive;
    s->maxTokens = maxTokens;
    if ((chat || api == SimApi::Responses) && s->streamed)
        s->reasoningTokens = qBound(0, m_config.reasoningTokens, maxTokens - 1);
    if (api == SimApi::Messages && s->streamed) {
        // Anthropic's models think only when the request enables it, within its budget.
        const QJsonObject thinking = o.value("thinking"_L1).toObject();
        if (thinking.value("type"_L1).toString() == "enabled"_L1)
            s->reasoningTokens =
                qBound(0, qMin(m_config.reasoningTokens, thinking.value("budget_tokens"_L1).toInt()),
                       maxTokens - 1);
    }
    s->tokensPerChunk = m_config.tokensPerChunk;
    s->fault = fault;
    s->faultAfter = faultAfter;
    s->log = baseEntry(request, seq, connection->id());
    s->log.stream = s->streamed;
    s->log.fault = fault;
    s->log.prompt = promptText.left(qMax(0, m_config.maxLoggedPromptChars));
    s->log.promptTokens = promptTokens;
    s->log.maxTokens = maxTokens;
    s->log.images = images.images;
    s->log.imageBytes = images.imageBytes;
    if (m_config.prefixCache) {
        // Token ids of a mixed prompt array count after its text: their order is not kept.
        QList<quint64> tokens = SimPrefixCache::tokenHashes(promptText);
        for (const qint64 id : std::as_const(promptIds))
            tokens.append(SimPrefixCache::tokenHash(QString::number(id)) ^ 0x1D5ull);
        s->blockKeys = SimPrefixCache::blockKeys(tokens, m_prefixCache->blockTokens());
        s->tokenHashes = std::move(tokens);
    }

    if (fault == SimFault::Http429 || fault == SimFault::Http500) {
        const int status = fault == SimFault::Http429 ? 429 : 500;
        const QString message = fault == SimFault::Http429 ? u"simulated rate limit"_s
                                                           : u"simulated internal server error"_s;
        s->log.httpStatus = status;
        const qint64 now = monotonicNs();
        s->log.tFirstWrite = now;
        s->logged = true;
        logEntry(s, now);
        delete s;
        const QByteArray extra = status == 429 ? QByteArray("retry-after: 1\r\n") : QByteArray();
        connection->write(SimRenderer::jsonError(status, SimRenderer::jsonString(message),
                                                 request.keepAlive, request.header("x-request-id"),
                                                 extra));
        connection->finishResponse(request.keepAlive);
        return;
    }

    m_streams.insert(s->id, s);
    m_streamOfConnection.insert(connection, s->id);
    if (s->streamed) {
        s->log.httpStatus = 200;
        if (!m_config.unpaced) {
            // As uvicorn does for vLLM: the status line goes out before the engine produces.
            connection->write(SimRenderer::head(200, "text/event-stream; charset=utf-8", -1,
                                                s->keepAlive, s->requestId));
        }
    }
    if (m_config.unpaced) {
        s->phase = Stream::Phase::Active;
        s->log.tAdmit = monotonicNs();
        applyPrefixCache(s);
        m_metrics->admitted(s->log.promptTokens, s->log.cachedTokens, m_config.prefixCache);
        s->firstDue = s->log.tAdmit;
        if (s->streamed)
            runUnpaced(s);
        else
            completeNonStreamed(s);
        return;
    }
    if (m_waiting.empty() && (m_config.capacity == 0 || m_active < m_config.capacity)) {
        admit(s);
    } else {
        m_waiting.push_back(s->id);
        m_stats->queued();
        updateLoad(monotonicNs());
    }
}

void SimServer::handlePooling(SimConnection *connection, const SimHttpRequest &request,
                              bool rerank, quint64 seq)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(request.body, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return respondError(connection, request, seq, 400,
                            u"invalid JSON body: %1"_s.arg(err.error != QJsonParseError::NoError
                                                               ? err.errorString()
                                                               : u"not an object"_s));
    const QJsonObject o = doc.object();
    auto pooling = std::make_unique<SimPoolingRequest>(parsePoolingRequest(o, rerank));
    if (!pooling->error.isEmpty())
        return respondError(connection, request, seq, 400, pooling->error);
    // One draw per valid request, as for generation: the header overrides it.
    SimFault fault = drawFault();
    if (request.hasHeader("x-sim-fault")) {
        const QString name = QString::fromUtf8(request.header("x-sim-fault"));
        if (!simFaultFromName(name, &fault))
            return respondError(connection, request, seq, 400,
                                u"unknown x-sim-fault '%1'"_s.arg(name));
    }
    const QString modelName = o.value("model"_L1).toString();
    auto *s = new Stream(SimRenderer::Context{});
    s->id = m_nextStreamId++;
    s->seq = seq;
    s->connection = connection;
    s->requestId = request.header("x-request-id");
    s->keepAlive = request.keepAlive;
    s->streamed = false;
    s->fault = fault;
    s->log = baseEntry(request, seq, connection->id());
    s->log.fault = fault;
    s->log.prompt = (rerank ? pooling->query : pooling->inputs.join(u'\n'))
                        .left(qMax(0, m_config.maxLoggedPromptChars));
    s->log.promptTokens = pooling->promptTokens;
    s->log.inputItems = int(pooling->inputs.size());
    s->modelJson = SimRenderer::jsonString(modelName.isEmpty() ? m_config.modelName : modelName);
    s->pooling = std::move(pooling);
    if (fault == SimFault::Http429 || fault == SimFault::Http500) {
        const int status = fault == SimFault::Http429 ? 429 : 500;
        s->log.httpStatus = status;
        const qint64 now = monotonicNs();
        s->log.tFirstWrite = now;
        logEntry(s, now);
        delete s;
        connection->write(SimRenderer::jsonError(
            status,
            SimRenderer::jsonString(status == 429 ? u"simulated rate limit"_s
                                                  : u"simulated internal server error"_s),
            request.keepAlive, request.header("x-request-id"),
            status == 429 ? QByteArray("retry-after: 1\r\n") : QByteArray()));
        connection->finishResponse(request.keepAlive);
        return;
    }
    m_streams.insert(s->id, s);
    m_streamOfConnection.insert(connection, s->id);
    if (m_config.unpaced) {
        s->phase = Stream::Phase::Active;
        s->log.tAdmit = monotonicNs();
        m_metrics->admitted(s->log.promptTokens, 0, false);
        return completeNonStreamed(s);
    }
    if (m_waiting.empty() && (m_config.capacity == 0 || m_active < m_config.capacity)) {
        admit(s);
    } else {
        m_waiting.push_back(s->id);
        m_stats->queued();
        updateLoad(monotonicNs());
    }
}

void SimServer::admitWaiting()
{
    while (!m_waiting.empty() && (m_config.capacity == 0 || m_active < m_config.capacity)) {
        const quint64 id = m_waiting.front();
        m_waiting.pop_front();
        m_stats->dequeued();
        if (Stream *s = m_streams.value(id))
            admit(s);
        else
            updateLoad(monotonicNs());
    }
}

void SimServer::admit(Stream *s)
{
    s->phase = Stream::Phase::Active;
    s->holdsSlot = true;
    ++m_active;
    m_stats->streamStarted();
    const qint64 now = monotonicNs();
    s->log.tAdmit = now;
    applyPrefixCache(s);
    m_metrics->admitted(s->log.promptTokens, s->log.cachedTokens, m_config.prefixCache);
    s->kvHeld = s->log.promptTokens;
    m_kvHeld += s->kvHeld;
    updateLoad(now);
    if (s->pooling) {
        // Embeddings and rerank: one forward pass over the prompt, no generation.
        const qint64 due = now + msToNs(jitteredMs(m_config.poolingMs + m_config.poolingMsPerToken *
                                                                             s->log.promptTokens));
        s->firstDue = due;
        s->nextDue = due;
        m_scheduler->schedule(due, s->id);
        return;
    }
    // Responses and Messages open the answer as soon as the engine takes it (the head went out
    // at arrival); its first token follows at TTFT.
    if (s->typed && s->streamed)
        s->connection->write(SimRenderer::chunk(s->typed->start()));
    // Cached tokens skip prefill; the rest of the prompt is computed.
    const double ttft =
        m_config.ttftMs + m_config.prefillMsPerToken * (s->log.promptTokens - s->log.cachedTokens);
    qint64 due = now + msToNs(jitteredMs(ttft));
    s->firstDue = due;
    if (!s->streamed) {
        // The whole answer is ready when its last chunk would have been written.
        const int chunks = (s->maxTokens + s->tokensPerChunk - 1) / s->tokensPerChunk;
        for (int i = 1; i < chunks; ++i)
            due += msToNs(jitteredMs(m_config.itlMs));
    }
    s->nextDue = due;
    m_scheduler->schedule(due, s->id);
}

void SimServer::applyPrefixCache(Stream *s)
{
    if (!m_config.prefixCache)
        return;
    // Looked up when the request is admitted, not when it arrives: a queued request finds what
    // the requests admitted before it have left in the cache. Its own blocks go in right away,
    // as vLLM caches a block as soon as it is allocated to a scheduled request.
    const int blocks = m_prefixCache->admit(s->blockKeys);
    const int cached = qMin(s->log.promptTokens, blocks * m_prefixCache->blockTokens());
    s->log.cachedTokens = cached;
    s->renderer.setCachedTokens(cached);
    if (s->typed) {
        // The blocks not found are cached from now on: Anthropic's cache_creation_input_tokens.
        const int created = qMin(s->log.promptTokens - cached,
                                 int(s->blockKeys.size() - blocks) * m_prefixCache->blockTokens());
        s->typed->setCache(cached, qMax(0, created));
    }
}

void SimServer::cacheAnswer(Stream *s)
{
    if (!m_config.prefixCache || s->tokenHashes.isEmpty())
        return;
    // The prompt followed by the answer's tokens, in the words a client resends: a next turn
    // that carries this answer in its history shares these blocks.
    QList<quint64> tokens = std::move(s->tokenHashes);
    tokens.reserve(tokens.size() + s->written);
    for (int i = 0; i < s->written; ++i) {
        const QString word = QString::fromUtf8(SimRenderer::tokenText(s->seq, i)).trimmed();
        tokens.append(SimPrefixCache::tokenHash(word));
    }
    m_prefixCache->insert(SimPrefixCache::blockKeys(tokens, m_prefixCache->blockTokens()));
}

void SimServer::clearPrefixCache()
{
    m_prefixCache->clear();
}

void SimServer::prefixCacheState(qint64 *blocks, qint64 *capacity, quint64 *evictions) const
{
    *blocks = m_prefixCache->size();
    *capacity = m_prefixCache->capacityBlocks();
    *evictions = m_prefixCache->evictions();
}

void SimServer::releaseSlot(Stream *s)
{
    if (!s->holdsSlot)
        return;
    s->holdsSlot = false;
    --m_active;
    m_stats->streamEnded();
    m_kvHeld -= s->kvHeld;
    s->kvHeld = 0;
    updateLoad(monotonicNs());
}

void SimServer::updateLoad(qint64 now)
{
    m_metrics->load(m_active, int(m_waiting.size()), m_kvHeld, now);
}

void SimServer::logEntry(Stream *s, qint64 tEnd)
{
    s->logged = true;
    s->log.tEnd = tEnd;
    m_metrics->httpRequest(s->log.path.toUtf8(), s->log.method.toUtf8(), s->log.httpStatus);
    s->log.completionTokens = s->written;
    m_stats->log(std::move(s->log));
}

void SimServer::onDue(quint64 streamId, qint64 dueNs)
{
    Stream *s = m_streams.value(streamId);
    if (!s || s->phase != Stream::Phase::Active || s->nextDue != dueNs)
        return;
    if (s->streamed)
        runPaced(s);
    else
        completeNonStreamed(s);
}

SimServer::After SimServer::step(Stream *s, qint64 now, QByteArray *out)
{
    const SimRenderer &r = s->renderer;
    if (isMidStreamFault(s->fault) && !s->faultDone && s->written >= s->faultAfter) {
        switch (s->fault) {
        case SimFault::ResetMidStream:
            return After::Reset;
        case SimFault::Stall:
            return After::Stall;
        case SimFault::ErrorEvent:
            if (s->typed) {
                // These APIs end a failed stream with the error event itself.
                *out += SimRenderer::chunk(s->typed->error(SimRenderer::jsonString(
                    u"simulated engine failure after %1 tokens"_s.arg(s->written))));
                *out += SimRenderer::lastChunk();
                return After::Finish;
            }
            if (s->chat && s->written == 0)
                *out += SimRenderer::chunk(r.roleEvent());
            *out += SimRenderer::chunk(SimRenderer::errorEvent(
                SimRenderer::jsonString(
                    u"simulated engine failure after %1 tokens"_s.arg(s->written)),
                500));
            *out += SimRenderer::chunk(SimRenderer::doneEvent());
            *out += SimRenderer::lastChunk();
            return After::Finish;
        case SimFault::MalformedJson:
            s->faultDone = true;
            *out += SimRenderer::chunk(r.malformedEvent());
            break; // and the regular token chunk follows in the same write
        default:
            break;
        }
    }

    // A chunk is all reasoning or all answer: the reasoning parser splits at its end marker.
    const bool reasoning = s->written < s->reasoningTokens;
    const int tokens =
        qMin(s->tokensPerChunk, (reasoning ? s->reasoningTokens : s->maxTokens) - s->written);
    QByteArray text;
    text.reserve(16 * tokens);
    for (int i = 0; i < tokens; ++i)
        SimRenderer::appendTokenText(&text, s->seq, s->written + i);
    const bool last = s->written + tokens >= s->maxTokens;
    if (s->chat && s->written == 0)
        SimRenderer::appendChunk(out, r.roleEvent());
    if (s->typed)
        SimRenderer::appendChunk(out, s->typed->delta(text, reasoning));
    else if (reasoning)
        SimRenderer::appendChunk(out, r.reasoningEvent(text, s->written + tokens));
    else
        SimRenderer::appendChunk(out,
                                 r.tokenEvent(text, last, s->written + tokens, s->reasoningTokens));
    s->written += tokens;
    m_metrics->tokens(tokens);
    if (s->log.chunkWriteNs.isEmpty())
        m_metrics->firstToken(s->log.tAccept, now, s->log.promptTokens);
    else
        m_metrics->interTokenGap(now - s->lastChunkNs);
    s->lastChunkNs = now;
    if (s->holdsSlot) {
        s->kvHeld += tokens;
        m_kvHeld += tokens;
        m_metrics->load(m_active, int(m_waiting.size()), m_kvHeld, now);
    }
    s->log.chunkWriteNs.append(now);
    s->log.chunkTokens.append(tokens);
    if (!s->log.tFirstWrite)
        s->log.tFirstWrite = now;
    if (!last)
        return After::Continue;
    if (s->typed) {
        *out += SimRenderer::chunk(s->typed->finish(s->written, s->reasoningTokens));
        *out += SimRenderer::lastChunk();
        return After::Finish;
    }
    if (s->includeUsage)
        *out += SimRenderer::chunk(r.usageEvent(s->written, s->reasoningTokens));
    *out += SimRenderer::chunk(SimRenderer::doneEvent());
    *out += SimRenderer::lastChunk();
    return After::Finish;
}

void SimServer::runPaced(Stream *s)
{
    QByteArray out;
    out.reserve(512);
    const qint64 now = monotonicNs();
    const After how = step(s, now, &out);
    if (how != After::Continue)
        return finalize(s, how, out);
    s->connection->write(out);
    // From the previous deadline, not from now: late wake-ups do not accumulate into drift.
    s->nextDue += msToNs(jitteredMs(m_config.itlMs));
    m_scheduler->schedule(s->nextDue, s->id);
}

void SimServer::runUnpaced(Stream *s)
{
    QByteArray out =
        SimRenderer::head(200, "text/event-stream; charset=utf-8", -1, s->keepAlive, s->requestId);
    if (s->typed)
        SimRenderer::appendChunk(&out, s->typed->start());
    const qint64 now = monotonicNs();
    After how = After::Continue;
    while (how == After::Continue)
        how = step(s, now, &out);
    finalize(s, how, out);
}

void SimServer::completeNonStreamed(Stream *s)
{
    const qint64 now = monotonicNs();
    switch (s->fault) {
    case SimFault::ResetMidStream:
        return finalize(s, After::Reset, {});
    case SimFault::Stall:
        return finalize(s, After::Stall, {});
    case SimFault::ErrorEvent:
        s->log.httpStatus = 500;
        s->log.tFirstWrite = now;
        return finalize(
            s, After::Finish,
            SimRenderer::jsonError(500, SimRenderer::jsonString(u"simulated engine failure"_s),
                                   s->keepAlive, s->requestId));
    default:
        break;
    }
    if (s->pooling) {
        QByteArray body =
            s->pooling->rerank
                ? rerankBody(*s->pooling, s->modelJson, s->seq, m_config.seed)
                : embeddingsBody(*s->pooling, s->modelJson, s->seq,
                                 std::max(1, m_config.embeddingDimensions), m_config.seed);
        if (s->fault == SimFault::MalformedJson)
            body.chop(body.size() / 2);
        s->lastChunkNs = now;
        s->log.httpStatus = 200;
        s->log.tFirstWrite = now;
        return finalize(
            s, After::Finish,
            SimRenderer::response(200, "application/json", body, s->keepAlive, s->requestId));
    }
    QByteArray text;
    for (int i = 0; i < s->maxTokens; ++i)
        SimRenderer::appendTokenText(&text, s->seq, i);
    s->written = s->maxTokens;
    // The whole answer was generated by now: its first token when it was due, the rest since
    // (gaps are not observed for a non-streamed answer).
    m_metrics->tokens(s->maxTokens);
    m_metrics->firstToken(s->log.tAccept, qMin(s->firstDue, now), s->log.promptTokens);
    s->lastChunkNs = now;
    QByteArray body = s->typed ? s->typed->fullBody(text, s->written)
                               : s->renderer.fullResponse(text, s->written);
    if (s->fault == SimFault::MalformedJson)
        body.chop(body.size() / 2);
    s->log.httpStatus = 200;
    s->log.tFirstWrite = now;
    finalize(s, After::Finish,
             SimRenderer::response(200, "application/json", body, s->keepAlive, s->requestId));
}

void SimServer::finalize(Stream *s, After how, const QByteArray &bytes)
{
    // The engine finished the request: every token generated. An error event comes before the
    // last token (an engine failure); a malformed event is the transport's fault, not the
    // engine's, and the request still finishes.
    if (how == After::Finish && s->written >= s->maxTokens) {
        m_metrics->finished(s->log.tAccept, s->lastChunkNs);
        cacheAnswer(s);
    }
    // Logged before the last write, so a client that has seen the end finds the entry.
    releaseSlot(s);
    logEntry(s, monotonicNs());
    SimConnection *c = s->connection;
    const bool keepAlive = s->keepAlive;
    m_streams.remove(s->id);
    m_streamOfConnection.remove(c);
    delete s;

    c->write(bytes);
    switch (how) {
    case After::Finish:
        c->finishResponse(keepAlive);
        break;
    case After::Reset:
        c->reset();
        break;
    case After::Stall:
    case After::Continue:
        break; // the connection stays open and busy: nothing more is read or written
    }
    admitWaiting();
}

} // namespace sb
