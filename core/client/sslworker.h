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
// certificates the options add) in one Qt worker thread, speaking the same hand-written
// HTTP/1.1 as the epoll worker, with keep-alive reuse per host:port and one request per
// connection. Qt's event loop polls every socket on every wake-up and TLS records arrive
// through Qt's buffers, so receive times are taken in readyRead (no kernel timestamps);
// high-concurrency measurements over TLS carry that cost. Lives in its own thread; every
// public slot is called through a queued invocation, except prewarm(), which blocks its caller.
class SslWorker : public QObject
{
    Q_OBJECT
public:
    using Finished = std::function<void(RequestRecord &&)>;

    SslWorker(Finished finished, const TransportOptions &options, QObject *parent = nullptr);
    ~SslWorker() override;

    std::atomic<int> inFlight{0};

    void start(RequestJob &&job);
    void cancelAll();
    void tearDown();
    // From another thread: opens `connections` TLS connections to target's origin (through its
    // proxy) and keeps them idle; blocks until each is encrypted or has failed, or deadlineNs.
    int prewarm(const QUrl &target, int connections, qint64 deadlineNs, QString *error);

private:
    struct Conn;
    struct PrewarmState;
    Conn *takeIdle(const QByteArray &key);
    Conn *newConn(const QUrl &url, const QUrl &proxy);
    void send(Conn *c);
    // False when the connection's exchange ended (c may be deleted).
    bool onReadyRead(Conn *c);
    void onClosed(Conn *c, QAbstractSocket::SocketError error);
    void onTimer(Conn *c);
    void armTimer(Conn *c);
    void prewarmDone(Conn *c, bool ok, const QString &error);
    void endExchange(Conn *c, ErrorClass error, const QString &message, qint64 tEnd, bool reuse);
    void dropConn(Conn *c);
    void retry(Conn *c);
    void dispatch(std::unique_ptr<HttpExchange> ex, bool fresh);

    Finished m_finished;
    TransportOptions m_options;
    QHash<QByteArray, QList<Conn *>> m_idle;
    QList<Conn *> m_conns; // every open connection, idle or not
    QByteArray m_buffer;
};

} // namespace sb
