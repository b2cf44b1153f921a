#include "config/runplan.h"
#include "load/schedule.h"

#include <QTest>

#include <cmath>
#include <limits>

Q_DECLARE_METATYPE(sb::LoadProfile)

using namespace sb;
using namespace Qt::StringLiterals;

namespace {

LoadProfile profile(ArrivalProcess a, double rate, double burstiness = 1.0)
{
    LoadProfile p;
    p.arrival = a;
    p.requestRate = rate;
    p.burstiness = burstiness;
    return p;
}

QList<double> gapsS(const QList<qint64> &offsets)
{
    QList<double> g;
    qint64 prev = 0;
    for (qint64 o : offsets) {
        g.append(double(o - prev) / 1e9);
        prev = o;
    }
    return g;
}

double mean(const QList<double> &v, qsizetype from = 0, qsizetype count = -1)
{
    if (count < 0)
        count = v.size() - from;
    double s = 0;
    for (qsizetype i = from; i < from + count; ++i)
        s += v.at(i);
    return s / double(count);
}

double cv(const QList<double> &v)
{
    const double m = mean(v);
    double ss = 0;
    for (double x : v)
        ss += (x - m) * (x - m);
    return std::sqrt(ss / double(v.size())) / m;
}

bool nonDecreasing(const QList<qint64> &v)
{
    for (qsizetype i = 1; i < v.size(); ++i)
        if (v.at(i) < v.at(i - 1))
            return false;
    return v.isEmpty() || v.first() >= 0;
}

} // namespace

class TestSchedule : public QObject
{
    Q_OBJECT
private slots:
    void process_data()
    {
        QTest::addColumn<int>("arrival");
        QTest::addColumn<double>("rate");
        QTest::addColumn<double>("burstiness");
        QTest::addColumn<double>("expectCv");
        QTest::newRow("constant 10/s") << int(ArrivalProcess::Constant) << 10.0 << 1.0 << 0.0;
        QTest::newRow("poisson 10/s") << int(ArrivalProcess::Poisson) << 10.0 << 1.0 << 1.0;
        QTest::newRow("poisson 250/s") << int(ArrivalProcess::Poisson) << 250.0 << 1.0 << 1.0;
        QTest::newRow("gamma b=0.25") << int(ArrivalProcess::Gamma) << 10.0 << 0.25 << 2.0;
        QTest::newRow("gamma b=1") << int(ArrivalProcess::Gamma) << 10.0 << 1.0 << 1.0;
        QTest::newRow("gamma b=4") << int(ArrivalProcess::Gamma) << 10.0 << 4.0 << 0.5;
        QTest::newRow("gamma b=inf")
            << int(ArrivalProcess::Gamma) << 10.0 << std::numeric_limits<double>::infinity() << 0.0;
    }

    void process()
    {
        QFETCH(int, arrival);
        QFETCH(double, rate);
        QFETCH(double, burstiness);
        QFETCH(double, expectCv);
        const LoadProfile p = profile(ArrivalProcess(arrival), rate, burstiness);
        QVERIFY(scheduleError(p).isEmpty());
        const int n = 50000;
        const QList<qint64> s = buildSchedule(p, n, 42);
        QCOMPARE(s.size(), n);
        QVERIFY(nonDecreasing(s));
        const QList<double> g = gapsS(s);
        // 50k gaps: standard error of the mean gap <= 0.9 %, of the CV <= 2 % (b = 0.25);
        // bounds of 3 % / 6 % cannot be missed by a fixed seed and would hold for nearly any.
        QVERIFY2(std::abs(mean(g) - 1 / rate) < 0.03 / rate, qPrintable(QString::number(mean(g))));
        if (expectCv == 0)
            QVERIFY2(cv(g) < 1e-6, qPrintable(QString::number(cv(g))));
        else
            QVERIFY2(std::abs(cv(g) - expectCv) < 0.06 * expectCv,
                     qPrintable(QString::number(cv(g))));
        // The first request waits one gap, as in vLLM.
        QVERIFY(s.first() > 0);
    }

    void constantIsExact()
    {
        const QList<qint64> s = buildSchedule(profile(ArrivalProcess::Constant, 4), 5, 1);
        QCOMPARE(s, (QList<qint64>{250000000, 500000000, 750000000, 1000000000, 1250000000}));
    }

    void seeds()
    {
        for (auto a : {ArrivalProcess::Poisson, ArrivalProcess::Gamma}) {
            const LoadProfile p = profile(a, 5, 0.5);
            const QList<qint64> s1 = buildSchedule(p, 1000, 7);
            QCOMPARE(buildSchedule(p, 1000, 7), s1);
            QVERIFY(buildSchedule(p, 1000, 8) != s1);
            // Without a ramp-up a shorter run is a prefix of a longer one.
            QCOMPARE(buildSchedule(p, 100, 7), s1.mid(0, 100));
        }
    }

    void unlimitedRateIsAllZero_data()
    {
        QTest::addColumn<int>("arrival");
        QTest::newRow("constant") << int(ArrivalProcess::Constant);
        QTest::newRow("poisson") << int(ArrivalProcess::Poisson);
        QTest::newRow("gamma") << int(ArrivalProcess::Gamma);
    }

    void unlimitedRateIsAllZero()
    {
        QFETCH(int, arrival);
        const LoadProfile p =
            profile(ArrivalProcess(arrival), std::numeric_limits<double>::infinity(), 0.5);
        QVERIFY(p.unlimitedRate());
        const QList<qint64> s = buildSchedule(p, 100, 3);
        QCOMPARE(s.size(), 100);
        QVERIFY(std::all_of(s.begin(), s.end(), [](qint64 v) { return v == 0; }));
    }

    void rampUp_data()
    {
        QTest::addColumn<int>("strategy");
        QTest::addColumn<double>("r0");
        QTest::addColumn<double>("r1");
        QTest::addColumn<double>("rMid");
        QTest::newRow("linear 2->20") << int(RampUpStrategy::Linear) << 2.0 << 20.0 << 11.0;
        QTest::newRow("exponential 1->100")
            << int(RampUpStrategy::Exponential) << 1.0 << 100.0 << 10.0;
    }

    void rampUp()
    {
        QFETCH(int, strategy);
        QFETCH(double, r0);
        QFETCH(double, r1);
        QFETCH(double, rMid);
        LoadProfile p = profile(ArrivalProcess::Constant, std::numeric_limits<double>::infinity());
        p.rampUpStrategy = RampUpStrategy(strategy);
        p.rampUpStartRps = r0;
        p.rampUpEndRps = r1;
        const int n = 20001; // odd: the middle request has progress exactly 0.5
        QCOMPARE(scheduledRate(p, 0, n), r0);
        QVERIFY(std::abs(scheduledRate(p, n / 2, n) - rMid) < 1e-9 * rMid);
        QVERIFY(std::abs(scheduledRate(p, n - 1, n) - r1) < 1e-9 * r1);

        // Constant arrivals: each gap is exactly 1/r_k (to the nanosecond rounding).
        const QList<double> g = gapsS(buildSchedule(p, n, 5));
        QVERIFY(std::abs(g.first() - 1 / r0) < 2e-9);
        QVERIFY(std::abs(g.at(n / 2) - 1 / rMid) < 2e-9);
        QVERIFY(std::abs(g.last() - 1 / r1) < 2e-9);

        // Poisson arrivals: the mean gap over 1000 requests at the start / middle / end matches
        // the mean of 1/r_k over the same requests (SE of a 1000-gap mean is 3.2 %; bound 15 %).
        p.arrival = ArrivalProcess::Poisson;
        const QList<qint64> s = buildSchedule(p, n, 11);
        QVERIFY(nonDecreasing(s));
        const QList<double> pg = gapsS(s);
        for (int from : {0, n / 2 - 500, n - 1000}) {
            double expected = 0;
            for (int k = from; k < from + 1000; ++k)
                expected += 1 / scheduledRate(p, k, n) / 1000;
            const double got = mean(pg, from, 1000);
            QVERIFY2(std::abs(got - expected) < 0.15 * expected,
                     qPrintable(u"window %1: %2 vs %3"_s.arg(from).arg(got).arg(expected)));
        }
        // A ramp ignores requestRate: the same seed gives the same schedule whatever the rate
        // says (here infinite, then 1000/s)...
        const QList<qint64> rampOnly = buildSchedule(p, 100, 11);
        p.requestRate = 1000;
        QCOMPARE(buildSchedule(p, 100, 11), rampOnly);
        QCOMPARE(scheduledRate(p, 0, n), r0);
        // ... while without the ramp the rate decides it (so the comparison above can fail).
        LoadProfile flat = p;
        flat.rampUpStrategy = RampUpStrategy::None;
        QVERIFY(buildSchedule(flat, 100, 11) != rampOnly);
    }

    void invalidProfiles_data()
    {
        QTest::addColumn<LoadProfile>("p");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("burstiness 0") << profile(ArrivalProcess::Gamma, 5, 0) << u"burstiness"_s;
        LoadProfile ramp0 = profile(ArrivalProcess::Poisson, 5);
        ramp0.rampUpStrategy = RampUpStrategy::Exponential;
        ramp0.rampUpStartRps = 0;
        ramp0.rampUpEndRps = 10;
        QTest::newRow("ramp from 0") << ramp0 << u"ramp-up start and end"_s;
        LoadProfile rampDown = ramp0;
        rampDown.rampUpStrategy = RampUpStrategy::Linear;
        rampDown.rampUpStartRps = 20;
        QTest::newRow("ramp down") << rampDown << u"exceeds end rate"_s;
        LoadProfile trace = profile(ArrivalProcess::Poisson, 5);
        trace.tracePath = u"x.jsonl"_s;
        QTest::newRow("trace") << trace << u"buildTraceSchedule"_s;
    }

    void invalidProfiles()
    {
        QFETCH(LoadProfile, p);
        QFETCH(QString, fragment);
        QVERIFY2(scheduleError(p).contains(fragment), qPrintable(scheduleError(p)));
        QVERIFY(buildSchedule(p, 10, 1).isEmpty());
    }

    void profileJsonRoundTripsNewFields()
    {
        LoadProfile p = profile(ArrivalProcess::Gamma, 3, 0.5);
        p.rampUpStrategy = RampUpStrategy::Exponential;
        p.rampUpStartRps = 1.5;
        p.rampUpEndRps = 40;
        p.tracePath = u"/tmp/trace.jsonl"_s;
        p.traceTimeScale = 0.25;
        const QJsonObject o = p.toJson();
        QCOMPARE(o.value(u"ramp_up_strategy"_s).toString(), u"exponential"_s);
        const LoadProfile q = LoadProfile::fromJson(o);
        QCOMPARE(q.rampUpStrategy, RampUpStrategy::Exponential);
        QCOMPARE(q.rampUpStartRps, 1.5);
        QCOMPARE(q.rampUpEndRps, 40.0);
        QCOMPARE(q.tracePath, p.tracePath);
        QCOMPARE(q.traceTimeScale, 0.25);
        // Old snapshots without the keys keep the defaults.
        const LoadProfile old = LoadProfile::fromJson(QJsonObject{});
        QCOMPARE(old.rampUpStrategy, RampUpStrategy::None);
        QCOMPARE(old.traceTimeScale, 1.0);
    }
};

QTEST_GUILESS_MAIN(TestSchedule)
#include "tst_schedule.moc"
