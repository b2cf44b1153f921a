#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QUrl>

namespace sb {

// The bytes of one HTTP/1.1 POST as the socket transport sends it: request line, Host,
// the caller's headers, Content-Length, and defaults for what the caller did not set
// (Content-Type: application/json, Accept-Encoding: identity — a compressed SSE stream would be
// buffered by the decompressor — and User-Agent). The connection stays open (HTTP/1.1 default).
// With a proxy (a plain-http request sent to an HTTP proxy) the request target is the absolute
// URL (RFC 9112 §3.2.2) and the proxy's credentials, if its URL has any, go in
// Proxy-Authorization.
QByteArray serializeHttpRequest(const QUrl &url,
                                const QList<QPair<QByteArray, QByteArray>> &headers,
                                const QByteArray &body, const QUrl &proxy = {});

// "host:port" with the scheme's default port filled in; the key of a keep-alive pool.
QByteArray hostPortKey(const QUrl &url);

} // namespace sb
