#pragma once

// Shared by the bench_* programs. The simulator runs in a child process (forked before the
// parent creates its QCoreApplication) so that getrusage(RUSAGE_SELF) and RSS measure the client
// alone, and each side has its own descriptor limit.

#include "common/clock.h"
#include "config/runplan.h"
#include "data/dataset.h"
#include "metrics/requestrecord.h"
#include "run/runcontroller.h"
#include "sim/simulator.h"

#include <QCoreApplication>
#include <QDataStream>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QHash>
#include <QMap>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bench {

using namespace sb;

// --- statistics ---------------------------------------------------------------------------

inline double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    const double pos = p / 100.0 * double(v.size() - 1); // linear interpolation (numpy default)
    const size_t lo = size_t(std::floor(pos));
    const size_t hi = std::min(v.size() - 1, lo + 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

inline double mean(const std::vector<double> &v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return v.empty() ? std::nan("") : s / double(v.size());
}

// "median [min – max]" of one figure over repeated runs.
inline QByteArray mmm(std::vector<double> runs, int decimals = 2)
{
    if (runs.empty())
        return "n/a";
    std::sort(runs.begin(), runs.end());
    const double med = percentile(runs, 50);
    auto f = [decimals](double x) {
        return QByteArray::number(x, 'f', decimals);
    };
    if (runs.size() == 1)
        return f(med);
    return f(med) + " [" + f(runs.front()) + " – " + f(runs.back()) + "]";
}

// A comma-separated list argument ("100,1000"), or the fallback when absent.
inline QStringList listArg(int argc, char **argv, int i, const char *fallback)
{
    return QString::fromLatin1(argc > i ? argv[i] : fallback).split(u',', Qt::SkipEmptyParts);
}

// The 1-minute load average, printed beside every figure.
inline double loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().split(' ').value(0).toDouble() : 0;
}

inline double cpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

// One thread of this process as /proc/self/task/<tid>/stat shows it: its name and CPU seconds
// (user + system) so far.
struct ThreadSample
{
    QString tid;
    QByteArray name;
    double cpuS = 0;
};

inline QList<ThreadSample> threadSamples()
{
    QList<ThreadSample> out;
    const double tick = double(sysconf(_SC_CLK_TCK));
    const QDir dir(QStringLiteral("/proc/self/task"));
    for (const QString &tid : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(dir.filePath(tid) + QStringLiteral("/stat"));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray st = f.readAll();
        const qsizetype open = st.indexOf('('), close = st.lastIndexOf(')');
        const QList<QByteArray> fields = st.mid(close + 2).split(' ');
        // fields[0] is state (field 3); utime and stime are fields 14 and 15.
        if (fields.size() > 12)
            out.append({tid, st.mid(open + 1, close - open - 1),
                        (fields[11].toDouble() + fields[12].toDouble()) / tick});
    }
    return out;
}

// CPU seconds per thread name of this process (threads of one name summed), from /proc.
inline QMap<QByteArray, double> threadCpu()
{
    QMap<QByteArray, double> out;
    for (const ThreadSample &t : threadSamples())
        out[t.name] += t.cpuS;
    return out;
}

inline QByteArray cpuBreakdown(const QMap<QByteArray, double> &before,
                               const QMap<QByteArray, double> &after, double perUnit)
{
    QByteArray s;
    for (auto it = after.begin(); it != after.end(); ++it) {
        const double d = it.value() - before.value(it.key());
        if (d > 0)
            s += " " + it.key() + "=" + QByteArray::number(d / perUnit, 'f', 2);
    }
    return s;
}

inline double rssKb()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> parts = f.readAll().split(' ');
    return parts.size() > 1 ? parts[1].toDouble() * double(sysconf(_SC_PAGESIZE)) / 1024.0 : 0;
}

inline void raiseFdLimit()
{
    rlimit rl{};
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
}

inline void printHost()
{
    std::printf("# host: %ld cores, load average now: ", sysconf(_SC_NPROCESSORS_ONLN));
    QFile f(QStringLiteral("/proc/loadavg"));
    if (f.open(QIODevice::ReadOnly))
        std::printf("%s", f.readAll().trimmed().constData());
    std::printf("\n");
}

// --- the simulator in a child process -------------------------------------------------------

struct SimCommand
{
    char cmd = 'S'; // S: set config and reset, R: reset, L: dump log, T: stats, Q: quit
    double ttftMs = 50;
    double itlMs = 10;
    int unpaced = 0;
    int recordLog = 1;
    int maxLogEntries = 100000;
    int defaultMaxTokens = 16;
    char path[256] = {};
};

struct SimReply
{
    quint16 port = 0;
    int openConnections = 0;
    int maxOpenConnections = 0;
    int activeStreams = 0;
    int maxActiveStreams = 0;
    quint64 totalRequests = 0;
    double cpuS = 0;
    qint64 logEntries = 0;
};

struct LogEntry
{
    qint64 tFirstWrite = 0;
    QList<qint64> chunkWriteNs;
};

class SimChild
{
public:
    // Call before QCoreApplication exists in this process.
    bool spawn(int argc, char **argv)
    {
        int down[2], up[2];
        if (pipe(down) != 0 || pipe(up) != 0)
            return false;
        m_pid = fork();
        if (m_pid < 0)
            return false;
        if (m_pid == 0) {
            ::close(down[1]);
            ::close(up[0]);
            childMain(argc, argv, down[0], up[1]);
            _exit(0);
        }
        ::close(down[0]);
        ::close(up[1]);
        m_out = down[1];
        m_in = up[0];
        SimReply r;
        if (!readAll(m_in, &r, sizeof r))
            return false;
        m_port = r.port;
        return m_port != 0;
    }
    ~SimChild()
    {
        if (m_pid > 0) {
            SimCommand q;
            q.cmd = 'Q';
            send(q);
            int status = 0;
            waitpid(m_pid, &status, 0);
        }
    }
    quint16 port() const { return m_port; }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }

    SimReply send(const SimCommand &c)
    {
        SimReply r;
        if (::write(m_out, &c, sizeof c) != sizeof c)
            return r;
        readAll(m_in, &r, sizeof r);
        return r;
    }
    SimReply configure(double ttftMs, double itlMs, bool unpaced, bool recordLog = true)
    {
        SimCommand c;
        c.cmd = 'S';
        c.ttftMs = ttftMs;
        c.itlMs = itlMs;
        c.unpaced = unpaced;
        c.recordLog = recordLog;
        return send(c);
    }
    SimReply stats()
    {
        SimCommand c;
        c.cmd = 'T';
        return send(c);
    }
    QHash<QString, LogEntry> log()
    {
        SimCommand c;
        c.cmd = 'L';
        const QByteArray path = QByteArray("/tmp/sb-bench-simlog-") + QByteArray::number(getpid());
        qstrncpy(c.path, path.constData(), sizeof c.path);
        send(c);
        QHash<QString, LogEntry> out;
        QFile f(QString::fromLatin1(path));
        if (!f.open(QIODevice::ReadOnly))
            return out;
        QDataStream in(&f);
        qint64 n = 0;
        in >> n;
        for (qint64 i = 0; i < n; ++i) {
            QString id;
            LogEntry e;
            in >> id >> e.tFirstWrite >> e.chunkWriteNs;
            out.insert(id, e);
        }
        f.remove();
        return out;
    }

private:
    static bool readAll(int fd, void *p, size_t n)
    {
        char *c = static_cast<char *>(p);
        while (n > 0) {
            const ssize_t r = ::read(fd, c, n);
            if (r <= 0)
                return false;
            c += r;
            n -= size_t(r);
        }
        return true;
    }

    static void childMain(int argc, char **argv, int in, int out)
    {
        raiseFdLimit();
        QCoreApplication app(argc, argv);
        SimConfig cfg;
        cfg.maxLogEntries = 200000;
        Simulator sim(cfg);
        SimReply hello;
        if (sim.start())
            hello.port = sim.port();
        [[maybe_unused]] ssize_t w = ::write(out, &hello, sizeof hello);
        for (;;) {
            SimCommand c;
            if (!readAll(in, &c, sizeof c))
                break;
            if (c.cmd == 'S') {
                cfg.ttftMs = c.ttftMs;
                cfg.itlMs = c.itlMs;
                cfg.unpaced = c.unpaced != 0;
                cfg.recordLog = c.recordLog != 0;
                cfg.maxLogEntries = c.maxLogEntries;
                cfg.defaultMaxTokens = c.defaultMaxTokens;
                sim.setConfig(cfg);
                sim.reset();
            } else if (c.cmd == 'R') {
                sim.reset();
            } else if (c.cmd == 'L') {
                const QList<SimLogEntry> log = sim.requestLog();
                QFile f(QString::fromLatin1(c.path));
                if (f.open(QIODevice::WriteOnly)) {
                    QDataStream s(&f);
                    s << qint64(log.size());
                    for (const SimLogEntry &e : log)
                        s << e.requestId << e.tFirstWrite << e.chunkWriteNs;
                }
            }
            SimReply r;
            r.port = sim.port();
            const SimCounters k = sim.counters();
            r.openConnections = k.openConnections;
            r.maxOpenConnections = k.maxOpenConnections;
            r.activeStreams = k.activeStreams;
            r.maxActiveStreams = k.maxActiveStreams;
            r.totalRequests = k.totalRequests;
            r.cpuS = cpuSeconds();
            [[maybe_unused]] ssize_t w2 = ::write(out, &r, sizeof r);
            if (c.cmd == 'Q')
                break;
        }
        sim.stop();
    }

    pid_t m_pid = -1;
    int m_out = -1;
    int m_in = -1;
    quint16 m_port = 0;
};

// --- the engine ------------------------------------------------------------------------------

inline QList<PromptItem> items(int n, int outputTokens)
{
    QList<PromptItem> out;
    for (int i = 0; i < n; ++i) {
        PromptItem it;
        it.prompt = QStringLiteral("benchmark prompt number %1").arg(i);
        it.inputTokens = 4;
        it.outputTokens = outputTokens;
        it.sourceIndex = i;
        out.append(it);
    }
    return out;
}

inline RunPlan plan(const QString &baseUrl)
{
    RunPlan p;
    p.sut.baseUrl = baseUrl;
    p.sut.model = QStringLiteral("servebench-sim");
    p.params.ignoreEos = true;
    p.profile.timeoutS = 120;
    return p;
}

struct EngineRun
{
    QList<RequestRecord> records;
    double seconds = 0; // first send to last completion
    double cpuS = 0;    // this process, over the run
    qint64 events = 0;  // token chunks received by successful requests
    qint64 ok = 0;
    qint64 failed = 0;
    bool finished = false;
    QMap<QByteArray, double> threadCpu; // at the end, while the transport's threads still exist
};

// Runs the plan to the end (or until stopAfterMs, then stop()). onStarted runs once the
// controller is running (e.g. to sample memory).
inline EngineRun runEngine(const RunPlan &p, const QList<PromptItem> &its, TransportKind kind,
                           int timeoutMs = 120000)
{
    EngineRun out;
    RunController c;
    c.setTransportKind(kind);
    c.configure(p, its, {});
    QEventLoop loop;
    QObject::connect(&c, &RunController::finished, &loop, &QEventLoop::quit);
    QTimer guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, &loop, [&c] { c.stop(); });
    const double cpu0 = cpuSeconds();
    QString error;
    if (!c.start(&error)) {
        std::fprintf(stderr, "start failed: %s\n", qPrintable(error));
        return out;
    }
    guard.start(timeoutMs);
    loop.exec();
    out.cpuS = cpuSeconds() - cpu0;
    out.threadCpu = threadCpu();
    out.finished = c.status() == RunStatus::Completed;
    out.records = c.records();
    qint64 first = 0, last = 0;
    for (const RequestRecord &r : std::as_const(out.records)) {
        if (r.ok()) {
            ++out.ok;
            out.events += r.chunkTimes.size();
        } else {
            ++out.failed;
        }
        if (r.tSend && (!first || r.tSend < first))
            first = r.tSend;
        last = std::max(last, r.tEnd);
    }
    out.seconds = nsToS(last - first);
    return out;
}

} // namespace bench
