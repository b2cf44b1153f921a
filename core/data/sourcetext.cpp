#include "sourcetext.h"

#include <cstring>

using namespace Qt::StringLiterals;

namespace sb {

TextPosition textPosition(const char *data, qint64 size, qint64 offset)
{
    TextPosition pos;
    offset = qBound<qint64>(0, offset, size);
    const char *p = data;
    const char *stop = data + offset;
    const char *lineStart = data;
    while (p < stop) {
        const void *nl = std::memchr(p, '\n', size_t(stop - p));
        if (!nl)
            break;
        ++pos.line;
        p = static_cast<const char *>(nl) + 1;
        lineStart = p;
    }
    for (const char *c = lineStart; c < stop; ++c)
        if ((uchar(*c) & 0xC0) != 0x80)
            ++pos.column;
    return pos;
}

QString describePosition(const char *data, qint64 size, qint64 offset)
{
    const TextPosition pos = textPosition(data, size, offset);
    return u"line %1, column %2 (byte offset %3)"_s.arg(pos.line).arg(pos.column).arg(offset);
}

int utf8Sequence(const char *p, const char *end, char32_t *codePoint)
{
    const auto b0 = uchar(p[0]);
    if (b0 < 0x80) {
        if (codePoint)
            *codePoint = b0;
        return 1;
    }
    int len;
    uchar lo = 0x80, hi = 0xBF; // allowed range of the second byte
    char32_t cp;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        len = 2;
        cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3;
        cp = b0 & 0x0F;
        if (b0 == 0xE0)
            lo = 0xA0; // overlong
        else if (b0 == 0xED)
            hi = 0x9F; // UTF-16 surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4;
        cp = b0 & 0x07;
        if (b0 == 0xF0)
            lo = 0x90; // overlong
        else if (b0 == 0xF4)
            hi = 0x8F; // above U+10FFFF
    } else {
        return 0;
    }
    if (end - p < len)
        return 0;
    const auto b1 = uchar(p[1]);
    if (b1 < lo || b1 > hi)
        return 0;
    cp = (cp << 6) | (b1 & 0x3F);
    for (int i = 2; i < len; ++i) {
        const auto b = uchar(p[i]);
        if ((b & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (b & 0x3F);
    }
    if (codePoint)
        *codePoint = cp;
    return len;
}

qint64 findInvalidUtf8(const char *data, qint64 size)
{
    const char *p = data;
    const char *end = data + size;
    while (p < end) {
        if (uchar(*p) < 0x80) {
            ++p;
            continue;
        }
        const int n = utf8Sequence(p, end);
        if (n == 0)
            return p - data;
        p += n;
    }
    return -1;
}

} // namespace sb
