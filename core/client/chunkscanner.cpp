#include "chunkscanner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// Characters as a reader counts them: code points (same rule as StreamAccumulator).
qsizetype codePoints(QStringView s)
{
    qsizetype n = s.size();
    for (QChar c : s) {
        if (c.isLowSurrogate())
            --n;
    }
    return n;
}

// Member names are compared as raw bytes against literals: length first, then memcmp, all
// inlined (QByteArrayView == const char * would strlen() and call out for every compare).
template <size_t N> inline bool is(QByteArrayView k, const char (&lit)[N])
{
    return k.size() == qsizetype(N - 1) && std::memcmp(k.data(), lit, N - 1) == 0;
}

// Bytes that stand for themselves inside a JSON string: printable ASCII except " and \.
struct PlainTable
{
    bool plain[256] = {};
    constexpr PlainTable()
    {
        for (int c = 0x20; c < 0x80; ++c)
            plain[c] = c != '"' && c != '\\';
    }
};
constexpr PlainTable kPlain;

// The end of a run of plain bytes starting at p: the first byte at or after p that is not plain,
// or end. Strings are most of a chunk's bytes (id, model, text), so this is the scanner's inner
// loop: 16 bytes at a time where SSE2 is there (every x86-64), one at a time for the rest.
inline const char *plainRunEnd(const char *p, const char *end)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    while (end - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        // Signed compare: bytes >= 0x80 are negative, so "< 0x20" also catches non-ASCII.
        const __m128i special =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                         _mm_cmplt_epi8(v, space));
        const int mask = _mm_movemask_epi8(special);
        if (mask != 0)
            return p + __builtin_ctz(unsigned(mask));
        p += 16;
    }
#endif
    while (p < end && kPlain.plain[uchar(*p)])
        ++p;
    return p;
}

constexpr int kMaxDepth = 64;
constexpr qsizetype kMaxNumberLength = 32;
constexpr int kMaxExponent = 200; // keeps every accepted number far from overflow and underflow

// Recursive-descent reader over [p, end). Every member function returns false for "not sure":
// invalid JSON and valid JSON outside the accepted subset alike. The caller then asks the full
// parser, which gives the authoritative answer (including the error message).
class Reader
{
public:
    Reader(const char *p, const char *end) : m_p(p), m_end(end) {}

    bool chunk(ApiFlavour flavour, ChunkFields *out);

private:
    enum Key : unsigned {
        KError = 1u << 0,
        KObject = 1u << 1,
        KUsage = 1u << 2,
        KChoices = 1u << 3,
        KPrompt = 1u << 4,
        KCompletion = 1u << 5,
        KDetails = 1u << 6,
        KCached = 1u << 7,
        KFinish = 1u << 8,
        KText = 1u << 9,
        KDelta = 1u << 10,
        KContent = 1u << 11,
        KReasoningContent = 1u << 12,
        KReasoning = 1u << 13,
        KCompletionDetails = 1u << 14,
        KReasoningTokens = 1u << 15,
    };

    void ws()
    {
        // Servers send compact JSON: the next byte is almost never white space, and a byte
        // above 0x20 never is — one compare instead of four (this ran ~50 times per event).
        if (m_p < m_end && uchar(*m_p) > ' ')
            return;
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    bool peek(char c)
    {
        ws();
        return m_p < m_end && *m_p == c;
    }
    bool expect(char c)
    {
        ws();
        if (m_p >= m_end || *m_p != c)
            return false;
        ++m_p;
        return true;
    }
    // Reads a member key (no escapes accepted) and the colon after it.
    bool key(QByteArrayView *k);
    // Validates a string starting at '"'; counts its code points; *raw (optional) receives the
    // bytes between the quotes and *escaped whether any escape occurred.
    bool string(qsizetype *codepoints, QByteArrayView *raw = nullptr, bool *escaped = nullptr);
    bool number(qint32 *intValue); // intValue: set to the value for plain non-negative ints
    bool literal(const char *word, size_t len);
    bool skipValue(int depth);
    bool skipObject(int depth);
    bool skipArray(int depth);
    // Iterates members: calls f(key) with m_p at the value; f must consume the value.
    template <class F> bool members(int depth, F &&f);

    bool intField(qint32 *out); // a number that is a plain non-negative int, or any other type
    // A string (counted; its raw bytes in *raw) or any other type (0, empty).
    bool stringChars(qsizetype *out, QByteArrayView *raw = nullptr, bool *escaped = nullptr);
    bool usage(ChunkFields *out);
    bool details(ChunkFields *out);
    bool completionDetails(ChunkFields *out);
    bool choices(ApiFlavour flavour, ChunkFields *out);
    bool choice(ApiFlavour flavour, ChunkFields *out);
    bool delta(ChunkFields *out);

    static bool seen(unsigned *mask, unsigned bit)
    {
        if (*mask & bit)
            return true; // a duplicate key: which one a parser keeps is not ours to guess
        *mask |= bit;
        return false;
    }

    const char *m_p;
    const char *m_end;

public:
    ChunkText text; // where the generated text was found
};

bool Reader::key(QByteArrayView *k)
{
    ws();
    if (m_p >= m_end || *m_p != '"')
        return false;
    const char *start = m_p + 1;
    const char *q = plainRunEnd(start, m_end);
    if (q >= m_end || *q != '"') {
        // Non-ASCII or escaped keys are valid JSON but never ours: validate and move on.
        qsizetype ignored;
        QByteArrayView raw;
        bool escaped = false;
        if (!string(&ignored, &raw, &escaped))
            return false;
        if (escaped)
            return false; // an escaped key could spell one we read
        *k = raw;
        return expect(':');
    }
    *k = QByteArrayView(start, q - start);
    m_p = q + 1;
    return expect(':');
}

bool Reader::string(qsizetype *codepoints, QByteArrayView *raw, bool *escaped)
{
    ws();
    if (m_p >= m_end || *m_p != '"')
        return false;
    const char *const start = ++m_p;
    qsizetype n = 0;
    bool esc = false;
    const auto hex4 = [this](unsigned *v) {
        if (m_end - m_p < 4)
            return false;
        unsigned r = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = m_p[i];
            r <<= 4;
            if (c >= '0' && c <= '9')
                r |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                r |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                r |= unsigned(c - 'A' + 10);
            else
                return false;
        }
        m_p += 4;
        *v = r;
        return true;
    };
    while (m_p < m_end) {
        // Runs of plain ASCII, the bulk of any token text, in a tight loop.
        const char *run = m_p;
        m_p = plainRunEnd(m_p, m_end);
        n += m_p - run;
        if (m_p >= m_end)
            break;
        const uchar c = uchar(*m_p);
        if (c == '"') {
            if (raw)
                *raw = QByteArrayView(start, m_p - start);
            if (escaped)
                *escaped = esc;
            ++m_p;
            *codepoints = n;
            return true;
        }
        if (c < 0x20)
            return false;
        if (c < 0x80) {
            if (c == '\\') {
                esc = true;
                if (++m_p >= m_end)
                    return false;
                const char e = *m_p++;
                if (e == 'u') {
                    unsigned v;
                    if (!hex4(&v))
                        return false;
                    if (v >= 0xDC00 && v <= 0xDFFF)
                        return false; // a lone low surrogate
                    if (v >= 0xD800 && v <= 0xDBFF) {
                        unsigned lo;
                        if (m_end - m_p < 2 || m_p[0] != '\\' || m_p[1] != 'u')
                            return false; // a lone high surrogate
                        m_p += 2;
                        if (!hex4(&lo) || lo < 0xDC00 || lo > 0xDFFF)
                            return false;
                    }
                } else if (!std::strchr("\"\\/bfnrt", e) || e == '\0') {
                    return false;
                }
            } else {
                ++m_p;
            }
            ++n;
            continue;
        }
        // Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF;
        // noncharacters are left to the full parser.
        const auto cont = [](uchar b) {
            return (b & 0xC0) == 0x80;
        };
        const qsizetype left = m_end - m_p;
        const auto *u = reinterpret_cast<const uchar *>(m_p);
        if (c >= 0xC2 && c <= 0xDF) {
            if (left < 2 || !cont(u[1]))
                return false;
            m_p += 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            if (left < 3 || !cont(u[1]) || !cont(u[2]))
                return false;
            if ((c == 0xE0 && u[1] < 0xA0) || (c == 0xED && u[1] > 0x9F))
                return false;
            const unsigned cp =
                (unsigned(c & 0x0F) << 12) | (unsigned(u[1] & 0x3F) << 6) | unsigned(u[2] & 0x3F);
            if ((cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE)
                return false;
            m_p += 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            if (left < 4 || !cont(u[1]) || !cont(u[2]) || !cont(u[3]))
                return false;
            if ((c == 0xF0 && u[1] < 0x90) || (c == 0xF4 && u[1] > 0x8F))
                return false;
            if ((u[1] & 0x0F) == 0x0F && u[2] == 0xBF && (u[3] & 0xFE) == 0xBE)
                return false; // U+xFFFE / U+xFFFF
            m_p += 4;
        } else {
            return false;
        }
        ++n;
    }
    return false;
}

bool Reader::number(qint32 *intValue)
{
    ws();
    const char *const start = m_p;
    bool negative = false;
    if (m_p < m_end && *m_p == '-') {
        negative = true;
        ++m_p;
    }
    if (m_p >= m_end)
        return false;
    const char *const digits = m_p;
    if (*m_p == '0') {
        ++m_p;
    } else if (*m_p >= '1' && *m_p <= '9') {
        while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
            ++m_p;
    } else {
        return false;
    }
    const qsizetype intDigits = m_p - digits;
    bool plain = true;
    if (m_p < m_end && *m_p == '.') {
        plain = false;
        ++m_p;
        const char *f = m_p;
        while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
            ++m_p;
        if (m_p == f)
            return false;
    }
    if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
        plain = false;
        ++m_p;
        if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
            ++m_p;
        int exponent = 0;
        const char *e = m_p;
        while (m_p < m_end && *m_p >= '0' && *m_p <= '9') {
            exponent = exponent * 10 + (*m_p - '0');
            if (exponent > kMaxExponent)
                return false;
            ++m_p;
        }
        if (m_p == e)
            return false;
    }
    if (m_p - start > kMaxNumberLength)
        return false;
    if (intValue) {
        // Only plain non-negative ints below 10^9 are read; toInt(-1) of anything else needs
        // the double semantics of the full parser.
        if (!plain || negative || intDigits > 9)
            return false;
        qint32 v = 0;
        for (const char *d = digits; d < m_p; ++d)
            v = v * 10 + (*d - '0');
        *intValue = v;
    }
    return true;
}

bool Reader::literal(const char *word, size_t len)
{
    if (size_t(m_end - m_p) < len || std::memcmp(m_p, word, len) != 0)
        return false;
    m_p += len;
    return true;
}

bool Reader::skipValue(int depth)
{
    ws();
    if (m_p >= m_end)
        return false;
    switch (*m_p) {
    case '"': {
        qsizetype ignored;
        return string(&ignored);
    }
    case '{':
        return skipObject(depth + 1);
    case '[':
        return skipArray(depth + 1);
    case 't':
        return literal("true", 4);
    case 'f':
        return literal("false", 5);
    case 'n':
        return literal("null", 4);
    default:
        return number(nullptr);
    }
}

template <class F> bool Reader::members(int depth, F &&f)
{
    if (depth > kMaxDepth || !expect('{'))
        return false;
    if (peek('}')) {
        ++m_p;
        return true;
    }
    for (;;) {
        QByteArrayView k;
        if (!key(&k) || !f(k))
            return false;
        ws();
        if (m_p >= m_end)
            return false;
        if (*m_p == ',') {
            ++m_p;
            continue;
        }
        if (*m_p == '}') {
            ++m_p;
            return true;
        }
        return false;
    }
}

bool Reader::skipObject(int depth)
{
    return members(depth, [this, depth](QByteArrayView) { return skipValue(depth); });
}

bool Reader::skipArray(int depth)
{
    if (depth > kMaxDepth || !expect('['))
        return false;
    if (peek(']')) {
        ++m_p;
        return true;
    }
    for (;;) {
        if (!skipValue(depth))
            return false;
        ws();
        if (m_p >= m_end)
            return false;
        if (*m_p == ',') {
            ++m_p;
            continue;
        }
        if (*m_p == ']') {
            ++m_p;
            return true;
        }
        return false;
    }
}

bool Reader::intField(qint32 *out)
{
    ws();
    if (m_p < m_end && (*m_p == '-' || (*m_p >= '0' && *m_p <= '9')))
        return number(out);
    *out = -1; // toInt(-1) of a non-number
    return skipValue(1);
}

bool Reader::stringChars(qsizetype *out, QByteArrayView *raw, bool *escaped)
{
    if (peek('"')) {
        return string(out, raw, escaped);
    }
    *out = 0; // toString() of a non-string is empty
    if (raw)
        *raw = QByteArrayView();
    return skipValue(1);
}

bool Reader::details(ChunkFields *out)
{
    unsigned mask = 0;
    return members(3, [&](QByteArrayView k) {
        if (is(k, "cached_tokens")) {
            return !seen(&mask, KCached) && intField(&out->cachedTokens);
        }
        return skipValue(3);
    });
}

bool Reader::completionDetails(ChunkFields *out)
{
    unsigned mask = 0;
    return members(3, [&](QByteArrayView k) {
        if (is(k, "reasoning_tokens"))
            return !seen(&mask, KReasoningTokens) && intField(&out->reasoningTokens);
        return skipValue(3);
    });
}

bool Reader::usage(ChunkFields *out)
{
    unsigned mask = 0;
    return members(2, [&](QByteArrayView k) {
        if (is(k, "prompt_tokens"))
            return !seen(&mask, KPrompt) && intField(&out->promptTokens);
        if (is(k, "completion_tokens"))
            return !seen(&mask, KCompletion) && intField(&out->completionTokens);
        if (is(k, "prompt_tokens_details")) {
            if (seen(&mask, KDetails))
                return false;
            if (peek('{'))
                return details(out);
            return skipValue(2);
        }
        if (is(k, "completion_tokens_details")) {
            if (seen(&mask, KCompletionDetails))
                return false;
            if (peek('{'))
                return completionDetails(out);
            return skipValue(2);
        }
        return skipValue(2);
    });
}

bool Reader::delta(ChunkFields *out)
{
    unsigned mask = 0;
    qsizetype content = 0, reasoningContent = 0, reasoning = 0;
    QByteArrayView reasoningContentRaw, reasoningRaw;
    bool reasoningContentEscaped = false, reasoningEscaped = false;
    const bool ok = members(4, [&](QByteArrayView k) {
        if (is(k, "content"))
            return !seen(&mask, KContent) &&
                   stringChars(&content, &text.content, &text.contentEscaped);
        if (is(k, "reasoning_content"))
            return !seen(&mask, KReasoningContent) &&
                   stringChars(&reasoningContent, &reasoningContentRaw, &reasoningContentEscaped);
        if (is(k, "reasoning"))
            return !seen(&mask, KReasoning) &&
                   stringChars(&reasoning, &reasoningRaw, &reasoningEscaped);
        return skipValue(4);
    });
    // Counting code points of strings without lone surrogates, empty <=> zero code points.
    out->reasoningChars = reasoningContent > 0 ? reasoningContent : reasoning;
    out->chars = content + out->reasoningChars;
    text.reasoning = reasoningContent > 0 ? reasoningContentRaw : reasoningRaw;
    text.reasoningEscaped = reasoningContent > 0 ? reasoningContentEscaped : reasoningEscaped;
    return ok;
}

bool Reader::choice(ApiFlavour flavour, ChunkFields *out)
{
    unsigned mask = 0;
    return members(3, [&](QByteArrayView k) {
        if (is(k, "finish_reason")) {
            if (seen(&mask, KFinish))
                return false;
            if (!peek('"'))
                return skipValue(3);
            qsizetype n;
            QByteArrayView raw;
            bool escaped = false;
            if (!string(&n, &raw, &escaped) || escaped)
                return false;
            out->finishReason = raw.isEmpty() ? QString() : QString::fromUtf8(raw);
            return true;
        }
        if (flavour == ApiFlavour::Completions && is(k, "text"))
            return !seen(&mask, KText) &&
                   stringChars(&out->chars, &text.content, &text.contentEscaped);
        if (flavour != ApiFlavour::Completions && is(k, "delta")) {
            if (seen(&mask, KDelta))
                return false;
            if (peek('{'))
                return delta(out);
            return skipValue(3);
        }
        return skipValue(3);
    });
}

bool Reader::choices(ApiFlavour flavour, ChunkFields *out)
{
    if (!expect('['))
        return false;
    if (peek(']')) {
        ++m_p;
        return true;
    }
    out->hasChoices = true;
    if (peek('{')) {
        if (!choice(flavour, out))
            return false;
    } else if (!skipValue(2)) {
        return false;
    }
    for (;;) {
        ws();
        if (m_p >= m_end)
            return false;
        if (*m_p == ']') {
            ++m_p;
            return true;
        }
        if (*m_p != ',')
            return false;
        ++m_p;
        if (!skipValue(2))
            return false;
    }
}

bool Reader::chunk(ApiFlavour flavour, ChunkFields *out)
{
    unsigned mask = 0;
    const bool ok = members(1, [&](QByteArrayView k) {
        if (is(k, "error"))
            return false; // error objects take the full path: their message matters
        if (is(k, "object")) {
            if (seen(&mask, KObject))
                return false;
            if (!peek('"'))
                return skipValue(1);
            qsizetype n;
            QByteArrayView raw;
            bool escaped = false;
            return string(&n, &raw, &escaped) && !escaped && raw != "error";
        }
        if (is(k, "usage")) {
            if (seen(&mask, KUsage))
                return false;
            if (peek('{'))
                return usage(out);
            return skipValue(1);
        }
        if (is(k, "choices")) {
            if (seen(&mask, KChoices))
                return false;
            if (peek('['))
                return choices(flavour, out);
            return skipValue(1);
        }
        return skipValue(1);
    });
    if (!ok)
        return false;
    ws();
    return m_p == m_end;
}

} // namespace

bool ChunkScanner::scan(QByteArrayView payload, ApiFlavour flavour, ChunkFields *out,
                        ChunkText *text)
{
    *out = ChunkFields();
    Reader reader(payload.data(), payload.data() + payload.size());
    if (reader.chunk(flavour, out)) {
        if (text)
            *text = reader.text;
        return true;
    }
    *out = ChunkFields();
    return false;
}

void appendJsonStringUtf8(QByteArrayView raw, bool escaped, QByteArray *out)
{
    if (!escaped) {
        out->append(raw);
        return;
    }
    const char *p = raw.data();
    const char *const end = p + raw.size();
    const auto hex4 = [](const char *h) {
        unsigned v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = h[i];
            v = (v << 4) | unsigned(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
        }
        return v;
    };
    const auto appendCodePoint = [out](char32_t cp) {
        char buf[4];
        int n = 0;
        if (cp < 0x80) {
            buf[n++] = char(cp);
        } else if (cp < 0x800) {
            buf[n++] = char(0xC0 | (cp >> 6));
            buf[n++] = char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            buf[n++] = char(0xE0 | (cp >> 12));
            buf[n++] = char(0x80 | ((cp >> 6) & 0x3F));
            buf[n++] = char(0x80 | (cp & 0x3F));
        } else {
            buf[n++] = char(0xF0 | (cp >> 18));
            buf[n++] = char(0x80 | ((cp >> 12) & 0x3F));
            buf[n++] = char(0x80 | ((cp >> 6) & 0x3F));
            buf[n++] = char(0x80 | (cp & 0x3F));
        }
        out->append(buf, n);
    };
    while (p < end) {
        const char *run = p;
        while (p < end && *p != '\\')
            ++p;
        out->append(run, p - run);
        if (p + 1 >= end)
            break;
        const char e = p[1];
        p += 2;
        switch (e) {
        case 'b':
            out->append('\b');
            break;
        case 'f':
            out->append('\f');
            break;
        case 'n':
            out->append('\n');
            break;
        case 'r':
            out->append('\r');
            break;
        case 't':
            out->append('\t');
            break;
        case 'u': {
            if (end - p < 4)
                return;
            char32_t cp = hex4(p);
            p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                const char32_t lo = hex4(p + 2);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                }
            }
            if (cp >= 0xD800 && cp <= 0xDFFF)
                cp = 0xFFFD; // a lone surrogate: what a UTF-8 decoder makes of it
            appendCodePoint(cp);
            break;
        }
        default: // '"', '\\', '/'
            out->append(e);
            break;
        }
    }
}

ChunkFields ChunkScanner::fromJson(const QJsonObject &chunk, ApiFlavour flavour)
{
    ChunkFields f;
    const QJsonValue usage = chunk.value("usage"_L1);
    if (usage.isObject()) {
        const QJsonObject u = usage.toObject();
        f.promptTokens = u.value("prompt_tokens"_L1).toInt(-1);
        f.completionTokens = u.value("completion_tokens"_L1).toInt(-1);
        f.cachedTokens =
            u.value("prompt_tokens_details"_L1).toObject().value("cached_tokens"_L1).toInt(-1);
        f.reasoningTokens = u.value("completion_tokens_details"_L1)
                                .toObject()
                                .value("reasoning_tokens"_L1)
                                .toInt(-1);
    }
    const QJsonArray choices = chunk.value("choices"_L1).toArray();
    if (choices.isEmpty())
        return f;
    f.hasChoices = true;
    const QJsonObject choice = choices.first().toObject();
    f.finishReason = choice.value("finish_reason"_L1).toString();
    if (flavour == ApiFlavour::Completions) {
        f.chars = codePoints(choice.value("text"_L1).toString());
    } else {
        const QJsonObject delta = choice.value("delta"_L1).toObject();
        f.chars = codePoints(delta.value("content"_L1).toString());
        // vLLM renamed reasoning_content to reasoning and for a while sent both with the same
        // text: count one of them.
        QString reasoning = delta.value("reasoning_content"_L1).toString();
        if (reasoning.isEmpty())
            reasoning = delta.value("reasoning"_L1).toString();
        f.reasoningChars = codePoints(reasoning);
        f.chars += f.reasoningChars;
    }
    return f;
}

} // namespace sb
