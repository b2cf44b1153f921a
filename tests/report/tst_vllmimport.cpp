#include "report/reportrun.h"
#include "report/runreport.h"
#include "report/vllmimport.h"

#include "metrics/summary.h"
#include "store/projectstore.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {
QString dataFile(const char *name)
{
    return QStringLiteral(SB_TEST_DATA_DIR "/vllm/") + QLatin1StringView(name);
}
QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}
} // namespace

class TestVllmImport : public QObject
{
    Q_OBJECT
private slots:
    void reproducesSummary_data();
    void reproducesSummary();
    void storesImportedRun_data();
    void storesImportedRun();
    void rejectsOtherJson();
    void classifiesErrors_data();
    void classifiesErrors();
};

void TestVllmImport::reproducesSummary_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("detailed");
    QTest::newRow("--save-detailed") << dataFile("vllm-serve-detailed.json") << true;
    QTest::newRow("plain --save-result") << dataFile("vllm-serve-plain.json") << false;
}

void TestVllmImport::reproducesSummary()
{
    QFETCH(QString, file);
    QFETCH(bool, detailed);
    VllmImport imp;
    QString error;
    QVERIFY2(readVllmResultFile(file, &imp, &error), qPrintable(error));
    QCOMPARE(imp.detailed, detailed);
    const QJsonObject o = readJson(file);
    QCOMPARE(imp.plan.sut.model, u"meta-llama/Llama-3.1-8B-Instruct"_s);
    QCOMPARE(imp.plan.sut.flavour, ApiFlavour::Chat);
    QCOMPARE(imp.plan.profile.requestRate, 10.0);
    QCOMPARE(imp.plan.profile.maxConcurrency, 16);
    QCOMPARE(imp.plan.profile.metricPercentiles, (QList<double>{50, 90, 99}));
    QCOMPARE(imp.snapshot.value(u"imported"_s).toObject().value(u"tool"_s).toString(),
             u"vllm bench serve"_s);
    QCOMPARE(imp.snapshot.value(u"imported"_s).toObject().value(u"sha256"_s).toString().size(), 64);
    QCOMPARE(imp.snapshot.value(u"imported"_s)
                 .toObject()
                 .value(u"metadata"_s)
                 .toObject()
                 .value(u"gpu"_s)
                 .toString(),
             u"H100"_s);

    // The file's own statistics read back exactly.
    QCOMPARE(imp.fileSummary.completed, o.value(u"completed"_s).toInteger());
    QCOMPARE(imp.fileSummary.ttft.percentile(99), o.value(u"p99_ttft_ms"_s).toDouble());
    QCOMPARE(imp.fileSummary.e2el.mean, o.value(u"mean_e2el_ms"_s).toDouble());
    QVERIFY(compareWithVllmFile(imp.fileSummary, o).isEmpty() || !detailed);

    if (!detailed) {
        QVERIFY(imp.records.isEmpty());
        return;
    }
    // summarize() over the rebuilt records reproduces every statistic of the file.
    QCOMPARE(imp.records.size(), 40);
    const RunSummary s = summarize(imp.records, SummaryOptions::forProfile(imp.plan.profile));
    const QStringList mismatches = compareWithVllmFile(s, o);
    QVERIFY2(mismatches.isEmpty(), qPrintable(mismatches.join(u"\n"_s)));
    QCOMPARE(s.completed, 38);
    QCOMPARE(s.failed, 2);
    QCOMPARE(s.failedByClass.value(u"http_5xx"_s), 1);
    QCOMPARE(s.failedByClass.value(u"reset"_s), 1);
    QVERIFY(qAbs(s.requestThroughput - o.value(u"request_throughput"_s).toDouble()) < 1e-6);
    QVERIFY(qAbs(s.tpot.percentile(90) - o.value(u"p90_tpot_ms"_s).toDouble()) < 1e-3);
    QVERIFY(qAbs(s.itl.median - o.value(u"median_itl_ms"_s).toDouble()) < 1e-3);

    // A statistic that does not match is reported, naming the key.
    QJsonObject tampered = o;
    tampered[u"p99_ttft_ms"_s] = o.value(u"p99_ttft_ms"_s).toDouble() + 1.0;
    const QStringList bad = compareWithVllmFile(s, tampered);
    QCOMPARE(bad.size(), 1);
    QVERIFY(bad.first().startsWith(u"p99_ttft_ms"_s));
}

void TestVllmImport::storesImportedRun_data()
{
    reproducesSummary_data();
}

void TestVllmImport::storesImportedRun()
{
    QFETCH(QString, file);
    QFETCH(bool, detailed);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = dir.filePath(u"p.sbproj"_s);
    VllmImport imp;
    QString error;
    QVERIFY2(readVllmResultFile(file, &imp, &error), qPrintable(error));
    const qint64 id = storeVllmImport(imp, project, u"imported run"_s, &error);
    QVERIFY2(id > 0, qPrintable(error));

    ProjectStore store;
    QVERIFY(store.open(project, ProjectStore::OpenMode::ReadOnly));
    ReportRun run;
    QVERIFY2(loadReportRun(store, id, &run, &error), qPrintable(error));
    QVERIFY(run.imported);
    QCOMPARE(run.rawRecords, detailed);
    QCOMPARE(run.input.status, u"completed"_s);
    QCOMPARE(run.input.records.size(), detailed ? 40 : 0);
    const QJsonObject o = readJson(file);
    QCOMPARE(run.summary.completed, 38);
    QCOMPARE(run.summary.failed, 2);
    QVERIFY(qAbs(run.summary.ttft.mean - o.value(u"mean_ttft_ms"_s).toDouble()) < 1e-3);
    QVERIFY(qAbs(run.summary.outputThroughput - o.value(u"output_throughput"_s).toDouble()) < 1e-6);
    QCOMPARE(run.info.snapshot.value(u"imported"_s).toObject().value(u"sha256"_s).toString(),
             imp.sha256);
    QVERIFY(!run.notes.isEmpty());
    if (!detailed)
        QVERIFY(run.notes.join(u' ').contains(u"without per-request results"_s));

    // What vLLM never saved is not available, with the reason, in every reader: the report's
    // summary, and `show`'s text and JSON (runReportInput through deriveRun).
    for (const char *key : {"achieved_request_rate", "schedule_lag", "client_queue_time"}) {
        const QString k = QString::fromLatin1(key);
        QVERIFY2(!run.summary.isAvailable(k), key);
        QVERIFY2(run.summary.unavailableReason(k).contains(u"imported from vLLM"_s),
                 qPrintable(run.summary.unavailableReason(k)));
    }
    RunReportInput in = run.input;
    RunSummary fileSummary;
    QCOMPARE(importedFileSummary(run.info.snapshot, run.info.summary, &fileSummary), !detailed);
    if (!detailed)
        in.summary = fileSummary;
    const QString text = formatRunReport(in);
    QVERIFY2(text.contains(u"Achieved request rate (req/s):           n/a (imported from vLLM"_s),
             qPrintable(text));
    QVERIFY(text.contains(u"Mean schedule lag (ms):                  n/a (imported from vLLM"_s));
    QVERIFY(!text.contains(u" 0.00 "_s) && !text.contains(u" 0.00\n"_s));
    // The file's own numbers are shown (never the zeros of an empty record list).
    QVERIFY(text.contains(u"Successful requests:                     38 "_s));
    const QJsonObject j = runResultJson(in, false);
    QVERIFY(j.value(u"achieved_request_rate"_s).isNull());
    QVERIFY(j.value(u"achieved_request_rate_unavailable_reason"_s)
                .toString()
                .contains(u"imported from vLLM"_s));
    QVERIFY(j.value(u"schedule_lag"_s).isNull());
    QCOMPARE(j.value(u"completed"_s).toInt(), 38);
}

void TestVllmImport::rejectsOtherJson()
{
    VllmImport imp;
    QString error;
    QVERIFY(!parseVllmResult(R"({"hello": 1})", u"x.json"_s, &imp, &error));
    QVERIFY(error.contains(u"not a `vllm bench serve` result"_s));
    QVERIFY(!parseVllmResult("not json at all", u"y.json"_s, &imp, &error));
    // --append-result: one object per line; the entry chooses.
    QFile f(dataFile("vllm-serve-plain.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray one = f.readAll().trimmed();
    int entries = 0;
    QVERIFY(parseVllmResult(one + '\n' + one + '\n', u"z.json"_s, &imp, &error, 1, &entries));
    QCOMPARE(entries, 2);
    QVERIFY(!parseVllmResult(one + '\n' + one + '\n', u"z.json"_s, &imp, &error, 2, &entries));
    QVERIFY(error.contains(u"no entry 2"_s));
}

void TestVllmImport::classifiesErrors_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("cls");
    QTest::newRow("500") << u"Internal Server Error"_s << u"http_5xx"_s;
    QTest::newRow("429") << u"Too Many Requests"_s << u"http_429"_s;
    QTest::newRow("400") << u"Bad Request"_s << u"http_4xx"_s;
    QTest::newRow("disconnect") << u"aiohttp ServerDisconnectedError: Server disconnected"_s
                                << u"reset"_s;
    QTest::newRow("timeout") << u"asyncio.TimeoutError"_s << u"timeout"_s;
    QTest::newRow("connect") << u"Cannot connect to host 10.0.0.1:8000"_s << u"connect"_s;
    QTest::newRow("other") << u"ValueError: something"_s << u"transport"_s;
}

void TestVllmImport::classifiesErrors()
{
    QFETCH(QString, message);
    QFETCH(QString, cls);
    QCOMPARE(QString::fromLatin1(errorClassName(classifyVllmError(message))), cls);
}

QTEST_GUILESS_MAIN(TestVllmImport)
#include "tst_vllmimport.moc"
