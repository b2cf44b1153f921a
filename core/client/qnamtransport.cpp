#include "qnamtransport.h"

#include "client/qnamworker.h"

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

} // namespace sb
