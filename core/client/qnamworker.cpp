#include "qnamworker.h"

#include "client/streamaccumulator.h"
#include "common/clock.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr int kConnectionsPerManager = 6; // Qt 6.4's fixed per-host limit
}

struct QnamWorker::Stream
{
    RequestRecord record;
    std::unique_ptr<StreamAccumulator> acc;
    int manager = 0;
    bool statusSeen = false;
    ErrorClass forced = ErrorClass::None; // timeout or cancel decided by us, not by the socket
    QTimer *timer = nullptr;
};

QnamWorker::QnamWorker(int managers, const TransportOptions &options, QObject *parent)
    : QObject(parent), m_capacity(managers * kConnectionsPerManager), m_managerCount(managers),
      m_options(options)
{}

QnamWorker::~QnamWorker() = default;

void QnamWorker::setUp()
{
    // Created here, in the worker thread, so that each manager's replies are delivered here.
    for (int i = 0; i < m_managerCount; ++i) {
        auto *nam = new QNetworkAccessManager(this);
        nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
        nam->setAutoDeleteReplies(false);
        applyTransportOptions(nam, m_options);
        m_managers.append(nam);
        m_managerLoad.append(0);
    }
}

void QnamWorker::tearDown()
{
    cancelAll();
    qDeleteAll(m_managers);
    m_managers.clear();
    m_managerLoad.clear();
}

void QnamWorker::start(RequestJob job)
{
    int best = 0;
    for (int i = 1; i < m_managerLoad.size(); ++i)
        if (m_managerLoad[i] < m_managerLoad[best])
            best = i;

    QNetworkRequest req(job.url);
    req.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    req.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    req.setTransferTimeout(0);
    applyTransportOptions(&req, m_options);
    for (const auto &[k, v] : job.headers)
        req.setRawHeader(k, v);

    auto *s = new Stream;
    s->record = std::move(job.record);
    s->manager = best;
    s->acc = std::make_unique<StreamAccumulator>(job.flavour, &s->record);
    s->acc->setCaptureText(job.captureText);
    ++m_managerLoad[best];

    s->record.tSend = monotonicNs();
    QNetworkReply *reply = m_managers[best]->post(req, job.body);
    m_streams.insert(reply, s);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
    if (job.timeoutNs > 0) {
        s->timer = new QTimer(reply);
        s->timer->setSingleShot(true);
        s->timer->setTimerType(Qt::CoarseTimer);
        connect(s->timer, &QTimer::timeout, this, [this, reply] { onTimeout(reply); });
        s->timer->start(int(std::min<qint64>(job.timeoutNs / 1000000, INT_MAX)));
    }
}

void QnamWorker::onReadyRead(QNetworkReply *reply)
{
    // Taken first: everything after this line is the client's own processing time.
    const qint64 t = monotonicNs();
    Stream *s = m_streams.value(reply);
    if (!s)
        return;
    if (!s->statusSeen) {
        s->statusSeen = true;
        s->acc->onHttpStatus(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt());
    }
    const QByteArray data = reply->readAll();
    s->acc->onBytes(data.constData(), data.size(), t);
}

void QnamWorker::onTimeout(QNetworkReply *reply)
{
    if (Stream *s = m_streams.value(reply)) {
        s->forced = ErrorClass::Timeout;
        reply->abort(); // emits finished synchronously
    }
}

void QnamWorker::cancelAll()
{
    const auto replies = m_streams.keys();
    for (QNetworkReply *r : replies) {
        if (Stream *s = m_streams.value(r)) {
            s->forced = ErrorClass::Cancelled;
            r->abort();
        }
    }
}

void QnamWorker::onFinished(QNetworkReply *reply)
{
    Stream *s = m_streams.value(reply);
    if (!s)
        return;
    if (reply->bytesAvailable() > 0)
        onReadyRead(reply);
    if (!s->statusSeen) {
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (status.isValid()) {
            s->statusSeen = true;
            s->acc->onHttpStatus(status.toInt());
        }
    }

    ErrorClass err = ErrorClass::None;
    QString msg;
    const auto e = reply->error();
    if (s->forced == ErrorClass::Timeout) {
        err = ErrorClass::Timeout;
        msg = u"no complete response within the request timeout"_s;
    } else if (s->forced == ErrorClass::Cancelled) {
        err = ErrorClass::Cancelled;
        msg = u"run stopped"_s;
    } else if (e == QNetworkReply::NoError) {
        err = ErrorClass::None;
    } else if (s->statusSeen && e >= QNetworkReply::ContentAccessDenied &&
               e <= QNetworkReply::UnknownServerError) {
        // An HTTP error status: the accumulator classifies it from the status and body.
        err = ErrorClass::None;
    } else {
        msg = reply->errorString();
        switch (e) {
        case QNetworkReply::ConnectionRefusedError:
        case QNetworkReply::HostNotFoundError:
        case QNetworkReply::SslHandshakeFailedError:
        case QNetworkReply::ProxyConnectionRefusedError:
        case QNetworkReply::ProxyNotFoundError:
        case QNetworkReply::NetworkSessionFailedError:
            err = ErrorClass::Connect;
            break;
        case QNetworkReply::RemoteHostClosedError:
        case QNetworkReply::ProxyConnectionClosedError:
        case QNetworkReply::ProtocolFailure:
        case QNetworkReply::ProtocolUnknownError:
            err = ErrorClass::Reset;
            break;
        case QNetworkReply::TimeoutError:
        case QNetworkReply::ProxyTimeoutError:
            err = ErrorClass::Timeout;
            break;
        default:
            err = ErrorClass::Transport;
            break;
        }
        if (err == ErrorClass::Connect && s->statusSeen)
            err = ErrorClass::Reset;
    }
    complete(reply, err, msg);
}

void QnamWorker::complete(QNetworkReply *reply, ErrorClass error, const QString &message)
{
    Stream *s = m_streams.take(reply);
    s->acc->finish(error, message, monotonicNs());
    --m_managerLoad[s->manager];
    if (s->timer)
        s->timer->stop();
    reply->disconnect(this);
    reply->deleteLater();
    RequestRecord rec = std::move(s->record);
    s->acc.reset();
    delete s;
    inFlight.fetch_sub(1, std::memory_order_acq_rel);
    emit finished(rec);
}

} // namespace sb
