#include "tokenizer/bpemodel.h"

#include "tokenizer/unicodeclass.h"

#include <algorithm>
#include <cstdio>
#include <queue>

namespace sb::tok {

namespace {

// Words up to this many symbols merge by scanning every adjacent pair (cheap for the short
// words of byte-level models); longer ones (SentencePiece models feed whole texts) use a heap.
constexpr size_t kSmallWord = 64;

thread_local std::vector<int32_t> t_ids;

constexpr std::string_view kMeta = "\xE2\x96\x81"; // U+2581, SentencePiece's space

} // namespace

void BpeModel::reserve(size_t tokens, size_t merges)
{
    m_vocab.reserve(tokens);
    m_merges.reserve(merges);
}

void BpeModel::finish()
{
    m_joinsMeta.clear();
    m_cutAtMeta = m_symbols == Symbols::Characters;
    if (m_cutAtMeta) {
        m_vocab.forEach([this](std::string_view token, int32_t) {
            for (size_t k = token.find(kMeta, 1); k != std::string_view::npos;
                 k = token.find(kMeta, k + 1)) {
                size_t start = k - 1;
                while (start > 0 && (static_cast<unsigned char>(token[start]) & 0xC0) == 0x80)
                    --start;
                char32_t cp;
                decodeUtf8(reinterpret_cast<const unsigned char *>(token.data()) + start, &cp);
                if (cp != 0x2581 &&
                    std::find(m_joinsMeta.begin(), m_joinsMeta.end(), cp) == m_joinsMeta.end())
                    m_joinsMeta.push_back(cp);
            }
        });
    }
    for (int b = 0; b < 256; ++b) {
        const char c = char(b);
        m_byteId[b] = m_vocab.find(std::string_view(&c, 1));
        char name[8];
        std::snprintf(name, sizeof name, "<0x%02X>", b);
        m_fallbackId[b] = m_vocab.find(name);
    }
}

void BpeModel::initialSymbols(std::string_view word, std::vector<int32_t> *ids) const
{
    ids->clear();
    const auto *p = reinterpret_cast<const unsigned char *>(word.data());
    const size_t n = word.size();
    bool lastUnknown = false;
    const auto unknown = [&] {
        if (m_unkId < 0)
            return; // no unknown token: the character is dropped, as the references do
        if (!(m_fuseUnk && lastUnknown))
            ids->push_back(m_unkId);
        lastUnknown = true;
    };
    size_t i = 0;
    while (i < n) {
        const size_t len = m_symbols == Symbols::Bytes ? 1 : size_t(utf8Length(p[i]));
        int32_t id = len == 1 ? m_byteId[p[i]] : m_vocab.find(word.substr(i, len));
        if (id >= 0) {
            ids->push_back(id);
            lastUnknown = false;
        } else if (m_byteFallback && std::all_of(p + i, p + i + len, [this](unsigned char b) {
                       return m_fallbackId[b] >= 0;
                   })) {
            for (size_t k = 0; k < len; ++k)
                ids->push_back(m_fallbackId[p[i + k]]);
            lastUnknown = false;
        } else {
            unknown();
        }
        i += len;
    }
}

void BpeModel::mergeSmall(std::vector<int32_t> &ids) const
{
    size_t n = ids.size();
    uint32_t rank[kSmallWord];
    int32_t merged[kSmallWord];
    const auto look = [&](size_t k) {
        if (const PairMap::Value *v = m_merges.find(ids[k], ids[k + 1])) {
            rank[k] = v->rank;
            merged[k] = v->merged;
        } else {
            rank[k] = UINT32_MAX;
        }
    };
    for (size_t k = 0; k + 1 < n; ++k)
        look(k);
    while (n > 1) {
        size_t best = 0;
        uint32_t bestRank = UINT32_MAX;
        for (size_t k = 0; k + 1 < n; ++k) {
            if (rank[k] < bestRank) {
                bestRank = rank[k];
                best = k;
            }
        }
        if (bestRank == UINT32_MAX)
            break;
        ids[best] = merged[best];
        for (size_t k = best + 1; k + 1 < n; ++k) {
            ids[k] = ids[k + 1];
            rank[k] = rank[k + 1];
            merged[k] = merged[k + 1];
        }
        --n;
        if (best > 0)
            look(best - 1);
        if (best + 1 < n)
            look(best);
    }
    ids.resize(n);
}

void BpeModel::mergeLarge(std::vector<int32_t> &ids) const
{
    struct Entry
    {
        uint32_t rank;
        int32_t pos;
        int32_t left;
        int32_t right;
        bool operator>(const Entry &o) const
        {
            return rank != o.rank ? rank > o.rank : pos > o.pos;
        }
    };
    const int32_t n = int32_t(ids.size());
    std::vector<Symbol> sym(static_cast<size_t>(n));
    for (int32_t k = 0; k < n; ++k)
        sym[size_t(k)] = {ids[size_t(k)], k - 1, k + 1 < n ? k + 1 : -1};
    std::vector<Entry> storage;
    storage.reserve(size_t(n));
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap(std::greater<Entry>(),
                                                                             std::move(storage));
    const auto push = [&](int32_t k) {
        const int32_t next = sym[size_t(k)].next;
        if (next < 0)
            return;
        if (const PairMap::Value *v = m_merges.find(sym[size_t(k)].id, sym[size_t(next)].id))
            heap.push({v->rank, k, sym[size_t(k)].id, sym[size_t(next)].id});
    };
    for (int32_t k = 0; k + 1 < n; ++k)
        push(k);
    std::vector<bool> dead(size_t(n), false);
    while (!heap.empty()) {
        const Entry e = heap.top();
        heap.pop();
        Symbol &s = sym[size_t(e.pos)];
        // An entry is current if its pair is still there: positions only ever lose symbols, so
        // a live symbol with the same two ids is the same pair (or one with the same effect).
        if (dead[size_t(e.pos)] || s.id != e.left || s.next < 0 ||
            sym[size_t(s.next)].id != e.right)
            continue;
        const int32_t right = s.next;
        s.id = m_merges.find(e.left, e.right)->merged;
        s.next = sym[size_t(right)].next;
        if (s.next >= 0)
            sym[size_t(s.next)].prev = e.pos;
        dead[size_t(right)] = true;
        if (s.prev >= 0)
            push(s.prev);
        push(e.pos);
    }
    size_t out = 0;
    for (int32_t k = 0; k >= 0; k = sym[size_t(k)].next)
        ids[out++] = sym[size_t(k)].id;
    ids.resize(out);
}

bool BpeModel::safeBeforeMeta(std::string_view word, size_t at) const
{
    size_t start = at - 1;
    while (start > 0 && (static_cast<unsigned char>(word[start]) & 0xC0) == 0x80)
        --start;
    char32_t cp;
    decodeUtf8(reinterpret_cast<const unsigned char *>(word.data()) + start, &cp);
    if (cp == 0x2581)
        return false; // inside a run of "▁": tokens such as "▁▁▁" span it
    if (std::find(m_joinsMeta.begin(), m_joinsMeta.end(), cp) != m_joinsMeta.end())
        return false;
    // A character outside the vocabulary becomes byte-fallback or unknown symbols: keep the
    // boundary out of the argument.
    return m_vocab.find(word.substr(start, at - start)) >= 0;
}

void BpeModel::encodeWord(std::string_view word, std::vector<int32_t> *out) const
{
    if (word.empty())
        return;
    if (m_cutAtMeta) {
        size_t begin = 0;
        for (size_t k = word.find(kMeta, 1); k != std::string_view::npos;
             k = word.find(kMeta, k + kMeta.size())) {
            if (safeBeforeMeta(word, k)) {
                encodeSegment(word.substr(begin, k - begin), out);
                begin = k;
            }
        }
        encodeSegment(word.substr(begin), out);
        return;
    }
    encodeSegment(word, out);
}

void BpeModel::encodeSegment(std::string_view word, std::vector<int32_t> *out) const
{
    if (word.empty())
        return;
    if (m_ignoreMerges) {
        const int32_t id = m_vocab.find(word);
        if (id >= 0) {
            out->push_back(id);
            return;
        }
    }
    std::vector<int32_t> &ids = t_ids;
    initialSymbols(word, &ids);
    if (ids.size() > 1) {
        if (ids.size() <= kSmallWord)
            mergeSmall(ids);
        else
            mergeLarge(ids);
    }
    out->insert(out->end(), ids.begin(), ids.end());
}

} // namespace sb::tok
