#include "config/runplan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestRunPlan : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip()
    {
        RunPlan p;
        p.name = u"plan"_s;
        p.sut.name = u"vllm-a100"_s;
        p.sut.baseUrl = u"http://127.0.0.1:8000"_s;
        p.sut.endpoint = u"/v1/chat/completions"_s;
        p.sut.flavour = ApiFlavour::Chat;
        p.sut.model = u"m"_s;
        p.sut.gpuCount = 8;
        p.sut.extraHeaders = {{u"X-Team"_s, u"perf"_s}};
        p.dataset.kind = DatasetKind::ShareGpt;
        p.dataset.path = u"/tmp/x.json"_s;
        p.profile.scenario = Scenario::Server;
        p.profile.requestRate = 12.5;
        p.profile.seed = 0xFFFFFFFFFFFFFFFFull; // must survive JSON
        p.profile.goodput.ttftMs = 200;
        p.params.temperature = 0;
        p.params.extraBody = QJsonObject{{u"top_k"_s, 5}};

        const auto json = QJsonDocument(p.toJson()).toJson();
        const RunPlan q = RunPlan::fromJson(QJsonDocument::fromJson(json).object());
        QCOMPARE(q.toJson(), p.toJson());
        QCOMPARE(q.profile.seed, p.profile.seed);
        QCOMPARE(q.sut.flavour, ApiFlavour::Chat);
        QCOMPARE(q.profile.requestRate, 12.5);
        QCOMPARE(q.profile.goodput.ttftMs, 200.0);
        QCOMPARE(q.profile.goodput.tpotMs, -1.0);
        QCOMPARE(q.params.temperature, 0.0);
    }

    // The cancellation load in a snapshot (docs/metrics.md, "Cancelled by the load"): stored
    // only when set, so plans without one keep their JSON (and hash); back as it was.
    void cancellationLoadRoundTrip()
    {
        LoadProfile p;
        QVERIFY(!p.toJson().contains(u"request_cancellation"_s));
        p.cancelRatePct = 30;
        p.cancelAfterTokens = 5;
        LoadProfile q = LoadProfile::fromJson(p.toJson());
        QCOMPARE(q.cancelRatePct, 30.0);
        QCOMPARE(q.cancelAfterTokens, 5);
        QCOMPARE(q.cancelDelayS, 0.0);
        QCOMPARE(q.toJson(), p.toJson());
        p.cancelAfterTokens = 0;
        p.cancelDelayS = 0.2;
        q = LoadProfile::fromJson(p.toJson());
        QCOMPARE(q.cancelDelayS, 0.2);
        QCOMPARE(q.cancelAfterTokens, 0);
        QCOMPARE(cancellationPointText(q), u"0.2 s after the request was written"_s);
    }

    void infiniteRateIsTheStringInf()
    {
        LoadProfile p;
        QCOMPARE(p.toJson().value(u"request_rate"_s).toString(), u"inf"_s);
        QVERIFY(LoadProfile::fromJson(p.toJson()).unlimitedRate());
    }

    void secretsAreScrubbed()
    {
        RunPlan p;
        p.sut.extraHeaders = {{u"Authorization"_s, u"Bearer abc"_s},
                              {u"X-Api-Key"_s, u"zzz"_s},
                              {u"X-Team"_s, u"perf"_s}};
        p.sut.apiKeyRef = u"env:OPENAI_API_KEY"_s;
        p.params.extraBody = QJsonObject{{u"api_key"_s, u"k"_s}, {u"max_tokens"_s, 5}};
        const auto text = QJsonDocument(p.toJson()).toJson();
        QVERIFY(!text.contains("Bearer abc"));
        QVERIFY(!text.contains("zzz"));
        QVERIFY(!text.contains("\"k\""));
        QVERIFY(text.contains("perf"));
        QVERIFY(text.contains("env:OPENAI_API_KEY"));
        QVERIFY(text.contains("max_tokens"));
    }

    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("flavour");
        QTest::newRow("openai") << u"openai"_s << true << int(ApiFlavour::Completions);
        QTest::newRow("vllm") << u"vllm"_s << true << int(ApiFlavour::Completions);
        QTest::newRow("chat") << u"openai-chat"_s << true << int(ApiFlavour::Chat);
        QTest::newRow("bad") << u"tgi"_s << false << int(ApiFlavour::Completions);
    }
    void names()
    {
        QFETCH(QString, name);
        QFETCH(bool, ok);
        QFETCH(int, flavour);
        ApiFlavour f = ApiFlavour::Completions;
        QCOMPARE(apiFlavourFromName(name, &f), ok);
        QCOMPARE(int(f), flavour);
    }
};

QTEST_GUILESS_MAIN(TestRunPlan)
#include "tst_runplan.moc"
