#include "tokenizer/bytelevelmap.h"

#include "tokenizer/unicodeclass.h"

#include <array>

namespace sb::tok {

namespace {

struct Tables
{
    std::array<char32_t, 256> byteToChar{};
    std::array<int16_t, 512> charToByte{}; // every mapped character is below U+0200
};

const Tables &tables()
{
    static const Tables t = [] {
        Tables t;
        t.charToByte.fill(-1);
        int n = 0;
        for (int b = 0; b < 256; ++b) {
            const bool printable =
                (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            const char32_t c = printable ? char32_t(b) : char32_t(256 + n++);
            t.byteToChar[size_t(b)] = c;
            t.charToByte[c] = int16_t(b);
        }
        return t;
    }();
    return t;
}

} // namespace

bool ByteLevelMap::toBytes(std::string_view text, std::string *bytes)
{
    const Tables &t = tables();
    bytes->clear();
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    size_t i = 0;
    while (i < text.size()) {
        char32_t cp;
        i += size_t(decodeUtf8(p + i, &cp));
        if (cp >= 512 || t.charToByte[cp] < 0)
            return false;
        bytes->push_back(char(t.charToByte[cp]));
    }
    return true;
}

bool ByteLevelMap::toBytes(QStringView text, std::string *bytes)
{
    const Tables &t = tables();
    bytes->clear();
    for (QChar c : text) {
        const char16_t u = c.unicode();
        if (u >= 512 || t.charToByte[u] < 0)
            return false;
        bytes->push_back(char(t.charToByte[u]));
    }
    return true;
}

std::string ByteLevelMap::toBytes(std::string_view text)
{
    const Tables &t = tables();
    std::string bytes;
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    size_t i = 0;
    while (i < text.size()) {
        char32_t cp;
        const int len = decodeUtf8(p + i, &cp);
        if (cp < 512 && t.charToByte[cp] >= 0)
            bytes.push_back(char(t.charToByte[cp]));
        else
            bytes.append(text.substr(i, size_t(len)));
        i += size_t(len);
    }
    return bytes;
}

std::string ByteLevelMap::fromBytes(std::string_view bytes)
{
    const Tables &t = tables();
    std::string text;
    for (char c : bytes)
        appendUtf8(text, t.byteToChar[static_cast<unsigned char>(c)]);
    return text;
}

} // namespace sb::tok
