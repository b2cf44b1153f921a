// The client's parsing ceiling: the simulator writes each whole 256-token stream at once
// (unpaced), so the client's own work is the limit — unless the simulator, on the same cores,
// is. Closed loop at 64 and 256 concurrent streams, both transports.
//   bench_parse_ceiling [seconds-per-run=3] [runs=3] [socket|qnam]
// Prints token events/s, requests/s and client CPU seconds per million events (getrusage of
// this process; the simulator runs in a child process), median [min – max] over the runs, and
// the simulator's own CPU share to show which side was saturated.
#include "benchutil.h"

using namespace bench;

int main(int argc, char **argv)
{
    SimChild sim;
    if (!sim.spawn(argc, argv)) {
        std::fprintf(stderr, "cannot start the simulator child\n");
        return 1;
    }
    QCoreApplication app(argc, argv);
    raiseFdLimit();
    const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
    const int runs = argc > 2 ? std::atoi(argv[2]) : 3;
    const QByteArray only = argc > 3 ? QByteArray(argv[3]) : QByteArray();
    constexpr int kTokens = 256;
    printHost();
    std::printf("# parse ceiling: unpaced simulator, %d-token streams, %.1f s per run, %d runs\n",
                kTokens, seconds, runs);
    std::printf("%-8s %6s  %-34s %-30s %-30s %-24s %s\n", "transport", "conc", "token events/s",
                "requests/s", "client CPU s / 1M events", "sim CPU share", "failed");
    sim.configure(0, 0, true, false);
    for (TransportKind kind : {TransportKind::Socket, TransportKind::Qnam}) {
        if (!only.isEmpty() && only != transportKindName(kind))
            continue;
        for (int conc : {64, 256}) {
            std::vector<double> eps, rps, cpu, simShare;
            qint64 failed = 0;
            for (int i = 0; i < runs; ++i) {
                RunPlan p = plan(sim.url());
                p.profile.closedLoopConcurrency = conc;
                p.profile.durationS = seconds;
                p.profile.numPrompts = 0;
                const SimReply before = sim.stats();
                const EngineRun r = runEngine(p, items(1000, kTokens), kind);
                const SimReply after = sim.stats();
                if (r.seconds <= 0)
                    continue;
                eps.push_back(double(r.events) / r.seconds);
                rps.push_back(double(r.ok) / r.seconds);
                cpu.push_back(r.events ? r.cpuS / (double(r.events) / 1e6) : 0);
                simShare.push_back((after.cpuS - before.cpuS) / r.seconds);
                failed += r.failed;
            }
            std::printf("%-8s %6d  %-34s %-30s %-30s %-24s %lld\n", transportKindName(kind), conc,
                        mmm(eps, 0).constData(), mmm(rps, 0).constData(), mmm(cpu, 2).constData(),
                        mmm(simShare, 2).constData(), qint64(failed));
            std::fflush(stdout);
        }
    }
    return 0;
}
