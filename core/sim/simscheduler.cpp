#include "simscheduler.h"

#include "common/clock.h"

#include <QSocketNotifier>
#include <QTimer>
#include <algorithm>

#ifdef Q_OS_LINUX
#include <sys/timerfd.h>
#include <unistd.h>
#endif

namespace sb {

// Deadlines this close together are served in one wake-up; writing 20 µs early costs nothing
// measurable and saves a kernel round trip per chunk at high concurrency.
static constexpr qint64 kBatchSlackNs = 20'000;

SimScheduler::SimScheduler(QObject *parent) : QObject(parent)
{
#ifdef Q_OS_LINUX
    m_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (m_fd >= 0) {
        m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, [this] {
            quint64 expirations = 0;
            [[maybe_unused]] const ssize_t n = ::read(m_fd, &expirations, sizeof expirations);
            m_armedFor = -1;
            fire();
        });
    }
#endif
    if (m_fd < 0) {
        m_timer = new QTimer(this);
        m_timer->setSingleShot(true);
        m_timer->setTimerType(Qt::PreciseTimer);
        connect(m_timer, &QTimer::timeout, this, [this] {
            m_armedFor = -1;
            fire();
        });
    }
}

SimScheduler::~SimScheduler()
{
#ifdef Q_OS_LINUX
    if (m_fd >= 0) {
        delete m_notifier; // before the descriptor it watches goes away
        m_notifier = nullptr;
        ::close(m_fd);
    }
#endif
}

void SimScheduler::schedule(qint64 dueNs, quint64 key)
{
    m_heap.push_back({dueNs, m_order++, key});
    std::push_heap(m_heap.begin(), m_heap.end(), Later());
    if (!m_firing)
        arm();
}

void SimScheduler::clear()
{
    m_heap.clear();
    arm();
}

void SimScheduler::fire()
{
    m_firing = true;
    qint64 now = monotonicNs();
    while (!m_heap.empty() && m_heap.front().due <= now + kBatchSlackNs) {
        std::pop_heap(m_heap.begin(), m_heap.end(), Later());
        const Entry e = m_heap.back();
        m_heap.pop_back();
        if (m_handler)
            m_handler(e.key, e.due);
        // Writing takes time; a long batch must not serve later deadlines early.
        now = monotonicNs();
    }
    m_firing = false;
    arm();
}

void SimScheduler::arm()
{
    const qint64 due = m_heap.empty() ? -1 : m_heap.front().due;
    if (due == m_armedFor)
        return;
    m_armedFor = due;
#ifdef Q_OS_LINUX
    if (m_fd >= 0) {
        itimerspec spec{};
        if (due >= 0) {
            // An all-zero it_value disarms the timer, so a deadline at 0 (long past) becomes 1 ns.
            const qint64 d = qMax<qint64>(due, 1);
            spec.it_value.tv_sec = time_t(d / 1'000'000'000);
            spec.it_value.tv_nsec = long(d % 1'000'000'000);
        }
        timerfd_settime(m_fd, TFD_TIMER_ABSTIME, &spec, nullptr);
        return;
    }
#endif
    if (due < 0) {
        m_timer->stop();
        return;
    }
    const qint64 waitNs = qMax<qint64>(0, due - monotonicNs());
    m_timer->start(int((waitNs + 999'999) / 1'000'000));
}

} // namespace sb
