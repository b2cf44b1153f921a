#pragma once

#include "simconfig.h"
#include "simapistream.h"

#include <QHash>
#include <QObject>
#include <deque>
#include <memory>
#include <random>

class QTcpServer;

namespace sb {

class SimConnection;
class SimMetrics;
class SimPrefixCache;
class SimScheduler;
class SimStats;
struct SimHttpRequest;

// The simulator's engine, living in the simulator's own thread: accepts connections, routes
// requests, models capacity (FIFO admission), paces the token chunks and injects faults.
// Only Simulator talks to it, always through its thread.
class SimServer : public QObject
{
    Q_OBJECT
public:
    explicit SimServer(SimStats *stats, QObject *parent = nullptr);
    ~SimServer() override;

    // In the server's thread.
    bool listen(const SimConfig &config, QString *error);
    quint16 port() const;
    void setConfig(const SimConfig &config);
    // Closes the listener and every connection; nothing is logged for requests cut off here.
    void shutdown();
    // Empties the prefix cache (a run that must start cold).
    void clearPrefixCache();
    // Blocks held, their capacity, and the blocks evicted so far.
    void prefixCacheState(qint64 *blocks, qint64 *capacity, quint64 *evictions) const;

private:
    struct Stream;
    enum class After { Continue, Finish, Reset, Stall };

    void onNewConnection();
    void onRequest(SimConnection *connection, const SimHttpRequest &request);
    void onConnectionClosed(SimConnection *connection);
    void onDue(quint64 streamId, qint64 dueNs);

    void handleCompletion(SimConnection *connection, const SimHttpRequest &request, SimApi api,
                          quint64 seq);
    // /v1/embeddings, /v1/rerank, /rerank (docs/metrics.md, "Embeddings and rerank").
    void handlePooling(SimConnection *connection, const SimHttpRequest &request, bool rerank,
                       quint64 seq);
    void respondNow(SimConnection *connection, const SimHttpRequest &request, quint64 seq,
                    int status, const QByteArray &contentType, const QByteArray &body,
                    const QByteArray &extraHeaders = {});
    void respondError(SimConnection *connection, const SimHttpRequest &request, quint64 seq,
                      int status, const QString &message, const QByteArray &extraHeaders = {});

    SimFault drawFault();
    double jitteredMs(double ms);
    void admitWaiting();
    void admit(Stream *s);
    void applyPrefixCache(Stream *s);
    void cacheAnswer(Stream *s);
    After step(Stream *s, qint64 now, QByteArray *out);
    void runPaced(Stream *s);
    void runUnpaced(Stream *s);
    void completeNonStreamed(Stream *s);
    void finalize(Stream *s, After how, const QByteArray &bytes);
    void releaseSlot(Stream *s);
    void logEntry(Stream *s, qint64 tEnd);
    // The running set or the queue changed: the metrics' load (and power) follow.
    void updateLoad(qint64 now);

    SimStats *m_stats;
    SimConfig m_config;
    QTcpServer *m_server = nullptr;
    SimScheduler *m_scheduler = nullptr;
    quint64 m_nextConnectionId = 1;
    quint64 m_nextSeq = 0;
    quint64 m_nextStreamId = 1;
    QHash<quint64, Stream *> m_streams;
    QHash<SimConnection *, quint64> m_streamOfConnection;
    std::deque<quint64> m_waiting; // FIFO of stream ids waiting for a capacity slot
    int m_active = 0;
    std::mt19937_64 m_faultRng;
    std::mt19937_64 m_jitterRng;
    std::unique_ptr<SimPrefixCache> m_prefixCache;
    std::unique_ptr<SimMetrics> m_metrics;
    qint64 m_kvHeld = 0; // tokens held by the running sequences (the KV-cache model)
};

} // namespace sb
