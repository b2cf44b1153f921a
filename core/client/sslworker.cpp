#include "sslworker.h"

#include "client/httpexchange.h"
#include "client/httprequestwriter.h"
#include "common/clock.h"

#include <QNetworkProxy>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTimer>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr qsizetype kReadChunk = 64 * 1024;
constexpr int kDrainMs = 200;
} // namespace

struct SslWorker::Conn
{
    QSslSocket *socket = nullptr;
    QTimer *timer = nullptr;
    QByteArray key;
    std::unique_ptr<HttpExchange> ex;
    QString sslErrors;
    bool encrypted = false;
    bool reused = false;
    bool complete = false;
    bool closed = false;
};

SslWorker::SslWorker(Finished finished, QList<QSslCertificate> extraCaCertificates, QObject *parent)
    : QObject(parent), m_finished(std::move(finished)), m_extraCa(std::move(extraCaCertificates))
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
    for (Conn *c : conns)
        dropConn(c);
}

void SslWorker::start(RequestJob &&job)
{
    auto ex = std::make_unique<HttpExchange>(std::move(job));
    ex->markSent(monotonicNs());
    dispatch(std::move(ex), false);
}

SslWorker::Conn *SslWorker::takeIdle(const QByteArray &key)
{
    auto it = m_idle.find(key);
    if (it == m_idle.end() || it->isEmpty())
        return nullptr;
    return it->takeLast();
}

void SslWorker::dispatch(std::unique_ptr<HttpExchange> ex, bool fresh)
{
    const QByteArray key = hostPortKey(ex->url());
    Conn *c = fresh ? nullptr : takeIdle(key);
    const qint64 timeoutNs = ex->timeoutNs();
    if (c) {
        c->ex = std::move(ex);
        c->complete = false;
    } else {
        c = new Conn;
        c->key = key;
        c->ex = std::move(ex);
        c->socket = new QSslSocket(this);
        // Through an HTTP proxy the socket opens a CONNECT tunnel; TLS runs end to end inside.
        const QUrl &proxy = c->ex->proxy();
        if (proxy.isEmpty())
            c->socket->setProxy(QNetworkProxy::NoProxy);
        else
            c->socket->setProxy(QNetworkProxy(QNetworkProxy::HttpProxy, proxy.host(),
                                              quint16(proxy.port(1080)), proxy.userName(),
                                              proxy.password()));
        if (!m_extraCa.isEmpty()) {
            QSslConfiguration conf = c->socket->sslConfiguration();
            conf.addCaCertificates(m_extraCa);
            c->socket->setSslConfiguration(conf);
        }
        c->timer = new QTimer(c->socket);
        c->timer->setSingleShot(true);
        m_conns.append(c);
        connect(c->socket, &QSslSocket::encrypted, this, [this, c] {
            c->encrypted = true;
            c->socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
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
        connect(c->timer, &QTimer::timeout, this, [this, c] { onTimeout(c); });
        const QUrl &url = c->ex->url();
        c->socket->connectToHostEncrypted(url.host(), quint16(url.port(443)));
    }
    if (timeoutNs > 0) {
        const qint64 left = c->ex->sendTime() + timeoutNs - monotonicNs();
        c->timer->start(int(std::clamp<qint64>(left / 1000000, 0, INT_MAX)));
    }
    if (c->encrypted)
        send(c);
}

void SslWorker::send(Conn *c)
{
    if (!c->ex)
        return;
    c->socket->write(c->ex->requestBytes());
    c->ex->releaseRequestBytes();
}

bool SslWorker::onReadyRead(Conn *c)
{
    const qint64 t = monotonicNs(); // first: everything after is our own processing time
    if (!c->ex) {
        dropConn(c); // an idle connection has nothing to say
        return false;
    }
    while (c->socket->bytesAvailable() > 0) {
        const qint64 n = c->socket->read(m_buffer.data(), kReadChunk);
        if (n <= 0)
            break;
        switch (c->ex->onBytes(m_buffer.constData(), n, t)) {
        case HttpExchange::Progress::Failed:
            endExchange(c, ErrorClass::Transport, c->ex->protocolError(), t, false);
            return false; // c is gone
        case HttpExchange::Progress::Done:
            endExchange(c, ErrorClass::None, {}, t, c->ex->keepAlive());
            return false; // c is idle or gone
        case HttpExchange::Progress::Complete:
            if (!c->complete) {
                c->complete = true;
                c->timer->start(kDrainMs);
            }
            break;
        case HttpExchange::Progress::More:
            break;
        }
    }
    return true;
}

void SslWorker::onTimeout(Conn *c)
{
    if (!c->ex)
        return;
    if (c->complete)
        endExchange(c, ErrorClass::None, {}, monotonicNs(), false);
    else if (!c->encrypted)
        endExchange(c, ErrorClass::Connect,
                    u"no TLS connection to %1 within the request timeout"_s.arg(
                        QString::fromLatin1(c->key)),
                    monotonicNs(), false);
    else
        endExchange(c, ErrorClass::Timeout, u"no complete response within the request timeout"_s,
                    monotonicNs(), false);
}

void SslWorker::onClosed(Conn *c, QAbstractSocket::SocketError error)
{
    if (c->closed)
        return;
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

} // namespace sb
