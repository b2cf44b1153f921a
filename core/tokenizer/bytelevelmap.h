#pragma once

#include <QStringView>

#include <string>
#include <string_view>

namespace sb::tok {

// GPT-2's byte-to-unicode table: each byte stands for a printable character (the printable
// Latin-1 bytes for themselves, the others for U+0100 onwards), so byte-level vocabularies can
// be written as text. The tokenizer works on raw bytes and uses this only to read vocabularies
// and merges, and to decode.
class ByteLevelMap
{
public:
    // The characters of `text` mapped back to bytes; false if one is not in the table.
    static bool toBytes(std::string_view text, std::string *bytes);
    // The same from UTF-16 (what the JSON parser gives), without a UTF-8 step.
    static bool toBytes(QStringView text, std::string *bytes);
    // The same, keeping characters outside the table as they are (for decoding).
    static std::string toBytes(std::string_view text);
    // Raw bytes written in the table's characters (UTF-8).
    static std::string fromBytes(std::string_view bytes);
};

} // namespace sb::tok
