// The simulator's /v1/embeddings read by an implementation nobody on the team wrote: the official
// openai SDK on npm (tests/apis/sdkembeddings.mjs, the version tst_apisdk pins) embeds a batch
// through client.embeddings.create and says what it made of the answer — how many embeddings,
// the usage. ServeBench must say the same: of the very bytes the SDK parsed (fed to its
// StreamAccumulator), and in the records a `servebench-cli run` of the same inputs stores.

#include "clirun.h"
#include "sdkrecord.h"
#include "simprocess.h"

#include "client/streamaccumulator.h"
#include "metrics/requestrecord.h"
#include "store/projectstore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;
using namespace sb::test;

namespace {

// Six dataset lines; a run with batches of three sends them as two requests, in this order.
const QStringList kInputs = {
    u"the quick brown fox"_s,         u"jumps over the lazy dog"_s, u"embeddings are vectors"_s,
    u"one two three four five six"_s, u"a b"_s,                   u"rerank scores documents"_s};

struct SdkAnswer
{
    QJsonObject json;
    QByteArray raw;
    QString error;
};

} // namespace

class TestPoolingSdk : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<SimProcess> m_sim;
    QString m_node;
    int m_calls = 0;

    SdkAnswer callSdk(const QStringList &inputs)
    {
        SdkAnswer a;
        const QString rawPath = m_dir.filePath(u"raw%1"_s.arg(++m_calls));
        QProcess p;
        p.start(m_node, QStringList{QString::fromUtf8(SB_SDK_EMBEDDINGS),
                                    QString::fromUtf8(SB_API_SDKS), m_sim->url, rawPath} +
                            inputs);
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit ||
            p.exitCode() != 0) {
            a.error = u"sdkembeddings.mjs failed: "_s + QString::fromUtf8(p.readAllStandardError());
            return a;
        }
        a.json = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QFile f(rawPath);
        if (!f.open(QIODevice::ReadOnly))
            a.error = u"no raw body written"_s;
        a.raw = f.readAll();
        return a;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_node = QStandardPaths::findExecutable(u"node"_s);
        QVERIFY2(!m_node.isEmpty(), "this test needs Node.js (Debian: apt-get install nodejs)");
        m_sim = std::make_unique<SimProcess>(QStringList{u"--embedding-dim"_s, u"64"_s,
                                                         u"--pooling-ms"_s, u"2"_s,
                                                         u"--duration"_s, u"600"_s});
        QVERIFY2(!m_sim->url.isEmpty(), m_sim->banner.constData());
    }

    void cleanupTestCase() { m_sim.reset(); }

    void sdkAndServeBenchAgree()
    {
        // 1. The SDK: one input (sent as a string), then the batches the run will send.
        QList<SdkAnswer> answers;
        for (const QStringList &inputs :
             {QStringList{kInputs.at(0)}, kInputs.mid(0, 3), kInputs.mid(3, 3)}) {
            SdkAnswer a = callSdk(inputs);
            QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
            QCOMPARE(a.json.value(u"count"_s).toInt(), inputs.size());
            QCOMPARE(a.json.value(u"dimensions"_s).toInt(), 64);
            QVERIFY(a.json.value(u"finite"_s).toBool());
            QJsonArray indices;
            for (int i = 0; i < inputs.size(); ++i)
                indices.append(i);
            QCOMPARE(a.json.value(u"indices"_s).toArray(), indices);
            answers << a;
        }

        // The SDK's default asks for base64 vectors and decodes them: the same count, size and
        // usage for the same inputs.
        {
            const SdkAnswer b = callSdk(QStringList{u"--sdk-default"_s} + kInputs.mid(0, 3));
            QVERIFY2(b.error.isEmpty(), qPrintable(b.error));
            QCOMPARE(b.json.value(u"count"_s).toInt(), 3);
            QCOMPARE(b.json.value(u"dimensions"_s).toInt(), 64);
            QVERIFY(b.json.value(u"finite"_s).toBool());
            QCOMPARE(b.json.value(u"usage"_s), answers.at(1).json.value(u"usage"_s));
            QVERIFY(b.raw.contains("\"embedding\":\"")); // base64 on the wire
        }

        // 2. ServeBench's record of the very bytes each SDK call parsed.
        for (const SdkAnswer &a : std::as_const(answers)) {
            const int count = a.json.value(u"count"_s).toInt();
            const QJsonObject usage = a.json.value(u"usage"_s).toObject();
            QVERIFY(usage.value(u"prompt_tokens"_s).toInt() > 0);
            for (bool bytewise : {false, true}) {
                const RequestRecord r =
                    sb::test::recordOf(a.raw, ApiFlavour::Embeddings, bytewise, false, count);
                QVERIFY2(r.ok(), qPrintable(r.errorMessage));
                QCOMPARE(r.resultItems, count);
                QCOMPARE(r.inputTokens, usage.value(u"prompt_tokens"_s).toInt());
                QCOMPARE(r.inputSource, TokenSource::ServerUsage);
                QCOMPARE(r.outputTokens, 0);
                // Told a larger batch than the SDK saw, the record says the answer is short.
                const RequestRecord wrong = sb::test::recordOf(a.raw, ApiFlavour::Embeddings, bytewise,
                                                              false, count + 1);
                QCOMPARE(wrong.error, ErrorClass::ResultMismatch);
            }
        }

        // 3. A run of the same inputs through the whole pipeline, three per request: its
        // records say what the SDK said of the same batches.
        const QString dataset = m_dir.filePath(u"inputs.jsonl"_s);
        {
            QFile f(dataset);
            QVERIFY(f.open(QIODevice::WriteOnly));
            for (const QString &input : kInputs)
                f.write(QJsonDocument(QJsonObject{{u"prompt"_s, input}}).toJson(
                            QJsonDocument::Compact) +
                        '\n');
        }
        const QString project = m_dir.filePath(u"embeddings.sbproj"_s);
        // The list in file order: the shuffle is the dataset's, so the run takes the batches
        // in the order the sampled list holds them; the test reads that order back.
        const CliResult cli = runCli(
            {u"run"_s, u"--base-url"_s, m_sim->url, u"--backend"_s, u"openai-embeddings"_s,
             u"--model"_s, u"servebench-sim"_s, u"--dataset-name"_s, u"custom"_s,
             u"--dataset-path"_s, dataset, u"--num-prompts"_s, u"2"_s, u"--random-batch-size"_s,
             u"3"_s, u"--max-concurrency"_s, u"1"_s, u"--metrics"_s, u"off"_s, u"--project"_s,
             project});
        QVERIFY2(cli.code == 0, qPrintable(cli.describe()));
        QVERIFY2(cli.out.contains(u"n/a (non-streamed endpoint: no tokens are generated)"_s),
                 qPrintable(cli.out));
        ProjectStore store;
        QVERIFY2(store.open(project, ProjectStore::OpenMode::ReadOnly),
                 qPrintable(store.lastError()));
        const QList<RunInfo> runs = store.listRuns();
        QCOMPARE(runs.size(), 1);
        const QList<RequestRecord> records = store.loadRequests(runs.constFirst().id);
        QCOMPARE(records.size(), 2);
        // Each request's batch is three of the six inputs; the SDK's two batches together
        // cover all six, so their usage adds up to the run's.
        qint64 sdkTokens = 0;
        for (int i = 1; i < 3; ++i)
            sdkTokens += answers.at(i).json.value(u"usage"_s).toObject().value(u"prompt_tokens"_s)
                             .toInt();
        qint64 runTokens = 0;
        for (const RequestRecord &r : records) {
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
            QCOMPARE(r.batchItems, 3);
            QCOMPARE(r.resultItems, answers.at(1).json.value(u"count"_s).toInt());
            QCOMPARE(r.inputSource, TokenSource::ServerUsage);
            QCOMPARE(r.outputTokens, 0);
            QVERIFY(r.chunkTimes.isEmpty());
            QVERIFY(r.tEnd > r.tSend && r.tSend > 0);
            runTokens += r.inputTokens;
        }
        QCOMPARE(runTokens, sdkTokens);
    }
};

QTEST_GUILESS_MAIN(TestPoolingSdk)
#include "tst_poolingsdk.moc"
