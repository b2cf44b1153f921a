// Client memory per open stream: 1,000 and 10,000 streams held open at once (the simulator's
// TTFT is 120 s, so nothing finishes), RSS of the measuring process (the simulator runs in a
// child) before the run and once every stream is open, divided by the streams. Each measurement
// runs in a fresh process.
//   bench_memory [runs=3] [max-streams=10000]
// Exits 1 when any measurement failed: a child that crashed, timed out, printed something else
// than its figures, opened fewer streams than asked or saw a request end before the stop. Each
// failure is named on stderr; a figure is never computed from fewer runs silently.
#include "benchutil.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QThread>

using namespace bench;
using namespace Qt::StringLiterals;

namespace {

// One measurement in a fresh process: a second run in the same process would reuse the
// allocator's free memory and report almost nothing.
int measureOne(int argc, char **argv, TransportKind kind, int streams)
{
    SimChild sim;
    if (!sim.spawn(argc, argv)) {
        std::fprintf(stderr, "cannot start the simulator child\n");
        return 1;
    }
    QCoreApplication app(argc, argv);
    raiseFdLimit();
    sim.configure(120000, 10, false, false);
    RunPlan p = plan(sim.url());
    p.profile.numPrompts = streams;
    p.profile.maxConcurrency = streams;
    p.profile.timeoutS = 600;
    RunController c;
    c.setTransportKind(kind);
    c.configure(p, items(1000, 16), {});
    const double before = rssKb();
    QString error;
    if (!c.start(&error)) {
        std::fprintf(stderr, "start failed: %s\n", qPrintable(error));
        return 1;
    }
    QElapsedTimer t;
    t.start();
    SimReply st;
    while (t.elapsed() < 60000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        st = sim.stats();
        if (st.activeStreams >= streams || c.completed() > 0)
            break;
        QThread::msleep(50);
    }
    const double opened = double(t.elapsed()) / 1000.0;
    for (int k = 0; k < 10; ++k) { // the client's side of the last connections settles
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(20);
    }
    const double after = rssKb();
    st = sim.stats();
    // Nothing may finish before stop(): any record now is an error.
    const qint64 completed = c.completed();
    std::printf("%f %f %d %lld\n", (after - before) / streams, opened, st.activeStreams, completed);
    std::fflush(stdout);
    QEventLoop loop;
    QObject::connect(&c, &RunController::finished, &loop, &QEventLoop::quit);
    c.stop();
    if (c.status() == RunStatus::Running)
        loop.exec();
    if (st.activeStreams < streams || completed > 0) {
        std::fprintf(stderr, "%d of %d streams open after %.1f s, %lld requests ended early\n",
                     st.activeStreams, streams, opened, completed);
        return 3;
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 4 && qstrcmp(argv[1], "--one") == 0)
        return measureOne(
            argc, argv, qstrcmp(argv[2], "qnam") == 0 ? TransportKind::Qnam : TransportKind::Socket,
            std::atoi(argv[3]));
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::atoi(argv[1]) : 3;
    const int maxStreams = argc > 2 ? std::atoi(argv[2]) : 10000;
    int failures = 0;
    printHost();
    std::printf(
        "# memory: streams held open (TTFT 120 s), RSS growth of the client / streams, %d runs "
        "(each in a fresh process)\n",
        runs);
    std::printf("%-8s %7s  %-28s %-28s %-20s %s\n", "transport", "streams", "RSS per stream (KB)",
                "time to open all (s)", "open at peak", "errors before stop");
    for (TransportKind kind : {TransportKind::Socket, TransportKind::Qnam}) {
        for (int streams : {1000, 10000}) {
            if (streams > maxStreams || (kind == TransportKind::Qnam && streams > 1000))
                continue;
            std::vector<double> perStream, openTime, peak;
            qint64 errors = 0;
            for (int i = 0; i < runs; ++i) {
                QProcess one;
                one.setProcessChannelMode(QProcess::ForwardedErrorChannel);
                one.start(QCoreApplication::applicationFilePath(),
                          {u"--one"_s, QString::fromLatin1(transportKindName(kind)),
                           QString::number(streams)});
                const auto failed = [&](const char *why) {
                    ++failures;
                    std::fprintf(stderr, "FAILED: %s %d streams, run %d: %s\n",
                                 transportKindName(kind), streams, i + 1, why);
                };
                if (!one.waitForFinished(180000)) {
                    one.kill();
                    one.waitForFinished();
                    failed("timed out after 180 s");
                    continue;
                }
                if (one.exitStatus() != QProcess::NormalExit) {
                    failed("the measuring process crashed");
                    continue;
                }
                const QList<QByteArray> f = one.readAllStandardOutput().trimmed().split(' ');
                bool ok = f.size() == 4;
                for (qsizetype k = 0; ok && k < f.size(); ++k)
                    f.at(k).toDouble(&ok);
                if (!ok) {
                    failed("printed something other than its four figures");
                    continue;
                }
                errors += f[3].toLongLong();
                if (one.exitCode() != 0) {
                    failed("not every stream was open, or a request ended before the stop");
                    continue;
                }
                perStream.push_back(f[0].toDouble());
                openTime.push_back(f[1].toDouble());
                peak.push_back(f[2].toDouble());
            }
            std::printf("%-8s %7d  %-28s %-28s %-20s %lld\n", transportKindName(kind), streams,
                        mmm(perStream, 1).constData(), mmm(openTime, 2).constData(),
                        mmm(peak, 0).constData(), qint64(errors));
            std::fflush(stdout);
        }
    }
    if (failures > 0) {
        std::printf("# %d measurement(s) FAILED: the figures above leave them out\n", failures);
        return 1;
    }
    return 0;
}
