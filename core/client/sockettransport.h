#pragma once

#include "client/transport.h"

#include <QList>
#include <QSslCertificate>
#include <memory>
#include <vector>

class QThread;

namespace sb {

class EpollWorker;
class SslWorker;

// A hand-written HTTP/1.1 client for high concurrency (docs/design.md, "Transport and threading"):
// plain http runs on one or two epoll worker threads with kernel receive timestamps; https runs on
// QSslSocket in one Qt worker thread. Keep-alive connections are reused per host:port, one request
// in flight per connection (no pipelining), so C concurrent streams are C open connections.
//
// Not supported, by design: HTTP/2, redirects, compression (Accept-Encoding: identity is sent).
class SocketTransport : public Transport
{
    Q_OBJECT
public:
    explicit SocketTransport(QObject *parent = nullptr);
    ~SocketTransport() override;

    // Raises RLIMIT_NOFILE as far as the hard limit allows when the streams need it.
    void prepare(int maxConcurrentStreams) override;
    // Thread-safe: the run controller's dispatcher thread calls it directly.
    bool prewarm(const QUrl &target, int connections, qint64 deadlineNs, QString *error) override;
    void submit(RequestJob job) override;
    void cancelAll() override;
    QString name() const override;
    QJsonObject counters() const override;

    // Before prepare(). 0 (default) = one worker up to 511 streams, else one per core, at most
    // two: more threads than cores only add context switches.
    void setWorkerThreads(int threads) { m_threadsWanted = threads; }
    // Before prepare(). On by default (environment: SB_SOCKET_KERNEL_TIMESTAMPS=0 turns it off);
    // off takes receive times in user space at each wake-up.
    void setKernelTimestamps(bool on) { m_kernelTimestamps = on; }
    // Before the first https request: certificates trusted beside the system's CA store.
    void addCaCertificates(const QList<QSslCertificate> &certificates);

    int workerThreads() const { return int(m_workers.size()); }
    // Connections currently open over every plain-http worker.
    int openConnections() const;
    // Reads stamped by the kernel vs. by the wake-up time (plain http only).
    quint64 kernelStampedReads() const;
    quint64 userStampedReads() const;
    // Kernel-stamped reads whose bytes had waited over 1 ms in the socket (the worker was late).
    quint64 lateReads() const;

private:
    void shutdown();
    void finished(RequestRecord &&record);
    SslWorker *sslWorker();

    std::vector<std::unique_ptr<EpollWorker>> m_workers;
    QThread *m_sslThread = nullptr;
    SslWorker *m_ssl = nullptr;
    int m_threadsWanted = 0;
    bool m_kernelTimestamps = true;
};

} // namespace sb
