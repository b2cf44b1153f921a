#include "httpexchange.h"

#include "client/httprequestwriter.h"

using namespace Qt::StringLiterals;

namespace sb {

struct HttpExchange::Sink
{
    StreamAccumulator *acc;
    qint64 t;
    void onHead(int status) { acc->onHttpStatus(status); }
    void onBody(const char *d, qsizetype n) { acc->onBytes(d, n, t); }
};

HttpExchange::HttpExchange(RequestJob &&job)
    // An https request through a proxy is written as for the origin: the tunnel carries it.
    : m_request(serializeHttpRequest(job.url, job.headers, job.body,
                                     job.url.scheme() == "https"_L1 ? QUrl() : job.proxy)),
      m_url(std::move(job.url)), m_proxy(std::move(job.proxy)), m_timeoutNs(job.timeoutNs),
      m_record(std::move(job.record)), m_acc(job.flavour, &m_record)
{
    m_acc.setCaptureText(job.captureText);
}

HttpExchange::Progress HttpExchange::onBytes(const char *data, qsizetype size, qint64 tRecvNs)
{
    m_responseBytes += size;
    Sink sink{&m_acc, tRecvNs};
    if (!m_parser.feed(data, size, sink))
        return Progress::Failed;
    if (m_parser.done())
        return Progress::Done;
    return m_acc.complete() ? Progress::Complete : Progress::More;
}

HttpExchange::Progress HttpExchange::onEof()
{
    return m_parser.onEof() ? Progress::Done : Progress::Failed;
}

QString HttpExchange::protocolError() const
{
    return u"malformed HTTP response: %1"_s.arg(QString::fromLatin1(m_parser.errorString()));
}

RequestRecord HttpExchange::finish(ErrorClass transportError, const QString &message, qint64 tEndNs)
{
    if (!m_parser.headComplete() && transportError == ErrorClass::None)
        transportError = ErrorClass::Reset; // no response at all is never a clean end
    m_acc.finish(transportError, message, tEndNs);
    return std::move(m_record);
}

} // namespace sb
