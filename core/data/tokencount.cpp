#include "tokencount.h"

#include <QChar>
#include <limits>

namespace sb {

namespace {

bool isCjk(char32_t c)
{
    return (c >= 0x3040 && c <= 0x30FF)       // hiragana, katakana
           || (c >= 0x3400 && c <= 0x4DBF)    // CJK extension A
           || (c >= 0x4E00 && c <= 0x9FFF)    // CJK unified ideographs
           || (c >= 0xAC00 && c <= 0xD7AF)    // Hangul syllables
           || (c >= 0xF900 && c <= 0xFAFF)    // compatibility ideographs
           || (c >= 0x20000 && c <= 0x3FFFF); // extensions B and later
}

} // namespace

int approxTokenCount(QStringView text)
{
    qint64 tokens = 0;
    qint64 weight = 0; // of the current word, in sixths of a token
    auto flush = [&] {
        tokens += (weight + 5) / 6;
        weight = 0;
    };
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t u = text[i].unicode();
        if (u < 0x80) { // ASCII fast path: the bulk of most prompts
            if ((u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z')) {
                weight += 1;
            } else if (u >= u'0' && u <= u'9') {
                weight += 2;
            } else if (u == u' ' || (u >= 0x09 && u <= 0x0D)) {
                flush();
            } else if (u >= 0x21 && u < 0x7F) {
                flush();
                tokens += 1;
            } else {
                flush(); // other control characters cost nothing
            }
            continue;
        }
        char32_t c = u;
        if (QChar::isHighSurrogate(u) && i + 1 < n &&
            QChar::isLowSurrogate(text[i + 1].unicode())) {
            c = QChar::surrogateToUcs4(u, text[i + 1].unicode());
            ++i;
        }
        if (isCjk(c)) {
            flush();
            tokens += 1;
            continue;
        }
        switch (QChar::category(c)) {
        case QChar::Mark_NonSpacing:
        case QChar::Mark_SpacingCombining:
        case QChar::Mark_Enclosing:
            break;
        case QChar::Number_DecimalDigit:
        case QChar::Number_Letter:
        case QChar::Number_Other:
            weight += 2;
            break;
        case QChar::Letter_Uppercase:
        case QChar::Letter_Lowercase:
        case QChar::Letter_Titlecase:
        case QChar::Letter_Modifier:
        case QChar::Letter_Other:
            weight += c < 0x250 ? 1 : 2;
            break;
        case QChar::Separator_Space:
        case QChar::Separator_Line:
        case QChar::Separator_Paragraph:
        case QChar::Other_Control:
        case QChar::Other_Format:
            flush();
            break;
        default: // punctuation, symbols, emoji, private use, unpaired surrogates
            flush();
            tokens += 1;
            break;
        }
    }
    flush();
    return int(qMin<qint64>(tokens, std::numeric_limits<int>::max()));
}

} // namespace sb
