#pragma once

#include "client/httpresponseparser.h"
#include "client/streamaccumulator.h"
#include "client/transport.h"

#include <QByteArray>

namespace sb {

// One request/response on a socket-level connection: the request bytes, the HTTP response
// parser and the protocol layer (StreamAccumulator) wired together. It knows nothing of
// sockets; the workers feed it what they read and tell it how the connection ended.
// Not movable: the accumulator holds a pointer to the record inside.
class HttpExchange
{
public:
    enum class Progress : quint8 {
        More,     // keep reading
        Done,     // the response ended; the connection may be reused when keepAlive()
        Complete, // the stream said [DONE] (or failed) but the response has not ended yet
        Failed,   // malformed HTTP or a size cap broken: close the connection (failure*())
    };

    // Builds the request bytes (in the caller's thread: the workers only send them). A request
    // that may not be sent (a header with CR, LF or NUL) is marked invalid(), never written.
    // tokenizer: counts the response's text (StreamAccumulator::setTokenizer); may be null.
    HttpExchange(RequestJob &&job, const ResponseLimits &limits = {},
                 const Tokenizer *tokenizer = nullptr);
    HttpExchange(const HttpExchange &) = delete;
    HttpExchange &operator=(const HttpExchange &) = delete;

    // Why the request may not be sent; empty when it may.
    const QString &invalid() const { return m_invalid; }
    const QByteArray &requestBytes() const { return m_request; }
    void releaseRequestBytes() { m_request = QByteArray(); } // an open stream holds no copy
    qint64 timeoutNs() const { return m_timeoutNs; }
    qint64 idleTimeoutNs() const { return m_idleTimeoutNs; }
    const QUrl &url() const { return m_url; }
    // The HTTP proxy the request goes through (empty: direct), and where to connect: the proxy
    // for a proxied plain-http request, the origin otherwise (https tunnels keep the origin).
    const QUrl &proxy() const { return m_proxy; }
    const QUrl &connectUrl() const
    {
        return m_proxy.isEmpty() || m_url.scheme() == QLatin1StringView("https") ? m_url : m_proxy;
    }

    void markSent(qint64 tSendNs) { m_record.tSend = tSendNs; }
    qint64 sendTime() const { return m_record.tSend; }
    // Connection phases (RequestRecord::tConnectStart …). A new connection for this exchange
    // (also a retry's) sets use New and its own phase times; a reused one clears them.
    void markConnection(ConnectionUse use);
    void markConnectStart(qint64 t) { m_record.tConnectStart = t; }
    void markConnected(qint64 t) { m_record.tConnected = t; }
    void markTlsDone(qint64 t) { m_record.tTlsDone = t; }
    void markRequestWritten(qint64 t) { m_record.tRequestWritten = t; }

    // Bytes read from the connection, received at tRecvNs.
    Progress onBytes(const char *data, qsizetype size, qint64 tRecvNs);
    // The peer closed the connection cleanly (read returned 0).
    Progress onEof();

    bool anyResponseBytes() const { return m_responseBytes > 0; }
    bool keepAlive() const { return m_parser.keepAlive() && m_parser.extraBytes() == 0; }
    bool streamComplete() const { return m_acc.complete(); }
    // After Progress::Failed: Transport (malformed HTTP) or Oversize, and what was wrong.
    ErrorClass failureClass() const { return m_failureClass; }
    QString failureMessage() const { return m_failureMessage; }

    // A reused keep-alive connection that the server had already closed: the request may be
    // sent once more on a fresh connection.
    bool mayRetry() const { return !m_retried && m_responseBytes == 0; }
    void markRetried() { m_retried = true; }

    // The cancellation load (RequestJob::cancelAfterNs, cancelAfterChunks): when this exchange
    // is to be closed by the client. cancelAtNs() is t_request_written + the delay once the
    // request is written (0 before, or without a delay); cancelDue() says the chunk count is
    // reached while the stream still goes on. A stream that said [DONE] is never cancelled.
    qint64 cancelAtNs() const
    {
        return m_cancelAfterNs >= 0 && m_record.tRequestWritten > 0
                   ? m_record.tRequestWritten + m_cancelAfterNs
                   : 0;
    }
    bool cancelDue() const
    {
        return m_cancelAfterChunks > 0 && m_record.chunkTimes.size() >= m_cancelAfterChunks &&
               !m_acc.complete();
    }
    bool cancelAllowed() const { return !m_acc.complete(); }
    // The record's message for a cancelled exchange ("cancelled by the load after 5 token
    // chunks" / "… 0.2 s after the request was written").
    QString cancelMessage() const;

    // Ends the exchange; transportError None when the response ended properly.
    RequestRecord finish(ErrorClass transportError, const QString &message, qint64 tEndNs);

private:
    struct Sink;
    Progress failWith(ErrorClass error, const QString &message);

    QByteArray m_request;
    QUrl m_url;
    QUrl m_proxy;
    QString m_invalid;
    qint64 m_timeoutNs = 0;
    qint64 m_idleTimeoutNs = 0;
    ResponseLimits m_limits;
    RequestRecord m_record;
    StreamAccumulator m_acc;
    HttpResponseParser m_parser;
    qint64 m_responseBytes = 0;
    ErrorClass m_failureClass = ErrorClass::None;
    QString m_failureMessage;
    bool m_retried = false;
    qint64 m_cancelAfterNs = -1;
    int m_cancelAfterChunks = 0;
};

} // namespace sb
