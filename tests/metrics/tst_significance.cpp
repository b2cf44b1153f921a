#include "metrics/prng.h"
#include "metrics/significance.h"

#include "statsim.h"

#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace sb;
using namespace Qt::StringLiterals;

namespace {

bool detected(const Difference &d)
{
    return d.verdict == Verdict::Better || d.verdict == Verdict::Worse;
}

QString describe(const Difference &d)
{
    return u"%1: %2 [%3, %4] verdict %5 %6"_s.arg(d.statistic)
        .arg(d.absolute.estimate)
        .arg(d.absolute.lo)
        .arg(d.absolute.hi)
        .arg(QString::fromLatin1(verdictKey(d.verdict)), d.reason);
}

// False positives of compareMeans over K pairs of samples drawn from one distribution.
qint64 falsePositivesOfMeans(int K, int n, double confidence, quint64 seed)
{
    Prng rng(seed);
    qint64 fp = 0;
    for (int k = 0; k < K; ++k) {
        const QList<double> a = statsim::normal(rng, n, 50, 5);
        const QList<double> b = statsim::normal(rng, n, 50, 5);
        fp += detected(compareMeans(a, b, Direction::LowerIsBetter, confidence)) ? 1 : 0;
    }
    return fp;
}

} // namespace

class TestSignificance : public QObject
{
    Q_OBJECT

private slots:
    void welchByHand();
    void verdictFollowsDirection_data();
    void verdictFollowsDirection();
    void seriesByHand();
    void seriesNeedsTwoRuns();
    void falsePositiveRateOfMeans();
    void falsePositiveRateOfPercentiles_data();
    void falsePositiveRateOfPercentiles();
    void clusteredFalsePositiveRate();
    void powerMatchesHintForMeans();
    void powerMatchesHintForMedians();
    void knownDifferenceIsDetected();
    void sameConfigurationShowsNoDifference();
    void p99OfFortyRequestsIsNotAvailable();
    void largeSamplesUseNormalApproximation();
    void percentileBootstrapIsReproducible();
    void rankingWithTies();
    void rankSamplesMarksTies();
    void differenceJson();
};

// c = {12, 14, 15, 17, 19, 21}, b = {10, 11, 11, 12, 13}: scipy gives the Welch df 6.3512,
// t(0.975, df) = 2.41448, interval [1.430717, 8.435950]; the relative interval (delta method,
// same t) [0.106131, 0.759366].
void TestSignificance::welchByHand()
{
    const Difference d = compareMeans(QList<double>{12, 14, 15, 17, 19, 21},
                                      QList<double>{10, 11, 11, 12, 13}, Direction::LowerIsBetter);
    QVERIFY(d.absolute.available);
    QVERIFY(std::fabs(d.candidate - 16.333333333333332) < 1e-12);
    QCOMPARE(d.baseline, 11.4);
    QVERIFY2(std::fabs(d.absolute.lo - 1.430716852638358) < 1e-7, qPrintable(describe(d)));
    QVERIFY(std::fabs(d.absolute.hi - 8.435949814028305) < 1e-7);
    QVERIFY(std::fabs(d.relative.lo - 0.10613068222924343) < 1e-7);
    QVERIFY(std::fabs(d.relative.hi - 0.7593663937941482) < 1e-7);
    QCOMPARE(d.verdict, Verdict::Worse); // higher latency
    QCOMPARE(d.unit, u"requests"_s);
}

void TestSignificance::verdictFollowsDirection_data()
{
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<bool>("lowerIsBetter");
    QTest::addColumn<int>("verdict");
    QTest::newRow("latency up") << 1.0 << 2.0 << true << int(Verdict::Worse);
    QTest::newRow("latency down") << -2.0 << -1.0 << true << int(Verdict::Better);
    QTest::newRow("throughput up") << 1.0 << 2.0 << false << int(Verdict::Better);
    QTest::newRow("throughput down") << -2.0 << -1.0 << false << int(Verdict::Worse);
    QTest::newRow("straddles 0") << -1.0 << 1.0 << true << int(Verdict::NoDetectableDifference);
    QTest::newRow("touches 0") << 0.0 << 1.0 << true << int(Verdict::NoDetectableDifference);
}

void TestSignificance::verdictFollowsDirection()
{
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(bool, lowerIsBetter);
    QFETCH(int, verdict);
    Interval i;
    i.available = true;
    i.lo = lo;
    i.hi = hi;
    QCOMPARE(
        int(verdictFor(i, lowerIsBetter ? Direction::LowerIsBetter : Direction::HigherIsBetter)),
        verdict);
    QCOMPARE(verdictFor(Interval{}, Direction::LowerIsBetter), Verdict::NotAvailable);
}

// Throughputs of 4 and 3 runs; scipy: Welch df 4.52446, interval [3.174864, 13.491803].
void TestSignificance::seriesByHand()
{
    const Difference d =
        compareSeries({100, 104, 98, 102}, {90, 95, 93}, Direction::HigherIsBetter);
    QVERIFY(std::fabs(d.absolute.lo - 3.1748641447892227) < 1e-6);
    QVERIFY(std::fabs(d.absolute.hi - 13.491802521877435) < 1e-6);
    QCOMPARE(d.verdict, Verdict::Better);
    QCOMPARE(d.unit, u"runs"_s);
}

void TestSignificance::seriesNeedsTwoRuns()
{
    const Difference d = compareSeries({100}, {90, 95}, Direction::HigherIsBetter);
    QCOMPARE(d.verdict, Verdict::NotAvailable);
    QVERIFY2(d.reason.contains(u"2 runs"_s), qPrintable(d.reason));
    QVERIFY(!d.absolute.available);
    QVERIFY(!samplesNeeded(d, 0.05).available);
}

// No true difference: normal samples of one distribution, where Welch's interval is (almost)
// exact, so false positives ~ Binomial(K, 0.05). The bounds hold a correct implementation with
// probability > 99.9 %; the same simulation at a 70 % interval must fall outside them, which
// shows the test can tell.
void TestSignificance::falsePositiveRateOfMeans()
{
    constexpr int K = 2000;
    const statsim::Bounds b = statsim::binomialBounds(K, 0.05, 0.05);
    const qint64 fp = falsePositivesOfMeans(K, 40, 0.95, 11);
    qInfo().noquote() << u"means: %1 false positives in %2 (bounds %3)"_s.arg(fp).arg(K).arg(
        b.text(K));
    QVERIFY2(b.contains(fp),
             qPrintable(u"%1 false positives, expected %2"_s.arg(fp).arg(b.text(K))));
    const qint64 broken = falsePositivesOfMeans(K, 40, 0.70, 11);
    QVERIFY2(!b.contains(broken), qPrintable(u"a 70 %% interval gave %1"_s.arg(broken)));
}

// Percentiles by the two-sample bootstrap on skewed (lognormal) TTFT-like samples. The
// bootstrap is approximate, so the accepted rate spans 3-8 %: a correct bootstrap lands there
// with > 99.9 % probability, a 70 % interval (~30 %) or one that ignores the baseline's
// variance (~17 %) does not.
void TestSignificance::falsePositiveRateOfPercentiles_data()
{
    QTest::addColumn<double>("percent");
    QTest::addColumn<int>("n");
    QTest::newRow("p50, n 150") << 50.0 << 150;
    QTest::newRow("p90, n 150") << 90.0 << 150;
}

void TestSignificance::falsePositiveRateOfPercentiles()
{
    QFETCH(double, percent);
    QFETCH(int, n);
    constexpr int K = 400;
    PercentileComparisonOptions o;
    o.bootstrap.resamples = 400;
    Prng rng(12);
    qint64 fp = 0;
    for (int k = 0; k < K; ++k) {
        const QList<double> a = statsim::lognormal(rng, n, 40, 10, 0.5);
        const QList<double> b = statsim::lognormal(rng, n, 40, 10, 0.5);
        o.bootstrap.seed = quint64(k) + 1;
        const Difference d = comparePercentiles(a, b, percent, Direction::LowerIsBetter, 0.95, o);
        QVERIFY(d.verdict != Verdict::NotAvailable);
        fp += detected(d) ? 1 : 0;
    }
    const statsim::Bounds b = statsim::binomialBounds(K, 0.03, 0.08);
    qInfo().noquote()
        << u"p%1: %2 false positives in %3 (bounds %4)"_s.arg(percent).arg(fp).arg(K).arg(
               b.text(K));
    QVERIFY2(b.contains(fp),
             qPrintable(u"%1 false positives, expected %2"_s.arg(fp).arg(b.text(K))));
}

// ITL-like clusters: each request has its own level, its gaps vary little around it. Resampling
// requests keeps the false-positive rate near 5 %; treating the pooled gaps as independent
// samples (what a naive percentile comparison does) finds "differences" most of the time.
void TestSignificance::clusteredFalsePositiveRate()
{
    constexpr int K = 200;
    PercentileComparisonOptions o;
    o.bootstrap.resamples = 200;
    Prng rng(13);
    const auto draw = [&rng](QList<double> *pooled) {
        QList<QList<double>> clusters;
        for (int i = 0; i < 30; ++i) {
            const QList<double> c = statsim::normal(rng, 20, 20 + 4 * rng.normal(), 0.5);
            *pooled += c;
            clusters.append(c);
        }
        return clusters;
    };
    qint64 fp = 0, naive = 0;
    for (int k = 0; k < K; ++k) {
        QList<double> pa, pb;
        const QList<QList<double>> a = draw(&pa), b = draw(&pb);
        o.bootstrap.seed = quint64(k) + 1;
        fp += detected(comparePercentilesClustered(a, b, 50, Direction::LowerIsBetter, 0.95, o))
                  ? 1
                  : 0;
        naive +=
            detected(comparePercentiles(pa, pb, 50, Direction::LowerIsBetter, 0.95, o)) ? 1 : 0;
    }
    const statsim::Bounds b = statsim::binomialBounds(K, 0.02, 0.11);
    qInfo().noquote() << u"clustered: %1 false positives in %2 (bounds %3); naive pooled: %4"_s
                             .arg(fp)
                             .arg(K)
                             .arg(b.text(K))
                             .arg(naive);
    QVERIFY2(b.contains(fp),
             qPrintable(u"clustered: %1 false positives, expected %2"_s.arg(fp).arg(b.text(K))));
    QVERIFY2(naive > K / 4, qPrintable(u"naive pooled comparison: %1 of %2"_s.arg(naive).arg(K)));
}

// The hint's sample size, from a large pilot, then K simulated comparisons at that size: the
// detection rate must match the power the normal approximation predicts at that size
// (Phi(delta / SE - z) + Phi(-delta / SE - z) >= 80 %).
void TestSignificance::powerMatchesHintForMeans()
{
    Prng rng(14);
    const Difference pilot =
        compareMeans(statsim::normal(rng, 4000, 50, 10), statsim::normal(rng, 4000, 50, 10),
                     Direction::LowerIsBetter);
    const SampleSizeHint h = samplesNeeded(pilot, 0.05, 0.8);
    QVERIFY(h.available);
    // (1.96 + 0.8416)^2 * (100 + 100) / 2.5^2 = 251.2 with the true variances.
    QVERIFY2(h.perSide > 220 && h.perSide < 285, qPrintable(h.text()));
    const double delta = 2.5, se = std::sqrt(200.0 / double(h.perSide));
    const double z = normalQuantile(0.975);
    const double expected = normalCdf(delta / se - z) + normalCdf(-delta / se - z);
    constexpr int K = 2000;
    qint64 hits = 0;
    for (int k = 0; k < K; ++k) {
        const Difference d =
            compareMeans(statsim::normal(rng, int(h.perSide), 52.5, 10),
                         statsim::normal(rng, int(h.perSide), 50, 10), Direction::LowerIsBetter);
        hits += d.verdict == Verdict::Worse ? 1 : 0;
    }
    // Student's t instead of z at ~500 df costs < 0.5 % of power: allow 1.5 % below.
    const statsim::Bounds b = statsim::binomialBounds(K, expected - 0.015, expected);
    qInfo().noquote()
        << u"means: hint %1 a side, %2 detections in %3 (expected power %4, bounds %5)"_s
               .arg(h.perSide)
               .arg(hits)
               .arg(K)
               .arg(expected)
               .arg(b.text(K));
    QVERIFY2(b.contains(hits),
             qPrintable(u"%1 detections, expected %2 (power %3)"_s.arg(hits).arg(b.text(K)).arg(
                 expected)));
}

// Medians: the hint scales the pilot's bootstrap variances; at the hinted size the bootstrap
// comparison should detect a 10 % shift about 80 % of the time. Both steps are approximations,
// so the band is 65-92 %.
void TestSignificance::powerMatchesHintForMedians()
{
    Prng rng(15);
    PercentileComparisonOptions o;
    o.bootstrap.resamples = 400;
    const Difference pilot = comparePercentiles(statsim::lognormal(rng, 1000, 0, 50, 0.4),
                                                statsim::lognormal(rng, 1000, 0, 50, 0.4), 50,
                                                Direction::LowerIsBetter, 0.95, o);
    const SampleSizeHint h = samplesNeeded(pilot, 0.10, 0.8);
    QVERIFY(h.available);
    // Asymptotic: var(median) = 1 / (4 n f(m)^2), f(m) = 1 / (m sigma sqrt(2 pi)) for a
    // lognormal: n v = (50 * 0.4)^2 * 2 pi / 4 = 628.3 a side; m = 7.849 * 1256.6 / 5^2 = 395.
    QVERIFY2(h.perSide > 300 && h.perSide < 500, qPrintable(h.text()));
    constexpr int K = 250;
    o.bootstrap.resamples = 250;
    qint64 hits = 0;
    for (int k = 0; k < K; ++k) {
        o.bootstrap.seed = quint64(k) + 1;
        const Difference d = comparePercentiles(statsim::lognormal(rng, int(h.perSide), 0, 55, 0.4),
                                                statsim::lognormal(rng, int(h.perSide), 0, 50, 0.4),
                                                50, Direction::LowerIsBetter, 0.95, o);
        hits += d.verdict == Verdict::Worse ? 1 : 0;
    }
    const statsim::Bounds b = statsim::binomialBounds(K, 0.65, 0.92);
    qInfo().noquote() << u"medians: hint %1 a side, %2 detections in %3 (bounds %4)"_s
                             .arg(h.perSide)
                             .arg(hits)
                             .arg(K)
                             .arg(b.text(K));
    QVERIFY2(b.contains(hits),
             qPrintable(u"%1 detections, expected %2"_s.arg(hits).arg(b.text(K))));
}

// The acceptance case: two configurations 5 ms apart in TTFT (median 50 vs 55 ms,
// skewed; every quantile moves by exactly 5 ms) -> significant, and the interval holds 5 ms.
void TestSignificance::knownDifferenceIsDetected()
{
    Prng rng(16);
    const QList<double> base = statsim::lognormal(rng, 400, 40, 10, 0.5);
    const QList<double> cand = statsim::lognormal(rng, 400, 45, 10, 0.5);
    PercentileComparisonOptions o;
    const Difference m = compareMeans(cand, base, Direction::LowerIsBetter);
    QCOMPARE(m.verdict, Verdict::Worse);
    QVERIFY2(m.absolute.contains(5.0), qPrintable(describe(m)));
    for (double p : {50.0, 90.0, 99.0}) {
        const Difference d = comparePercentiles(cand, base, p, Direction::LowerIsBetter, 0.95, o);
        QVERIFY2(d.absolute.contains(5.0), qPrintable(describe(d)));
        if (p < 99) // p99 of 400 requests is too wide to settle 5 ms
            QVERIFY2(d.verdict == Verdict::Worse, qPrintable(describe(d)));
    }
}

void TestSignificance::sameConfigurationShowsNoDifference()
{
    Prng rng(17);
    const QList<double> a = statsim::lognormal(rng, 400, 40, 10, 0.5);
    const QList<double> b = statsim::lognormal(rng, 400, 40, 10, 0.5);
    QCOMPARE(compareMeans(a, b, Direction::LowerIsBetter).verdict, Verdict::NoDetectableDifference);
    for (double p : {50.0, 90.0, 99.0}) {
        const Difference d = comparePercentiles(a, b, p, Direction::LowerIsBetter);
        QVERIFY2(d.verdict == Verdict::NoDetectableDifference, qPrintable(describe(d)));
        QVERIFY(d.absolute.contains(0));
    }
}

// The report: 40 requests a run, p99 TTFT "21 % better". There is no distribution-free
// 95 % statement about p99 from 40 requests, so the comparison says so instead of ranking.
void TestSignificance::p99OfFortyRequestsIsNotAvailable()
{
    Prng rng(18);
    const Difference d =
        comparePercentiles(statsim::lognormal(rng, 40, 40, 10, 0.5),
                           statsim::lognormal(rng, 40, 40, 10, 0.5), 99, Direction::LowerIsBetter);
    QCOMPARE(d.verdict, Verdict::NotAvailable);
    QVERIFY2(d.reason.contains(u"299"_s) && d.reason.contains(u"candidate 40"_s),
             qPrintable(d.reason));
    QVERIFY(std::isfinite(d.candidate) && std::isfinite(d.baseline));
    QCOMPARE(verdictText(d.verdict), u"not available"_s);
    QCOMPARE(verdictText(Verdict::NoDetectableDifference), u"no detectable difference at 95 %"_s);
}

void TestSignificance::largeSamplesUseNormalApproximation()
{
    Prng rng(19);
    const QList<double> base = statsim::lognormal(rng, 3000, 40, 10, 0.5);
    const QList<double> same = statsim::lognormal(rng, 3000, 40, 10, 0.5);
    const QList<double> slower = statsim::lognormal(rng, 3000, 42, 10, 0.5);
    PercentileComparisonOptions o;
    o.maxBootstrapDraws = 1000; // force the approximation
    const Difference d = comparePercentiles(slower, base, 90, Direction::LowerIsBetter, 0.95, o);
    QVERIFY2(d.absolute.method.startsWith(u"normal approximation"_s),
             qPrintable(d.absolute.method));
    QCOMPARE(d.verdict, Verdict::Worse);
    QVERIFY(d.absolute.contains(2.0));
    const Difference boot = comparePercentiles(slower, base, 90, Direction::LowerIsBetter);
    QVERIFY(boot.absolute.method.startsWith(u"bootstrap"_s));
    // Both estimate one standard error: widths within 30 % of each other.
    const double wa = d.absolute.hi - d.absolute.lo, wb = boot.absolute.hi - boot.absolute.lo;
    QVERIFY2(std::fabs(wa / wb - 1) < 0.3, qPrintable(u"%1 vs %2"_s.arg(wa).arg(wb)));
    QCOMPARE(comparePercentiles(same, base, 90, Direction::LowerIsBetter, 0.95, o).verdict,
             Verdict::NoDetectableDifference);
}

void TestSignificance::percentileBootstrapIsReproducible()
{
    Prng rng(20);
    const QList<double> a = statsim::lognormal(rng, 300, 40, 10, 0.5);
    const QList<double> b = statsim::lognormal(rng, 300, 40, 10, 0.5);
    const Difference x = comparePercentiles(a, b, 90, Direction::LowerIsBetter);
    const Difference y = comparePercentiles(a, b, 90, Direction::LowerIsBetter);
    QCOMPARE(x.absolute.lo, y.absolute.lo);
    QCOMPARE(x.absolute.hi, y.absolute.hi);
    QCOMPARE(x.relative.lo, y.relative.lo);
}

// A is significantly better than C; B cannot be separated from either. Rank = 1 + the number of
// candidates significantly better: A 1, B 1 (tied with A), C 2.
void TestSignificance::rankingWithTies()
{
    using V = Verdict;
    const QList<QList<V>> pairwise = {
        {V::NotAvailable, V::NoDetectableDifference, V::Better},
        {V::NoDetectableDifference, V::NotAvailable, V::NoDetectableDifference},
        {V::Worse, V::NoDetectableDifference, V::NotAvailable},
    };
    const Ranking r = rankWithTies({50, 51, 60}, Direction::LowerIsBetter, pairwise);
    QCOMPARE(r.order.size(), 3);
    QCOMPARE(r.order[0].index, 0);
    QCOMPARE(r.order[0].rank, 1);
    QVERIFY(r.order[0].tied);
    QCOMPARE(r.order[1].index, 1);
    QCOMPARE(r.order[1].rank, 1);
    QCOMPARE(r.order[1].inseparableFrom, (QList<int>{0, 2}));
    QCOMPARE(r.order[2].index, 2);
    QCOMPARE(r.order[2].rank, 2);
    QVERIFY(!r.order[2].tied);
    // A NaN estimate is not ranked and goes last.
    const Ranking u =
        rankWithTies({qQNaN(), 5}, Direction::HigherIsBetter,
                     {{V::NotAvailable, V::NotAvailable}, {V::NotAvailable, V::NotAvailable}});
    QCOMPARE(u.order[0].index, 1);
    QCOMPARE(u.order[1].rank, 0);
}

// B and C are one sample 0.1 ms apart (far inside its standard error of ~0.4 ms), A the same
// sample 10 ms slower: by construction A is separable from both and B from C is not.
void TestSignificance::rankSamplesMarksTies()
{
    Prng rng(21);
    const QList<double> b = statsim::normal(rng, 300, 50, 5);
    QList<double> a, c;
    for (double x : b) {
        a.append(x + 10);
        c.append(x + 0.1);
    }
    const QList<QList<double>> samples = {a, b, c};
    const Ranking r = rankSamples(samples, u"mean"_s, Direction::LowerIsBetter);
    QCOMPARE(r.order[0].rank, 1);
    QCOMPARE(r.order[1].rank, 1);
    QVERIFY(r.order[0].tied && r.order[1].tied);
    QCOMPARE(r.order[2].index, 0);
    QCOMPARE(r.order[2].rank, 3);
    const QJsonObject j = r.toJson();
    QVERIFY(j.value(u"rule"_s).toString().contains(u"significantly better"_s));
    const Ranking p = rankSamples(samples, u"p90"_s, Direction::LowerIsBetter);
    QCOMPARE(p.order[2].index, 0);
    const Ranking bad = rankSamples(samples, u"p1000"_s, Direction::LowerIsBetter);
    QCOMPARE(bad.order[0].rank, 0);
}

void TestSignificance::differenceJson()
{
    const Difference d = compareMeans(QList<double>{12, 14, 15, 17, 19, 21},
                                      QList<double>{10, 11, 11, 12, 13}, Direction::LowerIsBetter);
    const QJsonObject o = d.toJson();
    QCOMPARE(o.value(u"verdict"_s).toString(), u"worse"_s);
    QCOMPARE(o.value(u"lower_is_better"_s).toBool(), true);
    QVERIFY(o.value(u"difference"_s).toObject().value(u"available"_s).toBool());
    QCOMPARE(o.value(u"difference"_s).toObject().value(u"method"_s).toString(), u"welch-t"_s);
    const SampleSizeHint h = samplesNeeded(d, 0.1);
    QVERIFY(h.available);
    QVERIFY2(h.text().contains(u"requests per side"_s), qPrintable(h.text()));
}

QTEST_APPLESS_MAIN(TestSignificance)
#include "tst_significance.moc"
