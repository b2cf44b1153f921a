// The workbench at scale: the real MainWindow runs a closed loop of `streams` paced streams against
// the independent paced server (tests/servers/pacedserver, as bench_paced_timing uses it) with the
// live dashboard on screen, and this program measures two things at once:
//
//   timing   the client's timing error against the server's own clock readings, from the records
//            the workbench stored in its project file (ProjectStore::loadRequests, read-only),
//            paired with the server's log exactly as bench_paced_timing pairs them (same columns)
//   stalls   how long the GUI thread went without processing an event. A stall is the gap
//            between consecutive ticks of a 5 ms Qt::PreciseTimer on the GUI thread (times on
//            CLOCK_MONOTONIC): a gap of g ms means no event was processed for about g − 5 ms.
//            Reported over the run (runStarted → runFinished) and over the after-run phase
//            (runFinished → the Results view has shown its charts, and at least 3 s).
//
//   bench_workbench_timing [runs=3] [streams=100,1000] [waves=4] [tokens=50]
//
// Each run: a fresh paced server (TTFT 50 ms, ITL 10 ms, `tokens` tokens per request via the
// request's max_tokens), a fresh MainWindow (1600x1000, shown) with a fresh project file (saved
// under a temporary name, so the run is recorded there): SUT = the paced server (server-metrics
// scraping off: the paced server has no /metrics), synthetic dataset input 128 / output `tokens`
// fixed, ignore_eos, closed loop of `streams` with streams x waves requests, warm connections,
// socket transport, timeout 120 s. Run is triggered through the window's Run action; the program
// waits in the event loop.
//
// QT_QPA_PLATFORM defaults to offscreen (headless); under `xvfb-run -a` with QT_QPA_PLATFORM=xcb
// the window paints to a real X server. The platform used is printed.
//
// Columns per run (ms unless said): send / recv / first / ttft / wave1 / late / fail / unm as in
// bench_paced_timing; us/ev = client CPU per token event over the traffic (runStarted → the
// controller's finished, as bench_paced_timing measures it), but of the whole process: transport
// threads, the run pipeline, the store's writer AND the GUI thread's dashboard and painting; then
// the stall meter over the run: ticks, gap p50 p99 p99.9 max, gaps > 16 ms; the same over the
// after-run phase; "charts" = runFinished → the Results view's chartsShown, in s.
// Diagnostic lines per run ("#"): the run split into traffic (runStarted → the controller's
// finished: the last response is in) and derivation + storing (→ runFinished), the stall figures
// over the traffic alone; the gaps > 16 ms with the GUI thread's own CPU time in them
// (CLOCK_THREAD_CPUTIME_ID) and its involuntary context switches (preempted by other threads or
// processes on the same cores); the gaps that held a dashboard refresh (RunDashboard::
// refreshCount changed); the run's CPU by thread (GUI = the main thread; unnamedN = threads of no
// name of their own, e.g. the run pipeline's derivation worker). SB_BENCH_DUMP_STALLS=1 lists
// every gap > 16 ms with its CLOCK_MONOTONIC span, to cut a `perf record -k CLOCK_MONOTONIC`
// profile of the GUI thread to it (perf report --tid <pid> --time <start>,<end>).
#include "benchutil.h"

#include "client/connectionmode.h"
#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "mainwindow.h"
#include "pacedfigures.h"
#include "projectdocument.h"
#include "projectrunner.h"
#include "resultsview.h"
#include "rundashboard.h"
#include "settings.h"
#include "store/projectstore.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QTemporaryDir>

#include <functional>
#include <memory>

using namespace bench;
using namespace Qt::StringLiterals;

namespace {

constexpr int kTickMs = 5;
constexpr double kStallMs = 16;
constexpr qint64 kAfterRunMinNs = 3'000'000'000;

// CPU seconds of each thread of this process over an interval, by thread name (threads of one
// name summed; the main thread, which is the GUI thread, as "GUI"; threads without a name of
// their own, which carry the program's name, one by one as unnamedN in the order first seen).
// Sampled from /proc every time sample() is called, so a thread that ends in between still counts
// with its last reading.
class ThreadCpu
{
public:
    void begin()
    {
        m_threads.clear();
        m_unnamed = 0;
        QFile comm(QStringLiteral("/proc/self/comm"));
        if (comm.open(QIODevice::ReadOnly))
            m_program = comm.readAll().trimmed();
        sample(true);
    }
    void sample(bool atBegin = false)
    {
        const QString self = QString::number(getpid());
        for (const ThreadSample &sample : threadSamples()) {
            auto it = m_threads.find(sample.tid);
            if (it == m_threads.end()) {
                Thread t;
                t.name = sample.name;
                if (sample.tid == self)
                    t.name = "GUI";
                else if (t.name == m_program)
                    t.name = "unnamed" + QByteArray::number(++m_unnamed);
                t.first = atBegin ? sample.cpuS : 0; // a thread born after begin() counts from 0
                it = m_threads.insert(sample.tid, t);
            }
            it->last = sample.cpuS;
        }
    }
    QMap<QByteArray, double> byName() const
    {
        QMap<QByteArray, double> out;
        for (const Thread &t : m_threads)
            out[t.name] += t.last - t.first;
        return out;
    }

private:
    struct Thread
    {
        QByteArray name;
        double first = 0, last = 0;
    };
    QHash<QString, Thread> m_threads;
    QByteArray m_program;
    int m_unnamed = 0;
};

// Ticks of a 5 ms precise timer on the GUI thread, on CLOCK_MONOTONIC. Each tick also reads the
// GUI thread's own CPU time (CLOCK_THREAD_CPUTIME_ID) and its involuntary context switches
// (getrusage RUSAGE_THREAD), so a long gap can be told apart: the GUI thread working (on CPU) or
// not running at all (preempted by other threads or processes on the same cores).
class StallMeter : public QObject
{
public:
    StallMeter()
    {
        m_ticks.reserve(1 << 16);
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(kTickMs);
        connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
    }
    // Read at every tick: a gap in which it changed held that many dashboard refreshes.
    void setRefreshCounter(std::function<int()> counter) { m_refreshes = std::move(counter); }
    void start()
    {
        tick();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }

    struct Gaps
    {
        std::vector<double> ms;
        qint64 longest = 0; // end time of the longest gap
        // Over the gaps longer than kStallMs: their total, the GUI thread's CPU time in them and
        // the times it was preempted in them.
        double stalledMs = 0, stalledCpuMs = 0;
        qint64 stalledPreempted = 0;
        std::vector<double> refreshMs;    // the gaps that held a dashboard refresh
        std::vector<double> refreshCpuMs; // the GUI thread's CPU time in each of them
    };
    // Gaps whose closing tick lies in (from, to]; dump: print each one > kStallMs.
    Gaps gaps(qint64 from, qint64 to, bool dump = false) const
    {
        Gaps g;
        double worst = -1;
        for (size_t i = 1; i < m_ticks.size(); ++i) {
            const Tick &a = m_ticks[i - 1], &b = m_ticks[i];
            if (b.t <= from || b.t > to)
                continue;
            const double ms = nsToMs(b.t - a.t);
            g.ms.push_back(ms);
            if (ms > worst) {
                worst = ms;
                g.longest = b.t;
            }
            if (b.refreshes != a.refreshes) {
                g.refreshMs.push_back(ms);
                g.refreshCpuMs.push_back(nsToMs(b.cpu - a.cpu));
            }
            if (ms > kStallMs) {
                if (dump)
                    std::printf(
                        "#   stall %.2f ms from %lld to %lld ns (CLOCK_MONOTONIC), GUI on CPU "
                        "%.2f ms, preempted %lld times\n",
                        ms, a.t, b.t, nsToMs(b.cpu - a.cpu), b.preempted - a.preempted);
                g.stalledMs += ms;
                g.stalledCpuMs += nsToMs(b.cpu - a.cpu);
                g.stalledPreempted += b.preempted - a.preempted;
            }
        }
        return g;
    }

private:
    struct Tick
    {
        qint64 t = 0;
        qint64 cpu = 0;
        qint64 preempted = 0;
        int refreshes = 0;
    };
    void tick()
    {
        Tick k;
        k.t = monotonicNs();
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        k.cpu = qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
        rusage ru{};
        getrusage(RUSAGE_THREAD, &ru);
        k.preempted = ru.ru_nivcsw;
        k.refreshes = m_refreshes ? m_refreshes() : 0;
        m_ticks.push_back(k);
    }

    QTimer m_timer;
    std::vector<Tick> m_ticks;
    std::function<int()> m_refreshes;
};

struct StallFigures
{
    double ticks = 0, p50 = 0, p99 = 0, p999 = 0, max = 0, over = 0;
};

StallFigures stallFigures(const std::vector<double> &ms)
{
    StallFigures s;
    s.ticks = double(ms.size());
    s.p50 = percentile(ms, 50);
    s.p99 = percentile(ms, 99);
    s.p999 = percentile(ms, 99.9);
    s.max = paced::maxOf(ms);
    for (double g : ms)
        s.over += g > kStallMs ? 1 : 0;
    return s;
}

// The figures of one run, in the order of `names` below.
constexpr int kFigures = 30;
// The timing figures (pacedfigures.h), then this bench's own.
const char *figureName(int i)
{
    static const char *const more[kFigures - kTimingFigures] = {
        "late",        "us/event",  "load",        "run ticks",   "run gap p50", "run p99",
        "run p99.9",   "run max",   "run >16ms",   "after ticks", "after p50",   "after p99",
        "after p99.9", "after max", "after >16ms", "charts s",    "failed"};
    return i < kTimingFigures ? kTimingFigureNames[i] : more[i - kTimingFigures];
}

struct RunResult
{
    bool ok = false;
    double figures[kFigures] = {};
};

// One run of the workbench against a fresh paced server; prints its line.
RunResult runOnce(int streams, int waves, int tokens, double ttftMs, double itlMs, int run)
{
    RunResult out;
    paced::PacedServer server;
    if (!startPacedServer(server, ttftMs, itlMs))
        return out;
    QString error;
    QTemporaryDir dir;
    auto settings = std::make_unique<Settings>(dir.filePath(u"settings.ini"_s));
    auto keys = std::make_unique<ApiKeyStore>(new KeychainUnavailableBackend);
    auto window = std::make_unique<MainWindow>(settings.get(), keys.get());
    window->resize(1600, 1000);
    window->show();

    ProjectDocument *doc = window->document();
    {
        const DocSut &s = doc->suts().first();
        SutConfig sut = s.config;
        sut.builtInSimulator = false;
        sut.name = u"pacedserver"_s;
        sut.baseUrl = server.baseUrl();
        sut.model = u"paced"_s;
        sut.engine = u"pacedserver"_s;
        sut.engineVersion.clear();
        sut.notes.clear();
        sut.flavour = ApiFlavour::Completions;
        // The paced server answers every path with a token stream: it has no /metrics.
        sut.serverMetrics.sut = u"off"_s;
        doc->updateSut(s.id, sut);

        const DocDataset &d = doc->datasets().first();
        DatasetSpec spec = d.spec;
        spec.kind = DatasetKind::Random;
        spec.randomInputLen = 128;
        spec.randomOutputLen = tokens;
        spec.randomRangeRatio = 0;
        doc->updateDataset(d.id, u"Synthetic 128 → %1 tokens"_s.arg(tokens), spec);

        const DocProfile &p = doc->profiles().first();
        LoadProfile profile;
        profile.closedLoopConcurrency = streams;
        profile.numPrompts = streams * waves;
        profile.connectionMode = u"warm"_s;
        profile.timeoutS = 120;
        profile.seed = 1;
        profile.metricPercentiles = {50, 90, 99};
        RequestParams params;
        params.ignoreEos = true;
        RunExecution execution;
        execution.transport = TransportKind::Socket;
        doc->updateProfile(p.id, u"closed loop %1"_s.arg(streams), profile, params, execution);
    }
    if (!doc->saveAs(dir.filePath(u"workbench-%1-%2.sbproj"_s.arg(streams).arg(run)), &error)) {
        std::fprintf(stderr, "save as: %s\n", qPrintable(error));
        return out;
    }
    auto *results = window->findChild<ResultsView *>();
    auto *dashboard = window->findChild<RunDashboard *>();
    ProjectRunner *runner = window->runner();

    // Let the window settle (first paint, editors) before measuring.
    {
        QEventLoop settle;
        QTimer::singleShot(500, &settle, &QEventLoop::quit);
        settle.exec();
    }

    StallMeter meter;
    if (dashboard)
        meter.setRefreshCounter([dashboard] { return dashboard->refreshCount(); });
    qint64 tStarted = 0, tTrafficEnd = 0, tFinished = 0, tCharts = 0;
    double cpuStart = 0, cpu = 0, cpuTraffic = 0;
    ThreadCpu threads;
    FinishedRun finished;
    bool haveFinished = false;
    QString failure;
    QEventLoop loop;
    QTimer poll;
    const auto done = [&] {
        if (!failure.isEmpty())
            return true;
        if (!haveFinished || runner->state() != ProjectRunner::State::Idle)
            return false;
        const qint64 now = monotonicNs();
        return now - tFinished >= kAfterRunMinNs && (tCharts > 0 || !results);
    };
    QObject::connect(runner, &ProjectRunner::runStarted, &loop, [&](RunController *c) {
        tStarted = monotonicNs();
        // The controller's end: the last response is in; derivation and storing follow.
        QObject::connect(c, &RunController::finished, &loop, [&] {
            tTrafficEnd = monotonicNs();
            cpuTraffic = cpuSeconds() - cpuStart;
        });
        threads.begin();
        cpuStart = cpuSeconds();
    });
    QObject::connect(runner, &ProjectRunner::runFinished, &loop, [&](const FinishedRun &r) {
        cpu = cpuSeconds() - cpuStart;
        threads.sample();
        tFinished = monotonicNs();
        finished = r;
        haveFinished = true;
    });
    QObject::connect(runner, &ProjectRunner::runFailed, &loop,
                     [&](const QString &e) { failure = e; });
    if (results)
        QObject::connect(results, &ResultsView::chartsShown, &loop, [&] {
            if (haveFinished && !tCharts)
                tCharts = monotonicNs();
        });
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (tStarted && !haveFinished)
            threads.sample();
        if (done())
            loop.quit();
    });
    // A run that never finishes: (prompts / streams) waves of at most the timeout each, plus
    // preparation and the after-run phase.
    QTimer guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, &loop, [&] {
        failure = u"no end after %1 s"_s.arg(guard.interval() / 1000);
        loop.quit();
    });
    guard.start(std::min(3600, 60 + waves * 125) * 1000);

    const double load = loadAverage();
    meter.start();
    poll.start();
    window->runAction()->trigger();
    if (!runner->isBusy() && failure.isEmpty())
        failure = u"Run did not start (is the Run action enabled?)"_s;
    else
        loop.exec();
    meter.stop();
    const qint64 tEnd = monotonicNs();
    const int dashboardTab = window->tabs()->currentIndex();
    if (!failure.isEmpty()) {
        std::fprintf(stderr, "run failed: %s\n", qPrintable(failure));
        return out;
    }

    // The store's writer is done once the run finished; close the window's hold on the file
    // first, then read the stored records read-only.
    const qint64 runId = finished.info.id;
    const QString project = doc->storePath();
    window.reset();
    keys.reset();
    settings.reset();
    server.stop();
    ProjectStore store;
    if (!store.open(project, ProjectStore::OpenMode::ReadOnly)) {
        std::fprintf(stderr, "%s\n", qPrintable(store.lastError()));
        return out;
    }
    const QList<RequestRecord> records = store.loadRequests(runId);
    const paced::TimingErrors t = paced::pairWithLog(records, server.log(), streams, itlMs / 2);
    qint64 events = 0;
    int uses[4] = {0, 0, 0, 0};
    for (const RequestRecord &r : records) {
        events += r.chunkTimes.size();
        ++uses[int(r.connection) & 3];
    }
    const double us = events ? cpuTraffic / double(events) * 1e6 : 0;
    const bool dump = qEnvironmentVariableIsSet("SB_BENCH_DUMP_STALLS");
    const StallMeter::Gaps runGaps = meter.gaps(tStarted, tFinished, dump);
    const StallMeter::Gaps afterGaps = meter.gaps(tFinished, tEnd, dump);
    const StallFigures rs = stallFigures(runGaps.ms);
    const StallFigures as = stallFigures(afterGaps.ms);
    const double chartsS = tCharts ? nsToS(tCharts - tFinished) : std::nan("");
    const auto timing = timingFigures(t);
    const double rest[] = {double(t.lateChunks),
                           us,
                           load,
                           rs.ticks,
                           rs.p50,
                           rs.p99,
                           rs.p999,
                           rs.max,
                           rs.over,
                           as.ticks,
                           as.p50,
                           as.p99,
                           as.p999,
                           as.max,
                           as.over,
                           chartsS,
                           double(t.failed)};
    static_assert(kTimingFigures + std::size(rest) == kFigures);
    double stats[kFigures];
    std::copy(timing.begin(), timing.end(), stats);
    std::copy(std::begin(rest), std::end(rest), stats + kTimingFigures);
    std::copy(std::begin(stats), std::end(stats), out.figures);
    out.ok = true;
    std::printf("  %-6s %-4s %5d %3d %5.2f | %7.3f %7.3f %7.3f | %7.3f %7.3f %7.3f | %7.3f %7.3f "
                "| %7.3f %7.3f %7.3f | %7.3f %7.3f | %5d %4d %4d | %6.2f %d/%d/%d | %5.0f %6.2f "
                "%6.2f %7.2f %7.2f %4.0f | %5.0f %6.2f %6.2f %7.2f %7.2f %4.0f | %6.2f\n",
                "socket", "warm", streams, run, load, stats[0], stats[1], stats[2], stats[3],
                stats[4], stats[5], stats[6], stats[7], stats[8], stats[9], stats[10], stats[11],
                stats[12], t.lateChunks, t.failed, t.unmatched, us, uses[int(ConnectionUse::New)],
                uses[int(ConnectionUse::Reused)], uses[int(ConnectionUse::Prewarmed)], rs.ticks,
                rs.p50, rs.p99, rs.p999, rs.max, rs.over, as.ticks, as.p50, as.p99, as.p999, as.max,
                as.over, chartsS);
    const QMap<QByteArray, double> byThread = threads.byName();
    QByteArray perThread;
    double listed = 0;
    for (auto it = byThread.begin(); it != byThread.end(); ++it) {
        listed += it.value();
        if (it.value() > 0)
            perThread += " " + it.key() + "=" + QByteArray::number(it.value(), 'f', 2);
    }
    const qint64 trafficEnd = tTrafficEnd ? tTrafficEnd : tFinished;
    const StallMeter::Gaps trafficGaps = meter.gaps(tStarted, trafficEnd);
    const StallFigures traffic = stallFigures(trafficGaps.ms);
    const StallFigures refresh = stallFigures(trafficGaps.refreshMs);
    const StallFigures refreshCpu = stallFigures(trafficGaps.refreshCpuMs);
    std::printf(
        "#   run %.2f s (traffic %.2f s, then derivation and storing %.2f s), %lld records, "
        "%lld token events; traffic only: gap p99 %.2f max %.2f >16ms %.0f; longest run gap "
        "at +%.3f s, longest after-run gap at +%.3f s after finish; tab at the end: %d\n",
        nsToS(tFinished - tStarted), nsToS(trafficEnd - tStarted), nsToS(tFinished - trafficEnd),
        qint64(records.size()), events, traffic.p99, traffic.max, traffic.over,
        runGaps.longest ? nsToS(runGaps.longest - tStarted) : 0.0,
        afterGaps.longest ? nsToS(afterGaps.longest - tFinished) : 0.0, dashboardTab);
    std::printf(
        "#   gaps > %.0f ms: run %.0f ms in all, GUI thread on CPU %.1f ms of it, preempted "
        "%lld times; after-run %.0f ms, on CPU %.1f ms, preempted %lld times\n",
        kStallMs, runGaps.stalledMs, runGaps.stalledCpuMs, runGaps.stalledPreempted,
        afterGaps.stalledMs, afterGaps.stalledCpuMs, afterGaps.stalledPreempted);
    std::printf(
        "#   traffic: %.0f gaps held a dashboard refresh (its reduction's redraw and the paint "
        "that follows need not fall in the same gap): gap p50 %.2f p99 %.2f max %.2f ms, GUI "
        "thread on CPU in them p50 %.2f max %.2f ms\n",
        refresh.ticks, refresh.p50, refresh.p99, refresh.max, refreshCpu.p50, refreshCpu.max);
    std::printf("#   cpu over the traffic %.2f s, over the run %.2f s:%s unaccounted=%.2f\n",
                cpuTraffic, cpu, perThread.constData(), cpu - listed);
    std::fflush(stdout);
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    raiseFdLimit();
    QApplication app(argc, argv);
    const int runs = argc > 1 ? std::atoi(argv[1]) : 3;
    const QStringList streamsList = listArg(argc, argv, 2, "100,1000");
    const int waves = argc > 3 ? std::atoi(argv[3]) : 4;
    const int tokens = argc > 4 ? std::atoi(argv[4]) : 50;
    const double ttftMs = 50, itlMs = 10;
    printHost();
    std::printf("# workbench (MainWindow 1600x1000, live dashboard shown) on QPA platform %s\n",
                qPrintable(QGuiApplication::platformName()));
    std::printf("# paced independent server: TTFT %.1f ms, ITL %.1f ms, %d tokens, %d waves per "
                "run, %d runs; errors in ms; stall = gap between ticks of a %d ms timer\n",
                ttftMs, itlMs, tokens, waves, runs, kTickMs);
    std::printf("# %-6s %-4s %5s %3s %5s | %-23s | %-23s | %-15s | %-23s | %-15s | %5s %4s %4s "
                "| %6s %s | %-40s | %-40s | %s\n",
                "transp", "mode", "strm", "run", "load", "send p50 p99 max", "recv p50 p99 max",
                "first p99 max", "ttft p50 p99 max", "wave1 p99 max", "late", "fail", "unm",
                "us/ev", "new/reused/prewarmed", "run: ticks gap p50 p99 p99.9 max >16ms",
                "after: ticks gap p50 p99 p99.9 max >16ms", "charts s");
    std::fflush(stdout);

    for (const QString &streamsText : streamsList) {
        const int streams = streamsText.toInt();
        std::vector<double> f[kFigures];
        for (int run = 0; run < runs; ++run) {
            const RunResult r = runOnce(streams, waves, tokens, ttftMs, itlMs, run);
            if (!r.ok)
                return 1;
            for (int i = 0; i < kFigures; ++i)
                f[i].push_back(r.figures[i]);
        }
        std::printf("= socket warm %d streams, workbench (median [min – max] of %d runs):", streams,
                    runs);
        for (int i = 0; i < kFigures; ++i) {
            const bool count = i == 13 || i == 16 || i == 21 || i == 22 || i == 27 || i == 29;
            std::printf("%s %s %s", i ? ";" : "", figureName(i),
                        mmm(f[i], count ? 0 : 3).constData());
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
