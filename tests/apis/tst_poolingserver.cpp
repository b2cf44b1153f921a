// ServeBench's embeddings and rerank runs against an independent server
// (tests/servers/poolingserver.mjs, plain Node.js) that answers in the shapes OpenAI's embeddings
// API, vLLM's and Jina's /v1/rerank and Cohere's /rerank document, and checks each request as
// they do. The records a `servebench-cli run` stores must say what the server saw and answered:
// the batch each request carried, the results, the server's token counts (or the dataset's when
// it gives none, as Cohere's form), and a short answer as result_mismatch.

#include "clirun.h"

#include "metrics/requestrecord.h"
#include "store/projectstore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;
using namespace sb::test;

namespace {
constexpr char kKey[] = "sk-pooling-0123456789";

int words(const QString &s)
{
    return int(s.split(QRegularExpression(u"\\s+"_s), Qt::SkipEmptyParts).size());
}
} // namespace

class TestPoolingServer : public QObject
{
    Q_OBJECT
    QProcess m_server;
    QTemporaryDir m_dir;
    QString m_base;
    QString m_dataset;
    QStringList m_lines;
    int m_runs = 0;
    qsizetype m_seenBefore = 0;

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

    // One run; its records in schedule order and the requests the server saw for it, in order
    // (one at a time: --max-concurrency 1).
    bool run(const QStringList &extra, QList<RequestRecord> *records, QJsonArray *seen,
             CliResult *cli, const QString &key = QString::fromLatin1(kKey))
    {
        const QString project = m_dir.filePath(u"run%1.sbproj"_s.arg(++m_runs));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"OPENAI_API_KEY"_s, key);
        m_seenBefore = seenRequests().size();
        *cli = runCli(QStringList{u"run"_s, u"--base-url"_s, m_base, u"--dataset-name"_s,
                                  u"custom"_s, u"--dataset-path"_s, m_dataset, u"--num-prompts"_s,
                                  u"3"_s, u"--max-concurrency"_s, u"1"_s, u"--metrics"_s,
                                  u"off"_s, u"--project"_s, project} +
                          extra,
                      180000, env);
        if (cli->code != 0)
            return false;
        ProjectStore store;
        if (!store.open(project, ProjectStore::OpenMode::ReadOnly))
            return false;
        *records = store.loadRequests(store.listRuns().constFirst().id);
        const QJsonArray all = seenRequests();
        *seen = QJsonArray();
        for (qsizetype i = m_seenBefore; i < all.size(); ++i)
            seen->append(all.at(i));
        return true;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString node = QStandardPaths::findExecutable(u"node"_s);
        QVERIFY2(!node.isEmpty(), "this test needs Node.js (Debian: apt-get install nodejs)");
        m_server.setProgram(node);
        m_server.setArguments({QString::fromUtf8(SB_POOLING_SERVER), QString::fromLatin1(kKey)});
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
        // Nine lines of different lengths: three requests of three items, or of one query and
        // two documents.
        m_lines = {u"alpha"_s,
                   u"bravo charlie"_s,
                   u"delta echo foxtrot"_s,
                   u"golf hotel india juliet"_s,
                   u"kilo lima mike november oscar"_s,
                   u"papa quebec"_s,
                   u"romeo sierra tango uniform"_s,
                   u"victor whiskey x ray yankee zulu"_s,
                   u"alpha bravo"_s};
        m_dataset = m_dir.filePath(u"items.jsonl"_s);
        QFile f(m_dataset);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (const QString &l : std::as_const(m_lines))
            f.write(QJsonDocument(QJsonObject{{u"prompt"_s, l}}).toJson(QJsonDocument::Compact) +
                    '\n');
    }

    void cleanupTestCase()
    {
        m_server.terminate();
        if (!m_server.waitForFinished(5000))
            m_server.kill();
    }

    void embeddings()
    {
        QList<RequestRecord> records;
        QJsonArray seen;
        CliResult cli;
        QVERIFY2(run({u"--backend"_s, u"openai-embeddings"_s, u"--model"_s, u"pooling-model"_s,
                      u"--random-batch-size"_s, u"3"_s},
                     &records, &seen, &cli),
                 qPrintable(cli.describe()));
        QCOMPARE(records.size(), 3);
        QCOMPARE(seen.size(), 3);
        QSet<QString> sent;
        for (int i = 0; i < 3; ++i) {
            const RequestRecord &r = records.at(i);
            const QJsonObject body = seen.at(i).toObject().value(u"body"_s).toObject();
            QCOMPARE(seen.at(i).toObject().value(u"path"_s).toString(), u"/v1/embeddings"_s);
            QCOMPARE(body.value(u"encoding_format"_s).toString(), u"float"_s);
            const QJsonArray input = body.value(u"input"_s).toArray();
            QCOMPARE(input.size(), 3);
            int tokens = 0;
            for (const QJsonValue &v : input) {
                sent.insert(v.toString());
                tokens += words(v.toString());
            }
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
            QCOMPARE(r.batchItems, 3);
            QCOMPARE(r.resultItems, 3);
            QCOMPARE(r.inputTokens, tokens); // the server's usage.prompt_tokens
            QCOMPARE(r.inputSource, TokenSource::ServerUsage);
            QCOMPARE(r.outputTokens, 0);
            QCOMPARE(r.httpStatus, 200);
        }
        // Every dataset line went once: no item is skipped or sent twice.
        QCOMPARE(sent, QSet<QString>(m_lines.cbegin(), m_lines.cend()));
        QVERIFY2(cli.out.contains(u"Item throughput (items/s):"_s), qPrintable(cli.out));
        QVERIFY(cli.out.contains(u"n/a (non-streamed endpoint: no tokens are generated)"_s));
        // The report's runs-at-a-glance table shows what such a run has (input tokens, E2EL),
        // not columns of n/a for the TTFT, TPOT and output tokens it cannot have.
        const QString html = m_dir.filePath(u"embeddings.html"_s);
        const CliResult report =
            runCli({u"report"_s, u"--project"_s, m_dir.filePath(u"run%1.sbproj"_s.arg(m_runs)),
                    u"--runs"_s, u"1"_s, u"--html"_s, html});
        QVERIFY2(report.code == 0, qPrintable(report.describe()));
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains(u">P50 E2EL (ms)</th>"_s) && text.contains(u">P99 E2EL (ms)</th>"_s));
        QVERIFY(text.contains(u">input tok/s</th>"_s));
        QVERIFY(!text.contains(u">P99 TTFT (ms)</th>"_s) && !text.contains(u">P99 TPOT (ms)</th>"_s));
    }

    // A server that drops an input: every request is a failure of its own class, and the run
    // says how many.
    void embeddingsShortAnswer()
    {
        QList<RequestRecord> records;
        QJsonArray seen;
        CliResult cli;
        QVERIFY2(run({u"--backend"_s, u"openai-embeddings"_s, u"--model"_s, u"short"_s,
                      u"--random-batch-size"_s, u"3"_s},
                     &records, &seen, &cli),
                 qPrintable(cli.describe()));
        QCOMPARE(records.size(), 3);
        for (const RequestRecord &r : records) {
            QCOMPARE(r.error, ErrorClass::ResultMismatch);
            QCOMPARE(r.resultItems, 2);
            QVERIFY2(r.errorMessage.contains(u"2 embeddings for a batch of 3 inputs"_s),
                     qPrintable(r.errorMessage));
        }
        QVERIFY2(cli.out.contains(u"result_mismatch:"_s), qPrintable(cli.out));
    }

    void embeddingsWrongKey()
    {
        QList<RequestRecord> records;
        QJsonArray seen;
        CliResult cli;
        QVERIFY2(run({u"--backend"_s, u"openai-embeddings"_s, u"--model"_s, u"pooling-model"_s},
                     &records, &seen, &cli, u"sk-wrong-key-000000"_s),
                 qPrintable(cli.describe()));
        QCOMPARE(records.size(), 3);
        for (const RequestRecord &r : records) {
            QCOMPARE(r.error, ErrorClass::Http4xx);
            QCOMPARE(r.httpStatus, 401);
            QVERIFY(r.errorMessage.contains(u"Incorrect API key"_s));
        }
    }

    void rerank_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<bool>("usage");
        QTest::newRow("/v1/rerank (vLLM, Jina)") << u"/v1/rerank"_s << true;
        QTest::newRow("/rerank (Cohere)") << u"/rerank"_s << false;
    }
    void rerank()
    {
        QFETCH(QString, endpoint);
        QFETCH(bool, usage);
        QList<RequestRecord> records;
        QJsonArray seen;
        CliResult cli;
        QVERIFY2(run({u"--backend"_s, u"vllm-rerank"_s, u"--endpoint"_s, endpoint, u"--model"_s,
                      u"pooling-model"_s, u"--random-batch-size"_s, u"2"_s},
                     &records, &seen, &cli),
                 qPrintable(cli.describe()));
        QCOMPARE(records.size(), 3);
        QCOMPARE(seen.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const RequestRecord &r = records.at(i);
            const QJsonObject body = seen.at(i).toObject().value(u"body"_s).toObject();
            QCOMPARE(seen.at(i).toObject().value(u"path"_s).toString(), endpoint);
            const QString query = body.value(u"query"_s).toString();
            const QJsonArray docs = body.value(u"documents"_s).toArray();
            QVERIFY(!query.isEmpty());
            QCOMPARE(docs.size(), 2);
            QCOMPARE(body.value(u"top_n"_s).toInt(), 2);
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
            QCOMPARE(r.batchItems, 2);
            QCOMPARE(r.resultItems, 2);
            // The query beside each document, as the server counts.
            const int tokens = 2 * words(query) + words(docs.at(0).toString()) +
                               words(docs.at(1).toString());
            // Without usage (Cohere's form) the dataset's count of the same is used.
            QCOMPARE(r.inputTokens, usage ? tokens : r.expectedInputTokens);
            QVERIFY(r.expectedInputTokens > 0);
            QCOMPARE(r.inputSource, usage ? TokenSource::ServerUsage : TokenSource::Dataset);
        }
        QVERIFY(cli.out.contains(u"n/a (non-streamed endpoint: no tokens are generated)"_s));
    }
};

QTEST_GUILESS_MAIN(TestPoolingServer)
#include "tst_poolingserver.moc"
