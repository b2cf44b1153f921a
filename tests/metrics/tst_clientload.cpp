// The client's verdict on itself (docs/performance.md, "The client checks itself") on synthetic
// samples and records: a thread above 90 % of a core over a sample window, or lateness growing
// through the run, makes the run's client the bottleneck; all threads under 50 % and a flat
// lateness do not; the verdict read back from the stored JSON is the same.
#include "config/runplan.h"
#include "metrics/clienthealth.h"
#include "metrics/clientload.h"
#include "metrics/requestrecord.h"

#include <QJsonDocument>
#include <QTest>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace sb;

Q_DECLARE_METATYPE(sb::ClientLoadSamples)

namespace {

// Windows of 1 s; per thread its busy shares as (on-CPU, wait) pairs per window.
struct ThreadSpec
{
    QString name;
    QList<QPair<double, double>> shares;
    bool withWait = true;
};

ClientLoadSamples samples(const QList<ThreadSpec> &threads, double lastWindowSeconds = 1.0)
{
    ClientLoadSamples s;
    s.intervalMs = 1000;
    qsizetype windows = 0;
    for (const ThreadSpec &t : threads)
        windows = std::max(windows, t.shares.size());
    for (qsizetype i = 0; i < windows; ++i) {
        ClientLoadWindow w;
        w.seconds = i + 1 == windows ? lastWindowSeconds : 1.0;
        w.endS = double(i) + w.seconds;
        s.windows.append(w);
    }
    qint64 tid = 100;
    for (const ThreadSpec &t : threads) {
        ClientThreadSeries series;
        series.name = t.name;
        series.tid = tid++;
        series.source = t.withWait ? u"schedstat"_s : u"cpu-clock"_s;
        for (qsizetype i = 0; i < t.shares.size(); ++i) {
            const double secs = s.windows.at(i).seconds;
            series.cpuMs.append(t.shares.at(i).first * secs * 1000.0);
            if (t.withWait)
                series.waitMs.append(t.shares.at(i).second * secs * 1000.0);
        }
        s.threads.append(series);
    }
    return s;
}

QList<QPair<double, double>> flat(int n, double cpu, double wait)
{
    return QList<QPair<double, double>>(n, {cpu, wait});
}

// Open-loop requests at `rate` for `seconds`; request i is sent lateMs(t) after its schedule.
QList<RequestRecord> sends(double rate, double seconds, const std::function<double(double)> &lateMs)
{
    QList<RequestRecord> out;
    const qint64 t0 = 1'000'000'000;
    const int n = int(rate * seconds);
    for (int i = 0; i < n; ++i) {
        const double t = double(i) / rate;
        RequestRecord r;
        r.index = i;
        r.tSched = t0 + qint64(t * 1e9);
        r.tQueued = r.tSched;
        r.tDispatch = r.tSched;
        r.tSend = r.tSched + qint64(lateMs(t) * 1e6);
        r.tFirst = r.tSend + 20'000'000;
        r.tLast = r.tFirst + 10'000'000;
        r.tEnd = r.tLast;
        r.chunkTimes = {r.tFirst, r.tLast};
        r.chunkTokens = {1, 1};
        r.outputTokens = 2;
        r.outputSource = TokenSource::ServerUsage;
        out.append(r);
    }
    return out;
}

} // namespace

class TestClientLoad : public QObject
{
    Q_OBJECT
private slots:
    void threadBusy_data()
    {
        QTest::addColumn<ClientLoadSamples>("samples");
        QTest::addColumn<bool>("busy");
        QTest::addColumn<QString>("thread");
        QTest::addColumn<double>("share");

        QTest::newRow("all under 50 %") << samples({{u"dispatcher"_s, flat(6, 0.05, 0.01)},
                                                    {u"socket-worker-0"_s, flat(6, 0.40, 0.05)},
                                                    {u"store-writer"_s, flat(6, 0.10, 0.02)}})
                                        << false << u"socket-worker-0"_s << 0.45;
        // Starved beside a CPU hog: half on the CPU, the rest waiting in the run queue.
        QList<QPair<double, double>> starved = flat(6, 0.30, 0.05);
        starved[3] = {0.50, 0.45};
        QTest::newRow("one thread at 95 %")
            << samples({{u"dispatcher"_s, flat(6, 0.05, 0.01)}, {u"socket-worker-0"_s, starved}})
            << true << u"socket-worker-0"_s << 0.95;
        // On the CPU alone 60 %: the wait is what shows the thread wanted the core.
        QTest::newRow("on-CPU 60 %, waiting 35 %")
            << samples({{u"socket-worker-0"_s, flat(4, 0.60, 0.35)}}) << true
            << u"socket-worker-0"_s << 0.95;
        QTest::newRow("exactly 90 % is not above")
            << samples({{u"dispatcher"_s, flat(4, 0.60, 0.30)}}) << false << u"dispatcher"_s
            << 0.90;
        // The last window of 0.3 s (under half the interval) is not judged.
        QList<QPair<double, double>> lastBurst = flat(4, 0.20, 0.0);
        lastBurst[3] = {1.0, 0.0};
        QTest::newRow("short last window not judged")
            << samples({{u"store-writer"_s, lastBurst}}, 0.3) << false << u"store-writer"_s << 0.20;
        // Without schedstat only the CPU time is known.
        QTest::newRow("cpu-clock fallback at 95 %")
            << samples({{u"socket-worker-0"_s, flat(3, 0.95, 0.0), false}}) << true
            << u"socket-worker-0"_s << 0.95;
        QTest::newRow("not sampled") << ClientLoadSamples() << false << QString() << 0.0;
    }
    void threadBusy()
    {
        QFETCH(ClientLoadSamples, samples);
        QFETCH(bool, busy);
        QFETCH(QString, thread);
        QFETCH(double, share);
        const ThreadBusyVerdict v = judgeThreadBusy(samples);
        QCOMPARE(v.busy, busy);
        QCOMPARE(v.thread, thread);
        QVERIFY2(std::abs(v.share - share) < 1e-9, qPrintable(QString::number(v.share)));
        // What the run stores is what a later reader judges.
        const QJsonObject stored =
            QJsonDocument::fromJson(QJsonDocument(samples.toJson()).toJson()).object();
        QCOMPARE(judgeThreadBusy(ClientLoadSamples::fromJson(stored)).toJson(), v.toJson());
    }

    void lag_data()
    {
        QTest::addColumn<QList<double>>("p99");
        QTest::addColumn<bool>("evaluated");
        QTest::addColumn<bool>("growing");
        QTest::newRow("flat lag, noisy")
            << QList<double>{1.2, 0.8, 2.5, 1.1, 0.9, 3.0, 1.4, 1.0} << true << false;
        QTest::newRow("growing lag")
            << QList<double>{1, 20, 45, 70, 90, 120, 140, 170} << true << true;
        // Late all the time but not falling further behind: a lateness warning, not this.
        QTest::newRow("flat high lag")
            << QList<double>{52, 49, 55, 50, 51, 48, 53, 50} << true << false;
        // Measured on a quiet core (tests/run/tst_clientbottleneck): two late seconds mid-run
        // lift the last quarter, but the fitted line does not rise.
        QTest::newRow("late spell mid-run")
            << QList<double>{1.06, 1.67, 2.05, 66.7, 26.4, 1.26} << true << false;
        QTest::newRow("one stalled second")
            << QList<double>{1, 1, 2, 400, 1, 2, 1, 1} << true << false;
        QTest::newRow("growing by less than 10 ms")
            << QList<double>{1, 2, 3, 4, 5, 6, 7, 8} << true << false;
        QTest::newRow("recovering lag")
            << QList<double>{150, 120, 90, 60, 30, 10, 2, 1} << true << false;
        QTest::newRow("too few seconds") << QList<double>{1, 50, 100, 200} << false << false;
    }
    void lag()
    {
        QFETCH(QList<double>, p99);
        QFETCH(bool, evaluated);
        QFETCH(bool, growing);
        QList<double> t;
        for (qsizetype i = 0; i < p99.size(); ++i)
            t.append(double(i));
        const LagTrend trend = lagTrend(t, p99);
        QCOMPARE(trend.evaluated, evaluated);
        QVERIFY2(trend.growing == growing,
                 qPrintable(u"slope %1 start %2 end %3"_s.arg(trend.slopeMsPerS)
                                .arg(trend.startMs)
                                .arg(trend.endMs)));
    }

    // The whole verdict from records and samples, as deriveRun makes it: a bottleneck names
    // itself in the warnings (the summary, the result JSON, the workbench and the report show
    // those) and in client_health's "bottleneck".
    void healthVerdict_data()
    {
        QTest::addColumn<QList<RequestRecord>>("records");
        QTest::addColumn<ClientLoadSamples>("samples");
        QTest::addColumn<bool>("bottleneck");
        QTest::addColumn<QString>("warning");
        const auto quiet = [](double) {
            return 0.3;
        };
        const ClientLoadSamples calm = samples({{u"socket-worker-0"_s, flat(8, 0.2, 0.01)}});
        QTest::newRow("quiet") << sends(200, 8, quiet) << calm << false << QString();
        // 0.3 ms, then 25 ms more every second: the client falls further behind.
        QTest::newRow("growing lag") << sends(200, 8, [](double t) { return 0.3 + 25 * t; }) << calm
                                     << true << u"its lateness grew through the run"_s;
        QTest::newRow("thread at 95 %")
            << sends(200, 8, quiet)
            << samples({{u"socket-worker-0"_s, {{0.2, 0}, {0.5, 0.45}, {0.2, 0}}}}) << true
            << u"its thread socket-worker-0 wanted the CPU 95 %"_s;
    }
    void healthVerdict()
    {
        QFETCH(QList<RequestRecord>, records);
        QFETCH(ClientLoadSamples, samples);
        QFETCH(bool, bottleneck);
        QFETCH(QString, warning);
        LoadProfile profile;
        profile.requestRate = 200;
        profile.numPrompts = int(records.size());
        const ClientHealth h = assessClientHealth(records, profile, samples);
        QCOMPARE(h.bottleneck(), bottleneck);
        QCOMPARE(h.toJson().value(u"bottleneck"_s).toBool(), bottleneck);
        if (warning.isEmpty()) {
            QVERIFY2(h.ok(), qPrintable(h.warnings.join(u'\n')));
        } else {
            QVERIFY2(h.warnings.join(u'\n').contains(warning), qPrintable(h.warnings.join(u'\n')));
            QVERIFY(
                h.warnings.join(u'\n').contains(u"the client, not the SUT, limited this run"_s));
        }
    }
};

QTEST_GUILESS_MAIN(TestClientLoad)
#include "tst_clientload.moc"
