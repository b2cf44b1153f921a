// runFlags() and parseRunFlags() are inverses: every plan the workbench can make has a command
// line that gives the same plan back, so a stored command reproduces its run.

#include "run/runflags.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

RunRequest roundTrip(const RunRequest &in, QString *error)
{
    RunRequest out;
    RunFlagOptions opts;
    if (!parseRunFlags(runFlags(in), &out, &opts, error))
        return {};
    return out;
}

// What a command can carry of a plan: everything but what the pipeline resolves at run time
// (the simulator's URL, where the key lives).
QJsonObject comparable(RunRequest r)
{
    r.plan.sut.apiKeyRef.clear();
    if (r.plan.sut.builtInSimulator)
        r.plan.sut.baseUrl.clear();
    QJsonObject o = r.plan.toJson();
    o[u"execution"_s] = QJsonObject{{u"mode"_s, QString::fromLatin1(runModeName(r.mode))},
                                    {u"sweep"_s, r.sweepRates},
                                    {u"tolerance"_s, r.rateTolerance},
                                    {u"transport"_s, int(r.transport)},
                                    {u"num_runs"_s, r.numRuns},
                                    {u"saturation"_s, r.stopWhenSaturated},
                                    {u"window"_s, r.saturationWindowS},
                                    {u"shard"_s, r.shard.text()},
                                    {u"start_at"_s, QString::number(r.startAtMs)}};
    return o;
}

} // namespace

class TestRunFlags : public QObject
{
    Q_OBJECT
private slots:
    void planSurvivesTheCommandLine_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("defaults") << u"defaults"_s;
        QTest::newRow("everything") << u"everything"_s;
        QTest::newRow("sweep") << u"sweep"_s;
        QTest::newRow("search") << u"search"_s;
        QTest::newRow("normal lengths") << u"normal"_s;
        QTest::newRow("shard") << u"shard"_s;
        QTest::newRow("tokenizer") << u"tokenizer"_s;
        QTest::newRow("server metrics off") << u"metrics off"_s;
        QTest::newRow("server metrics targets") << u"metrics targets"_s;
        QTest::newRow("cancellation after tokens") << u"cancel tokens"_s;
        QTest::newRow("cancellation after a delay") << u"cancel delay"_s;
        QTest::newRow("cancellation when written") << u"cancel at once"_s;
    }

    void planSurvivesTheCommandLine()
    {
        QFETCH(QString, name);
        RunRequest r;
        RunPlan &p = r.plan;
        p.sut.builtInSimulator = true;
        p.sut.model = u"m"_s;
        if (name == "everything"_L1) {
            p.name = u"a name with spaces and 'quotes'"_s;
            p.sut.builtInSimulator = false;
            p.sut.baseUrl = u"https://gpu-box:8443"_s;
            p.sut.endpoint = u"/v1/chat/completions"_s;
            p.sut.flavour = ApiFlavour::Chat;
            p.sut.name = u"vLLM on 8×H100"_s;
            p.sut.engine = u"vllm"_s;
            p.sut.engineVersion = u"0.11.2"_s;
            p.sut.gpuModel = u"H100"_s;
            p.sut.gpuCount = 8;
            p.sut.replicas = 2;
            p.sut.notes = u"notes: with = and : inside"_s;
            p.sut.extraHeaders = {{u"X-Tenant"_s, u"a:b=c"_s}};
            p.sut.proxy = u"none"_s;
            p.dataset.kind = DatasetKind::ShareGpt;
            p.dataset.path = u"/data/share gpt.json"_s;
            p.dataset.sharegptOutputLen = 77;
            p.dataset.withReplacement = true;
            p.dataset.versionLabel = u"v3"_s;
            p.profile.scenario = Scenario::Server;
            p.profile.requestRate = 12.5;
            p.profile.numPrompts = 321;
            p.profile.maxConcurrency = 17;
            p.profile.warmupRequests = 5;
            p.profile.warmupSeconds = 1.5;
            p.profile.seed = 18446744073709551615ull;
            p.profile.timeoutS = 30;
            p.profile.connectionMode = u"per-request"_s;
            p.profile.idleTimeoutS = 2.5;
            p.profile.maxHeadBytes = 4096;
            p.profile.maxEventBytes = 0;
            p.profile.maxBodyBytes = 1 << 20;
            p.profile.maxErrorRate = 0.25;
            p.profile.cacheBust = true;
            p.profile.goodput = {150, 40, 2000};
            p.profile.percentileMetrics = {u"ttft"_s, u"e2el"_s};
            p.profile.metricPercentiles = {50, 99.9};
            p.profile.mlperfPreset = u"llama2-70b-server"_s;
            p.profile.ttftSloMs = 1800;
            p.profile.tpotSloMs = 150;
            p.profile.sloPercentile = 95;
            p.profile.minQueryCount = 100;
            p.profile.minDurationS = 60;
            p.params.ignoreEos = true;
            p.params.temperature = 0.7;
            p.params.seed = 42;
            p.params.extraBody = QJsonObject{{u"top_p"_s, 0.9}};
            r.transport = TransportKind::Qnam;
            r.numRuns = 3;
            r.stopWhenSaturated = true;
            r.saturationWindowS = 20;
        } else if (name == "sweep"_L1) {
            r.mode = RunMode::Sweep;
            r.sweepRates = 6;
            p.profile.arrival = ArrivalProcess::Gamma;
            p.profile.burstiness = 0.5;
            p.profile.durationS = 30;
            p.profile.closedLoopConcurrency = 0;
            p.dataset.randomInputLen = 100;
            p.dataset.randomPrefixLen = 10;
            p.dataset.tokensPerWord = 1.2734;
        } else if (name == "tokenizer"_L1) {
            p.sut.tokenizer = u"/models/Qwen3 8B/tokenizer.json"_s;
            p.dataset.randomInputLen = 1000;
        } else if (name == "search"_L1) {
            r.mode = RunMode::MaxValidRate;
            r.rateTolerance = 0.02;
            p.profile.scenario = Scenario::Server;
            p.profile.ttftSloMs = 500;
        } else if (name == "normal"_L1) {
            p.dataset.randomDistribution = LengthDistribution::Normal;
            p.dataset.randomInputStdev = 30;
            p.dataset.randomOutputStdev = 5;
            p.dataset.randomInputMin = 10;
            p.dataset.randomInputMax = 500;
            p.dataset.randomOutputMax = 80;
            p.profile.rampUpStrategy = RampUpStrategy::Exponential;
            p.profile.rampUpStartRps = 1;
            p.profile.rampUpEndRps = 50;
            p.profile.closedLoopConcurrency = 0;
        } else if (name == "shard"_L1) {
            p.sut.builtInSimulator = false;
            p.sut.baseUrl = u"http://10.0.0.5:8000"_s;
            r.shard = {2, 4};
            r.startAtMs = 1'900'000'000'000;
        } else if (name == "cancel tokens"_L1) {
            p.profile.cancelRatePct = 30;
            p.profile.cancelAfterTokens = 5;
            p.profile.seed = 7;
        } else if (name == "cancel delay"_L1) {
            p.profile.cancelRatePct = 12.5;
            p.profile.cancelDelayS = 0.2;
        } else if (name == "cancel at once"_L1) {
            p.profile.cancelRatePct = 100;
        } else if (name == "metrics off"_L1) {
            p.sut.serverMetrics.sut = u"off"_s;
            p.profile.metricsIntervalS = 2.5;
        } else if (name == "metrics targets"_L1) {
            p.sut.builtInSimulator = false;
            p.sut.baseUrl = u"http://10.0.0.5:8000"_s;
            p.sut.serverMetrics.sut = u"http://10.0.0.5:9400/engine/metrics"_s;
            // A URL with a comma of its own, and both kinds of token reference.
            p.sut.serverMetrics.targets = {
                {u"dcgm"_s, u"http://10.0.0.5:9400/metrics?a=1,2"_s, u"env:DCGM_TOKEN"_s},
                {u"node"_s, u"https://node:9100/metrics"_s, u"keychain:node-exporter"_s},
                {u"plain"_s, u"http://h:1/m"_s, QString()}};
            p.profile.metricsIntervalS = 0.25;
        }
        QString error;
        const RunRequest back = roundTrip(r, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonObject want = comparable(r), got = comparable(back);
        QVERIFY2(want == got,
                 qPrintable(u"%1\n!=\n%2"_s.arg(QString::fromUtf8(QJsonDocument(want).toJson()),
                                                QString::fromUtf8(QJsonDocument(got).toJson()))));
        // A reproduced run keeps the calibration its original used.
        QVERIFY(!back.calibrateTokens || p.dataset.kind != DatasetKind::Random);
    }

    // A mode's other spelling is stored under the canonical name, so the workbench's field
    // (which lists the canonical names) shows what the command asked for.
    void connectionModeIsStoredCanonical()
    {
        RunRequest r;
        RunFlagOptions opts;
        QString error;
        QVERIFY2(parseRunFlags({u"--connection-mode"_s, u"Per_Request"_s}, &r, &opts, &error),
                 qPrintable(error));
        QCOMPARE(r.plan.profile.connectionMode, u"per-request"_s);
        QVERIFY(parseRunFlags({u"--connection-mode"_s, u"hot"_s}, &r, &opts, &error));
        QCOMPARE(r.plan.profile.connectionMode, u"hot"_s); // for validateRunRequest to name
    }

    void secretHeadersAreRedacted()
    {
        RunRequest r;
        r.plan.sut.builtInSimulator = true;
        r.plan.sut.extraHeaders = {{u"Authorization"_s, u"Bearer sk-live-123"_s},
                                   {u"X-Api-Key"_s, u"key-456"_s}};
        const QString cmd = reproduceCommand(r);
        QVERIFY2(!cmd.contains(u"sk-live-123"_s) && !cmd.contains(u"key-456"_s), qPrintable(cmd));
        QVERIFY(cmd.contains(u"Authorization:<redacted>"_s));
    }

    void shellQuoting_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("quoted");
        QTest::newRow("plain") << u"--num-prompts"_s << u"--num-prompts"_s;
        QTest::newRow("space") << u"a b"_s << u"'a b'"_s;
        QTest::newRow("quote") << u"it's"_s << u"'it'\\''s'"_s;
        QTest::newRow("empty") << QString() << u"''"_s;
        QTest::newRow("dollar") << u"$HOME"_s << u"'$HOME'"_s;
    }
    void shellQuoting()
    {
        QFETCH(QString, word);
        QFETCH(QString, quoted);
        QCOMPARE(shellQuote(word), quoted);
    }
};

QTEST_GUILESS_MAIN(TestRunFlags)
#include "tst_runflags.moc"
