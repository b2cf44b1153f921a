#include "sslworker.h"

#include "client/httpexchange.h"
#include "client/httprequestwriter.h"
#include "common/clock.h"

#include <QDeadlineTimer>
#include <QMutex>
#include <QNetworkProxy>
#include <QPointer>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTimer>
#include <QUrl>
#include <QWaitCondition>

#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr qsizetype kReadChunk = 64 * 1024;
// What one connection reads per turn of the event loop before timers and other connections
// get theirs, and what Qt may hold for it: a flooding server is read at the pace we parse, so
// neither memory nor the timeout depends on what it sends.
constexpr qint64 kReadBudget = 512 * 1024;
constexpr qint64 kSocketBuffer = 1024 * 1024;
constexpr qint64 kDrainNs = 200'000'000;
constexpr qint64 kNever = std::numeric_limits<qint64>::max();

QString seconds(qint64 ns)
{
    return QString::number(double(ns) / 1e9, 'g', 4);
}
} // namespace

struct SslWorker::PrewarmState
{
    QMutex mutex;
    QWaitCondition finished;
    int wanted = 0;
    int opened = 0;
    int failed = 0;
    QString firstError;
    bool done = false;
};

struct SslWorker::Conn
{
    QSslSocket *socket = nullptr;
    QTimer *timer = nullptr;
    QByteArray key;
    std::unique_ptr<HttpExchange> ex;
    std::shared_ptr<PrewarmState> prewarm; // while connecting for prewarm()
    QString sslErrors;
    qint64 lastActivityNs = 0;
    qint64 drainUntil = 0;
    qint64 prewarmDeadline = 0;
    bool encrypted = false;
    bool reused = false;
    bool prewarmed = false; // opened by prewarm() and not used yet
    bool complete = false;
    bool closed = false;
    bool readQueued = false;
};

SslWorker::SslWorker(Finished finished, const TransportOptions &options, QObject *parent)
    : QObject(parent), m_finished(std::move(finished)), m_options(options)
{
    m_buffer.resize(kReadChunk);
}

SslWorker::~SslWorker()
{
    tearDown();
}

void SslWorker::tearDown()
{
    cancelAll();
    const QList<Conn *> conns = m_conns;
    for (Conn *c : conns) {
        if (c->prewarm)
            prewarmDone(c, false, u"the transport shut down"_s);
        else
            dropConn(c);
    }
}

void SslWorker::start(RequestJob &&job)
{
    auto ex =
        std::make_unique<HttpExchange>(std::move(job), m_options.limits, m_options.tokenizer.get());
    ex->markSent(monotonicNs());
    if (!ex->invalid().isEmpty()) {
        const QString why = ex->invalid();
        inFlight.fetch_sub(1, std::memory_order_acq_rel);
        m_finished(ex->finish(ErrorClass::Transport, why, monotonicNs()));
        return;
    }
    dispatch(std::move(ex), false);
}

SslWorker::Conn *SslWorker::takeIdle(const QByteArray &key)
{
    auto it = m_idle.find(key);
    if (it == m_idle.end() || it->isEmpty())
        return nullptr;
    return it->takeLast();
}

SslWorker::Conn *SslWorker::newConn(const QUrl &url, const QUrl &proxy)
{
    auto *c = new Conn;
    c->key = hostPortKey(url);
    c->socket = new QSslSocket(this);
    c->socket->setReadBufferSize(kSocketBuffer);
    // Through an HTTP proxy the socket opens a CONNECT tunnel; TLS runs end to end inside.
    if (proxy.isEmpty())
        c->socket->setProxy(QNetworkProxy::NoProxy);
    else
        c->socket->setProxy(QNetworkProxy(QNetworkProxy::HttpProxy, proxy.host(),
                                          quint16(proxy.port(1080)), proxy.userName(),
                                          proxy.password()));
    if (!m_options.extraCaCertificates.isEmpty()) {
        QSslConfiguration conf = c->socket->sslConfiguration();
        conf.addCaCertificates(m_options.extraCaCertificates);
        c->socket->setSslConfiguration(conf);
    }
    c->timer = new QTimer(c->socket);
    c->timer->setSingleShot(true);
    c->timer->setTimerType(Qt::PreciseTimer);
    m_conns.append(c);
    connect(c->socket, &QSslSocket::connected, this, [c] {
        if (c->ex)
            c->ex->markConnected(monotonicNs());
    });
    connect(c->socket, &QSslSocket::encrypted, this, [this, c] {
        c->encrypted = true;
        c->socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        if (c->prewarm) {
            prewarmDone(c, true, {});
            return;
        }
        if (c->ex)
            c->ex->markTlsDone(monotonicNs());
        send(c);
    });
    connect(c->socket, &QSslSocket::readyRead, this, [this, c] { onReadyRead(c); });
    connect(c->socket, &QSslSocket::sslErrors, this, [c](const QList<QSslError> &errors) {
        QStringList texts;
        for (const QSslError &e : errors)
            texts.append(e.errorString());
        c->sslErrors = texts.join(u"; "_s);
    });
    connect(c->socket, &QSslSocket::errorOccurred, this,
            [this, c](QAbstractSocket::SocketError e) { onClosed(c, e); });
    connect(c->socket, &QSslSocket::disconnected, this,
            [this, c] { onClosed(c, QAbstractSocket::RemoteHostClosedError); });
    connect(c->timer, &QTimer::timeout, this, [this, c] { onTimer(c); });
    return c;
}

void SslWorker::dispatch(std::unique_ptr<HttpExchange> ex, bool fresh)
{
    const QByteArray key = hostPortKey(ex->url());
    const bool mayReuse =
        !fresh && m_options.connectionMode != ConnectionMode::PerRequest && ex->mayRetry();
    Conn *c = mayReuse ? takeIdle(key) : nullptr;
    if (c) {
        ex->markConnection(c->prewarmed ? ConnectionUse::Prewarmed : ConnectionUse::Reused);
        c->prewarmed = false;
        c->ex = std::move(ex);
        c->complete = false;
    } else {
        ex->markConnection(ConnectionUse::New);
        const QUrl url = ex->url();
        c = newConn(url, ex->proxy());
        c->ex = std::move(ex);
        c->ex->markConnectStart(monotonicNs());
        c->socket->connectToHostEncrypted(url.host(), quint16(url.port(443)));
    }
    c->lastActivityNs = c->ex->sendTime();
    armTimer(c);
    if (c->encrypted)
        send(c);
}

void SslWorker::send(Conn *c)
{
    if (!c->ex || c->ex->requestBytes().isEmpty())
        return;
    // Before the write: the bytes reach the kernel during flush(), and on loopback the server may
    // answer before it returns.
    const qint64 before = monotonicNs();
    c->socket->write(c->ex->requestBytes());
    // Encrypted and handed to the kernel now rather than on the next turn of the event loop.
    c->socket->flush();
    c->ex->markRequestWritten(before);
    c->lastActivityNs = before;
    c->ex->releaseRequestBytes();
    if (c->ex->cancelAtNs() > 0)
        armTimer(c); // the cancellation load's delay counts from now
}

void SslWorker::armTimer(Conn *c)
{
    qint64 next = kNever;
    if (c->prewarm) {
        next = c->prewarmDeadline;
    } else if (c->ex) {
        if (const qint64 t = c->ex->timeoutNs(); t > 0)
            next = std::min(next, c->ex->sendTime() + t);
        if (const qint64 idle = c->ex->idleTimeoutNs(); idle > 0)
            next = std::min(next, c->lastActivityNs + idle);
        if (c->complete)
            next = std::min(next, c->drainUntil);
        else if (const qint64 cancelAt = c->ex->cancelAtNs(); cancelAt > 0)
            next = std::min(next, cancelAt);
    }
    if (next == kNever) {
        c->timer->stop();
        return;
    }
    const qint64 left = next - monotonicNs();
    // Rounded up: a timer that fires early only re-arms itself.
    c->timer->start(int(std::clamp<qint64>((left + 999'999) / 1'000'000, 0, INT_MAX)));
}

bool SslWorker::onReadyRead(Conn *c)
{
    c->readQueued = false;
    const qint64 t = monotonicNs(); // first: everything after is our own processing time
    if (!c->ex) {
        if (!c->prewarm)
            dropConn(c); // an idle connection has nothing to say
        return false;
    }
    qint64 budget = kReadBudget;
    while (c->socket->bytesAvailable() > 0) {
        const qint64 n = c->socket->read(m_buffer.data(), kReadChunk);
        if (n <= 0)
            break;
        c->lastActivityNs = t;
        switch (c->ex->onBytes(m_buffer.constData(), n, t)) {
        case HttpExchange::Progress::Failed:
            endExchange(c, c->ex->failureClass(), c->ex->failureMessage(), t, false);
            return false; // c is gone
        case HttpExchange::Progress::Done:
            endExchange(c, ErrorClass::None, {}, t,
                        c->ex->keepAlive() &&
                            m_options.connectionMode != ConnectionMode::PerRequest);
            return false; // c is idle or gone
        case HttpExchange::Progress::Complete:
            if (!c->complete) {
                c->complete = true;
                c->drainUntil = t + kDrainNs;
                armTimer(c);
            }
            break;
        case HttpExchange::Progress::More:
            // The cancellation load's token count: closed now, with what arrived so far.
            if (c->ex->cancelDue()) {
                endExchange(c, ErrorClass::CancelledByLoad, c->ex->cancelMessage(), monotonicNs(),
                            false);
                return false; // c is gone
            }
            break;
        }
        budget -= n;
        if (budget <= 0 && c->socket->bytesAvailable() > 0) {
            // The rest on the next turn of the event loop, after timers and other sockets.
            if (!c->readQueued) {
                c->readQueued = true;
                QMetaObject::invokeMethod(
                    this,
                    [this, c, s = QPointer<QSslSocket>(c->socket)] {
                        if (s && m_conns.contains(c) && c->socket == s.data())
                            onReadyRead(c);
                    },
                    Qt::QueuedConnection);
            }
            break;
        }
    }
    // The deadlines hold whatever the server sends: checked here too, not only by the timer.
    const qint64 now = monotonicNs();
    const qint64 timeout = c->ex->timeoutNs();
    const qint64 idle = c->ex->idleTimeoutNs();
    if ((timeout > 0 && now >= c->ex->sendTime() + timeout) ||
        (idle > 0 && now >= c->lastActivityNs + idle)) {
        onTimer(c);
        return c->ex != nullptr && m_conns.contains(c);
    }
    return true;
}

void SslWorker::onTimer(Conn *c)
{
    const qint64 now = monotonicNs();
    if (c->prewarm) {
        if (now >= c->prewarmDeadline)
            prewarmDone(c, false,
                        u"no TLS connection to %1 before the warm-up deadline"_s.arg(
                            QString::fromLatin1(c->key)));
        else
            armTimer(c);
        return;
    }
    if (!c->ex)
        return;
    if (c->complete && now >= c->drainUntil) {
        endExchange(c, ErrorClass::None, {}, now, false);
        return;
    }
    if (const qint64 cancelAt = c->ex->cancelAtNs();
        !c->complete && cancelAt > 0 && now >= cancelAt && c->ex->cancelAllowed()) {
        endExchange(c, ErrorClass::CancelledByLoad, c->ex->cancelMessage(), now, false);
        return;
    }
    const qint64 timeout = c->ex->timeoutNs();
    const qint64 idle = c->ex->idleTimeoutNs();
    if (timeout > 0 && now >= c->ex->sendTime() + timeout) {
        if (!c->encrypted)
            endExchange(c, ErrorClass::Connect,
                        u"no TLS connection to %1 within the request timeout"_s.arg(
                            QString::fromLatin1(c->key)),
                        now, false);
        else
            endExchange(
                c, ErrorClass::Timeout,
                u"no complete response within the request timeout (%1 s)"_s.arg(seconds(timeout)),
                now, false);
        return;
    }
    if (idle > 0 && now >= c->lastActivityNs + idle) {
        if (!c->encrypted)
            endExchange(c, ErrorClass::Connect,
                        u"no TLS connection to %1 within the idle timeout (%2 s)"_s.arg(
                            QString::fromLatin1(c->key), seconds(idle)),
                        now, false);
        else
            endExchange(c, ErrorClass::Timeout,
                        u"the server sent nothing for %1 s (idle timeout)"_s.arg(seconds(idle)),
                        now, false);
        return;
    }
    armTimer(c);
}

void SslWorker::onClosed(Conn *c, QAbstractSocket::SocketError error)
{
    if (c->closed)
        return;
    if (c->prewarm) {
        QString message = c->socket->errorString();
        if (!c->sslErrors.isEmpty())
            message += u" ("_s + c->sslErrors + u')';
        prewarmDone(c, false, message);
        return;
    }
    if (!c->ex) {
        dropConn(c);
        return;
    }
    // Bytes that came with the close are still part of the response.
    if (c->socket->bytesAvailable() > 0 && !onReadyRead(c))
        return;
    const qint64 now = monotonicNs();
    if (error == QAbstractSocket::RemoteHostClosedError && c->encrypted) {
        if (c->reused && c->ex->mayRetry()) {
            retry(c);
            return;
        }
        if (c->ex->onEof() == HttpExchange::Progress::Done || c->complete) {
            endExchange(c, ErrorClass::None, {}, now, false);
            return;
        }
        endExchange(c, ErrorClass::Reset,
                    c->ex->anyResponseBytes()
                        ? u"connection closed by the server before the response ended"_s
                        : u"connection closed by the server without a response"_s,
                    now, false);
        return;
    }
    QString message = c->socket->errorString();
    if (!c->sslErrors.isEmpty())
        message += u" ("_s + c->sslErrors + u')';
    ErrorClass cls = ErrorClass::Transport;
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
    case QAbstractSocket::HostNotFoundError:
    case QAbstractSocket::SslHandshakeFailedError:
    case QAbstractSocket::SslInternalError:
    case QAbstractSocket::SslInvalidUserDataError:
    case QAbstractSocket::NetworkError:
    case QAbstractSocket::RemoteHostClosedError:
        cls = c->encrypted ? ErrorClass::Reset : ErrorClass::Connect;
        break;
    case QAbstractSocket::SocketTimeoutError:
        cls = ErrorClass::Timeout;
        break;
    default:
        break;
    }
    endExchange(c, cls, message, now, false);
}

void SslWorker::retry(Conn *c)
{
    std::unique_ptr<HttpExchange> ex = std::move(c->ex);
    ex->markRetried();
    dropConn(c);
    dispatch(std::move(ex), true);
}

void SslWorker::endExchange(Conn *c, ErrorClass error, const QString &message, qint64 tEnd,
                            bool reuse)
{
    c->timer->stop();
    RequestRecord rec = c->ex->finish(error, message, tEnd);
    c->ex.reset();
    if (reuse) {
        c->reused = true;
        c->complete = false;
        m_idle[c->key].append(c);
    } else {
        dropConn(c);
    }
    inFlight.fetch_sub(1, std::memory_order_acq_rel);
    m_finished(std::move(rec));
}

void SslWorker::dropConn(Conn *c)
{
    if (c->closed)
        return;
    c->closed = true;
    m_conns.removeOne(c);
    auto it = m_idle.find(c->key);
    if (it != m_idle.end())
        it->removeOne(c);
    c->socket->disconnect(this);
    c->timer->disconnect(this);
    c->socket->abort();
    c->socket->deleteLater();
    delete c;
}

void SslWorker::cancelAll()
{
    const QList<Conn *> conns = m_conns;
    const qint64 now = monotonicNs();
    for (Conn *c : conns) {
        if (c->ex)
            endExchange(c, ErrorClass::Cancelled, u"run stopped"_s, now, false);
    }
}

int SslWorker::prewarm(const QUrl &target, int connections, qint64 deadlineNs, QString *error)
{
    auto state = std::make_shared<PrewarmState>();
    state->wanted = connections;
    const QUrl proxy = m_options.proxy.proxyFor(target);
    QMetaObject::invokeMethod(
        this,
        [this, state, target, proxy, connections, deadlineNs] {
            for (int i = 0; i < connections; ++i) {
                Conn *c = newConn(target, proxy);
                c->prewarm = state;
                c->prewarmDeadline = deadlineNs;
                armTimer(c);
                c->socket->connectToHostEncrypted(target.host(), quint16(target.port(443)));
            }
        },
        Qt::QueuedConnection);
    QMutexLocker lock(&state->mutex);
    const qint64 waitUntil = deadlineNs + 500'000'000;
    while (!state->done) {
        const qint64 left = waitUntil - monotonicNs();
        if (left <= 0)
            break;
        state->finished.wait(&state->mutex,
                             QDeadlineTimer(std::chrono::nanoseconds(left), Qt::PreciseTimer));
    }
    if (error && !state->firstError.isEmpty())
        *error = state->firstError;
    return state->opened;
}

void SslWorker::prewarmDone(Conn *c, bool ok, const QString &error)
{
    const std::shared_ptr<PrewarmState> state = std::move(c->prewarm);
    c->prewarm.reset();
    if (ok) {
        c->timer->stop();
        c->reused = true; // the server may close it before the first request: resend then
        c->prewarmed = true;
        m_idle[c->key].append(c);
    } else {
        dropConn(c);
    }
    QMutexLocker lock(&state->mutex);
    ok ? ++state->opened : ++state->failed;
    if (!ok && state->firstError.isEmpty())
        state->firstError = error;
    if (state->opened + state->failed >= state->wanted) {
        state->done = true;
        state->finished.wakeAll();
    }
}

} // namespace sb
