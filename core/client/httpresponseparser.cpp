#include "httpresponseparser.h"

#include <QByteArrayView>

#include <algorithm>
#include <cstring>

namespace sb {

namespace {

bool equalsIgnoreCase(QByteArrayView a, const char *b)
{
    return a.compare(QByteArrayView(b), Qt::CaseInsensitive) == 0;
}

// True when the comma-separated token list contains token (case-insensitive).
bool hasToken(QByteArrayView list, const char *token)
{
    while (!list.isEmpty()) {
        qsizetype comma = list.indexOf(',');
        const QByteArrayView item = (comma < 0 ? list : list.first(comma)).trimmed();
        if (equalsIgnoreCase(item, token))
            return true;
        if (comma < 0)
            break;
        list = list.sliced(comma + 1);
    }
    return false;
}

// The last transfer coding named: chunked is only final when it is the last one.
QByteArrayView lastToken(QByteArrayView list)
{
    const qsizetype comma = list.lastIndexOf(',');
    return (comma < 0 ? list : list.sliced(comma + 1)).trimmed();
}
} // namespace

void HttpResponseParser::reset()
{
    m_head.resize(0);
    m_chunked.reset();
    m_remaining = 0;
    m_bodyWire = 0;
    m_extra = 0;
    m_status = 0;
    m_state = State::Head;
    m_body = BodyKind::None;
    m_keepAlive = true;
    m_headAnnounced = false;
    m_headTooLarge = false;
    m_headBytes = 0;
    m_error = "";
}

bool HttpResponseParser::onEof()
{
    if (m_state == State::Done)
        return true;
    if (m_state == State::Body && m_body == BodyKind::UntilClose) {
        m_state = State::Done;
        return true;
    }
    return false;
}

qsizetype HttpResponseParser::feedHead(const char *p, qsizetype n)
{
    // The head ends at the first empty line. Search only the new bytes, starting far enough back
    // to catch a terminator split across reads, and keep only the head's bytes: the rest of a
    // read (often the whole body, when the server sends head and body at once) is not copied.
    const qsizetype before = m_head.size();
    const qsizetype size = before + n;
    const auto at = [&](qsizetype i) {
        return i < before ? m_head.at(i) : p[i - before];
    };
    qsizetype endOfHead = -1;
    for (qsizetype i = std::max<qsizetype>(0, before - 3); i < size; ++i) {
        if (i >= before) {
            // Jump to the next \n in the new bytes.
            const void *nl = std::memchr(p + (i - before), '\n', size_t(size - i));
            if (!nl)
                break;
            i = before + (static_cast<const char *>(nl) - p);
        } else if (at(i) != '\n') {
            continue;
        }
        if (i + 1 < size && at(i + 1) == '\n') { // bare-LF head
            endOfHead = i + 2;
            break;
        }
        if (i + 2 < size && at(i + 1) == '\r' && at(i + 2) == '\n') {
            endOfHead = i + 3;
            break;
        }
    }
    m_head.append(p, endOfHead < 0 ? n : endOfHead - before);
    const qint64 headSoFar = m_headBytes + (endOfHead < 0 ? size : endOfHead);
    if (m_maxHead > 0 && headSoFar > m_maxHead) {
        m_headTooLarge = true;
        fail("response head too large");
        return -1;
    }
    if (endOfHead < 0)
        return n;
    m_headBytes += endOfHead;
    const qsizetype used = endOfHead - before;
    if (!parseHead())
        return -1;
    if (m_status >= 100 && m_status < 200) {
        // An interim response (100 Continue, 103 Early Hints): the real one follows.
        m_head.resize(0);
        m_status = 0;
        m_keepAlive = true;
        m_body = BodyKind::None;
        return used;
    }
    m_head.clear(); // an idle keep-alive connection holds no buffer
    return used;
}

bool HttpResponseParser::parseHead()
{
    QByteArrayView head(m_head);
    qsizetype eol = head.indexOf('\n');
    QByteArrayView statusLine = head.first(eol);
    if (statusLine.endsWith('\r'))
        statusLine.chop(1);
    // HTTP/1.x SSS reason
    if (statusLine.size() < 12 || !statusLine.startsWith("HTTP/1.") || statusLine[8] != ' ')
        return fail("malformed status line");
    const bool http10 = statusLine[7] == '0';
    int status = 0;
    for (int i = 9; i < 12; ++i) {
        const char c = statusLine[i];
        if (c < '0' || c > '9')
            return fail("malformed status code");
        status = status * 10 + (c - '0');
    }
    if (statusLine.size() > 12 && statusLine[12] != ' ')
        return fail("malformed status line");
    m_status = status;

    qint64 contentLength = -1;
    bool chunked = false;
    bool otherCoding = false;
    bool close = false, keepAlive = false;
    head = head.sliced(eol + 1);
    while (!head.isEmpty()) {
        eol = head.indexOf('\n');
        QByteArrayView line = eol < 0 ? head : head.first(eol);
        head = eol < 0 ? QByteArrayView() : head.sliced(eol + 1);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty())
            break;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return fail("malformed header field");
        const QByteArrayView name = line.first(colon);
        const QByteArrayView value = line.sliced(colon + 1).trimmed();
        if (equalsIgnoreCase(name, "content-length")) {
            qint64 v = 0;
            if (value.isEmpty() || value.size() > 18)
                return fail("invalid Content-Length");
            for (char c : value) {
                if (c < '0' || c > '9')
                    return fail("invalid Content-Length");
                v = v * 10 + (c - '0');
            }
            if (contentLength >= 0 && contentLength != v)
                return fail("conflicting Content-Length fields");
            contentLength = v;
        } else if (equalsIgnoreCase(name, "transfer-encoding")) {
            const QByteArrayView last = lastToken(value);
            chunked = equalsIgnoreCase(last, "chunked");
            otherCoding = !chunked && !equalsIgnoreCase(last, "identity");
        } else if (equalsIgnoreCase(name, "connection")) {
            if (hasToken(value, "close"))
                close = true;
            if (hasToken(value, "keep-alive"))
                keepAlive = true;
        }
    }
    m_keepAlive = http10 ? (keepAlive && !close) : !close;

    if (m_status < 200) {
        m_state = State::Head;
        return true;
    }
    if (m_status == 204 || m_status == 304) {
        m_body = BodyKind::None;
        m_state = State::Done;
    } else if (chunked) {
        // Transfer-Encoding overrides Content-Length (RFC 9112 §6.3).
        m_body = BodyKind::Chunked;
        m_chunked.reset();
        m_state = State::Body;
    } else if (otherCoding) {
        m_body = BodyKind::UntilClose;
        m_state = State::Body;
    } else if (contentLength >= 0) {
        m_body = BodyKind::Length;
        m_remaining = contentLength;
        m_state = contentLength == 0 ? State::Done : State::Body;
    } else {
        m_body = BodyKind::UntilClose;
        m_state = State::Body;
    }
    return true;
}

} // namespace sb
