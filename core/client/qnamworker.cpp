#include "qnamworker.h"

#include "client/requestbuilder.h"
#include "client/streamaccumulator.h"
#include "common/clock.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr int kConnectionsPerManager = 6; // Qt 6.4's fixed per-host limit
// What Qt's HTTP thread may hold for one reply before it stops reading the socket, and what one
// readyRead handles before timers and other replies get their turn: a flooding server is read
// at the pace we parse, whatever it sends. Small on purpose: against a server sending a line
// without end, the client's peak RSS grew by ~300 MB with a 1 MiB buffer, ~95 MB with none
// (unbounded), ~27 MB with 64 KiB (tst_hostileservers) — larger blocks crossing from Qt's
// thread to this one leave more memory behind in the allocator.
constexpr qint64 kReplyBuffer = 64 * 1024;
constexpr qint64 kReadBudget = 512 * 1024;
constexpr qint64 kReadChunk = 64 * 1024;
constexpr qint64 kNever = std::numeric_limits<qint64>::max();

QString seconds(qint64 ns)
{
    return QString::number(double(ns) / 1e9, 'g', 4);
}
} // namespace

struct QnamWorker::Stream
{
    RequestRecord record;
    std::unique_ptr<StreamAccumulator> acc;
    int manager = 0;
    bool statusSeen = false;
    bool readQueued = false;
    ErrorClass forced = ErrorClass::None; // decided by us (timeout, cancel, cap), not the socket
    QString forcedMessage;
    qint64 timeoutNs = 0;
    qint64 idleTimeoutNs = 0;
    qint64 lastActivityNs = 0;
    QTimer *timer = nullptr;
    // The cancellation load (RequestJob::cancelAfterNs, cancelAfterChunks).
    qint64 cancelAfterNs = -1;
    int cancelAfterChunks = 0;
    // When the delay starts: the request written (Qt's upload progress), else — a reply whose
    // upload Qt never reported — its head's arrival; 0 until then.
    qint64 cancelAtNs() const
    {
        if (cancelAfterNs < 0)
            return 0;
        const qint64 from = record.tRequestWritten > 0 ? record.tRequestWritten
                                                       : record.tHeadReceived;
        return from > 0 ? from + cancelAfterNs : 0;
    }
};

QnamWorker::QnamWorker(int managers, const TransportOptions &options, QObject *parent)
    : QObject(parent), m_capacity(managers * kConnectionsPerManager), m_managerCount(managers),
      m_options(options)
{
    m_buffer.resize(kReadChunk);
}

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

void QnamWorker::prewarm(const QUrl &target, const QList<int> &perManager)
{
    // QNetworkAccessManager opens one connection per call, up to its per-host limit, and
    // keeps it for the requests that follow; it does not say when the handshake is done.
    for (qsizetype i = 0; i < m_managers.size() && i < perManager.size(); ++i) {
        for (int k = 0; k < std::min(perManager[i], kConnectionsPerManager); ++k)
            m_managers[i]->connectToHost(target.host(), quint16(target.port(80)));
    }
}

void QnamWorker::start(RequestJob job)
{
    int best = 0;
    for (int i = 1; i < m_managerLoad.size(); ++i)
        if (m_managerLoad[i] < m_managerLoad[best])
            best = i;

    QNetworkRequest req(job.url);
    // HTTP/1.1 always: https requests do not offer h2; for plain http "allowed" changes nothing
    // on the wire (cleartext HTTP/2 needs Http2CleartextAllowedAttribute) but it is part of the
    // manager's connection key, and connectToHost() (prewarm) opens connections under that key.
    req.setAttribute(QNetworkRequest::Http2AllowedAttribute, job.url.scheme() == "http"_L1);
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    req.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    req.setTransferTimeout(0);
    applyTransportOptions(&req, m_options);
    QString invalid;
    for (const auto &[k, v] : job.headers) {
        if (!validateHeader(QByteArrayView(k), QByteArrayView(v), &invalid))
            break;
        req.setRawHeader(k, v);
    }
    // A new connection per request: the server is told to close this one after the response.
    if (m_options.connectionMode == ConnectionMode::PerRequest)
        req.setRawHeader("Connection", "close");

    auto *s = new Stream;
    s->record = std::move(job.record);
    s->manager = best;
    s->acc = std::make_unique<StreamAccumulator>(job.flavour, &s->record);
    s->acc->setLimits(m_options.limits);
    s->acc->setTokenizer(m_options.tokenizer.get());
    s->timeoutNs = job.timeoutNs;
    s->idleTimeoutNs = job.idleTimeoutNs > 0 ? job.idleTimeoutNs : m_options.idleTimeoutNs;
    s->acc->setCaptureText(job.captureText);
    s->cancelAfterNs = job.cancelAfterNs;
    s->cancelAfterChunks = job.cancelAfterChunks;

    s->record.tSend = monotonicNs();
    s->lastActivityNs = s->record.tSend;
    if (!invalid.isEmpty()) {
        s->acc->finish(ErrorClass::Transport, u"request not sent: "_s + invalid, monotonicNs());
        RequestRecord rec = std::move(s->record);
        s->acc.reset();
        delete s;
        inFlight.fetch_sub(1, std::memory_order_acq_rel);
        emit finished(rec);
        return;
    }
    ++m_managerLoad[best];
    QNetworkReply *reply = m_managers[best]->post(req, job.body);
    reply->setReadBufferSize(kReplyBuffer);
    m_streams.insert(reply, s);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
    connect(reply, &QNetworkReply::metaDataChanged, this, [this, s, reply] {
        if (s->record.tHeadReceived == 0)
            s->record.tHeadReceived = monotonicNs();
        // Again now that Qt's HTTP thread has the reply it limits: before, it drops the size.
        reply->setReadBufferSize(kReplyBuffer);
        if (s->cancelAfterNs >= 0)
            armTimer(s);
    });
    connect(reply, &QNetworkReply::uploadProgress, this, [this, s](qint64 sent, qint64 total) {
        if (total > 0 && sent == total && s->record.tRequestWritten == 0) {
            s->record.tRequestWritten = monotonicNs();
            if (s->cancelAfterNs >= 0)
                armTimer(s); // the cancellation load's delay counts from now
        }
    });
    s->timer = new QTimer(reply);
    s->timer->setSingleShot(true);
    s->timer->setTimerType(Qt::PreciseTimer);
    connect(s->timer, &QTimer::timeout, this, [this, reply] { onTimeout(reply); });
    armTimer(s);
}

void QnamWorker::armTimer(Stream *s)
{
    qint64 next = kNever;
    if (s->timeoutNs > 0)
        next = s->record.tSend + s->timeoutNs;
    if (s->idleTimeoutNs > 0)
        next = std::min(next, s->lastActivityNs + s->idleTimeoutNs);
    if (const qint64 cancelAt = s->cancelAtNs(); cancelAt > 0 && !s->acc->complete())
        next = std::min(next, cancelAt);
    if (next == kNever)
        return;
    const qint64 left = next - monotonicNs();
    // Rounded up: a timer that fires early only re-arms itself.
    s->timer->start(int(std::clamp<qint64>((left + 999'999) / 1'000'000, 0, INT_MAX)));
}

void QnamWorker::onReadyRead(QNetworkReply *reply)
{
    // Taken first: everything after this line is the client's own processing time.
    const qint64 t = monotonicNs();
    Stream *s = m_streams.value(reply);
    if (!s)
        return;
    s->readQueued = false;
    if (!s->statusSeen) {
        s->statusSeen = true;
        s->acc->onHttpStatus(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt());
    }
    s->lastActivityNs = t;
    qint64 budget = kReadBudget;
    while (reply->bytesAvailable() > 0 && budget > 0) {
        const qint64 n = reply->read(m_buffer.data(), std::min(kReadChunk, budget));
        if (n <= 0)
            break;
        s->acc->onBytes(m_buffer.constData(), n, t);
        budget -= n;
        if (s->acc->oversize()) {
            s->forced = ErrorClass::Oversize;
            s->forcedMessage = s->record.errorMessage;
            reply->abort(); // emits finished synchronously: s is gone
            return;
        }
        // The cancellation load's token count: closed now, with what arrived so far.
        if (s->cancelAfterChunks > 0 && s->record.chunkTimes.size() >= s->cancelAfterChunks &&
            !s->acc->complete()) {
            s->forced = ErrorClass::CancelledByLoad;
            s->forcedMessage = loadCancelMessage(s->cancelAfterNs, s->cancelAfterChunks);
            reply->abort(); // emits finished synchronously: s is gone
            return;
        }
    }
    if (reply->bytesAvailable() > 0 && !s->readQueued) {
        // The rest on the next turn of the event loop, after timers and other replies.
        s->readQueued = true;
        QMetaObject::invokeMethod(
            this,
            [this, r = QPointer<QNetworkReply>(reply)] {
                if (r)
                    onReadyRead(r.data());
            },
            Qt::QueuedConnection);
    }
    // The deadlines hold whatever the server sends: checked here too, not only by the timer.
    const qint64 now = monotonicNs();
    if ((s->timeoutNs > 0 && now >= s->record.tSend + s->timeoutNs) ||
        (s->idleTimeoutNs > 0 && now >= s->lastActivityNs + s->idleTimeoutNs))
        onTimeout(reply);
}

void QnamWorker::onTimeout(QNetworkReply *reply)
{
    Stream *s = m_streams.value(reply);
    if (!s)
        return;
    const qint64 now = monotonicNs();
    if (const qint64 cancelAt = s->cancelAtNs();
        cancelAt > 0 && now >= cancelAt && !s->acc->complete()) {
        s->forced = ErrorClass::CancelledByLoad;
        s->forcedMessage = loadCancelMessage(s->cancelAfterNs, s->cancelAfterChunks);
    } else if (s->timeoutNs > 0 && now >= s->record.tSend + s->timeoutNs) {
        s->forced = ErrorClass::Timeout;
        s->forcedMessage =
            u"no complete response within the request timeout (%1 s)"_s.arg(seconds(s->timeoutNs));
    } else if (s->idleTimeoutNs > 0 && now >= s->lastActivityNs + s->idleTimeoutNs) {
        s->forced = ErrorClass::Timeout;
        s->forcedMessage =
            u"the server sent nothing for %1 s (idle timeout)"_s.arg(seconds(s->idleTimeoutNs));
    } else {
        armTimer(s);
        return;
    }
    reply->abort(); // emits finished synchronously
}

void QnamWorker::cancelAll()
{
    const auto replies = m_streams.keys();
    for (QNetworkReply *r : replies) {
        if (Stream *s = m_streams.value(r)) {
            s->forced = ErrorClass::Cancelled;
            s->forcedMessage = u"run stopped"_s;
            r->abort();
        }
    }
}

void QnamWorker::onFinished(QNetworkReply *reply)
{
    Stream *s = m_streams.value(reply);
    if (!s)
        return;
    if (s->forced == ErrorClass::None) {
        // What is left of the body (readyRead may have left some for a later turn).
        while (reply->bytesAvailable() > 0 && m_streams.value(reply) == s) {
            const qint64 before = reply->bytesAvailable();
            onReadyRead(reply);
            if (reply->bytesAvailable() >= before)
                break;
        }
        s = m_streams.value(reply);
        if (!s)
            return;
    }
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
    if (s->forced != ErrorClass::None) {
        err = s->forced;
        msg = s->forcedMessage;
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
    if (error == ErrorClass::Oversize) {
        // A cap we broke the response off at wins over what its status line said.
        s->record.error = error;
        s->record.errorMessage = message;
    }
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
