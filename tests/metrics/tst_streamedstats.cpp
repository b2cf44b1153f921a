// StreamedStats against computeStats() of the same values pooled: bit-identical statistics for
// every size class (empty, tiny, around the radix threshold, large), every remainder n % 4 (the
// tail of the lane sums), both percentile methods, spread, tied and negative values.
#include "exactstats.h"
#include "metrics/prng.h"
#include "metrics/stats.h"
#include "metrics/statsparts.h"
#include "metrics/streamedstats.h"

#include <QTest>

#include <vector>

using namespace sb;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(sb::PercentileMethod)

namespace {

enum class Shape {
    Spread,    // latencies 5..15 ms, nearly all distinct
    Ties,      // a handful of distinct values: whole buckets of equal keys
    Negatives, // centred on zero, both signs (the radix keys flip negative values)
};

template <typename T> std::vector<T> sample(size_t n, Shape shape, quint64 seed)
{
    Prng rng(seed);
    std::vector<T> v(n);
    for (T &x : v) {
        switch (shape) {
        case Shape::Spread:
            x = T(5 + 10 * rng.uniform());
            break;
        case Shape::Ties:
            x = T(12.5 + double(rng.below(4)));
            break;
        case Shape::Negatives:
            x = T(rng.normal() * 3);
            break;
        }
    }
    return v;
}

template <typename T>
QString streamedVersusPooled(size_t n, Shape shape, PercentileMethod method, quint64 seed)
{
    const QList<double> ps = {0, 1, 37.3, 50, 90, 95, 99, 99.9, 100};
    std::vector<T> values = sample<T>(n, shape, seed);

    StreamedStats<T> streamed(ps, method);
    for (const T x : values)
        streamed.add(x);
    if (streamed.count() != qint64(n))
        return u"count after the first pass: %1"_s.arg(streamed.count());
    // Small samples are kept and handed to computeStats(); only the large ones are streamed.
    const bool large = n >= statsparts::kRadixThreshold;
    if (streamed.needsSecondPass() != large)
        return u"needsSecondPass() is %1 for n = %2"_s.arg(streamed.needsSecondPass()).arg(n);
    if (large)
        for (const T x : values)
            streamed.addAgain(x);
    const MetricStats s = streamed.finish();
    const MetricStats pooled = computeStats(std::span<T>(values), ps, method);
    return testing::exactStatsDifference(s, pooled);
}

} // namespace

class TestStreamedStats : public QObject
{
    Q_OBJECT
private slots:
    void equalsPooled_data();
    void equalsPooled();
};

void TestStreamedStats::equalsPooled_data()
{
    QTest::addColumn<bool>("doubles"); // StreamedStats<double>, else <float> (the ITL samples)
    QTest::addColumn<qulonglong>("n");
    QTest::addColumn<int>("shape");
    QTest::addColumn<PercentileMethod>("method");
    const size_t t = statsparts::kRadixThreshold;
    const std::vector<size_t> sizes = {
        0, 1, 2, 3, 4, 5, 7, t - 1, t, t + 1, t + 2, t + 3, 50000, 50001, 50002, 50003, 60 * t + 1};
    for (bool doubles : {false, true}) {
        for (size_t n : sizes) {
            for (Shape shape : {Shape::Spread, Shape::Ties, Shape::Negatives}) {
                for (PercentileMethod m : {PercentileMethod::Linear, PercentileMethod::LoadGen}) {
                    if (doubles && (shape != Shape::Spread || n > 60000))
                        continue; // the double path is the same template: a few rows suffice
                    const char *shapeName = shape == Shape::Spread ? "spread"
                                            : shape == Shape::Ties ? "ties"
                                                                   : "negatives";
                    QTest::addRow("%s n=%zu (n%%4=%zu) %s %s", doubles ? "double" : "float", n,
                                  n % 4, shapeName, percentileMethodName(m))
                        << doubles << qulonglong(n) << int(shape) << m;
                }
            }
        }
    }
}

void TestStreamedStats::equalsPooled()
{
    QFETCH(bool, doubles);
    QFETCH(qulonglong, n);
    QFETCH(int, shape);
    QFETCH(PercentileMethod, method);
    const quint64 seed = n * 7 + quint64(shape) * 3 + quint64(method);
    const QString diff = doubles ? streamedVersusPooled<double>(n, Shape(shape), method, seed)
                                 : streamedVersusPooled<float>(n, Shape(shape), method, seed);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

QTEST_GUILESS_MAIN(TestStreamedStats)
#include "tst_streamedstats.moc"
