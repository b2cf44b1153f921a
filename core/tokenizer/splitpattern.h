#pragma once

#include <QString>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sb::tok {

struct Span
{
    uint32_t begin;
    uint32_t end;
};

// The split regexes of the supported tokenizers, each matched by hand over code points. A general
// regex engine (QRegularExpression/PCRE2) would be slower on every character and would still
// need \s rewritten to White_Space; hand-written matchers also make each pattern's backtracking
// explicit, so exactness can be argued case by case (see docs/tokenizers.md). A pattern is
// recognised by its exact text; any other regex is refused with its text.
class SplitPattern
{
public:
    enum class Kind {
        Gpt2,   // GPT-2 / r50k: 's|'t|...| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
        Cl100k, // cl100k_base, Llama 3: (?i:'s|...)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|...
        Qwen2,  // Qwen 2/2.5/3: the Llama 3 pattern with single digits (\p{N})
        O200k,  // o200k_base: case-aware letter runs with trailing contractions
        Literal // a plain string (the "String" pattern of Split)
    };

    // Recognises a Split "Regex" pattern. Returns false (and leaves *out alone) if it is not one
    // of the known patterns.
    static bool fromRegex(const QString &regex, SplitPattern *out);
    static SplitPattern literal(std::string text);
    static SplitPattern ofKind(Kind kind);

    Kind kind() const { return m_kind; }
    QString name() const;

    // Appends the successive leftmost-first, non-overlapping matches in text[begin, end).
    void findMatches(std::string_view text, uint32_t begin, uint32_t end,
                     std::vector<Span> *matches) const;

private:
    size_t matchCl100k(const unsigned char *p, size_t i, size_t n, int maxDigits) const;
    size_t matchO200k(const unsigned char *p, size_t i, size_t n) const;
    size_t matchGpt2(const unsigned char *p, size_t i, size_t n) const;

    Kind m_kind = Kind::Literal;
    std::string m_literal;
};

} // namespace sb::tok
