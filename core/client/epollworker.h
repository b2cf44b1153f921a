#pragma once

#include "client/transport.h"

#include <QByteArray>
#include <QMutex>
#include <atomic>
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
// One request in flight per connection (no pipelining), connections kept alive and reused per
// host:port. submit() and cancelAll() may be called from any thread; the finished callback
// runs in the worker thread.
class EpollWorker
{
public:
    using Finished = std::function<void(RequestRecord &&)>;

    EpollWorker(int index, bool kernelTimestamps, Finished finished);
    ~EpollWorker(); // stops: streams still open end as Cancelled
    EpollWorker(const EpollWorker &) = delete;
    EpollWorker &operator=(const EpollWorker &) = delete;

    bool start(QString *error);
    void submit(RequestJob &&job);
    void cancelAll();

    // For the transport's choice of worker; approximate by nature (read without a lock).
    std::atomic<int> inFlight{0};
    std::atomic<int> idleConnections{0};
    std::atomic<int> openConnections{0};
    // Reads whose time came from the kernel, and reads that had to use the wake-up time.
    std::atomic<quint64> kernelStamped{0};
    std::atomic<quint64> userStamped{0};

private:
    struct Conn;
    struct Host;
    struct Deadline;
    struct Inbox;

    void run();
    void drainInbox();
    void sampleClockOffset();
    void nap();
    void startExchange(std::unique_ptr<HttpExchange> ex);
    void dispatch(std::unique_ptr<HttpExchange> ex, Host *host);
    Host *hostFor(const HttpExchange &ex, QString *error);
    ErrorClass openConnection(Conn *c, QString *error); // None when connecting
    void onEvent(Conn *c, quint32 events);
    void onConnected(Conn *c);
    void trySend(Conn *c);
    void onReadable(Conn *c);
    void expire(const Deadline &d, qint64 now);
    void fail(Conn *c, ErrorClass error, const QString &message);
    // Ends the connection's exchange with this outcome and closes the connection.
    void endExchange(Conn *c, ErrorClass error, const QString &message, qint64 tEnd);
    void emitRecord(RequestRecord &&record);
    void closeConn(Conn *c);
    void makeIdle(Conn *c);
    void watch(Conn *c, quint32 events);
    void addDeadline(Conn *c, qint64 at, bool drain);
    int waitTimeoutMs(qint64 now) const;
    void cancelActive();
    Conn *newConn(Host *host);

    const int m_index;
    const bool m_kernelTimestamps;
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
    std::vector<RequestJob> m_batch;
    std::vector<Deadline> m_deadlines; // a min-heap; stale entries are skipped when they surface
    std::vector<char> m_readBuffer;
    quint64 m_nextSerial = 1;
    qint64 m_realMinusMono = 0; // CLOCK_REALTIME - CLOCK_MONOTONIC, sampled at every wake-up
    qint64 m_offsetWindowNs = std::numeric_limits<qint64>::max(); // how tight that sample was
    bool m_batchStamped = true; // every read of the last batch had a kernel timestamp
    qint64 m_wakeNs = 0;
};

} // namespace sb
