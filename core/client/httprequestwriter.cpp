#include "httprequestwriter.h"

#include "common/version.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
bool sameName(const QByteArray &a, const char *b)
{
    return a.compare(QByteArrayView(b), Qt::CaseInsensitive) == 0;
}

int defaultPort(const QUrl &url)
{
    return url.port(url.scheme() == "https"_L1 ? 443 : 80);
}
} // namespace

QByteArray hostPortKey(const QUrl &url)
{
    QByteArray host = url.host(QUrl::FullyEncoded).toLatin1();
    if (host.contains(':'))
        host = '[' + host + ']'; // IPv6 literal: keep the port separable
    return host + ':' + QByteArray::number(defaultPort(url));
}

QByteArray serializeHttpRequest(const QUrl &url,
                                const QList<QPair<QByteArray, QByteArray>> &headers,
                                const QByteArray &body, const QUrl &proxy)
{
    bool hasType = false, hasEncoding = false, hasAgent = false, hasAccept = false;
    qsizetype headerBytes = 0;
    for (const auto &[k, v] : headers) {
        hasType |= sameName(k, "content-type");
        hasEncoding |= sameName(k, "accept-encoding");
        hasAgent |= sameName(k, "user-agent");
        hasAccept |= sameName(k, "accept");
        headerBytes += k.size() + v.size() + 4;
    }
    QByteArray path = url.path(QUrl::FullyEncoded).toLatin1();
    if (path.isEmpty())
        path = "/";
    if (url.hasQuery())
        path += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    QByteArray host = url.host(QUrl::FullyEncoded).toLatin1();
    if (host.contains(':'))
        host = '[' + host + ']'; // IPv6 literal
    const bool https = url.scheme() == "https"_L1;
    if (url.port() > 0 && url.port() != (https ? 443 : 80))
        host += ':' + QByteArray::number(url.port());

    if (!proxy.isEmpty())
        path = url.scheme().toLatin1() + "://" + host + path;

    QByteArray out;
    out.reserve(path.size() + host.size() + headerBytes + body.size() + 256);
    out += "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\n";
    if (!proxy.isEmpty() && !proxy.userName().isEmpty()) {
        const QByteArray credentials =
            (proxy.userName() + u':' + proxy.password()).toUtf8().toBase64();
        out += "Proxy-Authorization: Basic " + credentials + "\r\n";
    }
    for (const auto &[k, v] : headers) {
        // Framing is ours to decide: a caller's Content-Length or Transfer-Encoding would lie.
        if (sameName(k, "content-length") || sameName(k, "transfer-encoding") ||
            sameName(k, "host") || sameName(k, "connection") || sameName(k, "proxy-authorization"))
            continue;
        out += k + ": " + v + "\r\n";
    }
    if (!hasType)
        out += "Content-Type: application/json\r\n";
    if (!hasAccept)
        out += "Accept: text/event-stream\r\n";
    if (!hasEncoding)
        out += "Accept-Encoding: identity\r\n";
    if (!hasAgent)
        out += QByteArray("User-Agent: servebench/") + toolVersion() + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
    out += body;
    return out;
}

} // namespace sb
