#include "reportfixture.h"

#include "chartrenderer.h"
#include "pdfrenderer.h"
#include "report/bundle.h"
#include "report/htmlreport.h"

#include "metrics/definitions.h"

#include <QDirIterator>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestReport : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void comparisonModel();
    void reasoningRows();
    void rankBy_data();
    void rankBy();
    void htmlIsCompleteAndEscaped();
    void pdfHasPages();
    void bundleVerifies();
    void machineExports();
    void commandScrubbing_data();
    void commandScrubbing();

private:
    QString html() const;

    QTemporaryDir m_dir;
    fixture::Project m_project;
    ProjectStore m_store;
    ReportContent m_content;
    QMap<QString, QByteArray> m_charts;
};

void TestReport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QString error;
    QVERIFY2(fixture::build(m_dir.filePath(u"fixture.sbproj"_s), &m_project, &error),
             qPrintable(error));
    QVERIFY(m_store.open(m_project.path, ProjectStore::OpenMode::ReadOnly));
    QVERIFY2(loadReportContent(m_store, {m_project.runA, m_project.runB}, {}, &m_content, &error),
             qPrintable(error));
    m_charts = renderChartPngs(m_content.charts);
}

QString TestReport::html() const
{
    return renderHtmlReport(m_content, m_charts);
}

void TestReport::comparisonModel()
{
    const Comparison &c = m_content.comparison;
    QCOMPARE(c.columns.size(), 2);
    QCOMPARE(c.comparability.singleVariable(), u"SUT (SUT, engine, GPUs)"_s);
    QVERIFY(c.comparability.rankable());
    // B is 0.7x as slow per token: it wins on TTFT p99 and the difference is negative.
    QCOMPARE(c.ranking, (QList<int>{1, 0}));
    const ComparisonRow *mean = c.row(u"ttft.mean"_s);
    QVERIFY(mean);
    QVERIFY(mean->cells.at(1).relDiff);
    QVERIFY(qAbs(*mean->cells.at(1).relDiff + 0.3) < 0.01);
    QVERIFY(!mean->cells.at(0).relDiff || *mean->cells.at(0).relDiff == 0);
    // Failures and cost rows.
    QCOMPARE(*c.row(u"failed"_s)->cells.at(0).value, 2.0);
    QCOMPARE(*c.row(u"failed"_s)->cells.at(1).value, 1.0);
    const ComparisonRow *perRequest = c.row(u"cost_per_request"_s);
    QVERIFY(perRequest);
    QVERIFY2(perRequest->cells.at(0).value, qPrintable(perRequest->cells.at(0).note));
    QVERIFY(perRequest->cells.at(1).value);
    QVERIFY(perRequest->diffs);
    QCOMPARE(perRequest->unit, u"USD"_s);
    const QString text = c.formatText();
    QVERIFY(text.contains(u"Ranked by P99 TTFT"_s));
    QVERIFY(text.contains(u"Comparable: exactly one variable differs"_s));
}

void TestReport::reasoningRows()
{
    // The fixture's runs do not reason: no reasoning rows.
    QVERIFY(!m_content.comparison.row(u"ttfct.mean"_s));
    QVERIFY(!m_content.comparison.row(u"reasoning_time.mean"_s));

    // Run A reasoned: 4 reasoning tokens, its answer began 5 ms after its first token.
    QList<ReportRun> runs = m_content.runs;
    QList<RequestRecord> recs = runs[0].input.records.list();
    for (RequestRecord &r : recs) {
        if (r.error != ErrorClass::None || r.tFirst == 0)
            continue;
        r.tFirstReasoning = r.tFirst;
        r.tFirstContent = r.tFirst + 5'000'000;
        r.reasoningTokens = 4;
        r.reasoningSource = TokenSource::ServerUsage;
    }
    runs[0].summary = summarize(recs);
    QVERIFY(runs[0].summary.reasoningRequests > 0);
    const Comparison c = buildComparison(runs, m_content.costs, ComparisonOptions());
    const ComparisonRow *phase = c.row(u"reasoning_time.mean"_s);
    QVERIFY(phase);
    QCOMPARE(phase->unit, u"ms"_s);
    QVERIFY(phase->cells.at(0).value);
    QCOMPARE(*phase->cells.at(0).value, 5.0);
    // Run B did not reason: n/a with the reason, never 0.
    QVERIFY(!phase->cells.at(1).value);
    QVERIFY2(phase->cells.at(1).note.contains(u"reasoning"_s), qPrintable(phase->cells.at(1).note));
    const ComparisonRow *tokens = c.row(u"reasoning_tokens.mean"_s);
    QVERIFY(tokens);
    QCOMPARE(*tokens->cells.at(0).value, 4.0);
    const ComparisonRow *ttfct = c.row(u"ttfct.mean"_s);
    QVERIFY(ttfct);
    QVERIFY(ttfct->cells.at(0).value);
    QVERIFY(qAbs(*ttfct->cells.at(0).value - (runs[0].summary.ttft.mean + 5.0)) < 1e-6);
    QCOMPARE(ttfct->group, u"Reasoning"_s);
}

void TestReport::rankBy_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("rowKey");
    QTest::newRow("ttft:p99") << u"ttft:p99"_s << true << u"ttft.p99"_s;
    QTest::newRow("tpot") << u"tpot"_s << true << u"tpot.p99"_s;
    QTest::newRow("e2el:median") << u"E2EL:median"_s << true << u"e2el.median"_s;
    QTest::newRow("itl:p99.9") << u"itl:p99.9"_s << true << u"itl.p99.9"_s;
    QTest::newRow("goodput") << u"goodput"_s << true << u"request_goodput"_s;
    QTest::newRow("cost") << u"cost_per_1m_output_tokens"_s << true
                          << u"cost_per_1m_output_tokens"_s;
    QTest::newRow("bad stat") << u"ttft:p101"_s << false << QString();
    QTest::newRow("bad metric") << u"latency"_s << false << QString();
    QTest::newRow("stat on a rate") << u"output_throughput:p99"_s << false << QString();
}

void TestReport::rankBy()
{
    QFETCH(QString, spec);
    QFETCH(bool, valid);
    QFETCH(QString, rowKey);
    RankBy r;
    QString error;
    QCOMPARE(RankBy::parse(spec, &r, &error), valid);
    if (!valid) {
        QVERIFY(!error.isEmpty());
        return;
    }
    QCOMPARE(r.rowKey(), rowKey);
    ComparisonOptions o;
    o.rankBy = r;
    o.baseline = 1;
    const Comparison c = buildComparison(m_content.runs, m_content.costs, o);
    QVERIFY2(c.row(rowKey), qPrintable(rowKey));
    QCOMPARE(c.ranking.size(), 2);
    QCOMPARE(c.baseline, 1);
}

void TestReport::htmlIsCompleteAndEscaped()
{
    const QString h = html();
    // Hostile strings appear only escaped.
    QVERIFY(!h.contains(u"<script"_s));
    QVERIFY(!h.contains(u"<b>bold"_s));
    QVERIFY(!h.contains(u"<i>x</i>"_s));
    QVERIFY(h.contains(u"&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;"_s));
    QVERIFY(h.contains(u"it&#39;s &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;"_s));
    QVERIFY(h.contains(u"Run &quot;A&quot; &lt;script&gt;"_s));
    // The 100 KB message is listed, escaped and cut with a note.
    QVERIFY(h.contains(u"&lt;i&gt;x&lt;/i&gt;&amp;y "_s));
    QVERIFY(h.contains(u"more characters; the full text is in the CSV and JSON"_s));
    QVERIFY(h.size() < 400 * 1024);

    // Every run, every failure, every metric definition.
    for (const ReportRun &r : m_content.runs) {
        QVERIFY2(h.contains(htmlEscape(r.label)), qPrintable(r.label));
        QVERIFY(h.contains(u"id=\"run-%1\""_s.arg(r.id)));
    }
    QVERIFY(h.contains(u"rate limited &amp; &lt;slow&gt;"_s));
    QVERIFY(h.contains(u">http_5xx<"_s));
    QVERIFY(h.contains(u">timeout<"_s));
    QVERIFY(h.contains(u">http_429<"_s));
    for (const MetricDefinition &d : metricDefinitions()) {
        QVERIFY2(h.contains(htmlEscape(d.label)), qPrintable(d.key));
        QVERIFY2(h.contains(htmlEscape(d.definition)), qPrintable(d.key));
    }
    for (const char *id :
         {"summary", "comparability", "results", "failures", "cost", "definitions"})
        QVERIFY2(h.contains(u"id=\"%1\""_s.arg(QLatin1StringView(id))), id);
    // Cost with the bill mapping.
    QVERIFY(h.contains(u"Cloud &lt;A&gt; &amp; Co"_s));
    QVERIFY(h.contains(u"prorated"_s));
    // Self-contained: six charts embedded, nothing fetched.
    QCOMPARE(h.count(u"src=\"data:image/png;base64,"_s), 6);
    QVERIFY(!h.contains(u"src=\"http"_s));
    QVERIFY(!h.contains(u"href=\"http"_s));
    QVERIFY(!h.contains(u"sk-test-123456789"_s));
    QVERIFY(h.contains(u"Authorization: Bearer &lt;redacted&gt;"_s));
}

void TestReport::pdfHasPages()
{
    const QString h = html();
    QString error;
    const QByteArray pdf = renderPdfFromHtml(h, m_content.title, &error);
    QVERIFY2(!pdf.isEmpty(), qPrintable(error));
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY(pdfPageCount(h) >= 4);
    // The PDF holds the embedded chart images (image XObjects), not broken-image placeholders.
    QVERIFY(pdf.contains("/Subtype /Image"));

    const QString pdfPath = m_dir.filePath(u"report.pdf"_s);
    QFile f(pdfPath);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(pdf);
    f.close();
    // Optional artefacts for the docs: set SB_REPORT_SAVE_DIR to keep the PDF and the HTML.
    const QString save = qEnvironmentVariable("SB_REPORT_SAVE_DIR");
    if (!save.isEmpty()) {
        QFile::remove(save + u"/report.pdf"_s);
        QFile::copy(pdfPath, save + u"/report.pdf"_s);
        QFile html(save + u"/report.html"_s);
        if (html.open(QIODevice::WriteOnly))
            html.write(h.toUtf8());
    }
    const QString pdftoppm = QStandardPaths::findExecutable(u"pdftoppm"_s);
    if (pdftoppm.isEmpty())
        QSKIP("pdftoppm not installed: the PDF was not rasterised");
    QProcess p;
    p.start(pdftoppm, {u"-png"_s, u"-r"_s, u"40"_s, u"-f"_s, u"1"_s, u"-l"_s, u"1"_s,
                       u"-singlefile"_s, pdfPath, m_dir.filePath(u"page"_s)});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    QImage page(m_dir.filePath(u"page.png"_s));
    QVERIFY(!page.isNull());
    QVERIFY(page.height() > page.width()); // A4 portrait
}

void TestReport::bundleVerifies()
{
    const QString dir = m_dir.filePath(u"bundle"_s);
    QStringList files;
    QString error;
    const QString h = html();
    const QByteArray pdf = renderPdfFromHtml(h, m_content.title, &error);
    QVERIFY2(writeAcceptanceBundle(dir, m_content, h, pdf, &files, &error), qPrintable(error));
    for (const QString &want :
         {u"README.txt"_s, u"report/report.html"_s, u"report/report.pdf"_s, u"report/summary.csv"_s,
          u"report/report.json"_s, u"definitions/metric-definitions.json"_s,
          u"definitions/metric-definitions.txt"_s, u"cost/bill-items.json"_s,
          u"cost/bill-mapping.csv"_s, u"cost/windows.json"_s, u"manifest.json"_s,
          u"MANIFEST.sha256"_s})
        QVERIFY2(files.contains(want), qPrintable(want));
    for (qint64 id : {m_project.runA, m_project.runB})
        for (const char *f : {"sut.json", "dataset.json", "command.txt", "snapshot.json",
                              "result.json", "requests.csv", "failed-requests.json"})
            QVERIFY2(files.contains(u"runs/%1/%2"_s.arg(id).arg(QLatin1StringView(f))), f);

    QStringList problems;
    QVERIFY2(verifyAcceptanceBundle(dir, &problems), qPrintable(problems.join(u'\n')));

    // No secret anywhere in the bundle; the command is there, redacted.
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains("sk-test-123456789"), qPrintable(f.fileName()));
    }
    QFile cmd(dir + u"/runs/%1/command.txt"_s.arg(m_project.runA));
    QVERIFY(cmd.open(QIODevice::ReadOnly));
    const QByteArray command = cmd.readAll();
    QVERIFY(command.contains("servebench-cli run --base-url http://127.0.0.1:8000"));
    QVERIFY(command.contains("<redacted>"));

    // Failed requests are in the bundle in full, the 100 KB message included.
    QFile failed(dir + u"/runs/%1/failed-requests.json"_s.arg(m_project.runA));
    QVERIFY(failed.open(QIODevice::ReadOnly));
    const QJsonObject fo = QJsonDocument::fromJson(failed.readAll()).object();
    QCOMPARE(fo.value(u"requests"_s).toArray().size(), 2);
    QCOMPARE(fo.value(u"requests"_s).toArray().at(1).toObject().value(u"message"_s).toString(),
             fixture::bigMessage());

    // sha256sum agrees with the manifest.
    const QString sha256sum = QStandardPaths::findExecutable(u"sha256sum"_s);
    if (!sha256sum.isEmpty()) {
        QProcess p;
        p.setWorkingDirectory(dir);
        p.start(sha256sum, {u"--quiet"_s, u"-c"_s, u"MANIFEST.sha256"_s});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
    }

    // A changed file and an unlisted file are both caught.
    {
        QFile f(dir + u"/report/summary.csv"_s);
        QVERIFY(f.open(QIODevice::Append));
        f.write("tampered\n");
    }
    {
        QFile f(dir + u"/extra.txt"_s);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x");
    }
    QVERIFY(!verifyAcceptanceBundle(dir, &problems));
    QCOMPARE(problems.size(), 2);
    QVERIFY(problems.join(u'\n').contains(u"report/summary.csv: checksum differs"_s));
    QVERIFY(problems.join(u'\n').contains(u"extra.txt: not listed"_s));
    // A bundle never overwrites a folder with files in it.
    QVERIFY(!writeAcceptanceBundle(dir, m_content, h, pdf, &files, &error));
    QVERIFY(error.contains(u"not empty"_s));
}

void TestReport::machineExports()
{
    const QByteArray csv = reportRequestsCsv(m_content);
    const QList<QByteArray> lines = csv.trimmed().split('\n');
    QVERIFY(lines.first().startsWith("run_id,index,request_id"));
    QCOMPARE(lines.size(), 1 + 80);
    const QByteArray failed = failedRequestsCsv(m_content);
    QCOMPARE(failed.trimmed().split('\n').size(), 1 + 3);
    QVERIFY(failed.contains("\"<script>alert(\"\"pwned\"\")</script> & it's \"\"quoted\"\""));

    const QByteArray summary = m_content.comparison.summaryCsv();
    QVERIFY(
        summary.startsWith("metric,label,unit,run_id,run,baseline,value,abs_diff,rel_diff,note\n"));
    QVERIFY(summary.contains("ttft.p99,P99 TTFT,ms,"));

    const QJsonObject j = reportJson(m_content);
    QCOMPARE(j.value(u"runs"_s).toArray().size(), 2);
    QVERIFY(j.value(u"comparison"_s).toObject().value(u"rows"_s).toArray().size() > 20);
    QCOMPARE(j.value(u"comparison"_s)
                 .toObject()
                 .value(u"comparability"_s)
                 .toObject()
                 .value(u"rankable"_s)
                 .toBool(),
             true);
    QVERIFY(j.value(u"runs"_s).toArray().at(0).toObject().value(u"cost"_s).toObject().contains(
        u"total"_s));
}

void TestReport::commandScrubbing_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("expected");
    QTest::newRow("bearer") << u"servebench-cli run --header 'Authorization: Bearer abc.def'"_s
                            << u"servebench-cli run --header 'Authorization: Bearer <redacted>'"_s;
    QTest::newRow("sk key") << u"servebench-cli run --header x-key=sk-abcdef123456"_s
                            << u"servebench-cli run --header x-key=<redacted>"_s;
    QTest::newRow("api-key header")
        << u"servebench-cli run --header api-key=s3cr3t --model m"_s
        << u"servebench-cli run --header api-key=<redacted> --model m"_s;
    QTest::newRow("inline header") << u"servebench-cli run --header=api-key:s3cr3t --model m"_s
                                   << u"servebench-cli run --header=api-key:<redacted> --model m"_s;
    QTest::newRow("quoted inline header")
        << u"servebench-cli run '--header=X-Api-Key: abc' --model m"_s
        << u"servebench-cli run '--header=X-Api-Key:<redacted>' --model m"_s;
    QTest::newRow("URL password")
        << u"servebench-cli run --base-url http://u:pw@h:8000 -x"_s
        << u"servebench-cli run --base-url http://u:<redacted>@h:8000 -x"_s;
    QTest::newRow("harmless") << u"servebench-cli run --header x-trace=on --request-rate 4"_s
                              << u"servebench-cli run --header x-trace=on --request-rate 4"_s;
}

void TestReport::commandScrubbing()
{
    QFETCH(QString, command);
    QFETCH(QString, expected);
    QCOMPARE(scrubCommandLine(command), expected);
}

QTEST_MAIN(TestReport)
#include "tst_report.moc"
