// 2,000 streams open at once against the built-in simulator, through the default (socket)
// transport: every request completes, whole and in order, and the simulator saw all 2,000
// connections open and all 2,000 streams being generated at the same time. The simulator's TTFT
// (4 s) is longer than it takes to open every stream, so they overlap by construction.
//
// The test raises its own descriptor limit (each stream is one socket on each side of the
// loopback, both in this process) and says so when the hard limit is too low.

#include "data/dataset.h"
#include "metrics/requestrecord.h"
#include "run/runcontroller.h"
#include "sim/simulator.h"

#include <QSignalSpy>
#include <QTest>

#include <sys/resource.h>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

constexpr int kStreams = 2000;
constexpr int kOutputTokens = 4;

} // namespace

class TestStreams2000 : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Two descriptors per stream (client and server socket) plus the process's own.
        const rlim_t need = 2 * kStreams + 512;
        rlimit rl{};
        QVERIFY(getrlimit(RLIMIT_NOFILE, &rl) == 0);
        if (rl.rlim_cur < need) {
            QVERIFY2(rl.rlim_max >= need,
                     qPrintable(u"the hard descriptor limit (%1) is below the %2 this test needs: "
                                "raise it (ulimit -Hn) for the test user"_s.arg(rl.rlim_max)
                                    .arg(need)));
            rl.rlim_cur = need;
            QVERIFY(setrlimit(RLIMIT_NOFILE, &rl) == 0);
        }
    }

    void twoThousandConcurrentStreamsAllComplete()
    {
        SimConfig cfg;
        cfg.ttftMs = 4000; // longer than opening every stream takes: all are open at once
        cfg.itlMs = 20;
        cfg.recordLog = false;
        Simulator sim(cfg);
        QVERIFY2(sim.start(), qPrintable(sim.errorString()));

        RunPlan plan;
        plan.name = u"2000 streams"_s;
        plan.sut.name = u"built-in simulator"_s;
        plan.sut.baseUrl = sim.baseUrl().toString();
        plan.sut.model = u"servebench-sim"_s;
        plan.sut.builtInSimulator = true;
        plan.profile.numPrompts = kStreams;
        plan.profile.maxConcurrency = kStreams;
        plan.profile.requestRate = std::numeric_limits<double>::infinity();
        plan.profile.timeoutS = 60;
        plan.params.ignoreEos = true;
        QList<PromptItem> items;
        for (int i = 0; i < kStreams; ++i) {
            PromptItem it;
            it.prompt = u"stream %1 of the scale test"_s.arg(i);
            it.inputTokens = 6;
            it.outputTokens = kOutputTokens;
            it.sourceIndex = i;
            items.append(it);
        }

        RunController controller;
        controller.setTransportKind(TransportKind::Socket);
        controller.configure(plan, items, {});
        QSignalSpy finished(&controller, &RunController::finished);
        QString error;
        QVERIFY2(controller.start(&error), qPrintable(error));
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().at(0).value<RunStatus>(), RunStatus::Completed);

        // Every request completed, each with all its tokens, none twice and none lost.
        const QList<RequestRecord> &records = controller.records();
        QCOMPARE(records.size(), kStreams);
        QList<bool> seen(kStreams, false);
        qint64 failed = 0;
        QString firstFailure;
        for (const RequestRecord &r : records) {
            QVERIFY(r.index >= 0 && r.index < kStreams);
            QVERIFY2(!seen[r.index], qPrintable(u"request %1 recorded twice"_s.arg(r.index)));
            seen[r.index] = true;
            if (!r.ok()) {
                if (failed++ == 0)
                    firstFailure = u"%1: %2"_s.arg(QString::fromLatin1(errorClassName(r.error)),
                                                   r.errorMessage);
                continue;
            }
            QCOMPARE(r.outputTokens, kOutputTokens);
            QCOMPARE(r.chunkTimes.size(), kOutputTokens);
        }
        QVERIFY2(failed == 0,
                 qPrintable(
                     u"%1 of %2 requests failed, the first with %3"_s.arg(failed).arg(kStreams).arg(
                         firstFailure)));

        // They were all open at the same time, as the server saw it.
        qInfo("peak: %d connections open, %d streams generating at once", sim.maxOpenConnections(),
              sim.maxActiveStreams());
        QVERIFY2(sim.maxOpenConnections() >= kStreams,
                 qPrintable(QString::number(sim.maxOpenConnections())));
        // One connection per stream: the client opened no more than it needed (and the checks
        // before the run, at most a couple).
        QVERIFY2(sim.maxOpenConnections() <= kStreams + 2,
                 qPrintable(QString::number(sim.maxOpenConnections())));
        QCOMPARE(sim.maxActiveStreams(), kStreams);
        sim.stop();
    }
};

QTEST_GUILESS_MAIN(TestStreams2000)
#include "tst_streams2000.moc"
