#include "load/rng.h"

#include <QSet>
#include <QTest>

#include <cmath>

using namespace sb;
using namespace Qt::StringLiterals;

namespace {
struct Moments
{
    double mean = 0;
    double cv = 0;
};

template <typename F> Moments sample(int n, F draw)
{
    double sum = 0;
    double sumSq = 0;
    for (int i = 0; i < n; ++i) {
        const double x = draw();
        sum += x;
        sumSq += x * x;
    }
    const double mean = sum / n;
    const double var = sumSq / n - mean * mean;
    return {mean, std::sqrt(var) / mean};
}
} // namespace

class TestRng : public QObject
{
    Q_OBJECT
private slots:
    void engineIsTheStandardOne()
    {
        // The C++ standard fixes this value ([rand.predef]): the schedule is reproducible on any
        // conforming library.
        Rng rng(5489u);
        quint64 v = 0;
        for (int i = 0; i < 10000; ++i)
            v = rng.next64();
        QCOMPARE(v, Q_UINT64_C(9981545732273789042));
    }

    void uniformIsExactBitArithmetic()
    {
        Rng a(7);
        Rng b(7);
        for (int i = 0; i < 1000; ++i) {
            const quint64 bits = b.next64();
            const double u = a.uniform01();
            QCOMPARE(u, double(bits >> 11) / 9007199254740992.0);
            QVERIFY(u >= 0 && u < 1);
        }
        Rng c(8);
        for (int i = 0; i < 1000; ++i) {
            const double u = c.uniformOpen01();
            QVERIFY(u > 0 && u < 1);
        }
    }

    void deriveSeedIsSplitmix64()
    {
        // splitmix64 seeded with 0 yields 0xE220A8397B1DCDAF first (Vigna's reference output).
        QCOMPARE(deriveSeed(0, 0), Q_UINT64_C(0xE220A8397B1DCDAF));
        QSet<quint64> seen;
        for (quint64 s = 0; s < 4096; ++s)
            seen.insert(deriveSeed(1234, s));
        for (quint64 shard = 0; shard < 64; ++shard)
            seen.insert(deriveSeed(1234, kShardStreamBase + shard));
        QCOMPARE(seen.size(), 4096 + 64);
        QVERIFY(deriveSeed(1, kStreamArrivals) != deriveSeed(2, kStreamArrivals));
    }

    void distributions_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<double>("param");
        QTest::addColumn<double>("expectMean");
        QTest::addColumn<double>("expectCv");
        QTest::newRow("exponential rate 4") << u"exp"_s << 4.0 << 0.25 << 1.0;
        QTest::newRow("gamma shape 0.25") << u"gamma"_s << 0.25 << 1.0 << 2.0;
        QTest::newRow("gamma shape 0.5") << u"gamma"_s << 0.5 << 1.0 << std::sqrt(2.0);
        QTest::newRow("gamma shape 1") << u"gamma"_s << 1.0 << 1.0 << 1.0;
        QTest::newRow("gamma shape 4") << u"gamma"_s << 4.0 << 1.0 << 0.5;
        QTest::newRow("gamma shape 30") << u"gamma"_s << 30.0 << 1.0 << 1 / std::sqrt(30.0);
    }

    void distributions()
    {
        QFETCH(QString, kind);
        QFETCH(double, param);
        QFETCH(double, expectMean);
        QFETCH(double, expectCv);
        Rng rng(20240611);
        // 200k draws: the standard error of the mean is < 0.5 % and of the CV < 1 % for every
        // row, so 3 % / 5 % bounds hold for practically any seed, not just this fixed one.
        const Moments m = sample(200000, [&] {
            return kind == u"exp"_s ? rng.exponential(param)
                                    : rng.gamma(param, 1.0 / param); // mean 1
        });
        QVERIFY2(std::abs(m.mean - expectMean) < 0.03 * expectMean,
                 qPrintable(QString::number(m.mean)));
        QVERIFY2(std::abs(m.cv - expectCv) < 0.05 * expectCv, qPrintable(QString::number(m.cv)));
    }

    void normal()
    {
        Rng rng(99);
        double sum = 0;
        double sumSq = 0;
        const int n = 200000;
        for (int i = 0; i < n; ++i) {
            const double x = rng.normal();
            sum += x;
            sumSq += x * x;
        }
        QVERIFY(std::abs(sum / n) < 0.01);
        QVERIFY(std::abs(sumSq / n - 1) < 0.02);
    }
};

QTEST_GUILESS_MAIN(TestRng)
#include "tst_rng.moc"
