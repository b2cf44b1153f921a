#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

namespace sb {

// One parsed HTTP/1.1 request as the simulator's connection hands it over.
struct SimHttpRequest
{
    QByteArray method;
    QByteArray target;                            // as sent, with any query string
    QByteArray path;                              // target without the query string
    QByteArray version;                           // "HTTP/1.1" or "HTTP/1.0"
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased, values trimmed
    QByteArray body;
    bool keepAlive = true;
    qint64 tAccept = 0; // monotonic ns when the header block was complete

    QByteArray header(const QByteArray &lowerName) const
    {
        for (const auto &h : headers) {
            if (h.first == lowerName)
                return h.second;
        }
        return {};
    }
    bool hasHeader(const QByteArray &lowerName) const
    {
        for (const auto &h : headers) {
            if (h.first == lowerName)
                return true;
        }
        return false;
    }
};

} // namespace sb
