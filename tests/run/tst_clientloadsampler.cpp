// The sampler of the client's own threads (core/run/clientloadsampler.h, docs/performance.md,
// "The client checks itself"): a registered thread that spins is seen wanting the CPU all the
// time (on a CPU or waiting for one: the sum does not depend on how loaded the machine is), a
// registered thread that sleeps is seen idle, a thread that exits leaves the census, and the
// dispatcher's wake-up lateness lands in the window it was noted in.
#include "common/clock.h"
#include "common/threadcensus.h"
#include "metrics/clientload.h"
#include "run/clientloadsampler.h"

#include <QFile>
#include <QTest>

#include <atomic>
#include <thread>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

bool schedstatReadable()
{
    QFile f(u"/proc/self/schedstat"_s);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QList<QByteArray> parts = f.readAll().trimmed().split(' ');
    return parts.size() >= 2 && (parts.at(0).toLongLong() > 0 || parts.at(1).toLongLong() > 0);
}

const ClientThreadSeries *seriesNamed(const ClientLoadSamples &s, const QString &name)
{
    for (const ClientThreadSeries &t : s.threads)
        if (t.name == name)
            return &t;
    return nullptr;
}

bool inCensus(const QString &name)
{
    for (const CensusThread &t : censusThreads())
        if (t.name == name)
            return true;
    return false;
}

} // namespace

class TestClientLoadSampler : public QObject
{
    Q_OBJECT
private slots:
    void spinnerIsBusySleeperIsNot()
    {
        std::atomic<bool> stop{false};
        std::atomic<int> enrolled{0};
        std::thread spinner([&] {
            enrollThisThread(u"test-spinner"_s);
            ++enrolled;
            volatile quint64 x = 0;
            while (!stop.load(std::memory_order_relaxed))
                x = x + 1;
        });
        std::thread sleeper([&] {
            enrollThisThread(u"test-sleeper"_s);
            ++enrolled;
            while (!stop.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        });
        while (enrolled.load() < 2)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));

        ClientLoadSampler sampler(250'000'000);
        QList<ClientLoadTick> ticks;
        std::mutex tickMutex;
        sampler.setOnTick([&](const ClientLoadTick &t) {
            std::lock_guard lock(tickMutex);
            ticks.append(t);
        });
        sampler.start(monotonicNs());
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        for (int i = 0; i < 5; ++i)
            sampler.noteWake(qint64(i + 1) * 1'000'000); // 1..5 ms, in the second window
        std::this_thread::sleep_for(std::chrono::milliseconds(1000));
        const ClientLoadSamples s = sampler.stop();
        stop = true;
        spinner.join();
        sleeper.join();

        QCOMPARE(s.intervalMs, 250);
        QVERIFY2(s.windows.size() >= 4, qPrintable(QString::number(s.windows.size())));
        const ClientThreadSeries *spin = seriesNamed(s, u"test-spinner"_s);
        const ClientThreadSeries *sleep = seriesNamed(s, u"test-sleeper"_s);
        QVERIFY(spin && sleep);
        QCOMPARE(spin->firstWindow, 0);
        QCOMPARE(spin->cpuMs.size(), s.windows.size());
        if (!schedstatReadable())
            QSKIP("no /proc/self/schedstat: only the CPU-time clock, whose share depends on "
                  "the machine's load");
        QCOMPARE(spin->source, u"schedstat"_s);
        QCOMPARE(spin->waitMs.size(), spin->cpuMs.size());
        for (int i = 0; i < s.windows.size(); ++i) {
            const ClientLoadWindow &w = s.windows.at(i);
            if (w.seconds < 0.2)
                continue; // the last, partial window
            const double spinShare = spin->busyShare(i, w.seconds);
            const double sleepShare = sleep->busyShare(i, w.seconds);
            QVERIFY2(spinShare > 0.9 && spinShare < 1.1,
                     qPrintable(u"window %1: spinner %2"_s.arg(i).arg(spinShare)));
            QVERIFY2(sleepShare < 0.2,
                     qPrintable(u"window %1: sleeper %2"_s.arg(i).arg(sleepShare)));
        }
        const ThreadBusyVerdict v = judgeThreadBusy(s);
        QVERIFY(v.busy);
        QCOMPARE(v.thread, u"test-spinner"_s);
        // The five wake-ups were noted in one window, none in any other.
        qint64 wakes = 0;
        for (const ClientLoadWindow &w : s.windows) {
            wakes += w.wakeCount;
            if (w.wakeCount > 0) {
                QCOMPARE(w.wakeCount, 5);
                QCOMPARE(w.wakeLateMaxMs, 5.0);
                QCOMPARE(w.wakeLateMeanMs, 3.0);
            }
        }
        QCOMPARE(wakes, 5);
        {
            std::lock_guard lock(tickMutex);
            QVERIFY(!ticks.isEmpty());
            QCOMPARE(ticks.constFirst().thread, u"test-spinner"_s);
        }
        // The threads have ended: they left the census.
        QVERIFY(!inCensus(u"test-spinner"_s));
        QVERIFY(!inCensus(u"test-sleeper"_s));
    }

    void stoppedBeforeTheRunBeganHasNoWindows()
    {
        ClientLoadSampler sampler;
        sampler.start(monotonicNs() + 10'000'000'000);
        const ClientLoadSamples s = sampler.stop();
        QVERIFY(!s.sampled());
    }
};

QTEST_GUILESS_MAIN(TestClientLoadSampler)
#include "tst_clientloadsampler.moc"
