#include "sharegptreader.h"

#include "mappedfile.h"
#include "sourcetext.h"

#include <cstring>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// Deeper nesting than this is no ShareGPT file; the limit keeps skipValue() off the stack's end.
constexpr int kMaxDepth = 512;

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// The four hex digits at p, or -1.
int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; ++i) {
        const int h = hexValue(p[i]);
        if (h < 0)
            return -1;
        v = (v << 4) | h;
    }
    return v;
}

using Role = ShareGptRole;

Role roleOf(const char *p, qint64 n)
{
    auto is = [&](const char *name) {
        return qint64(std::strlen(name)) == n && qstrnicmp(p, name, size_t(n)) == 0;
    };
    if (is("human") || is("user"))
        return Role::Human;
    if (is("gpt") || is("assistant") || is("chatgpt") || is("bard") || is("bing") || is("model"))
        return Role::Assistant;
    if (is("system"))
        return Role::System;
    return Role::Other;
}

} // namespace

ShareGptReader::ShareGptReader(MappedFile *file, const QString &displayPath)
    : m_file(file), m_path(displayPath), m_data(file->data()), m_size(file->size())
{}

bool ShareGptReader::read(const std::function<void(const ShareGptConversation &)> &onItem,
                          QString *error)
{
    m_pos = 0;
    if (m_size >= 3 && std::memcmp(m_data, "\xEF\xBB\xBF", 3) == 0)
        m_pos = 3; // a UTF-8 byte order mark is tolerated, as Python's utf-8-sig would
    skipWs();
    bool ok = true;
    if (atEnd()) {
        m_error = u"%1: the dataset file is empty"_s.arg(m_path);
        ok = false;
    } else if (m_data[m_pos] != '[') {
        ok = layoutError(m_pos,
                         u"expected a JSON array of conversations at the top level, found %1"_s.arg(
                             kindAt(m_pos)));
    } else {
        ++m_pos;
        skipWs();
        if (!atEnd() && m_data[m_pos] == ']') {
            ++m_pos;
        } else {
            for (qint32 index = 0;; ++index) {
                if (!readItem(index, onItem)) {
                    ok = false;
                    break;
                }
                m_file->release(m_pos);
                skipWs();
                if (atEnd()) {
                    ok = syntaxError(m_pos, u"the file ends inside the top-level array"_s);
                    break;
                }
                const char c = m_data[m_pos];
                if (c == ']') {
                    ++m_pos;
                    break;
                }
                if (c != ',') {
                    ok = unexpected(m_pos, u"',' or ']' after an item"_s);
                    break;
                }
                ++m_pos;
                skipWs();
                if (!atEnd() && m_data[m_pos] == ']') {
                    ok = syntaxError(m_pos, u"trailing comma before ']'"_s);
                    break;
                }
            }
        }
        if (ok) {
            skipWs();
            if (!atEnd())
                ok = unexpected(m_pos, u"the end of the file after the top-level array"_s);
        }
    }
    if (!ok)
        *error = m_error;
    return ok;
}

bool ShareGptReader::readItem(qint32 index,
                              const std::function<void(const ShareGptConversation &)> &onItem)
{
    const qint64 start = m_pos;
    if (atEnd())
        return syntaxError(m_pos, u"the file ends inside the top-level array"_s);
    if (m_data[m_pos] != '{') {
        if (!skipValue(1)) // a syntax error says more than the layout error would
            return false;
        return layoutError(
            start,
            u"item %1: expected an object with a \"conversations\" array, found %2"_s.arg(index)
                .arg(kindAt(start)));
    }
    ShareGptConversation conv;
    conv.index = index;
    bool sawConversations = false;
    ++m_pos;
    skipWs();
    if (!atEnd() && m_data[m_pos] == '}') {
        ++m_pos;
    } else {
        for (;;) {
            SourceSpan key;
            if (!readKey(&key))
                return false;
            if (keyIs(key, "conversations")) {
                sawConversations = true;
                conv = ShareGptConversation{};
                conv.index = index;
                if (!readConversations(index, &conv))
                    return false;
            } else if (!skipValue(2)) {
                return false;
            }
            bool closed = false;
            if (!nextInContainer('}', &closed))
                return false;
            if (closed)
                break;
        }
    }
    if (!sawConversations)
        return layoutError(
            start,
            u"item %1: expected a \"conversations\" array; the object has no such field"_s.arg(
                index));
    onItem(conv);
    return true;
}

bool ShareGptReader::readConversations(qint32 index, ShareGptConversation *conv)
{
    if (atEnd() || m_data[m_pos] != '[') {
        const qint64 at = m_pos;
        if (!skipValue(2))
            return false;
        return layoutError(
            at,
            u"item %1: expected \"conversations\" to be an array of {from, value} turns, found %2"_s
                .arg(index)
                .arg(kindAt(at)));
    }
    ++m_pos;
    skipWs();
    if (!atEnd() && m_data[m_pos] == ']') {
        ++m_pos;
        return true;
    }
    bool promptFound = false;
    bool replyDecided = false;
    for (qint32 turn = 0;; ++turn) {
        skipWs();
        SourceSpan from, value;
        if (!readTurn(index, turn, &from, &value))
            return false;
        const Role role = roleOf(m_data + from.offset, from.length);
        if (m_collectTurns)
            conv->allTurns.append(ShareGptTurn{role, value});
        if (!promptFound) {
            if (role == Role::Human) {
                promptFound = true;
                conv->prompt = value;
            }
        } else if (!replyDecided) {
            replyDecided = true;
            if (role == Role::Assistant) {
                conv->hasPair = true;
                conv->reply = value;
            }
        }
        conv->turns = turn + 1;
        bool closed = false;
        if (!nextInContainer(']', &closed))
            return false;
        if (closed)
            return true;
    }
}

bool ShareGptReader::nextInContainer(char close, bool *closed)
{
    skipWs();
    const bool object = close == '}';
    if (atEnd())
        return syntaxError(m_pos, object ? u"the file ends inside an object"_s
                                         : u"the file ends inside an array"_s);
    *closed = m_data[m_pos] == close;
    if (!*closed && m_data[m_pos] != ',')
        return unexpected(m_pos, object ? u"',' or '}' after an object member"_s
                                        : u"',' or ']' after an array element"_s);
    ++m_pos;
    return true;
}

bool ShareGptReader::readTurn(qint32 index, qint32 turn, SourceSpan *from, SourceSpan *value)
{
    const qint64 start = m_pos;
    const QString where = u"item %1, conversations[%2]"_s.arg(index).arg(turn);
    if (atEnd() || m_data[m_pos] != '{') {
        if (!skipValue(3))
            return false;
        return layoutError(
            start, u"%1: expected an object with \"from\" and \"value\" strings, found %2"_s.arg(
                       where, kindAt(start)));
    }
    bool haveFrom = false, haveValue = false;
    ++m_pos;
    skipWs();
    if (!atEnd() && m_data[m_pos] == '}') {
        ++m_pos;
    } else {
        for (;;) {
            SourceSpan key;
            if (!readKey(&key))
                return false;
            const bool isFrom = keyIs(key, "from");
            const bool isValue = !isFrom && keyIs(key, "value");
            if (isFrom || isValue) {
                const qint64 at = m_pos;
                if (atEnd() || m_data[m_pos] != '"') {
                    if (!skipValue(4))
                        return false;
                    return layoutError(at, u"%1.%2: expected a string, found %3"_s.arg(
                                               where, isFrom ? u"from"_s : u"value"_s, kindAt(at)));
                }
                if (!scanString(isFrom ? from : value))
                    return false;
                (isFrom ? haveFrom : haveValue) = true;
            } else if (!skipValue(4)) {
                return false;
            }
            bool closed = false;
            if (!nextInContainer('}', &closed))
                return false;
            if (closed)
                break;
        }
    }
    if (!haveFrom)
        return layoutError(start, u"%1: missing the \"from\" field (a string)"_s.arg(where));
    if (!haveValue)
        return layoutError(start, u"%1: missing the \"value\" field (a string)"_s.arg(where));
    return true;
}

bool ShareGptReader::scanString(SourceSpan *span)
{
    const qint64 open = m_pos;
    ++m_pos; // the opening quote
    const qint64 start = m_pos;
    while (m_pos < m_size) {
        const auto c = uchar(m_data[m_pos]);
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            ++m_pos;
            continue;
        }
        if (c == '"') {
            if (span)
                *span = SourceSpan{start, m_pos - start};
            ++m_pos;
            return true;
        }
        if (c == '\\') {
            if (m_pos + 1 >= m_size)
                break;
            switch (m_data[m_pos + 1]) {
            case '"':
            case '\\':
            case '/':
            case 'b':
            case 'f':
            case 'n':
            case 'r':
            case 't':
                m_pos += 2;
                continue;
            case 'u':
                if (m_pos + 6 > m_size || hex4(m_data + m_pos + 2) < 0)
                    return syntaxError(m_pos, u"a \\u escape needs four hex digits"_s);
                m_pos += 6;
                continue;
            default:
                return syntaxError(m_pos, u"invalid escape sequence in a string"_s);
            }
        }
        if (c < 0x20)
            return syntaxError(m_pos, u"unescaped control character U+%1 in a string"_s.arg(
                                          int(c), 4, 16, QLatin1Char('0')));
        const int n = utf8Sequence(m_data + m_pos, m_data + m_size);
        if (n == 0)
            return unexpected(m_pos, QString());
        m_pos += n;
    }
    return syntaxError(open, u"unterminated string"_s);
}

bool ShareGptReader::readKey(SourceSpan *key)
{
    skipWs();
    if (atEnd() || m_data[m_pos] != '"')
        return unexpected(m_pos, u"a string key"_s);
    if (!scanString(key))
        return false;
    skipWs();
    if (atEnd() || m_data[m_pos] != ':')
        return unexpected(m_pos, u"':' after a key"_s);
    ++m_pos;
    skipWs();
    return true;
}

bool ShareGptReader::skipValue(int depth)
{
    if (depth > kMaxDepth)
        return syntaxError(m_pos, u"nesting deeper than %1 levels"_s.arg(kMaxDepth));
    skipWs();
    if (atEnd())
        return syntaxError(m_pos, u"the file ends where a value was expected"_s);
    const char c = m_data[m_pos];
    switch (c) {
    case '"':
        return scanString(nullptr);
    case 't':
        return skipLiteral("true");
    case 'f':
        return skipLiteral("false");
    case 'n':
        return skipLiteral("null");
    case '{':
    case '[': {
        const char close = c == '{' ? '}' : ']';
        ++m_pos;
        skipWs();
        if (!atEnd() && m_data[m_pos] == close) {
            ++m_pos;
            return true;
        }
        for (;;) {
            skipWs();
            if (c == '{' && !readKey(nullptr))
                return false;
            if (!skipValue(depth + 1))
                return false;
            bool closed = false;
            if (!nextInContainer(close, &closed))
                return false;
            if (closed)
                return true;
        }
    }
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            return skipNumber();
        return unexpected(m_pos, u"a value"_s);
    }
}

bool ShareGptReader::skipLiteral(const char *word)
{
    const auto n = qint64(std::strlen(word));
    if (m_size - m_pos < n || std::memcmp(m_data + m_pos, word, size_t(n)) != 0)
        return unexpected(m_pos, u"a value"_s);
    m_pos += n;
    return true;
}

bool ShareGptReader::skipNumber()
{
    // JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    const qint64 start = m_pos;
    auto digit = [&] {
        return !atEnd() && m_data[m_pos] >= '0' && m_data[m_pos] <= '9';
    };
    auto bad = [&] {
        return syntaxError(start, u"malformed number"_s);
    };
    if (m_data[m_pos] == '-')
        ++m_pos;
    if (!digit())
        return bad();
    if (m_data[m_pos] == '0') {
        ++m_pos;
    } else {
        while (digit())
            ++m_pos;
    }
    if (!atEnd() && m_data[m_pos] == '.') {
        ++m_pos;
        if (!digit())
            return bad();
        while (digit())
            ++m_pos;
    }
    if (!atEnd() && (m_data[m_pos] == 'e' || m_data[m_pos] == 'E')) {
        ++m_pos;
        if (!atEnd() && (m_data[m_pos] == '+' || m_data[m_pos] == '-'))
            ++m_pos;
        if (!digit())
            return bad();
        while (digit())
            ++m_pos;
    }
    return true;
}

void ShareGptReader::skipWs()
{
    while (m_pos < m_size) {
        const char c = m_data[m_pos];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            return;
        ++m_pos;
    }
}

bool ShareGptReader::keyIs(SourceSpan key, const char *name) const
{
    const auto n = qint64(std::strlen(name));
    return key.length == n && std::memcmp(m_data + key.offset, name, size_t(n)) == 0;
}

QString ShareGptReader::kindAt(qint64 offset) const
{
    if (offset >= m_size)
        return u"the end of the file"_s;
    switch (m_data[offset]) {
    case '{':
        return u"an object"_s;
    case '[':
        return u"an array"_s;
    case '"':
        return u"a string"_s;
    case 't':
    case 'f':
        return u"a boolean"_s;
    case 'n':
        return u"null"_s;
    default:
        return u"a number"_s;
    }
}

bool ShareGptReader::syntaxError(qint64 offset, const QString &what)
{
    m_error =
        u"%1: invalid JSON at %2: %3"_s.arg(m_path, describePosition(m_data, m_size, offset), what);
    return false;
}

bool ShareGptReader::unexpected(qint64 offset, const QString &expected)
{
    if (offset >= m_size)
        return syntaxError(offset, u"unexpected end of file, expected %1"_s.arg(expected));
    const auto c = uchar(m_data[offset]);
    if (c >= 0x80 && utf8Sequence(m_data + offset, m_data + m_size) == 0) {
        // Never replaced silently: a request would carry different text than the file holds.
        m_error = u"%1: invalid UTF-8 at %2 (byte 0x%3)"_s.arg(
            m_path, describePosition(m_data, m_size, offset), QString::number(c, 16).toUpper());
        return false;
    }
    const QString found = (c >= 0x21 && c < 0x7F)
                              ? u"'%1'"_s.arg(QLatin1Char(char(c)))
                              : u"byte 0x%1"_s.arg(QString::number(c, 16).toUpper());
    return syntaxError(offset, u"unexpected %1, expected %2"_s.arg(found, expected));
}

bool ShareGptReader::layoutError(qint64 offset, const QString &what)
{
    m_error = u"%1: not ShareGPT layout at %2: %3"_s.arg(
        m_path, describePosition(m_data, m_size, offset), what);
    return false;
}

void ShareGptReader::decode(const char *data, SourceSpan span, QString *out,
                            qint64 *replacedSurrogates)
{
    const char *p = data + span.offset;
    const qint64 n = span.length;
    // Every UTF-16 unit written consumes at least one source byte, so n units always suffice.
    out->resize(n);
    QChar *d = out->data();
    qsizetype w = 0;
    qint64 i = 0;
    while (i < n) {
        const auto c = uchar(p[i]);
        if (c != '\\') {
            if (c < 0x80) {
                d[w++] = QChar(char16_t(c));
                ++i;
                continue;
            }
            char32_t cp = 0xFFFD;
            const int len = utf8Sequence(p + i, p + n, &cp);
            i += len > 0 ? len : 1;
            if (cp > 0xFFFF) {
                d[w++] = QChar(QChar::highSurrogate(cp));
                d[w++] = QChar(QChar::lowSurrogate(cp));
            } else {
                d[w++] = QChar(char16_t(cp));
            }
            continue;
        }
        const char e = p[i + 1];
        i += 2;
        switch (e) {
        case 'b':
            d[w++] = QChar(u'\b');
            break;
        case 'f':
            d[w++] = QChar(u'\f');
            break;
        case 'n':
            d[w++] = QChar(u'\n');
            break;
        case 'r':
            d[w++] = QChar(u'\r');
            break;
        case 't':
            d[w++] = QChar(u'\t');
            break;
        case 'u': {
            const auto u = char16_t(hex4(p + i));
            i += 4;
            if (QChar::isHighSurrogate(u) && i + 6 <= n && p[i] == '\\' && p[i + 1] == 'u') {
                const int low = hex4(p + i + 2);
                if (low >= 0 && QChar::isLowSurrogate(char16_t(low))) {
                    d[w++] = QChar(u);
                    d[w++] = QChar(char16_t(low));
                    i += 6;
                    break;
                }
            }
            if (QChar::isSurrogate(u)) {
                d[w++] = QChar(QChar::ReplacementCharacter);
                if (replacedSurrogates)
                    ++*replacedSurrogates;
            } else {
                d[w++] = QChar(u);
            }
            break;
        }
        default: // '"', '\\', '/'
            d[w++] = QChar(char16_t(uchar(e)));
            break;
        }
    }
    out->truncate(w);
}

} // namespace sb
