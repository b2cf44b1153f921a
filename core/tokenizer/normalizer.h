#pragma once

#include <QString>

#include <string>
#include <string_view>
#include <vector>

class QJsonValue;

namespace sb::tok {

// The "normalizer" of tokenizer.json: NFC, NFD, NFKC, NFKD, Replace (String pattern), Prepend,
// Strip and Sequence of those. Anything else is refused by name when the file is loaded.
class Normalizer
{
public:
    // field: the JSON path of v, for error messages ("normalizer.normalizers[1]").
    static bool fromJson(const QJsonValue &v, const QString &field, Normalizer *out,
                         QString *error);

    bool isIdentity() const { return m_steps.empty(); }
    // The normalized text: `in` itself when nothing changes, else a view of *buffer.
    std::string_view apply(std::string_view in, std::string *buffer) const;
    QString describe() const;

private:
    struct Step
    {
        enum Type { Nfc, Nfd, Nfkc, Nfkd, Replace, Prepend, Strip } type;
        std::string a; // Replace: pattern; Prepend: text
        std::string b; // Replace: content
        bool left = false;
        bool right = false;
    };
    bool parse(const QJsonValue &v, const QString &field, QString *error);
    static void applyStep(const Step &s, std::string &text);

    std::vector<Step> m_steps;
};

} // namespace sb::tok
