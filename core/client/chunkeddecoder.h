#pragma once

#include <QtGlobal>

#include <algorithm>

namespace sb {

// Removes HTTP/1.1 chunked transfer framing (RFC 9112 §7.1) from a byte stream cut at arbitrary
// points. Chunk data is handed out as views into the caller's bytes, never copied: an SSE stream
// is mostly small chunks, and copying each one would double the work of the hot path.
// Chunk extensions are ignored; trailer fields are read and dropped.
class ChunkedDecoder
{
public:
    enum class State : quint8 {
        Size,
        Extension,
        SizeLf,
        Data,
        DataCr,
        DataLf,
        Trailer,
        Done,
        Error
    };

    void reset()
    {
        m_state = State::Size;
        m_remaining = 0;
        m_sizeDigits = 0;
        m_trailerLineLength = 0;
    }
    bool done() const { return m_state == State::Done; }
    bool failed() const { return m_state == State::Error; }
    const char *errorString() const { return m_error; }

    // Decodes p[0, n) and calls onData(const char *, qsizetype) for each run of body bytes.
    // Returns the bytes consumed: fewer than n only when the body ended (done()) or on an error.
    template <class F> qsizetype feed(const char *p, qsizetype n, F &&onData);

private:
    bool fail(const char *why)
    {
        m_state = State::Error;
        m_error = why;
        return false;
    }
    // One framing byte outside chunk data; false on a protocol error.
    bool framingByte(char c);

    State m_state = State::Size;
    qint64 m_remaining = 0; // data bytes left in the current chunk
    int m_sizeDigits = 0;   // hex digits of the current size line
    int m_trailerLineLength =
        0; // bytes of the current trailer line (0 = the empty line may end it)
    const char *m_error = "";
};

template <class F> qsizetype ChunkedDecoder::feed(const char *p, qsizetype n, F &&onData)
{
    const char *const begin = p;
    const char *const end = p + n;
    while (p < end) {
        if (m_state == State::Data) {
            const qsizetype take = qsizetype(std::min<qint64>(m_remaining, end - p));
            onData(p, take);
            p += take;
            m_remaining -= take;
            if (m_remaining == 0)
                m_state = State::DataCr;
            continue;
        }
        if (m_state == State::Done || m_state == State::Error)
            break;
        if (!framingByte(*p++))
            break;
        if (m_state == State::Done)
            break;
    }
    return p - begin;
}

} // namespace sb
