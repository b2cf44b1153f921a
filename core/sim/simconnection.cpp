#include "simconnection.h"

#include "common/clock.h"
#include "simrenderer.h"

#include <QTcpSocket>

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#endif

namespace sb {

static constexpr qsizetype kMaxHeadBytes = 64 * 1024;
static constexpr qsizetype kMaxBodyBytes = 64 * 1024 * 1024;

SimConnection::SimConnection(QTcpSocket *socket, quint64 id, QObject *parent)
    : QObject(parent), m_socket(socket), m_id(id)
{
    m_socket->setParent(this);
    // Small chunks must leave at once: Nagle would hold a chunk until the previous one is acked.
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(m_socket, &QTcpSocket::readyRead, this, &SimConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &SimConnection::drop);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (m_socket && m_socket->state() != QAbstractSocket::ConnectedState)
            drop();
    });
}

SimConnection::~SimConnection() = default;

void SimConnection::write(const QByteArray &bytes)
{
    if (!m_socket || bytes.isEmpty())
        return;
    qsizetype sent = 0;
#ifdef Q_OS_UNIX
    // Straight to the kernel while Qt holds nothing back: QAbstractSocket::flush() switches the
    // write notifier on and off around every write, and with the glib dispatcher that costs time
    // linear in the number of open sockets - the simulator's limit at a thousand streams.
    if (m_socket->bytesToWrite() == 0) {
        const qintptr fd = m_socket->socketDescriptor();
        const ssize_t n = fd >= 0 ? ::send(int(fd), bytes.constData(), size_t(bytes.size()),
                                           MSG_NOSIGNAL | MSG_DONTWAIT)
                                  : -1;
        if (n == ssize_t(bytes.size()))
            return;
        if (n > 0)
            sent = qsizetype(n);
        // Otherwise (full buffer, or an error) Qt takes the rest: it buffers, or reports the error.
    }
#endif
    m_socket->write(bytes.constData() + sent, bytes.size() - sent);
    m_socket->flush();
}

void SimConnection::finishResponse(bool keepAlive)
{
    m_busy = false;
    if (!m_socket)
        return;
    if (!keepAlive) {
        m_closing = true;
        m_socket->disconnectFromHost(); // graceful: pending bytes are written first
        return;
    }
    if (!m_buffer.isEmpty()) {
        // Queued, so that a server answering synchronously does not recurse through a long
        // pipeline of requests.
        QMetaObject::invokeMethod(this, &SimConnection::parse, Qt::QueuedConnection);
    }
}

void SimConnection::reset()
{
    if (!m_socket)
        return;
#ifdef Q_OS_UNIX
    // Linger 0 turns close() into an RST, which is what "connection reset by peer" is.
    const qintptr fd = m_socket->socketDescriptor();
    if (fd >= 0) {
        linger l{1, 0};
        ::setsockopt(int(fd), SOL_SOCKET, SO_LINGER, &l, sizeof l);
    }
#endif
    m_socket->abort();
    drop();
}

void SimConnection::abort()
{
    if (!m_socket)
        return;
    m_socket->abort();
    drop();
}

void SimConnection::drop()
{
    if (m_closedEmitted)
        return;
    m_closedEmitted = true;
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->deleteLater();
        m_socket = nullptr;
    }
    emit closed(this);
}

void SimConnection::onReadyRead()
{
    if (!m_socket)
        return;
    m_buffer += m_socket->readAll();
    if (m_closing) {
        m_buffer.clear();
        return;
    }
    parse();
}

void SimConnection::protocolError(int status, const char *message)
{
    m_closing = true;
    m_buffer.clear();
    write(SimRenderer::jsonError(status, SimRenderer::jsonString(QString::fromLatin1(message)),
                                 false, {}));
    if (m_socket)
        m_socket->disconnectFromHost();
}

void SimConnection::parse()
{
    if (!m_socket || m_busy || m_closing)
        return;
    if (!m_haveHead) {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_buffer.size() > kMaxHeadBytes)
                protocolError(431, "request header block too large");
            return;
        }
        SimHttpRequest r;
        r.tAccept = monotonicNs();
        const QByteArray headBlock = m_buffer.left(end);
        m_buffer.remove(0, end + 4);
        const QList<QByteArray> lines = headBlock.split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        if (requestLine.size() != 3 || requestLine[0].isEmpty() ||
            !requestLine[1].startsWith('/')) {
            protocolError(400, "malformed request line");
            return;
        }
        r.method = requestLine[0];
        r.target = requestLine[1];
        r.version = requestLine[2];
        if (r.version != "HTTP/1.1" && r.version != "HTTP/1.0") {
            protocolError(505, "only HTTP/1.0 and HTTP/1.1 are supported");
            return;
        }
        const qsizetype q = r.target.indexOf('?');
        r.path = q < 0 ? r.target : r.target.left(q);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].trimmed();
            if (line.isEmpty())
                continue;
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0) {
                protocolError(400, "malformed header line");
                return;
            }
            r.headers.append({line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
        }
        const QByteArray connection = r.header("connection").toLower();
        r.keepAlive = r.version == "HTTP/1.1" ? !connection.contains("close")
                                              : connection.contains("keep-alive");
        if (r.hasHeader("transfer-encoding")) {
            protocolError(501, "chunked request bodies are not supported; send content-length");
            return;
        }
        m_bodyLength = 0;
        if (r.hasHeader("content-length")) {
            bool ok = false;
            m_bodyLength = r.header("content-length").toLongLong(&ok);
            if (!ok || m_bodyLength < 0) {
                protocolError(400, "invalid content-length");
                return;
            }
            if (m_bodyLength > kMaxBodyBytes) {
                protocolError(413, "request body too large");
                return;
            }
        }
        m_pending = std::move(r);
        m_haveHead = true;
        m_sentContinue = false;
    }
    if (m_buffer.size() < m_bodyLength) {
        // curl waits a second for this before sending a body over 1 KiB.
        if (!m_sentContinue && m_pending.header("expect").toLower() == "100-continue") {
            m_sentContinue = true;
            write(QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n"));
        }
        return;
    }
    m_pending.body = m_buffer.left(m_bodyLength);
    m_buffer.remove(0, m_bodyLength);
    m_haveHead = false;
    m_busy = true;
    SimHttpRequest r = std::move(m_pending);
    m_pending = SimHttpRequest();
    emit requestReady(this, r);
}

} // namespace sb
