#include "metrics/cacheaudit.h"
#include "metrics/requestrecord.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

constexpr qint64 kMs = 1'000'000;

// One successful request of prompt `item` with the given TTFT; cached = -1: not reported.
RequestRecord rec(qint32 item, double ttftMs, qint32 cached = -1)
{
    RequestRecord r;
    r.index = item;
    r.datasetItem = item;
    r.tSched = 1000 * kMs + item * 1000 * kMs;
    r.tSend = r.tSched;
    r.tFirst = r.tSend + qint64(ttftMs * kMs);
    r.tLast = r.tFirst;
    r.tEnd = r.tFirst + kMs;
    r.chunkTimes = {r.tFirst};
    r.chunkTokens = {1};
    r.inputTokens = 512;
    r.outputTokens = 1;
    r.cachedTokens = cached;
    r.httpStatus = 200;
    r.finishReason = u"length"_s;
    return r;
}

QList<RequestRecord> pass(const QList<double> &ttfts, qint32 cached = -1)
{
    QList<RequestRecord> out;
    for (int i = 0; i < ttfts.size(); ++i)
        out.append(rec(i, ttfts[i], cached));
    return out;
}

} // namespace

class TestCacheAudit : public QObject
{
    Q_OBJECT

private slots:
    void tQuantile_data()
    {
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("df");
        QTest::addColumn<double>("expected");
        // Standard t tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2), more digits from the
        // closed forms where they exist: df 1 = tan(pi (p - 1/2)), df 2 = (2p-1)/sqrt(2p(1-p)).
        QTest::newRow("df 1, 0.975") << 0.975 << 1.0 << std::tan(M_PI * 0.475);
        QTest::newRow("df 2, 0.975") << 0.975 << 2.0 << 0.95 / std::sqrt(2 * 0.975 * 0.025);
        QTest::newRow("df 4, 0.975") << 0.975 << 4.0 << 2.776445105;
        QTest::newRow("df 7, 0.975") << 0.975 << 7.0 << 2.364624251;
        QTest::newRow("df 31, 0.975") << 0.975 << 31.0 << 2.039513446;
        QTest::newRow("df 10, 0.995") << 0.995 << 10.0 << 3.169272667;
        QTest::newRow("df 5, 0.025 (lower tail)") << 0.025 << 5.0 << -2.570581836;
        QTest::newRow("median") << 0.5 << 3.0 << 0.0;
        QTest::newRow("df 1e6 ~ normal") << 0.975 << 1e6 << 1.959966;
    }

    void tQuantile()
    {
        QFETCH(double, p);
        QFETCH(double, df);
        QFETCH(double, expected);
        const double t = studentTQuantile(p, df);
        QVERIFY2(std::fabs(t - expected) < 1e-6,
                 qPrintable(u"t = %1, expected %2"_s.arg(t, 0, 'g', 12).arg(expected, 0, 'g', 12)));
    }

    void tQuantileOutOfRange()
    {
        QVERIFY(std::isnan(studentTQuantile(0, 3)));
        QVERIFY(std::isnan(studentTQuantile(1, 3)));
        QVERIFY(std::isnan(studentTQuantile(0.9, 0)));
    }

    void verdicts_data()
    {
        QTest::addColumn<QList<double>>("warm");
        QTest::addColumn<QList<double>>("control");
        QTest::addColumn<qint32>("warmCached");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<double>("ciLow");
        QTest::addColumn<double>("ciHigh");
        QTest::addColumn<int>("verdict");

        // By hand: d = ln .5, ln .4, ln .6 = -0.693147, -0.916291, -0.510826; mean -0.706755
        // (ratio = cube root of .5*.4*.6 = .12^(1/3) = 0.493242); s = sqrt(0.082478 / 2) =
        // 0.203075; t(0.975, 2) = 4.302653; half width 4.302653 * 0.203075 / sqrt(3) = 0.504468;
        // CI = [exp(-1.211223), exp(-0.202287)] = [0.297834, 0.816859]: upper bound < 0.9.
        QTest::newRow("detected by TTFT")
            << QList<double>{50, 40, 60} << QList<double>{100, 100, 100} << qint32(-1) << 0.493242
            << 0.297834 << 0.816859 << int(CacheVerdict::Detected);
        // d = 0, ln 1.04, ln 0.96 = 0, 0.039221, -0.040822; mean -0.000534; s = 0.040024;
        // half = 4.302653 * 0.040024 / sqrt(3) = 0.099425: CI [0.904875, 1.103946] holds 1.
        QTest::newRow("no effect")
            << QList<double>{100, 104, 96} << QList<double>{100, 100, 100} << qint32(-1) << 0.999466
            << 0.904875 << 1.103946 << int(CacheVerdict::NotDetected);
        // Same timing, but the server says pass B hit its cache: detected all the same.
        QTest::newRow("detected by cached tokens")
            << QList<double>{100, 104, 96} << QList<double>{100, 100, 100} << qint32(496)
            << 0.999466 << 0.904875 << 1.103946 << int(CacheVerdict::Detected);
        // Cached tokens reported as 0 are no evidence either way.
        QTest::newRow("zero cached tokens")
            << QList<double>{100, 104, 96} << QList<double>{100, 100, 100} << qint32(0) << 0.999466
            << 0.904875 << 1.103946 << int(CacheVerdict::NotDetected);
        // d = ln .95, ln .94, ln .96; mean -0.051330, s = 0.010527, half = 0.026149:
        // CI [0.925445, 0.975134] excludes 1 but is not below 0.9.
        QTest::newRow("small effect: inconclusive")
            << QList<double>{95, 94, 96} << QList<double>{100, 100, 100} << qint32(-1) << 0.949965
            << 0.925445 << 0.975134 << int(CacheVerdict::Inconclusive);
        // Different control TTFTs per prompt: the pairing matters. B_i/C_i = 0.5 exactly for
        // every prompt: s = 0, the interval collapses onto 0.5.
        QTest::newRow("paired, constant ratio")
            << QList<double>{20, 100, 400} << QList<double>{40, 200, 800} << qint32(-1) << 0.5
            << 0.5 << 0.5 << int(CacheVerdict::Detected);
    }

    void verdicts()
    {
        QFETCH(QList<double>, warm);
        QFETCH(QList<double>, control);
        QFETCH(qint32, warmCached);
        QFETCH(double, ratio);
        QFETCH(double, ciLow);
        QFETCH(double, ciHigh);
        QFETCH(int, verdict);
        const CacheAuditResult r = auditCache(pass(control), pass(warm, warmCached), pass(control));
        QCOMPARE(r.pairs, qint64(warm.size()));
        QVERIFY2(std::fabs(r.ratio - ratio) < 1e-6, qPrintable(QString::number(r.ratio, 'g', 10)));
        QVERIFY2(std::fabs(r.ciLow - ciLow) < 1e-6, qPrintable(QString::number(r.ciLow, 'g', 10)));
        QVERIFY2(std::fabs(r.ciHigh - ciHigh) < 1e-6,
                 qPrintable(QString::number(r.ciHigh, 'g', 10)));
        QVERIFY(std::fabs(r.tQuantile - 4.302653) < 1e-6);
        QCOMPARE(int(r.verdict), verdict);
        QVERIFY(r.hasInterval());
    }

    void passStatistics()
    {
        const CacheAuditResult r = auditCache(
            pass({100, 110, 90, 120}), pass({50, 40, 60, 70}, 512), pass({100, 100, 100, 100}));
        QCOMPARE(r.cold.name, u"A"_s);
        QCOMPARE(r.cold.requests, qint64(4));
        QCOMPARE(r.cold.succeeded, qint64(4));
        QCOMPARE(r.cold.meanTtftMs, 105.0);   // 420 / 4
        QCOMPARE(r.cold.medianTtftMs, 105.0); // (100 + 110) / 2
        QVERIFY(!r.cold.cachedTokensReported());
        QCOMPARE(r.warm.meanTtftMs, 55.0);
        QCOMPARE(r.warm.medianTtftMs, 55.0);
        QCOMPARE(r.warm.cachedReported, qint64(4));
        QCOMPARE(r.warm.cachedTokens, qint64(2048));
        QCOMPARE(r.control.meanTtftMs, 100.0);
        QCOMPARE(r.verdict, CacheVerdict::Detected);
    }

    void failedAndWarmupLeftOut()
    {
        // Pass B in another order, with a failed request and a warm-up request; pass C misses
        // prompt 3. Pairs: prompts 0 and 2 only (1 failed in B, 3 absent from C).
        QList<RequestRecord> warm = {rec(2, 30), rec(0, 50), rec(1, 10), rec(3, 10), rec(0, 1)};
        warm[2].error = ErrorClass::Http5xx;
        warm[4].warmup = true;
        QList<RequestRecord> control = {rec(0, 100), rec(1, 100), rec(2, 100)};
        const CacheAuditResult r = auditCache({}, warm, control);
        QCOMPARE(r.warm.requests, qint64(4));  // the warm-up is not counted
        QCOMPARE(r.warm.succeeded, qint64(3)); // the failed one has no TTFT
        QCOMPARE(r.warm.meanTtftMs, 30.0);     // (30 + 50 + 10) / 3
        QCOMPARE(r.pairs, qint64(2));
        // d = ln .5, ln .3: ratio = sqrt(.15).
        QVERIFY(std::fabs(r.ratio - std::sqrt(0.15)) < 1e-12);
        QCOMPARE(r.cold.requests, qint64(0));
        QVERIFY(std::isnan(r.cold.meanTtftMs));
    }

    void tooFewPairs()
    {
        const CacheAuditResult r = auditCache(pass({100}), pass({50}), pass({100}));
        QCOMPARE(r.pairs, qint64(1));
        QCOMPARE(r.ratio, 0.5);
        QVERIFY(!r.hasInterval());
        QCOMPARE(r.verdict, CacheVerdict::Inconclusive);
        QVERIFY(r.formatText().contains(u"n/a (needs at least 2 paired prompts)"_s));

        const CacheAuditResult none = auditCache({}, {}, {});
        QCOMPARE(none.pairs, qint64(0));
        QVERIFY(std::isnan(none.ratio));
        QCOMPARE(none.verdict, CacheVerdict::Inconclusive);
        QVERIFY(
            none.toJson().value(u"ttft_ratio_b_over_c"_s).toObject().value(u"ratio"_s).isNull());

        // Cached tokens decide even without timing evidence.
        QCOMPARE(auditCache({}, pass({50}, 16), pass({100})).verdict, CacheVerdict::Detected);
    }

    void jsonAndText()
    {
        const CacheAuditResult r =
            auditCache(pass({100, 100, 100}), pass({50, 40, 60}, 512), pass({100, 100, 100}));
        const QJsonObject j = r.toJson();
        QCOMPARE(j.value(u"verdict"_s).toString(), u"prefix cache detected"_s);
        QCOMPARE(j.value(u"verdict_key"_s).toString(), u"detected"_s);
        const QJsonArray passes = j.value(u"passes"_s).toArray();
        QCOMPARE(passes.size(), 3);
        QCOMPARE(passes[0].toObject().value(u"pass"_s).toString(), u"A"_s);
        QVERIFY(passes[0].toObject().value(u"cached_tokens"_s).isNull()); // not reported
        QCOMPARE(passes[1].toObject().value(u"cached_tokens"_s).toInteger(), 1536);
        QCOMPARE(passes[1].toObject().value(u"mean_ttft_ms"_s).toDouble(), 50.0);
        const QJsonObject ratio = j.value(u"ttft_ratio_b_over_c"_s).toObject();
        QCOMPARE(ratio.value(u"pairs"_s).toInteger(), 3);
        QVERIFY(std::fabs(ratio.value(u"ci_high"_s).toDouble() - 0.816859) < 1e-6);
        QVERIFY(ratio.value(u"method"_s).toString().contains(u"paired by prompt"_s));

        const QString text = r.formatText();
        QVERIFY(text.contains(u"Pass A: cold"_s));
        QVERIFY(text.contains(u"Cached prompt tokens:                    not reported"_s));
        QVERIFY(text.contains(
            u"Cached prompt tokens:                    1536 (reported by 3 of 3 requests)"_s));
        QVERIFY(text.contains(u"TTFT ratio B/C (geometric mean):         0.493"_s));
        QVERIFY(text.contains(u"95% confidence interval:                 [0.298, 0.817]"_s));
        QVERIFY(text.contains(u"Verdict: prefix cache detected\n"_s));
        QVERIFY(text.contains(u"--cache-bust"_s));
    }

    void verdictNames()
    {
        QCOMPARE(cacheVerdictText(CacheVerdict::NotDetected), u"no prefix-cache effect detected"_s);
        QCOMPARE(QByteArray(cacheVerdictKey(CacheVerdict::Inconclusive)),
                 QByteArray("inconclusive"));
    }
};

QTEST_GUILESS_MAIN(TestCacheAudit)
#include "tst_cacheaudit.moc"
