#pragma once

#include <QtGlobal>

namespace sb {

// Caps on what one response may make the client hold or read. A server past a cap fails the
// request with ErrorClass::Oversize, the message naming the cap and its value. The defaults are
// far above anything an OpenAI-compatible server sends (a 32k-token chat stream is ~10 MB) and
// far below what would hurt the client; 0 turns a cap off.
struct ResponseLimits
{
    // Status line and header fields together.
    qint64 maxHeadBytes = 64 * 1024;
    // One SSE line or event held back while it is incomplete (an event's data lines joined).
    qint64 maxEventBytes = 8 * 1024 * 1024;
    // The response body as received (chunk framing included on the socket transport).
    qint64 maxBodyBytes = 128 * 1024 * 1024;
};

} // namespace sb
