#include "chunkeddecoder.h"

namespace sb {

namespace {
// A chunk-size line longer than this is an attack or garbage, not a size.
constexpr int kMaxSizeDigits = 15;
constexpr int kMaxTrailerLine = 8192;

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
} // namespace

bool ChunkedDecoder::framingByte(char c)
{
    switch (m_state) {
    case State::Size: {
        const int v = hexValue(c);
        if (v >= 0) {
            if (++m_sizeDigits > kMaxSizeDigits)
                return fail("chunk size too large");
            m_remaining = m_remaining * 16 + v;
            return true;
        }
        if (m_sizeDigits == 0)
            return fail("chunk size expected");
        if (c == ';' || c == ' ' || c == '\t') {
            m_state = State::Extension;
            return true;
        }
        if (c == '\r') {
            m_state = State::SizeLf;
            return true;
        }
        if (c == '\n') // bare LF: tolerated, as most clients do
            break;
        return fail("invalid character in chunk size");
    }
    case State::Extension:
        if (c == '\r')
            m_state = State::SizeLf;
        else if (c == '\n')
            break;
        return true;
    case State::SizeLf:
        if (c != '\n')
            return fail("chunk size line not ended by CRLF");
        break;
    case State::DataCr:
        if (c == '\r') {
            m_state = State::DataLf;
            return true;
        }
        if (c == '\n') {
            m_state = State::Size;
            m_sizeDigits = 0;
            return true;
        }
        return fail("chunk data not followed by CRLF");
    case State::DataLf:
        if (c != '\n')
            return fail("chunk data not followed by CRLF");
        m_state = State::Size;
        m_sizeDigits = 0;
        m_remaining = 0;
        return true;
    case State::Trailer:
        if (c == '\r')
            return true; // the LF decides
        if (c == '\n') {
            if (m_trailerLineLength == 0) {
                m_state = State::Done;
                return true;
            }
            m_trailerLineLength = 0;
            return true;
        }
        if (++m_trailerLineLength > kMaxTrailerLine)
            return fail("trailer line too long");
        return true;
    case State::Data:
    case State::Done:
    case State::Error:
        return true;
    }
    // End of a size line (reached from Size, Extension or SizeLf).
    m_sizeDigits = 0;
    if (m_remaining == 0) {
        m_state = State::Trailer;
        m_trailerLineLength = 0;
    } else {
        m_state = State::Data;
    }
    return true;
}

} // namespace sb
