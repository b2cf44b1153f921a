#include "config/runplan.h"
#include "load/mlperf.h"
#include "metrics/requestrecord.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>

using namespace sb;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kMs = 1000000;
constexpr qint64 kBase = 5000 * 1000 * kMs; // a monotonic clock far from zero

// One successful streamed request: sent `lagMs` after its schedule, first token after
// `ttftMs` (from the send), then `nOut - 1` more tokens `tpotMs` apart.
RequestRecord request(qint64 index, double schedS, double ttftMs, double tpotMs, int nOut = 11,
                      double lagMs = 0)
{
    RequestRecord r;
    r.index = index;
    r.tSched = kBase + qint64(schedS * 1e9);
    r.tQueued = r.tSched;
    r.tSend = r.tSched + qint64(lagMs * kMs);
    r.tFirst = r.tSend + qint64(ttftMs * kMs);
    r.tLast = r.tFirst + qint64(tpotMs * (nOut - 1) * kMs);
    r.tEnd = r.tLast + kMs;
    r.outputTokens = nOut;
    r.outputSource = TokenSource::ServerUsage;
    r.httpStatus = 200;
    return r;
}

RequestRecord failedRequest(qint64 index, double schedS)
{
    RequestRecord r;
    r.index = index;
    r.tSched = kBase + qint64(schedS * 1e9);
    r.tSend = r.tSched;
    r.tEnd = r.tSend + 30 * kMs;
    r.httpStatus = 500;
    r.error = ErrorClass::Http5xx;
    return r;
}

// n requests 0.1 s apart, TTFT 500 ms, TPOT 50 ms.
QList<RequestRecord> goodServerRun(int n)
{
    QList<RequestRecord> rs;
    for (int i = 0; i < n; ++i)
        rs.append(request(i, i * 0.1, 500, 50));
    return rs;
}

MlperfConstraints llama2Server(bool withMinimums)
{
    MlperfConstraints c;
    mlperfPreset(u"llama2-70b-server"_s, &c);
    if (!withMinimums) {
        c.minDurationS = 0;
        c.minQueryCount = 0;
    }
    return c;
}

} // namespace

class TestMlperf : public QObject
{
    Q_OBJECT
private slots:
    void presets_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("ttft");
        QTest::addColumn<double>("tpot");
        QTest::addColumn<qint64>("minQueries");
        QTest::newRow("llama2-70b-server")
            << u"llama2-70b-server"_s << 2000.0 << 200.0 << qint64(100);
        QTest::newRow("llama2-70b-interactive")
            << u"llama2-70b-interactive"_s << 450.0 << 40.0 << qint64(100);
        QTest::newRow("llama3.1-8b-server")
            << u"llama3.1-8b-server"_s << 2000.0 << 100.0 << qint64(100);
        QTest::newRow("llama3.1-8b-interactive")
            << u"llama3.1-8b-interactive"_s << 500.0 << 30.0 << qint64(100);
        QTest::newRow("llama3.1-405b-server")
            << u"llama3.1-405b-server"_s << 6000.0 << 175.0 << qint64(100);
        QTest::newRow("llama2-70b-offline")
            << u"llama2-70b-offline"_s << -1.0 << -1.0 << qint64(24576);
    }

    void presets()
    {
        QFETCH(QString, name);
        QFETCH(double, ttft);
        QFETCH(double, tpot);
        QFETCH(qint64, minQueries);
        MlperfConstraints c;
        QVERIFY(mlperfPresetNames().contains(name));
        QVERIFY(mlperfPreset(name, &c));
        QCOMPARE(c.preset, name);
        QCOMPARE(c.ttftBoundMs, ttft);
        QCOMPARE(c.tpotBoundMs, tpot);
        QCOMPARE(c.minQueryCount, minQueries);
        QCOMPARE(c.minDurationS, 600.0);
        QVERIFY(!mlperfPreset(u"no-such-model"_s, &c));
    }

    void loadgenPercentileIndex()
    {
        QList<double> v;
        for (int i = 0; i < 100; ++i)
            v.append(i);
        QCOMPARE(loadgenPercentile(v, 0.99), 99.0); // sorted[floor(100 * 0.99)]
        QCOMPARE(loadgenPercentile(v, 0.90), 90.0);
        QCOMPARE(loadgenPercentile(v, 0.5), 50.0);
        v.append(100);
        QCOMPARE(loadgenPercentile(v, 0.99), 99.0); // floor(101 * 0.99) = 99
        QVERIFY(std::isnan(loadgenPercentile({}, 0.99)));
    }

    void server_data()
    {
        QTest::addColumn<QList<RequestRecord>>("records");
        QTest::addColumn<bool>("withMinimums");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QStringList>("failed");

        QTest::newRow("meets everything") << goodServerRun(1000) << false << true << QStringList{};

        QList<RequestRecord> slowTtft = goodServerRun(1000);
        for (int i = 0; i < 20; ++i)
            slowTtft[i * 50] = request(i * 50, i * 5.0, 2345.1, 50);
        QTest::newRow("TTFT p99 over")
            << slowTtft << false << false
            << QStringList{u"TTFT p99 2345.1 ms > 2000 ms"_s, u"early stopping (TTFT)"_s};

        QList<RequestRecord> slowTpot = goodServerRun(1000);
        for (int i = 0; i < 20; ++i)
            slowTpot[i * 50 + 1] = request(i * 50 + 1, i * 5.0 + 0.1, 500, 250);
        QTest::newRow("TPOT p99 over")
            << slowTpot << false << false
            << QStringList{u"TPOT p99 250.0 ms > 200 ms"_s, u"early stopping (TPOT)"_s};

        // 3 of 1000 over: the p99 (sorted[990]) is fine, but 1000 queries absorb only 2.
        QList<RequestRecord> fewOver = goodServerRun(1000);
        for (int i : {100, 200, 300})
            fewOver[i] = request(i, i * 0.1, 2500, 50);
        QTest::newRow("early stopping only")
            << fewOver << false << false << QStringList{u"early stopping (TTFT)"_s};

        // Failed requests count as over-latency queries for both TTFT and TPOT.
        QList<RequestRecord> failures = goodServerRun(1000);
        for (int i : {10, 20, 30})
            failures[i] = failedRequest(i, i * 0.1);
        QTest::newRow("failed requests are over latency")
            << failures << false << false
            << QStringList{u"early stopping (TTFT)"_s, u"early stopping (TPOT)"_s};
        QList<RequestRecord> twoFailures = goodServerRun(1000);
        for (int i : {10, 20})
            twoFailures[i] = failedRequest(i, i * 0.1);
        QTest::newRow("two failures are absorbed") << twoFailures << false << true << QStringList{};

        // Latency counts from t_sched: a client that sent 1.8 s late turns a 500 ms TTFT into
        // 2300 ms for every request.
        QList<RequestRecord> late;
        for (int i = 0; i < 1000; ++i)
            late.append(request(i, i * 0.1, 500, 50, 11, 1800));
        QTest::newRow("late client")
            << late << false << false
            << QStringList{u"TTFT p99 2300.0 ms > 2000 ms"_s, u"early stopping (TTFT)"_s};

        QTest::newRow("too short for MLPerf") << goodServerRun(1000) << true << false
                                              << QStringList{u"min_duration 600 s > 99.9 s"_s};
        QTest::newRow("too few queries for early stopping")
            << goodServerRun(400) << false << false
            << QStringList{u"early stopping (TTFT)"_s, u"early stopping (TPOT)"_s};
    }

    void server()
    {
        QFETCH(QList<RequestRecord>, records);
        QFETCH(bool, withMinimums);
        QFETCH(bool, valid);
        QFETCH(QStringList, failed);
        const MlperfJudgement j =
            judgeScenario(Scenario::Server, records, llama2Server(withMinimums));
        QCOMPARE(j.failedConstraints, failed);
        QCOMPARE(j.valid, valid);
        const QJsonObject o = j.toJson();
        QCOMPARE(o.value(u"scenario"_s).toString(), u"server"_s);
        QCOMPARE(o.value(u"result"_s).toString(), valid ? u"VALID"_s : u"INVALID"_s);
        QCOMPARE(o.value(u"failed_constraints"_s).toArray().size(), failed.size());
        const QJsonObject ttft =
            o.value(u"early_stopping"_s).toObject().value(u"ttft"_s).toObject();
        for (const char *key : {"percentile", "queries", "overlatency_queries", "estimate_ms",
                                "satisfied", "queries_needed"})
            QVERIFY2(ttft.contains(QLatin1StringView(key)), key);
        QCOMPARE(ttft.value(u"queries"_s).toInteger(), records.size());
        QCOMPARE(ttft.value(u"satisfied"_s).toBool(), j.ttftEarlyStopping.satisfied);

        const QString block = j.formatMlperfBlock();
        QVERIFY(block.contains(valid ? u"Result is : VALID"_s : u"Result is : INVALID"_s));
        QVERIFY(block.contains(u"TTFT Early Stopping Result:"_s));
        QVERIFY(block.contains(u"TPOT Early Stopping Result:"_s));
        for (const QString &f : failed)
            QVERIFY2(block.contains(f), qPrintable(block));
        if (!j.ttftEarlyStopping.satisfied)
            QVERIFY2(block.contains(u"Would need to run at least %1 more queries"_s.arg(
                         j.ttftEarlyStopping.moreQueriesNeeded())),
                     qPrintable(block));
    }

    void serverDetails()
    {
        QList<RequestRecord> rs = goodServerRun(1000);
        for (int i : {100, 200, 300})
            rs[i] = request(i, i * 0.1, 2500, 50);
        const MlperfJudgement j = judgeScenario(Scenario::Server, rs, llama2Server(false));
        QCOMPARE(j.ttftPercentileMs, 500.0);
        QCOMPARE(j.tpotPercentileMs, 50.0);
        QVERIFY(j.perfConstraintsMet);
        QCOMPARE(j.ttftEarlyStopping.overlatencyQueries, 3);
        QCOMPARE(j.ttftEarlyStopping.queriesNeeded, 1001); // find(3, 0.99) + 3 = 998 + 3
        QCOMPARE(j.ttftEarlyStopping.moreQueriesNeeded(), 1);
        QCOMPARE(j.tpotEarlyStopping.overlatencyQueries, 0);
        QVERIFY(j.tpotEarlyStopping.satisfied);
        QVERIFY(std::abs(j.durationS - 99.9) < 1e-6);
    }

    void warmupIsExcluded()
    {
        QList<RequestRecord> rs = goodServerRun(1000);
        for (int i = 0; i < 50; ++i) {
            RequestRecord w = request(10000 + i, -10 + i * 0.01, 9000, 900);
            w.warmup = true;
            rs.append(w);
            RequestRecord f = failedRequest(20000 + i, -5);
            f.warmup = true;
            rs.append(f);
        }
        const MlperfJudgement j = judgeScenario(Scenario::Server, rs, llama2Server(false));
        QVERIFY(j.valid);
        QCOMPARE(j.queries, 1000);
        QCOMPARE(j.failedQueries, 0);
    }

    void minQueryCount()
    {
        MlperfConstraints c;
        QVERIFY(mlperfPreset(u"llama2-70b-offline"_s, &c));
        c.minDurationS = 0;
        QList<RequestRecord> rs;
        for (int i = 0; i < 100; ++i)
            rs.append(request(i, 0, 1000, 10, 51)); // all issued at once
        const MlperfJudgement j = judgeScenario(Scenario::Offline, rs, c);
        QVERIFY(!j.valid);
        QCOMPARE(j.failedConstraints, QStringList{u"min_query_count 24576 > 100"_s});
        QVERIFY(j.formatMlperfBlock().contains(u"Min queries satisfied : NO"_s));
    }

    void offlineThroughput()
    {
        MlperfConstraints c;
        c.minQueryCount = 100;
        QList<RequestRecord> rs;
        // 100 samples issued at t = 0; the last completes after 10 s (tEnd = tLast + 1 ms).
        for (int i = 0; i < 100; ++i) {
            RequestRecord r = request(i, 0, 100, 1, 50);
            r.tLast = kBase + qint64((i + 1) * 0.1 * 1e9) - kMs;
            r.tEnd = r.tLast + kMs;
            rs.append(r);
        }
        MlperfJudgement j = judgeScenario(Scenario::Offline, rs, c);
        QVERIFY2(j.valid, qPrintable(j.failedConstraints.join(u"; "_s)));
        QVERIFY(std::abs(j.durationS - 10.0) < 1e-9);
        QVERIFY(std::abs(j.samplesPerSecond - 10.0) < 1e-9);
        QVERIFY(std::abs(j.tokensPerSecond - 500.0) < 1e-9);
        const QJsonObject o = j.toJson();
        QCOMPARE(o.value(u"scenario"_s).toString(), u"offline"_s);
        QVERIFY(std::abs(o.value(u"samples_per_second"_s).toDouble() - 10.0) < 1e-9);
        QVERIFY(j.formatMlperfBlock().contains(u"Samples per second: 10.00"_s));

        rs[5] = failedRequest(5, 0);
        j = judgeScenario(Scenario::Offline, rs, c);
        QVERIFY(!j.valid);
        QCOMPARE(j.failedConstraints.size(), 1);
        QVERIFY(j.failedConstraints.first().startsWith(u"failed requests 1 > 0"_s));
        QVERIFY(std::abs(j.samplesPerSecond - 9.9) < 1e-9);
    }

    void singleStream_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<double>("estimate");
        QTest::newRow("100 queries") << 100 << true << 98.0;
        QTest::newRow("63 queries") << 63 << false << qQNaN();
    }

    void singleStream()
    {
        QFETCH(int, n);
        QFETCH(bool, valid);
        QFETCH(double, estimate);
        MlperfConstraints c;
        QVERIFY(mlperfPreset(u"single-stream"_s, &c));
        c.minDurationS = 0;
        c.minQueryCount = 0;
        QList<RequestRecord> rs;
        double t = 0;
        for (int i = 0; i < n; ++i) {
            // E2E from t_sched = (i + 1) ms, in a scrambled order: 1 ms of lag + TTFT + 10 tokens.
            const int k = (i * 37) % n;
            const double e2e = k + 1;
            rs.append(request(i, t, e2e / 2 - 0.5, (e2e / 2) / 10.0, 11, 0.5));
            t += e2e / 1000 + 0.001;
        }
        const MlperfJudgement j = judgeScenario(Scenario::SingleStream, rs, c);
        QCOMPARE(j.valid, valid);
        const QJsonObject es =
            j.toJson().value(u"early_stopping"_s).toObject().value(u"e2el"_s).toObject();
        if (valid) {
            QVERIFY2(std::abs(j.e2elEarlyStopping.estimateMs - estimate) < 1e-6,
                     qPrintable(QString::number(j.e2elEarlyStopping.estimateMs)));
            QCOMPARE(es.value(u"discarded"_s).toInteger(), 2);
            QVERIFY(j.formatMlperfBlock().contains(u"Would discard 2 highest latency queries"_s));
        } else {
            QCOMPARE(j.failedConstraints, QStringList{u"early stopping (E2EL)"_s});
            QCOMPARE(es.value(u"queries_needed"_s).toInteger(), 64);
            QVERIFY(es.value(u"estimate_ms"_s).isNull());
            QVERIFY(j.formatMlperfBlock().contains(u"Need to process at least 64 queries"_s));
        }
    }

    void noBoundsIsNotAServerJudgement()
    {
        MlperfConstraints c;
        const MlperfJudgement j = judgeScenario(Scenario::Server, goodServerRun(1000), c);
        QVERIFY(!j.valid);
        QVERIFY(j.failedConstraints.contains(u"no latency bound set (TTFT or TPOT)"_s));
        QVERIFY(!judgeScenario(Scenario::Server, {}, llama2Server(false)).valid);
    }
};

QTEST_GUILESS_MAIN(TestMlperf)
#include "tst_mlperf.moc"
