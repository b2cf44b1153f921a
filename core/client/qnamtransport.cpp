#include "qnamtransport.h"

#include "client/qnamworker.h"
#include "client/socketcensus.h"
#include "common/clock.h"
#include "common/threadcensus.h"

#include <QHostInfo>
#include <QThread>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr int kStreamsPerManager = 6;
// Beyond a few threads the managers' own hidden I/O threads dominate; more owner threads
// only add context switches on a small machine.
constexpr int kMaxWorkerThreads = 4;
} // namespace

QnamTransport::QnamTransport(QObject *parent) : Transport(parent) {}

QnamTransport::~QnamTransport()
{
    shutdown();
}

QString QnamTransport::name() const
{
    return u"qnam"_s;
}

void QnamTransport::prepare(int maxConcurrentStreams)
{
    shutdown();
    const int streams = std::max(1, maxConcurrentStreams);
    m_managers = (streams + kStreamsPerManager - 1) / kStreamsPerManager;
    const int threads = std::min(m_managers, kMaxWorkerThreads);
    for (int t = 0; t < threads; ++t) {
        // Spread managers evenly: the first (m_managers % threads) workers get one more.
        const int managers = m_managers / threads + (t < m_managers % threads ? 1 : 0);
        auto *thread = new QThread;
        thread->setObjectName(u"sb-qnam-%1"_s.arg(t));
        auto *worker = new QnamWorker(managers, m_options);
        worker->moveToThread(thread);
        connect(thread, &QThread::finished, worker, &QObject::deleteLater);
        // Emitted in the new thread: it registers itself for the run's sampler.
        connect(
            thread, &QThread::started, thread,
            [t] { enrollThisThread(u"qnam-worker-%1"_s.arg(t)); }, Qt::DirectConnection);
        // Records cross back to this object's thread by a queued connection, then out.
        connect(worker, &QnamWorker::finished, this, &Transport::requestFinished,
                Qt::DirectConnection);
        thread->start();
        QMetaObject::invokeMethod(worker, &QnamWorker::setUp, Qt::BlockingQueuedConnection);
        m_threads.append(thread);
        m_workers.append(worker);
    }
}

void QnamTransport::submit(RequestJob job)
{
    Q_ASSERT(!m_workers.isEmpty());
    // The worker with the most free connections; the controller never has more streams in
    // flight than were prepared, so a free connection always exists.
    QnamWorker *best = m_workers.first();
    int bestFree = best->capacity() - best->inFlight.load(std::memory_order_acquire);
    for (QnamWorker *w : std::as_const(m_workers)) {
        const int free = w->capacity() - w->inFlight.load(std::memory_order_acquire);
        if (free > bestFree) {
            best = w;
            bestFree = free;
        }
    }
    best->inFlight.fetch_add(1, std::memory_order_acq_rel);
    QMetaObject::invokeMethod(
        best, [best, job = std::move(job)]() mutable { best->start(std::move(job)); },
        Qt::QueuedConnection);
}

void QnamTransport::cancelAll()
{
    for (QnamWorker *w : std::as_const(m_workers))
        QMetaObject::invokeMethod(w, &QnamWorker::cancelAll, Qt::QueuedConnection);
}

void QnamTransport::shutdown()
{
    for (int i = 0; i < m_workers.size(); ++i) {
        QMetaObject::invokeMethod(m_workers[i], &QnamWorker::tearDown,
                                  Qt::BlockingQueuedConnection);
        m_threads[i]->quit();
        m_threads[i]->wait();
        delete m_threads[i];
    }
    m_workers.clear();
    m_threads.clear();
    m_managers = 0;
}

bool QnamTransport::prewarm(const QUrl &target, int connections, qint64 deadlineNs, QString *error)
{
    // https: the pool's preconnection would be keyed apart from the HTTP/1.1-only requests
    // (QNetworkAccessManager::connectToHostEncrypted), so its requests open their own.
    if (target.scheme() != "http"_L1)
        return true;
    // Where the first `connections` streams will go, replayed: submit() picks the worker with
    // the most free connections, the worker its least loaded manager. A manager's connections
    // serve only its own requests, so each gets exactly its share.
    QList<QList<int>> perManager;
    for (QnamWorker *w : std::as_const(m_workers))
        perManager.append(QList<int>(w->capacity() / kStreamsPerManager, 0));
    int asked = 0;
    for (int i = 0; i < connections; ++i) {
        qsizetype best = -1;
        int bestFree = 0;
        for (qsizetype k = 0; k < m_workers.size(); ++k) {
            int used = 0;
            for (int n : std::as_const(perManager[k]))
                used += n;
            const int free = m_workers[k]->capacity() - used;
            if (best < 0 || free > bestFree) {
                best = k;
                bestFree = free;
            }
        }
        if (best < 0 || bestFree <= 0)
            break;
        QList<int> &managers = perManager[best];
        const auto least = std::min_element(managers.begin(), managers.end());
        ++*least;
        ++asked;
    }
    // The manager never says when its handshakes are done; the kernel does. Counted before and
    // after, so connections this process already had to the host are not taken for new ones.
    // Through a proxy the connections go to the proxy (the port as the manager's proxy factory
    // defaults it, client/proxyconfig.cpp).
    const QUrl proxy = options().proxy.proxyFor(target);
    const QString host = proxy.isEmpty() ? target.host() : proxy.host();
    const quint16 port = quint16(proxy.isEmpty() ? target.port(80) : proxy.port(1080));
    QList<QHostAddress> peers;
    const QHostAddress literal(host);
    if (!literal.isNull())
        peers.append(literal);
    else
        peers = QHostInfo::fromName(host).addresses();
    const std::optional<QSet<quint64>> before =
        peers.isEmpty() ? std::nullopt : establishedTcpSockets(peers, port);
    for (qsizetype k = 0; k < m_workers.size(); ++k) {
        QnamWorker *w = m_workers[k];
        QMetaObject::invokeMethod(
            w, [w, target, counts = perManager[k]] { w->prewarm(target, counts); },
            Qt::QueuedConnection);
    }
    if (!before) {
        // No census (no /proc, or the name did not resolve here): a pause that covers a
        // handshake on a quiet machine, which is all that can be done.
        const qint64 until = std::min(deadlineNs, monotonicNs() + 200'000'000);
        while (monotonicNs() < until)
            QThread::usleep(1000);
        return true;
    }
    int open = 0;
    while (true) {
        const QSet<quint64> now = establishedTcpSockets(peers, port).value_or(QSet<quint64>());
        open = int((now - *before).size());
        if (open >= asked || monotonicNs() >= deadlineNs)
            break;
        QThread::usleep(1000);
    }
    if (open >= asked)
        return true;
    if (error)
        *error = u"warm connections: %1 of %2 open to %3:%4 when the wait ended"_s.arg(open)
                     .arg(asked)
                     .arg(host)
                     .arg(port);
    return false;
}

} // namespace sb
