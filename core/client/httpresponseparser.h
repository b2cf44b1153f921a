#pragma once

#include "client/chunkeddecoder.h"

#include <QByteArray>
#include <QtGlobal>

namespace sb {

// Incremental parser of one HTTP/1.1 response (RFC 9112): status line, header fields, then a
// body delimited by Content-Length, chunked transfer coding, or the end of the connection.
// Interim 1xx responses are skipped. Body bytes are handed out as views into the caller's
// bytes, de-chunked, so the protocol layer above sees only the payload.
//
// Sink: void onHead(int status); void onBody(const char *data, qsizetype size).
class HttpResponseParser
{
public:
    enum class BodyKind : quint8 { None, Length, Chunked, UntilClose };

    // Ready for the next response on the same connection; keeps buffers' capacity.
    void reset();
    // The cap on the head (status line and fields, interim 1xx heads included); 0 = none.
    void setMaxHeadBytes(qint64 max) { m_maxHead = max; }
    // The head passed the cap: the error is the response's size, not its syntax.
    bool headTooLarge() const { return m_headTooLarge; }
    qint64 maxHeadBytes() const { return m_maxHead; }

    // Feeds bytes received from the connection. Returns false on a protocol error (see
    // errorString()). Bytes beyond the end of the response are counted in extraBytes().
    template <class Sink> bool feed(const char *p, qsizetype n, Sink &sink);

    // The peer closed the connection cleanly. Returns true when that ends the response
    // properly (a body delimited by the close); false when the response was cut short.
    bool onEof();

    bool headComplete() const { return m_state != State::Head; }
    bool done() const { return m_state == State::Done; }
    bool failed() const { return m_state == State::Error; }
    int status() const { return m_status; }
    // The connection may carry another request once this response is done.
    bool keepAlive() const { return m_keepAlive && m_body != BodyKind::UntilClose; }
    BodyKind bodyKind() const { return m_body; }
    qsizetype extraBytes() const { return m_extra; }
    // Bytes of the body as received so far, chunk framing and trailers included.
    qint64 bodyWireBytes() const { return m_bodyWire; }
    const char *errorString() const { return m_error; }

private:
    enum class State : quint8 { Head, Body, Done, Error };

    // Consumes head bytes; returns how many, or -1 on an error. Sets m_state to Body/Done when
    // the head of a final (non-1xx) response is complete.
    qsizetype feedHead(const char *p, qsizetype n);
    bool parseHead(); // m_head holds one complete head
    bool fail(const char *why)
    {
        m_state = State::Error;
        m_error = why;
        return false;
    }

    QByteArray m_head; // the head so far; heads are small and arrive once per response
    ChunkedDecoder m_chunked;
    qint64 m_remaining = 0; // Content-Length bytes still due
    qint64 m_bodyWire = 0;
    qsizetype m_extra = 0;
    qint64 m_maxHead = 64 * 1024;
    qint64 m_headBytes = 0; // head bytes of this response so far, interim heads included
    int m_status = 0;
    State m_state = State::Head;
    BodyKind m_body = BodyKind::None;
    bool m_keepAlive = true;
    bool m_headAnnounced = false;
    bool m_headTooLarge = false;
    const char *m_error = "";
};

template <class Sink> bool HttpResponseParser::feed(const char *p, qsizetype n, Sink &sink)
{
    while (n > 0) {
        switch (m_state) {
        case State::Head: {
            const qsizetype used = feedHead(p, n);
            if (used < 0)
                return false;
            p += used;
            n -= used;
            if (m_state != State::Head && !m_headAnnounced) {
                m_headAnnounced = true;
                sink.onHead(m_status);
            }
            break;
        }
        case State::Body:
            if (m_body == BodyKind::Chunked) {
                const qsizetype used = m_chunked.feed(
                    p, n, [&sink](const char *d, qsizetype k) { sink.onBody(d, k); });
                m_bodyWire += used;
                p += used;
                n -= used;
                if (m_chunked.failed())
                    return fail(m_chunked.errorString());
                if (m_chunked.done())
                    m_state = State::Done;
            } else if (m_body == BodyKind::Length) {
                const qsizetype take = qsizetype(std::min<qint64>(m_remaining, n));
                sink.onBody(p, take);
                m_bodyWire += take;
                p += take;
                n -= take;
                m_remaining -= take;
                if (m_remaining == 0)
                    m_state = State::Done;
            } else { // UntilClose
                sink.onBody(p, n);
                m_bodyWire += n;
                n = 0;
            }
            break;
        case State::Done:
            // No pipelining: nothing may follow a response except after a new request.
            m_extra += n;
            return true;
        case State::Error:
            return false;
        }
    }
    return m_state != State::Error;
}

} // namespace sb
