#include "httpexchange.h"

#include "client/httprequestwriter.h"
#include "client/requestbuilder.h"

using namespace Qt::StringLiterals;

namespace sb {

struct HttpExchange::Sink
{
    StreamAccumulator *acc;
    RequestRecord *record;
    qint64 t;
    void onHead(int status)
    {
        record->tHeadReceived = t;
        acc->onHttpStatus(status);
    }
    void onBody(const char *d, qsizetype n) { acc->onBytes(d, n, t); }
};

HttpExchange::HttpExchange(RequestJob &&job, const ResponseLimits &limits,
                           const Tokenizer *tokenizer)
    : m_url(std::move(job.url)), m_proxy(std::move(job.proxy)), m_timeoutNs(job.timeoutNs),
      m_idleTimeoutNs(job.idleTimeoutNs), m_limits(limits), m_record(std::move(job.record)),
      m_acc(job.flavour, &m_record), m_cancelAfterNs(job.cancelAfterNs),
      m_cancelAfterChunks(job.cancelAfterChunks)
{
    for (const auto &[name, value] : std::as_const(job.headers)) {
        if (!validateHeader(QByteArrayView(name), QByteArrayView(value), &m_invalid)) {
            m_invalid = u"request not sent: "_s + m_invalid;
            return;
        }
    }
    // An https request through a proxy is written as for the origin: the tunnel carries it.
    m_request = serializeHttpRequest(m_url, job.headers, job.body,
                                     m_url.scheme() == "https"_L1 ? QUrl() : m_proxy);
    m_acc.setLimits(limits);
    m_acc.setCaptureText(job.captureText);
    m_acc.setTokenizer(tokenizer);
    m_parser.setMaxHeadBytes(limits.maxHeadBytes);
}

void HttpExchange::markConnection(ConnectionUse use)
{
    m_record.connection = use;
    if (use != ConnectionUse::New)
        m_record.tConnectStart = m_record.tConnected = m_record.tTlsDone = 0;
}

HttpExchange::Progress HttpExchange::failWith(ErrorClass error, const QString &message)
{
    m_failureClass = error;
    m_failureMessage = message;
    return Progress::Failed;
}

HttpExchange::Progress HttpExchange::onBytes(const char *data, qsizetype size, qint64 tRecvNs)
{
    m_responseBytes += size;
    Sink sink{&m_acc, &m_record, tRecvNs};
    if (!m_parser.feed(data, size, sink)) {
        if (m_parser.headTooLarge())
            return failWith(
                ErrorClass::Oversize,
                u"the response head exceeded the cap of %1 bytes"_s.arg(m_parser.maxHeadBytes()));
        return failWith(ErrorClass::Transport, u"malformed HTTP response: %1"_s.arg(
                                                   QString::fromLatin1(m_parser.errorString())));
    }
    if (m_acc.oversize())
        return failWith(ErrorClass::Oversize, m_record.errorMessage);
    // Framing and trailers count too: a server can stream those without end as well.
    if (m_limits.maxBodyBytes > 0 && m_parser.bodyWireBytes() > m_limits.maxBodyBytes)
        return failWith(
            ErrorClass::Oversize,
            u"the response body exceeded the cap of %1 bytes"_s.arg(m_limits.maxBodyBytes));
    if (m_parser.done())
        return Progress::Done;
    return m_acc.complete() ? Progress::Complete : Progress::More;
}

HttpExchange::Progress HttpExchange::onEof()
{
    if (m_parser.onEof())
        return Progress::Done;
    return failWith(ErrorClass::Reset, {});
}

QString loadCancelMessage(qint64 cancelAfterNs, int cancelAfterChunks)
{
    if (cancelAfterChunks > 0)
        return u"cancelled by the load after %1 token chunks"_s.arg(cancelAfterChunks);
    return u"cancelled by the load %1 s after the request was written"_s.arg(
        double(cancelAfterNs) / 1e9, 0, 'g', 6);
}

QString HttpExchange::cancelMessage() const
{
    return loadCancelMessage(m_cancelAfterNs, m_cancelAfterChunks);
}

RequestRecord HttpExchange::finish(ErrorClass transportError, const QString &message, qint64 tEndNs)
{
    if (!m_parser.headComplete() && transportError == ErrorClass::None)
        transportError = ErrorClass::Reset; // no response at all is never a clean end
    m_acc.finish(transportError, message, tEndNs);
    if (transportError == ErrorClass::Oversize) {
        // A broken cap wins over what the status line said: the response was cut off by us.
        m_record.error = ErrorClass::Oversize;
        m_record.errorMessage = message;
    }
    return std::move(m_record);
}

} // namespace sb
