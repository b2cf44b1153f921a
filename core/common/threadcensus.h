#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>

#include <time.h>

namespace sb {

// The client's threads that do a run's work, each registered by itself under a stable name
// ("dispatcher", "socket-worker-0", "socket-tls", "qnam-worker-1", "store-writer"), so a
// sampler can read how much CPU each one used and how long it waited for one while the run goes
// on (docs/performance.md, "The client checks itself"). Process-wide: a run samples every thread
// registered while it runs. Thread-safe.
struct CensusThread
{
    qint64 tid = 0;     // the kernel's thread id (/proc/self/task/TID)
    QString name;       // stable across runs: what the samples are keyed by
    clockid_t cpuClock; // the thread's CPU-time clock (the fallback without schedstat)
    bool hasCpuClock = false;
    quint64 serial = 0; // registration order: a tid reused by a later thread is told apart
};

// Registers the calling thread under `name` until it exits (a thread_local holder unregisters
// it); a second call from the same thread renames it. Cheap: a lock and a list append.
void enrollThisThread(const QString &name);
// Unregisters the calling thread now (a worker that stops its loop but lives on).
void leaveThisThread();
// Every registered thread, in registration order.
QList<CensusThread> censusThreads();

} // namespace sb
