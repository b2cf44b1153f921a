#include "metrics/confidence.h"
#include "metrics/prng.h"

#include "statsim.h"

#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace sb;
using namespace Qt::StringLiterals;

class TestConfidence : public QObject
{
    Q_OBJECT

private slots:
    void prngKnownAnswers();
    void prngBelowIsInRangeAndUniform();
    void normalQuantile_data();
    void normalQuantile();
    void binomialCdfAtMost_data();
    void binomialCdfAtMost();
    void meanIntervalByHand();
    void meanIntervalTooSmall();
    void percentileRanks_data();
    void percentileRanks();
    void minimumSamples_data();
    void minimumSamples();
    void percentileIntervalOmittedWithReason();
    void percentileIntervalPicksRanks();
    void orderStatisticCoverage_data();
    void orderStatisticCoverage();
    void percentileOfUnsortedMatchesSorted();
    void bootstrapIsReproducible();
    void bootstrapMeanAgreesWithT();
    void bootstrapPercentileNeedsEnoughSamples();
    void clusteredBootstrapIsWiderForCorrelatedClusters();
    void intervalJson();
};

// Reference outputs of the published algorithms: xoshiro256** from the state {1, 2, 3, 4} and
// SplitMix64 from 0 (the values every port of the reference C code reproduces; recomputed here
// with a 10-line Python transcription of the reference code).
void TestConfidence::prngKnownAnswers()
{
    Prng x(1, 2, 3, 4);
    const quint64 expected[] = {11520ull, 0ull, 1509978240ull, 1215971899390074240ull,
                                1216172134540287360ull};
    for (quint64 e : expected)
        QCOMPARE(x.next(), e);
    quint64 s = 0;
    QCOMPARE(splitMix64(s), 0xe220a8397b1dcdafull);
    QCOMPARE(splitMix64(s), 0x6e789e6aa1b965f4ull);
    QCOMPARE(splitMix64(s), 0x06c45d188009454full);
}

void TestConfidence::prngBelowIsInRangeAndUniform()
{
    Prng rng(7);
    constexpr int kBins = 7;
    constexpr int kDraws = 70000;
    int counts[kBins] = {};
    for (int i = 0; i < kDraws; ++i) {
        const quint64 v = rng.below(kBins);
        QVERIFY(v < kBins);
        ++counts[v];
    }
    // Chi-square with 6 df; 22.46 is its 0.999 quantile.
    double chi2 = 0;
    for (int c : counts)
        chi2 += (c - kDraws / kBins) * double(c - kDraws / kBins) / (kDraws / kBins);
    QVERIFY2(chi2 < 22.46, qPrintable(u"chi2 = %1"_s.arg(chi2)));
    QCOMPARE(rng.below(0), 0ull);
    QCOMPARE(rng.below(1), 0ull);
}

void TestConfidence::normalQuantile_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("z");
    // scipy.stats.norm.ppf
    QTest::newRow("0.975") << 0.975 << 1.959963984540054;
    QTest::newRow("0.8") << 0.8 << 0.8416212335729143;
    QTest::newRow("0.5") << 0.5 << 0.0;
    QTest::newRow("0.001") << 0.001 << -3.090232306167813;
    QTest::newRow("0.9995") << 0.9995 << 3.290526731491926;
}

void TestConfidence::normalQuantile()
{
    QFETCH(double, p);
    QFETCH(double, z);
    QVERIFY2(std::fabs(sb::normalQuantile(p) - z) < 1e-9,
             qPrintable(u"%1"_s.arg(sb::normalQuantile(p), 0, 'g', 17)));
    QVERIFY(std::fabs(normalCdf(z) - p) < 1e-12);
}

void TestConfidence::binomialCdfAtMost_data()
{
    QTest::addColumn<qint64>("k");
    QTest::addColumn<qint64>("n");
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("expected");
    // By hand: P(B <= 0) = (1-q)^n; P(B <= n-1) = 1 - q^n; n = 4, q = 1/2: 1/16, 5/16, 11/16.
    QTest::newRow("k0") << qint64(0) << qint64(4) << 0.5 << 1.0 / 16;
    QTest::newRow("k1") << qint64(1) << qint64(4) << 0.5 << 5.0 / 16;
    QTest::newRow("k2") << qint64(2) << qint64(4) << 0.5 << 11.0 / 16;
    QTest::newRow("k=n-1, q .99") << qint64(298) << qint64(299) << 0.99 << 1 - std::pow(0.99, 299);
    QTest::newRow("k<0") << qint64(-1) << qint64(10) << 0.3 << 0.0;
    QTest::newRow("k>=n") << qint64(10) << qint64(10) << 0.3 << 1.0;
    // scipy.stats.binom.cdf(83, 100, 0.9)
    QTest::newRow("scipy 83/100/.9") << qint64(83) << qint64(100) << 0.9 << 0.020598810145300142;
}

void TestConfidence::binomialCdfAtMost()
{
    QFETCH(qint64, k);
    QFETCH(qint64, n);
    QFETCH(double, q);
    QFETCH(double, expected);
    QVERIFY2(std::fabs(sb::binomialCdfAtMost(k, n, q) - expected) < 1e-10,
             qPrintable(u"%1"_s.arg(sb::binomialCdfAtMost(k, n, q), 0, 'g', 15)));
}

// {10, 12, 14}: mean 12, s = 2, t(0.975, 2) = 4.302652729911275 (scipy), half-width t s / sqrt 3.
void TestConfidence::meanIntervalByHand()
{
    const Interval i = meanInterval(QList<double>{10, 12, 14});
    QVERIFY(i.available);
    QCOMPARE(i.estimate, 12.0);
    const double half = 4.302652729911275 * 2 / std::sqrt(3.0);
    QVERIFY(std::fabs(i.lo - (12 - half)) < 1e-8);
    QVERIFY(std::fabs(i.hi - (12 + half)) < 1e-8);
    QCOMPARE(i.n, qint64(3));
    QCOMPARE(i.method, u"student-t"_s);
    QVERIFY(i.contains(12));
    QVERIFY(!i.contains(20));
}

void TestConfidence::meanIntervalTooSmall()
{
    const Interval one = meanInterval(QList<double>{5});
    QVERIFY(!one.available);
    QCOMPARE(one.estimate, 5.0);
    QVERIFY2(one.reason.contains(u"at least 2"_s), qPrintable(one.reason));
    QVERIFY(!meanInterval(QList<double>{}).available);
    QVERIFY(!meanInterval(QList<double>{1, 2}, 1.5).available);
}

void TestConfidence::percentileRanks_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<double>("percent");
    QTest::addColumn<qint64>("lower");
    QTest::addColumn<qint64>("upper");
    QTest::addColumn<double>("coverage");
    // Equal tails: l - 1 = the largest k with binom.cdf(k) <= 0.025, u - 1 = the smallest k with
    // binom.cdf(k) >= 0.975 (scipy.stats.binom). n = 20, p50: the classic X(6), X(15).
    QTest::newRow("n20 p50") << qint64(20) << 50.0 << qint64(6) << qint64(15) << 0.9586105346679688;
    QTest::newRow("n50 p50") << qint64(50) << 50.0 << qint64(18) << qint64(33)
                             << 0.9671608624357315;
    QTest::newRow("n100 p50") << qint64(100) << 50.0 << qint64(40) << qint64(61)
                              << 0.9647997997822952;
    QTest::newRow("n100 p90") << qint64(100) << 90.0 << qint64(84) << qint64(96)
                              << 0.955690107191223;
    QTest::newRow("n1000 p99") << qint64(1000) << 99.0 << qint64(983) << qint64(997)
                               << 0.976094763497977;
    // n = 400, p99: equal tails need u = 401 > n (0.99^400 = 0.018 > 0.025? no: 0.0180 < 0.025,
    // so equal tails still work and u = n).
    QTest::newRow("n400 p99") << qint64(400) << 99.0 << qint64(392) << qint64(400)
                              << 0.9612808870665179;
}

void TestConfidence::percentileRanks()
{
    QFETCH(qint64, n);
    QFETCH(double, percent);
    QFETCH(qint64, lower);
    QFETCH(qint64, upper);
    QFETCH(double, coverage);
    const OrderStatisticRanks r = sb::percentileRanks(n, percent);
    QVERIFY(r.available);
    QCOMPARE(r.lower, lower);
    QCOMPARE(r.upper, upper);
    QVERIFY2(std::fabs(r.coverage - coverage) < 1e-9, qPrintable(u"%1"_s.arg(r.coverage)));
    QVERIFY(r.coverage >= 0.95);
}

void TestConfidence::minimumSamples_data()
{
    QTest::addColumn<double>("percent");
    QTest::addColumn<qint64>("n");
    // p99: the largest observation misses with 0.99^n, which is <= 0.05 from n = 299
    // (0.99^298 = 0.05004); the lower side then gets 0.05 - 0.99^n, enough at 299.
    QTest::newRow("p99") << 99.0 << qint64(299);
    // p50: 0.5^n <= 0.025 from n = 6, equal tails X(1), X(6); at n = 5 one tail is 0.03125 and
    // the other would need P(B = 0) = 0.03125 <= 0.01875: no.
    QTest::newRow("p50") << 50.0 << qint64(6);
    QTest::newRow("p90") << 90.0 << qint64(29); // 0.9^29 = 0.047, lower tail 0.1^29: tiny
    QTest::newRow("p0 none") << 0.0 << qint64(0);
    QTest::newRow("p100 none") << 100.0 << qint64(0);
}

void TestConfidence::minimumSamples()
{
    QFETCH(double, percent);
    QFETCH(qint64, n);
    QCOMPARE(minimumSamplesForPercentile(percent), n);
    if (n > 0) {
        QVERIFY(sb::percentileRanks(n, percent).available);
        QVERIFY(!sb::percentileRanks(n - 1, percent).available);
    }
}

void TestConfidence::percentileIntervalOmittedWithReason()
{
    Prng rng(1);
    const QList<double> v = statsim::lognormal(rng, 50, 0, 50, 0.3);
    const Interval i = percentileInterval(v, 99);
    QVERIFY(!i.available);
    QVERIFY(std::isfinite(i.estimate)); // the estimate is still given
    QVERIFY2(i.reason.contains(u"299"_s) && i.reason.contains(u"has 50"_s), qPrintable(i.reason));
    QVERIFY(percentileInterval(v, 50).available);
}

void TestConfidence::percentileIntervalPicksRanks()
{
    // 1..20 shuffled: X(k) = k, so the p50 interval is [6, 15] and the estimate 10.5.
    QList<double> v;
    for (int k = 20; k >= 1; --k)
        v.append(k);
    const Interval i = percentileInterval(v, 50);
    QVERIFY(i.available);
    QCOMPARE(i.lo, 6.0);
    QCOMPARE(i.hi, 15.0);
    QCOMPARE(i.estimate, 10.5);
    QCOMPARE(i.lowerRank, qint64(6));
    QCOMPARE(i.upperRank, qint64(15));
}

// Simulation: over K seeded samples from a continuous distribution, the interval must cover the
// true quantile at the exact rate the binomial promises (>= 95 %).
void TestConfidence::orderStatisticCoverage_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("percent");
    QTest::newRow("n20 p50") << 20 << 50.0;
    QTest::newRow("n100 p90") << 100 << 90.0;
    QTest::newRow("n300 p99 (one-sided fallback)") << 300 << 99.0;
}

void TestConfidence::orderStatisticCoverage()
{
    QFETCH(int, n);
    QFETCH(double, percent);
    constexpr int K = 2000;
    const double sigma = 0.5;
    // True quantile of exp(sigma Z): exp(sigma z_p).
    const double truth = std::exp(sigma * sb::normalQuantile(percent / 100));
    const OrderStatisticRanks r = sb::percentileRanks(n, percent);
    QVERIFY(r.available);
    QVERIFY(r.coverage >= 0.95);
    Prng rng(2024);
    qint64 covered = 0;
    for (int k = 0; k < K; ++k) {
        const Interval i = percentileInterval(statsim::lognormal(rng, n, 0, 1, sigma), percent);
        QVERIFY(i.available);
        covered += i.contains(truth) ? 1 : 0;
    }
    const statsim::Bounds b = statsim::binomialBounds(K, r.coverage, r.coverage);
    QVERIFY2(b.contains(covered),
             qPrintable(u"covered %1, expected %2 (coverage %3)"_s.arg(covered).arg(b.text(K)).arg(
                 r.coverage)));
}

void TestConfidence::percentileOfUnsortedMatchesSorted()
{
    Prng rng(3);
    for (int n : {1, 2, 3, 10, 101}) {
        const QList<double> v = statsim::lognormal(rng, n, 0, 10, 1);
        std::vector<double> sorted(v.cbegin(), v.cend());
        std::sort(sorted.begin(), sorted.end());
        for (double p : {0.0, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 100.0}) {
            for (PercentileMethod m : {PercentileMethod::Linear, PercentileMethod::LoadGen}) {
                std::vector<double> copy(v.cbegin(), v.cend());
                QCOMPARE(percentileOfUnsorted(copy, p, m), percentileSorted(sorted, p, m));
            }
        }
    }
}

void TestConfidence::bootstrapIsReproducible()
{
    Prng rng(4);
    const QList<double> v = statsim::lognormal(rng, 400, 40, 10, 0.5);
    const std::span<const double> s(v.constData(), size_t(v.size()));
    BootstrapOptions o;
    o.resamples = 500;
    const Interval a = bootstrapPercentileInterval(s, 90, 0.95, o);
    const Interval b = bootstrapPercentileInterval(s, 90, 0.95, o);
    QVERIFY(a.available);
    QCOMPARE(a.lo, b.lo); // bit for bit
    QCOMPARE(a.hi, b.hi);
    o.seed = 99;
    const Interval c = bootstrapPercentileInterval(s, 90, 0.95, o);
    QVERIFY(c.lo != a.lo || c.hi != a.hi);
    QVERIFY(a.contains(a.estimate));
}

void TestConfidence::bootstrapMeanAgreesWithT()
{
    Prng rng(5);
    const QList<double> v = statsim::normal(rng, 200, 100, 15);
    const Interval t = meanInterval(v);
    const Interval b = bootstrapInterval(std::span<const double>(v.constData(), size_t(v.size())),
                                         [](std::span<double> x) {
                                             double s = 0;
                                             for (double y : x)
                                                 s += y;
                                             return s / double(x.size());
                                         });
    QVERIFY(b.available);
    const double tw = t.hi - t.lo, bw = b.hi - b.lo;
    QVERIFY2(std::fabs(bw / tw - 1) < 0.15, qPrintable(u"t %1, bootstrap %2"_s.arg(tw).arg(bw)));
}

void TestConfidence::bootstrapPercentileNeedsEnoughSamples()
{
    Prng rng(6);
    const QList<double> v = statsim::lognormal(rng, 50, 0, 50, 0.3);
    const Interval i =
        bootstrapPercentileInterval(std::span<const double>(v.constData(), size_t(v.size())), 99);
    QVERIFY(!i.available);
    QVERIFY2(i.reason.contains(u"299"_s), qPrintable(i.reason));
    QCOMPARE(i.method, u"bootstrap-percentile"_s);
}

// Requests whose gaps share a per-request level: pooling 40 x 25 gaps as if independent gives a
// far narrower interval than resampling the 40 requests.
void TestConfidence::clusteredBootstrapIsWiderForCorrelatedClusters()
{
    Prng rng(8);
    QList<QList<double>> clusters;
    QList<double> pooled;
    for (int i = 0; i < 40; ++i) {
        const double level = 20 + 5 * rng.normal();
        QList<double> c = statsim::normal(rng, 25, level, 0.5);
        pooled += c;
        clusters.append(c);
    }
    BootstrapOptions o;
    o.resamples = 400;
    const Interval clustered = bootstrapPercentileIntervalClustered(clusters, 50, 0.95, o);
    const Interval naive = bootstrapPercentileInterval(
        std::span<const double>(pooled.constData(), size_t(pooled.size())), 50, 0.95, o);
    QVERIFY(clustered.available && naive.available);
    QCOMPARE(clustered.n, qint64(40));
    QVERIFY2(
        (clustered.hi - clustered.lo) > 2.5 * (naive.hi - naive.lo),
        qPrintable(
            u"clustered %1, naive %2"_s.arg(clustered.hi - clustered.lo).arg(naive.hi - naive.lo)));
}

void TestConfidence::intervalJson()
{
    QList<double> v;
    for (int k = 1; k <= 20; ++k)
        v.append(k);
    const QJsonObject o = percentileInterval(v, 50).toJson();
    QCOMPARE(o.value(u"available"_s).toBool(), true);
    QCOMPARE(o.value(u"lo"_s).toDouble(), 6.0);
    QCOMPARE(o.value(u"lower_rank"_s).toInteger(), 6);
    QCOMPARE(o.value(u"method"_s).toString(), u"order-statistic"_s);
    QVERIFY(!o.contains(u"reason"_s));
    const QJsonObject u = percentileInterval(v, 99).toJson();
    QCOMPARE(u.value(u"available"_s).toBool(), false);
    QVERIFY(u.value(u"lo"_s).isNull());
    QVERIFY(!u.value(u"reason"_s).toString().isEmpty());
}

QTEST_APPLESS_MAIN(TestConfidence)
#include "tst_confidence.moc"
