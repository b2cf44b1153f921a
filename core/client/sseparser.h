#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <cstring>

namespace sb {

// Incremental Server-Sent-Events parser (WHATWG HTML §9.2.6, the subset an OpenAI-compatible
// stream needs): only `data` fields matter; `event`, `id`, `retry`, unknown fields and `:`
// comments are skipped. Lines end with \r\n, \n or a lone \r; input may be cut at any byte.
//
// feed() calls onData(QByteArrayView) once per complete event that carried at least one data
// line, with the data lines joined by \n. The view is only valid during the call. During the
// call, eventTime() is the time given to the feed() that completed the event's last data line:
// the event's content was all there then, whenever the blank line that dispatches it came (a
// server may send that with the next event). It is cheap by
// construction: when an event's single data line lies inside one read (the usual case) the view
// points straight into the caller's bytes; otherwise the event is gathered in a buffer that keeps
// its capacity, so a steady stream allocates nothing per event.
class SseParser
{
public:
    // tRead: when these bytes were received (any clock; only handed back by eventTime()).
    template <class F> void feed(const char *p, qsizetype n, qint64 tRead, F &&onData);
    template <class F> void feed(const char *p, qsizetype n, F &&onData) { feed(p, n, 0, onData); }
    template <class F> void feed(QByteArrayView bytes, F &&onData)
    {
        feed(bytes.data(), bytes.size(), 0, onData);
    }
    qint64 eventTime() const { return m_dataTime; }

    // Delivers an event whose data lines were all terminated but whose closing blank line never
    // came (the stream ended right after "data: [DONE]\n"). A partial last line is dropped: a
    // line cut short by a closed connection is not data the server finished sending.
    // Returns true when an event was delivered.
    template <class F> bool flush(F &&onData);

    // Forgets everything buffered, keeping the buffers' capacity.
    void reset();

    // Bytes held back between reads (part of a line or of an event's data): for diagnostics and
    // for callers that want to bound memory against a server that never ends a line.
    qsizetype bufferedBytes() const { return m_line.size() + m_data.size() + m_view.size(); }

private:
    // Consumes one complete line; may call onData when the line is blank.
    // inCallerBytes: l points into feed()'s input, not into m_line.
    template <class F> void line(QByteArrayView l, bool inCallerBytes, F &&onData);
    // Copies the zero-copy data view into m_data before the caller's bytes go away.
    void own();
    void clearEvent()
    {
        m_data.resize(0); // resize, not clear(): clear() would free the capacity
        m_view = {};
        m_owned = false;
        m_dataLines = 0;
    }

    QByteArray m_line;     // an unfinished line carried over from the previous read
    QByteArray m_data;     // data of the current event, once it has to own its bytes
    QByteArrayView m_view; // data of the current event while it lies inside the current read
    qint64 m_readTime = 0; // tRead of the current feed()
    qint64 m_dataTime = 0; // tRead of the feed() that completed the current event's last data line
    int m_dataLines = 0;   // data lines seen in the current event
    bool m_owned = false;  // the current event's data lives in m_data, not in m_view
    bool m_skipLf = false; // the previous read ended in \r, so a leading \n closes that same line
};

template <class F> void SseParser::feed(const char *p, qsizetype n, qint64 tRead, F &&onData)
{
    m_readTime = tRead;
    const char *const end = p + n;
    if (m_skipLf && p < end) {
        m_skipLf = false;
        if (*p == '\n')
            ++p;
    }
    const char *nl = nullptr; // the next \n at or after p, or end; searched again once passed
    while (p < end) {
        if (!nl || nl < p) {
            nl = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
            if (!nl)
                nl = end;
        }
        // Lone \r line ends are rare but legal; the search stops at the next \n, so it stays
        // linear.
        const char *eol = static_cast<const char *>(std::memchr(p, '\r', size_t(nl - p)));
        if (!eol)
            eol = nl;
        if (eol == end) {
            m_line.append(p, end - p);
            break;
        }
        if (m_line.isEmpty()) {
            line(QByteArrayView(p, eol - p), true, onData);
        } else {
            m_line.append(p, eol - p);
            line(QByteArrayView(m_line), false, onData);
            m_line.resize(0);
        }
        p = eol + 1;
        if (*eol == '\r') {
            if (p == end)
                m_skipLf = true;
            else if (*p == '\n')
                ++p;
        }
    }
    if (m_dataLines > 0)
        own();
}

template <class F> void SseParser::line(QByteArrayView l, bool inCallerBytes, F &&onData)
{
    if (l.isEmpty()) {
        if (m_dataLines > 0) {
            onData(m_owned ? QByteArrayView(m_data) : m_view);
            clearEvent();
        }
        return;
    }
    if (l.front() == ':')
        return;
    QByteArrayView value;
    const qsizetype colon = l.indexOf(':');
    if (colon < 0) {
        if (l != "data")
            return;
    } else {
        if (l.first(colon) != "data")
            return;
        value = l.sliced(colon + 1);
        if (!value.isEmpty() && value.front() == ' ')
            value = value.sliced(1);
    }
    // A line gathered in m_line is overwritten by the next read, so only a line that lies in the
    // caller's bytes can be kept as a view.
    if (m_dataLines == 0 && inCallerBytes) {
        m_view = value;
    } else {
        own();
        if (m_dataLines > 0)
            m_data.append('\n');
        m_data.append(value.data(), value.size());
    }
    ++m_dataLines;
    m_dataTime = m_readTime;
}

template <class F> bool SseParser::flush(F &&onData)
{
    m_line.resize(0);
    m_skipLf = false;
    if (m_dataLines == 0)
        return false;
    onData(m_owned ? QByteArrayView(m_data) : m_view);
    clearEvent();
    return true;
}

} // namespace sb
