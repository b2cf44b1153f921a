#include "clientload.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QJsonArray numbers(const QList<double> &values)
{
    QJsonArray a;
    // Microsecond resolution is what a CPU-time share needs; it keeps the JSON short.
    for (double v : values)
        a.append(std::round(v * 1000.0) / 1000.0);
    return a;
}

QList<double> numbersFrom(const QJsonValue &v)
{
    QList<double> out;
    for (const QJsonValue &x : v.toArray())
        out.append(x.toDouble());
    return out;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

double ClientThreadSeries::busyShare(int i, double windowSeconds) const
{
    if (i < 0 || i >= cpuMs.size() || !(windowSeconds > 0))
        return 0;
    const double wait = i < waitMs.size() ? waitMs.at(i) : 0;
    return (cpuMs.at(i) + wait) / (windowSeconds * 1000.0);
}

QJsonObject ClientLoadSamples::toJson() const
{
    QJsonArray w;
    for (const ClientLoadWindow &x : windows)
        w.append(QJsonObject{{u"end_s"_s, x.endS},
                             {u"seconds"_s, x.seconds},
                             {u"wake_count"_s, x.wakeCount},
                             {u"wake_late_mean_ms"_s, x.wakeLateMeanMs},
                             {u"wake_late_max_ms"_s, x.wakeLateMaxMs}});
    QJsonArray t;
    for (const ClientThreadSeries &s : threads) {
        QJsonObject o{{u"name"_s, s.name},
                      {u"tid"_s, s.tid},
                      {u"first_window"_s, s.firstWindow},
                      {u"source"_s, s.source},
                      {u"cpu_ms"_s, numbers(s.cpuMs)}};
        if (!s.waitMs.isEmpty())
            o[u"wait_ms"_s] = numbers(s.waitMs);
        t.append(o);
    }
    return QJsonObject{{u"interval_ms"_s, intervalMs}, {u"windows"_s, w}, {u"threads"_s, t}};
}

ClientLoadSamples ClientLoadSamples::fromJson(const QJsonObject &o)
{
    ClientLoadSamples s;
    s.intervalMs = o.value(u"interval_ms"_s).toInt();
    for (const QJsonValue &v : o.value(u"windows"_s).toArray()) {
        const QJsonObject x = v.toObject();
        ClientLoadWindow w;
        w.endS = x.value(u"end_s"_s).toDouble();
        w.seconds = x.value(u"seconds"_s).toDouble();
        w.wakeCount = x.value(u"wake_count"_s).toInteger();
        w.wakeLateMeanMs = x.value(u"wake_late_mean_ms"_s).toDouble();
        w.wakeLateMaxMs = x.value(u"wake_late_max_ms"_s).toDouble();
        s.windows.append(w);
    }
    for (const QJsonValue &v : o.value(u"threads"_s).toArray()) {
        const QJsonObject x = v.toObject();
        ClientThreadSeries t;
        t.name = x.value(u"name"_s).toString();
        t.tid = x.value(u"tid"_s).toInteger();
        t.firstWindow = x.value(u"first_window"_s).toInt();
        t.source = x.value(u"source"_s).toString();
        t.cpuMs = numbersFrom(x.value(u"cpu_ms"_s));
        t.waitMs = numbersFrom(x.value(u"wait_ms"_s));
        s.threads.append(t);
    }
    return s;
}

QJsonObject ThreadBusyVerdict::toJson() const
{
    QJsonObject o{
        {u"sampled"_s, sampled}, {u"busy"_s, busy}, {u"max_busy_share"_s, kMaxThreadBusyShare}};
    if (window >= 0) {
        o[u"thread"_s] = thread;
        o[u"window"_s] = window;
        o[u"window_end_s"_s] = windowEndS;
        o[u"share"_s] = share;
        o[u"cpu_share"_s] = cpuShare;
        o[u"wait_share"_s] = waitShare;
        o[u"busy_windows"_s] = busyWindows;
    }
    return o;
}

ThreadBusyVerdict judgeThreadBusy(const ClientLoadSamples &samples)
{
    ThreadBusyVerdict v;
    v.sampled = samples.sampled();
    const double interval = samples.intervalMs / 1000.0;
    for (const ClientThreadSeries &t : samples.threads) {
        for (int i = 0; i < t.cpuMs.size(); ++i) {
            const int w = t.firstWindow + i;
            if (w < 0 || w >= samples.windows.size())
                continue;
            const ClientLoadWindow &win = samples.windows.at(w);
            if (!(win.seconds > 0) || win.seconds < kMinJudgedWindowShare * interval)
                continue;
            const double share = t.busyShare(i, win.seconds);
            if (share > kMaxThreadBusyShare)
                ++v.busyWindows;
            if (v.window >= 0 && share <= v.share)
                continue;
            v.thread = t.name;
            v.window = w;
            v.windowEndS = win.endS;
            v.share = share;
            v.cpuShare = t.cpuMs.at(i) / (win.seconds * 1000.0);
            v.waitShare = i < t.waitMs.size() ? t.waitMs.at(i) / (win.seconds * 1000.0) : 0;
        }
    }
    v.busy = v.busyWindows > 0;
    return v;
}

QJsonObject LagTrend::toJson() const
{
    QJsonObject o{{u"evaluated"_s, evaluated},
                  {u"growing"_s, growing},
                  {u"bin_start_s"_s, numbers(binStartS)},
                  {u"lateness_p99_ms"_s, numbers(p99Ms)},
                  {u"min_rise_ms"_s, kLagRiseMs}};
    if (evaluated) {
        o[u"slope_ms_per_s"_s] = slopeMsPerS;
        o[u"start_ms"_s] = startMs;
        o[u"end_ms"_s] = endMs;
    }
    return o;
}

LagTrend lagTrend(const QList<double> &binStartS, const QList<double> &p99Ms)
{
    LagTrend t;
    t.binStartS = binStartS;
    t.p99Ms = p99Ms;
    const qsizetype n = std::min(binStartS.size(), p99Ms.size());
    if (n < kMinLagBins)
        return t;
    t.evaluated = true;
    // Theil–Sen: the median of the slopes between every pair of bins. One stalled second (a
    // page fault storm, another process's burst) moves it little, unlike least squares.
    std::vector<double> slopes;
    slopes.reserve(size_t(n * (n - 1) / 2));
    for (qsizetype i = 0; i < n; ++i)
        for (qsizetype j = i + 1; j < n; ++j)
            if (const double dx = binStartS.at(j) - binStartS.at(i); dx > 0)
                slopes.push_back((p99Ms.at(j) - p99Ms.at(i)) / dx);
    t.slopeMsPerS = median(std::move(slopes));
    const qsizetype quarter = std::max<qsizetype>(2, (n + 3) / 4);
    std::vector<double> first(p99Ms.cbegin(), p99Ms.cbegin() + quarter);
    std::vector<double> last(p99Ms.cbegin() + (n - quarter), p99Ms.cbegin() + n);
    t.startMs = median(std::move(first));
    t.endMs = median(std::move(last));
    // Both the fitted line and the quarters must rise: the quarters alone are moved by a spike
    // in a short run's last seconds, the slope alone by a rise of a fraction of a millisecond.
    const double span = binStartS.at(n - 1) - binStartS.at(0);
    t.growing =
        t.slopeMsPerS > 0 && t.slopeMsPerS * span > kLagRiseMs && t.endMs - t.startMs > kLagRiseMs;
    return t;
}

} // namespace sb
