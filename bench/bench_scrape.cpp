// Does scraping the SUT's /metrics beside a run disturb the client's timing? The same runs
// against the simulator (in a child process), without a scraper and with a MetricsScraper on
// the simulator's /metrics and /dcgm/metrics every 500 ms (the default) and every 50 ms (ten
// times as often, to make any effect visible).
//   bench_scrape [seconds-per-run=4] [runs=3]
// Schedule lag = t_send - t_sched over Poisson arrivals at 1000 req/s (4-token outputs, 1 ms
// TTFT and ITL). TTFT error = client receive time of the first token - the simulator's own write
// time of it (both CLOCK_MONOTONIC), over 100 closed-loop streams (50 ms TTFT, 10 ms ITL, 50
// tokens). Median [min – max] of each run's statistic; the variants alternate run by run.
#include "benchutil.h"

#include "servermetrics/metricsscraper.h"
#include "servermetrics/seriescodec.h"

using namespace bench;

namespace {

struct Variant
{
    const char *name;
    int intervalMs; // 0: no scraper
};

struct ScrapeFigures
{
    int scrapes = 0;
    int failed = 0;
    double meanDurationMs = 0;
    qint64 bytes = 0;     // payload bytes read
    qint64 blobBytes = 0; // the stored blobs (encodeSeriesStore) of every target
    qint64 points = 0;
};

std::unique_ptr<MetricsScraper> startScraper(const QString &base, int intervalMs)
{
    if (intervalMs == 0)
        return nullptr;
    auto s = std::make_unique<MetricsScraper>();
    ScraperOptions o;
    o.intervalMs = intervalMs;
    o.timeoutMs = intervalMs * 6 / 10;
    s->setOptions(o);
    s->setTargets(
        {{QStringLiteral("sut"), QUrl(base + QStringLiteral("/metrics")), {}, true},
         {QStringLiteral("dcgm"), QUrl(base + QStringLiteral("/dcgm/metrics")), {}, false}});
    QString error;
    if (!s->start(&error))
        std::fprintf(stderr, "scraper: %s\n", qPrintable(error));
    return s;
}

ScrapeFigures stopScraper(MetricsScraper *s)
{
    ScrapeFigures f;
    if (!s)
        return f;
    s->stop();
    double total = 0;
    for (const MetricSeriesStore &store : s->stores()) {
        f.blobBytes += encodeSeriesStore(store).size();
        f.points += store.pointCount();
        for (const ScrapeRecord &r : store.scrapes()) {
            ++f.scrapes;
            f.failed += r.ok() ? 0 : 1;
            total += nsToMs(r.durationNs);
            f.bytes += r.bytes;
        }
    }
    f.meanDurationMs = f.scrapes ? total / f.scrapes : 0;
    return f;
}

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
    const Variant variants[] = {{"none", 0}, {"500 ms", 500}, {"50 ms", 50}};
    printHost();
    std::printf("# scraping beside a run: %.1f s per run, %d runs per variant, alternating\n",
                seconds, runs);

    // --- schedule lag: open loop, Poisson 1000 req/s -------------------------------------
    std::printf("\n%-8s %-24s %-24s %-24s %-18s %-16s %-18s %s\n", "scraper", "lag p50 (ms)",
                "lag p99 (ms)", "lag max (ms)", "scrapes (failed)", "scrape ms, KB",
                "stored B/scrape", "scraper CPU %");
    {
        std::vector<double> p50[3], p99[3], pmax[3], cpu[3];
        ScrapeFigures figs[3];
        for (int i = 0; i < runs; ++i) {
            for (int v = 0; v < 3; ++v) {
                sim.configure(1, 1, false, false);
                RunPlan p = plan(sim.url());
                p.profile.requestRate = 1000;
                p.profile.arrival = ArrivalProcess::Poisson;
                p.profile.numPrompts = int(1000 * seconds);
                p.profile.seed = quint64(i + 1);
                auto scraper = startScraper(sim.url(), variants[v].intervalMs);
                const QMap<QByteArray, double> cpu0 = threadCpu();
                const EngineRun r = runEngine(p, items(1000, 4), TransportKind::Socket, 120000);
                // The scraper's thread and the network manager's own HTTP thread.
                double scraperCpu = 0;
                for (const QByteArray &name :
                     {QByteArray("sb-scraper"), QByteArray("QNetworkAccessM")})
                    scraperCpu += r.threadCpu.value(name) - cpu0.value(name);
                cpu[v].push_back(r.seconds > 0 ? 100.0 * scraperCpu / r.seconds : 0);
                const ScrapeFigures f = stopScraper(scraper.get());
                figs[v].blobBytes += f.blobBytes;
                figs[v].points += f.points;
                figs[v].scrapes += f.scrapes;
                figs[v].failed += f.failed;
                figs[v].meanDurationMs += f.meanDurationMs / runs;
                figs[v].bytes += f.bytes;
                std::vector<double> lag;
                for (const RequestRecord &rec : std::as_const(r.records)) {
                    if (rec.tSend)
                        lag.push_back(nsToMs(rec.tSend - rec.tSched));
                }
                p50[v].push_back(percentile(lag, 50));
                p99[v].push_back(percentile(lag, 99));
                pmax[v].push_back(percentile(lag, 100));
            }
        }
        for (int v = 0; v < 3; ++v) {
            const QByteArray scrapes = QByteArray::number(figs[v].scrapes) + " (" +
                                       QByteArray::number(figs[v].failed) + ")";
            const QByteArray transfer =
                QByteArray::number(figs[v].meanDurationMs, 'f', 2) + ", " +
                QByteArray::number(
                    figs[v].scrapes ? double(figs[v].bytes) / figs[v].scrapes / 1024 : 0.0, 'f', 1);
            const QByteArray stored =
                figs[v].scrapes
                    ? QByteArray::number(double(figs[v].blobBytes) / figs[v].scrapes, 'f', 0) +
                          " (" +
                          QByteArray::number(double(figs[v].blobBytes) /
                                                 double(qMax<qint64>(1, figs[v].points)),
                                             'f', 2) +
                          "/pt)"
                    : QByteArray("-");
            std::printf("%-8s %-24s %-24s %-24s %-18s %-16s %-18s %s\n", variants[v].name,
                        mmm(p50[v], 3).constData(), mmm(p99[v], 3).constData(),
                        mmm(pmax[v], 3).constData(), scrapes.constData(), transfer.constData(),
                        stored.constData(), mmm(cpu[v], 2).constData());
            std::fflush(stdout);
        }
    }

    // --- TTFT error: closed loop, 100 streams ---------------------------------------------
    std::printf("\n%-8s %-24s %-24s %-24s %-24s %s\n", "scraper", "TTFT err mean (ms)",
                "TTFT err p99 (ms)", "event err p99 (ms)", "TTFT p50 (ms)", "failed");
    {
        constexpr int kTokens = 50;
        std::vector<double> tMean[3], tP99[3], eP99[3], ttft50[3];
        qint64 failed[3] = {};
        for (int i = 0; i < runs; ++i) {
            for (int v = 0; v < 3; ++v) {
                sim.configure(50, 10, false, true);
                RunPlan p = plan(sim.url());
                p.profile.closedLoopConcurrency = 100;
                p.profile.durationS = seconds;
                p.profile.numPrompts = 0;
                auto scraper = startScraper(sim.url(), variants[v].intervalMs);
                const EngineRun r =
                    runEngine(p, items(1000, kTokens), TransportKind::Socket, 180000);
                stopScraper(scraper.get());
                const QHash<QString, LogEntry> log = sim.log();
                std::vector<double> ttftErr, evErr, ttft;
                for (const RequestRecord &rec : std::as_const(r.records)) {
                    if (!rec.ok())
                        continue;
                    const auto it = log.constFind(rec.requestId);
                    if (it == log.constEnd() || it->chunkWriteNs.size() != rec.chunkTimes.size())
                        continue;
                    ttftErr.push_back(nsToMs(rec.tFirst - it->tFirstWrite));
                    ttft.push_back(nsToMs(rec.tFirst - rec.tSend));
                    for (int k = 0; k < rec.chunkTimes.size(); ++k)
                        evErr.push_back(nsToMs(rec.chunkTimes[k] - it->chunkWriteNs[k]));
                }
                failed[v] += r.failed;
                tMean[v].push_back(mean(ttftErr));
                tP99[v].push_back(percentile(ttftErr, 99));
                eP99[v].push_back(percentile(evErr, 99));
                ttft50[v].push_back(percentile(ttft, 50));
            }
        }
        for (int v = 0; v < 3; ++v) {
            std::printf("%-8s %-24s %-24s %-24s %-24s %lld\n", variants[v].name,
                        mmm(tMean[v], 3).constData(), mmm(tP99[v], 3).constData(),
                        mmm(eP99[v], 3).constData(), mmm(ttft50[v], 3).constData(),
                        qint64(failed[v]));
            std::fflush(stdout);
        }
    }
    printHost();
    return 0;
}
