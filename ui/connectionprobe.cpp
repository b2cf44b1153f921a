#include "connectionprobe.h"

#include "client/requestbuilder.h"
#include "client/sseparser.h"
#include "common/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRandomGenerator>
#include <QTimer>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr int kProbeTokens = 32;

QNetworkRequest makeRequest(const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                            int timeoutMs, const TransportOptions &options)
{
    QNetworkRequest req(url);
    applyTransportOptions(&req, options);
    for (const auto &[name, value] : headers)
        req.setRawHeader(name, value);
    req.setTransferTimeout(timeoutMs);
    return req;
}
} // namespace

ConnectionProbe::ConnectionProbe(QObject *parent)
    : QObject(parent), m_nam(new QNetworkAccessManager(this)), m_parser(new SseParser)
{}

ConnectionProbe::~ConnectionProbe()
{
    cancel();
    delete m_parser;
}

ConnectionProbeResult::Verdict ConnectionProbe::judge(const QList<qint64> &chunkTimesNs,
                                                      qint64 /*sendNs*/)
{
    using V = ConnectionProbeResult::Verdict;
    if (chunkTimesNs.isEmpty())
        return V::Failed;
    if (chunkTimesNs.size() < 2)
        return V::Inconclusive;
    const qint64 spread = chunkTimesNs.last() - chunkTimesNs.first();
    int groups = 1; // chunks that arrived apart from the previous one (more than 1 ms later)
    for (qsizetype i = 1; i < chunkTimesNs.size(); ++i)
        if (chunkTimesNs[i] - chunkTimesNs[i - 1] > 1'000'000)
            ++groups;
    const int needed = int(std::min<qsizetype>(3, chunkTimesNs.size()));
    return spread >= 5'000'000 && groups >= needed ? V::Streams : V::Buffers;
}

void ConnectionProbe::start(const SutConfig &sut, const QByteArray &apiKey, int timeoutMs)
{
    cancel();
    m_sut = sut;
    m_key = apiKey;
    m_timeoutMs = timeoutMs;
    m_result = {};
    m_chunkTimes.clear();
    m_parser->reset();
    m_sawDone = false;
    m_lastReadWithToken = -1;
    m_running = true;

    SutConfig modelsSut = sut;
    modelsSut.endpoint = u"/v1/models"_s;
    const QUrl url = endpointUrl(modelsSut);
    if (!url.isValid() || url.scheme().isEmpty() || url.host().isEmpty()) {
        m_result.modelsError = tr("the base URL is not a valid http(s) URL");
        // Answer later, like every other outcome, so callers may connect after start().
        QTimer::singleShot(0, this, &ConnectionProbe::finish);
        return;
    }
    // The same CA file and proxy as a run of this SUT will use.
    QString optionsError;
    if (!resolveTransportOptions(sut, QProcessEnvironment::systemEnvironment(), &m_options,
                                 &optionsError)) {
        m_result.modelsError = optionsError;
        QTimer::singleShot(0, this, &ConnectionProbe::finish);
        return;
    }
    applyTransportOptions(m_nam, m_options);
    emit progress(tr("Listing models at %1 …").arg(url.toDisplayString()));
    auto headers = buildRequestHeaders(sut, apiKey, {});
    headers.removeIf(
        [](const auto &h) { return h.first.compare("Accept", Qt::CaseInsensitive) == 0; });
    m_reply = m_nam->get(makeRequest(url, headers, timeoutMs, m_options));
    connect(m_reply, &QNetworkReply::finished, this, &ConnectionProbe::onModelsFinished);
}

void ConnectionProbe::cancel()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    m_running = false;
}

void ConnectionProbe::onModelsFinished()
{
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->deleteLater();
    m_result.modelsStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->error() != QNetworkReply::NoError && m_result.modelsStatus == 0) {
        m_result.modelsError = reply->errorString();
        finish(); // nothing answered: the streamed request would fail the same way
        return;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(reply->readAll());
    const QJsonArray data = doc.object().value(u"data"_s).toArray();
    for (const auto &m : data) {
        const QString id = m.toObject().value(u"id"_s).toString();
        if (!id.isEmpty())
            m_result.models.append(id);
    }
    if (m_result.modelsStatus < 200 || m_result.modelsStatus >= 300)
        m_result.modelsError = tr("HTTP %1").arg(m_result.modelsStatus);
    else if (m_result.models.isEmpty())
        m_result.modelsError = tr("the answer lists no model");
    startStream();
}

void ConnectionProbe::startStream()
{
    m_result.model =
        m_sut.model.isEmpty() && !m_result.models.isEmpty() ? m_result.models.first() : m_sut.model;
    SutConfig sut = m_sut;
    sut.model = m_result.model;
    RequestParams params;
    params.ignoreEos = true; // a model that stops after two tokens would look like buffering
    const QByteArray body = buildRequestBody(
        sut, params, u"Count from one to one hundred, separated by spaces."_s, {}, kProbeTokens);
    const QString requestId =
        u"servebench-probe-%1"_s.arg(QRandomGenerator::global()->generate64(), 0, 16);
    const QUrl url = endpointUrl(sut);
    emit progress(tr("Sending one streamed request to %1 …").arg(url.toDisplayString()));
    m_sendNs = monotonicNs();
    m_reply = m_nam->post(
        makeRequest(url, buildRequestHeaders(sut, m_key, requestId), m_timeoutMs, m_options), body);
    connect(m_reply, &QNetworkReply::readyRead, this, &ConnectionProbe::onStreamData);
    connect(m_reply, &QNetworkReply::finished, this, &ConnectionProbe::onStreamFinished);
}

void ConnectionProbe::onStreamData()
{
    if (!m_reply)
        return;
    const qint64 now = monotonicNs();
    if (m_result.streamStatus == 0)
        m_result.streamStatus =
            m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray bytes = m_reply->readAll();
    if (m_result.streamStatus >= 300) {
        if (m_result.streamError.size() < 300) // an error body, shown to the user: keep it short
            m_result.streamError += QString::fromUtf8(bytes.left(300));
        return;
    }
    m_parser->feed(QByteArrayView(bytes), [&](QByteArrayView data) { handleEvent(data, now); });
}

void ConnectionProbe::handleEvent(QByteArrayView data, qint64 nowNs)
{
    if (data == "[DONE]") {
        m_sawDone = true;
        return;
    }
    const QJsonObject o = QJsonDocument::fromJson(data.toByteArray()).object();
    if (o.contains(u"error"_s)) {
        const QJsonValue e = o.value(u"error"_s);
        m_result.streamError =
            e.isObject() ? e.toObject().value(u"message"_s).toString() : e.toString();
        return;
    }
    const QJsonArray choices = o.value(u"choices"_s).toArray();
    if (choices.isEmpty())
        return;
    const QJsonObject c = choices.first().toObject();
    const QJsonObject delta = c.value(u"delta"_s).toObject();
    const bool token = !c.value(u"text"_s).toString().isEmpty() ||
                       !delta.value(u"content"_s).toString().isEmpty() ||
                       !delta.value(u"reasoning_content"_s).toString().isEmpty() ||
                       !delta.value(u"reasoning"_s).toString().isEmpty();
    if (!token)
        return;
    m_chunkTimes.append(nowNs);
    if (m_lastReadWithToken != nowNs) {
        m_lastReadWithToken = nowNs;
        ++m_result.reads;
    }
}

void ConnectionProbe::onStreamFinished()
{
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->deleteLater();
    if (m_result.streamStatus == 0)
        m_result.streamStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray rest = reply->readAll();
    if (!rest.isEmpty() && m_result.streamStatus < 300) {
        const qint64 now = monotonicNs();
        m_parser->feed(QByteArrayView(rest), [&](QByteArrayView data) { handleEvent(data, now); });
    }
    m_parser->flush([&](QByteArrayView data) { handleEvent(data, monotonicNs()); });
    if (reply->error() != QNetworkReply::NoError && m_result.streamError.isEmpty())
        m_result.streamError = reply->errorString();
    else if (m_result.streamStatus >= 300 && m_result.streamError.isEmpty())
        m_result.streamError = tr("HTTP %1").arg(m_result.streamStatus);
    else if (m_result.streamError.isEmpty() && !m_sawDone && !m_chunkTimes.isEmpty())
        m_result.streamError = tr("the stream ended without data: [DONE]");
    finish();
}

void ConnectionProbe::finish()
{
    m_running = false;
    m_result.tokenChunks = int(m_chunkTimes.size());
    if (!m_chunkTimes.isEmpty()) {
        m_result.ttftMs = nsToMs(m_chunkTimes.first() - m_sendNs);
        m_result.spreadMs = nsToMs(m_chunkTimes.last() - m_chunkTimes.first());
        m_result.totalMs = nsToMs(m_chunkTimes.last() - m_sendNs);
    }
    m_result.verdict = m_result.streamError.isEmpty() || !m_chunkTimes.isEmpty()
                           ? judge(m_chunkTimes, m_sendNs)
                           : ConnectionProbeResult::Verdict::Failed;
    m_result.message = describe();
    emit finished(m_result);
}

QString ConnectionProbe::describe() const
{
    const ConnectionProbeResult &r = m_result;
    QStringList lines;
    if (!r.modelsError.isEmpty())
        lines << tr("Models: %1.").arg(r.modelsError);
    else
        lines << tr("Models: %1.").arg(r.models.join(u", "_s));
    using V = ConnectionProbeResult::Verdict;
    switch (r.verdict) {
    case V::Streams:
        lines << tr("The endpoint streams: %1 token chunks arrived over %2 ms in %3 reads, "
                    "first after %4 ms (model %5).")
                     .arg(r.tokenChunks)
                     .arg(r.spreadMs, 0, 'f', 1)
                     .arg(r.reads)
                     .arg(r.ttftMs, 0, 'f', 1)
                     .arg(r.model);
        break;
    case V::Buffers:
        lines << tr("The endpoint buffers the answer: all %1 token chunks arrived within %2 ms, "
                    "%3 ms after sending. A proxy or gateway is probably buffering; TTFT and ITL "
                    "measured through it are not the server's.")
                     .arg(r.tokenChunks)
                     .arg(r.spreadMs, 0, 'f', 1)
                     .arg(r.totalMs, 0, 'f', 1);
        break;
    case V::Inconclusive:
        lines << tr("Only one token chunk arrived: cannot tell whether the endpoint streams.");
        break;
    case V::Failed:
        lines << tr("The streamed request failed: %1")
                     .arg(r.streamError.isEmpty() ? tr("no token arrived") : r.streamError);
        break;
    }
    if (r.verdict != V::Failed && !r.streamError.isEmpty())
        lines << tr("Note: %1").arg(r.streamError);
    return lines.join(u'\n');
}

} // namespace sb
