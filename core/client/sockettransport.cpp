#include "sockettransport.h"

#include "client/epollworker.h"
#include "client/httpexchange.h"
#include "client/sslworker.h"
#include "common/clock.h"
#include "common/threadcensus.h"

#include <QThread>
#include <QUrl>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr int kStreamsForSecondWorker = 512;
constexpr int kMaxWorkers = 2;
// Descriptors beyond the streams: the process's own files, a simulator in the same process.
constexpr rlim_t kSpareDescriptors = 256;

void raiseDescriptorLimit(int streams)
{
    rlimit rl{};
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    const rlim_t want = rlim_t(streams) * 2 + kSpareDescriptors; // x2: an in-process server
    if (rl.rlim_cur < want) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ? want : std::min(want, rl.rlim_max);
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    // Grow the descriptor table now, once: in a multi-threaded process every growth waits for an
    // RCU grace period (expand_fdtable → synchronize_rcu, ~10 ms here), and growing it while
    // opening a burst of connections would stall the worker that reads every open stream.
    const int top = int(std::min<rlim_t>(want, rl.rlim_cur)) - 1;
    if (top > 0) {
        const int fd = ::fcntl(0, F_DUPFD_CLOEXEC, top);
        if (fd >= 0)
            ::close(fd);
    }
}
} // namespace

SocketTransport::SocketTransport(QObject *parent) : Transport(parent)
{
    // An operational switch (and the benchmarks' way to compare): 0 takes receive times in
    // user space at each wake-up instead of from the kernel.
    m_kernelTimestamps = qEnvironmentVariable("SB_SOCKET_KERNEL_TIMESTAMPS") != "0"_L1;
    m_threadsWanted = qEnvironmentVariableIntValue("SB_SOCKET_WORKERS");
}

SocketTransport::~SocketTransport()
{
    shutdown();
}

QString SocketTransport::name() const
{
    return u"socket"_s;
}

void SocketTransport::addCaCertificates(const QList<QSslCertificate> &certificates)
{
    m_options.extraCaCertificates.append(certificates);
}

void SocketTransport::prepare(int maxConcurrentStreams)
{
    shutdown();
    const int streams = std::max(1, maxConcurrentStreams);
    raiseDescriptorLimit(streams);
    int threads = m_threadsWanted;
    if (threads <= 0) {
        threads = streams >= kStreamsForSecondWorker
                      ? std::min(kMaxWorkers, std::max(1, QThread::idealThreadCount()))
                      : 1;
    }
    EpollWorker::Config config;
    config.kernelTimestamps = m_kernelTimestamps;
    config.mode = m_options.connectionMode;
    for (int i = 0; i < threads; ++i) {
        auto w = std::make_unique<EpollWorker>(
            i, config, [this](RequestRecord &&r) { finished(std::move(r)); });
        QString error;
        if (!w->start(&error))
            qWarning("socket transport: %s", qPrintable(error));
        m_workers.push_back(std::move(w));
    }
}

void SocketTransport::finished(RequestRecord &&record)
{
    // Called in a worker thread; receivers connect with a direct (slot release) or queued
    // (record handling) connection.
    emit requestFinished(record);
}

SslWorker *SocketTransport::sslWorker()
{
    if (m_ssl)
        return m_ssl;
    m_sslThread = new QThread;
    m_sslThread->setObjectName(u"sb-socket-tls"_s);
    m_ssl = new SslWorker([this](RequestRecord &&r) { finished(std::move(r)); }, m_options);
    m_ssl->moveToThread(m_sslThread);
    // Emitted in the new thread: it registers itself for the run's sampler.
    connect(
        m_sslThread, &QThread::started, m_sslThread, [] { enrollThisThread(u"socket-tls"_s); },
        Qt::DirectConnection);
    m_sslThread->start();
    return m_ssl;
}

void SocketTransport::submit(RequestJob job)
{
    job.proxy = m_options.proxy.proxyFor(job.url);
    if (job.idleTimeoutNs <= 0)
        job.idleTimeoutNs = m_options.idleTimeoutNs;
    if (job.url.scheme() == "https"_L1) {
        SslWorker *w = sslWorker();
        w->inFlight.fetch_add(1, std::memory_order_acq_rel);
        QMetaObject::invokeMethod(
            w, [w, job = std::move(job)]() mutable { w->start(std::move(job)); },
            Qt::QueuedConnection);
        return;
    }
    Q_ASSERT(!m_workers.empty());
    // Built here, in the caller's thread: serialising the request is work the worker, which
    // must keep reading every open stream, does not have to do.
    auto exchange =
        std::make_unique<HttpExchange>(std::move(job), m_options.limits, m_options.tokenizer.get());
    // A worker with an idle keep-alive connection first (no new connection needed, so open
    // connections stay at the concurrency), then the least loaded one.
    EpollWorker *best = m_workers.front().get();
    int bestIdle = best->idleConnections.load(std::memory_order_relaxed);
    int bestLoad = best->inFlight.load(std::memory_order_relaxed);
    for (size_t i = 1; i < m_workers.size(); ++i) {
        EpollWorker *w = m_workers[i].get();
        const int idle = w->idleConnections.load(std::memory_order_relaxed);
        const int load = w->inFlight.load(std::memory_order_relaxed);
        if ((idle > 0) > (bestIdle > 0) || ((idle > 0) == (bestIdle > 0) && load < bestLoad)) {
            best = w;
            bestIdle = idle;
            bestLoad = load;
        }
    }
    best->inFlight.fetch_add(1, std::memory_order_acq_rel);
    best->submit(std::move(exchange));
}

bool SocketTransport::prewarm(const QUrl &target, int connections, qint64 deadlineNs,
                              QString *error)
{
    if (connections <= 0)
        return true;
    int opened = 0;
    QString firstError;
    if (target.scheme() == "https"_L1) {
        opened = sslWorker()->prewarm(target, connections, deadlineNs, &firstError);
    } else if (target.scheme() == "http"_L1 && !m_workers.empty()) {
        const QUrl proxy = m_options.proxy.proxyFor(target);
        const QUrl &connectUrl = proxy.isEmpty() ? target : proxy;
        // Split evenly: the transport sends a request to a worker holding an idle connection,
        // so each worker then serves the share of streams it holds connections for.
        std::vector<std::shared_ptr<EpollWorker::PrewarmJob>> jobs;
        const int n = int(m_workers.size());
        for (int i = 0; i < n; ++i) {
            const int share = connections / n + (i < connections % n ? 1 : 0);
            jobs.push_back(m_workers[size_t(i)]->beginPrewarm(connectUrl, !proxy.isEmpty(), share,
                                                              deadlineNs));
        }
        for (const auto &job : jobs) {
            QString why;
            opened += EpollWorker::waitPrewarm(job, &why);
            if (firstError.isEmpty())
                firstError = why;
        }
    } else {
        firstError = u"cannot open connections to %1"_s.arg(target.toDisplayString());
    }
    if (opened >= connections)
        return true;
    if (error)
        *error = u"opened %1 of %2 connections before the run: %3"_s.arg(opened)
                     .arg(connections)
                     .arg(firstError.isEmpty() ? u"no answer before the deadline"_s : firstError);
    return false;
}

void SocketTransport::cancelAll()
{
    for (auto &w : m_workers)
        w->cancelAll();
    if (m_ssl)
        QMetaObject::invokeMethod(m_ssl, &SslWorker::cancelAll, Qt::QueuedConnection);
}

void SocketTransport::shutdown()
{
    m_workers.clear(); // each joins its thread; open streams end as Cancelled
    if (m_ssl) {
        QMetaObject::invokeMethod(m_ssl, &SslWorker::tearDown, Qt::BlockingQueuedConnection);
        QMetaObject::invokeMethod(
            m_ssl, [w = m_ssl] { delete w; }, Qt::BlockingQueuedConnection);
        m_sslThread->quit();
        m_sslThread->wait();
        delete m_sslThread;
        m_ssl = nullptr;
        m_sslThread = nullptr;
    }
}

int SocketTransport::openConnections() const
{
    int n = 0;
    for (const auto &w : m_workers)
        n += w->openConnections.load(std::memory_order_relaxed);
    return n;
}

quint64 SocketTransport::kernelStampedReads() const
{
    quint64 n = 0;
    for (const auto &w : m_workers)
        n += w->kernelStamped.load(std::memory_order_relaxed);
    return n;
}

QJsonObject SocketTransport::counters() const
{
    // Doubles in JSON: exact up to 2^53 reads.
    return {{u"kernel_stamped_reads"_s, double(kernelStampedReads())},
            {u"user_stamped_reads"_s, double(userStampedReads())},
            {u"late_reads"_s, double(lateReads())}};
}

quint64 SocketTransport::lateReads() const
{
    quint64 n = 0;
    for (const auto &w : m_workers)
        n += w->lateReads.load(std::memory_order_relaxed);
    return n;
}

quint64 SocketTransport::userStampedReads() const
{
    quint64 n = 0;
    for (const auto &w : m_workers)
        n += w->userStamped.load(std::memory_order_relaxed);
    return n;
}

} // namespace sb
