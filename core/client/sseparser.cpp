#include "sseparser.h"

namespace sb {

void SseParser::own()
{
    if (m_owned)
        return;
    m_data.append(m_view.data(), m_view.size());
    m_view = {};
    m_owned = true;
}

void SseParser::reset()
{
    m_line.resize(0);
    m_skipLf = false;
    clearEvent();
}

} // namespace sb
