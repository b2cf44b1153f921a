#include "tokenizer/unicodeclass.h"

#include <QChar>
#include <QStringDecoder>

#include <memory>
#include <mutex>
#include <string>

namespace sb::tok {

namespace {

uint16_t computeClass(char32_t cp)
{
    uint16_t flags = 0;
    switch (QChar::category(cp)) {
    case QChar::Letter_Uppercase:
        flags = kLu;
        break;
    case QChar::Letter_Lowercase:
        flags = kLl;
        break;
    case QChar::Letter_Titlecase:
        flags = kLt;
        break;
    case QChar::Letter_Modifier:
        flags = kLm;
        break;
    case QChar::Letter_Other:
        flags = kLo;
        break;
    case QChar::Mark_NonSpacing:
    case QChar::Mark_SpacingCombining:
    case QChar::Mark_Enclosing:
        flags = kM;
        break;
    case QChar::Number_DecimalDigit:
        flags = kN | kNd;
        break;
    case QChar::Number_Letter:
    case QChar::Number_Other:
        flags = kN;
        break;
    case QChar::Punctuation_Connector:
    case QChar::Punctuation_Dash:
    case QChar::Punctuation_Open:
    case QChar::Punctuation_Close:
    case QChar::Punctuation_InitialQuote:
    case QChar::Punctuation_FinalQuote:
    case QChar::Punctuation_Other:
        flags = kP;
        break;
    case QChar::Symbol_Math:
    case QChar::Symbol_Currency:
    case QChar::Symbol_Modifier:
    case QChar::Symbol_Other:
        flags = kS;
        break;
    default:
        break;
    }
    // The White_Space property (PropList.txt), which is narrower than "separator or control".
    switch (cp) {
    case 0x09:
    case 0x0A:
    case 0x0B:
    case 0x0C:
    case 0x0D:
    case 0x20:
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
        flags |= kSpace;
        break;
    default:
        if (cp >= 0x2000 && cp <= 0x200A)
            flags |= kSpace;
        break;
    }
    if (cp == '\r' || cp == '\n')
        flags |= kCrLf;
    return flags;
}

const uint16_t *bmpTable()
{
    static const std::unique_ptr<uint16_t[]> table = [] {
        auto t = std::make_unique<uint16_t[]>(0x10000);
        for (char32_t cp = 0; cp < 0x10000; ++cp)
            t[cp] = computeClass(cp);
        return t;
    }();
    return table.get();
}

} // namespace

uint16_t charClass(char32_t cp)
{
    static const uint16_t *table = bmpTable();
    return cp < 0x10000 ? table[cp] : computeClass(cp);
}

void appendUtf8(std::string &out, char32_t cp)
{
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xC0 | (cp >> 6)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xE0 | (cp >> 12)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (cp >> 18)));
        out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    }
}

QString utf8ToQString(std::string_view utf8)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom);
    return decoder.decode(QByteArrayView(utf8.data(), qsizetype(utf8.size())));
}

bool isValidUtf8(std::string_view s)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const auto *end = p + s.size();
    while (p < end) {
        const unsigned char c = *p;
        if (c < 0x80) {
            ++p;
            continue;
        }
        int n;
        char32_t min;
        if (c >= 0xC2 && c < 0xE0) {
            n = 2;
            min = 0x80;
        } else if (c >= 0xE0 && c < 0xF0) {
            n = 3;
            min = 0x800;
        } else if (c >= 0xF0 && c < 0xF5) {
            n = 4;
            min = 0x10000;
        } else {
            return false;
        }
        if (end - p < n)
            return false;
        for (int i = 1; i < n; ++i) {
            if ((p[i] & 0xC0) != 0x80)
                return false;
        }
        char32_t cp;
        decodeUtf8(p, &cp);
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        p += n;
    }
    return true;
}

} // namespace sb::tok
