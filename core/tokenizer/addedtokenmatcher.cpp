#include "tokenizer/addedtokenmatcher.h"

#include <cstring>

namespace sb::tok {

uint32_t AddedTokenMatcher::child(uint32_t node, unsigned char c) const
{
    for (const auto &[byte, index] : m_nodes[node].children) {
        if (byte == c)
            return index;
    }
    return 0;
}

void AddedTokenMatcher::add(std::string_view content, int32_t id)
{
    if (content.empty())
        return;
    uint32_t node = 0;
    for (char ch : content) {
        const auto c = static_cast<unsigned char>(ch);
        uint32_t next = child(node, c);
        if (next == 0) {
            next = uint32_t(m_nodes.size());
            m_nodes[node].children.emplace_back(c, next);
            m_nodes.emplace_back();
        }
        node = next;
    }
    // The first registration of a content wins (the files list each once).
    if (m_nodes[node].id < 0)
        m_nodes[node].id = id;
    const auto first = static_cast<unsigned char>(content[0]);
    if (!m_first[first]) {
        m_first[first] = true;
        ++m_firstCount;
        m_onlyFirst = first;
    }
}

void AddedTokenMatcher::split(std::string_view text, uint32_t begin, uint32_t end,
                              std::vector<Segment> *out) const
{
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    uint32_t runStart = begin;
    uint32_t i = begin;
    while (i < end) {
        if (!m_first[p[i]]) {
            // Most tokenizers' added tokens all start with '<': let memchr find the next one.
            if (m_firstCount == 1) {
                const void *hit = std::memchr(p + i, m_onlyFirst, end - i);
                i = hit ? uint32_t(static_cast<const unsigned char *>(hit) - p) : end;
            } else {
                ++i;
            }
            continue;
        }
        uint32_t node = 0;
        uint32_t matchEnd = 0;
        int32_t matchId = -1;
        for (uint32_t j = i; j < end; ++j) {
            node = child(node, p[j]);
            if (node == 0)
                break;
            if (m_nodes[node].id >= 0) {
                matchEnd = j + 1;
                matchId = m_nodes[node].id;
            }
        }
        if (matchId < 0) {
            ++i;
            continue;
        }
        if (i > runStart)
            out->push_back({runStart, i, -1});
        out->push_back({i, matchEnd, matchId});
        i = matchEnd;
        runStart = i;
    }
    if (end > runStart)
        out->push_back({runStart, end, -1});
}

} // namespace sb::tok
