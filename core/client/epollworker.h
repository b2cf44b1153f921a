#pragma once

#include "client/transport.h"

#include <QByteArray>
#include <QMutex>
#include <atomic>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

namespace sb {

class HttpExchange;

// The plain-http half of the socket transport: one thread running its own epoll loop over
// non-blocking sockets. Qt's event dispatchers poll() every registered descriptor on every
// wake-up, which at a thousand open streams costs more than the streams themselves; epoll costs
// per ready descriptor. Each read is a recvmsg() that also collects the kernel's receive
// timestamp (SO_TIMESTAMPNS), so the time recorded for a chunk is when it reached this host,
// not when this thread got round to it.
//
// That holds only while the thread reads each socket before the server's next chunk lands on
// it: the kernel merges segments waiting in a socket's queue and keeps only the newest one's
// timestamp, so an earlier chunk read late is stamped with the later one's arrival. The loop is
// therefore built so that no kind of work holds reads back for long: a connection yields after
// a bounded number of bytes per wake-up, requests are started in slices between reads, and the
// nap that batches wake-ups is skipped as soon as reads show the thread is being scheduled late.
//
// One request in flight per connection (no pipelining), connections kept alive and reused per
// host:port (unless the mode is per-request). submit(), prewarm() and cancelAll() may be called
// from any thread; the finished callback runs in the worker thread.
class EpollWorker
{
public:
    using Finished = std::function<void(RequestRecord &&)>;

    struct Config
    {
        bool kernelTimestamps = true;
        ConnectionMode mode = ConnectionMode::Warm;
    };

    EpollWorker(int index, const Config &config, Finished finished);
    ~EpollWorker(); // stops: streams still open end as Cancelled
    EpollWorker(const EpollWorker &) = delete;
    EpollWorker &operator=(const EpollWorker &) = delete;

    bool start(QString *error);
    void submit(std::unique_ptr<HttpExchange> exchange);
    void cancelAll();
    // Opens `connections` idle connections to connectUrl (an HTTP proxy when viaProxy); the
    // worker gives up on each that is not open by deadlineNs. waitPrewarm() blocks until every
    // one is open or has failed and returns how many opened, with the first failure in *error.
    struct PrewarmJob;
    std::shared_ptr<PrewarmJob> beginPrewarm(const QUrl &connectUrl, bool viaProxy, int connections,
                                             qint64 deadlineNs);
    static int waitPrewarm(const std::shared_ptr<PrewarmJob> &job, QString *error);

    // For the transport's choice of worker; approximate by nature (read without a lock).
    std::atomic<int> inFlight{0};
    std::atomic<int> idleConnections{0};
    std::atomic<int> openConnections{0};
    // Reads whose time came from the kernel, and reads that had to use the time before the read.
    std::atomic<quint64> kernelStamped{0};
    std::atomic<quint64> userStamped{0};
    // Kernel-stamped reads whose bytes had waited in the socket longer than one millisecond:
    // the thread was late, and a chunk that came before the newest one in such a read carries
    // the newer one's time.
    std::atomic<quint64> lateReads{0};

private:
    struct Conn;
    struct Host;
    struct Deadline;
    struct Inbox;
    enum class DeadlineKind : quint8 { Total, Idle, Drain, Prewarm, Cancel };

    void run();
    void drainInbox();
    void sampleClockOffset();
    void nap();
    void startPending();
    void startExchange(std::unique_ptr<HttpExchange> ex);
    void dispatch(std::unique_ptr<HttpExchange> ex, Host *host);
    Host *hostFor(const QUrl &connectUrl, bool viaProxy, QString *error);
    ErrorClass openConnection(Conn *c, QString *error); // None when connecting
    void startPrewarm(const std::shared_ptr<PrewarmJob> &job);
    void prewarmResult(Conn *c, bool ok, const QString &error);
    void onEvent(Conn *c, quint32 events);
    void onConnected(Conn *c);
    void trySend(Conn *c);
    void onReadable(Conn *c);
    void expire(const Deadline &d, qint64 now);
    void fail(Conn *c, ErrorClass error, const QString &message);
    // Ends the connection's exchange with this outcome and closes the connection.
    void endExchange(Conn *c, ErrorClass error, const QString &message, qint64 tEnd);
    void emitRecord(RequestRecord &&record);
    void cancelRecord(std::unique_ptr<HttpExchange> ex);
    void closeConn(Conn *c);
    void makeIdle(Conn *c);
    void watch(Conn *c, quint32 events);
    void addDeadline(Conn *c, qint64 at, DeadlineKind kind);
    int waitTimeoutMs(qint64 now) const;
    void cancelActive();
    Conn *newConn(Host *host);

    const int m_index;
    const Config m_config;
    Finished m_finished;
    int m_epoll = -1;
    int m_wakeFd = -1;
    int m_stampKeeper = -1; // keeps the kernel's receive timestamping switched on
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::unique_ptr<Inbox> m_inbox;

    // Worker-thread state.
    std::vector<std::unique_ptr<Host>> m_hosts;
    std::vector<std::unique_ptr<Conn>> m_conns; // every connection object ever made, reused
    std::vector<Conn *> m_freeConns;
    std::vector<Conn *> m_closedInBatch;
    std::vector<std::unique_ptr<HttpExchange>> m_batch;
    std::deque<std::unique_ptr<HttpExchange>> m_pending; // taken from the inbox, not started
    // Connections just connected, their request not sent yet (serial: still that exchange?).
    std::deque<std::pair<Conn *, quint64>> m_toSend;
    std::vector<std::shared_ptr<PrewarmJob>> m_prewarms;
    std::vector<Deadline> m_deadlines; // a min-heap; stale entries are skipped when they surface
    std::vector<char> m_readBuffer;
    quint64 m_nextSerial = 1;
    qint64 m_realMinusMono = 0; // CLOCK_REALTIME - CLOCK_MONOTONIC, sampled at every wake-up
    qint64 m_offsetWindowNs = std::numeric_limits<qint64>::max(); // how tight that sample was
    bool m_batchStamped = true;   // every read of the last batch had a kernel timestamp
    bool m_moreToRead = false;    // a connection stopped at its read budget in this batch
    qint64 m_batchLatenessNs = 0; // the most any read of this batch had waited in its socket
    qint64 m_wakeNs = 0;
};

} // namespace sb
