#pragma once

#include <QMetaObject>
#include <QObject>

#include <atomic>
#include <list>
#include <memory>
#include <thread>

namespace sb {

// Runs work off the calling (GUI) thread (QtConcurrent is not available here) and delivers its
// result back in this object's thread through a queued call. Threads are joined on destruction,
// before the queued results are discarded with this object, so a result never reaches a dead owner.
// Callers that may start a newer job before an older one ends carry a generation number and
// drop stale results (hotspot's job tracker does the same).
class BackgroundJobs : public QObject
{
    Q_OBJECT
public:
    explicit BackgroundJobs(QObject *parent = nullptr);
    ~BackgroundJobs() override;

    // work() runs in a new thread and must not touch widgets or this object's owner; done(result)
    // runs in this object's thread.
    template <class Work, class Done> void run(Work work, Done done)
    {
        reap();
        auto flag = std::make_shared<std::atomic<bool>>(false);
        Entry e;
        e.done = flag;
        e.thread =
            std::thread([this, flag, work = std::move(work), done = std::move(done)]() mutable {
                auto result = std::make_shared<decltype(work())>(work());
                QMetaObject::invokeMethod(
                    this, [done = std::move(done), result]() mutable { done(std::move(*result)); },
                    Qt::QueuedConnection);
                flag->store(true);
            });
        m_threads.push_back(std::move(e));
    }

    int running() const;

private:
    struct Entry
    {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    void reap();
    std::list<Entry> m_threads;
};

} // namespace sb
