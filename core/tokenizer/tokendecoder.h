#pragma once

#include <QString>

#include <string>
#include <vector>

class QJsonValue;

namespace sb::tok {

// The "decoder" of tokenizer.json: ByteLevel, Replace (String pattern), ByteFallback, Fuse,
// Strip, Metaspace and Sequence of those. Anything else is refused by name when loaded.
class TokenDecoder
{
public:
    static bool fromJson(const QJsonValue &v, const QString &field, TokenDecoder *out,
                         QString *error);
    static TokenDecoder byteLevel();

    QString describe() const;
    // tokens: the token strings as written in the file (UTF-8); added[i]: token i is an added
    // token (ByteLevel leaves those as they are). Returns the decoded bytes.
    std::string decode(std::vector<std::string> tokens, const std::vector<bool> &added) const;

private:
    struct Step
    {
        enum Type { ByteLevel, Replace, ByteFallback, Fuse, Strip, Metaspace } type;
        std::string a;             // Replace: pattern; Strip: content; Metaspace: replacement
        std::string b;             // Replace: content
        int start = 0;             // Strip
        int stop = 0;              // Strip
        bool prependNever = false; // Metaspace
    };
    bool parse(const QJsonValue &v, const QString &field, QString *error);

    std::vector<Step> m_steps;
};

} // namespace sb::tok
