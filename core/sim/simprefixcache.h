#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QtGlobal>
#include <list>

namespace sb {

// The simulator's model of vLLM's automatic prefix caching: a bounded LRU set of block hashes.
//
// A prompt's tokens (the simulator's tokenizer: whitespace-separated words) are split into full
// blocks of blockTokens; the tail that does not fill a block is never cached, as in vLLM. Block
// i's key hashes block i-1's key together with block i's tokens, so a key stands for the whole
// prefix up to the end of its block: two prompts share block i only when they agree on every
// token before it. A request's cached tokens are the longest run of leading blocks found in the
// set, times blockTokens.
//
// Lives in the simulator's thread; not thread-safe.
class SimPrefixCache
{
public:
    SimPrefixCache() = default;
    SimPrefixCache(const SimPrefixCache &) = delete;
    SimPrefixCache &operator=(const SimPrefixCache &) = delete;

    // Changing the block size drops everything (keys of another block size mean nothing);
    // a smaller capacity evicts the least recently used blocks.
    void configure(int blockTokens, int capacityBlocks);
    int blockTokens() const { return m_blockTokens; }
    int capacityBlocks() const { return m_capacity; }

    // Per-token hashes of a text in the simulator's tokenization (one per word).
    static QList<quint64> tokenHashes(const QString &text);
    static quint64 tokenHash(QStringView word);
    // The chained keys of every full block of tokens (tokens.size() / blockTokens keys).
    static QList<quint64> blockKeys(const QList<quint64> &tokens, int blockTokens);

    // How many leading blocks of keys are cached. Does not change the LRU order.
    int cachedBlocks(const QList<quint64> &keys) const;
    // Inserts (or refreshes) every block, then evicts beyond capacity. The blocks are touched
    // from the last to the first, so a prompt's leading blocks are evicted last: losing a
    // leading block makes every block after it unreachable, and vLLM frees a request's blocks in
    // reverse order for the same reason.
    void insert(const QList<quint64> &keys);
    // lookup then insert: what one admitted request does. Returns the cached blocks.
    int admit(const QList<quint64> &keys);

    qsizetype size() const { return m_index.size(); }
    bool contains(quint64 key) const { return m_index.contains(key); }
    // Blocks dropped to stay within capacity since construction (a clear() is no eviction).
    quint64 evictions() const { return m_evictions; }
    void clear();

private:
    void trim();

    int m_blockTokens = 16;
    int m_capacity = 100000;
    quint64 m_evictions = 0;
    std::list<quint64> m_lru; // front = least recently used
    QHash<quint64, std::list<quint64>::iterator> m_index;
};

} // namespace sb
