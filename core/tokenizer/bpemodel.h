#pragma once

#include "tokenizer/bytehash.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sb::tok {

// Byte-pair encoding of one pre-tokenized word. Tokens are byte strings: for byte-level
// vocabularies (GPT-2 style, tiktoken) the loader has already mapped the printable stand-in
// characters back to raw bytes, so words are merged as bytes and never re-encoded.
//
// The merge order is the one both reference implementations define: repeatedly merge the
// adjacent pair with the lowest rank, the leftmost one among equal ranks. tiktoken's rule (rank
// of a pair = rank of the concatenated token) is the same table built differently; see
// TokenizerLoader.
class BpeModel
{
public:
    enum class Symbols {
        Bytes,     // initial symbols are single bytes (byte-level BPE)
        Characters // initial symbols are UTF-8 characters (SentencePiece-style BPE)
    };

    void setSymbols(Symbols s) { m_symbols = s; }
    void setIgnoreMerges(bool on) { m_ignoreMerges = on; }
    void setByteFallback(bool on) { m_byteFallback = on; }
    void setUnknown(int32_t id, bool fuse)
    {
        m_unkId = id;
        m_fuseUnk = fuse;
    }

    void reserve(size_t tokens, size_t merges);
    // Returns false if the byte string is already in the vocabulary.
    bool addToken(std::string_view bytes, int32_t id) { return m_vocab.insert(bytes, id); }
    void addMerge(int32_t left, int32_t right, uint32_t rank, int32_t merged)
    {
        m_merges.insert(left, right, {rank, merged});
    }
    // Call once after the vocabulary is complete.
    void finish();

    int32_t find(std::string_view bytes) const { return m_vocab.find(bytes); }
    size_t mergeCount() const { return m_merges.size(); }

    // Appends the ids of one word.
    void encodeWord(std::string_view word, std::vector<int32_t> *out) const;

private:
    struct Symbol
    {
        int32_t id;
        int32_t prev;
        int32_t next;
    };
    void encodeSegment(std::string_view word, std::vector<int32_t> *out) const;
    bool safeBeforeMeta(std::string_view word, size_t at) const;
    void initialSymbols(std::string_view word, std::vector<int32_t> *ids) const;
    void mergeSmall(std::vector<int32_t> &ids) const;
    void mergeLarge(std::vector<int32_t> &ids) const;

    ByteStringMap m_vocab;
    PairMap m_merges;
    int32_t m_byteId[256];
    int32_t m_fallbackId[256];
    Symbols m_symbols = Symbols::Bytes;
    // SentencePiece-style words are whole texts (no pre-tokenizer). A merge can only cross the
    // boundary before a "▁" if some token has that character right before a "▁"; finish()
    // collects those characters, and encodeWord() cuts the word at every other such boundary,
    // which gives the same ids (the parts never interact) in far less time.
    std::vector<char32_t> m_joinsMeta; // characters found right before a "▁" inside a token
    bool m_cutAtMeta = false;
    bool m_ignoreMerges = false;
    bool m_byteFallback = false;
    bool m_fuseUnk = false;
    int32_t m_unkId = -1;
};

} // namespace sb::tok
