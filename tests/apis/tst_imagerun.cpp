// A chat run with two 512x512 images per request against `servebench-cli simulate`
// (docs/datasets.md, "Images in prompts"): every stored request carries the bytes of its images,
// equal to what the simulator decoded from the request's base64 data URLs (its request log, one
// line per request id), the summary states them, the simulator's usage counts the images as
// prompt tokens, and the dataset hash changes with the image seed (and only with it).

#include "clirun.h"
#include "simprocess.h"

#include "data/syntheticimage.h"
#include "metrics/requestrecord.h"
#include "store/projectstore.h"

#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;
using namespace sb::test;

namespace {

struct Run
{
    QList<RequestRecord> records;
    QString datasetHash;
    QString out;
};

} // namespace

class TestImageRun : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<SimProcess> m_sim;
    QString m_log;
    int m_runs = 0;

    bool run(const QStringList &extra, Run *out, QString *why, bool images = true)
    {
        const QString project = m_dir.filePath(u"images%1.sbproj"_s.arg(++m_runs));
        const CliResult cli = runCli(
            QStringList{u"run"_s, u"--base-url"_s, m_sim->url, u"--backend"_s, u"openai-chat"_s,
                        u"--model"_s, u"servebench-sim"_s, u"--num-prompts"_s, u"4"_s,
                        u"--random-input-len"_s, u"12"_s, u"--random-output-len"_s, u"4"_s,
                        u"--tokens-per-word"_s, u"1"_s, u"--seed"_s, u"5"_s, u"--metrics"_s,
                        u"off"_s, u"--project"_s, project} +
            (images ? QStringList{u"--image-count"_s, u"2"_s, u"--image-width"_s, u"512"_s,
                                  u"--image-height"_s, u"512"_s}
                    : QStringList()) +
            extra);
        if (cli.code != 0) {
            *why = cli.describe();
            return false;
        }
        ProjectStore store;
        if (!store.open(project, ProjectStore::OpenMode::ReadOnly)) {
            *why = store.lastError();
            return false;
        }
        const std::optional<RunInfo> stored = store.loadRun(store.listRuns().constFirst().id);
        if (!stored) {
            *why = u"the run is not stored"_s;
            return false;
        }
        const RunInfo &info = *stored;
        out->records = store.loadRequests(info.id);
        out->datasetHash =
            info.snapshot.value(u"dataset_info"_s).toObject().value(u"sha256"_s).toString();
        out->out = cli.out;
        return true;
    }

    // The simulator's log: request id -> {image_bytes, images, prompt_tokens}.
    QHash<QString, QJsonObject> serverLog()
    {
        QHash<QString, QJsonObject> byId;
        QFile f(m_log);
        if (!f.open(QIODevice::ReadOnly))
            return byId;
        while (!f.atEnd()) {
            const QJsonObject o = QJsonDocument::fromJson(f.readLine()).object();
            if (o.value(u"path"_s).toString() == "/v1/chat/completions"_L1)
                byId.insert(o.value(u"request_id"_s).toString(), o);
        }
        return byId;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_log = m_dir.filePath(u"sim.jsonl"_s);
        m_sim = std::make_unique<SimProcess>(QStringList{u"--ttft-ms"_s, u"5"_s, u"--itl-ms"_s,
                                                         u"1"_s, u"--request-log"_s, m_log,
                                                         u"--duration"_s, u"600"_s});
        QVERIFY2(!m_sim->url.isEmpty(), m_sim->banner.constData());
    }

    void cleanupTestCase() { m_sim.reset(); }

    void imageBytesPerRequest()
    {
        Run a;
        QString why;
        QVERIFY2(run({}, &a, &why), qPrintable(why));
        QCOMPARE(a.records.size(), 4);
        const QHash<QString, QJsonObject> log = serverLog();
        // A 512x512 PNG of noise is 787,072 bytes (tst_images); two per request.
        const qint64 expected = 2 * syntheticPng(512, 512, 0).size();
        for (const RequestRecord &r : std::as_const(a.records)) {
            QVERIFY2(r.ok(), qPrintable(r.errorMessage));
            QVERIFY2(log.contains(r.requestId), qPrintable(r.requestId));
            const QJsonObject server = log.value(r.requestId);
            QCOMPARE(server.value(u"images"_s).toInt(), 2);
            // What the client stored is what the server decoded from the data URLs.
            QCOMPARE(r.imageBytes, server.value(u"image_bytes"_s).toInteger());
            QCOMPARE(r.imageBytes, expected);
            // The server counts the images in its usage (one token per 28-pixel patch, 19 x 19
            // each): the record's input tokens are the server's, text and images.
            QCOMPARE(r.inputSource, TokenSource::ServerUsage);
            QCOMPARE(r.inputTokens, server.value(u"prompt_tokens"_s).toInt());
            QCOMPARE(r.inputTokens, r.expectedInputTokens + 2 * 19 * 19);
        }
        QVERIFY2(a.out.contains(u"Image bytes per request:"_s.leftJustified(40) + u' ' +
                                u"mean %1 (4 requests with images)"_s.arg(expected)),
                 qPrintable(a.out));
        QVERIFY(!a.datasetHash.isEmpty());

        // The same seed draws the same images: the same hash. --image-seed 5 names the run's
        // seed, so it is the same dataset too.
        Run same;
        QVERIFY2(run({u"--image-seed"_s, u"5"_s}, &same, &why), qPrintable(why));
        QCOMPARE(same.datasetHash, a.datasetHash);
        // Another image seed: other images, another dataset (the prompts are the same).
        Run other;
        QVERIFY2(run({u"--image-seed"_s, u"6"_s}, &other, &why), qPrintable(why));
        QVERIFY(other.datasetHash != a.datasetHash);
        QCOMPARE(other.records.at(0).expectedInputTokens, a.records.at(0).expectedInputTokens);
        // Without images the hash is the plain dataset's.
        Run none;
        QVERIFY2(run({}, &none, &why, false), qPrintable(why));
        QVERIFY(none.datasetHash != a.datasetHash);
        for (const RequestRecord &r : std::as_const(none.records))
            QCOMPARE(r.imageBytes, qint64(0));
        QVERIFY(!none.out.contains(u"Image bytes per request"_s));
    }
};

QTEST_GUILESS_MAIN(TestImageRun)
#include "tst_imagerun.moc"
