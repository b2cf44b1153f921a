// What a run scrapes (core/run/metricsplan.h): the SUT's own endpoint with the run's headers and
// key, the built-in simulator's GPU exporter, extra targets with tokens from the environment or
// the keychain (never from the plan), the timeout below the interval, and the run's route: with
// a proxy set for the SUT, the scrape of its /metrics goes through that proxy too.

#include "capturerelay.h"
#include "client/proxyconfig.h"
#include "run/metricsplan.h"
#include "servermetrics/metricsscraper.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

RunPlan plan(const QString &sutMetrics, const QList<MetricsTarget> &targets = {})
{
    RunPlan p;
    p.sut.baseUrl = u"http://gpu-box:8000/"_s;
    p.sut.extraHeaders = {{u"X-Tenant"_s, u"t1"_s}};
    p.sut.serverMetrics.sut = sutMetrics;
    p.sut.serverMetrics.targets = targets;
    return p;
}

QByteArray header(const ScrapeTarget &t, const QByteArray &name)
{
    for (const auto &h : t.headers)
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    return {};
}

} // namespace

class TestMetricsPlan : public QObject
{
    Q_OBJECT
private slots:
    void sutEndpoint_data()
    {
        QTest::addColumn<QString>("setting");
        QTest::addColumn<bool>("simulator");
        QTest::addColumn<QStringList>("urls");
        QTest::addColumn<QList<bool>>("optional");
        QTest::newRow("auto") << u"auto"_s << false << QStringList{u"http://gpu-box:8000/metrics"_s}
                              << QList<bool>{true};
        QTest::newRow("auto, simulator")
            << u"auto"_s << true
            << QStringList{u"http://gpu-box:8000/metrics"_s, u"http://gpu-box:8000/dcgm/metrics"_s}
            << QList<bool>{true, true};
        QTest::newRow("a URL") << u"http://gpu-box:9400/x"_s << true
                               << QStringList{u"http://gpu-box:9400/x"_s} << QList<bool>{false};
        QTest::newRow("off") << u"off"_s << true << QStringList{} << QList<bool>{};
    }
    void sutEndpoint()
    {
        QFETCH(QString, setting);
        QFETCH(bool, simulator);
        QFETCH(QStringList, urls);
        QFETCH(QList<bool>, optional);
        RunPlan p = plan(setting);
        p.sut.builtInSimulator = simulator;
        const ScrapePlan s = buildScrapePlan(p, "k3y", {}, {}, {});
        QCOMPARE(s.targets.size(), urls.size());
        for (qsizetype i = 0; i < urls.size(); ++i) {
            QCOMPARE(s.targets.at(i).url.toString(), urls.at(i));
            QCOMPARE(s.targets.at(i).optional, optional.at(i));
        }
        if (!urls.isEmpty()) {
            // The SUT's own endpoint carries what its requests carry; the GPU exporter does not.
            QCOMPARE(header(s.targets.first(), "Authorization"), QByteArray("Bearer k3y"));
            QCOMPARE(header(s.targets.first(), "X-Tenant"), QByteArray("t1"));
            if (s.targets.size() > 1)
                QVERIFY(s.targets.at(1).headers.isEmpty());
        }
        QCOMPARE(s.enabled(), !urls.isEmpty());
    }

    // A header given for the SUT replaces the API key's, as it does for the requests: the
    // scrape never carries the key where the requests do not.
    void sutHeaderReplacesTheKey()
    {
        RunPlan p = plan(u"auto"_s);
        p.sut.extraHeaders.append({u"authorization"_s, u"Bearer from-header"_s});
        const ScrapePlan s = buildScrapePlan(p, "k3y", {}, {}, {});
        QCOMPARE(s.targets.size(), 1);
        int auth = 0;
        for (const auto &h : s.targets.first().headers)
            if (h.first.compare("Authorization", Qt::CaseInsensitive) == 0) {
                ++auth;
                QCOMPARE(h.second, QByteArray("Bearer from-header"));
            }
        QCOMPARE(auth, 1);
        QCOMPARE(header(s.targets.first(), "X-Tenant"), QByteArray("t1"));
    }

    // A header that places the key ({api_key}) carries it on /metrics as on the requests, and
    // the default Authorization header is not added beside it.
    void keyPlacedByAHeader()
    {
        RunPlan p = plan(u"auto"_s);
        p.sut.extraHeaders.append({u"X-Gateway-Key"_s, u"{api_key}"_s});
        const ScrapePlan s = buildScrapePlan(p, "k3y", {}, {}, {});
        QCOMPARE(s.targets.size(), 1);
        QCOMPARE(header(s.targets.first(), "X-Gateway-Key"), QByteArray("k3y"));
        QCOMPARE(header(s.targets.first(), "Authorization"), QByteArray());
        QCOMPARE(header(s.targets.first(), "Content-Type"), QByteArray());
    }

    void targetTokens()
    {
        QProcessEnvironment env;
        env.insert(u"DCGM_TOKEN"_s, u"from-env"_s);
        const RunPlan p =
            plan(u"off"_s, {{u"dcgm"_s, u"http://h:9400/metrics"_s, u"env:DCGM_TOKEN"_s},
                            {u"node"_s, u"http://h:9100/metrics"_s, u"keychain:node"_s},
                            {u"gone"_s, u"http://h:1/m"_s, u"env:NOT_SET"_s},
                            {u"locked"_s, u"http://h:2/m"_s, u"keychain:other"_s},
                            {u"open"_s, u"http://h:3/m"_s, QString()}});
        const ScrapePlan s =
            buildScrapePlan(p, "api-key", {}, env, {{u"keychain:node"_s, "from-keychain"}});
        QCOMPARE(s.targets.size(), 5);
        QCOMPARE(header(s.targets.at(0), "Authorization"), QByteArray("Bearer from-env"));
        QCOMPARE(header(s.targets.at(1), "Authorization"), QByteArray("Bearer from-keychain"));
        // A missing token is said, and the target scraped without one (never the API key).
        for (int i = 2; i < 5; ++i)
            QVERIFY(s.targets.at(i).headers.isEmpty());
        const QString notes = s.notes.join(u'\n');
        QVERIFY2(notes.contains(u"NOT_SET"_s) && notes.contains(u"'gone'"_s), qPrintable(notes));
        QVERIFY2(notes.contains(u"keychain entry other"_s), qPrintable(notes));
        QVERIFY(!notes.contains(u"'open'"_s));
        QVERIFY(!notes.contains(u"from-env"_s) && !notes.contains(u"from-keychain"_s));
    }

    void timeoutBelowInterval_data()
    {
        QTest::addColumn<double>("intervalS");
        QTest::addColumn<int>("intervalMs");
        QTest::addColumn<int>("timeoutMs");
        QTest::newRow("default") << 0.5 << 500 << 300;
        QTest::newRow("fast") << 0.05 << 50 << 30;
        QTest::newRow("slow: capped") << 10.0 << 10000 << 2000;
    }
    void timeoutBelowInterval()
    {
        QFETCH(double, intervalS);
        QFETCH(int, intervalMs);
        QFETCH(int, timeoutMs);
        const ScraperOptions o = scraperOptionsFor(intervalS);
        QCOMPARE(o.intervalMs, intervalMs);
        QCOMPARE(o.timeoutMs, timeoutMs);
        QVERIFY(o.timeoutMs < o.intervalMs);
    }

    void tokenReferenceChecked()
    {
        RunPlan p = plan(u"auto"_s, {{u"a"_s, u"http://h:1/m"_s, u"vault:x"_s}});
        QList<PlanIssue> issues;
        validateServerMetrics(p, &issues);
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues.first().field, u"metrics-target"_s);
        QVERIFY(issues.first().message.text().contains(u"vault:x"_s));
        p.sut.serverMetrics.targets.first().tokenRef = u"keychain:x"_s;
        issues.clear();
        validateServerMetrics(p, &issues);
        QVERIFY(issues.isEmpty());
    }

    // The simulator's GPU is simulated and named so; a user's target is never shadowed by it and
    // never shares a name (issue 27: two targets named "dcgm", evidence from the simulated one).
    void simulatedGpuNeverShadowsAUsersTarget()
    {
        RunPlan p = plan(u"auto"_s);
        p.sut.builtInSimulator = true;
        ScrapePlan s = buildScrapePlan(p, {}, {}, {}, {});
        QCOMPARE(s.targets.size(), 2);
        QCOMPARE(s.targets.at(1).name, u"dcgm-simulated"_s);
        QVERIFY(s.notes.join(u'\n').contains(u"dcgm-simulated"_s));

        p.sut.serverMetrics.targets = {{u"dcgm"_s, u"http://gpu-host:9400/metrics"_s, {}}};
        s = buildScrapePlan(p, {}, {}, {}, {});
        QStringList names;
        for (const ScrapeTarget &t : std::as_const(s.targets))
            names << t.name;
        QCOMPARE(names, (QStringList{u"sut"_s, u"dcgm"_s}));
        QCOMPARE(s.targets.at(1).url.toString(), u"http://gpu-host:9400/metrics"_s);

        // The SUT's own endpoint's name is not a user's while that endpoint is scraped.
        p.sut.serverMetrics.targets = {{u"sut"_s, u"http://gpu-host:9400/metrics"_s, {}}};
        QList<PlanIssue> issues;
        validateServerMetrics(p, &issues);
        QCOMPARE(issues.size(), 1);
        QCOMPARE(QByteArray(issues.first().message.id()), "plan.metrics.target.reserved");
        p.sut.serverMetrics.sut = u"off"_s;
        issues.clear();
        validateServerMetrics(p, &issues);
        QVERIFY(issues.isEmpty());
    }

    // The SUT's /metrics goes the run's route: an explicit proxy carries it (in absolute form,
    // as every proxied plain-HTTP request), with the run's header and key.
    void scrapeGoesTheRunsRoute()
    {
        QTcpServer upstream;
        QVERIFY(upstream.listen(QHostAddress::LocalHost, 0));
        test::CaptureRelay relay(upstream.serverPort());
        RunPlan p = plan(u"auto"_s);
        p.sut.baseUrl = u"http://127.0.0.1:%1"_s.arg(upstream.serverPort());
        p.sut.proxy = u"http://127.0.0.1:%1"_s.arg(relay.port());
        TransportOptions route;
        QString error;
        QVERIFY2(resolveTransportOptions(p.sut, QProcessEnvironment(), &route, &error),
                 qPrintable(error));
        const ScrapePlan s = buildScrapePlan(p, "k3y", route, {}, {});
        MetricsScraper scraper;
        scraper.setTargets(s.targets);
        scraper.setOptions(s.options);
        QVERIFY2(scraper.start(&error), qPrintable(error));
        scraper.stop();
        const QByteArray seen = relay.received();
        const QByteArray line =
            "GET http://127.0.0.1:" + QByteArray::number(upstream.serverPort()) +
            "/metrics HTTP/1.1";
        QVERIFY2(seen.contains(line), seen.constData());
        QVERIFY(seen.contains("X-Tenant: t1"));
        QVERIFY(seen.contains("Authorization: Bearer k3y"));
    }
};

QTEST_GUILESS_MAIN(TestMetricsPlan)
#include "tst_metricsplan.moc"
