#include "common/backgroundjobs.h"

namespace sb {

BackgroundJobs::BackgroundJobs(QObject *parent) : QObject(parent) {}

BackgroundJobs::~BackgroundJobs()
{
    for (Entry &e : m_threads)
        if (e.thread.joinable())
            e.thread.join();
}

int BackgroundJobs::running() const
{
    int n = 0;
    for (const Entry &e : m_threads)
        n += e.done->load() ? 0 : 1;
    return n;
}

void BackgroundJobs::reap()
{
    for (auto it = m_threads.begin(); it != m_threads.end();) {
        if (it->done->load()) {
            it->thread.join();
            it = m_threads.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace sb
