// The client's timing error against an independent server (tests/servers/pacedserver: one-thread
// epoll, plain POSIX, no project code), which logs the kernel arrival time of every request and
// the CLOCK_MONOTONIC time right before every chunk's write(). Records go through the project
// store (RunRecorder → ProjectStore::loadRequests), so the figures are those of stored records.
//
//   bench_paced_timing [runs=3] [streams=100,1000] [transports=socket,qnam]
//                      [modes=warm,lazy,per-request] [waves=4] [tokens=50] [ttft-ms=50]
//                      [itl-ms=10]
//
// Each run: a fresh server, a closed loop of `streams` streams and streams x waves requests of
// `tokens` tokens. Per run it prints the load average and, in ms:
//   send     request arrival at the server (kernel) − t_send                 p50 p99 max
//   recv     client receive time − server write, EVERY token chunk           p50 p99 max
//   first    the same for the first token                                    p99 max
//   ttft     client TTFT − server TTFT (= send + first)                      p50 p99 max
//   wave1    ttft error of the first wave (index < streams)                  p99 max
//   late     chunks received more than ITL/2 after their write (a chunk stamped with a later
//            read's time shows here)
// then, per configuration, the median [min – max] over the runs of each of those statistics,
// and how the requests found their connection (new/reused/prewarmed). With lazy and per-request
// connections, "send" includes the TCP handshake of a request that opened one: set-up time the
// request's TTFT really contains, not an error of the clock.
// SB_BENCH_DUMP_LATE=1 lists every late chunk (request, index, error, whether it shares its
// receive time with the next chunk: the kernel merged them while the client was not reading).
#include "benchutil.h"

#include "client/connectionmode.h"
#include "data/dataset.h"
#include "pacedfigures.h"
#include "run/runrecorder.h"
#include "store/projectstore.h"

#include <QTemporaryDir>

using namespace bench;
using namespace Qt::StringLiterals;

namespace {

struct Figures
{
    std::vector<double> v[16];
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    raiseFdLimit();
    const int runs = argc > 1 ? std::atoi(argv[1]) : 3;
    const QStringList streamsList = listArg(argc, argv, 2, "100,1000");
    const QStringList transports = listArg(argc, argv, 3, "socket,qnam");
    const QStringList modes = listArg(argc, argv, 4, "warm,lazy,per-request");
    const int waves = argc > 5 ? std::atoi(argv[5]) : 4;
    const int tokens = argc > 6 ? std::atoi(argv[6]) : 50;
    const double ttftMs = argc > 7 ? std::atof(argv[7]) : 50;
    const double itlMs = argc > 8 ? std::atof(argv[8]) : 10;
    printHost();
    std::printf("# paced independent server: TTFT %.1f ms, ITL %.1f ms, %d tokens, %d waves per "
                "run, %d runs; errors in ms\n",
                ttftMs, itlMs, tokens, waves, runs);
    std::printf("# %-6s %-11s %5s %3s %5s | %-23s | %-23s | %-15s | %-23s | %-15s | %5s %4s %4s "
                "| %6s %s\n",
                "transp", "mode", "strm", "run", "load", "send p50 p99 max", "recv p50 p99 max",
                "first p99 max", "ttft p50 p99 max", "wave1 p99 max", "late", "fail", "unm",
                "us/ev", "new/reused/prewarmed");
    std::fflush(stdout);

    QTemporaryDir dir;
    for (const QString &transport : transports) {
        for (const QString &modeName : modes) {
            ConnectionMode mode = ConnectionMode::Warm;
            if (!connectionModeFromName(modeName, &mode)) {
                std::fprintf(stderr, "unknown mode %s\n", qPrintable(modeName));
                return 2;
            }
            for (const QString &streamsText : streamsList) {
                const int streams = streamsText.toInt();
                Figures f;
                for (int run = 0; run < runs; ++run) {
                    paced::PacedServer server;
                    if (!startPacedServer(server, ttftMs, itlMs))
                        return 1;
                    QString error;
                    RunPlan p = plan(server.baseUrl());
                    p.profile.closedLoopConcurrency = streams;
                    p.profile.numPrompts = streams * waves;
                    p.profile.timeoutS = 120;
                    const double load = loadAverage();
                    RunController c;
                    c.setTransportKind(transport == "qnam"_L1 ? TransportKind::Qnam
                                                              : TransportKind::Socket);
                    TransportOptions options;
                    options.connectionMode = mode;
                    c.setTransportOptions(options);
                    c.configure(p, items(streams * waves, tokens), {});
                    RunRecorder recorder;
                    const QString project = dir.filePath(
                        u"run-%1-%2-%3-%4.sbproj"_s.arg(transport, modeName).arg(streams).arg(run));
                    if (!recorder.open(project, &error)) {
                        std::fprintf(stderr, "%s\n", qPrintable(error));
                        return 1;
                    }
                    const qint64 startAt = monotonicNs() + 100'000'000;
                    c.setStartAt(startAt);
                    if (!recorder.beginRun(p, p.toJson(), DatasetInfo{}, 0, 0, startAt, &error)) {
                        std::fprintf(stderr, "%s\n", qPrintable(error));
                        return 1;
                    }
                    recorder.attach(&c);
                    QEventLoop loop;
                    QObject::connect(&c, &RunController::finished, &loop, &QEventLoop::quit);
                    const double cpu0 = cpuSeconds();
                    if (!c.start(&error)) {
                        std::fprintf(stderr, "start failed: %s\n", qPrintable(error));
                        return 1;
                    }
                    loop.exec();
                    const double cpu = cpuSeconds() - cpu0;
                    const qint64 runId = recorder.currentRunId();
                    recorder.finishRun(c.status(), {}, {}, {}, 0, &error);
                    server.stop();
                    ProjectStore store;
                    if (!store.open(project, ProjectStore::OpenMode::ReadOnly)) {
                        std::fprintf(stderr, "%s\n", qPrintable(store.lastError()));
                        return 1;
                    }
                    const QList<RequestRecord> records = store.loadRequests(runId);
                    const paced::TimingErrors t =
                        paced::pairWithLog(records, server.log(), streams, itlMs / 2);
                    if (qEnvironmentVariableIsSet("SB_BENCH_DUMP_LATE")) {
                        // Diagnostic: every chunk received more than ITL/2 after its write.
                        const auto log = server.log();
                        for (const RequestRecord &r : records) {
                            const auto it = log.constFind(r.requestId);
                            if (it == log.constEnd() || it->writes.size() != r.chunkTimes.size())
                                continue;
                            for (qsizetype k = 0; k < r.chunkTimes.size(); ++k) {
                                const double e = nsToMs(r.chunkTimes[k] - it->writes[k]);
                                if (e <= itlMs / 2)
                                    continue;
                                const bool sameAsNext = k + 1 < r.chunkTimes.size() &&
                                                        r.chunkTimes[k] == r.chunkTimes[k + 1];
                                std::printf("#   late: request %lld chunk %lld err %.3f ms, "
                                            "written at +%.3f ms, same stamp as next: %d, "
                                            "next write +%.3f\n",
                                            r.index, qint64(k), e,
                                            nsToMs(it->writes[k] - c.runStartNs()), sameAsNext,
                                            k + 1 < it->writes.size()
                                                ? nsToMs(it->writes[k + 1] - c.runStartNs())
                                                : 0.0);
                            }
                        }
                    }
                    qint64 events = 0;
                    int uses[4] = {0, 0, 0, 0};
                    for (const RequestRecord &r : records) {
                        events += r.chunkTimes.size();
                        ++uses[int(r.connection) & 3];
                    }
                    const double us = events ? cpu / double(events) * 1e6 : 0;
                    const auto timing = timingFigures(t);
                    double stats[16];
                    std::copy(timing.begin(), timing.end(), stats);
                    stats[13] = double(t.lateChunks);
                    stats[14] = us;
                    stats[15] = load;
                    for (int i = 0; i < 16; ++i)
                        f.v[i].push_back(stats[i]);
                    std::printf("  %-6s %-11s %5d %3d %5.2f | %7.3f %7.3f %7.3f | %7.3f %7.3f "
                                "%7.3f | %7.3f %7.3f | %7.3f %7.3f %7.3f | %7.3f %7.3f | %5d "
                                "%4d %4d | %6.2f %d/%d/%d\n",
                                qPrintable(transport), qPrintable(modeName), streams, run, load,
                                stats[0], stats[1], stats[2], stats[3], stats[4], stats[5],
                                stats[6], stats[7], stats[8], stats[9], stats[10], stats[11],
                                stats[12], t.lateChunks, t.failed, t.unmatched, us,
                                uses[int(ConnectionUse::New)], uses[int(ConnectionUse::Reused)],
                                uses[int(ConnectionUse::Prewarmed)]);
                    std::fflush(stdout);
                }
                const auto name = [](int i) {
                    static const char *const more[] = {"late", "us/event", "load"};
                    return i < kTimingFigures ? kTimingFigureNames[i] : more[i - kTimingFigures];
                };
                std::printf("= %s %s %d streams (median [min – max] of %d runs):",
                            qPrintable(transport), qPrintable(modeName), streams, runs);
                for (int i = 0; i < 16; ++i)
                    std::printf("%s %s %s", i ? ";" : "", name(i),
                                mmm(f.v[i], i == 13 ? 0 : 3).constData());
                std::printf("\n");
                std::fflush(stdout);
            }
        }
    }
    return 0;
}
