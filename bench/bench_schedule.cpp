// How punctually the client sends: Poisson arrivals at 100, 1000 and 5000 req/s with short
// outputs (4 tokens, 1 ms TTFT, 1 ms per token), no concurrency cap.
//   bench_schedule [seconds-per-run=3] [runs=3]
// Schedule lag = t_send - t_sched (docs/metrics.md). Achieved rate = (sent - 1) / (last t_send -
// first t_send). Median [min – max] over the runs.
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
    printHost();
    std::printf(
        "# schedule: Poisson arrivals, 4-token outputs (TTFT 1 ms, ITL 1 ms), %.1f s per run, "
        "%d runs\n",
        seconds, runs);
    std::printf("%-8s %8s  %-26s %-26s %-26s %-26s %s\n", "transport", "rate", "lag p50 (ms)",
                "lag p99 (ms)", "lag max (ms)", "achieved rate (req/s)", "failed");
    sim.configure(1, 1, false, false);
    for (TransportKind kind : {TransportKind::Socket, TransportKind::Qnam}) {
        for (double rate : {100.0, 1000.0, 5000.0}) {
            std::vector<double> p50, p99, pmax, achieved;
            qint64 failed = 0;
            for (int i = 0; i < runs; ++i) {
                RunPlan p = plan(sim.url());
                p.profile.requestRate = rate;
                p.profile.arrival = ArrivalProcess::Poisson;
                p.profile.numPrompts = int(rate * seconds);
                p.profile.seed = quint64(i + 1);
                const EngineRun r = runEngine(p, items(1000, 4), kind, 120000);
                std::vector<double> lag, wake, hop;
                std::vector<qint64> sends;
                for (const RequestRecord &rec : std::as_const(r.records)) {
                    if (rec.tSend) {
                        lag.push_back(nsToMs(rec.tSend - rec.tSched));
                        wake.push_back(nsToMs(rec.tDispatch - rec.tSched));
                        hop.push_back(nsToMs(rec.tSend - rec.tDispatch));
                        sends.push_back(rec.tSend);
                    }
                }
                failed += r.failed;
                // Where the lag comes from: the dispatcher waking late, or the hand-over to
                // the transport's thread.
                std::printf(
                    "#   %s %.0f/s: dispatcher lateness p50 %.3f p99 %.3f ms; hand-over p50 %.3f "
                    "p99 %.3f ms\n",
                    transportKindName(kind), rate, percentile(wake, 50), percentile(wake, 99),
                    percentile(hop, 50), percentile(hop, 99));
                std::sort(sends.begin(), sends.end());
                p50.push_back(percentile(lag, 50));
                p99.push_back(percentile(lag, 99));
                pmax.push_back(percentile(lag, 100));
                if (sends.size() > 1)
                    achieved.push_back(double(sends.size() - 1) /
                                       nsToS(sends.back() - sends.front()));
            }
            std::printf("%-8s %8.0f  %-26s %-26s %-26s %-26s %lld\n", transportKindName(kind), rate,
                        mmm(p50, 3).constData(), mmm(p99, 3).constData(), mmm(pmax, 3).constData(),
                        mmm(achieved, 0).constData(), qint64(failed));
            std::fflush(stdout);
        }
    }
    return 0;
}
