#include "report/comparability.h"

#include "config/runplan.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

RunPlan basePlan()
{
    RunPlan p;
    p.name = u"base"_s;
    p.sut.name = u"vllm-a100"_s;
    p.sut.baseUrl = u"http://10.0.0.1:8000"_s;
    p.sut.endpoint = u"/v1/completions"_s;
    p.sut.model = u"meta-llama/Llama-3.1-8B-Instruct"_s;
    p.sut.engine = u"vllm"_s;
    p.sut.engineVersion = u"0.10.1"_s;
    p.sut.gpuModel = u"A100-80GB"_s;
    p.sut.gpuCount = 1;
    p.dataset.kind = DatasetKind::ShareGpt;
    p.profile.scenario = Scenario::None;
    p.profile.arrival = ArrivalProcess::Poisson;
    p.profile.requestRate = 8;
    p.profile.maxConcurrency = 64;
    p.profile.numPrompts = 500;
    p.params.ignoreEos = false;
    p.params.temperature = 0;
    return p;
}

QJsonObject snapshot(const RunPlan &p, const QString &datasetHash = QString(64, u'a'),
                     const QString &tool = u"0.1.0"_s)
{
    QJsonObject s = p.toJson();
    s[u"dataset_info"_s] = QJsonObject{{u"sha256"_s, datasetHash}, {u"version_label"_s, u"v1"_s}};
    s[u"tool_version"_s] = tool;
    s[u"command"_s] = u"servebench-cli run ..."_s;
    return s;
}

} // namespace

class TestComparability : public QObject
{
    Q_OBJECT
private slots:
    void pairs_data();
    void pairs();
    void threeRunsListEveryValue();
    void jsonAndText();
};

void TestComparability::pairs_data()
{
    QTest::addColumn<QJsonObject>("a");
    QTest::addColumn<QJsonObject>("b");
    QTest::addColumn<int>("variables");
    QTest::addColumn<QString>("single");        // expected singleVariable()
    QTest::addColumn<QStringList>("differing"); // keys of every differing field
    QTest::addColumn<bool>("rankable");
    QTest::addColumn<bool>("comparable");
    QTest::addColumn<QString>("verdictPart");

    const RunPlan base = basePlan();
    QTest::newRow("identical") << snapshot(base) << snapshot(base) << 0 << QString()
                               << QStringList() << true << true << u"repeat runs"_s;

    RunPlan rate = base;
    rate.profile.requestRate = 16;
    QTest::newRow("rate only") << snapshot(base) << snapshot(rate) << 1 << u"request rate"_s
                               << QStringList{u"request_rate"_s} << true << false
                               << u"exactly one variable differs — request rate"_s;

    RunPlan sut = base;
    sut.sut.name = u"sglang-h100"_s;
    sut.sut.engine = u"sglang"_s;
    sut.sut.engineVersion = u"0.4.9"_s;
    sut.sut.gpuModel = u"H100"_s;
    QTest::newRow("SUT only") << snapshot(base) << snapshot(sut) << 1
                              << u"SUT (SUT, engine, engine version, GPUs)"_s
                              << QStringList{u"sut_name"_s, u"engine"_s, u"engine_version"_s,
                                             u"gpu"_s}
                              << true << true << u"exactly one variable differs — SUT"_s;

    RunPlan several = sut;
    several.params.temperature = 0.7;
    several.profile.cacheBust = true;
    several.profile.warmupRequests = 10;
    QTest::newRow("several") << snapshot(base) << snapshot(several) << 4 << QString()
                             << QStringList{u"temperature"_s, u"cache_policy"_s,
                                            u"warmup"_s,      u"sut_name"_s,
                                            u"engine"_s,      u"engine_version"_s,
                                            u"gpu"_s}
                             << true << false << u"Confounded: 4 variables differ"_s;

    RunPlan params = base;
    params.params.ignoreEos = true;
    params.params.extraBody = QJsonObject{{u"top_p"_s, 0.9}};
    params.dataset.sharegptOutputLen = 256;
    params.profile.goodput.ttftMs = 200;
    QTest::newRow("request params and SLO")
        << snapshot(base) << snapshot(params) << 4 << QString()
        << QStringList{u"max_tokens"_s, u"ignore_eos"_s, u"extra_body"_s, u"slo"_s} << true << false
        << u"Confounded"_s;

    RunPlan offline = base;
    offline.profile.scenario = Scenario::Offline;
    RunPlan server = base;
    server.profile.scenario = Scenario::Server;
    QTest::newRow("server vs offline")
        << snapshot(server) << snapshot(offline) << 1 << u"scenario"_s << QStringList{u"scenario"_s}
        << false << false << u"Not rankable: the runs use different scenarios"_s;

    QTest::newRow("different datasets")
        << snapshot(base) << snapshot(base, QString(64, u'b')) << 1 << u"dataset (content hash)"_s
        << QStringList{u"dataset_hash"_s} << false << false << u"different datasets"_s;

    QTest::newRow("tool version only")
        << snapshot(base) << snapshot(base, QString(64, u'a'), u"0.2.0"_s) << 0 << QString()
        << QStringList{u"tool_version"_s} << true << true << u"repeat runs"_s;

    // An imported run cannot tell its dataset or request parameters: unknown, not "equal".
    QJsonObject imported = snapshot(base, QString());
    imported[u"unknown_fields"_s] =
        QJsonArray{u"dataset_hash"_s, u"temperature"_s, u"ignore_eos"_s};
    imported[u"imported"_s] =
        QJsonObject{{u"tool"_s, u"vllm bench serve"_s}, {u"raw_records"_s, true}};
    QTest::newRow("imported unknowns")
        << snapshot(base) << imported << 0 << QString() << QStringList{u"source"_s} << true << false
        << u"Not confirmed: dataset (content hash), output-length policy (ignore_eos), temperature unknown"_s;
}

void TestComparability::pairs()
{
    QFETCH(QJsonObject, a);
    QFETCH(QJsonObject, b);
    QFETCH(int, variables);
    QFETCH(QString, single);
    QFETCH(QStringList, differing);
    QFETCH(bool, rankable);
    QFETCH(bool, comparable);
    QFETCH(QString, verdictPart);

    const Comparability c = checkComparability({a, b}, {u"#1 a"_s, u"#2 b"_s});
    QStringList keys;
    for (const auto &f : c.differences())
        keys << f.key;
    QCOMPARE(keys, differing);
    QCOMPARE(c.variableCount(), variables);
    QCOMPARE(c.singleVariable(), single);
    QCOMPARE(c.rankable(), rankable);
    QCOMPARE(c.comparable(), comparable);
    QVERIFY2(c.verdict().contains(verdictPart), qPrintable(c.verdict()));
    if (!rankable)
        QVERIFY(!c.refusals.isEmpty());
    // Every differing field lists one value per run.
    for (const auto &f : c.differences())
        QCOMPARE(f.values.size(), 2);
}

void TestComparability::threeRunsListEveryValue()
{
    RunPlan a = basePlan(), b = basePlan(), c = basePlan();
    b.profile.maxConcurrency = 128;
    c.profile.maxConcurrency = 256;
    const Comparability cmp =
        checkComparability({snapshot(a), snapshot(b), snapshot(c)}, {u"A"_s, u"B"_s, u"C"_s});
    QCOMPARE(cmp.singleVariable(), u"concurrency"_s);
    const auto diffs = cmp.workloadDifferences();
    QCOMPARE(diffs.size(), 1);
    QCOMPARE(diffs.first().values, (QStringList{u"max 64"_s, u"max 128"_s, u"max 256"_s}));
}

void TestComparability::jsonAndText()
{
    RunPlan a = basePlan(), b = basePlan();
    a.profile.scenario = Scenario::Server;
    b.profile.scenario = Scenario::Offline;
    const Comparability c = checkComparability({snapshot(a), snapshot(b)}, {u"A"_s, u"B"_s});
    const QJsonObject o = c.toJson();
    QCOMPARE(o.value(u"rankable"_s).toBool(), false);
    QCOMPARE(o.value(u"refusals"_s).toArray().size(), 1);
    const QString text = c.formatText();
    QVERIFY(text.contains(u"scenario [blocks ranking]"_s));
    QVERIFY(text.contains(u"A: server"_s));
    QVERIFY(text.contains(u"B: offline"_s));
}

QTEST_GUILESS_MAIN(TestComparability)
#include "tst_comparability.moc"
