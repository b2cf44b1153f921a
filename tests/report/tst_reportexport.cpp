// The comparison report as it is exported for a review meeting: six runs of two SUTs written as
// HTML and PDF through writeReportOutputs (what the CLI's `compare --html --pdf` and the
// workbench's Export call), then read back with poppler-utils. Every number in the HTML's tables
// is in the PDF's text (a column cut at the page edge loses its numbers), no page is blank, and
// the files say when they were exported, not when the comparison was computed.

#include "reportfixture.h"

#include "qtreportrenderer.h"
#include "report/htmlreport.h"
#include "report/reportoutputs.h"

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

QStringList words(const QString &text)
{
    static const QRegularExpression space(u"[\\s\\x{00A0}\\x{2007}\\x{202F}]+"_s);
    return text.normalized(QString::NormalizationForm_KC).split(space, Qt::SkipEmptyParts);
}

// The program's standard output; *ok says whether it ran and exited with 0.
QString run(const QString &program, const QStringList &args, bool *ok = nullptr)
{
    QProcess p;
    p.start(program, args);
    const bool done =
        p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (ok)
        *ok = done;
    return done ? QString::fromUtf8(p.readAllStandardOutput()) : QString();
}

} // namespace

class TestReportExport : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void everyTableNumberIsInThePdf();
    void noPageIsBlank();
    void filesSayWhenTheyWereExported();

private:
    QTemporaryDir m_dir;
    QString m_html;
    QString m_pdfPath;
    QString m_pdftotext;
    QString m_pdftoppm;
    QDateTime m_before, m_after;
};

void TestReportExport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_pdftotext = QStandardPaths::findExecutable(u"pdftotext"_s);
    m_pdftoppm = QStandardPaths::findExecutable(u"pdftoppm"_s);
    QVERIFY2(!m_pdftotext.isEmpty() && !m_pdftoppm.isEmpty(),
             "pdftotext and pdftoppm (poppler-utils) are needed");
    fixture::Project project;
    QString error;
    QVERIFY2(fixture::build(m_dir.filePath(u"six.sbproj"_s), &project, &error), qPrintable(error));
    // Two more runs of each SUT, a little faster or slower, as repeats would give.
    QList<qint64> ids{project.runA, project.runB};
    {
        RunWriter w;
        QVERIFY2(w.open(project.path, &error), qPrintable(error));
        const QDateTime day(QDate(2024, 5, 1), QTime(12, 0), Qt::UTC);
        for (int i = 0; i < 4; ++i) {
            const bool a = i % 2 == 0;
            const RunPlan p = a ? fixture::plan(u"vllm-a100"_s, u"vllm"_s, u"A100"_s)
                                : fixture::plan(u"sglang-h100"_s, u"sglang"_s, u"H100"_s);
            const qint64 id = fixture::writeRun(
                w, p, fixture::records(40, (a ? 1.0 : 0.7) * (1.0 + 0.05 * (i + 1)), {}),
                u"%1 repeat %2"_s.arg(a ? u"A"_s : u"B"_s).arg(i / 2 + 2), day.addSecs(600 * i),
                project.links(a ? project.sutA : project.sutB));
            QVERIFY(id > 0);
            ids << id;
        }
        w.close();
    }
    ProjectStore store;
    QVERIFY(store.open(project.path, ProjectStore::OpenMode::ReadOnly));
    ReportContent content;
    QVERIFY2(loadReportContent(store, ids, {}, &content, &error), qPrintable(error));
    QCOMPARE(content.runs.size(), 6);
    // Computed long before it is exported, as a comparison left open in the workbench is.
    content.generatedUtc = QDateTime(QDate(2001, 1, 1), QTime(0, 0), Qt::UTC);

    ReportOutputs out;
    out.html = m_dir.filePath(u"report.html"_s);
    out.pdf = m_dir.filePath(u"report.pdf"_s);
    QtReportRenderer renderer;
    QStringList written;
    m_before = QDateTime::currentDateTimeUtc();
    QVERIFY2(writeReportOutputs(content, out, &renderer, &written, &error), qPrintable(error));
    m_after = QDateTime::currentDateTimeUtc();
    QFile h(out.html);
    QVERIFY(h.open(QIODevice::ReadOnly));
    m_html = QString::fromUtf8(h.readAll());
    m_pdfPath = out.pdf;
    const QString save = qEnvironmentVariable("SB_REPORT_SAVE_DIR");
    if (!save.isEmpty()) {
        QFile::remove(save + u"/report-six-runs.pdf"_s);
        QFile::copy(m_pdfPath, save + u"/report-six-runs.pdf"_s);
    }
}

void TestReportExport::everyTableNumberIsInThePdf()
{
    // The numbers of every table cell, as tokens: a column cut at the margin loses them.
    static const QRegularExpression cell(u"<t[dh][^>]*>(.*?)</t[dh]>"_s,
                                         QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression number(u"[-+−]?\\d[\\d,]*(?:\\.\\d+)?"_s);
    QSet<QString> expected;
    for (auto it = cell.globalMatch(m_html); it.hasNext();) {
        const QString text = QTextDocumentFragment::fromHtml(it.next().captured(1)).toPlainText();
        for (auto n = number.globalMatch(text); n.hasNext();)
            expected.insert(n.next().captured(0));
    }
    QVERIFY2(expected.size() > 100, qPrintable(QString::number(expected.size())));
    const QString pdf = run(m_pdftotext, {m_pdfPath, u"-"_s});
    QVERIFY(!pdf.isEmpty());
    QSet<QString> inPdf;
    for (const QString &w : words(pdf))
        for (auto n = number.globalMatch(w); n.hasNext();)
            inPdf.insert(n.next().captured(0));
    QStringList missing;
    for (const QString &n : std::as_const(expected))
        if (!inPdf.contains(n))
            missing << n;
    missing.sort();
    QVERIFY2(missing.isEmpty(), qPrintable(u"%1 of %2 numbers of the HTML's tables are not in "
                                           "the PDF: "_s.arg(missing.size())
                                               .arg(expected.size()) +
                                           missing.mid(0, 40).join(u" "_s)));
}

void TestReportExport::noPageIsBlank()
{
    const QString info = run(QStandardPaths::findExecutable(u"pdfinfo"_s), {m_pdfPath});
    static const QRegularExpression pagesRe(u"Pages:\\s+(\\d+)"_s);
    const int pages = pagesRe.match(info).captured(1).toInt();
    QVERIFY2(pages > 1, qPrintable(info));
    qInfo("%d pages for six runs", pages);
    bool drawn = false;
    run(m_pdftoppm, {u"-png"_s, u"-r"_s, u"12"_s, m_pdfPath, m_dir.filePath(u"p"_s)}, &drawn);
    QVERIFY(drawn);
    QStringList blank;
    for (int i = 1; i <= pages; ++i) {
        const QString name =
            pages >= 10 ? u"p-%1.png"_s.arg(i, 2, 10, QChar(u'0')) : u"p-%1.png"_s.arg(i);
        const QImage img(m_dir.filePath(name));
        QVERIFY2(!img.isNull(), qPrintable(name));
        int ink = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x)
                if (qGray(img.pixel(x, y)) < 200)
                    ++ink;
        const QString text = run(m_pdftotext, {u"-f"_s, QString::number(i), u"-l"_s,
                                               QString::number(i), m_pdfPath, u"-"_s});
        // A page with a line of text or a chart has ink and words; an empty page (QTextDocument
        // prints no page numbers) has neither.
        if (ink < 20 && words(text).isEmpty())
            blank << u"%1 (%2 dark pixels, %3 words)"_s.arg(i).arg(ink).arg(words(text).size());
    }
    QVERIFY2(blank.isEmpty(), qPrintable(u"blank pages: "_s + blank.join(u", "_s)));
}

void TestReportExport::filesSayWhenTheyWereExported()
{
    static const QRegularExpression stamp(u"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"_s);
    QStringList stamps;
    for (auto it = stamp.globalMatch(m_html); it.hasNext();)
        stamps << it.next().captured(0);
    QVERIFY(!stamps.isEmpty());
    QString exported;
    for (const QString &s : std::as_const(stamps)) {
        const QDateTime t = QDateTime::fromString(s, Qt::ISODate);
        if (t >= m_before.addSecs(-1) && t <= m_after.addSecs(1))
            exported = s;
    }
    QVERIFY2(
        !exported.isEmpty(),
        qPrintable(u"no time between %1 and %2 in the HTML; it has: %3"_s.arg(
            m_before.toString(Qt::ISODate), m_after.toString(Qt::ISODate), stamps.join(u", "_s))));
    QVERIFY(!m_html.contains(u"2001-01-01T00:00:00Z"_s));
    const QString pdf = run(m_pdftotext, {u"-f"_s, u"1"_s, u"-l"_s, u"3"_s, m_pdfPath, u"-"_s});
    QVERIFY2(words(pdf).join(u' ').contains(exported),
             qPrintable(u"the PDF's first pages do not give the export time "_s + exported));
}

QTEST_MAIN(TestReportExport)
#include "tst_reportexport.moc"
