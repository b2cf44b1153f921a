#include "clientloadsampler.h"

#include "common/clock.h"
#include "common/threadcensus.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

std::chrono::steady_clock::time_point steadyAt(qint64 monotonicNs)
{
    // libstdc++'s steady_clock is CLOCK_MONOTONIC, the clock of every ServeBench timestamp.
    return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(monotonicNs));
}

} // namespace

ClientLoadSampler::ClientLoadSampler(qint64 intervalNs)
    : m_intervalNs(std::max<qint64>(intervalNs, 10'000'000))
{
    qRegisterMetaType<sb::ClientLoadTick>();
}

ClientLoadSampler::~ClientLoadSampler()
{
    stop();
}

void ClientLoadSampler::setOnTick(std::function<void(const ClientLoadTick &)> onTick)
{
    m_onTick = std::move(onTick);
}

void ClientLoadSampler::start(qint64 originNs)
{
    stop();
    m_originNs = originNs;
    m_lastNs = originNs;
    m_tracked.clear();
    m_samples = {};
    m_samples.intervalMs = int(m_intervalNs / 1'000'000);
    {
        std::lock_guard lock(m_mutex);
        m_stop = false;
        m_wakeCount = 0;
        m_wakeSumNs = 0;
        m_wakeMaxNs = 0;
    }
    m_thread = std::thread([this] { loop(); });
}

ClientLoadSamples ClientLoadSampler::stop()
{
    if (!m_thread.joinable())
        return m_samples;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
    return m_samples;
}

void ClientLoadSampler::noteWake(qint64 latenessNs)
{
    latenessNs = std::max<qint64>(0, latenessNs);
    std::lock_guard lock(m_mutex);
    ++m_wakeCount;
    m_wakeSumNs += double(latenessNs);
    m_wakeMaxNs = std::max(m_wakeMaxNs, latenessNs);
}

void ClientLoadSampler::loop()
{
    {
        std::unique_lock lock(m_mutex);
        if (m_cv.wait_until(lock, steadyAt(m_originNs), [this] { return m_stop; }))
            return; // stopped before the run began: nothing to sample
    }
    sample(std::max(m_originNs, monotonicNs()), Pass::Baseline);
    for (qint64 next = m_originNs + m_intervalNs;; next += m_intervalNs) {
        bool stopping = false;
        {
            std::unique_lock lock(m_mutex);
            stopping = m_cv.wait_until(lock, steadyAt(next), [this] { return m_stop; });
        }
        const qint64 now = monotonicNs();
        sample(now, stopping ? Pass::Final : Pass::Tick);
        if (stopping)
            return;
        // A sampler that was itself held up by more than a window skips the lost ticks
        // instead of taking a row of empty windows.
        while (next + m_intervalNs <= now)
            next += m_intervalNs;
    }
}

ClientLoadSampler::Reading ClientLoadSampler::read(qint64 tid, bool hasClock, clockid_t clock)
{
    Reading r;
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/task/%lld/schedstat", static_cast<long long>(tid));
    if (const int fd = ::open(path, O_RDONLY | O_CLOEXEC); fd >= 0) {
        char buf[128];
        const ssize_t n = ::read(fd, buf, sizeof buf - 1);
        ::close(fd);
        if (n > 0) {
            buf[n] = 0;
            char *end = nullptr;
            const unsigned long long cpu = std::strtoull(buf, &end, 10);
            const unsigned long long wait = std::strtoull(end, nullptr, 10);
            // Zeros: a kernel without scheduler statistics (CONFIG_SCHED_INFO) prints "0 0 0".
            if (cpu > 0 || wait > 0) {
                r.cpuMs = double(cpu) / 1e6;
                r.waitMs = double(wait) / 1e6;
                r.hasWait = true;
                r.ok = true;
                return r;
            }
        }
    }
    timespec ts;
    if (hasClock && ::clock_gettime(clock, &ts) == 0) {
        r.cpuMs = double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
        r.ok = true;
    }
    return r;
}

void ClientLoadSampler::sample(qint64 nowNs, Pass pass)
{
    const double seconds = double(nowNs - m_lastNs) / 1e9;
    const bool window = pass != Pass::Baseline && seconds > 0;
    const int w = int(m_samples.windows.size());
    ClientLoadTick tick;
    for (const CensusThread &t : censusThreads()) {
        const Reading r = read(t.tid, t.hasCpuClock, t.cpuClock);
        if (!r.ok)
            continue;
        auto it = m_tracked.find(t.serial);
        if (it == m_tracked.end()) {
            // First seen: this reading is its baseline, its first value the next window's.
            m_tracked.insert(t.serial, Tracked{-1, r});
            continue;
        }
        Tracked &tr = it.value();
        if (window) {
            if (tr.series < 0) {
                ClientThreadSeries s;
                s.name = t.name;
                s.tid = t.tid;
                s.firstWindow = w;
                s.source = r.hasWait ? u"schedstat"_s : u"cpu-clock"_s;
                tr.series = int(m_samples.threads.size());
                m_samples.threads.append(s);
            }
            ClientThreadSeries &s = m_samples.threads[tr.series];
            // A window the thread could not be read in (it was briefly unreadable) counts 0.
            while (s.firstWindow + s.cpuMs.size() < w)
                s.cpuMs.append(0);
            const double cpu = std::max(0.0, r.cpuMs - tr.last.cpuMs);
            const double wait =
                r.hasWait && tr.last.hasWait ? std::max(0.0, r.waitMs - tr.last.waitMs) : 0.0;
            s.cpuMs.append(cpu);
            // wait_ms runs beside cpu_ms once any window had a wait to report.
            if (r.hasWait || !s.waitMs.isEmpty()) {
                while (s.waitMs.size() < s.cpuMs.size() - 1)
                    s.waitMs.append(0);
                s.waitMs.append(wait);
            }
            const double share = (cpu + wait) / (seconds * 1000.0);
            if (share > tick.share) {
                tick.thread = t.name;
                tick.share = share;
                tick.cpuShare = cpu / (seconds * 1000.0);
                tick.waitShare = wait / (seconds * 1000.0);
            }
        }
        tr.last = r;
    }
    if (!window) {
        m_lastNs = nowNs;
        return;
    }
    ClientLoadWindow win;
    win.endS = double(nowNs - m_originNs) / 1e9;
    win.seconds = seconds;
    {
        std::lock_guard lock(m_mutex);
        win.wakeCount = m_wakeCount;
        win.wakeLateMeanMs = m_wakeCount > 0 ? m_wakeSumNs / double(m_wakeCount) / 1e6 : 0;
        win.wakeLateMaxMs = double(m_wakeMaxNs) / 1e6;
        m_wakeCount = 0;
        m_wakeSumNs = 0;
        m_wakeMaxNs = 0;
    }
    m_samples.windows.append(win);
    m_lastNs = nowNs;
    tick.endS = win.endS;
    tick.wakeLateMaxMs = win.wakeLateMaxMs;
    if (pass == Pass::Tick && m_onTick)
        m_onTick(tick);
}

} // namespace sb
