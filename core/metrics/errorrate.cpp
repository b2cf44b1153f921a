#include "errorrate.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace sb {

ErrorRateStopper::ErrorRateStopper(double maxErrorRate, qint64 window)
    : m_max(maxErrorRate), m_window(std::max<qint64>(1, window))
{}

bool ErrorRateStopper::add(const RequestRecord &r)
{
    // A request the cancellation load closed is no error (docs/metrics.md).
    const bool failed = r.failed();
    ++m_finished;
    m_recent.push_back(failed);
    m_windowFailures += failed ? 1 : 0;
    if (qint64(m_recent.size()) > m_window) {
        m_windowFailures -= m_recent.front() ? 1 : 0;
        m_recent.pop_front();
    }
    if (!m_exceeded && qint64(m_recent.size()) >= m_window && rate() > m_max) {
        m_exceeded = true;
        m_trippedAt = m_finished;
        m_rateAtTrip = rate();
    }
    return m_exceeded;
}

double ErrorRateStopper::rate() const
{
    return m_recent.empty() ? 0 : double(m_windowFailures) / double(m_recent.size());
}

QString ErrorRateStopper::reason() const
{
    if (!m_exceeded)
        return u"error rate %1 % over the last %2 requests (bound %3 %)"_s
            .arg(rate() * 100, 0, 'f', 1)
            .arg(m_recent.size())
            .arg(m_max * 100, 0, 'f', 1);
    return u"error rate %1 % over the last %2 requests exceeded the bound of %3 % after %4 "
           "requests"_s.arg(m_rateAtTrip * 100, 0, 'f', 1)
               .arg(m_window)
               .arg(m_max * 100, 0, 'f', 1)
               .arg(m_trippedAt);
}

QJsonObject ErrorRateStopper::toJson() const
{
    return QJsonObject{{u"max_error_rate"_s, m_max},
                       {u"window"_s, m_window},
                       {u"finished"_s, m_finished},
                       {u"window_failures"_s, m_windowFailures},
                       {u"rate"_s, rate()},
                       {u"exceeded"_s, m_exceeded},
                       {u"tripped_at"_s, m_trippedAt},
                       {u"reason"_s, reason()}};
}

} // namespace sb
