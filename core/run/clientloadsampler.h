#pragma once

#include "metrics/clientload.h"

#include <QHash>
#include <QString>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace sb {

// Samples the client's registered threads (common/threadcensus.h) once per interval in a thread
// of its own, off the GUI and the run's threads (docs/performance.md, "The client checks
// itself"): per thread the on-CPU and run-queue wait times from /proc/self/task/TID/schedstat,
// or its CPU-time clock where schedstat is missing or reads zero; and the dispatcher's wake-up
// lateness that noteWake() reports.
class ClientLoadSampler
{
public:
    explicit ClientLoadSampler(qint64 intervalNs = 1'000'000'000);
    ~ClientLoadSampler();
    ClientLoadSampler(const ClientLoadSampler &) = delete;
    ClientLoadSampler &operator=(const ClientLoadSampler &) = delete;

    // Called in the sampler's thread after each window (not for the last, partial one).
    void setOnTick(std::function<void(const ClientLoadTick &)> onTick);
    // Windows start at originNs (monotonic; the run's start): the first reading is taken then.
    void start(qint64 originNs);
    // Closes the last window at now and returns every window; the thread is joined.
    ClientLoadSamples stop();
    // The dispatcher's wake-up lateness of one request (ns); any thread.
    void noteWake(qint64 latenessNs);

private:
    struct Reading
    {
        double cpuMs = 0;
        double waitMs = 0;
        bool hasWait = false;
        bool ok = false;
    };
    struct Tracked
    {
        int series = -1; // index in m_samples.threads
        Reading last;
    };
    enum class Pass { Baseline, Tick, Final };
    void loop();
    void sample(qint64 nowNs, Pass pass);
    static Reading read(qint64 tid, bool hasClock, clockid_t clock);

    const qint64 m_intervalNs;
    qint64 m_originNs = 0;
    qint64 m_lastNs = 0;
    std::thread m_thread;
    std::mutex m_mutex; // m_stop, the wake accumulators
    std::condition_variable m_cv;
    bool m_stop = false;
    qint64 m_wakeCount = 0;
    double m_wakeSumNs = 0;
    qint64 m_wakeMaxNs = 0;
    std::function<void(const ClientLoadTick &)> m_onTick;
    QHash<quint64, Tracked> m_tracked; // by census serial
    ClientLoadSamples m_samples;
};

} // namespace sb
