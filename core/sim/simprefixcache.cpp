#include "simprefixcache.h"

namespace sb {

namespace {

// splitmix64's finaliser: cheap, and every input bit reaches every output bit, so chained keys
// of prompts that differ in one early word differ everywhere.
constexpr quint64 mix(quint64 x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

} // namespace

void SimPrefixCache::configure(int blockTokens, int capacityBlocks)
{
    blockTokens = qMax(1, blockTokens);
    if (blockTokens != m_blockTokens)
        clear();
    m_blockTokens = blockTokens;
    m_capacity = qMax(0, capacityBlocks);
    trim();
}

quint64 SimPrefixCache::tokenHash(QStringView word)
{
    // FNV-1a (64-bit) over UTF-16 units.
    quint64 h = 14695981039346656037ull;
    for (const QChar c : word) {
        h ^= c.unicode();
        h *= 1099511628211ull;
    }
    return h;
}

QList<quint64> SimPrefixCache::tokenHashes(const QString &text)
{
    // Same word boundaries as SimRenderer::countTokens (QChar::isSpace).
    QList<quint64> out;
    qsizetype start = -1;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        const bool space = i == text.size() || text.at(i).isSpace();
        if (!space && start < 0)
            start = i;
        else if (space && start >= 0) {
            out.append(tokenHash(QStringView(text).mid(start, i - start)));
            start = -1;
        }
    }
    return out;
}

QList<quint64> SimPrefixCache::blockKeys(const QList<quint64> &tokens, int blockTokens)
{
    QList<quint64> keys;
    if (blockTokens < 1)
        return keys;
    const qsizetype blocks = tokens.size() / blockTokens;
    keys.reserve(blocks);
    quint64 parent = 0x5EB0C4C4E0000000ull; // the "no parent" key of block 0
    for (qsizetype b = 0; b < blocks; ++b) {
        quint64 h = mix(parent);
        for (qsizetype i = b * blockTokens; i < (b + 1) * blockTokens; ++i)
            h = mix(h ^ tokens.at(i)) + 0x9E3779B97F4A7C15ull;
        keys.append(h);
        parent = h;
    }
    return keys;
}

int SimPrefixCache::cachedBlocks(const QList<quint64> &keys) const
{
    int n = 0;
    for (const quint64 k : keys) {
        if (!m_index.contains(k))
            break;
        ++n;
    }
    return n;
}

void SimPrefixCache::insert(const QList<quint64> &keys)
{
    for (qsizetype i = keys.size() - 1; i >= 0; --i) {
        const quint64 k = keys.at(i);
        const auto it = m_index.constFind(k);
        if (it != m_index.constEnd()) {
            m_lru.splice(m_lru.end(), m_lru, it.value()); // iterators stay valid
        } else {
            m_lru.push_back(k);
            m_index.insert(k, std::prev(m_lru.end()));
        }
    }
    trim();
}

int SimPrefixCache::admit(const QList<quint64> &keys)
{
    const int hit = cachedBlocks(keys);
    insert(keys);
    return hit;
}

void SimPrefixCache::clear()
{
    m_lru.clear();
    m_index.clear();
}

void SimPrefixCache::trim()
{
    while (m_index.size() > m_capacity) {
        m_index.remove(m_lru.front());
        m_lru.pop_front();
        ++m_evictions;
    }
}

} // namespace sb
