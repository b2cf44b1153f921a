#pragma once

#include <QString>

#include <cstdint>
#include <string_view>

namespace sb::tok {

// The Unicode classes the pre-tokenizer patterns ask about, as bit flags. General categories come
// from Qt's Unicode tables (QChar::category); White_Space is the Unicode property (what \s means
// in Oniguruma, Rust's regex and the reference implementations), not QChar::isSpace's wider set.
enum CharClass : uint16_t {
    kLu = 1 << 0,
    kLl = 1 << 1,
    kLt = 1 << 2,
    kLm = 1 << 3,
    kLo = 1 << 4,
    kM = 1 << 5,
    kN = 1 << 6,
    kNd = 1 << 7,
    kP = 1 << 8,
    kS = 1 << 9,
    kSpace = 1 << 10, // White_Space
    kCrLf = 1 << 11,  // \r or \n
    kL = kLu | kLl | kLt | kLm | kLo,
};

// Flags of one code point. Code points below U+10000 are served from a table built once (Qt's
// category lookup is a few table hops; the pre-tokenizer asks several questions per character).
uint16_t charClass(char32_t cp);

// The flags of the ASCII characters, written out so the common case needs no call.
inline constexpr uint16_t kAsciiClass[128] = {
    // 0x00-0x1F: controls; \t \n \v \f \r are White_Space, \n and \r also kCrLf
    0, 0, 0, 0, 0, 0, 0, 0, 0, kSpace, kSpace | kCrLf, kSpace, kSpace, kSpace | kCrLf, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                                          //
    // space ! " # $ % & ' ( ) * + , - . /
    kSpace, kP, kP, kP, kS, kP, kP, kP, kP, kP, kP, kS, kP, kP, kP, kP, //
    // 0-9 : ; < = > ?
    kN | kNd, kN | kNd, kN | kNd, kN | kNd, kN | kNd, kN | kNd, kN | kNd, kN | kNd, kN | kNd,
    kN | kNd, kP, kP, kS, kS, kS, kP, //
    // @ A-O
    kP, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, //
    // P-Z [ \ ] ^ _
    kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kLu, kP, kP, kP, kS, kP, //
    // ` a-o
    kS, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, //
    // p-z { | } ~ DEL
    kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kLl, kP, kS, kP, kS, 0, //
};

// One code point from valid UTF-8 at p (the tokenizer validates its input once, up front).
// Returns its length in bytes.
inline int decodeUtf8(const unsigned char *p, char32_t *cp)
{
    const unsigned char c = p[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c < 0xE0) {
        *cp = (char32_t(c & 0x1F) << 6) | (p[1] & 0x3F);
        return 2;
    }
    if (c < 0xF0) {
        *cp = (char32_t(c & 0x0F) << 12) | (char32_t(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
        return 3;
    }
    *cp = (char32_t(c & 0x07) << 18) | (char32_t(p[1] & 0x3F) << 12) |
          (char32_t(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    return 4;
}

// The length of the UTF-8 sequence that starts with byte c (1 for a continuation byte, which
// valid input never starts a character with).
inline int utf8Length(unsigned char c)
{
    return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

void appendUtf8(std::string &out, char32_t cp);

// UTF-8 to QString keeping a leading U+FEFF: QString::fromUtf8 (and so Qt's JSON parser) drops
// a byte order mark at the start of its input, which would change token texts such as "\uFEFF//"
// and any text that starts with one. Invalid sequences become U+FFFD.
QString utf8ToQString(std::string_view utf8);

// True if the bytes are well-formed UTF-8 (no surrogates, no overlongs, at most U+10FFFF).
bool isValidUtf8(std::string_view s);

} // namespace sb::tok
