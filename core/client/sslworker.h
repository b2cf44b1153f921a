#pragma once

#include "client/transport.h"

#include <QAbstractSocket>
#include <QHash>
#include <QList>
#include <QObject>
#include <QSslCertificate>
#include <atomic>
#include <functional>
#include <memory>

class QSslSocket;
class QTimer;

namespace sb {

class HttpExchange;

// The https half of the socket transport: QSslSocket connections (system CA store, plus any
// certificates the caller adds) in one Qt worker thread, speaking the same hand-written
// HTTP/1.1 as the epoll worker, with keep-alive reuse per host:port and one request per
// connection. Qt's event loop polls every socket on every wake-up and TLS records arrive
// through Qt's buffers, so receive times are taken in readyRead (no kernel timestamps);
// high-concurrency measurements over TLS carry that cost. Lives in its own thread; every
// public slot is called through a queued invocation.
class SslWorker : public QObject
{
    Q_OBJECT
public:
    using Finished = std::function<void(RequestRecord &&)>;

    SslWorker(Finished finished, QList<QSslCertificate> extraCaCertificates,
              QObject *parent = nullptr);
    ~SslWorker() override;

    std::atomic<int> inFlight{0};

    void start(RequestJob &&job);
    void cancelAll();
    void tearDown();

private:
    struct Conn;
    Conn *takeIdle(const QByteArray &key);
    void send(Conn *c);
    // False when the connection's exchange ended (c may be deleted).
    bool onReadyRead(Conn *c);
    void onClosed(Conn *c, QAbstractSocket::SocketError error);
    void onTimeout(Conn *c);
    void endExchange(Conn *c, ErrorClass error, const QString &message, qint64 tEnd, bool reuse);
    void dropConn(Conn *c);
    void retry(Conn *c);
    void dispatch(std::unique_ptr<HttpExchange> ex, bool fresh);

    Finished m_finished;
    QList<QSslCertificate> m_extraCa;
    QHash<QByteArray, QList<Conn *>> m_idle;
    QList<Conn *> m_conns; // every open connection, idle or not
    QByteArray m_buffer;
};

} // namespace sb
