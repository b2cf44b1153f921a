#include "tokenizer/tokendecoder.h"

#include "tokenizer/bytelevelmap.h"
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

void replaceAll(std::string &text, const std::string &from, const std::string &to)
{
    if (from.empty())
        return;
    size_t pos = text.find(from);
    while (pos != std::string::npos) {
        text.replace(pos, from.size(), to);
        pos = text.find(from, pos + to.size());
    }
}

// "<0xAB>" -> 0xAB, or -1.
int fallbackByte(const std::string &t)
{
    if (t.size() != 6 || t.compare(0, 3, "<0x") != 0 || t[5] != '>')
        return -1;
    int v = 0;
    for (int i = 3; i < 5; ++i) {
        const char c = t[size_t(i)];
        v *= 16;
        if (c >= '0' && c <= '9')
            v += c - '0';
        else if (c >= 'A' && c <= 'F')
            v += c - 'A' + 10;
        else if (c >= 'a' && c <= 'f')
            v += c - 'a' + 10;
        else
            return -1;
    }
    return v;
}

} // namespace

bool TokenDecoder::fromJson(const QJsonValue &v, const QString &field, TokenDecoder *out,
                            QString *error)
{
    TokenDecoder d;
    if (!v.isNull() && !d.parse(v, field, error))
        return false;
    *out = std::move(d);
    return true;
}

TokenDecoder TokenDecoder::byteLevel()
{
    TokenDecoder d;
    d.m_steps.push_back({Step::ByteLevel, {}, {}});
    return d;
}

bool TokenDecoder::parse(const QJsonValue &v, const QString &field, QString *error)
{
    if (!v.isObject()) {
        *error = u"%1: expected an object"_s.arg(field);
        return false;
    }
    const QJsonObject o = v.toObject();
    const QString type = o.value("type"_L1).toString();
    if (type == "Sequence"_L1) {
        const QJsonValue list = o.value("decoders"_L1);
        if (!list.isArray()) {
            *error = u"%1.decoders: expected an array"_s.arg(field);
            return false;
        }
        const QJsonArray a = list.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (!parse(a.at(i), u"%1.decoders[%2]"_s.arg(field).arg(i), error))
                return false;
        }
        return true;
    }
    Step s{Step::Fuse, {}, {}};
    if (type == "ByteLevel"_L1) {
        s.type = Step::ByteLevel;
    } else if (type == "ByteFallback"_L1) {
        s.type = Step::ByteFallback;
    } else if (type == "Fuse"_L1) {
        s.type = Step::Fuse;
    } else if (type == "Replace"_L1) {
        s.type = Step::Replace;
        const QJsonObject pattern = o.value("pattern"_L1).toObject();
        if (!pattern.value("String"_L1).isString()) {
            *error = u"%1.pattern: only a String pattern is supported"_s.arg(field);
            return false;
        }
        s.a = toStd(pattern.value("String"_L1).toString());
        s.b = toStd(o.value("content"_L1).toString());
    } else if (type == "Strip"_L1) {
        s.type = Step::Strip;
        s.a = toStd(o.value("content"_L1).toString());
        s.start = o.value("start"_L1).toInt();
        s.stop = o.value("stop"_L1).toInt();
        if (!s.a.empty() && size_t(utf8Length(static_cast<unsigned char>(s.a[0]))) != s.a.size()) {
            *error = u"%1.content: expected one character"_s.arg(field);
            return false;
        }
    } else if (type == "Metaspace"_L1) {
        s.type = Step::Metaspace;
        s.a = toStd(o.value("replacement"_L1).toString(u"\u2581"_s));
        const QString scheme = o.value("prepend_scheme"_L1).toString();
        s.prependNever = scheme == "never"_L1 ||
                         (scheme.isEmpty() && !o.value("add_prefix_space"_L1).toBool(true));
    } else {
        *error = u"%1.type: decoder \"%2\" is not supported (supported: ByteLevel, Replace, "
                 u"ByteFallback, Fuse, Strip, Metaspace, Sequence)"_s.arg(field, type);
        return false;
    }
    m_steps.push_back(std::move(s));
    return true;
}

std::string TokenDecoder::decode(std::vector<std::string> tokens,
                                 const std::vector<bool> &added) const
{
    std::vector<bool> isAdded = added;
    for (const Step &s : m_steps) {
        switch (s.type) {
        case Step::ByteLevel:
            for (size_t i = 0; i < tokens.size(); ++i) {
                if (i < isAdded.size() && isAdded[i])
                    continue;
                tokens[i] = ByteLevelMap::toBytes(tokens[i]);
            }
            break;
        case Step::Replace:
            for (std::string &t : tokens)
                replaceAll(t, s.a, s.b);
            break;
        case Step::ByteFallback: {
            // Runs of <0xAB> tokens become their bytes when those form valid UTF-8; otherwise
            // each byte becomes U+FFFD (the Rust implementation's rule).
            std::vector<std::string> out;
            std::vector<bool> outAdded;
            std::string run;
            int runCount = 0;
            const auto flush = [&] {
                if (runCount == 0)
                    return;
                if (isValidUtf8(run)) {
                    out.push_back(run);
                } else {
                    std::string r;
                    for (int k = 0; k < runCount; ++k)
                        r += "\xEF\xBF\xBD";
                    out.push_back(r);
                }
                outAdded.push_back(false);
                run.clear();
                runCount = 0;
            };
            for (size_t i = 0; i < tokens.size(); ++i) {
                const int b = fallbackByte(tokens[i]);
                if (b >= 0) {
                    run.push_back(char(b));
                    ++runCount;
                    continue;
                }
                flush();
                out.push_back(std::move(tokens[i]));
                outAdded.push_back(i < isAdded.size() && isAdded[i]);
            }
            flush();
            tokens.swap(out);
            isAdded.swap(outAdded);
            break;
        }
        case Step::Fuse: {
            std::string all;
            for (const std::string &t : tokens)
                all += t;
            tokens.assign(1, all);
            isAdded.assign(1, false);
            break;
        }
        case Step::Strip: {
            for (std::string &t : tokens) {
                if (s.a.empty())
                    continue;
                size_t b = 0;
                for (int k = 0; k < s.start && t.compare(b, s.a.size(), s.a) == 0; ++k)
                    b += s.a.size();
                size_t e = t.size();
                for (int k = 0; k < s.stop && e >= b + s.a.size() &&
                                t.compare(e - s.a.size(), s.a.size(), s.a) == 0;
                     ++k)
                    e -= s.a.size();
                t = t.substr(b, e - b);
            }
            break;
        }
        case Step::Metaspace:
            for (size_t i = 0; i < tokens.size(); ++i) {
                replaceAll(tokens[i], s.a, " ");
                if (i == 0 && !s.prependNever && !tokens[i].empty() && tokens[i][0] == ' ')
                    tokens[i].erase(0, 1);
            }
            break;
        }
    }
    std::string all;
    for (const std::string &t : tokens)
        all += t;
    return all;
}

QString TokenDecoder::describe() const
{
    QStringList parts;
    for (const Step &s : m_steps) {
        static const char *const names[] = {"ByteLevel", "Replace", "ByteFallback",
                                            "Fuse",      "Strip",   "Metaspace"};
        parts << QString::fromLatin1(names[s.type]);
    }
    return parts.isEmpty() ? u"none"_s : parts.join(u'+');
}

} // namespace sb::tok
