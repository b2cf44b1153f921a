#include "metrics/stats.h"

#include <QTest>

#include <cmath>
#include <vector>

using namespace sb;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(QList<double>)

class TestStats : public QObject
{
    Q_OBJECT

private slots:
    void linear_data();
    void linear();
    void loadGen_data();
    void loadGen();
    void meanMedianStd();
    void emptySample();
    void floatMatchesDouble();
    void largeSampleSelectionMatchesSort();
    void largeFloatSampleWithNegativesAndTies();
    void percentileWord_data();
    void percentileWord();
};

// Expected values are numpy.percentile(values, p) (method='linear'), worked by hand:
// rank = p/100 * (N-1), value = x[floor(rank)] + frac * (x[floor(rank)+1] - x[floor(rank)]).
void TestStats::linear_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("expected");

    QTest::newRow("N=1 p0") << QList<double>{5} << 0.0 << 5.0;
    QTest::newRow("N=1 p50") << QList<double>{5} << 50.0 << 5.0;
    QTest::newRow("N=1 p99.9") << QList<double>{5} << 99.9 << 5.0;
    QTest::newRow("N=1 p100") << QList<double>{5} << 100.0 << 5.0;
    QTest::newRow("N=2 p0") << QList<double>{2, 1} << 0.0 << 1.0;
    // rank 0.5 -> 1 + 0.5*1
    QTest::newRow("N=2 p50") << QList<double>{2, 1} << 50.0 << 1.5;
    // rank 0.99 -> 1 + 0.99*1
    QTest::newRow("N=2 p99") << QList<double>{2, 1} << 99.0 << 1.99;
    QTest::newRow("N=2 p100") << QList<double>{2, 1} << 100.0 << 2.0;
    // N=4: rank 0.25*3 = 0.75 -> 1 + 0.75
    QTest::newRow("N=4 p25") << QList<double>{4, 3, 2, 1} << 25.0 << 1.75;
    QTest::newRow("N=4 p50") << QList<double>{4, 3, 2, 1} << 50.0 << 2.5;
    // rank 0.9*3 = 2.7 -> 3 + 0.7
    QTest::newRow("N=4 p90") << QList<double>{4, 3, 2, 1} << 90.0 << 3.7;
    // rank 0.999*3 = 2.997 -> 3.997
    QTest::newRow("N=4 p99.9") << QList<double>{4, 3, 2, 1} << 99.9 << 3.997;
    // N=5 (10..50, shuffled): rank 0.99*4 = 3.96 -> 40 + 0.96*10
    QTest::newRow("N=5 p99") << QList<double>{50, 10, 40, 20, 30} << 99.0 << 49.6;
    QTest::newRow("N=5 p95") << QList<double>{50, 10, 40, 20, 30} << 95.0 << 48.0;    // 3.8
    QTest::newRow("N=5 p90") << QList<double>{50, 10, 40, 20, 30} << 90.0 << 46.0;    // 3.6
    QTest::newRow("N=5 p99.9") << QList<double>{50, 10, 40, 20, 30} << 99.9 << 49.96; // 3.996
    QTest::newRow("N=5 p10") << QList<double>{50, 10, 40, 20, 30} << 10.0 << 14.0;    // 0.4
    QTest::newRow("N=5 p0") << QList<double>{50, 10, 40, 20, 30} << 0.0 << 10.0;
    QTest::newRow("N=5 p100") << QList<double>{50, 10, 40, 20, 30} << 100.0 << 50.0;
    // Ties: [1,1,2,100], rank 0.75*3 = 2.25 -> 2 + 0.25*98
    QTest::newRow("ties p75") << QList<double>{100, 1, 2, 1} << 75.0 << 26.5;
}

void TestStats::linear()
{
    QFETCH(QList<double>, values);
    QFETCH(double, p);
    QFETCH(double, expected);

    const MetricStats st = computeStats(values, {p});
    QCOMPARE(st.count, values.size());
    QCOMPARE(st.percentiles.size(), 1);
    QCOMPARE(st.percentiles.first().first, p);
    QCOMPARE(st.percentiles.first().second, expected); // fuzzy compare for doubles

    std::vector<double> sorted(values.cbegin(), values.cend());
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(percentileLinear(sorted, p), expected);
    QCOMPARE(percentileSorted(sorted, p, PercentileMethod::Linear), expected);
}

// LoadGen: sorted[floor(N * p/100)], clamped to N-1.
void TestStats::loadGen_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("expected");

    const QList<double> tens = {100, 90, 80, 70, 60, 50, 40, 30, 20, 10};
    QTest::newRow("N=10 p0") << tens << 0.0 << 10.0;      // idx 0
    QTest::newRow("N=10 p50") << tens << 50.0 << 60.0;    // idx floor(5.0) = 5
    QTest::newRow("N=10 p90") << tens << 90.0 << 100.0;   // idx floor(9.0) = 9
    QTest::newRow("N=10 p85") << tens << 85.0 << 90.0;    // idx floor(8.5) = 8
    QTest::newRow("N=10 p99") << tens << 99.0 << 100.0;   // idx floor(9.9) = 9
    QTest::newRow("N=10 p100") << tens << 100.0 << 100.0; // idx 10 -> clamp 9
    QTest::newRow("N=1 p99") << QList<double>{7} << 99.0 << 7.0;
    QTest::newRow("N=2 p50") << QList<double>{2, 1} << 50.0 << 2.0; // idx 1
    QList<double> thousand;
    for (int i = 1000; i >= 1; --i)
        thousand.append(i);
    QTest::newRow("N=1000 p99.9") << thousand << 99.9 << 1000.0; // idx floor(999.0) = 999
    QTest::newRow("N=1000 p99") << thousand << 99.0 << 991.0;    // idx 990 -> value 991
    QTest::newRow("N=1000 p50") << thousand << 50.0 << 501.0;    // idx 500 -> value 501
}

void TestStats::loadGen()
{
    QFETCH(QList<double>, values);
    QFETCH(double, p);
    QFETCH(double, expected);

    const MetricStats st = computeStats(values, {p}, PercentileMethod::LoadGen);
    QCOMPARE(st.method, PercentileMethod::LoadGen);
    QCOMPARE(st.percentile(p), expected);
    std::vector<double> sorted(values.cbegin(), values.cend());
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(percentileLoadGen(sorted, p), expected);
}

void TestStats::meanMedianStd()
{
    // Classic example: mean 5; squared deviations 9,1,1,1,0,0,4,16 = 32; 32/8 = 4; std 2.
    // Median of 8 values = (4 + 5) / 2.
    const MetricStats st = computeStats(QList<double>{2, 4, 4, 4, 5, 5, 7, 9}, {50, 99});
    QCOMPARE(st.count, 8);
    QCOMPARE(st.mean, 5.0);
    QCOMPARE(st.stddev, 2.0);
    QCOMPARE(st.median, 4.5);
    QCOMPARE(st.min, 2.0);
    QCOMPARE(st.max, 9.0);
    QCOMPARE(st.percentile(50), 4.5);
    // rank 0.99*7 = 6.93 -> 7 + 0.93*2
    QCOMPARE(st.percentile(99), 8.86);
    QVERIFY(std::isnan(st.percentile(90))); // not requested
    QVERIFY(!st.hasPercentile(90));
    QVERIFY(st.hasPercentile(99));

    // Odd N: median is the middle element; std of {1,2,3} = sqrt(2/3).
    const MetricStats odd = computeStats(QList<double>{3, 1, 2}, {});
    QCOMPARE(odd.median, 2.0);
    QCOMPARE(odd.stddev, std::sqrt(2.0 / 3.0));
}

void TestStats::emptySample()
{
    // vLLM reports np.mean([] or 0) = 0 etc.; count stays 0 so callers can tell.
    const MetricStats st = computeStats(QList<double>{}, {50, 99});
    QCOMPARE(st.count, 0);
    QVERIFY(st.isEmpty());
    QCOMPARE(st.mean, 0.0);
    QCOMPARE(st.median, 0.0);
    QCOMPARE(st.stddev, 0.0);
    QCOMPARE(st.min, 0.0);
    QCOMPARE(st.max, 0.0);
    QCOMPARE(st.percentiles.size(), 2);
    QCOMPARE(st.percentile(99), 0.0);
    QCOMPARE(percentileLinear({}, 50), 0.0);
    QCOMPARE(percentileLoadGen({}, 50), 0.0);
}

void TestStats::floatMatchesDouble()
{
    std::vector<float> f = {50, 10, 40, 20, 30};
    const MetricStats st = computeStats(std::span<float>(f), {99, 50});
    QCOMPARE(st.percentile(99), 49.6);
    QCOMPARE(st.percentile(50), 30.0);
    QCOMPARE(st.mean, 30.0);
    QCOMPARE(st.stddev, std::sqrt(200.0)); // deviations 400,100,0,100,400 -> 1000/5
}

void TestStats::largeSampleSelectionMatchesSort()
{
    // Above the small-sample threshold the implementation selects with nth_element on
    // shrinking tails; it must equal the textbook formula on a fully sorted copy.
    std::vector<double> v;
    v.reserve(10007);
    quint64 x = 88172645463325252ull; // xorshift: deterministic, unsorted, with duplicates
    for (int i = 0; i < 10007; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push_back(double(x % 5000) / 7.0);
    }
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const QList<double> ps = {0, 10, 50, 90, 95, 99, 99.9, 100};
    const MetricStats st = computeStats(std::span<double>(v), ps);
    for (double p : ps) {
        const double rank = p / 100.0 * double(sorted.size() - 1);
        const auto lo = size_t(std::floor(rank));
        const auto hi = std::min(lo + 1, sorted.size() - 1);
        const double expected = sorted[lo] + (rank - double(lo)) * (sorted[hi] - sorted[lo]);
        QCOMPARE(st.percentile(p), expected);
    }
    QCOMPARE(st.median, sorted[sorted.size() / 2]); // odd N
    QCOMPARE(st.min, sorted.front());
    QCOMPARE(st.max, sorted.back());
    const MetricStats lg = computeStats(std::span<double>(v), ps, PercentileMethod::LoadGen);
    for (double p : ps) {
        const auto idx = std::min(size_t(double(sorted.size()) * (p / 100.0)), sorted.size() - 1);
        QCOMPARE(lg.percentile(p), sorted[idx]);
    }
}

void TestStats::largeFloatSampleWithNegativesAndTies()
{
    // Radix path on floats: negative values (order-preserving keys flip their bits), heavy ties
    // (a whole histogram bucket of one value) and a rank pair straddling two buckets.
    std::vector<float> v;
    for (int i = 0; i < 6000; ++i)
        v.push_back(float(i % 3 == 0 ? -(i % 97) : (i % 5 == 0 ? 12.5f : float(i) / 3.0f)));
    std::vector<float> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const std::vector<float> original = v;
    const QList<double> ps = {0, 1, 33.3, 50, 75, 99, 100};
    const MetricStats st = computeStats(std::span<float>(v), ps);
    QVERIFY(v == original); // the radix select leaves large samples untouched
    for (double p : ps) {
        const double rank = p / 100.0 * double(sorted.size() - 1);
        const auto lo = size_t(std::floor(rank));
        const auto hi = std::min(lo + 1, sorted.size() - 1);
        const double expected =
            double(sorted[lo]) + (rank - double(lo)) * (double(sorted[hi]) - double(sorted[lo]));
        QCOMPARE(st.percentile(p), expected);
    }
    // Even N: median = mean of the two middle order statistics.
    QCOMPARE(st.median, (double(sorted[2999]) + double(sorted[3000])) / 2.0);
    QCOMPARE(st.min, -96.0);
}

void TestStats::percentileWord_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<QString>("word");
    QTest::newRow("99") << 99.0 << u"99"_s;
    QTest::newRow("50") << 50.0 << u"50"_s;
    QTest::newRow("0") << 0.0 << u"0"_s;
    QTest::newRow("100") << 100.0 << u"100"_s;
    QTest::newRow("99.9") << 99.9 << u"99.9"_s;
    QTest::newRow("99.99") << 99.99 << u"99.99"_s;
    QTest::newRow("12.5") << 12.5 << u"12.5"_s;
}

void TestStats::percentileWord()
{
    QFETCH(double, p);
    QFETCH(QString, word);
    QCOMPARE(sb::percentileWord(p), word);
}

QTEST_GUILESS_MAIN(TestStats)
#include "tst_stats.moc"
