#pragma once

#include <QString>

namespace sb {

// Helpers shared by the dataset readers for reporting where in a file something went wrong.
struct TextPosition
{
    qint64 line = 1;   // 1-based
    qint64 column = 1; // 1-based, in characters (UTF-8 continuation bytes do not count)
};

TextPosition textPosition(const char *data, qint64 size, qint64 offset);
// "line 3, column 17 (byte offset 45)"
QString describePosition(const char *data, qint64 size, qint64 offset);

// Length of the valid UTF-8 sequence starting at p (1..4), or 0 when the bytes there are not
// valid UTF-8 (overlong forms, surrogates and code points above U+10FFFF are invalid).
// *codePoint receives the decoded value when non-null.
int utf8Sequence(const char *p, const char *end, char32_t *codePoint = nullptr);
// Offset of the first byte that is not valid UTF-8, or -1.
qint64 findInvalidUtf8(const char *data, qint64 size);

} // namespace sb
