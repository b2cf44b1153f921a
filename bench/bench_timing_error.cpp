// Client receive time minus the simulator's own write time (both CLOCK_MONOTONIC), for the first
// token and for every token chunk, at 10, 100, 1000 and 4000 concurrent paced streams
// (50 ms TTFT, 10 ms per token, closed loop).
//   bench_timing_error [seconds-per-run=4] [runs=3] [max-streams=4000] [only-variant]
// socket = kernel receive timestamps (SO_TIMESTAMPNS); socket-user = the same transport with
// receive times taken in user space at each epoll wake-up (what the client's own scheduling
// adds); qnam = the manager pool. Achieved concurrency is the simulator's peak of streams
// being generated. Client CPU per event is getrusage of this process over the run.
#include "benchutil.h"

#include "client/sockettransport.h"

using namespace bench;

namespace {

struct Variant
{
    const char *name;
    TransportKind kind;
    bool kernel;
    int maxStreams;
};

} // namespace

int main(int argc, char **argv)
{
    SimChild sim;
    if (!sim.spawn(argc, argv)) {
        std::fprintf(stderr, "cannot start the simulator child\n");
        return 1;
    }
    QCoreApplication app(argc, argv);
    raiseFdLimit();
    const double seconds = argc > 1 ? std::atof(argv[1]) : 4.0;
    const int runs = argc > 2 ? std::atoi(argv[2]) : 3;
    const int maxStreams = argc > 3 ? std::atoi(argv[3]) : 4000;
    const QByteArray only = argc > 4 ? QByteArray(argv[4]) : QByteArray();
    constexpr int kTokens = 50; // 50 ms + 49 x 10 ms per request
    printHost();
    std::printf(
        "# timing error (ms): paced simulator, TTFT 50 ms, ITL 10 ms, %d tokens per request, "
        "%.1f s per run, %d runs; median [min – max] of each run's statistic\n",
        kTokens, seconds, runs);
    std::printf("%-12s %6s  %-26s %-26s %-26s %-26s %-26s %-22s %-22s %s\n", "transport", "streams",
                "TTFT err mean", "TTFT err p50", "TTFT err p99", "event err mean", "event err p99",
                "achieved conc", "client CPU us/event", "sim CPU share   failed");
    sim.configure(50, 10, false, true);
    const Variant variants[] = {
        {"socket", TransportKind::Socket, true, 100000},
        {"socket-user", TransportKind::Socket, false, 1000},
        {"qnam", TransportKind::Qnam, true, 1000},
    };
    for (const Variant &v : variants) {
        if (!only.isEmpty() && only != v.name)
            continue;
        for (int streams : {10, 100, 1000, 4000}) {
            if (streams > maxStreams || streams > v.maxStreams ||
                (!only.isEmpty() && streams != maxStreams))
                continue;
            std::vector<double> tMean, tP50, tP99, eMean, eP99, conc, cpu, simShare;
            qint64 failed = 0;
            for (int i = 0; i < runs; ++i) {
                sim.configure(50, 10, false, true);
                RunPlan p = plan(sim.url());
                p.profile.closedLoopConcurrency = streams;
                p.profile.durationS = seconds;
                p.profile.numPrompts = 0;
                // The socket transport's kernel timestamps are on unless told otherwise; the
                // user-space variant needs its own transport, so it goes through an env switch.
                qputenv("SB_SOCKET_KERNEL_TIMESTAMPS", v.kernel ? "1" : "0");
                const QMap<QByteArray, double> threads0 = threadCpu();
                const double simCpu0 = sim.stats().cpuS;
                const EngineRun r = runEngine(p, items(1000, kTokens), v.kind, 180000);
                if (!only.isEmpty() && r.events) // a diagnostic for profiling one case
                    std::printf(
                        "#   CPU us/event by thread:%s\n",
                        cpuBreakdown(threads0, r.threadCpu, double(r.events) / 1e6).constData());
                const SimReply st = sim.stats();
                simShare.push_back(r.seconds > 0 ? (st.cpuS - simCpu0) / r.seconds : 0);
                const QHash<QString, LogEntry> log = sim.log();
                std::vector<double> ttft, ev;
                // Requests still starting when the run ended are cut short (cancel); measure
                // the complete ones.
                for (const RequestRecord &rec : std::as_const(r.records)) {
                    if (!rec.ok())
                        continue;
                    const auto it = log.constFind(rec.requestId);
                    if (it == log.constEnd() || it->chunkWriteNs.size() != rec.chunkTimes.size())
                        continue;
                    ttft.push_back(nsToMs(rec.tFirst - it->tFirstWrite));
                    for (int k = 0; k < rec.chunkTimes.size(); ++k)
                        ev.push_back(nsToMs(rec.chunkTimes[k] - it->chunkWriteNs[k]));
                }
                failed += r.failed;
                if (!only.isEmpty())
                    std::printf("#   TTFT err min %.3f p0.1 %.3f p1 %.3f; event err min %.3f p0.1 "
                                "%.3f p1 %.3f; "
                                "kernel-stamped reads %s\n",
                                percentile(ttft, 0), percentile(ttft, 0.1), percentile(ttft, 1),
                                percentile(ev, 0), percentile(ev, 0.1), percentile(ev, 1),
                                qgetenv("SB_SOCKET_KERNEL_TIMESTAMPS").constData());
                tMean.push_back(mean(ttft));
                tP50.push_back(percentile(ttft, 50));
                tP99.push_back(percentile(ttft, 99));
                eMean.push_back(mean(ev));
                eP99.push_back(percentile(ev, 99));
                conc.push_back(st.maxActiveStreams);
                cpu.push_back(r.events ? r.cpuS / double(r.events) * 1e6 : 0);
            }
            std::printf("%-12s %6d  %-26s %-26s %-26s %-26s %-26s %-22s %-22s %-15s %lld\n", v.name,
                        streams, mmm(tMean, 3).constData(), mmm(tP50, 3).constData(),
                        mmm(tP99, 3).constData(), mmm(eMean, 3).constData(),
                        mmm(eP99, 3).constData(), mmm(conc, 0).constData(), mmm(cpu, 1).constData(),
                        mmm(simShare, 2).constData(), qint64(failed));
            std::fflush(stdout);
        }
    }
    return 0;
}
