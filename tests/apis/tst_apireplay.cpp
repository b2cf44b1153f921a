// ServeBench against an independent server (tests/servers/apireplay.mjs, plain Node.js) that
// replays event sequences taken from the official SDKs' own test fixtures (tests/data/apis) and
// checks each request as the real APIs do (the key header, anthropic-version, required fields).
// A `servebench-cli run` of one request per sequence stores the record the sequence says: text
// length, token counts from usage, error class — a mid-stream error, thinking blocks and a
// usage-only final event among them.

#include "clirun.h"

#include "metrics/requestrecord.h"
#include "store/projectstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;
using namespace sb::test;

namespace {
constexpr char kKey[] = "sk-replay-0123456789";
}

class TestApiReplay : public QObject
{
    Q_OBJECT
    QProcess m_server;
    QTemporaryDir m_dir;
    QString m_base;
    int m_runs = 0;

    QJsonArray seenRequests()
    {
        QNetworkAccessManager nam;
        QNetworkReply *reply = nam.get(QNetworkRequest(QUrl(m_base + u"/requests"_s)));
        QSignalSpy done(reply, &QNetworkReply::finished);
        done.wait(10000);
        const QJsonArray a = QJsonDocument::fromJson(reply->readAll()).array();
        reply->deleteLater();
        return a;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString node = QStandardPaths::findExecutable(u"node"_s);
        QVERIFY2(!node.isEmpty(), "this test needs Node.js (Debian: apt-get install nodejs)");
        m_server.setProgram(node);
        m_server.setArguments({QString::fromUtf8(SB_API_REPLAY_SERVER),
                               QStringLiteral(SB_TEST_DATA_DIR "/apis"), QString::fromLatin1(kKey)});
        m_server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_server.start();
        QVERIFY(m_server.waitForStarted(10000));
        QByteArray line;
        for (int i = 0; i < 100 && !line.contains('\n'); ++i) {
            m_server.waitForReadyRead(100);
            line += m_server.readAllStandardOutput();
        }
        QVERIFY2(line.startsWith("listening on "), line.constData());
        m_base = u"http://127.0.0.1:%1"_s.arg(line.mid(13).trimmed().toInt());
    }

    void cleanupTestCase()
    {
        m_server.terminate();
        if (!m_server.waitForFinished(5000))
            m_server.kill();
    }

    void replay_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("model"); // the fixture replayed, or status:<code>
        QTest::addColumn<QString>("error");
        QTest::addColumn<qint64>("chars");
        QTest::addColumn<int>("chunks");
        QTest::addColumn<int>("input"); // -1: not from the server
        QTest::addColumn<int>("output");
        QTest::addColumn<int>("cached");
        QTest::addColumn<int>("creation");
        QTest::addColumn<int>("reasoning");
        const QString M = u"anthropic-messages"_s, R = u"openai-responses"_s;
        QTest::newRow("messages text") << M << u"messages-basic.sse"_s << u"none"_s << 12LL << 3
                                       << 11 << 6 << -1 << -1 << -1;
        QTest::newRow("messages thinking blocks")
            << M << u"messages-thinking.sse"_s << u"none"_s << 214LL << 4 << 28 << 106 << 0 << 0
            << 67;
        QTest::newRow("messages usage-only final event")
            << M << u"messages-usage-delta.sse"_s << u"none"_s << 5LL << 1 << 57 << 99 << 8 << 7
            << 30;
        QTest::newRow("messages overloaded mid-stream")
            << M << u"messages-overloaded.sse"_s << u"overloaded"_s << 11LL << 2 << 11 << 2 << -1
            << -1 << -1;
        QTest::newRow("messages error mid-stream")
            << M << u"messages-error.sse"_s << u"stream_error"_s << 11LL << 2 << 11 << 2 << -1
            << -1 << -1;
        QTest::newRow("messages HTTP 529") << M << u"status:529"_s << u"overloaded"_s << 0LL << 0
                                           << -1 << 0 << -1 << -1 << -1;
        QTest::newRow("responses text") << R << u"responses-text.sse"_s << u"none"_s << 11LL << 2
                                        << 10 << 2 << 0 << -1 << 0;
        QTest::newRow("responses reasoning") << R << u"responses-reasoning.sse"_s << u"none"_s
                                             << 38LL << 4 << 0 << 6 << 0 << -1 << 2;
        QTest::newRow("responses error mid-stream")
            << R << u"responses-error.sse"_s << u"stream_error"_s << 6LL << 1 << -1 << 1 << -1
            << -1 << -1;
        QTest::newRow("responses failed") << R << u"responses-failed.sse"_s << u"stream_error"_s
                                          << 0LL << 0 << -1 << 0 << -1 << -1 << -1;
    }

    void replay()
    {
        QFETCH(QString, backend);
        QFETCH(QString, model);
        QFETCH(QString, error);
        QFETCH(qint64, chars);
        QFETCH(int, chunks);
        QFETCH(int, input);
        QFETCH(int, output);
        QFETCH(int, cached);
        QFETCH(int, creation);
        QFETCH(int, reasoning);

        const QString project = m_dir.filePath(u"run%1.sbproj"_s.arg(++m_runs));
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(u"OPENAI_API_KEY"_s, QString::fromLatin1(kKey));
        env.insert(u"ANTHROPIC_API_KEY"_s, QString::fromLatin1(kKey));
        const int before = int(seenRequests().size());
        const CliResult cli = runCli(
            {u"run"_s, u"--base-url"_s, m_base, u"--backend"_s, backend, u"--model"_s, model,
             u"--dataset-name"_s, u"random"_s, u"--random-input-len"_s, u"8"_s,
             u"--random-output-len"_s, u"16"_s, u"--num-prompts"_s, u"1"_s, u"--metrics"_s,
             u"off"_s, u"--project"_s, project},
            120000, env);
        QVERIFY2(cli.code >= 0, qPrintable(cli.describe()));
        QVERIFY2(!cli.out.contains(QLatin1StringView(kKey)) &&
                     !cli.err.contains(QLatin1StringView(kKey)),
                 "the key was printed");

        ProjectStore store;
        QVERIFY2(store.open(project, ProjectStore::OpenMode::ReadOnly), qPrintable(cli.describe()));
        const QList<RunInfo> runs = store.listRuns();
        QVERIFY2(!runs.isEmpty(), qPrintable(cli.describe()));
        const QList<RequestRecord> records = store.loadRequests(runs.constLast().id);
        QCOMPARE(records.size(), 1);
        const RequestRecord &r = records.constFirst();
        QCOMPARE(QString::fromLatin1(errorClassName(r.error)), error);
        QCOMPARE(r.outputChars, chars);
        QCOMPARE(r.chunkTimes.size(), chunks);
        if (input >= 0) {
            QCOMPARE(r.inputTokens, input);
            QCOMPARE(r.inputSource, TokenSource::ServerUsage);
        } else {
            QVERIFY(r.inputSource != TokenSource::ServerUsage);
        }
        if (r.ok() || output > 0)
            QCOMPARE(r.outputTokens, output);
        QCOMPARE(r.cachedTokens, cached);
        QCOMPARE(r.cacheCreationTokens, creation);
        QCOMPARE(r.reasoningTokens, reasoning);
        if (chunks > 0)
            QVERIFY(r.tFirst > r.tSend); // the first delta, not the opening event

        // What the server received, checked as the APIs check it.
        const QJsonArray seen = seenRequests();
        QCOMPARE(seen.size(), before + 1);
        const QJsonObject request = seen.last().toObject();
        const QJsonObject headers = request.value(u"headers"_s).toObject();
        const QJsonObject body = request.value(u"body"_s).toObject();
        QCOMPARE(body.value(u"model"_s).toString(), model);
        QCOMPARE(body.value(u"stream"_s).toBool(), true);
        if (backend == "anthropic-messages"_L1) {
            QCOMPARE(request.value(u"path"_s).toString(), u"/v1/messages"_s);
            QCOMPARE(headers.value(u"x-api-key"_s).toString(), QString::fromLatin1(kKey));
            QCOMPARE(headers.value(u"anthropic-version"_s).toString(), u"2023-06-01"_s);
            QVERIFY(!headers.contains(u"authorization"_s));
            QCOMPARE(body.value(u"max_tokens"_s).toInt(), 16);
        } else {
            QCOMPARE(request.value(u"path"_s).toString(), u"/v1/responses"_s);
            QCOMPARE(headers.value(u"authorization"_s).toString(),
                     u"Bearer "_s + QString::fromLatin1(kKey));
            QVERIFY(!headers.contains(u"x-api-key"_s));
            QCOMPARE(body.value(u"max_output_tokens"_s).toInt(), 16);
            QVERIFY(body.value(u"input"_s).isString());
        }
        // The stored snapshot names the key's variable, never the key.
        const std::optional<RunInfo> run = store.loadRun(runs.constLast().id);
        QVERIFY(run.has_value());
        QVERIFY(!QJsonDocument(run->snapshot).toJson().contains(kKey));
    }
};

QTEST_GUILESS_MAIN(TestApiReplay)
#include "tst_apireplay.moc"
