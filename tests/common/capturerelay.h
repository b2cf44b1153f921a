#pragma once

// A TCP relay on loopback, in a thread of its own, that forwards every connection to an upstream
// port and keeps every byte the clients sent: what really reached the server (request lines and
// headers), for tests that must see a credential arrive. The CLI under test runs in a child
// process while the test thread waits, so the relay cannot live in the test's thread.

#include <QHostAddress>
#include <QMutex>
#include <QMutexLocker>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

namespace sb::test {

class CaptureRelay
{
public:
    explicit CaptureRelay(quint16 upstreamPort) : m_upstream(upstreamPort)
    {
        m_context = new QObject;
        m_context->moveToThread(&m_thread);
        m_thread.start();
        QMetaObject::invokeMethod(
            m_context, [this] { listen(); }, Qt::BlockingQueuedConnection);
    }
    ~CaptureRelay()
    {
        QMetaObject::invokeMethod(
            m_context, [c = m_context] { delete c; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    CaptureRelay(const CaptureRelay &) = delete;
    CaptureRelay &operator=(const CaptureRelay &) = delete;

    quint16 port() const { return m_port; }
    QByteArray received() const
    {
        QMutexLocker lock(&m_mutex);
        return m_received;
    }

private:
    void listen()
    {
        auto *server = new QTcpServer(m_context);
        QObject::connect(
            server, &QTcpServer::pendingConnectionAvailable, m_context, [this, server] {
                while (QTcpSocket *client = server->nextPendingConnection()) {
                    client->setParent(m_context);
                    auto *up = new QTcpSocket(client);
                    up->connectToHost(QHostAddress::LocalHost, m_upstream);
                    QObject::connect(client, &QTcpSocket::readyRead, up, [this, client, up] {
                        const QByteArray bytes = client->readAll();
                        {
                            QMutexLocker lock(&m_mutex);
                            m_received += bytes;
                        }
                        up->write(bytes);
                    });
                    QObject::connect(up, &QTcpSocket::readyRead, client,
                                     [client, up] { client->write(up->readAll()); });
                    QObject::connect(up, &QTcpSocket::disconnected, client,
                                     [client] { client->disconnectFromHost(); });
                    QObject::connect(client, &QTcpSocket::disconnected, client, [client, up] {
                        up->disconnectFromHost();
                        client->deleteLater();
                    });
                }
            });
        if (server->listen(QHostAddress::LocalHost))
            m_port = server->serverPort();
    }

    quint16 m_upstream;
    quint16 m_port = 0;
    QThread m_thread;
    QObject *m_context;
    mutable QMutex m_mutex;
    QByteArray m_received;
};

} // namespace sb::test
