#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

namespace sb {

// What the client's own threads did through a run, sampled once a second by the run's sampler
// (core/run/clientloadsampler.h) and stored with the run (the result JSON's "client_load"), so
// the verdict below is recomputed from stored data (docs/performance.md, "The client checks
// itself").

// One sample window: [endS − seconds, endS] in seconds from the run's start.
struct ClientLoadWindow
{
    double endS = 0;
    double seconds = 0;
    // The dispatcher's wake-up lateness over the window: how long after a request's scheduled
    // time the dispatcher thread was running again (open-loop runs; 0 requests otherwise).
    qint64 wakeCount = 0;
    double wakeLateMeanMs = 0;
    double wakeLateMaxMs = 0;
};

// One registered client thread (common/threadcensus.h): its CPU time and run-queue wait per
// window, from /proc/self/task/TID/schedstat (or, without it, its CPU-time clock: no wait).
struct ClientThreadSeries
{
    QString name; // "dispatcher", "socket-worker-0", "socket-tls", "qnam-worker-0", "store-writer"
    qint64 tid = 0;
    int firstWindow = 0;  // the window its first value belongs to (a thread may start late)
    QList<double> cpuMs;  // on-CPU time per window
    QList<double> waitMs; // run-queue wait per window; empty when the source had none
    QString source;       // "schedstat" | "cpu-clock"

    // (on-CPU + run-queue wait) / window length of its i-th value, in [0, 1+].
    double busyShare(int i, double windowSeconds) const;
};

struct ClientLoadSamples
{
    int intervalMs = 0; // 0: not sampled (an imported run, a run before sampling existed)
    QList<ClientLoadWindow> windows;
    QList<ClientThreadSeries> threads;

    bool sampled() const { return !windows.isEmpty(); }
    QJsonObject toJson() const;
    static ClientLoadSamples fromJson(const QJsonObject &o);
};

// What one window showed, for a live display (the dashboard): the busiest registered thread.
struct ClientLoadTick
{
    double endS = 0;
    QString thread;
    double share = 0; // (on-CPU + run-queue wait) / window
    double cpuShare = 0;
    double waitShare = 0;
    double wakeLateMaxMs = 0;
};

// Thresholds of the verdict (docs/performance.md): a thread that wanted the CPU (on it, or
// runnable and waiting for it) more than 90 % of a window's wall time; windows shorter than
// half the interval (the run's last, partial one) are not judged.
inline constexpr double kMaxThreadBusyShare = 0.90;
inline constexpr double kMinJudgedWindowShare = 0.5;

// The busiest thread-window of the samples and whether it crossed the threshold.
struct ThreadBusyVerdict
{
    bool sampled = false;
    bool busy = false; // busiest share above kMaxThreadBusyShare
    QString thread;    // the busiest thread's name
    int window = -1;   // its window's index
    double windowEndS = 0;
    double share = 0;     // busy share in that window
    double cpuShare = 0;  // of which on the CPU
    double waitShare = 0; // of which runnable, waiting for a CPU
    int busyWindows = 0;  // thread-windows above the threshold (all threads)
    QJsonObject toJson() const;
};
ThreadBusyVerdict judgeThreadBusy(const ClientLoadSamples &samples);

// Whether the schedule lag grew through the run, from the lateness p99 of each one-second bin
// of sends (docs/performance.md): the Theil–Sen slope of (bin time, p99) is positive, the rise
// it makes over the run (slope × time from the first bin to the last) exceeds kLagRiseMs, and
// so does the median p99 of the last quarter of the bins over that of the first quarter (a
// quarter is at least 2 bins; at least kMinLagBins bins with a send are needed).
inline constexpr double kLagRiseMs = 10.0;
inline constexpr int kMinLagBins = 5;
struct LagTrend
{
    bool evaluated = false;
    bool growing = false;
    QList<double> binStartS; // seconds from the first measured send
    QList<double> p99Ms;     // per bin with at least one send
    double slopeMsPerS = 0;
    double startMs = 0; // median p99 of the first quarter
    double endMs = 0;   // median p99 of the last quarter
    QJsonObject toJson() const;
};
LagTrend lagTrend(const QList<double> &binStartS, const QList<double> &p99Ms);

} // namespace sb

Q_DECLARE_METATYPE(sb::ClientLoadTick)
