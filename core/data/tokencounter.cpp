#include "tokencounter.h"

#include "tokencount.h"

#include "tokenizer/tokenizer.h"

#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
qint32 clamped(qsizetype n)
{
    return qint32(std::min<qsizetype>(n, std::numeric_limits<qint32>::max()));
}
} // namespace

qint32 TokenCounter::count(QStringView text) const
{
    return m_tokenizer ? clamped(m_tokenizer->count(text, true)) : approxTokenCount(text);
}

qint32 TokenCounter::countPart(QStringView text) const
{
    return m_tokenizer ? clamped(m_tokenizer->count(text, false)) : approxTokenCount(text);
}

QString TokenCounter::name() const
{
    return m_tokenizer ? u"tokenizer"_s : QString::fromLatin1(kApproxTokenCounterName);
}

} // namespace sb
