#include "threadcensus.h"

#include <QMutex>
#include <QMutexLocker>

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sb {

namespace {

struct Census
{
    QMutex mutex;
    QList<CensusThread> threads;
    quint64 serial = 0;
};

Census &census()
{
    // Never destroyed: a thread still running at exit may unregister after static destructors.
    static Census *c = new Census;
    return *c;
}

void removeLocked(Census &c, qint64 tid)
{
    c.threads.removeIf([tid](const CensusThread &t) { return t.tid == tid; });
}

// Unregisters its thread when the thread ends (std::thread and QThread alike run thread_local
// destructors at exit).
struct Holder
{
    bool enrolled = false;
    ~Holder()
    {
        if (enrolled)
            leaveThisThread();
    }
};
thread_local Holder t_holder;

} // namespace

void enrollThisThread(const QString &name)
{
    CensusThread t;
    t.tid = qint64(::syscall(SYS_gettid));
    t.name = name;
    t.hasCpuClock = ::pthread_getcpuclockid(::pthread_self(), &t.cpuClock) == 0;
    Census &c = census();
    QMutexLocker lock(&c.mutex);
    removeLocked(c, t.tid);
    t.serial = ++c.serial;
    c.threads.append(t);
    t_holder.enrolled = true;
}

void leaveThisThread()
{
    const qint64 tid = qint64(::syscall(SYS_gettid));
    Census &c = census();
    QMutexLocker lock(&c.mutex);
    removeLocked(c, tid);
    t_holder.enrolled = false;
}

QList<CensusThread> censusThreads()
{
    Census &c = census();
    QMutexLocker lock(&c.mutex);
    return c.threads;
}

} // namespace sb
