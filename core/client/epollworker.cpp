#include "epollworker.h"

#include "client/httpexchange.h"
#include "client/httprequestwriter.h"
#include "client/readstamp.h"
#include "common/clock.h"
#include "common/threadcensus.h"

#include <QDeadlineTimer>
#include <QUrl>
#include <QWaitCondition>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <utility>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// One buffer per worker, shared by every connection: an open stream holds no read buffer of
// its own, which is most of what keeps 10,000 streams cheap.
constexpr size_t kReadBuffer = 128 * 1024;
// What one connection may read per wake-up before the others (and the deadlines) get their
// turn: a server flooding one connection must not starve the rest or its own timeout.
constexpr size_t kReadBudget = 4 * kReadBuffer;
constexpr int kMaxEvents = 256;
// Requests started (or, once connected, sent) per loop iteration at most, and for how long:
// sending on loopback also runs the server's receive path in this thread (~30 us a request, ~90
// with a connect), so a burst of a thousand would otherwise keep every open stream unread for
// tens of milliseconds.
constexpr int kStartsPerSlice = 32;
constexpr qint64 kStartSliceNs = 300'000;
// After [DONE] (or a stream error) the response should end at once; a server that keeps it
// open gets this long before the connection is closed instead of reused.
constexpr qint64 kDrainNs = 200'000'000;
// A kernel timestamp further from the wake-up than this is not believed (clock step).
constexpr qint64 kMaxStampSkewNs = 10'000'000'000;
// With kernel receive timestamps, when a chunk arrived does not depend on when this thread
// reads it — as long as it reads before the stream's next chunk arrives (see the class comment).
// So after a small batch the thread naps this long and lets events gather: one wake-up then
// serves dozens of streams instead of one. It naps only while its reads show it is scheduled
// on time (no read of the batch waited longer than kNapMaxLatenessNs): on a busy machine a
// sleeping thread wakes late, and then a nap would cost precision, not CPU.
constexpr qint64 kNapNs = 1'000'000;
constexpr int kNapBelowEvents = 64;
constexpr qint64 kNapMaxLatenessNs = 200'000;
// A read whose bytes waited longer than this counts as late (lateReads).
constexpr qint64 kLateReadNs = 1'000'000;
// A clock-offset sample taken over a wider window than this was preempted midway.
constexpr qint64 kOffsetWindowNs = 20'000;

qint64 toNs(const timespec &ts)
{
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

QString errnoText(int e)
{
    return QString::fromLocal8Bit(std::strerror(e));
}

QString seconds(qint64 ns)
{
    return QString::number(double(ns) / 1e9, 'g', 4);
}
} // namespace

struct EpollWorker::Host
{
    QByteArray key; // host:port, prefixed "proxy " for an HTTP proxy (messages name it so)
    std::vector<sockaddr_storage> addrs;
    std::vector<socklen_t> addrLens;
    QString resolveError;
    std::vector<Conn *> idle; // most recently used last
};

struct EpollWorker::Conn
{
    enum class State : quint8 { Free, Idle, Connecting, Active };
    int fd = -1;
    State state = State::Free;
    bool requestSent = false;
    bool reused = false;    // carried an earlier response: the server may have closed it since
    bool prewarmed = false; // opened by prewarm() and not used yet
    bool complete = false;  // the stream said [DONE]; waiting for the response's end
    int addr = 0;           // which of the host's addresses this connection tries
    quint32 watched = 0;
    qsizetype sent = 0;
    quint64 serial = 0;        // the exchange's id, so stale deadlines are recognised
    qint64 lastActivityNs = 0; // last byte sent or received (the idle timeout's origin)
    Host *host = nullptr;
    PrewarmJob *prewarm = nullptr; // while connecting for prewarm()
    std::unique_ptr<HttpExchange> ex;
};

struct EpollWorker::Deadline
{
    qint64 at;
    Conn *conn;
    quint64 serial;
    DeadlineKind kind;
    bool operator>(const Deadline &o) const { return at > o.at; }
};

struct EpollWorker::PrewarmJob
{
    QUrl connectUrl;
    bool viaProxy = false;
    int wanted = 0;
    qint64 deadlineNs = 0;
    int outstanding = 0; // worker thread only
    // Shared with the caller, under mutex.
    QMutex mutex;
    QWaitCondition finished;
    int opened = 0;
    int failed = 0;
    QString firstError;
    bool done = false;
};

struct EpollWorker::Inbox
{
    QMutex mutex;
    QWaitCondition wake; // cuts a nap short
    bool napping = false;
    std::vector<std::unique_ptr<HttpExchange>> jobs;
    std::vector<std::shared_ptr<PrewarmJob>> prewarms;
    size_t cancelUpTo = 0; // jobs before this index were submitted before a cancelAll()
    bool cancel = false;
    std::atomic<bool> wakePending{false};
};

EpollWorker::EpollWorker(int index, const Config &config, Finished finished)
    : m_index(index), m_config(config), m_finished(std::move(finished)),
      m_inbox(std::make_unique<Inbox>())
{}

EpollWorker::~EpollWorker()
{
    if (m_thread.joinable()) {
        m_stop = true;
        const quint64 one = 1;
        [[maybe_unused]] ssize_t w = ::write(m_wakeFd, &one, sizeof one);
        m_thread.join();
    }
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
    if (m_stampKeeper >= 0)
        ::close(m_stampKeeper);
    if (m_epoll >= 0)
        ::close(m_epoll);
}

bool EpollWorker::start(QString *error)
{
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    m_wakeFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m_epoll < 0 || m_wakeFd < 0) {
        *error = u"cannot create the socket transport's event loop: %1"_s.arg(errnoText(errno));
        return false;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = nullptr; // the wake-up descriptor; connections are never null
    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wakeFd, &ev);
    m_readBuffer.resize(kReadBuffer);
    if (m_config.kernelTimestamps) {
        // Linux timestamps received packets only while some socket wants it, and switches that
        // on a moment after the first one asks (a deferred static key). Asking now, on a socket
        // held for the worker's life, means the first response is already stamped.
        m_stampKeeper = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        const int one = 1;
        if (m_stampKeeper >= 0)
            ::setsockopt(m_stampKeeper, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    }
    m_thread = std::thread([this] { run(); });
    return true;
}

void EpollWorker::submit(std::unique_ptr<HttpExchange> exchange)
{
    {
        QMutexLocker lock(&m_inbox->mutex);
        m_inbox->jobs.push_back(std::move(exchange));
        if (m_inbox->napping)
            m_inbox->wake.wakeOne();
    }
    // One eventfd write per batch of submissions, not per job.
    if (!m_inbox->wakePending.exchange(true, std::memory_order_acq_rel)) {
        const quint64 one = 1;
        [[maybe_unused]] ssize_t w = ::write(m_wakeFd, &one, sizeof one);
    }
}

void EpollWorker::cancelAll()
{
    {
        QMutexLocker lock(&m_inbox->mutex);
        m_inbox->cancel = true;
        m_inbox->cancelUpTo = m_inbox->jobs.size();
        if (m_inbox->napping)
            m_inbox->wake.wakeOne();
    }
    m_inbox->wakePending.store(true, std::memory_order_release);
    const quint64 one = 1;
    [[maybe_unused]] ssize_t w = ::write(m_wakeFd, &one, sizeof one);
}

std::shared_ptr<EpollWorker::PrewarmJob>
EpollWorker::beginPrewarm(const QUrl &connectUrl, bool viaProxy, int connections, qint64 deadlineNs)
{
    auto job = std::make_shared<PrewarmJob>();
    job->connectUrl = connectUrl;
    job->viaProxy = viaProxy;
    job->wanted = std::max(0, connections);
    job->deadlineNs = deadlineNs;
    if (job->wanted == 0) {
        job->done = true;
        return job;
    }
    {
        QMutexLocker lock(&m_inbox->mutex);
        m_inbox->prewarms.push_back(job);
        if (m_inbox->napping)
            m_inbox->wake.wakeOne();
    }
    m_inbox->wakePending.store(true, std::memory_order_release);
    const quint64 one = 1;
    [[maybe_unused]] ssize_t w = ::write(m_wakeFd, &one, sizeof one);
    return job;
}

int EpollWorker::waitPrewarm(const std::shared_ptr<PrewarmJob> &job, QString *error)
{
    QMutexLocker lock(&job->mutex);
    // The worker enforces the deadline on every connection; the margin covers its last wake-up.
    const qint64 waitUntil = job->deadlineNs + 500'000'000;
    while (!job->done) {
        const qint64 left = waitUntil - monotonicNs();
        if (left <= 0)
            break;
        job->finished.wait(&job->mutex,
                           QDeadlineTimer(std::chrono::nanoseconds(left), Qt::PreciseTimer));
    }
    if (error && !job->firstError.isEmpty())
        *error = job->firstError;
    return job->opened;
}

void EpollWorker::run()
{
    // Named so profiles and `top -H` tell the transport's threads apart.
    const QByteArray name = "sb-socket-" + QByteArray::number(m_index);
    pthread_setname_np(pthread_self(), name.constData());
    // Sampled through the run (docs/performance.md, "The client checks itself").
    enrollThisThread(u"socket-worker-%1"_s.arg(m_index));
    std::vector<epoll_event> events(kMaxEvents);
    while (!m_stop.load(std::memory_order_relaxed)) {
        // Work left over from the last iteration (a connection at its read budget, requests
        // not started yet): look for events without sleeping, then carry on with it.
        const bool busy = m_moreToRead || !m_pending.empty() || !m_toSend.empty();
        const int n = ::epoll_wait(m_epoll, events.data(), kMaxEvents,
                                   busy ? 0 : waitTimeoutMs(monotonicNs()));
        // Taken before anything else: deadlines and drain times count from here.
        m_wakeNs = monotonicNs();
        if (m_config.kernelTimestamps)
            sampleClockOffset();
        m_moreToRead = false;
        m_batchLatenessNs = 0;
        for (int i = 0; i < n; ++i) {
            auto *c = static_cast<Conn *>(events[i].data.ptr);
            if (!c) {
                quint64 v;
                [[maybe_unused]] ssize_t r = ::read(m_wakeFd, &v, sizeof v);
                drainInbox();
                continue;
            }
            onEvent(c, events[i].events);
        }
        if (!m_deadlines.empty()) {
            const qint64 now = monotonicNs();
            while (!m_deadlines.empty() && m_deadlines.front().at <= now) {
                std::pop_heap(m_deadlines.begin(), m_deadlines.end(), std::greater<>());
                const Deadline d = m_deadlines.back();
                m_deadlines.pop_back();
                expire(d, now);
            }
        }
        startPending();
        // Connections closed in this batch become reusable only now: an event for the old
        // descriptor may still be in the batch above.
        for (Conn *c : m_closedInBatch) {
            if (c->state == Conn::State::Free)
                m_freeConns.push_back(c);
        }
        m_closedInBatch.clear();
        if (n > 0 && n < kNapBelowEvents && m_config.kernelTimestamps && m_batchStamped &&
            m_batchLatenessNs < kNapMaxLatenessNs && !m_moreToRead && m_pending.empty() &&
            m_toSend.empty())
            nap();
        m_batchStamped = true;
    }
    // Shutting down: whatever is queued or open ends as cancelled.
    {
        QMutexLocker lock(&m_inbox->mutex);
        m_inbox->cancel = true;
        m_inbox->cancelUpTo = m_inbox->jobs.size();
    }
    drainInbox();
    for (auto &conn : m_conns)
        closeConn(conn.get());
    for (const auto &job : m_prewarms) {
        QMutexLocker lock(&job->mutex);
        job->done = true;
        job->finished.wakeAll();
    }
    m_prewarms.clear();
}

void EpollWorker::nap()
{
    QMutexLocker lock(&m_inbox->mutex);
    if (!m_inbox->jobs.empty() || !m_inbox->prewarms.empty() || m_inbox->cancel ||
        m_stop.load(std::memory_order_relaxed))
        return;
    m_inbox->napping = true;
    m_inbox->wake.wait(&m_inbox->mutex,
                       QDeadlineTimer(std::chrono::nanoseconds(kNapNs), Qt::PreciseTimer));
    m_inbox->napping = false;
}

void EpollWorker::sampleClockOffset()
{
    // Kernel timestamps are CLOCK_REALTIME; records are CLOCK_MONOTONIC. The offset is read
    // between two monotonic readings; if this thread was preempted in between, the sample is
    // off by the preemption, so it is taken again (or the previous one kept).
    // The offset only moves when the wall clock is stepped (NTP slews both clocks alike), so a
    // wide sample never replaces a tighter one.
    for (int attempt = 0; attempt < 3; ++attempt) {
        timespec rt;
        const qint64 m1 = monotonicNs();
        clock_gettime(CLOCK_REALTIME, &rt);
        const qint64 m2 = monotonicNs();
        const qint64 window = m2 - m1;
        if (window < kOffsetWindowNs || window < m_offsetWindowNs) {
            // The true offset lies in [rt - m2, rt - m1]; the smaller end makes a converted
            // stamp late by at most the window, never early (a chunk is never "received"
            // before the server wrote it).
            m_realMinusMono = toNs(rt) - m2;
            m_offsetWindowNs = std::max(window, qint64(1));
            if (window < kOffsetWindowNs)
                return;
        }
    }
}

void EpollWorker::cancelRecord(std::unique_ptr<HttpExchange> ex)
{
    RequestRecord r = ex->finish(ErrorClass::Cancelled, u"run stopped"_s, monotonicNs());
    r.error = ErrorClass::Cancelled; // also over an invalid request's own error
    r.errorMessage = u"run stopped"_s;
    emitRecord(std::move(r));
}

void EpollWorker::drainInbox()
{
    m_inbox->wakePending.store(false, std::memory_order_release);
    // Swapped with a vector of our own, so neither side allocates in steady state.
    std::vector<std::unique_ptr<HttpExchange>> &jobs = m_batch;
    jobs.clear();
    std::vector<std::shared_ptr<PrewarmJob>> prewarms;
    bool cancel = false;
    size_t cancelUpTo = 0;
    {
        QMutexLocker lock(&m_inbox->mutex);
        jobs.swap(m_inbox->jobs);
        prewarms.swap(m_inbox->prewarms);
        cancel = std::exchange(m_inbox->cancel, false);
        cancelUpTo = std::exchange(m_inbox->cancelUpTo, 0);
    }
    size_t i = 0;
    if (cancel) {
        // Everything submitted before the cancel: not started yet, queued, or open.
        while (!m_pending.empty()) {
            cancelRecord(std::move(m_pending.front()));
            m_pending.pop_front();
        }
        for (; i < cancelUpTo && i < jobs.size(); ++i)
            cancelRecord(std::move(jobs[i]));
        cancelActive();
    }
    for (; i < jobs.size(); ++i)
        m_pending.push_back(std::move(jobs[i]));
    jobs.clear();
    for (const auto &job : prewarms)
        startPrewarm(job);
}

void EpollWorker::startPending()
{
    if (m_pending.empty() && m_toSend.empty())
        return;
    const qint64 until = monotonicNs() + kStartSliceNs;
    int done = 0;
    // Connected ones first: they waited longest.
    while (!m_toSend.empty()) {
        const auto [c, serial] = m_toSend.front();
        m_toSend.pop_front();
        if (c->serial != serial || !c->ex || c->state != Conn::State::Active || c->requestSent)
            continue; // ended (timeout, cancel) while it waited
        trySend(c);
        if (++done >= kStartsPerSlice || monotonicNs() >= until)
            return;
    }
    while (!m_pending.empty()) {
        std::unique_ptr<HttpExchange> ex = std::move(m_pending.front());
        m_pending.pop_front();
        startExchange(std::move(ex));
        if (++done >= kStartsPerSlice || monotonicNs() >= until)
            return;
    }
}

void EpollWorker::startExchange(std::unique_ptr<HttpExchange> ex)
{
    // t_send is when the request is taken up, before any connect.
    ex->markSent(monotonicNs());
    if (!ex->invalid().isEmpty()) {
        const QString why = ex->invalid();
        emitRecord(ex->finish(ErrorClass::Transport, why, monotonicNs()));
        return;
    }
    QString error;
    if (ex->url().scheme() != "http"_L1) {
        error = u"the socket transport's plain worker cannot send to %1"_s.arg(ex->url().scheme());
        emitRecord(ex->finish(ErrorClass::Connect, error, monotonicNs()));
        return;
    }
    Host *host = hostFor(ex->connectUrl(), !ex->proxy().isEmpty(), &error);
    if (!host) {
        emitRecord(ex->finish(ErrorClass::Connect, error, monotonicNs()));
        return;
    }
    dispatch(std::move(ex), host);
}

EpollWorker::Host *EpollWorker::hostFor(const QUrl &url, bool viaProxy, QString *error)
{
    const QByteArray key = viaProxy ? QByteArray("proxy ") + hostPortKey(url) : hostPortKey(url);
    for (auto &h : m_hosts) {
        if (h->key == key) {
            if (!h->resolveError.isEmpty()) {
                *error = h->resolveError;
                return nullptr;
            }
            return h.get();
        }
    }
    auto host = std::make_unique<Host>();
    host->key = key;
    // Resolved once per host and run, in this thread: a slow DNS answer delays the first
    // request only. Every address is kept and tried in order.
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    const QByteArray name = url.host(QUrl::FullyEncoded).toLatin1();
    const QByteArray port = QByteArray::number(url.port(80));
    const int rc = ::getaddrinfo(name.constData(), port.constData(), &hints, &res);
    if (rc != 0 || !res) {
        host->resolveError = u"cannot resolve %1: %2"_s.arg(
            QString::fromLatin1(name), QString::fromLocal8Bit(gai_strerror(rc)));
    } else {
        for (addrinfo *a = res; a; a = a->ai_next) {
            sockaddr_storage ss{};
            std::memcpy(&ss, a->ai_addr, a->ai_addrlen);
            host->addrs.push_back(ss);
            host->addrLens.push_back(a->ai_addrlen);
        }
        ::freeaddrinfo(res);
    }
    m_hosts.push_back(std::move(host));
    Host *h = m_hosts.back().get();
    if (!h->resolveError.isEmpty()) {
        *error = h->resolveError;
        return nullptr;
    }
    return h;
}

EpollWorker::Conn *EpollWorker::newConn(Host *host)
{
    Conn *c;
    if (!m_freeConns.empty()) {
        c = m_freeConns.back();
        m_freeConns.pop_back();
    } else {
        m_conns.push_back(std::make_unique<Conn>());
        c = m_conns.back().get();
    }
    c->host = host;
    c->fd = -1;
    c->addr = 0;
    c->reused = false;
    c->prewarmed = false;
    c->prewarm = nullptr;
    c->watched = 0;
    return c;
}

void EpollWorker::dispatch(std::unique_ptr<HttpExchange> ex, Host *host)
{
    Conn *c = nullptr;
    if (m_config.mode != ConnectionMode::PerRequest && !host->idle.empty() && ex->mayRetry()) {
        c = host->idle.back();
        host->idle.pop_back();
        idleConnections.fetch_sub(1, std::memory_order_relaxed);
    }
    const bool fresh = !c;
    if (fresh)
        c = newConn(host);
    ex->markConnection(fresh          ? ConnectionUse::New
                       : c->prewarmed ? ConnectionUse::Prewarmed
                                      : ConnectionUse::Reused);
    c->prewarmed = false;
    c->ex = std::move(ex);
    c->serial = m_nextSerial++;
    c->sent = 0;
    c->requestSent = false;
    c->complete = false;
    c->lastActivityNs = c->ex->sendTime();
    if (const qint64 timeout = c->ex->timeoutNs(); timeout > 0)
        addDeadline(c, c->ex->sendTime() + timeout, DeadlineKind::Total);
    if (const qint64 idle = c->ex->idleTimeoutNs(); idle > 0)
        addDeadline(c, c->ex->sendTime() + idle, DeadlineKind::Idle);
    if (!fresh) {
        c->state = Conn::State::Active;
        trySend(c);
        return;
    }
    c->state = Conn::State::Connecting;
    QString error;
    if (const ErrorClass e = openConnection(c, &error); e != ErrorClass::None)
        fail(c, e, error);
}

ErrorClass EpollWorker::openConnection(Conn *c, QString *error)
{
    Host *h = c->host;
    for (; c->addr < int(h->addrs.size()); ++c->addr) {
        const auto *sa = reinterpret_cast<const sockaddr *>(&h->addrs[size_t(c->addr)]);
        const int fd = ::socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            // Out of descriptors is the client's limit, not the server's fault.
            const int e = errno;
            *error = u"cannot open a socket: %1"_s.arg(errnoText(e));
            return e == EMFILE || e == ENFILE ? ErrorClass::Transport : ErrorClass::Connect;
        }
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (m_config.kernelTimestamps)
            ::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
        if (c->ex)
            c->ex->markConnectStart(monotonicNs());
        if (::connect(fd, sa, h->addrLens[size_t(c->addr)]) == 0 || errno == EINPROGRESS) {
            c->fd = fd;
            c->watched = 0;
            openConnections.fetch_add(1, std::memory_order_relaxed);
            watch(c, EPOLLOUT);
            return ErrorClass::None;
        }
        *error = u"cannot connect to %1: %2"_s.arg(QString::fromLatin1(h->key), errnoText(errno));
        ::close(fd);
    }
    if (error->isEmpty())
        *error = u"cannot connect to %1: no address"_s.arg(QString::fromLatin1(h->key));
    return ErrorClass::Connect;
}

void EpollWorker::startPrewarm(const std::shared_ptr<PrewarmJob> &job)
{
    QString error;
    Host *host = hostFor(job->connectUrl, job->viaProxy, &error);
    if (!host) {
        QMutexLocker lock(&job->mutex);
        job->failed = job->wanted;
        job->firstError = error;
        job->done = true;
        job->finished.wakeAll();
        return;
    }
    m_prewarms.push_back(job);
    job->outstanding = job->wanted;
    for (int i = 0; i < job->wanted; ++i) {
        Conn *c = newConn(host);
        c->prewarm = job.get();
        c->serial = m_nextSerial++;
        c->state = Conn::State::Connecting;
        QString why;
        if (openConnection(c, &why) != ErrorClass::None) {
            prewarmResult(c, false, why);
            continue;
        }
        addDeadline(c, job->deadlineNs, DeadlineKind::Prewarm);
    }
}

void EpollWorker::prewarmResult(Conn *c, bool ok, const QString &error)
{
    PrewarmJob *job = c->prewarm;
    c->prewarm = nullptr;
    if (ok) {
        makeIdle(c);
        c->prewarmed = true;
    } else {
        closeConn(c);
    }
    {
        QMutexLocker lock(&job->mutex);
        ok ? ++job->opened : ++job->failed;
        if (!ok && job->firstError.isEmpty())
            job->firstError = error;
        if (--job->outstanding == 0) {
            job->done = true;
            job->finished.wakeAll();
        }
    }
    if (job->outstanding == 0)
        std::erase_if(m_prewarms, [job](const auto &p) { return p.get() == job; });
}

void EpollWorker::watch(Conn *c, quint32 events)
{
    if (c->watched == events || c->fd < 0)
        return;
    epoll_event ev{};
    ev.events = events;
    ev.data.ptr = c;
    ::epoll_ctl(m_epoll, c->watched ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, c->fd, &ev);
    c->watched = events;
}

void EpollWorker::onEvent(Conn *c, quint32 events)
{
    switch (c->state) {
    case Conn::State::Free:
        return; // closed earlier in this batch
    case Conn::State::Idle:
        // An idle keep-alive connection has nothing to say: readable means the server closed
        // it (or broke protocol). Either way it cannot carry the next request.
        closeConn(c);
        return;
    case Conn::State::Connecting:
        onConnected(c);
        return;
    case Conn::State::Active:
        if ((events & EPOLLOUT) && !c->requestSent)
            trySend(c);
        if (c->state == Conn::State::Active && (events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
            onReadable(c);
        return;
    }
}

void EpollWorker::onConnected(Conn *c)
{
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err == 0) {
        if (c->prewarm) {
            prewarmResult(c, true, {});
            return;
        }
        c->ex->markConnected(monotonicNs());
        c->state = Conn::State::Active;
        // Sent in the next slice (startPending), not here: a burst of connections completing in
        // one batch would otherwise hold every open stream's reads back.
        watch(c, EPOLLIN);
        m_toSend.emplace_back(c, c->serial);
        return;
    }
    // Try the host's next address (localhost resolves to ::1 and 127.0.0.1; a server may
    // listen on only one).
    ::close(c->fd);
    c->fd = -1;
    c->watched = 0;
    openConnections.fetch_sub(1, std::memory_order_relaxed);
    const QString first =
        u"cannot connect to %1: %2"_s.arg(QString::fromLatin1(c->host->key), errnoText(err));
    ++c->addr;
    QString error;
    if (c->addr < int(c->host->addrs.size()) && openConnection(c, &error) == ErrorClass::None)
        return;
    if (c->prewarm) {
        prewarmResult(c, false, first);
        return;
    }
    fail(c, ErrorClass::Connect, first);
}

void EpollWorker::trySend(Conn *c)
{
    const QByteArray &req = c->ex->requestBytes();
    qint64 beforeSend = 0;
    while (c->sent < req.size()) {
        // The request is handed to the kernel during the call that takes its last byte; the time
        // before that call is when it was written (on loopback the server may even have answered
        // before the call returns).
        beforeSend = monotonicNs();
        const ssize_t w =
            ::send(c->fd, req.constData() + c->sent, size_t(req.size() - c->sent), MSG_NOSIGNAL);
        if (w > 0) {
            c->sent += w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (c->sent > 0)
                c->lastActivityNs = monotonicNs(); // a slow reader is not an idle server
            watch(c, EPOLLIN | EPOLLOUT);
            return;
        }
        const int e = errno;
        if (c->reused && c->ex->mayRetry() && (e == EPIPE || e == ECONNRESET)) {
            std::unique_ptr<HttpExchange> ex = std::move(c->ex);
            ex->markRetried();
            Host *host = c->host;
            closeConn(c);
            dispatch(std::move(ex), host);
            return;
        }
        fail(c, ErrorClass::Reset,
             u"connection lost while sending the request: %1"_s.arg(errnoText(e)));
        return;
    }
    c->requestSent = true;
    c->ex->markRequestWritten(beforeSend);
    c->lastActivityNs = beforeSend;
    c->ex->releaseRequestBytes();
    watch(c, EPOLLIN);
    // The cancellation load's delay counts from the request being written.
    if (const qint64 cancelAt = c->ex->cancelAtNs(); cancelAt > 0)
        addDeadline(c, cancelAt, DeadlineKind::Cancel);
}

void EpollWorker::onReadable(Conn *c)
{
    char *const buf = m_readBuffer.data();
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
    size_t budget = kReadBudget;
    for (;;) {
        iovec iov{buf, kReadBuffer};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        if (m_config.kernelTimestamps) {
            msg.msg_control = control;
            msg.msg_controllen = sizeof control;
        }
        // The read's time follows chooseReadStamp (client/readstamp.h): the kernel's arrival
        // time when it has one, else the end of the call, never a time before its bytes came.
        const qint64 beforeRead = monotonicNs();
        const ssize_t r = ::recvmsg(c->fd, &msg, 0);
        if (r > 0) {
            const qint64 afterRead = monotonicNs();
            bool hasKernel = false;
            qint64 k = 0;
            if (m_config.kernelTimestamps) {
                for (cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
                    if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS) {
                        timespec ts;
                        std::memcpy(&ts, CMSG_DATA(cm), sizeof ts);
                        k = toNs(ts) - m_realMinusMono;
                        hasKernel = true;
                    }
                }
            }
            const ReadStamp stamp = chooseReadStamp(beforeRead, afterRead, hasKernel, k,
                                                    kOffsetWindowNs, kMaxStampSkewNs);
            const qint64 t = stamp.t;
            const bool stamped = stamp.kernel;
            if (stamped) {
                kernelStamped.fetch_add(1, std::memory_order_relaxed);
                const qint64 waited = beforeRead - t;
                m_batchLatenessNs = std::max(m_batchLatenessNs, waited);
                if (waited > kLateReadNs)
                    lateReads.fetch_add(1, std::memory_order_relaxed);
            } else {
                userStamped.fetch_add(1, std::memory_order_relaxed);
            }
            m_batchStamped = m_batchStamped && stamped;
            c->lastActivityNs = std::max(c->lastActivityNs, t);
            switch (c->ex->onBytes(buf, r, t)) {
            case HttpExchange::Progress::Failed:
                fail(c, c->ex->failureClass(), c->ex->failureMessage());
                return;
            case HttpExchange::Progress::Done: {
                const bool keep = c->ex->keepAlive() && m_config.mode != ConnectionMode::PerRequest;
                RequestRecord rec = c->ex->finish(ErrorClass::None, {}, t);
                c->ex.reset();
                keep ? makeIdle(c) : closeConn(c);
                emitRecord(std::move(rec));
                return;
            }
            case HttpExchange::Progress::Complete:
                if (!c->complete) {
                    c->complete = true;
                    addDeadline(c, m_wakeNs + kDrainNs, DeadlineKind::Drain);
                }
                break;
            case HttpExchange::Progress::More:
                // The cancellation load's token count: closed now, with what arrived so far.
                if (c->ex->cancelDue()) {
                    endExchange(c, ErrorClass::CancelledByLoad, c->ex->cancelMessage(),
                                monotonicNs());
                    return;
                }
                break;
            }
            // Level-triggered: a short read means the socket is drained for now, and epoll
            // says when more comes — no extra recvmsg() just to hear EAGAIN. A full one is
            // followed by another, up to the budget; then the other connections and the
            // deadlines come first, and epoll reports this one again.
            if (size_t(r) < kReadBuffer)
                return;
            if (budget <= size_t(r)) {
                m_moreToRead = true;
                return;
            }
            budget -= size_t(r);
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        const int e = r == 0 ? 0 : errno;
        if (c->reused && c->ex->mayRetry() && (e == 0 || e == ECONNRESET)) {
            // The server closed this keep-alive connection before our request reached it.
            std::unique_ptr<HttpExchange> ex = std::move(c->ex);
            ex->markRetried();
            Host *host = c->host;
            closeConn(c);
            dispatch(std::move(ex), host);
            return;
        }
        if (e == 0) {
            if (c->ex->onEof() == HttpExchange::Progress::Done || c->complete) {
                endExchange(c, ErrorClass::None, {}, m_wakeNs);
                return;
            }
            fail(c, ErrorClass::Reset,
                 c->ex->anyResponseBytes()
                     ? u"connection closed by the server before the response ended"_s
                     : u"connection closed by the server without a response"_s);
            return;
        }
        fail(c,
             e == ETIMEDOUT                  ? ErrorClass::Timeout
             : e == ECONNRESET || e == EPIPE ? ErrorClass::Reset
                                             : ErrorClass::Transport,
             u"connection error: %1"_s.arg(errnoText(e)));
        return;
    }
}

void EpollWorker::endExchange(Conn *c, ErrorClass error, const QString &message, qint64 tEnd)
{
    RequestRecord rec = c->ex->finish(error, message, tEnd);
    c->ex.reset();
    closeConn(c);
    emitRecord(std::move(rec));
}

void EpollWorker::fail(Conn *c, ErrorClass error, const QString &message)
{
    endExchange(c, error, message, monotonicNs());
}

void EpollWorker::expire(const Deadline &d, qint64 now)
{
    Conn *c = d.conn;
    if (c->serial != d.serial)
        return; // the exchange (or prewarm) it was set for is over
    if (d.kind == DeadlineKind::Prewarm) {
        if (c->prewarm && c->state == Conn::State::Connecting)
            prewarmResult(c, false,
                          u"no connection to %1 before the warm-up deadline"_s.arg(
                              QString::fromLatin1(c->host->key)));
        return;
    }
    if (!c->ex)
        return;
    switch (d.kind) {
    case DeadlineKind::Drain:
        endExchange(c, ErrorClass::None, {}, now);
        return;
    case DeadlineKind::Idle: {
        // One entry per exchange, moved on lazily: reads only note their time.
        const qint64 idle = c->ex->idleTimeoutNs();
        if (c->lastActivityNs + idle > now) {
            addDeadline(c, c->lastActivityNs + idle, DeadlineKind::Idle);
            return;
        }
        if (c->state == Conn::State::Connecting)
            endExchange(c, ErrorClass::Connect,
                        u"no connection to %1 within the idle timeout (%2 s)"_s.arg(
                            QString::fromLatin1(c->host->key), seconds(idle)),
                        now);
        else
            endExchange(c, ErrorClass::Timeout,
                        u"the server sent nothing for %1 s (idle timeout)"_s.arg(seconds(idle)),
                        now);
        return;
    }
    case DeadlineKind::Total:
        if (c->state == Conn::State::Connecting)
            endExchange(c, ErrorClass::Connect,
                        u"no connection to %1 within the request timeout"_s.arg(
                            QString::fromLatin1(c->host->key)),
                        now);
        else
            endExchange(c, ErrorClass::Timeout,
                        u"no complete response within the request timeout (%1 s)"_s.arg(
                            seconds(c->ex->timeoutNs())),
                        now);
        return;
    case DeadlineKind::Cancel:
        // A stream that already said [DONE] only waits for its end: it completed.
        if (c->state == Conn::State::Active && c->ex->cancelAllowed())
            endExchange(c, ErrorClass::CancelledByLoad, c->ex->cancelMessage(), now);
        return;
    case DeadlineKind::Prewarm:
        return;
    }
}

void EpollWorker::cancelActive()
{
    const qint64 now = monotonicNs();
    for (auto &conn : m_conns) {
        Conn *c = conn.get();
        if (c->ex && (c->state == Conn::State::Active || c->state == Conn::State::Connecting))
            endExchange(c, ErrorClass::Cancelled, u"run stopped"_s, now);
    }
}

void EpollWorker::makeIdle(Conn *c)
{
    c->state = Conn::State::Idle;
    c->reused = true;
    c->complete = false;
    c->serial = 0;
    watch(c, EPOLLIN | EPOLLRDHUP);
    c->host->idle.push_back(c);
    idleConnections.fetch_add(1, std::memory_order_relaxed);
}

void EpollWorker::closeConn(Conn *c)
{
    if (c->state == Conn::State::Free)
        return;
    if (c->state == Conn::State::Idle) {
        auto &idle = c->host->idle;
        idle.erase(std::find(idle.begin(), idle.end(), c));
        idleConnections.fetch_sub(1, std::memory_order_relaxed);
    }
    if (c->fd >= 0) {
        ::close(c->fd); // also leaves the epoll set
        c->fd = -1;
        openConnections.fetch_sub(1, std::memory_order_relaxed);
    }
    c->watched = 0;
    c->serial = 0;
    c->prewarmed = false;
    c->state = Conn::State::Free;
    m_closedInBatch.push_back(c); // reusable once this batch of events is handled
}

void EpollWorker::emitRecord(RequestRecord &&record)
{
    inFlight.fetch_sub(1, std::memory_order_acq_rel);
    m_finished(std::move(record));
}

void EpollWorker::addDeadline(Conn *c, qint64 at, DeadlineKind kind)
{
    // Most deadlines are never reached (the stream ends first) and linger until they surface;
    // prune them once they outnumber the live ones, which keeps the heap O(open streams).
    if (m_deadlines.size() > 1024 && m_deadlines.size() > 4 * m_conns.size()) {
        std::erase_if(m_deadlines, [](const Deadline &d) { return d.conn->serial != d.serial; });
        std::make_heap(m_deadlines.begin(), m_deadlines.end(), std::greater<>());
    }
    m_deadlines.push_back({at, c, c->serial, kind});
    std::push_heap(m_deadlines.begin(), m_deadlines.end(), std::greater<>());
}

int EpollWorker::waitTimeoutMs(qint64 now) const
{
    if (m_deadlines.empty())
        return -1;
    const qint64 left = m_deadlines.front().at - now;
    if (left <= 0)
        return 0;
    return int(std::min<qint64>((left + 999'999) / 1'000'000, 60'000));
}

} // namespace sb
