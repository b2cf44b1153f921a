#include "tokenizer/tokenizer.h"

#include "tokenizer/bytelevelmap.h"
#include "tokenizer/tokenizerdata.h"
#include "tokenizer/tokenizerloader.h"
#include "tokenizer/unicodeclass.h"

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// Per-thread scratch space, so encode() allocates nothing in the steady state and stays safe to
// call from many threads at once.
struct Scratch
{
    std::vector<tok::AddedTokenMatcher::Segment> segments;
    std::vector<tok::AddedTokenMatcher::Segment> subSegments;
    std::vector<tok::Span> words;
    std::vector<tok::Span> matches;
    std::string normalized;
    std::string preTokenized;
    std::vector<qint32> ids;
};

thread_local Scratch t_scratch;

void encodeSection(const tok::TokenizerData &d, std::string_view text, bool first, Scratch &s,
                   std::vector<qint32> *out)
{
    if (d.preTokenizer.isIdentity()) {
        d.model.encodeWord(text, out);
        return;
    }
    const std::string_view view =
        d.preTokenizer.run(text, first, &s.preTokenized, &s.words, &s.matches);
    for (const tok::Span &w : s.words)
        d.model.encodeWord(view.substr(w.begin, w.end - w.begin), out);
}

} // namespace

Tokenizer::Tokenizer() : d(std::make_unique<tok::TokenizerData>()) {}

Tokenizer::~Tokenizer() = default;

std::unique_ptr<Tokenizer> Tokenizer::load(const QString &path, QString *error)
{
    return tok::TokenizerLoader::load(path, error);
}

void Tokenizer::encodeInto(std::string_view text, bool addSpecialTokens,
                           std::vector<qint32> *out) const
{
    Scratch &s = t_scratch;
    if (addSpecialTokens)
        out->insert(out->end(), d->prefixIds.begin(), d->prefixIds.end());
    s.segments.clear();
    if (d->rawAdded.empty())
        s.segments.push_back({0, uint32_t(text.size()), -1});
    else
        d->rawAdded.split(text, 0, uint32_t(text.size()), &s.segments);
    for (const auto &seg : s.segments) {
        if (seg.id >= 0) {
            out->push_back(seg.id);
            continue;
        }
        const std::string_view raw = text.substr(seg.begin, seg.end - seg.begin);
        const std::string_view norm = d->normalizer.apply(raw, &s.normalized);
        if (norm.empty())
            continue;
        const bool first = seg.begin == 0;
        if (d->normalizedAdded.empty()) {
            encodeSection(*d, norm, first, s, out);
            continue;
        }
        // Tokens matched after normalization; the normalized text lives in s.normalized or in
        // the input, neither of which the steps below overwrite.
        s.subSegments.clear();
        d->normalizedAdded.split(norm, 0, uint32_t(norm.size()), &s.subSegments);
        const auto subs = s.subSegments;
        for (const auto &sub : subs) {
            if (sub.id >= 0)
                out->push_back(sub.id);
            else
                encodeSection(*d, norm.substr(sub.begin, sub.end - sub.begin), first, s, out);
        }
    }
    if (addSpecialTokens)
        out->insert(out->end(), d->suffixIds.begin(), d->suffixIds.end());
}

std::vector<qint32> Tokenizer::encodeUtf8(std::string_view utf8, bool addSpecialTokens) const
{
    std::vector<qint32> out;
    if (!tok::isValidUtf8(utf8)) {
        const QByteArray fixed = tok::utf8ToQString(utf8).toUtf8();
        encodeInto(std::string_view(fixed.constData(), size_t(fixed.size())), addSpecialTokens,
                   &out);
        return out;
    }
    encodeInto(utf8, addSpecialTokens, &out);
    return out;
}

std::vector<qint32> Tokenizer::encode(QStringView text, bool addSpecialTokens) const
{
    const QByteArray u = text.toUtf8();
    std::vector<qint32> out;
    encodeInto(std::string_view(u.constData(), size_t(u.size())), addSpecialTokens, &out);
    return out;
}

qsizetype Tokenizer::count(QStringView text, bool addSpecialTokens) const
{
    const QByteArray u = text.toUtf8();
    std::vector<qint32> &ids = t_scratch.ids;
    ids.clear();
    encodeInto(std::string_view(u.constData(), size_t(u.size())), addSpecialTokens, &ids);
    return qsizetype(ids.size());
}

qsizetype Tokenizer::countUtf8(std::string_view utf8, bool addSpecialTokens) const
{
    if (!tok::isValidUtf8(utf8))
        return qsizetype(encodeUtf8(utf8, addSpecialTokens).size());
    std::vector<qint32> &ids = t_scratch.ids;
    ids.clear();
    encodeInto(utf8, addSpecialTokens, &ids);
    return qsizetype(ids.size());
}

QString Tokenizer::decode(const std::vector<qint32> &ids, bool skipSpecialTokens) const
{
    std::vector<std::string> tokens;
    std::vector<bool> added;
    tokens.reserve(ids.size());
    for (qint32 id : ids) {
        if (id < 0 || size_t(id) >= d->tokenText.size() || d->tokenText[size_t(id)].empty())
            continue;
        if (skipSpecialTokens && d->isSpecial[size_t(id)])
            continue;
        tokens.push_back(d->tokenText[size_t(id)]);
        added.push_back(d->isAdded[size_t(id)]);
    }
    const std::string bytes = d->decoder.decode(std::move(tokens), added);
    return tok::utf8ToQString(bytes);
}

qint32 Tokenizer::tokenId(const QString &token) const
{
    const QByteArray u = token.toUtf8();
    const std::string_view text(u.constData(), size_t(u.size()));
    if (const qint32 id = d->addedByContent.find(text); id >= 0)
        return id;
    if (!d->byteLevel)
        return d->model.find(text);
    std::string bytes;
    if (!tok::ByteLevelMap::toBytes(text, &bytes))
        return -1;
    return d->model.find(bytes);
}

QString Tokenizer::tokenText(qint32 id) const
{
    if (id < 0 || size_t(id) >= d->tokenText.size())
        return {};
    const std::string &t = d->tokenText[size_t(id)];
    return tok::utf8ToQString(t);
}

qint32 Tokenizer::vocabSize() const
{
    return qint32(d->tokenText.size());
}

bool Tokenizer::isSpecial(qint32 id) const
{
    return id >= 0 && size_t(id) < d->isSpecial.size() && d->isSpecial[size_t(id)];
}

qint32 Tokenizer::bosTokenId() const
{
    return d->bosId;
}

qint32 Tokenizer::eosTokenId() const
{
    return d->eosId;
}

bool Tokenizer::addBosToken() const
{
    return d->addBos;
}

QString Tokenizer::describe() const
{
    return u"%1; sha256 %2"_s.arg(d->identity, d->sha256);
}

QString Tokenizer::sha256() const
{
    return d->sha256;
}

QString Tokenizer::path() const
{
    return d->path;
}

} // namespace sb
