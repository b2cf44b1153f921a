#pragma once

#include "simlogentry.h"

#include <QMutex>
#include <QWaitCondition>
#include <atomic>
#include <deque>
#include <functional>

namespace sb {

// Point-in-time copy of the simulator's counters.
struct SimCounters
{
    int openConnections = 0;
    int maxOpenConnections = 0;
    int activeStreams = 0; // requests holding a capacity slot (being generated)
    int maxActiveStreams = 0;
    int queuedRequests = 0; // waiting for a capacity slot
    int maxQueuedRequests = 0;
    quint64 totalConnections = 0;
    quint64 totalRequests = 0; // every parsed request, any path
    quint64 droppedLogEntries = 0;
};

// Shared between the simulator's thread (writer) and any reader thread. Counters are atomics so
// readers never contend with the I/O thread; the log takes a mutex once per finished request.
class SimStats
{
public:
    SimStats() = default;
    SimStats(const SimStats &) = delete;
    SimStats &operator=(const SimStats &) = delete;

    void configure(bool recordLog, int maxEntries);

    void connectionOpened();
    void connectionClosed();
    void streamStarted();
    void streamEnded();
    void queued();
    void dequeued();
    void requestParsed();
    void log(SimLogEntry &&entry);
    // Called in the simulator's thread with every entry as it is logged, whether or not the
    // log keeps it (servebench-cli simulate --request-log). Set before the simulator starts.
    void setSink(std::function<void(const SimLogEntry &)> sink) { m_sink = std::move(sink); }

    SimCounters counters() const;
    QList<SimLogEntry> entries() const;
    qsizetype entryCount() const;
    // Blocks until at least count entries are logged (since the last reset) or timeoutMs passed.
    bool waitForEntries(qsizetype count, int timeoutMs) const;
    // Clears the log and totals; maxima restart from the current values.
    void reset();

private:
    static void raiseMax(std::atomic<int> &max, int value);

    std::atomic<int> m_open{0}, m_maxOpen{0};
    std::atomic<int> m_active{0}, m_maxActive{0};
    std::atomic<int> m_queued{0}, m_maxQueued{0};
    std::atomic<quint64> m_totalConnections{0}, m_totalRequests{0}, m_dropped{0};

    mutable QMutex m_mutex;
    mutable QWaitCondition m_logged;
    std::deque<SimLogEntry> m_log;
    bool m_recordLog = true;
    int m_maxEntries = 100000;
    qsizetype m_loggedSinceReset = 0;
    std::function<void(const SimLogEntry &)> m_sink;
};

} // namespace sb
