#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sb::tok {

// Finds added tokens in text: the leftmost match, the longest one at that position, never
// overlapping (what Aho-Corasick "leftmost-longest" gives in the Rust implementation and the
// trie walk gives in the JavaScript one). A byte trie, entered only at bytes that start a token.
class AddedTokenMatcher
{
public:
    struct Segment
    {
        uint32_t begin;
        uint32_t end;
        int32_t id; // -1: plain text between tokens
    };

    void add(std::string_view content, int32_t id);
    bool empty() const { return m_nodes.size() <= 1; }
    // Appends the segments of text[begin, end): text runs (id -1) and tokens, in order.
    void split(std::string_view text, uint32_t begin, uint32_t end,
               std::vector<Segment> *out) const;

private:
    struct Node
    {
        std::vector<std::pair<unsigned char, uint32_t>> children;
        int32_t id = -1;
    };
    uint32_t child(uint32_t node, unsigned char c) const;

    std::vector<Node> m_nodes{Node{}};
    bool m_first[256] = {};
    int m_firstCount = 0;
    unsigned char m_onlyFirst = 0; // the first byte of every token when m_firstCount == 1
};

} // namespace sb::tok
