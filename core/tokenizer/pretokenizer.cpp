#include "tokenizer/pretokenizer.h"

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

struct Piece
{
    Span span;
    bool match;
};

// Applies a split behaviour to the pieces (matches and the gaps between them) of one word, as
// the Rust implementation defines them, and appends the kept spans.
void applyBehavior(PreTokenizer::Behavior behavior, std::vector<Piece> &pieces,
                   std::vector<Span> *out)
{
    using B = PreTokenizer::Behavior;
    switch (behavior) {
    case B::Isolated:
        for (const Piece &p : pieces)
            out->push_back(p.span);
        return;
    case B::Removed:
        for (const Piece &p : pieces) {
            if (!p.match)
                out->push_back(p.span);
        }
        return;
    case B::MergedWithPrevious: {
        const size_t start = out->size();
        bool previousMatch = false;
        for (const Piece &p : pieces) {
            if (p.match && !previousMatch && out->size() > start)
                out->back().end = p.span.end;
            else
                out->push_back(p.span);
            previousMatch = p.match;
        }
        return;
    }
    case B::MergedWithNext: {
        std::vector<Span> rev;
        bool previousMatch = false;
        for (auto it = pieces.rbegin(); it != pieces.rend(); ++it) {
            if (it->match && !previousMatch && !rev.empty())
                rev.back().begin = it->span.begin;
            else
                rev.push_back(it->span);
            previousMatch = it->match;
        }
        out->insert(out->end(), rev.rbegin(), rev.rend());
        return;
    }
    case B::Contiguous: {
        const size_t start = out->size();
        bool previousMatch = false;
        for (const Piece &p : pieces) {
            if (p.match == previousMatch && out->size() > start)
                out->back().end = p.span.end;
            else
                out->push_back(p.span);
            previousMatch = p.match;
        }
        return;
    }
    }
}

} // namespace

bool PreTokenizer::fromJson(const QJsonValue &v, const QString &field, PreTokenizer *out,
                            QString *error)
{
    PreTokenizer p;
    if (!v.isNull() && !p.parse(v, field, error))
        return false;
    *out = std::move(p);
    return true;
}

PreTokenizer PreTokenizer::split(SplitPattern pattern)
{
    PreTokenizer p;
    Step s{Step::Split, std::move(pattern)};
    s.behavior = Behavior::Isolated;
    p.m_steps.push_back(std::move(s));
    return p;
}

bool PreTokenizer::parse(const QJsonValue &v, const QString &field, QString *error)
{
    if (!v.isObject()) {
        *error = u"%1: expected an object"_s.arg(field);
        return false;
    }
    const QJsonObject o = v.toObject();
    const QString type = o.value("type"_L1).toString();
    if (type == "Sequence"_L1) {
        const QJsonValue list = o.value("pretokenizers"_L1);
        if (!list.isArray()) {
            *error = u"%1.pretokenizers: expected an array"_s.arg(field);
            return false;
        }
        const QJsonArray a = list.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (!parse(a.at(i), u"%1.pretokenizers[%2]"_s.arg(field).arg(i), error))
                return false;
        }
        return true;
    }
    Step s{Step::Split, SplitPattern()};
    if (type == "Split"_L1) {
        s.type = Step::Split;
        const QJsonObject pattern = o.value("pattern"_L1).toObject();
        if (pattern.value("Regex"_L1).isString()) {
            const QString regex = pattern.value("Regex"_L1).toString();
            if (!SplitPattern::fromRegex(regex, &s.pattern)) {
                *error = u"%1.pattern.Regex: split pattern not supported: %2"_s.arg(field, regex);
                return false;
            }
        } else if (pattern.value("String"_L1).isString()) {
            s.pattern = SplitPattern::literal(toStd(pattern.value("String"_L1).toString()));
        } else {
            *error = u"%1.pattern: expected {\"Regex\": ...} or {\"String\": ...}"_s.arg(field);
            return false;
        }
        static const QStringList behaviors = {u"Removed"_s, u"Isolated"_s, u"MergedWithPrevious"_s,
                                              u"MergedWithNext"_s, u"Contiguous"_s};
        const QString behavior = o.value("behavior"_L1).toString();
        const qsizetype b = behaviors.indexOf(behavior);
        if (b < 0) {
            *error = u"%1.behavior: unknown split behavior \"%2\""_s.arg(field, behavior);
            return false;
        }
        s.behavior = Behavior(b);
        s.invert = o.value("invert"_L1).toBool();
    } else if (type == "ByteLevel"_L1) {
        s.type = Step::ByteLevel;
        s.addPrefixSpace = o.value("add_prefix_space"_L1).toBool(true);
        s.useRegex = o.value("use_regex"_L1).toBool(true);
        if (s.useRegex)
            s.pattern = SplitPattern::ofKind(SplitPattern::Kind::Gpt2);
        m_byteLevel = true;
    } else if (type == "Metaspace"_L1) {
        s.type = Step::Metaspace;
        s.replacement = toStd(o.value("replacement"_L1).toString(u"\u2581"_s));
        if (s.replacement.empty()) {
            *error = u"%1.replacement: empty"_s.arg(field);
            return false;
        }
        // Older files say add_prefix_space instead of prepend_scheme.
        QString scheme = o.value("prepend_scheme"_L1).toString();
        if (scheme.isEmpty())
            scheme = o.value("add_prefix_space"_L1).toBool(true) ? u"always"_s : u"never"_s;
        if (scheme == "always"_L1) {
            s.prepend = Step::Always;
        } else if (scheme == "first"_L1) {
            s.prepend = Step::First;
        } else if (scheme == "never"_L1) {
            s.prepend = Step::Never;
        } else {
            *error = u"%1.prepend_scheme: unknown value \"%2\""_s.arg(field, scheme);
            return false;
        }
        s.splitOnReplacement = o.value("split"_L1).toBool(true);
        s.pattern = SplitPattern::literal(s.replacement);
        s.behavior = Behavior::MergedWithNext;
    } else if (type == "Digits"_L1) {
        s.type = Step::Digits;
        s.individualDigits = o.value("individual_digits"_L1).toBool();
        s.behavior = s.individualDigits ? Behavior::Isolated : Behavior::Contiguous;
    } else {
        *error = u"%1.type: pre-tokenizer \"%2\" is not supported (supported: Split, ByteLevel, "
                 u"Metaspace, Digits, Sequence)"_s.arg(field, type);
        return false;
    }
    m_steps.push_back(std::move(s));
    return true;
}

void PreTokenizer::splitSpans(const Step &s, std::string_view text, const std::vector<Span> &in,
                              std::vector<Span> *out, std::vector<Span> *matches)
{
    std::vector<Piece> pieces;
    for (const Span &w : in) {
        matches->clear();
        if (s.type == Step::Digits) {
            for (uint32_t i = w.begin; i < w.end; ++i) {
                if (text[i] >= '0' && text[i] <= '9')
                    matches->push_back({i, i + 1});
            }
        } else {
            s.pattern.findMatches(text, w.begin, w.end, matches);
        }
        // The fast path of the split regexes: every character matched, kept in isolation.
        if (s.behavior == Behavior::Isolated && !s.invert) {
            uint32_t at = w.begin;
            for (const Span &m : *matches) {
                if (m.begin > at)
                    out->push_back({at, m.begin});
                out->push_back(m);
                at = m.end;
            }
            if (at < w.end)
                out->push_back({at, w.end});
            continue;
        }
        pieces.clear();
        uint32_t at = w.begin;
        for (const Span &m : *matches) {
            if (m.begin > at)
                pieces.push_back({{at, m.begin}, s.invert});
            pieces.push_back({m, !s.invert});
            at = m.end;
        }
        if (at < w.end)
            pieces.push_back({{at, w.end}, s.invert});
        applyBehavior(s.behavior, pieces, out);
    }
}

std::string_view PreTokenizer::run(std::string_view text, bool firstSection, std::string *buffer,
                                   std::vector<Span> *words, std::vector<Span> *scratch) const
{
    words->clear();
    words->push_back({0, uint32_t(text.size())});
    std::vector<Span> next;
    for (const Step &s : m_steps) {
        if (s.type == Step::ByteLevel || s.type == Step::Metaspace) {
            // Steps that rewrite characters: rebuild the text word by word.
            const bool rewrite = s.type == Step::Metaspace || s.addPrefixSpace;
            if (rewrite) {
                std::string rebuilt;
                rebuilt.reserve(text.size() + words->size() * 3);
                next.clear();
                for (const Span &w : *words) {
                    const std::string_view word = text.substr(w.begin, w.end - w.begin);
                    const uint32_t begin = uint32_t(rebuilt.size());
                    if (s.type == Step::ByteLevel) {
                        if (word.empty() || word[0] != ' ')
                            rebuilt.push_back(' ');
                        rebuilt.append(word);
                    } else {
                        std::string replaced;
                        for (char c : word) {
                            if (c == ' ')
                                replaced.append(s.replacement);
                            else
                                replaced.push_back(c);
                        }
                        const bool startsWithReplacement =
                            std::string_view(replaced).substr(0, s.replacement.size()) ==
                            s.replacement;
                        if (!startsWithReplacement &&
                            (s.prepend == Step::Always ||
                             (s.prepend == Step::First && firstSection && w.begin == 0)))
                            rebuilt.append(s.replacement);
                        rebuilt.append(replaced);
                    }
                    next.push_back({begin, uint32_t(rebuilt.size())});
                }
                buffer->swap(rebuilt);
                text = *buffer;
                words->swap(next);
            }
            const bool splits = s.type == Step::ByteLevel ? s.useRegex : s.splitOnReplacement;
            if (!splits)
                continue;
        }
        next.clear();
        splitSpans(s, text, *words, &next, scratch);
        words->swap(next);
    }
    return text;
}

QString PreTokenizer::describe() const
{
    QStringList parts;
    for (const Step &s : m_steps) {
        switch (s.type) {
        case Step::Split:
            parts << u"Split(%1)"_s.arg(s.pattern.name());
            break;
        case Step::ByteLevel:
            parts << (s.useRegex ? u"ByteLevel(gpt2-regex)"_s : u"ByteLevel"_s);
            break;
        case Step::Metaspace:
            parts << u"Metaspace"_s;
            break;
        case Step::Digits:
            parts << u"Digits"_s;
            break;
        }
    }
    return parts.isEmpty() ? u"none"_s : parts.join(u'+');
}

} // namespace sb::tok
