// The report's first page, as a decision-maker reads it in the PDF: rendered to PNG with
// pdftoppm and read back with pdftotext (poppler-utils), no word on it is broken (the old
// layout split 'successful' into 'succ essfu l' in narrow portrait columns); it holds the
// question, the verdict per key metric with its interval, cost per request and per 1M output
// tokens with their windows, and what was not comparable; the details follow as appendices,
// wide tables on landscape pages.

#include "reportfixture.h"
#include "syntheticreportruns.h"

#include "report/comparison.h"

#include "chartrenderer.h"
#include "pdfrenderer.h"
#include "report/decisionpage.h"
#include "report/htmlreport.h"

#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// Words as a reader sees them: split at any white space (no-break spaces included), ligatures
// unfolded (pdftotext writes 'ﬀ' for the ff QTextDocument sets as one glyph).
QStringList words(const QString &text)
{
    static const QRegularExpression space(u"[\\s\\x{00A0}\\x{2007}\\x{202F}]+"_s);
    return text.normalized(QString::NormalizationForm_KC).split(space, Qt::SkipEmptyParts);
}

// White space collapsed to one plain space, so a cell's string is found however pdftotext
// spaced the words it did keep on one line.
QString collapsed(const QString &text)
{
    return words(text).join(u' ');
}

QString plain(const QString &html)
{
    return QTextDocumentFragment::fromHtml(html).toPlainText();
}

} // namespace

class TestReportPageOne : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void noWordBrokenOnPageOne();
    void decisionPageIsWholeOnPageOne();
    void numbersAreWholeOnPageOne();
    void noTableRunsPastTheMargin();
    void candidateCodes_data();
    void candidateCodes();
    void metricsWithoutValuesShareOneLine();
    void seriesOnTheDecisionPage();
    void oneRunShowsItsIntervals();

private:
    QString pdfText(int first, int last, bool layout) const;

    QTemporaryDir m_dir;
    fixture::Project m_project;
    ProjectStore m_store;
    ReportContent m_content;
    QString m_html;
    QString m_pdfPath;
    QString m_pdftotext;
};

void TestReportPageOne::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_pdftotext = QStandardPaths::findExecutable(u"pdftotext"_s);
    QVERIFY2(!m_pdftotext.isEmpty(), "pdftotext (poppler-utils) is needed");
    QString error;
    QVERIFY2(fixture::build(m_dir.filePath(u"fixture.sbproj"_s), &m_project, &error),
             qPrintable(error));
    QVERIFY(m_store.open(m_project.path, ProjectStore::OpenMode::ReadOnly));
    QVERIFY2(loadReportContent(m_store, {m_project.runA, m_project.runB}, {}, &m_content, &error),
             qPrintable(error));
    m_html = renderHtmlReport(m_content, renderChartPngs(m_content.charts));
    const QByteArray pdf = renderPdfFromHtml(m_html, m_content.title, &error);
    QVERIFY2(!pdf.isEmpty(), qPrintable(error));
    m_pdfPath = m_dir.filePath(u"report.pdf"_s);
    QFile f(m_pdfPath);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(pdf);
    f.close();
    // Optional artefacts for the docs: set SB_REPORT_SAVE_DIR to keep the PDF and page 1.
    const QString save = qEnvironmentVariable("SB_REPORT_SAVE_DIR");
    if (!save.isEmpty()) {
        QFile::remove(save + u"/report.pdf"_s);
        QFile::copy(m_pdfPath, save + u"/report.pdf"_s);
        QFile html(save + u"/report.html"_s);
        if (html.open(QIODevice::WriteOnly))
            html.write(m_html.toUtf8());
    }
}

QString TestReportPageOne::pdfText(int first, int last, bool layout) const
{
    QProcess p;
    QStringList args = {u"-f"_s, QString::number(first), u"-l"_s, QString::number(last)};
    if (layout)
        args << u"-layout"_s;
    p.start(m_pdftotext, args + QStringList{m_pdfPath, u"-"_s});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return QString();
    return QString::fromUtf8(p.readAllStandardOutput());
}

void TestReportPageOne::noWordBrokenOnPageOne()
{
    // Page 1 as a picture: what a reader of the PDF sees first.
    const QString pdftoppm = QStandardPaths::findExecutable(u"pdftoppm"_s);
    QVERIFY2(!pdftoppm.isEmpty(), "pdftoppm (poppler-utils) is needed");
    QProcess p;
    p.start(pdftoppm, {u"-png"_s, u"-r"_s, u"60"_s, u"-f"_s, u"1"_s, u"-l"_s, u"1"_s,
                       u"-singlefile"_s, m_pdfPath, m_dir.filePath(u"page1"_s)});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const QImage page(m_dir.filePath(u"page1.png"_s));
    QVERIFY(!page.isNull());
    const QString save = qEnvironmentVariable("SB_REPORT_SAVE_DIR");
    if (!save.isEmpty())
        page.save(save + u"/report-page1.png"_s);

    // Every word pdftotext reads on page 1 is a word of the report's own text: a cell whose
    // text was broken inside a word reads as fragments ('succ', 'essfu', 'l'; '302.5', '6')
    // that the report never wrote.
    QSet<QString> known;
    for (const QString &w : words(plain(m_html)))
        known.insert(w);
    // The numbers QTextDocument puts before list items are not in the text.
    for (int i = 1; i < 100; ++i)
        known.insert(u"%1."_s.arg(i));
    const QString text = pdfText(1, 1, true);
    QVERIFY(!text.isEmpty());
    QStringList broken;
    for (const QString &w : words(text))
        if (!known.contains(w))
            broken << w;
    QVERIFY2(broken.isEmpty(),
             qPrintable(u"words on page 1 that the report never wrote (broken cells?): "_s +
                        broken.join(u" | "_s) + u"\n\n"_s + text));
}

void TestReportPageOne::decisionPageIsWholeOnPageOne()
{
    // Every word of the decision page is on page 1: nothing spilled onto page 2, and no table
    // ran past the right margin (a clipped column loses its words; the first try cut off the
    // verdict column this way).
    const QString page = decisionPageHtml(m_content, false);
    QVERIFY(page.contains(u"id=\"decision\""_s));
    QSet<QString> onPage;
    for (const QString &w : words(pdfText(1, 1, false)))
        onPage.insert(w);
    QStringList missing;
    for (const QString &w : words(plain(page)))
        if (!onPage.contains(w))
            missing << w;
    QVERIFY2(missing.isEmpty(),
             qPrintable(u"words of the decision page not on page 1: "_s + missing.join(u" | "_s)));
    // The appendices follow it, on later pages.
    QVERIFY(!pdfText(1, 1, false).contains(u"Appendix: the runs at a glance"_s));
    QVERIFY(pdfText(2, 2, false).contains(u"Appendix: the runs at a glance"_s));
}

void TestReportPageOne::numbersAreWholeOnPageOne()
{
    // Each number cell of the decision page (a value, a difference with its interval, a cost)
    // is one unwrapped line in the PDF: found whole on one line of page 1's layout text.
    const QString page = decisionPageHtml(m_content, false);
    static const QRegularExpression cell(u"<td class=\"num\">(.*?)</td>"_s);
    QStringList expected;
    for (QRegularExpressionMatchIterator it = cell.globalMatch(page); it.hasNext();)
        for (const QString &line : it.next().captured(1).split(u"<br/>"_s))
            if (!collapsed(plain(line)).isEmpty())
                expected << collapsed(plain(line));
    // The fixture's two runs: a verdict row per key metric, and the cost of both.
    QVERIFY2(expected.size() >= 10, qPrintable(expected.join(u" | "_s)));
    QVERIFY(expected.contains(u"11.019737"_s)); // cost per 1M output tokens, run A
    QStringList lines;
    for (const QString &l : pdfText(1, 1, true).split(u'\n'))
        lines << collapsed(l);
    QStringList broken;
    for (const QString &e : std::as_const(expected)) {
        bool found = false;
        for (const QString &l : std::as_const(lines))
            found = found || l.contains(e);
        if (!found)
            broken << e;
    }
    QVERIFY2(broken.isEmpty(), qPrintable(u"number cells not whole on one line of page 1: "_s +
                                          broken.join(u" | "_s)));
}

void TestReportPageOne::noTableRunsPastTheMargin()
{
    // Words are never broken, so a table too wide for its page would be clipped at the right
    // margin: no line of the whole report (appendices included, wide tables on landscape
    // pages) ends past its page's right edge. A table of long words on a portrait page is
    // caught.
    const QStringList overflows = pdfTextOverflows(m_html);
    QVERIFY2(overflows.isEmpty(), qPrintable(overflows.join(u'\n')));
    QString wide = u"<table border=\"1\" width=\"100%\"><tr>"_s;
    for (int i = 0; i < 12; ++i)
        wide += u"<td>unbreakable_cell_text_%1</td>"_s.arg(i);
    wide += u"</tr></table>"_s;
    const QString portrait = u"<html><head></head><body><p>x</p>%1</body></html>"_s.arg(wide);
    QVERIFY(!pdfTextOverflows(portrait).isEmpty());
    // Twelve columns of short words fit.
    QString narrow = wide;
    narrow.replace(u"unbreakable_cell_text_"_s, u"cell "_s);
    QVERIFY(pdfTextOverflows(u"<html><head></head><body><p>x</p>%1</body></html>"_s.arg(narrow))
                .isEmpty());
}

void TestReportPageOne::candidateCodes_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("code");
    QTest::newRow("first") << 0 << u"A"_s;
    QTest::newRow("second") << 1 << u"B"_s;
    QTest::newRow("26th") << 25 << u"Z"_s;
    QTest::newRow("27th") << 26 << u"AA"_s;
    QTest::newRow("28th") << 27 << u"AB"_s;
    QTest::newRow("702nd") << 701 << u"ZZ"_s;
    QTest::newRow("703rd") << 702 << u"AAA"_s;
}

void TestReportPageOne::candidateCodes()
{
    QFETCH(int, index);
    QFETCH(QString, code);
    QCOMPARE(candidateCode(index), code);
}

void TestReportPageOne::metricsWithoutValuesShareOneLine()
{
    // The fixture's runs, with mean TPOT taken away on both sides (as for one-token answers):
    // no row of its own, one line naming it; the other key metrics keep their rows.
    QCOMPARE(runCodes(m_content.comparison), (QStringList{u"A"_s, u"B"_s}));
    ReportContent content = m_content;
    bool found = false;
    for (ComparisonRow &row : content.comparison.rows) {
        if (row.key != "tpot.mean"_L1)
            continue;
        for (CandidateTest &t : row.tests)
            t.estimate.reset();
        found = true;
    }
    QVERIFY(found);
    const QString before = plain(decisionPageHtml(m_content, false));
    const QString after = plain(decisionPageHtml(content, false));
    QVERIFY(before.contains(u"Mean TPOT (ms)"_s));
    QVERIFY(!before.contains(u"No value on either side"_s));
    QVERIFY2(!after.contains(u"Mean TPOT (ms)"_s), qPrintable(after));
    QVERIFY2(after.contains(u"No value on either side, so no verdict: Mean TPOT"_s),
             qPrintable(after));
    QVERIFY(after.contains(u"P99 TTFT (ms)"_s));
}

void TestReportPageOne::seriesOnTheDecisionPage()
{
    // Two series of three runs (B sends twice as fast): the runs are coded A1..A3, B1..B3 with
    // their labels in the legend, the cache state is said, and the throughput, testable over
    // runs, gets a verdict.
    ReportContent content;
    for (int i = 0; i < 6; ++i) {
        synthetic::RunShape shape;
        shape.requests = 60;
        shape.ratePerS = (i < 3 ? 20 : 40) * (1 + 0.02 * (i % 3));
        ReportRun r = synthetic::run(i + 1, u"sim"_s, synthetic::records(shape, 200 + i));
        r.seriesId = i < 3 ? 7 : 8;
        r.seriesName = i < 3 ? u"slow"_s : u"fast"_s;
        r.seriesCacheState = u"cache-busted: every request of every run has a new random prefix"_s;
        content.runs << r;
    }
    content.costs.resize(content.runs.size());
    ComparisonOptions o;
    RankBy::parse(u"request_throughput"_s, &o.rankBy, nullptr);
    content.comparison = buildComparison(content.runs, content.costs, o);
    QCOMPARE(content.comparison.candidates.size(), 2);
    QCOMPARE(runCodes(content.comparison),
             (QStringList{u"A1"_s, u"A2"_s, u"A3"_s, u"B1"_s, u"B2"_s, u"B3"_s}));
    const QString page = plain(decisionPageHtml(content, false));
    QVERIFY2(page.contains(u"B1 = %1"_s.arg(content.runs.at(3).label)), qPrintable(page));
    QVERIFY(page.contains(u"series fast (3 runs)"_s));
    QVERIFY(page.contains(u"cache-busted: every request"_s));
    QVERIFY(page.contains(u"Do the candidates A, B differ"_s));
    // Request throughput: compared over runs, B better; the ranking puts B first.
    const QString html = decisionPageHtml(content, false);
    static const QRegularExpression throughputRow(
        u"<tr><td class=\"name\">Request throughput \\(req/s\\)</td>.*?</tr>"_s);
    const QString row = throughputRow.match(html).captured(0);
    QVERIFY2(row.contains(u"<td class=\"better\">better"_s), qPrintable(html));
    QVERIFY2(page.contains(u"Ranking by Request throughput (ties within 95 % share a rank): 1 B; "
                           "2 A"_s),
             qPrintable(page));
}

void TestReportPageOne::oneRunShowsItsIntervals()
{
    // A report of one run has nothing to compare: its key metrics with their intervals within
    // the run, "omitted: why" where the run is too small (40 requests: p99 needs 299), and no
    // comparability verdict about "runs".
    ReportContent one;
    QString error;
    QVERIFY2(loadReportContent(m_store, {m_project.runA}, {}, &one, &error), qPrintable(error));
    const QString html = decisionPageHtml(one, false);
    const QString page = plain(html);
    QVERIFY2(page.contains(u"Key metrics of the run (95 % intervals within it)"_s),
             qPrintable(page));
    QVERIFY(!page.contains(u"Comparable"_s));
    QVERIFY(!page.contains(u"(baseline)"_s));
    QVERIFY(!page.contains(u"Verdict per key metric"_s));
    static const QRegularExpression median(
        u"<tr><td class=\"name\">Median TTFT \\(ms\\)</td><td class=\"num\">[0-9.]+</td>"
        "<td class=\"num\">\\[[0-9.]+,\\x{00A0}[0-9.]+\\]</td></tr>"_s);
    QVERIFY2(median.match(html).hasMatch(), qPrintable(html));
    QVERIFY2(page.contains(u"omitted: p99 needs at least 299 samples"_s), qPrintable(page));
}

QTEST_MAIN(TestReportPageOne)
#include "tst_reportpageone.moc"
