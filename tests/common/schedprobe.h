#pragma once

// Measures how late this machine runs a thread that wants to run: a thread of the test process
// sleeps kPeriodNs to an absolute CLOCK_MONOTONIC time, again and again, and records how late
// each wake-up came. A test whose bound must stay (a deadline that must fire, a chunk that must
// be read) adds what this measured during the case to the bound and names it in the failure
// message, so that the bound holds on a loaded or slow machine without asserting its speed.
// Header-only (std::thread and clock_nanosleep), for tests/ and bench/.

#include <algorithm>
#include <atomic>
#include <ctime>
#include <thread>
#include <vector>

namespace sb::test {

class SchedProbe
{
public:
    static constexpr long kPeriodNs = 1'000'000;

    SchedProbe()
    {
        m_thread = std::thread([this] { loop(); });
    }
    ~SchedProbe() { stop(); }
    SchedProbe(const SchedProbe &) = delete;
    SchedProbe &operator=(const SchedProbe &) = delete;

    // Ends the sampling; the figures below are complete afterwards.
    void stop()
    {
        m_stop.store(true);
        if (m_thread.joinable())
            m_thread.join();
    }

    // After stop(): the wake-ups' lateness in ms.
    double maxMs() const { return m_late.empty() ? 0.0 : m_late.back() / 1e6; }
    double percentileMs(double p) const
    {
        if (m_late.empty())
            return 0.0;
        const size_t i = std::min(m_late.size() - 1, size_t(p / 100.0 * double(m_late.size())));
        return m_late[i] / 1e6;
    }
    size_t samples() const { return m_late.size(); }

private:
    static long long nowNs()
    {
        timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1'000'000'000LL + ts.tv_nsec;
    }

    void loop()
    {
        long long next = nowNs();
        while (!m_stop.load(std::memory_order_relaxed)) {
            next += kPeriodNs;
            timespec ts{time_t(next / 1'000'000'000LL), long(next % 1'000'000'000LL)};
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
            }
            const long long now = nowNs();
            m_late.push_back(double(now - next));
            if (now > next + kPeriodNs)
                next = now; // a long stall counts once, not as a row of late periods
        }
        std::sort(m_late.begin(), m_late.end());
    }

    std::atomic<bool> m_stop{false};
    std::vector<double> m_late;
    std::thread m_thread;
};

} // namespace sb::test
