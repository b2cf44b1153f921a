#pragma once

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QtGlobal>

namespace sb {

// What the simulator exports at GET /metrics (vLLM's current metric names) and at
// GET /dcgm/metrics (a simulated DCGM exporter). Every value comes from the simulator's own
// state and its own observations: its FIFO queue and running set, a KV-cache model (tokens
// held by the running sequences over a capacity), its token counters and the latencies it
// produced. Counters run over the simulator's life (reset() of its log does not touch them),
// as a server's counters do until it restarts.
//
// Lives in the simulator's thread; not thread-safe.
class SimMetrics
{
public:
    struct Histogram
    {
        QList<double> bounds;  // upper bounds, ascending, without +Inf
        QList<quint64> counts; // per bucket (not cumulative), bounds.size() + 1 with +Inf
        double sum = 0;
        quint64 count = 0;

        explicit Histogram(const QList<double> &upperBounds = {});
        void observe(double v);
    };

    SimMetrics();

    void configure(const QString &modelName, int kvCacheTokens, double gpuIdleW, double gpuMaxW,
                   int gpuSaturationRunning);

    // Events, in the order the simulator lives them (times: CLOCK_MONOTONIC ns).
    void admitted(int promptTokens, int cachedTokens, bool prefixCacheOn);
    void firstToken(qint64 arrivalNs, qint64 nowNs, int promptTokens);
    void tokens(int count);
    void interTokenGap(qint64 gapNs);
    void finished(qint64 arrivalNs, qint64 lastTokenNs);
    // A request answered (any path, any status), for http_requests_total by handler, method and
    // status class, as vLLM's server exports it.
    void httpRequest(const QByteArray &handler, const QByteArray &method, int status);
    // The running set or queue changed: the power integral advances with the old load first.
    void load(int running, int waiting, qint64 kvTokensHeld, qint64 nowNs);

    QByteArray renderVllm() const;
    QByteArray renderDcgm(qint64 nowNs) const;

    // For tests and the GPU model.
    double kvCacheUsage() const;
    double gpuUtilPercent() const;
    double powerW() const;
    double energyMilliJoules(qint64 nowNs) const;
    quint64 generationTokens() const { return m_generationTokens; }
    quint64 successfulRequests() const { return m_success; }

private:
    QByteArray m_labels; // engine="0",model_name="..."
    int m_kvCapacity = 131072;
    double m_idleW = 60;
    double m_maxW = 350;
    int m_saturation = 64;

    int m_running = 0;
    int m_waiting = 0;
    qint64 m_kvHeld = 0;
    quint64 m_preemptions = 0; // the simulator queues instead of preempting: stays 0
    quint64 m_promptTokens = 0;
    quint64 m_generationTokens = 0;
    quint64 m_prefixQueries = 0;
    quint64 m_prefixHits = 0;
    quint64 m_success = 0;
    QMap<QByteArray, quint64> m_http; // the sample's labels → requests
    Histogram m_ttft;
    Histogram m_itl;
    Histogram m_e2e;

    double m_energyMj = 0;     // up to m_energySince
    qint64 m_energySince = -1; // monotonic ns of the last load change
};

} // namespace sb
