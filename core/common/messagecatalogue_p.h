#pragma once

#include <span>

namespace sb {

// One catalogue line: the English template and its identifier (see message.h).
struct MessageEntry
{
    const char *text;
    const char *id;
};

// The catalogue's lines kept outside message.cpp (messagecatalogue.cpp).
std::span<const MessageEntry> extendedMessageCatalogue();
// The statistics' lines (messagecatalogue_stats.cpp).
std::span<const MessageEntry> statisticsMessageCatalogue();
// Server-side evidence's texts (messagecatalogue_server.cpp).
std::span<const MessageEntry> serverMessageCatalogue();
// Selection studies' texts (messagecatalogue_study.cpp).
std::span<const MessageEntry> studyMessageCatalogue();

} // namespace sb
