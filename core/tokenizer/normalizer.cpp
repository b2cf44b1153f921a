#include "tokenizer/normalizer.h"

#include "tokenizer/unicodeclass.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace sb::tok {

namespace {

std::string toStd(const QString &s)
{
    const QByteArray u = s.toUtf8();
    return std::string(u.constData(), size_t(u.size()));
}

// Text whose bytes are all below this cannot change under NFC: every character is below U+0300,
// where no character decomposes canonically into something that recomposes differently and no
// combining mark exists yet.
bool nfcStable(std::string_view s)
{
    for (unsigned char c : s) {
        if (c >= 0xCC)
            return false;
    }
    return true;
}

bool asciiOnly(std::string_view s)
{
    for (unsigned char c : s) {
        if (c >= 0x80)
            return false;
    }
    return true;
}

bool isWhiteSpace(char32_t cp)
{
    return (charClass(cp) & kSpace) != 0;
}

} // namespace

bool Normalizer::fromJson(const QJsonValue &v, const QString &field, Normalizer *out,
                          QString *error)
{
    Normalizer n;
    if (!v.isNull() && !n.parse(v, field, error))
        return false;
    *out = std::move(n);
    return true;
}

bool Normalizer::parse(const QJsonValue &v, const QString &field, QString *error)
{
    if (!v.isObject()) {
        *error = u"%1: expected an object"_s.arg(field);
        return false;
    }
    const QJsonObject o = v.toObject();
    const QString type = o.value("type"_L1).toString();
    if (type == "Sequence"_L1) {
        const QJsonValue list = o.value("normalizers"_L1);
        if (!list.isArray()) {
            *error = u"%1.normalizers: expected an array"_s.arg(field);
            return false;
        }
        const QJsonArray a = list.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (!parse(a.at(i), u"%1.normalizers[%2]"_s.arg(field).arg(i), error))
                return false;
        }
        return true;
    }
    Step s;
    if (type == "NFC"_L1) {
        s.type = Step::Nfc;
    } else if (type == "NFD"_L1) {
        s.type = Step::Nfd;
    } else if (type == "NFKC"_L1) {
        s.type = Step::Nfkc;
    } else if (type == "NFKD"_L1) {
        s.type = Step::Nfkd;
    } else if (type == "Prepend"_L1) {
        s.type = Step::Prepend;
        if (!o.value("prepend"_L1).isString()) {
            *error = u"%1.prepend: expected a string"_s.arg(field);
            return false;
        }
        s.a = toStd(o.value("prepend"_L1).toString());
    } else if (type == "Replace"_L1) {
        s.type = Step::Replace;
        const QJsonObject pattern = o.value("pattern"_L1).toObject();
        if (!pattern.value("String"_L1).isString()) {
            *error = pattern.contains("Regex"_L1)
                         ? u"%1.pattern: Replace with a Regex pattern is not supported (%2)"_s.arg(
                               field, pattern.value("Regex"_L1).toString())
                         : u"%1.pattern: expected {\"String\": ...}"_s.arg(field);
            return false;
        }
        s.a = toStd(pattern.value("String"_L1).toString());
        s.b = toStd(o.value("content"_L1).toString());
        if (s.a.empty()) {
            *error = u"%1.pattern.String: empty pattern"_s.arg(field);
            return false;
        }
    } else if (type == "Strip"_L1) {
        s.type = Step::Strip;
        s.left = o.value("strip_left"_L1).toBool();
        s.right = o.value("strip_right"_L1).toBool();
    } else {
        *error = u"%1.type: normalizer \"%2\" is not supported (supported: NFC, NFD, NFKC, NFKD, "
                 u"Replace, Prepend, Strip, Sequence)"_s.arg(field, type);
        return false;
    }
    m_steps.push_back(std::move(s));
    return true;
}

void Normalizer::applyStep(const Step &s, std::string &text)
{
    switch (s.type) {
    case Step::Nfc:
    case Step::Nfd:
    case Step::Nfkc:
    case Step::Nfkd: {
        if (asciiOnly(text) || (s.type == Step::Nfc && nfcStable(text)))
            return;
        static constexpr QString::NormalizationForm forms[] = {
            QString::NormalizationForm_C, QString::NormalizationForm_D,
            QString::NormalizationForm_KC, QString::NormalizationForm_KD};
        const QString q = utf8ToQString(text);
        const QByteArray u = q.normalized(forms[s.type]).toUtf8();
        text.assign(u.constData(), size_t(u.size()));
        return;
    }
    case Step::Replace: {
        size_t pos = text.find(s.a);
        if (pos == std::string::npos)
            return;
        std::string out;
        out.reserve(text.size() + text.size() / 4);
        size_t from = 0;
        while (pos != std::string::npos) {
            out.append(text, from, pos - from);
            out.append(s.b);
            from = pos + s.a.size();
            pos = text.find(s.a, from);
        }
        out.append(text, from, std::string::npos);
        text.swap(out);
        return;
    }
    case Step::Prepend:
        // Only a non-empty text gets the prefix (both reference implementations skip empty
        // sections before normalizing).
        if (!text.empty())
            text.insert(0, s.a);
        return;
    case Step::Strip: {
        const auto *p = reinterpret_cast<const unsigned char *>(text.data());
        size_t b = 0;
        size_t e = text.size();
        if (s.left) {
            while (b < e) {
                char32_t cp;
                const int len = decodeUtf8(p + b, &cp);
                if (!isWhiteSpace(cp))
                    break;
                b += size_t(len);
            }
        }
        if (s.right) {
            while (e > b) {
                size_t k = e - 1;
                while (k > b && (p[k] & 0xC0) == 0x80)
                    --k;
                char32_t cp;
                decodeUtf8(p + k, &cp);
                if (!isWhiteSpace(cp))
                    break;
                e = k;
            }
        }
        text = text.substr(b, e - b);
        return;
    }
    }
}

std::string_view Normalizer::apply(std::string_view in, std::string *buffer) const
{
    if (m_steps.empty())
        return in;
    // The common single-step cases that change nothing avoid the copy.
    if (m_steps.size() == 1 && m_steps[0].type == Step::Nfc && nfcStable(in))
        return in;
    buffer->assign(in.data(), in.size());
    for (const Step &s : m_steps)
        applyStep(s, *buffer);
    return *buffer;
}

QString Normalizer::describe() const
{
    QStringList parts;
    for (const Step &s : m_steps) {
        switch (s.type) {
        case Step::Nfc:
            parts << u"NFC"_s;
            break;
        case Step::Nfd:
            parts << u"NFD"_s;
            break;
        case Step::Nfkc:
            parts << u"NFKC"_s;
            break;
        case Step::Nfkd:
            parts << u"NFKD"_s;
            break;
        case Step::Replace:
            parts << u"Replace"_s;
            break;
        case Step::Prepend:
            parts << u"Prepend"_s;
            break;
        case Step::Strip:
            parts << u"Strip"_s;
            break;
        }
    }
    return parts.isEmpty() ? u"none"_s : parts.join(u'+');
}

} // namespace sb::tok
