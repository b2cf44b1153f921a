#include "endpointprobe.h"

#include "client/requestbuilder.h"
#include "client/streamaccumulator.h"
#include "common/clock.h"

#include <QEventLoop>
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

qint64 wallNowNs()
{
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

QString seconds(int ms)
{
    return QString::number(double(ms) / 1000.0, 'g', 4);
}

} // namespace

QByteArray ProbeReply::header(const QByteArray &name) const
{
    for (const auto &[k, v] : headers)
        if (k.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

QString ProbeReply::excerpt() const
{
    QString s = QString::fromUtf8(body.left(240)).simplified();
    if (s.size() > 120)
        s = s.left(117) + u"..."_s;
    return s;
}

double StreamProbe::ttftMs() const
{
    return record.tFirst > 0 ? nsToMs(record.tFirst - record.tSend) : -1;
}

double StreamProbe::spreadMs() const
{
    return record.chunkTimes.isEmpty()
               ? -1
               : nsToMs(record.chunkTimes.constLast() - record.chunkTimes.constFirst());
}

double StreamProbe::totalMs() const
{
    // A non-streamed answer (embeddings, rerank) has no last token: its end is the body's.
    const qint64 end = record.tLast > 0 ? record.tLast : record.batchItems > 0 ? record.tEnd : 0;
    return end > 0 ? nsToMs(end - record.tSend) : -1;
}

EndpointProbe::EndpointProbe(const SutConfig &sut, const QByteArray &apiKey,
                             const TransportOptions &options, int timeoutMs)
    : m_sut(sut), m_apiKey(apiKey), m_options(options), m_timeoutMs(std::max(1, timeoutMs))
{}

QUrl EndpointProbe::url(const QString &path) const
{
    QString base = m_sut.baseUrl;
    while (base.endsWith(u'/'))
        base.chop(1);
    if (base.endsWith("/v1"_L1))
        base.chop(3);
    return QUrl(base + (path.startsWith(u'/') ? path : u'/' + path));
}

QString EndpointProbe::route(const QUrl &url) const
{
    return m_options.proxy.describe(url);
}

ProbeReply
EndpointProbe::exchange(const QByteArray &method, const QUrl &url, const QByteArray &body,
                        const std::function<void(int, const QByteArray &, qint64)> &onData)
{
    ProbeReply r;
    r.url = url;
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != "http"_L1 && url.scheme() != "https"_L1)) {
        r.error = u"'%1' is not an http:// or https:// URL"_s.arg(url.toDisplayString());
        return r;
    }
    QNetworkAccessManager nam;
    applyTransportOptions(&nam, m_options);
    QNetworkRequest req(url);
    applyTransportOptions(&req, m_options);
    const QString requestId =
        u"sb-probe-%1"_s.arg(QRandomGenerator::global()->generate64() & 0xffffffffffULL, 0, 16);
    auto headers = buildRequestHeaders(m_sut, m_apiKey, requestId);
    if (method == "GET") // only a stream asks for text/event-stream
        headers.removeIf(
            [](const auto &h) { return h.first.compare("Accept", Qt::CaseInsensitive) == 0; });
    for (const auto &[k, v] : headers)
        req.setRawHeader(k, v);

    QEventLoop loop;
    r.sendWallNs = wallNowNs();
    r.sendNs = monotonicNs();
    QNetworkReply *reply = method == "GET" ? nam.get(req) : nam.post(req, body);
    bool timedOut = false;
    bool cancelled = false;
    const auto status = [&] {
        if (!r.answered) {
            const QVariant s = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
            if (s.isValid()) {
                r.answered = true;
                r.status = s.toInt();
                r.headers = reply->rawHeaderPairs();
            }
        }
    };
    QObject::connect(reply, &QNetworkReply::metaDataChanged, &loop, status);
    QObject::connect(reply, &QNetworkReply::readyRead, &loop, [&] {
        const qint64 now = monotonicNs();
        status();
        const QByteArray chunk = reply->readAll();
        if (onData && r.status >= 200 && r.status < 300) {
            onData(r.status, chunk, now);
            return;
        }
        const qsizetype room = kMaxProbeBodyBytes - r.body.size();
        r.body += chunk.left(room);
        if (chunk.size() > room) {
            r.truncated = true;
            reply->abort();
        }
    });
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
        timedOut = true;
        reply->abort();
    });
    deadline.start(m_timeoutMs);
    QTimer cancelPoll; // cancel() comes from another thread: look at the flag now and then
    QObject::connect(&cancelPoll, &QTimer::timeout, &loop, [&] {
        if (m_cancelled.load()) {
            cancelled = true;
            reply->abort();
        }
    });
    cancelPoll.start(50);
    if (!reply->isFinished())
        loop.exec();
    r.recvNs = monotonicNs();
    r.recvWallNs = wallNowNs();
    status();
    const QByteArray rest = reply->readAll();
    if (!rest.isEmpty()) {
        if (onData && r.status >= 200 && r.status < 300)
            onData(r.status, rest, r.recvNs);
        else
            r.body += rest.left(kMaxProbeBodyBytes - r.body.size());
    }
    if (cancelled)
        r.error = u"cancelled"_s;
    else if (timedOut)
        r.error =
            r.answered
                ? u"the reply did not complete within %1 s (the run's timeout)"_s.arg(
                      seconds(m_timeoutMs))
                : u"no HTTP reply within %1 s (the run's timeout)"_s.arg(seconds(m_timeoutMs));
    else if (r.truncated)
        r.error = u"the reply is larger than %1 MB; only its start was read"_s.arg(
            kMaxProbeBodyBytes / (1024 * 1024));
    else if (reply->error() != QNetworkReply::NoError && !r.answered)
        r.error = reply->errorString();
    reply->deleteLater();
    return r;
}

ProbeReply EndpointProbe::get(const QString &path)
{
    return exchange("GET", url(path), {}, {});
}

ProbeReply EndpointProbe::postJson(const QString &path, const QByteArray &json)
{
    return exchange("POST", url(path), json, {});
}

ModelList EndpointProbe::models()
{
    ModelList m;
    const ProbeReply r = get(u"/v1/models"_s);
    m.reachable = r.answered;
    m.status = r.status;
    if (!r.answered) {
        m.error = r.error;
        return m;
    }
    if (r.status < 200 || r.status >= 300) {
        m.error = u"GET %1 answered HTTP %2%3"_s.arg(r.url.toDisplayString())
                      .arg(r.status)
                      .arg(r.body.isEmpty() ? QString() : u": "_s + r.excerpt());
        return m;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(r.body, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        m.error = u"GET %1 answered with something that is not a JSON object (%2): '%3'"_s.arg(
            r.url.toDisplayString(),
            pe.error != QJsonParseError::NoError ? pe.errorString() : u"another JSON value"_s,
            r.excerpt());
        return m;
    }
    const QJsonValue data = doc.object().value(u"data"_s);
    if (!data.isArray()) {
        m.error = u"GET %1 answered JSON without a \"data\" list: '%2'"_s.arg(
            r.url.toDisplayString(), r.excerpt());
        return m;
    }
    for (const QJsonValue &v : data.toArray()) {
        const QString id = v.toObject().value(u"id"_s).toString();
        if (!id.isEmpty())
            m.models.append(id);
    }
    if (m.models.isEmpty())
        m.error = u"GET %1 lists no model (an empty \"data\" list)"_s.arg(r.url.toDisplayString());
    return m;
}

int EndpointProbe::tokenizeCount(const QString &model, const QString &prompt, QString *why)
{
    const QByteArray body = QJsonDocument(QJsonObject{{u"model"_s, model}, {u"prompt"_s, prompt}})
                                .toJson(QJsonDocument::Compact);
    const ProbeReply r = postJson(u"/tokenize"_s, body);
    if (!r.answered) {
        *why = r.error;
        return -1;
    }
    const QJsonObject o = QJsonDocument::fromJson(r.body).object();
    if (r.status != 200 || !o.value(u"count"_s).isDouble()) {
        *why = r.status != 200 ? u"HTTP %1"_s.arg(r.status)
                               : u"no \"count\" in the answer: '%1'"_s.arg(r.excerpt());
        return -1;
    }
    return o.value(u"count"_s).toInt();
}

StreamProbe::Verdict EndpointProbe::judge(const QList<qint64> &chunkTimesNs)
{
    using V = StreamProbe::Verdict;
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

StreamProbe EndpointProbe::stream(const QString &model, int maxTokens)
{
    StreamProbe p;
    p.model = model;
    SutConfig sut = m_sut;
    sut.model = model;
    RequestParams params;
    params.ignoreEos = true;
    const QByteArray body = buildRequestBody(
        sut, params, u"Count from one to one hundred, separated by spaces."_s, {}, maxTokens);
    RequestRecord &rec = p.record;
    rec.index = 0;
    if (apiFlavourIsPooling(sut.flavour))
        rec.batchItems = 1; // buildRequestBody() sends the prompt as the one input
    StreamAccumulator acc(sut.flavour, &rec);
    bool statusSeen = false;
    qint64 lastReadWithToken = -1;
    qsizetype chunksBefore = 0;
    const ProbeReply r = exchange(
        "POST", endpointUrl(sut), body, [&](int status, const QByteArray &bytes, qint64 now) {
            if (!statusSeen) {
                acc.onHttpStatus(status);
                statusSeen = true;
            }
            acc.onBytes(bytes.constData(), bytes.size(), now);
            if (rec.chunkTimes.size() > chunksBefore && lastReadWithToken != now) {
                lastReadWithToken = now;
                ++p.reads;
            }
            chunksBefore = rec.chunkTimes.size();
        });
    rec.tSend = r.sendNs;
    rec.httpStatus = r.status;
    if (!statusSeen) {
        acc.onHttpStatus(r.answered ? r.status : 0);
        if (!r.body.isEmpty())
            acc.onBytes(r.body.constData(), r.body.size(), r.recvNs);
    }
    const ErrorClass transportError =
        r.error.isEmpty() ? ErrorClass::None
        : r.error.startsWith("no HTTP reply"_L1) || r.error.startsWith("the reply did not"_L1)
            ? ErrorClass::Timeout
        : r.answered ? ErrorClass::Reset
                     : ErrorClass::Connect;
    acc.finish(transportError, r.error, r.recvNs);
    if (apiFlavourIsPooling(sut.flavour))
        p.verdict = rec.ok() ? StreamProbe::Verdict::Answers : StreamProbe::Verdict::Failed;
    else
        p.verdict = rec.ok() || !rec.chunkTimes.isEmpty() ? judge(rec.chunkTimes)
                                                          : StreamProbe::Verdict::Failed;
    return p;
}

} // namespace sb
