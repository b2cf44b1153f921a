#pragma once

#include <QObject>
#include <functional>
#include <vector>

class QSocketNotifier;
class QTimer;

namespace sb {

// One deadline queue per simulator thread: a binary heap of (due time, key) and a single kernel
// timer armed for the earliest deadline. A QTimer per stream would make Qt's timer list (sorted,
// linear insertion) the bottleneck at a thousand streams and rounds to milliseconds; a timerfd
// armed at an absolute CLOCK_MONOTONIC time keeps the schedule to the nanosecond clock that the
// request log and the client use.
class SimScheduler : public QObject
{
    Q_OBJECT
public:
    using Handler = std::function<void(quint64 key, qint64 dueNs)>;

    explicit SimScheduler(QObject *parent = nullptr);
    ~SimScheduler() override;

    void setHandler(Handler handler) { m_handler = std::move(handler); }
    // Calls the handler with key at (or just after) dueNs. Keys are not unique: a stale key must be
    // recognised by the handler (the simulator keeps the due time with its stream).
    void schedule(qint64 dueNs, quint64 key);
    void clear();
    qsizetype pending() const { return qsizetype(m_heap.size()); }

private:
    struct Entry
    {
        qint64 due;
        quint64 order; // FIFO among equal deadlines
        quint64 key;
    };
    struct Later
    {
        bool operator()(const Entry &a, const Entry &b) const
        {
            return a.due != b.due ? a.due > b.due : a.order > b.order;
        }
    };

    void fire();
    void arm();

    std::vector<Entry> m_heap;
    quint64 m_order = 0;
    qint64 m_armedFor = -1;
    bool m_firing = false;
    Handler m_handler;
    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr;
    QTimer *m_timer = nullptr; // fallback where timerfd does not exist
};

} // namespace sb
