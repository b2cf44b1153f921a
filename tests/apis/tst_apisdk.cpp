// The simulator's Responses and Messages streams, read by an implementation nobody on the team
// wrote: the official SDKs on npm (openai, @anthropic-ai/sdk; tests/apis/sdkclient.mjs) stream a
// request from a running `servebench-cli simulate` and say what they made of it — the text, the
// reasoning, the usage. ServeBench must say the same: of the very bytes the SDK parsed (fed to
// its StreamAccumulator), and in the records a `servebench-cli run` of the same prompt stores.
// The simulator reasons (thinking blocks for Messages) and caches prefixes, so reasoning, cache
// read and cache creation counts are all compared.

#include "clirun.h"
#include "sdkrecord.h"
#include "simprocess.h"

#include "client/streamaccumulator.h"
#include "metrics/requestrecord.h"
#include "store/projectstore.h"

#include <QFile>
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

constexpr int kMaxTokens = 8;
constexpr int kThinkingBudget = 1024;

qint64 codePoints(const QString &s)
{
    return s.toUcs4().size();
}

struct SdkAnswer
{
    QJsonObject json;
    QByteArray raw; // the response body as the SDK received it
    QString error;
};

// What the SDK's usage says, in the record's terms (docs/metrics.md, "Fields per API").
struct Usage
{
    qint32 input = -1, output = -1, cached = -1, creation = -1, reasoning = -1;
};

Usage usageOf(const QJsonObject &sdk, bool messages)
{
    const QJsonObject u = sdk.value(u"usage"_s).toObject();
    Usage x;
    x.output = u.value(u"output_tokens"_s).toInt(-1);
    if (messages) {
        x.cached = u.value(u"cache_read_input_tokens"_s).toInt(-1);
        x.creation = u.value(u"cache_creation_input_tokens"_s).toInt(-1);
        x.input = u.value(u"input_tokens"_s).toInt() + x.cached + x.creation;
        x.reasoning = u.value(u"output_tokens_details"_s)
                          .toObject()
                          .value(u"thinking_tokens"_s)
                          .toInt(-1);
    } else {
        x.input = u.value(u"input_tokens"_s).toInt(-1);
        x.cached =
            u.value(u"input_tokens_details"_s).toObject().value(u"cached_tokens"_s).toInt(-1);
        x.reasoning =
            u.value(u"output_tokens_details"_s).toObject().value(u"reasoning_tokens"_s).toInt(-1);
    }
    return x;
}

} // namespace

class TestApiSdk : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<SimProcess> m_sim;
    QString m_node;
    int m_calls = 0;

    SdkAnswer callSdk(const QString &api, const QString &prompt)
    {
        SdkAnswer a;
        const QString rawPath = m_dir.filePath(u"raw%1"_s.arg(++m_calls));
        QProcess p;
        QStringList args{QString::fromUtf8(SB_SDK_CLIENT),
                         QString::fromUtf8(SB_API_SDKS),
                         m_sim->url,
                         api,
                         rawPath,
                         prompt,
                         QString::number(kMaxTokens)};
        if (api == "messages"_L1)
            args << QString::number(kThinkingBudget);
        p.start(m_node, args);
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit ||
            p.exitCode() != 0) {
            a.error = u"sdkclient.mjs failed: "_s + QString::fromUtf8(p.readAllStandardError());
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
        m_sim = std::make_unique<SimProcess>(
            QStringList{u"--reasoning-tokens"_s, u"3"_s, u"--reasoning-usage"_s,
                        u"--prefix-cache"_s, u"--prefix-block-tokens"_s, u"4"_s, u"--ttft-ms"_s,
                        u"5"_s, u"--itl-ms"_s, u"2"_s, u"--duration"_s, u"600"_s});
        QVERIFY2(!m_sim->url.isEmpty(), m_sim->banner.constData());
    }

    void cleanupTestCase() { m_sim.reset(); }

    void sdkAndServeBenchAgree_data()
    {
        QTest::addColumn<QString>("api");
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("prompt"); // 14 words: 3 full cache blocks of 4, 2 words over
        QTest::newRow("responses") << u"responses"_s << u"openai-responses"_s
                                   << u"responses one two three four five six seven eight nine "
                                      "ten eleven twelve thirteen"_s;
        QTest::newRow("messages") << u"messages"_s << u"anthropic-messages"_s
                                  << u"messages one two three four five six seven eight nine "
                                     "ten eleven twelve thirteen"_s;
    }

    void sdkAndServeBenchAgree()
    {
        QFETCH(QString, api);
        QFETCH(QString, backend);
        QFETCH(QString, prompt);
        const bool messages = api == "messages"_L1;
        const ApiFlavour flavour = messages ? ApiFlavour::Messages : ApiFlavour::Responses;

        // 1. The SDK twice: a cold prompt, then the same prompt with its blocks cached.
        QList<SdkAnswer> answers;
        for (int i = 0; i < 2; ++i) {
            SdkAnswer a = callSdk(api, prompt);
            QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
            answers << a;
        }
        const Usage cold = usageOf(answers[0].json, messages);
        const Usage warm = usageOf(answers[1].json, messages);
        // The simulator did what the comparison needs: reasoning, and a cache that was cold
        // and then hit (written first, for Messages).
        QCOMPARE(cold.reasoning, 3);
        QCOMPARE(cold.cached, 0);
        QCOMPARE(warm.cached, 12);
        if (messages)
            QCOMPARE(cold.creation, 12);

        // 2. ServeBench's record of the very bytes each SDK call parsed.
        for (const SdkAnswer &a : std::as_const(answers)) {
            const QJsonObject &sdk = a.json;
            const Usage u = usageOf(sdk, messages);
            for (bool bytewise : {false, true}) {
                const RequestRecord r = sb::test::recordOf(a.raw, flavour, bytewise, true);
                QVERIFY2(r.ok(), qPrintable(r.errorMessage));
                QCOMPARE(r.outputText, sdk.value(u"content"_s).toString());
                QCOMPARE(r.outputText, sdk.value(u"finalText"_s).toString());
                QCOMPARE(r.outputChars, codePoints(sdk.value(u"content"_s).toString()) +
                                            codePoints(sdk.value(u"reasoning"_s).toString()));
                QCOMPARE(r.chunkTimes.size(), sdk.value(u"deltas"_s).toInt());
                QCOMPARE(r.inputTokens, u.input);
                QCOMPARE(r.outputTokens, u.output);
                QCOMPARE(r.cachedTokens, u.cached);
                QCOMPARE(r.cacheCreationTokens, u.creation);
                QCOMPARE(r.reasoningTokens, u.reasoning);
                QCOMPARE(r.finishReason, sdk.value(u"status"_s).toString());
                QCOMPARE(r.outputSource, TokenSource::ServerUsage);
            }
        }

        // 3. A run of the same prompt through the whole pipeline: the stored records say what
        // the SDK said of the warm call (same prompt, same cache state).
        const QString dataset = m_dir.filePath(api + u".jsonl"_s);
        {
            QFile f(dataset);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray line =
                QJsonDocument(QJsonObject{{u"prompt"_s, prompt}, {u"output_tokens"_s, kMaxTokens}})
                    .toJson(QJsonDocument::Compact);
            f.write(line + '\n' + line + '\n');
        }
        const QString project = m_dir.filePath(api + u".sbproj"_s);
        QStringList args{u"run"_s,          u"--base-url"_s,     m_sim->url,
                         u"--backend"_s,    backend,             u"--model"_s,
                         u"servebench-sim"_s, u"--dataset-name"_s, u"custom"_s,
                         u"--dataset-path"_s, dataset,           u"--num-prompts"_s,
                         u"2"_s,            u"--metrics"_s,      u"off"_s,
                         u"--project"_s,    project};
        if (messages)
            args << u"--thinking-budget"_s << QString::number(kThinkingBudget);
        const CliResult cli = runCli(args);
        QVERIFY2(cli.code == 0, qPrintable(cli.describe()));
        ProjectStore store;
        QVERIFY2(store.open(project, ProjectStore::OpenMode::ReadOnly), qPrintable(store.lastError()));
        const QList<RunInfo> runs = store.listRuns();
        QCOMPARE(runs.size(), 1);
        const QList<RequestRecord> records = store.loadRequests(runs.constFirst().id);
        QCOMPARE(records.size(), 2);
        const QString status = answers[1].json.value(u"status"_s).toString();
        for (const RequestRecord &r : records) {
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
            QCOMPARE(r.inputTokens, warm.input);
            QCOMPARE(r.outputTokens, warm.output);
            QCOMPARE(r.cachedTokens, warm.cached);
            QCOMPARE(r.cacheCreationTokens, warm.creation);
            QCOMPARE(r.reasoningTokens, warm.reasoning);
            QCOMPARE(r.chunkTimes.size(), answers[1].json.value(u"deltas"_s).toInt());
            QCOMPARE(r.finishReason, status);
            QVERIFY(r.tFirstReasoning > 0 && r.tFirstContent > r.tFirstReasoning);
        }
    }
};

QTEST_GUILESS_MAIN(TestApiSdk)
#include "tst_apisdk.moc"
