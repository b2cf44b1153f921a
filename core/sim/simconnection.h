#pragma once

#include "simhttprequest.h"

#include <QByteArray>
#include <QObject>

class QTcpSocket;

namespace sb {

// One accepted HTTP/1.1 connection of the simulator: parses requests from the byte stream
// (partial and pipelined bytes included), answers protocol errors itself, and hands complete
// requests to the server one at a time. The next pipelined request is parsed only after the
// server called finishResponse() for the current one, as HTTP/1.1 requires responses in order.
class SimConnection : public QObject
{
    Q_OBJECT
public:
    SimConnection(QTcpSocket *socket, quint64 id, QObject *parent = nullptr);
    ~SimConnection() override;

    quint64 id() const { return m_id; }
    bool isOpen() const { return m_socket != nullptr; }

    // One write call, flushed at once so the bytes leave now rather than at the next event loop
    // turn.
    void write(const QByteArray &bytes);
    // The response to the current request is complete; closes when it was not keep-alive,
    // otherwise goes on with any pipelined request already buffered.
    void finishResponse(bool keepAlive);
    // Resets the connection (RST): no graceful end of the response.
    void reset();
    // Closes without waiting for anything else (simulator shutdown).
    void abort();

signals:
    void requestReady(sb::SimConnection *connection, const sb::SimHttpRequest &request);
    // Emitted once, when the peer closed or the connection was reset or aborted.
    void closed(sb::SimConnection *connection);

private:
    void onReadyRead();
    void parse();
    void protocolError(int status, const char *message);
    void drop();

    QTcpSocket *m_socket;
    quint64 m_id;
    QByteArray m_buffer;
    bool m_busy = false;    // a request was handed over and its response is not finished
    bool m_closing = false; // stop reading: the connection ends after the current write
    bool m_haveHead = false;
    bool m_sentContinue = false;
    SimHttpRequest m_pending; // head parsed, body still arriving
    qsizetype m_bodyLength = 0;
    bool m_closedEmitted = false;
};

} // namespace sb
