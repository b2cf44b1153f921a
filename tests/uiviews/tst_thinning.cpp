// Chart thinning: what reaches a chart is about one min/max pair per pixel column, and every
// column's extremes survive it.
#include "charts/finehistogram.h"
#include "charts/thinning.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace sb;
using namespace Qt::StringLiterals;

class TestThinning : public QObject
{
    Q_OBJECT

private slots:
    void minMaxPerBucket_data()
    {
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("buckets");
        QTest::addColumn<bool>("sortedX");
        QTest::newRow("dense sorted") << 100000 << 800 << true;
        QTest::newRow("dense shuffled") << 50000 << 300 << false;
        QTest::newRow("sparse") << 40 << 800 << true;
        QTest::newRow("one bucket") << 1000 << 1 << false;
    }
    void minMaxPerBucket()
    {
        QFETCH(int, points);
        QFETCH(int, buckets);
        QFETCH(bool, sortedX);
        QRandomGenerator rng(42);
        std::vector<double> xs(static_cast<size_t>(points)), ys(static_cast<size_t>(points));
        for (int i = 0; i < points; ++i) {
            xs[size_t(i)] = sortedX ? double(i) / points * 100.0 : rng.bounded(100.0);
            ys[size_t(i)] = 50 + rng.bounded(10.0);
        }
        // One spike and one dip that averaging would hide.
        ys[size_t(points / 3)] = 5000;
        ys[size_t(points / 2)] = -7;

        const QList<QPointF> out = thinMinMax(xs, ys, 0, 100, buckets);
        QVERIFY(out.size() <= 2 * buckets);
        QVERIFY(out.size() <= points);

        // Reference: the min and max y of every bucket, computed naively.
        const double w = 100.0 / buckets;
        std::vector<double> lo(static_cast<size_t>(buckets), INFINITY),
            hi(static_cast<size_t>(buckets), -INFINITY);
        for (int i = 0; i < points; ++i) {
            const int b = std::min(buckets - 1, int(xs[size_t(i)] / w));
            lo[size_t(b)] = std::min(lo[size_t(b)], ys[size_t(i)]);
            hi[size_t(b)] = std::max(hi[size_t(b)], ys[size_t(i)]);
        }
        std::vector<double> gotLo(static_cast<size_t>(buckets), INFINITY),
            gotHi(static_cast<size_t>(buckets), -INFINITY);
        double lastX = -1;
        for (const QPointF &p : out) {
            QVERIFY2(p.x() >= lastX, "columns come left to right, x ordered inside a column");
            lastX = p.x();
            const int b = std::min(buckets - 1, int(p.x() / w));
            gotLo[size_t(b)] = std::min(gotLo[size_t(b)], p.y());
            gotHi[size_t(b)] = std::max(gotHi[size_t(b)], p.y());
        }
        for (int b = 0; b < buckets; ++b) {
            QCOMPARE(gotLo[size_t(b)], lo[size_t(b)]);
            QCOMPARE(gotHi[size_t(b)], hi[size_t(b)]);
        }
        const auto maxY = std::max_element(out.cbegin(), out.cend(),
                                           [](auto a, auto b) { return a.y() < b.y(); });
        QCOMPARE(maxY->y(), 5000.0);
    }

    void thinnedPointsAreInputPoints()
    {
        const std::vector<double> xs = {0.5, 0.6, 2.5, 2.7, 2.9};
        const std::vector<double> ys = {1, 3, 9, 4, 7};
        const QList<QPointF> out = thinMinMax(xs, ys, 0, 5, 5);
        // Column 0 keeps min (0.5, 1) and max (0.6, 3); column 2 keeps max (2.5, 9) and min
        // (2.7, 4), in x order; (2.9, 7) is neither.
        const QList<QPointF> expected = {{0.5, 1}, {0.6, 3}, {2.5, 9}, {2.7, 4}};
        QCOMPARE(out, expected);
    }

    void nanIsSkippedAndOutOfRangeClamps()
    {
        const std::vector<double> xs = {-5, 1, 2, 50};
        const std::vector<double> ys = {1, NAN, 2, 3};
        const QList<QPointF> out = thinMinMax(xs, ys, 0, 10, 10);
        QCOMPARE(out.size(), 3);
        QCOMPARE(out.first(), QPointF(-5, 1)); // into the first column
        QCOMPARE(out.last(), QPointF(50, 3));  // into the last
        QVERIFY(thinMinMax(std::vector<double>{}, std::vector<double>{}, 0, 1, 10).isEmpty());
    }

    void cdfIsMonotoneAndKeepsEnds_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("buckets");
        QTest::newRow("small") << 5 << 100;
        QTest::newRow("large") << 200000 << 600;
        QTest::newRow("single") << 1 << 10;
    }
    void cdfIsMonotoneAndKeepsEnds()
    {
        QFETCH(int, n);
        QFETCH(int, buckets);
        QRandomGenerator rng(7);
        std::vector<double> v(static_cast<size_t>(n));
        for (auto &x : v)
            x = 10 + rng.bounded(5.0) + (rng.bounded(1000) == 0 ? 900 : 0); // a long tail
        std::sort(v.begin(), v.end());
        const QList<QPointF> cdf = cdfPoints(v, buckets);
        QVERIFY(!cdf.isEmpty());
        QVERIFY(cdf.size() <= 2 * buckets + 2);
        QCOMPARE(cdf.first(), QPointF(v.front(), 1.0 / n));
        QCOMPARE(cdf.last(), QPointF(v.back(), 1.0));
        for (qsizetype i = 1; i < cdf.size(); ++i) {
            QVERIFY(cdf.at(i).x() >= cdf.at(i - 1).x());
            QVERIFY(cdf.at(i).y() > cdf.at(i - 1).y());
        }
        // Every point lies on the exact empirical CDF.
        for (const QPointF &p : cdf) {
            const auto upper = std::upper_bound(v.begin(), v.end(), p.x()) - v.begin();
            const auto lower = std::lower_bound(v.begin(), v.end(), p.x()) - v.begin();
            const double rank = p.y() * n;
            QVERIFY(rank >= double(lower) + 1 - 1e-6 && rank <= double(upper) + 1e-6);
        }
    }

    void histogramCountsEverySample()
    {
        std::vector<double> v;
        for (int i = 0; i < 1000; ++i)
            v.push_back(i % 100);
        v.push_back(100000); // straggler
        std::sort(v.begin(), v.end());
        const Histogram h = makeHistogram(v, 10, 0.99);
        qint64 total = h.above;
        for (qint64 c : h.counts)
            total += c;
        QCOMPARE(total, qint64(v.size()));
        QCOMPARE(h.above, qint64(1));
        QCOMPARE(h.lo, 0.0);
        QVERIFY(h.hi < 100000);
        const QList<QPointF> o = h.outline();
        QCOMPARE(o.size(), 2 * 10 + 2);
        QCOMPARE(o.first().y(), 0.0);
        QCOMPARE(o.last().y(), 0.0);

        const std::vector<double> same = {3, 3, 3};
        const Histogram one = makeHistogram(same, 5);
        QCOMPARE(one.counts.first(), qint64(3));
        QVERIFY(one.hi > one.lo);
    }
    // A large run's ITL distribution is drawn from a FineHistogram: every point it draws must be
    // where the exact sample puts it, within one bucket (2^-12 of the value).
    void fineHistogramCdfWithinOneBucket_data()
    {
        QTest::addColumn<int>("samples");
        QTest::addColumn<int>("buckets");
        QTest::newRow("ITL-like, 200k") << 200000 << 800;
        QTest::newRow("few samples") << 7 << 800;
        QTest::newRow("narrow columns") << 50000 << 1600;
    }
    void fineHistogramCdfWithinOneBucket()
    {
        QFETCH(int, samples);
        QFETCH(int, buckets);
        QRandomGenerator rng(7);
        std::vector<double> exact;
        FineHistogram h;
        for (int i = 0; i < samples; ++i) {
            // Gaps around 10 ms with a long tail and a few zeros, as floats (the pool's type).
            const float v =
                i % 97 == 0
                    ? 0.0f
                    : float(10.0 + rng.bounded(0.5) + (i % 50 == 0 ? rng.bounded(200.0) : 0.0));
            exact.push_back(double(v));
            h.add(v);
        }
        std::sort(exact.begin(), exact.end());
        QCOMPARE(h.count(), qint64(samples));
        QCOMPARE(h.min(), exact.front());
        QCOMPARE(h.max(), exact.back());
        const double eps = std::ldexp(1.0, -12);
        const auto ecdf = [&exact](double x) {
            return double(std::upper_bound(exact.begin(), exact.end(), x) - exact.begin()) /
                   double(exact.size());
        };
        const auto below = [&exact](double x) {
            return double(std::lower_bound(exact.begin(), exact.end(), x) - exact.begin()) /
                   double(exact.size());
        };
        const QList<QPointF> cdf = h.cdf(buckets);
        QVERIFY(!cdf.isEmpty());
        QVERIFY(cdf.size() <= 2 * buckets);
        QCOMPARE(cdf.constLast().y(), 1.0);
        for (const QPointF &p : cdf) {
            // Some sample within one bucket of x has exactly this cumulative fraction.
            const double lo = p.x() * (1 - eps) - 1e-12;
            const double hi = p.x() * (1 + eps) + 1e-12;
            QVERIFY2(below(lo) <= p.y() + 1e-12 && p.y() <= ecdf(hi) + 1e-12,
                     qPrintable(u"point (%1, %2): exact CDF %3 .. %4"_s.arg(p.x())
                                    .arg(p.y())
                                    .arg(below(lo))
                                    .arg(ecdf(hi))));
        }
        for (qsizetype i = 1; i < cdf.size(); ++i) {
            QVERIFY(cdf.at(i).x() >= cdf.at(i - 1).x());
            QVERIFY(cdf.at(i).y() >= cdf.at(i - 1).y());
        }
    }

    void fineHistogramBinsLikeTheExactSample()
    {
        QRandomGenerator rng(11);
        std::vector<double> exact;
        FineHistogram h;
        for (int i = 0; i < 100000; ++i) {
            const float v = float(5.0 + rng.bounded(20.0) + (i % 1000 == 0 ? 500.0 : 0.0));
            exact.push_back(double(v));
            h.add(v);
        }
        std::sort(exact.begin(), exact.end());
        const Histogram fine = h.histogram(60, 0.995);
        const Histogram ref = makeHistogram(exact, 60, 0.995);
        const double eps = std::ldexp(1.0, -12);
        QCOMPARE(fine.lo, ref.lo);
        QVERIFY2(std::abs(fine.hi - ref.hi) <= ref.hi * eps,
                 qPrintable(u"hi %1 vs %2"_s.arg(fine.hi).arg(ref.hi)));
        qint64 total = fine.above;
        for (qint64 c : fine.counts)
            total += c;
        QCOMPARE(total, qint64(exact.size()));
        // A sample may change bins only when it lies within one bucket of a bin edge.
        qint64 nearEdge = 0;
        const double w = ref.binWidth();
        for (double v : exact) {
            const double pos = (v - ref.lo) / w;
            const double edgeDistance = std::abs(pos - std::round(pos)) * w;
            if (edgeDistance <= v * eps * 2 || std::abs(v - ref.hi) <= v * eps * 2)
                ++nearEdge;
        }
        qint64 moved = std::abs(fine.above - ref.above);
        for (int b = 0; b < 60; ++b)
            moved += std::abs(fine.counts.at(b) - ref.counts.at(b));
        QVERIFY2(moved <= 2 * nearEdge,
                 qPrintable(u"%1 samples moved, %2 near an edge"_s.arg(moved).arg(nearEdge)));
    }
};

QTEST_MAIN(TestThinning)
#include "tst_thinning.moc"
