// The editors reject bad input with a message under the offending field, and the previews
// (dataset sample, schedule) come from core. The connection probe is checked against the
// built-in simulator, both streaming and unpaced (everything written at once).

#include "connectionprobe.h"
#include "editors/dataseteditor.h"
#include "editors/datasetpreviewmodel.h"
#include "editors/fielderror.h"
#include "editors/lengthhistogram.h"
#include "editors/loadprofileeditor.h"
#include "editors/schedulepreview.h"
#include "editors/suteditor.h"
#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "run/metricsplan.h"
#include "run/planvalidation.h"
#include "run/runrequest.h"
#include "sim/simulator.h"

#include "data/dataset.h"
#include "tokenizer/tokenizer.h"

#include <QAbstractItemModelTester>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTest>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {
SutConfig validSut()
{
    SutConfig s;
    s.name = u"vllm-h100"_s;
    s.baseUrl = u"http://gpu-host:8000"_s;
    s.model = u"meta-llama/Llama-3.1-8B-Instruct"_s;
    return s;
}

template <class W> void setText(QWidget *editor, const QString &name, const QString &text)
{
    W *w = editor->findChild<W *>(name);
    QVERIFY2(w, qPrintable(name));
    if constexpr (std::is_same_v<W, QPlainTextEdit>)
        w->setPlainText(text);
    else
        w->setText(text);
}

bool errorShown(QWidget *editor, const QString &key)
{
    auto *label = editor->findChild<FieldError *>(u"error_"_s + key);
    return label && label->isVisibleTo(editor) && !label->text().isEmpty();
}
} // namespace

class TestEditors : public QObject
{
    Q_OBJECT
private slots:
    void sutRejects_data();
    void sutRejects();
    void sutRoundTrip();
    void datasetRejects_data();
    void datasetRejects();
    void datasetLoadsSample_data();
    void datasetLoadsSample();
    void datasetCountsWithTheSutsTokenizer();
    void histogramBins_data();
    void histogramBins();
    void profileRejects_data();
    void profileRejects();
    void profileRequestParams_data();
    void profileRequestParams();
    void profilePreview();
    void profileConnectionSettings();
    void profileSeries();
    void probeJudge_data();
    void probeJudge();
    void probeAgainstSimulator_data();
    void probeAgainstSimulator();
    void editorsOpenAtTop_data();
    void editorsOpenAtTop();
    void testConnectionReachable();
    void metricsPlaceholderFollowsBaseUrl();
};

void TestEditors::sutRejects_data()
{
    QTest::addColumn<QString>("field"); // objectName of the widget
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("errorKey");
    QTest::newRow("empty name") << u"name"_s << u""_s << u"name"_s;
    QTest::newRow("blank name") << u"name"_s << u"   "_s << u"name"_s;
    QTest::newRow("no base url") << u"baseUrl"_s << u""_s << u"baseUrl"_s;
    QTest::newRow("ftp url") << u"baseUrl"_s << u"ftp://gpu-host"_s << u"baseUrl"_s;
    QTest::newRow("no scheme") << u"baseUrl"_s << u"gpu-host:8000"_s << u"baseUrl"_s;
    QTest::newRow("url with query") << u"baseUrl"_s << u"http://h:1/?x=1"_s << u"baseUrl"_s;
    QTest::newRow("relative endpoint") << u"endpoint"_s << u"v1/completions"_s << u"endpoint"_s;
    QTest::newRow("no model") << u"model"_s << u""_s << u"model"_s;
    QTest::newRow("header without colon")
        << u"extraHeaders"_s << u"X-Team acme"_s << u"extraHeaders"_s;
    QTest::newRow("credential header")
        << u"extraHeaders"_s << u"Authorization: Bearer sk-1"_s << u"extraHeaders"_s;
    // Not matched by the key-name test alone: the project file once kept this value.
    QTest::newRow("token header") << u"extraHeaders"_s << u"X-Api-Token: t0k3n"_s
                                  << u"extraHeaders"_s;
    QTest::newRow("bad env var") << u"keyName"_s << u"1BAD-NAME"_s << u"apiKey"_s;
    QTest::newRow("socks proxy") << u"proxy"_s << u"socks5://p:1080"_s << u"proxy"_s;
    QTest::newRow("proxy with password") << u"proxy"_s << u"http://user:pw@p:3128"_s << u"proxy"_s;
    QTest::newRow("missing tokenizer")
        << u"tokenizer"_s << u"/nonexistent/tokenizer.json"_s << u"tokenizer"_s;
    // Server metrics: the SUT's own URL, then extra targets (the syntax of --metrics-target).
    QTest::newRow("metrics URL not http")
        << u"metricsUrl"_s << u"ftp://gpu-host/metrics"_s << u"metrics"_s;
    QTest::newRow("metrics URL empty") << u"metricsUrl"_s << u""_s << u"metrics"_s;
    QTest::newRow("metrics URL with a password")
        << u"metricsUrl"_s << u"http://u:pw@gpu-host:8000/metrics"_s << u"metrics"_s;
    QTest::newRow("target without name")
        << u"metricsTargets"_s << u"http://h:9400/metrics"_s << u"metricsTargets"_s;
    QTest::newRow("target name twice")
        << u"metricsTargets"_s << u"a=http://h:1/m\na=http://h:2/m"_s << u"metricsTargets"_s;
    QTest::newRow("target name with a slash")
        << u"metricsTargets"_s << u"../x=http://h:1/m"_s << u"metricsTargets"_s;
    QTest::newRow("target with a password")
        << u"metricsTargets"_s << u"a=http://u:pw@h:1/m"_s << u"metricsTargets"_s;
    QTest::newRow("target token without a name")
        << u"metricsTargets"_s << u"a=http://h:1/m,token-env="_s << u"metricsTargets"_s;
}

void TestEditors::sutRejects()
{
    QFETCH(QString, field);
    QFETCH(QString, text);
    QFETCH(QString, errorKey);
    SutEditor editor;
    editor.setConfig(validSut());
    QVERIFY2(editor.isValid(), qPrintable(editor.errors().join(u"; "_s)));
    QVERIFY(!errorShown(&editor, errorKey));
    QSignalSpy validity(&editor, &SutEditor::validityChanged);
    if (field == "keyName"_L1)
        editor.findChild<QComboBox *>(u"keySource"_s)->setCurrentIndex(1); // environment variable
    if (field == "metricsUrl"_L1)
        editor.findChild<QComboBox *>(u"metricsMode"_s)->setCurrentIndex(2); // this URL
    if (field == "extraHeaders"_L1 || field == "metricsTargets"_L1)
        setText<QPlainTextEdit>(&editor, field, text);
    else
        setText<QLineEdit>(&editor, field, text);
    QVERIFY(!editor.isValid());
    QVERIFY(!editor.errorFor(errorKey).isEmpty());
    QVERIFY(errorShown(&editor, errorKey));
    QCOMPARE(validity.size(), 1);
    QCOMPARE(validity.first().first().toBool(), false);
    // Back to the valid configuration: the message disappears.
    editor.setConfig(validSut());
    QVERIFY(editor.isValid());
    QVERIFY(!errorShown(&editor, errorKey));
}

void TestEditors::sutRoundTrip()
{
    SutConfig s = validSut();
    s.flavour = ApiFlavour::Chat;
    s.endpoint = u"/v1/chat/completions"_s;
    s.weightsRevision = u"abc123"_s;
    s.engine = u"vLLM"_s;
    s.engineVersion = u"0.10.1"_s;
    s.gpuModel = u"H100"_s;
    s.gpuCount = 8;
    s.image = u"vllm/vllm-openai:v0.10.1"_s;
    s.replicas = 2;
    s.containers = 3;
    s.workersPerContainer = 4;
    s.region = u"eu-west-1"_s;
    s.clientLocation = u"same AZ"_s;
    s.notes = u"tp=8"_s;
    s.apiKeyRef = u"keychain:vllm-h100"_s;
    // A credential header by reference: stored as written, the key filled in only on the wire.
    s.extraHeaders = {{u"X-Team"_s, u"perf"_s}, {u"X-Gateway-Key"_s, u"{api_key}"_s}};
    s.caFile = u"/etc/ssl/private-ca.pem"_s;
    s.proxy = u"proxy.corp:3128"_s; // curl's short form is accepted as it is
    s.tokenizer = QStringLiteral(SB_TEST_DATA_DIR "/tokenizer/tiny/tokenizer.json");
    // Token references only: the tokens stay in the environment or the keychain.
    s.serverMetrics.sut = u"http://gpu-host:8000/engine/metrics"_s;
    s.serverMetrics.targets = {
        {u"dcgm"_s, u"http://gpu-host:9400/metrics?a=1,2"_s, u"env:DCGM_TOKEN"_s},
        {u"node"_s, u"https://gpu-host:9100/metrics"_s, u"keychain:node-exporter"_s},
        {u"plain"_s, u"http://gpu-host:1/m"_s, QString()}};
    SutEditor editor;
    editor.setConfig(s);
    QVERIFY2(editor.isValid(), qPrintable(editor.errors().join(u"; "_s)));
    QCOMPARE(editor.config().serverMetrics, s.serverMetrics);
    QCOMPARE(editor.config().toJson(), s.toJson());
    for (const QString &mode : {u"off"_s, u"auto"_s}) {
        SutConfig m = s;
        m.serverMetrics.sut = mode;
        m.serverMetrics.targets.clear();
        editor.setConfig(m);
        QCOMPARE(editor.config().serverMetrics, m.serverMetrics);
    }
    editor.setConfig(s);
    QCOMPARE(editor.config().caFile, s.caFile);
    QCOMPARE(editor.config().proxy, s.proxy);
    QCOMPARE(editor.config().tokenizer, s.tokenizer);
    s.proxy = u"none"_s;
    editor.setConfig(s);
    QVERIFY2(editor.isValid(), qPrintable(editor.errors().join(u"; "_s)));
    // The built-in simulator needs neither URL nor model.
    SutConfig sim;
    sim.name = u"sim"_s;
    sim.builtInSimulator = true;
    editor.setConfig(sim);
    QVERIFY2(editor.isValid(), qPrintable(editor.errors().join(u"; "_s)));
}

void TestEditors::datasetRejects_data()
{
    QTest::addColumn<int>("kind"); // DatasetKind
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("inputLen");
    QTest::addColumn<double>("rangeRatio");
    QTest::addColumn<QString>("errorKey");
    const QString data = QStringLiteral(SB_TEST_DATA_DIR) + u"/datasets/"_s;
    QTest::newRow("no name") << int(DatasetKind::Random) << QString() << u""_s << 128 << 0.0
                             << u"name"_s;
    QTest::newRow("zero input") << int(DatasetKind::Random) << QString() << u"d"_s << 0 << 0.0
                                << u"inputLen"_s;
    QTest::newRow("range ratio 1")
        << int(DatasetKind::Random) << QString() << u"d"_s << 128 << 1.0 << u"rangeRatio"_s;
    QTest::newRow("sharegpt no path")
        << int(DatasetKind::ShareGpt) << u""_s << u"d"_s << 128 << 0.0 << u"path"_s;
    QTest::newRow("missing file") << int(DatasetKind::ShareGpt) << data + u"nope.json"_s << u"d"_s
                                  << 128 << 0.0 << u"path"_s;
    QTest::newRow("invalid json") << int(DatasetKind::ShareGpt)
                                  << data + u"sharegpt_invalid_json.json"_s << u"d"_s << 128 << 0.0
                                  << u"load"_s;
    QTest::newRow("custom bad line")
        << int(DatasetKind::Custom) << data + u"custom_bad_json.jsonl"_s << u"d"_s << 128 << 0.0
        << u"load"_s;
}

void TestEditors::datasetRejects()
{
    QFETCH(int, kind);
    QFETCH(QString, path);
    QFETCH(QString, name);
    QFETCH(int, inputLen);
    QFETCH(double, rangeRatio);
    QFETCH(QString, errorKey);
    DatasetEditor editor;
    editor.setSampling(10, 1);
    DatasetSpec spec;
    spec.kind = DatasetKind(kind);
    spec.path = path;
    spec.randomInputLen = inputLen;
    spec.randomRangeRatio = rangeRatio;
    editor.setDataset(name, spec);
    // Load errors come from the worker thread.
    QTRY_VERIFY_WITH_TIMEOUT(!editor.isLoading(), 20000);
    QVERIFY(!editor.isValid());
    QVERIFY2(!editor.errorFor(errorKey).isEmpty(), qPrintable(editor.errors().join(u"; "_s)));
    QVERIFY(errorShown(&editor, errorKey));
    if (errorKey == "load"_L1)
        QVERIFY2(editor.errorFor(errorKey).contains(QFileInfo(path).fileName()),
                 qPrintable(editor.errorFor(errorKey)));
}

void TestEditors::datasetLoadsSample_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("prompts");
    const QString data = QStringLiteral(SB_TEST_DATA_DIR) + u"/datasets/"_s;
    QTest::newRow("synthetic") << int(DatasetKind::Random) << QString() << 40;
    QTest::newRow("sharegpt") << int(DatasetKind::ShareGpt) << data + u"sharegpt_good.json"_s << 2;
    QTest::newRow("custom") << int(DatasetKind::Custom) << data + u"custom_good.jsonl"_s << 2;
}

void TestEditors::datasetLoadsSample()
{
    QFETCH(int, kind);
    QFETCH(QString, path);
    QFETCH(int, prompts);
    DatasetEditor editor;
    QAbstractItemModelTester tester(editor.previewModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy hashes(&editor, &DatasetEditor::hashComputed);
    editor.setSampling(prompts, 7);
    DatasetSpec spec;
    spec.kind = DatasetKind(kind);
    spec.path = path;
    spec.randomInputLen = 100;
    spec.randomOutputLen = 20;
    editor.setDataset(u"sample"_s, spec);
    QTRY_VERIFY_WITH_TIMEOUT(!hashes.isEmpty(), 20000);
    QVERIFY2(editor.isValid(), qPrintable(editor.errors().join(u"; "_s)));
    QCOMPARE(editor.previewModel()->rowCount(), prompts);
    const QString hash = hashes.last().first().toString();
    QCOMPARE(hash.size(), 64);
    QCOMPARE(editor.info().sha256, hash);
    QCOMPARE(editor.info().sampled, prompts);
    // The same sampling gives the same identity; another seed another one.
    editor.setSampling(prompts, 8);
    QTRY_VERIFY_WITH_TIMEOUT(hashes.size() >= 2, 20000);
    QVERIFY(hashes.last().first().toString() != hash);
}

void TestEditors::datasetCountsWithTheSutsTokenizer()
{
    const QString data = QStringLiteral(SB_TEST_DATA_DIR) + u"/datasets/"_s;
    const QString tokenizerPath = QStringLiteral(SB_TEST_DATA_DIR "/tokenizer/tiny");
    DatasetSpec spec;
    spec.kind = DatasetKind::Custom;
    spec.path = data + u"custom_good.jsonl"_s;
    // What the run would count: the same load with the tokenizer.
    QString why;
    const std::unique_ptr<Tokenizer> tok = Tokenizer::load(tokenizerPath, &why);
    QVERIFY2(tok, qPrintable(why));
    LoadedDataset exact, approx;
    QVERIFY2(loadDataset(spec, 2, 7, &exact, &why, tok.get()), qPrintable(why));
    QVERIFY2(loadDataset(spec, 2, 7, &approx, &why), qPrintable(why));
    QVERIFY(exact.info.inputStats.mean != approx.info.inputStats.mean);

    DatasetEditor editor;
    QSignalSpy hashes(&editor, &DatasetEditor::hashComputed);
    editor.setSampling(2, 7);
    editor.setTokenizer(tokenizerPath);
    editor.setDataset(u"sample"_s, spec);
    QTRY_VERIFY_WITH_TIMEOUT(!hashes.isEmpty() && !editor.isLoading(), 20000);
    QCOMPARE(editor.info().tokenCounter, u"tokenizer"_s);
    QVERIFY(!editor.info().approximateTokens);
    QCOMPARE(editor.info().inputStats.mean, exact.info.inputStats.mean);
    QCOMPARE(editor.info().sha256, exact.info.sha256);

    // Without the tokenizer the preview is approximate again.
    editor.setTokenizer(QString());
    QTRY_VERIFY_WITH_TIMEOUT(hashes.size() >= 2 && !editor.isLoading(), 20000);
    QVERIFY(editor.info().approximateTokens);
    QCOMPARE(editor.info().inputStats.mean, approx.info.inputStats.mean);

    // A tokenizer that does not load is the load's error, naming the file.
    editor.setTokenizer(u"/nonexistent/tokenizer.json"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!editor.isValid() && !editor.isLoading(), 20000);
    QVERIFY2(editor.errorFor(u"load"_s).contains(u"/nonexistent/tokenizer.json"_s),
             qPrintable(editor.errors().join(u"; "_s)));
}

void TestEditors::histogramBins_data()
{
    QTest::addColumn<QList<qint32>>("values");
    QTest::addColumn<int>("bins");
    QTest::addColumn<QList<int>>("counts");
    QTest::addColumn<QList<double>>("edges");
    QTest::newRow("empty") << QList<qint32>{} << 4 << QList<int>{} << QList<double>{};
    QTest::newRow("one value") << QList<qint32>{7, 7, 7} << 4 << QList<int>{3}
                               << QList<double>{7, 8};
    QTest::newRow("fewer values than bins")
        << QList<qint32>{1, 2, 3} << 10 << QList<int>{1, 1, 1} << QList<double>{1, 2, 3, 4};
    // 48..80 is 33 values: 16 bins would be 2.06 wide; whole bins of 3 give 11 bins.
    QTest::newRow("whole-number width")
        << QList<qint32>{48, 50, 51, 80} << 16 << QList<int>{2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1}
        << QList<double>{48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81};
}

void TestEditors::histogramBins()
{
    QFETCH(QList<qint32>, values);
    QFETCH(int, bins);
    QFETCH(QList<int>, counts);
    QFETCH(QList<double>, edges);
    QList<double> gotEdges;
    QCOMPARE(LengthHistogram::binCounts(values, bins, &gotEdges), counts);
    QCOMPARE(gotEdges, edges);
}

void TestEditors::profileRejects_data()
{
    QTest::addColumn<QString>("json"); // LoadProfile JSON overrides
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("seed");
    QTest::addColumn<QString>("percentiles");
    QTest::addColumn<QString>("errorKey");
    QTest::newRow("no name") << u"{}"_s << u""_s << u"1"_s << u"99"_s << u"name"_s;
    QTest::newRow("ramp down")
        << uR"({"ramp_up_strategy":"linear","ramp_up_start_rps":10,"ramp_up_end_rps":2})"_s
        << u"p"_s << u"1"_s << u"99"_s << u"rampUp"_s;
    QTest::newRow("ramp from 0")
        << uR"({"ramp_up_strategy":"exponential","ramp_up_start_rps":0,"ramp_up_end_rps":2})"_s
        << u"p"_s << u"1"_s << u"99"_s << u"rampUp"_s;
    QTest::newRow("no count") << uR"({"num_prompts":0,"duration_s":0})"_s << u"p"_s << u"1"_s
                              << u"99"_s << u"count"_s;
    // Warm-up requests come on top of the measured ones (the run sends warmup + num_prompts),
    // so 10 and 10 is a valid plan; a negative duration is not.
    QTest::newRow("warm-up longer than the run")
        << uR"({"duration_s":5,"warmup_seconds":10,"request_rate":5})"_s << u"p"_s << u"1"_s
        << u"99"_s << u"warmup"_s;
    QTest::newRow("cap and closed loop")
        << uR"({"max_concurrency":8,"closed_loop_concurrency":4})"_s << u"p"_s << u"1"_s << u"99"_s
        << u"concurrency"_s;
    QTest::newRow("seed not a number") << u"{}"_s << u"p"_s << u"abc"_s << u"99"_s << u"seed"_s;
    QTest::newRow("negative seed") << u"{}"_s << u"p"_s << u"-1"_s << u"99"_s << u"seed"_s;
    QTest::newRow("percentile 150")
        << u"{}"_s << u"p"_s << u"1"_s << u"50, 150"_s << u"percentiles"_s;
    QTest::newRow("percentile text") << u"{}"_s << u"p"_s << u"1"_s << u"p99"_s << u"percentiles"_s;
    QTest::newRow("server unlimited") << uR"({"scenario":"server","request_rate":"inf"})"_s
                                      << u"p"_s << u"1"_s << u"99"_s << u"rate"_s;
    QTest::newRow("offline with rate") << uR"({"scenario":"offline","request_rate":5})"_s << u"p"_s
                                       << u"1"_s << u"99"_s << u"rate"_s;
    QTest::newRow("server gamma")
        << uR"({"scenario":"server","arrival":"gamma","request_rate":5})"_s << u"p"_s << u"1"_s
        << u"99"_s << u"scenario"_s;
}

void TestEditors::profileRejects()
{
    QFETCH(QString, json);
    QFETCH(QString, name);
    QFETCH(QString, seed);
    QFETCH(QString, percentiles);
    QFETCH(QString, errorKey);
    LoadProfileEditor editor;
    LoadProfile base;
    base.requestRate = 10;
    base.numPrompts = 100;
    editor.setProfile(u"valid"_s, base);
    QVERIFY2(editor.isValid(), qPrintable(editor.errors().join(u"; "_s)));
    QJsonObject o = base.toJson();
    const QJsonObject over = QJsonDocument::fromJson(json.toUtf8()).object();
    for (auto it = over.begin(); it != over.end(); ++it)
        o[it.key()] = it.value();
    editor.setProfile(name, LoadProfile::fromJson(o));
    setText<QLineEdit>(&editor, u"seed"_s, seed);
    setText<QLineEdit>(&editor, u"percentiles"_s, percentiles);
    QVERIFY(!editor.isValid());
    QVERIFY2(!editor.errorFor(errorKey).isEmpty(), qPrintable(editor.errors().join(u"; "_s)));
    QVERIFY(errorShown(&editor, errorKey));
}

void TestEditors::profileConnectionSettings()
{
    LoadProfileEditor editor;
    LoadProfile base;
    base.requestRate = 10;
    base.numPrompts = 100;
    base.connectionMode = u"per-request"_s;
    base.idleTimeoutS = 2.5;
    base.maxBodyBytes = 4096; // not in the editor: kept as the profile had it
    editor.setProfile(u"p"_s, base);
    QVERIFY2(editor.isValid(), qPrintable(editor.errors().join(u"; "_s)));
    auto *mode = editor.findChild<QComboBox *>(u"connectionMode"_s);
    QVERIFY(mode);
    QCOMPARE(mode->currentData().toString(), u"per-request"_s);
    QCOMPARE(editor.profile().connectionMode, u"per-request"_s);
    QCOMPARE(editor.profile().idleTimeoutS, 2.5);
    mode->setCurrentIndex(mode->findData(u"lazy"_s));
    editor.findChild<QDoubleSpinBox *>(u"idleTimeout"_s)->setValue(0);
    const LoadProfile p = editor.profile();
    QCOMPARE(p.connectionMode, u"lazy"_s);
    QCOMPARE(p.idleTimeoutS, 0.0);
    QCOMPARE(p.maxBodyBytes, 4096);
}

void TestEditors::profileRequestParams_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("errorKey"); // empty: valid
    QTest::newRow("temperature text") << u"temperature"_s << u"warm"_s << u"temperature"_s;
    QTest::newRow("negative temperature") << u"temperature"_s << u"-0.5"_s << u"temperature"_s;
    QTest::newRow("greedy") << u"temperature"_s << u"0"_s << QString();
    QTest::newRow("negative seed") << u"requestSeed"_s << u"-3"_s << u"requestSeed"_s;
    QTest::newRow("body not JSON") << u"extraBody"_s << u"{top_p: 1}"_s << u"extraBody"_s;
    QTest::newRow("body an array") << u"extraBody"_s << u"[1, 2]"_s << u"extraBody"_s;
    QTest::newRow("body object") << u"extraBody"_s << u"{\"top_k\": 5}"_s << QString();
}

void TestEditors::profileRequestParams()
{
    QFETCH(QString, field);
    QFETCH(QString, text);
    QFETCH(QString, errorKey);
    LoadProfile base;
    base.requestRate = 10;
    base.numPrompts = 100;
    RequestParams params;
    params.ignoreEos = true;
    params.temperature = 0.25;
    params.seed = 12345678901LL;
    params.extraBody = QJsonObject{{u"top_p"_s, 0.9}};
    LoadProfileEditor editor;
    editor.setProfile(u"p"_s, base, params);
    QVERIFY2(editor.isValid(), qPrintable(editor.errors().join(u"; "_s)));
    QCOMPARE(editor.params().toJson(), params.toJson()); // round trip
    QCOMPARE(editor.params().temperature, 0.25);
    QCOMPARE(editor.params().seed, 12345678901LL);

    if (field == "extraBody"_L1)
        setText<QPlainTextEdit>(&editor, field, text);
    else
        setText<QLineEdit>(&editor, field, text);
    if (errorKey.isEmpty()) {
        QVERIFY2(editor.isValid(), qPrintable(editor.errors().join(u"; "_s)));
    } else {
        QVERIFY(!editor.isValid());
        QVERIFY(errorShown(&editor, errorKey));
    }
    // Empty fields mean "not sent".
    setText<QLineEdit>(&editor, u"temperature"_s, QString());
    setText<QLineEdit>(&editor, u"requestSeed"_s, QString());
    setText<QPlainTextEdit>(&editor, u"extraBody"_s, QString());
    QVERIFY(editor.isValid());
    QCOMPARE(editor.params().temperature, -1.0);
    QCOMPARE(editor.params().seed, -1);
    QVERIFY(editor.params().extraBody.isEmpty());
    QVERIFY(editor.params().ignoreEos);
}

void TestEditors::profileSeries()
{
    // "Repeat runs" is the workbench's --num-runs: kept with the profile's execution and handed
    // to the pipeline as RunRequest::numRuns, for single runs only.
    LoadProfile base;
    base.requestRate = 10;
    base.numPrompts = 100;
    RunExecution execution;
    execution.numRuns = 3;
    LoadProfileEditor editor;
    editor.setProfile(u"p"_s, base, RequestParams(), execution);
    auto *runs = editor.findChild<QSpinBox *>(u"numRuns"_s);
    QVERIFY(runs);
    QCOMPARE(runs->value(), 3);
    QVERIFY(runs->isEnabled());
    QCOMPARE(editor.execution().numRuns, 3);
    QCOMPARE(RunExecution::fromJson(editor.execution().toJson()).numRuns, 3);
    runs->setValue(5);
    RunRequest request;
    request.setExecution(editor.execution());
    QCOMPARE(request.numRuns, 5);
    for (const PlanIssue &issue : validateRunRequest(request))
        QVERIFY2(issue.field != "num-runs"_L1, qPrintable(issue.message.text()));
    // The pipeline refuses a series of a sweep: the editor never hands it one.
    request.mode = RunMode::Sweep;
    bool refused = false;
    for (const PlanIssue &issue : validateRunRequest(request))
        refused = refused || issue.field == "num-runs"_L1;
    QVERIFY(refused);
    QVERIFY(editor.isValid());
    // A sweep runs each rate once: the field is disabled and the execution a single run each.
    auto *mode = editor.findChild<QComboBox *>(u"mode"_s);
    mode->setCurrentIndex(mode->findData(int(RunMode::Sweep)));
    QVERIFY(!runs->isEnabled());
    QCOMPARE(editor.execution().numRuns, 1);
    QVERIFY(editor.isValid());
    mode->setCurrentIndex(mode->findData(int(RunMode::Single)));
    QCOMPARE(editor.execution().numRuns, 5);
    // The field keeps to the pipeline's limits.
    QCOMPARE(runs->minimum(), 1);
    QCOMPARE(runs->maximum(), limits::kMaxSeriesRuns);
}

void TestEditors::profilePreview()
{
    LoadProfileEditor editor;
    LoadProfile p;
    p.arrival = ArrivalProcess::Poisson;
    p.requestRate = 10;
    p.numPrompts = 100;
    p.seed = 3;
    p.metricsIntervalS = 2.5;
    editor.setProfile(u"poisson"_s, p);
    QVERIFY(editor.isValid());
    QCOMPARE(editor.profile().toJson(), [&] {
        LoadProfile q = p;
        q.metricPercentiles = {99};
        return q.toJson();
    }());
    // One point per request plus the origin; the last is the schedule's last arrival.
    QCOMPARE(editor.preview()->pointCount(), 101);
    QVERIFY(editor.preview()->summary().contains(u"100"_s));
    // A long schedule is thinned to the plot's budget.
    p.numPrompts = 50000;
    p.requestRate = 1000;
    editor.setProfile(u"long"_s, p);
    QVERIFY(editor.preview()->pointCount() <= SchedulePreview::kMaxPoints + 2);
    QVERIFY(editor.preview()->pointCount() > SchedulePreview::kMaxPoints / 2);
    // The scrape interval is the profile's.
    auto *interval = editor.findChild<QDoubleSpinBox *>(u"metricsInterval"_s);
    QVERIFY(interval);
    QCOMPARE(interval->value(), 2.5);
    interval->setValue(1.25);
    QCOMPARE(editor.profile().metricsIntervalS, 1.25);
    // Typing a new rate updates the plot.
    auto *rate = editor.findChild<QDoubleSpinBox *>(u"rate"_s);
    rate->setValue(0); // unlimited
    QVERIFY(editor.preview()->summary().contains(u"50000"_s));
}

void TestEditors::probeJudge_data()
{
    QTest::addColumn<QList<qint64>>("chunksMs");
    QTest::addColumn<int>("verdict");
    using V = ConnectionProbeResult::Verdict;
    QTest::newRow("none") << QList<qint64>{} << int(V::Failed);
    QTest::newRow("one chunk") << QList<qint64>{50} << int(V::Inconclusive);
    QTest::newRow("paced 10 ms") << QList<qint64>{50, 60, 70, 80, 90, 100} << int(V::Streams);
    QTest::newRow("all at once") << QList<qint64>{400, 400, 400, 400} << int(V::Buffers);
    QTest::newRow("within 2 ms") << QList<qint64>{400, 401, 401, 402} << int(V::Buffers);
    QTest::newRow("long ttft, fast tokens")
        << QList<qint64>{2000, 2003, 2006, 2009, 2012, 2015, 2018, 2021, 2024, 2027, 2030, 2033,
                         2036, 2039, 2042, 2045, 2048, 2051, 2054, 2057, 2060, 2063, 2066, 2069,
                         2072, 2075, 2078, 2081, 2084, 2087, 2090, 2093, 2096, 2099, 2102, 2105}
        << int(V::Streams);
    QTest::newRow("buffered then trickle")
        << QList<qint64>{1000, 1000, 1000, 1001, 1003} << int(V::Buffers);
}

void TestEditors::probeJudge()
{
    QFETCH(QList<qint64>, chunksMs);
    QFETCH(int, verdict);
    QList<qint64> ns;
    for (qint64 ms : chunksMs)
        ns.append(ms * 1'000'000 + 5'000'000'000);
    QCOMPARE(int(ConnectionProbe::judge(ns, 5'000'000'000)), verdict);
}

void TestEditors::probeAgainstSimulator_data()
{
    QTest::addColumn<bool>("unpaced");
    QTest::addColumn<int>("verdict");
    QTest::newRow("streams") << false << int(ConnectionProbeResult::Verdict::Streams);
    QTest::newRow("buffers") << true << int(ConnectionProbeResult::Verdict::Buffers);
}

void TestEditors::probeAgainstSimulator()
{
    QFETCH(bool, unpaced);
    QFETCH(int, verdict);
    SimConfig cfg;
    cfg.ttftMs = 20;
    cfg.itlMs = 5;
    cfg.unpaced = unpaced;
    Simulator sim(cfg);
    QVERIFY2(sim.start(), qPrintable(sim.errorString()));
    SutConfig sut;
    sut.name = u"sim"_s;
    sut.baseUrl = sim.baseUrl().toString();
    ConnectionProbe probe;
    QSignalSpy done(&probe, &ConnectionProbe::finished);
    probe.start(sut, {});
    QVERIFY(probe.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 30000);
    const auto result = done.first().first().value<ConnectionProbeResult>();
    QCOMPARE(result.models, QStringList{cfg.modelName});
    QCOMPARE(result.model, cfg.modelName);
    QCOMPARE(result.streamStatus, 200);
    QVERIFY2(result.tokenChunks >= 16, qPrintable(result.message));
    QCOMPARE(int(result.verdict), verdict);
    QVERIFY(!result.message.isEmpty());
}

// A second SUT (dataset, load profile) opens as the first did: scrolled to the top with the first
// field focused, whatever the editor showed before. Before, it kept the scroll position and the
// focused field of the previous one, and typing went into "Replicas" and "Region".
void TestEditors::editorsOpenAtTop_data()
{
    QTest::addColumn<QString>("editor");
    QTest::newRow("sut") << u"sut"_s;
    QTest::newRow("dataset") << u"dataset"_s;
    QTest::newRow("profile") << u"profile"_s;
}

void TestEditors::editorsOpenAtTop()
{
    QFETCH(QString, editor);
    QWidget host; // before the editors: they leave its stack when they go
    SutEditor sut;
    DatasetEditor dataset;
    LoadProfileEditor profile;
    QWidget *e = editor == "sut"_L1       ? static_cast<QWidget *>(&sut)
                 : editor == "dataset"_L1 ? static_cast<QWidget *>(&dataset)
                                          : &profile;
    const auto fill = [&](int n) {
        if (editor == "sut"_L1) {
            SutConfig c = validSut();
            c.name = u"sut-%1"_s.arg(n);
            sut.setConfig(c);
        } else if (editor == "dataset"_L1) {
            DatasetSpec d;
            d.randomInputLen = 100;
            d.randomOutputLen = 20;
            dataset.setDataset(u"dataset-%1"_s.arg(n), d);
        } else {
            profile.setProfile(u"profile-%1"_s.arg(n), LoadProfile());
        }
    };
    // What the main window does for a new entity (MainWindow::addEntity): fill, then focus.
    const auto fillNew = [&](int n) {
        fill(n);
        if (editor == "sut"_L1)
            sut.focusFirstField();
        else if (editor == "dataset"_L1)
            dataset.focusFirstField();
        else
            profile.focusFirstField();
    };
    // In a stack as in the main window, at the editor's share of a 1280x800 window, less high:
    // its form scrolls.
    auto *stack = new QStackedWidget(&host);
    auto *elsewhere = new QLineEdit(stack); // the welcome page, the project tree
    stack->addWidget(elsewhere);
    stack->addWidget(e);
    auto *tree = new QLineEdit(&host); // the project tree, beside the editors
    auto *hostLayout = new QVBoxLayout(&host);
    hostLayout->addWidget(tree);
    hostLayout->addWidget(stack);
    host.resize(1020, 400);
    fillNew(1);
    stack->setCurrentWidget(e);
    host.show();
    host.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&host));
    auto *scroll = e->findChild<QScrollArea *>();
    QVERIFY(scroll);
    auto *name = scroll->widget()->findChild<QLineEdit *>(u"name"_s);
    QVERIFY(name);
    // The first opens at its top with its name focused ...
    QCOMPARE(scroll->verticalScrollBar()->value(), 0);
    QTRY_COMPARE(QApplication::focusWidget(), name);
    // ... the user scrolls down and works in a field there ...
    QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    QWidget *below = nullptr;
    for (QWidget *w : scroll->widget()->findChildren<QAbstractSpinBox *>())
        if (w->isVisible() && w->isEnabled())
            below = w;
    QVERIFY(below);
    below->setFocus();
    QTRY_VERIFY(below->hasFocus());
    // ... and the next new one opens at its top with its name focused again.
    fillNew(2);
    QCOMPARE(scroll->verticalScrollBar()->value(), 0);
    QCOMPARE(QApplication::focusWidget(), name);
    // An existing one shown while the user moves through the tree: at its top, the focus left
    // where it is (in the tree).
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    tree->setFocus();
    QTRY_VERIFY(tree->hasFocus());
    fill(4);
    QCOMPARE(scroll->verticalScrollBar()->value(), 0);
    QTest::qWait(50);
    QVERIFY(tree->hasFocus());
    // Filled while hidden (the main window fills an editor, then shows it): the same once shown.
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    below->setFocus();
    stack->setCurrentWidget(elsewhere);
    elsewhere->setFocus();
    fillNew(3);
    stack->setCurrentWidget(e);
    QCOMPARE(scroll->verticalScrollBar()->value(), 0);
    QTRY_COMPARE(QApplication::focusWidget(), name);
}

// "Test connection" is in view without scrolling, at the editor's share of a 1280x800 window,
// after a test on a machine without a keychain; the note on where the key comes from is said
// once, briefly, never the platform's technical error.
void TestEditors::testConnectionReachable()
{
    const QString dbusError =
        u"Failed to execute child process \u201cdbus-launch\u201d (No such file or directory)"_s;
    ApiKeyStore keys(new KeychainUnavailableBackend(nullptr, dbusError));
    SutEditor editor;
    editor.setKeyStore(&keys);
    editor.resize(1020, 710);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    SutConfig c = validSut();
    c.baseUrl = u"http://127.0.0.1:9"_s; // discard port: nothing listens, the test fails fast
    c.apiKeyRef = ApiKeyStore::keychainRef(u"vllm-h100"_s);
    editor.setConfig(c);
    auto *button = editor.findChild<QPushButton *>(u"testConnection"_s);
    auto *scroll = editor.findChild<QScrollArea *>();
    QVERIFY(button && scroll);
    QSignalSpy status(&editor, &SutEditor::statusMessage);
    for (int run = 0; run < 2; ++run) {
        QSignalSpy done(editor.probe(), &ConnectionProbe::finished);
        button->click();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 30000);
        QTest::qWait(50); // the layout takes in the texts the test set
        QCOMPARE(scroll->verticalScrollBar()->value(), 0);
        const QRect inViewport(button->mapTo(scroll->viewport(), QPoint(0, 0)), button->size());
        QVERIFY2(scroll->viewport()->rect().contains(inViewport),
                 qPrintable(u"button at %1,%2 %3x%4, viewport %5x%6"_s.arg(inViewport.x())
                                .arg(inViewport.y())
                                .arg(inViewport.width())
                                .arg(inViewport.height())
                                .arg(scroll->viewport()->width())
                                .arg(scroll->viewport()->height())));
        // The result beside the button, also in view.
        auto *result = editor.findChild<QLabel *>(u"probeResult"_s);
        QVERIFY(!editor.probeText().isEmpty());
        QVERIFY(scroll->viewport()->rect().intersects(
            QRect(result->mapTo(scroll->viewport(), QPoint(0, 0)), result->size())));
        QVERIFY2(!editor.keyStatusText().contains(u"dbus"_s, Qt::CaseInsensitive),
                 qPrintable(editor.keyStatusText()));
        QVERIFY(editor.keyStatusText().contains(ApiKeyStore::fallbackVariable()));
    }
    QStringList notes;
    for (const QList<QVariant> &m : std::as_const(status))
        if (m.first().toString().contains(ApiKeyStore::fallbackVariable()))
            notes << m.first().toString();
    QCOMPARE(notes.size(), 1);
    QVERIFY2(!notes.first().contains(u"dbus"_s, Qt::CaseInsensitive), qPrintable(notes.first()));
}

// The metrics URL's placeholder is the URL "auto" scrapes, by the run's own rule, and follows
// the base URL as it is typed.
void TestEditors::metricsPlaceholderFollowsBaseUrl()
{
    SutEditor editor;
    SutConfig c = validSut();
    c.baseUrl = u"https://inference.example.com:8443/"_s;
    editor.setConfig(c);
    QCOMPARE(editor.metricsPlaceholder(), sutMetricsUrl(editor.config()));
    QCOMPARE(editor.metricsPlaceholder(), u"https://inference.example.com:8443/metrics"_s);
    auto *baseUrl = editor.findChild<QLineEdit *>(u"baseUrl"_s);
    baseUrl->clear();
    QTest::keyClicks(baseUrl, u"http://10.0.0.7:30000"_s);
    QCOMPARE(editor.metricsPlaceholder(), sutMetricsUrl(editor.config()));
    QCOMPARE(editor.metricsPlaceholder(), u"http://10.0.0.7:30000/metrics"_s);
}

QTEST_MAIN(TestEditors)
#include "tst_editors.moc"
