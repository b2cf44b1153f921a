#pragma once

#include "tokenizer/splitpattern.h"

#include <QString>

#include <string>
#include <string_view>
#include <vector>

class QJsonValue;

namespace sb::tok {

// The "pre_tokenizer" of tokenizer.json: Split (a known regex or a plain string, every split
// behaviour, invert), ByteLevel, Metaspace, Digits and Sequence of those. Anything else is
// refused by name when the file is loaded.
class PreTokenizer
{
public:
    enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

    static bool fromJson(const QJsonValue &v, const QString &field, PreTokenizer *out,
                         QString *error);
    // One Split with Isolated behaviour (tiktoken encodings).
    static PreTokenizer split(SplitPattern pattern);

    // True if a ByteLevel step is present: the vocabulary is then written in the byte-to-unicode
    // alphabet and words are merged as raw bytes.
    bool byteLevel() const { return m_byteLevel; }
    bool isIdentity() const { return m_steps.empty(); }
    QString describe() const;

    // Splits `text` into words. The words are spans of the returned view, which is `text`
    // itself unless a step rewrites characters (Metaspace, ByteLevel's prefix space), in which
    // case it views *buffer. firstSection: the text starts at the beginning of the input (for
    // Metaspace's prepend_scheme "first").
    std::string_view run(std::string_view text, bool firstSection, std::string *buffer,
                         std::vector<Span> *words, std::vector<Span> *scratch) const;

private:
    struct Step
    {
        enum Type { Split, ByteLevel, Metaspace, Digits } type;
        SplitPattern pattern;
        Behavior behavior = Behavior::Isolated;
        bool invert = false;
        bool addPrefixSpace = false; // ByteLevel
        bool useRegex = false;       // ByteLevel
        std::string replacement;     // Metaspace
        enum Prepend { Always, First, Never } prepend = Always;
        bool splitOnReplacement = false; // Metaspace "split"
        bool individualDigits = false;   // Digits
    };
    bool parse(const QJsonValue &v, const QString &field, QString *error);
    static void splitSpans(const Step &s, std::string_view text, const std::vector<Span> &in,
                           std::vector<Span> *out, std::vector<Span> *matches);

    std::vector<Step> m_steps;
    bool m_byteLevel = false;
};

} // namespace sb::tok
