#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace sb::tok {

// A fast hash of a short byte string (tokens and pre-tokenized words are mostly under 16 bytes).
inline uint64_t hashBytes(const char *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xFF51AFD7ED558CCDull);
    while (n >= 8) {
        uint64_t v;
        std::memcpy(&v, p, 8);
        h = (h ^ v) * 0xC4CEB9FE1A85EC53ull;
        h ^= h >> 29;
        p += 8;
        n -= 8;
    }
    uint64_t v = 0;
    std::memcpy(&v, p, n);
    h = (h ^ v) * 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 32;
    return h;
}

// Byte string -> id, open addressing over one arena of keys. Built once at load, then read-only
// (so any number of threads may look up at once).
class ByteStringMap
{
public:
    void reserve(size_t count)
    {
        size_t cap = 16;
        while (cap < count * 2)
            cap *= 2;
        m_slots.assign(cap, Slot{});
        m_mask = cap - 1;
        m_arena.reserve(count * 8); // tokens average under 8 bytes
    }
    // Returns false if the key was already present (the first value stays).
    bool insert(std::string_view key, int32_t value)
    {
        if ((m_count + 1) * 2 > m_slots.size())
            grow();
        return insertNoGrow(key, value);
    }
    int32_t find(std::string_view key) const
    {
        if (m_slots.empty())
            return -1;
        const uint64_t h = hashBytes(key.data(), key.size());
        for (size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            const Slot &s = m_slots[i];
            if (s.length == UINT32_MAX)
                return -1;
            if (s.hash32 == uint32_t(h) && s.length == key.size() &&
                std::memcmp(m_arena.data() + s.offset, key.data(), key.size()) == 0)
                return s.value;
        }
    }
    size_t size() const { return m_count; }
    template <typename F> void forEach(F f) const
    {
        for (const Slot &s : m_slots) {
            if (s.length != UINT32_MAX)
                f(std::string_view(m_arena).substr(s.offset, s.length), s.value);
        }
    }

private:
    struct Slot
    {
        uint32_t offset = 0;
        uint32_t length = UINT32_MAX; // empty
        uint32_t hash32 = 0;
        int32_t value = 0;
    };
    bool insertNoGrow(std::string_view key, int32_t value)
    {
        const uint64_t h = hashBytes(key.data(), key.size());
        for (size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            Slot &s = m_slots[i];
            if (s.length == UINT32_MAX) {
                s.offset = uint32_t(m_arena.size());
                s.length = uint32_t(key.size());
                s.hash32 = uint32_t(h);
                s.value = value;
                m_arena.append(key);
                ++m_count;
                return true;
            }
            if (s.hash32 == uint32_t(h) && s.length == key.size() &&
                std::memcmp(m_arena.data() + s.offset, key.data(), key.size()) == 0)
                return false;
        }
    }
    void grow()
    {
        std::vector<Slot> old;
        old.swap(m_slots);
        const std::string arena = std::move(m_arena);
        m_arena.clear();
        m_count = 0;
        reserve(old.empty() ? 8 : old.size());
        for (const Slot &s : old) {
            if (s.length != UINT32_MAX)
                insertNoGrow(std::string_view(arena).substr(s.offset, s.length), s.value);
        }
    }

    std::vector<Slot> m_slots;
    std::string m_arena;
    size_t m_mask = 0;
    size_t m_count = 0;
};

// (left id, right id) -> (rank, merged id), open addressing on the packed 64-bit pair. Key and
// value share one 16-byte slot: building a 500k-merge table is bound by cache misses.
class PairMap
{
public:
    struct Value
    {
        uint32_t rank;
        int32_t merged;
    };
    void reserve(size_t count)
    {
        size_t cap = 16;
        while (cap < count * 2)
            cap *= 2;
        m_slots.assign(cap, Slot{kEmpty, {0, 0}});
        m_mask = cap - 1;
        m_count = 0;
    }
    // A later entry for the same pair replaces the earlier one, as in both reference
    // implementations (they collect the merges list into a map).
    void insert(int32_t a, int32_t b, Value v)
    {
        if ((m_count + 1) * 2 > m_slots.size())
            grow();
        insertNoGrow(pack(a, b), v);
    }
    const Value *find(int32_t a, int32_t b) const
    {
        const uint64_t key = pack(a, b);
        for (size_t i = mix(key) & m_mask;; i = (i + 1) & m_mask) {
            const Slot &s = m_slots[i];
            if (s.key == key)
                return &s.value;
            if (s.key == kEmpty)
                return nullptr;
        }
    }
    size_t size() const { return m_count; }

private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);
    struct Slot
    {
        uint64_t key;
        Value value;
    };
    static uint64_t pack(int32_t a, int32_t b)
    {
        return (uint64_t(uint32_t(a)) << 32) | uint32_t(b);
    }
    static uint64_t mix(uint64_t k)
    {
        k ^= k >> 33;
        k *= 0xFF51AFD7ED558CCDull;
        k ^= k >> 33;
        return k;
    }
    void insertNoGrow(uint64_t key, Value v)
    {
        for (size_t i = mix(key) & m_mask;; i = (i + 1) & m_mask) {
            Slot &s = m_slots[i];
            if (s.key == kEmpty) {
                s = {key, v};
                ++m_count;
                return;
            }
            if (s.key == key) {
                s.value = v;
                return;
            }
        }
    }
    void grow()
    {
        std::vector<Slot> old;
        old.swap(m_slots);
        reserve(old.empty() ? 8 : old.size());
        for (const Slot &s : old) {
            if (s.key != kEmpty)
                insertNoGrow(s.key, s.value);
        }
    }

    std::vector<Slot> m_slots;
    size_t m_mask = 0;
    size_t m_count = 0;
};

} // namespace sb::tok
