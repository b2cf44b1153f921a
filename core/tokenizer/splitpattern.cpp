#include "tokenizer/splitpattern.h"

#include "tokenizer/unicodeclass.h"

using namespace Qt::StringLiterals;

namespace sb::tok {

namespace {

// The class of the code point at p[i] and its length in bytes.
inline uint16_t clsAt(const unsigned char *p, size_t i, int *len)
{
    if (p[i] < 0x80) {
        *len = 1;
        return kAsciiClass[p[i]];
    }
    char32_t cp;
    *len = decodeUtf8(p + i, &cp);
    return charClass(cp);
}

inline bool notSpaceLetterNumber(uint16_t c)
{
    return (c & (kSpace | kL | kN)) == 0;
}

// Advances over code points whose class intersects `mask`.
inline size_t runOf(const unsigned char *p, size_t i, size_t n, uint16_t mask)
{
    while (i < n) {
        int len;
        if ((clsAt(p, i, &len) & mask) == 0)
            break;
        i += size_t(len);
    }
    return i;
}

inline size_t runOfNotSpaceLetterNumber(const unsigned char *p, size_t i, size_t n)
{
    while (i < n) {
        int len;
        if (!notSpaceLetterNumber(clsAt(p, i, &len)))
            break;
        i += size_t(len);
    }
    return i;
}

inline size_t runOfBytes(const unsigned char *p, size_t i, size_t n, const char *set)
{
    while (i < n) {
        bool in = false;
        for (const char *s = set; *s; ++s)
            in = in || p[i] == static_cast<unsigned char>(*s);
        if (!in)
            break;
        ++i;
    }
    return i;
}

inline size_t runOfNumbers(const unsigned char *p, size_t i, size_t n, int maxCount)
{
    for (int k = 0; i < n && (maxCount <= 0 || k < maxCount); ++k) {
        int len;
        if ((clsAt(p, i, &len) & kN) == 0)
            break;
        i += size_t(len);
    }
    return i;
}

inline unsigned char asciiLower(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

// 's|'t|'re|'ve|'m|'ll|'d at p[i] (which is '\''), in that order of alternatives. Returns the end
// or 0. caseFold: (?i:...), ASCII only, as the JavaScript reference spells it. (Rust's regex
// would also fold U+017F long s to 's'; no text was found where that changes the ids of
// cl100k_base or o200k_base, see docs/tokenizers.md.)
inline size_t contraction(const unsigned char *p, size_t i, size_t n, bool caseFold)
{
    if (i + 1 >= n)
        return 0;
    const auto fold = [caseFold](unsigned char c) {
        return caseFold ? asciiLower(c) : c;
    };
    const unsigned char c1 = fold(p[i + 1]);
    if (c1 == 's' || c1 == 't' || c1 == 'm' || c1 == 'd')
        return i + 2;
    if (i + 2 < n) {
        const unsigned char c2 = fold(p[i + 2]);
        if ((c1 == 'r' || c1 == 'v') && c2 == 'e')
            return i + 3;
        if (c1 == 'l' && c2 == 'l')
            return i + 3;
    }
    return 0;
}

// The three whitespace alternatives shared by every pattern, at a whitespace character:
//   \s*[\r\n]+  — the longest whitespace run ending in \r or \n: backtracking \s* stops at the
//                 last \r/\n of the run, and [\r\n]+ then takes just that one;
//   \s+(?!\S)   — the run less its last character when a non-space follows (the run reaches
//                 the end of the text otherwise), if that leaves at least one;
//   \s+         — the whole run.
inline size_t whitespaceTail(const unsigned char *p, size_t i, size_t n, bool newlineAlt)
{
    size_t j = i;
    size_t afterLastNewline = 0;
    size_t lastStart = i;
    while (j < n) {
        int len;
        const uint16_t c = clsAt(p, j, &len);
        if ((c & kSpace) == 0)
            break;
        lastStart = j;
        j += size_t(len);
        if (c & kCrLf)
            afterLastNewline = j;
    }
    if (newlineAlt && afterLastNewline != 0)
        return afterLastNewline;
    if (j == n)
        return j;
    if (lastStart > i)
        return lastStart;
    return j;
}

} // namespace

bool SplitPattern::fromRegex(const QString &regex, SplitPattern *out)
{
    static const QString gpt2 =
        uR"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)"_s;
    static const QString r50k =
        uR"('(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)"_s;
    static const QString cl100k =
        uR"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)"_s;
    static const QString qwen2 =
        uR"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)"_s;
    static const QString o200k =
        uR"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)"_s;
    Kind kind;
    if (regex == gpt2 || regex == r50k)
        kind = Kind::Gpt2;
    else if (regex == cl100k)
        kind = Kind::Cl100k;
    else if (regex == qwen2)
        kind = Kind::Qwen2;
    else if (regex == o200k)
        kind = Kind::O200k;
    else
        return false;
    *out = ofKind(kind);
    return true;
}

SplitPattern SplitPattern::literal(std::string text)
{
    SplitPattern p;
    p.m_kind = Kind::Literal;
    p.m_literal = std::move(text);
    return p;
}

SplitPattern SplitPattern::ofKind(Kind kind)
{
    SplitPattern p;
    p.m_kind = kind;
    return p;
}

QString SplitPattern::name() const
{
    switch (m_kind) {
    case Kind::Gpt2:
        return u"gpt2-regex"_s;
    case Kind::Cl100k:
        return u"cl100k/llama3-regex"_s;
    case Kind::Qwen2:
        return u"qwen2-regex"_s;
    case Kind::O200k:
        return u"o200k-regex"_s;
    case Kind::Literal:
        break;
    }
    return u"string \"%1\""_s.arg(utf8ToQString(m_literal));
}

size_t SplitPattern::matchCl100k(const unsigned char *p, size_t i, size_t n, int maxDigits) const
{
    if (p[i] == '\'') {
        if (size_t e = contraction(p, i, n, true))
            return e;
    }
    int len0;
    const uint16_t c0 = clsAt(p, i, &len0);
    // [^\r\n\p{L}\p{N}]?\p{L}+ : with the optional character first, then without.
    if ((c0 & (kCrLf | kL | kN)) == 0 && i + size_t(len0) < n) {
        int len1;
        if (clsAt(p, i + size_t(len0), &len1) & kL)
            return runOf(p, i + size_t(len0) + size_t(len1), n, kL);
    }
    if (c0 & kL)
        return runOf(p, i + size_t(len0), n, kL);
    if (c0 & kN)
        return runOfNumbers(p, i, n, maxDigits);
    // " ?[^\s\p{L}\p{N}]+[\r\n]*"
    if (p[i] == ' ' && i + 1 < n) {
        int len1;
        if (notSpaceLetterNumber(clsAt(p, i + 1, &len1)))
            return runOfBytes(p, runOfNotSpaceLetterNumber(p, i + 1, n), n, "\r\n");
    }
    if (notSpaceLetterNumber(c0))
        return runOfBytes(p, runOfNotSpaceLetterNumber(p, i, n), n, "\r\n");
    return whitespaceTail(p, i, n, true);
}

size_t SplitPattern::matchO200k(const unsigned char *p, size_t i, size_t n) const
{
    constexpr uint16_t upper = kLu | kLt | kLm | kLo | kM;
    constexpr uint16_t lower = kLl | kLm | kLo | kM;
    const auto contractionOpt = [&](size_t e) {
        if (e < n && p[e] == '\'') {
            if (size_t c = contraction(p, e, n, true))
                return c;
        }
        return e;
    };
    // [upper]*[lower]+ from s, with the backtracking of the greedy [upper]* made explicit: when
    // no lower-class character follows the upper run, the match ends after the last character of
    // the run that is in both classes (Lm, Lo, M).
    const auto upperThenLower = [&](size_t s) -> size_t {
        size_t u = s;
        size_t lastBoth = SIZE_MAX;
        while (u < n) {
            int len;
            const uint16_t c = clsAt(p, u, &len);
            if ((c & upper) == 0)
                break;
            if (c & lower)
                lastBoth = u + size_t(len);
            u += size_t(len);
        }
        if (u < n) {
            int len;
            if (clsAt(p, u, &len) & lower)
                return contractionOpt(runOf(p, u, n, lower));
        }
        if (lastBoth != SIZE_MAX)
            return contractionOpt(lastBoth);
        return SIZE_MAX;
    };
    // [upper]+[lower]* from s.
    const auto upperRun = [&](size_t s) -> size_t {
        const size_t u = runOf(p, s, n, upper);
        if (u == s)
            return SIZE_MAX;
        return contractionOpt(runOf(p, u, n, lower));
    };
    int len0;
    const uint16_t c0 = clsAt(p, i, &len0);
    const bool prefixable = (c0 & (kCrLf | kL | kN)) == 0;
    const size_t afterPrefix = i + size_t(len0);
    if (prefixable && afterPrefix < n) {
        if (size_t e = upperThenLower(afterPrefix); e != SIZE_MAX)
            return e;
    }
    if (size_t e = upperThenLower(i); e != SIZE_MAX)
        return e;
    if (prefixable && afterPrefix < n) {
        if (size_t e = upperRun(afterPrefix); e != SIZE_MAX)
            return e;
    }
    if (size_t e = upperRun(i); e != SIZE_MAX)
        return e;
    if (c0 & kN)
        return runOfNumbers(p, i, n, 3);
    // " ?[^\s\p{L}\p{N}]+[\r\n/]*"
    if (p[i] == ' ' && i + 1 < n) {
        int len1;
        if (notSpaceLetterNumber(clsAt(p, i + 1, &len1)))
            return runOfBytes(p, runOfNotSpaceLetterNumber(p, i + 1, n), n, "\r\n/");
    }
    if (notSpaceLetterNumber(c0))
        return runOfBytes(p, runOfNotSpaceLetterNumber(p, i, n), n, "\r\n/");
    return whitespaceTail(p, i, n, true);
}

size_t SplitPattern::matchGpt2(const unsigned char *p, size_t i, size_t n) const
{
    if (p[i] == '\'') {
        if (size_t e = contraction(p, i, n, false))
            return e;
    }
    int len0;
    const uint16_t c0 = clsAt(p, i, &len0);
    // " ?\p{L}+", " ?\p{N}+", " ?[^\s\p{L}\p{N}]+": the optional space first.
    if (p[i] == ' ' && i + 1 < n) {
        int len1;
        const uint16_t c1 = clsAt(p, i + 1, &len1);
        if (c1 & kL)
            return runOf(p, i + 1, n, kL);
    }
    if (c0 & kL)
        return runOf(p, i, n, kL);
    if (p[i] == ' ' && i + 1 < n) {
        int len1;
        const uint16_t c1 = clsAt(p, i + 1, &len1);
        if (c1 & kN)
            return runOf(p, i + 1, n, kN);
    }
    if (c0 & kN)
        return runOf(p, i, n, kN);
    if (p[i] == ' ' && i + 1 < n) {
        int len1;
        if (notSpaceLetterNumber(clsAt(p, i + 1, &len1)))
            return runOfNotSpaceLetterNumber(p, i + 1, n);
    }
    if (notSpaceLetterNumber(c0))
        return runOfNotSpaceLetterNumber(p, i, n);
    return whitespaceTail(p, i, n, false);
}

void SplitPattern::findMatches(std::string_view text, uint32_t begin, uint32_t end,
                               std::vector<Span> *matches) const
{
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    if (m_kind == Kind::Literal) {
        if (m_literal.empty())
            return;
        size_t i = begin;
        while (i < end) {
            const size_t f = text.substr(0, end).find(m_literal, i);
            if (f == std::string_view::npos)
                break;
            matches->push_back({uint32_t(f), uint32_t(f + m_literal.size())});
            i = f + m_literal.size();
        }
        return;
    }
    size_t i = begin;
    while (i < end) {
        size_t e;
        switch (m_kind) {
        case Kind::Gpt2:
            e = matchGpt2(p, i, end);
            break;
        case Kind::Cl100k:
            e = matchCl100k(p, i, end, 3);
            break;
        case Kind::Qwen2:
            e = matchCl100k(p, i, end, 1);
            break;
        case Kind::O200k:
        default:
            e = matchO200k(p, i, end);
            break;
        }
        // Every character is matched by one of the alternatives of these patterns, so e > i.
        matches->push_back({uint32_t(i), uint32_t(e)});
        i = e;
    }
}

} // namespace sb::tok
