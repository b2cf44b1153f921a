#pragma once

#include "simconfig.h"
#include "simlogentry.h"
#include "simstats.h"

#include <QMutex>
#include <QString>
#include <QUrl>
#include <memory>

class QThread;

namespace sb {

class SimServer;

// The built-in OpenAI-compatible streaming simulator: POST /v1/completions,
// POST /v1/chat/completions (SSE when "stream": true, one JSON answer otherwise), GET /v1/models,
// POST /tokenize, GET /health; GET /metrics (Prometheus text with vLLM's metric names) and
// GET /dcgm/metrics (a simulated DCGM exporter), both driven by its real state (SimMetrics).
//
// It runs in a thread of its own, so it keeps its schedule whatever the caller's thread does,
// and every method here may be called from any thread. Every response has exactly max_tokens
// (or max_completion_tokens, or SimConfig::defaultMaxTokens) tokens with finish_reason "length":
// the simulator never stops early, so ignore_eos changes nothing.
class Simulator
{
public:
    explicit Simulator(const SimConfig &config = SimConfig());
    ~Simulator(); // stops
    Simulator(const Simulator &) = delete;
    Simulator &operator=(const Simulator &) = delete;

    // Blocks until the simulator listens (true) or failed to (false, see errorString()).
    bool start();
    // Closes every connection and joins the thread. Requests cut off here are not logged.
    void stop();
    bool isRunning() const;
    QString errorString() const;

    QString host() const;
    quint16 port() const; // the bound port once started (useful with SimConfig::port == 0)
    QUrl baseUrl() const; // http://host:port, no trailing slash

    SimConfig config() const;
    // Applies to requests that arrive afterwards (host, port and seed only on the next start()).
    void setConfig(const SimConfig &config);

    // Observability. Counters are atomics; the log is a bounded ring (SimConfig::maxLogEntries).
    SimCounters counters() const;
    int openConnections() const;
    int maxOpenConnections() const;
    int activeStreams() const;
    int maxActiveStreams() const;
    QList<SimLogEntry> requestLog() const;
    // Waits until count requests have been logged since the last reset() (or start()).
    bool waitForLogEntries(qsizetype count, int timeoutMs) const;
    // Clears the log and totals; the maxima restart from the current values.
    void reset();
    // Before start(): called in the simulator's thread with every request's entry when it is
    // logged (SimStats::setSink), also when the bounded log is off.
    void setRequestLogSink(std::function<void(const SimLogEntry &)> sink);

    // The prefix cache (SimConfig::prefixCache): emptied so a run starts cold, and its state.
    struct PrefixCacheState
    {
        qint64 blocks = 0;
        qint64 capacity = 0;
        quint64 evictions = 0; // since the simulator started
    };
    void clearPrefixCache();
    PrefixCacheState prefixCacheState() const;

private:
    mutable QMutex m_mutex;
    SimConfig m_config;
    QString m_error;
    quint16 m_port = 0;
    std::unique_ptr<SimStats> m_stats;
    QThread *m_thread = nullptr;
    SimServer *m_server = nullptr;
};

} // namespace sb
