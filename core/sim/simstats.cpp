#include "simstats.h"

#include <QDeadlineTimer>

namespace sb {

void SimStats::configure(bool recordLog, int maxEntries)
{
    QMutexLocker lock(&m_mutex);
    m_recordLog = recordLog;
    m_maxEntries = qMax(1, maxEntries);
    while (qsizetype(m_log.size()) > m_maxEntries) {
        m_log.pop_front();
        ++m_dropped;
    }
}

void SimStats::raiseMax(std::atomic<int> &max, int value)
{
    int seen = max.load(std::memory_order_relaxed);
    while (value > seen && !max.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
    }
}

void SimStats::connectionOpened()
{
    ++m_totalConnections;
    raiseMax(m_maxOpen, ++m_open);
}

void SimStats::connectionClosed()
{
    --m_open;
}

void SimStats::streamStarted()
{
    raiseMax(m_maxActive, ++m_active);
}

void SimStats::streamEnded()
{
    --m_active;
}

void SimStats::queued()
{
    raiseMax(m_maxQueued, ++m_queued);
}

void SimStats::dequeued()
{
    --m_queued;
}

void SimStats::requestParsed()
{
    ++m_totalRequests;
}

void SimStats::log(SimLogEntry &&entry)
{
    if (m_sink)
        m_sink(entry);
    QMutexLocker lock(&m_mutex);
    ++m_loggedSinceReset;
    if (m_recordLog) {
        m_log.push_back(std::move(entry));
        // A ring: a long-running simulator keeps the most recent requests, not the first ones.
        while (qsizetype(m_log.size()) > m_maxEntries) {
            m_log.pop_front();
            ++m_dropped;
        }
    }
    m_logged.wakeAll();
}

SimCounters SimStats::counters() const
{
    SimCounters c;
    c.openConnections = m_open.load();
    c.maxOpenConnections = m_maxOpen.load();
    c.activeStreams = m_active.load();
    c.maxActiveStreams = m_maxActive.load();
    c.queuedRequests = m_queued.load();
    c.maxQueuedRequests = m_maxQueued.load();
    c.totalConnections = m_totalConnections.load();
    c.totalRequests = m_totalRequests.load();
    c.droppedLogEntries = m_dropped.load();
    return c;
}

QList<SimLogEntry> SimStats::entries() const
{
    QMutexLocker lock(&m_mutex);
    return QList<SimLogEntry>(m_log.begin(), m_log.end());
}

qsizetype SimStats::entryCount() const
{
    QMutexLocker lock(&m_mutex);
    return qsizetype(m_log.size());
}

bool SimStats::waitForEntries(qsizetype count, int timeoutMs) const
{
    QDeadlineTimer deadline(timeoutMs);
    QMutexLocker lock(&m_mutex);
    while (m_loggedSinceReset < count) {
        if (!m_logged.wait(&m_mutex, deadline))
            return m_loggedSinceReset >= count;
    }
    return true;
}

void SimStats::reset()
{
    {
        QMutexLocker lock(&m_mutex);
        m_log.clear();
        m_loggedSinceReset = 0;
    }
    m_maxOpen = m_open.load();
    m_maxActive = m_active.load();
    m_maxQueued = m_queued.load();
    m_totalConnections = 0;
    m_totalRequests = 0;
    m_dropped = 0;
}

} // namespace sb
