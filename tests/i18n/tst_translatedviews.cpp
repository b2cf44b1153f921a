// One language per screen: the Compare tab (over the comparison fixture: a comparable pair with
// costs, a pair refused across scenarios, a rate sweep), the Results view (a Server run with
// failures of three classes, judged INVALID under MLPerf-style constraints, whose client fell
// behind its schedule) and the Cost page (a window with its notes) are filled, the workbench is
// switched to zh_CN, every text they show is collected (labels, buttons, tabs, table cells and
// headers with their tooltips, text boxes, chart titles, axes and series, widget tooltips) and
// none may be an English text of the core catalogue. The same views in English must show those
// texts (the check is not vacuous). The Results view's request table is left out: it shows the
// stored error-class names and the servers' own messages, which are data.

#include "../uiviews/comparefixture.h"
#include "corecataloguetexts.h"
#include "viewtexts.h"

#include "compare/comparisonview.h"
#include "costpage.h"
#include "resultsview.h"
#include "settingslanguage.h"

#include <QAbstractAxis>
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSeries>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>
#include <QTextEdit>

using namespace Qt::StringLiterals;
using namespace sb;
using viewtexts::shownTexts;

namespace {

QList<RequestRecord> resultsRecords()
{
    // Failures of three classes, and a client that sent a fifth of its requests 40 ms late.
    QList<RequestRecord> recs = fixture::records(60, 1.0,
                                                 {{ErrorClass::Timeout, u"no answer in time"_s},
                                                  {ErrorClass::Http5xx, u"upstream said 500"_s},
                                                  {ErrorClass::Http429, u"slow down"_s}});
    for (int i = 0; i < recs.size(); i += 5) {
        RequestRecord &r = recs[i];
        const qint64 late = 40'000'000;
        r.tSend += late;
        for (qint64 &t : r.chunkTimes)
            t += late;
        if (r.tFirst > 0) {
            r.tFirst += late;
            r.tLast += late;
        }
        r.tEnd += late;
    }
    return recs;
}

RunPlan resultsPlan()
{
    RunPlan p = fixture::plan(u"vllm-a100"_s, u"vllm"_s, u"A100"_s);
    p.name = u"server check"_s;
    p.profile.scenario = Scenario::Server;
    p.profile.requestRate = 10;
    p.profile.ttftSloMs = 5; // every TTFT is above it: INVALID
    p.profile.minQueryCount = 1000;
    return p;
}

} // namespace

// The texts of a view in English, then — switched live, as the Settings menu does — in Chinese.
struct Texts
{
    QStringList english;
    QStringList chinese;
};

void settle()
{
    // LanguageChange travels through the event queue.
    QTest::qWait(50);
    QCoreApplication::processEvents();
}

class TestTranslatedViews : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void noEnglishCoreTextInChinese_data();
    void noEnglishCoreTextInChinese();

private:
    void both(QWidget *w, const QList<QWidget *> &skip, Texts *out);
    Texts compareTexts();
    Texts resultsTexts();
    Texts costTexts();

    QTemporaryDir m_dir;
    comparefixture::Project m_project;
    QTranslator m_zh;
    QList<cataloguetexts::Template> m_templates;
    LanguageSwitcher m_lang;
};

void TestTranslatedViews::initTestCase()
{
    QString error;
    QVERIFY2(comparefixture::build(m_dir.filePath(u"views.sbproj"_s), &m_project, &error),
             qPrintable(error));
    QVERIFY(m_zh.load(u":/i18n/servebench_core_zh_CN.qm"_s));
    m_templates = cataloguetexts::templates(m_zh);
    QVERIFY(m_templates.size() > 250);
}

void TestTranslatedViews::both(QWidget *w, const QList<QWidget *> &skip, Texts *out)
{
    out->english << shownTexts(w, skip);
    QVERIFY(m_lang.apply(u"zh_CN"_s));
    settle();
    out->chinese << shownTexts(w, skip);
    QVERIFY(m_lang.apply(u"en"_s));
    settle();
}

Texts TestTranslatedViews::compareTexts()
{
    Texts t;
    ComparisonView view;
    view.resize(1300, 850);
    view.show();
    QSignalSpy listed(&view, &ComparisonView::runsListed);
    view.setProject(m_project.path);
    [&] {
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
    }();
    // A comparable pair with costs, a pair refused across scenarios, a sweep with costs over
    // some of its runs only.
    for (const QList<qint64> &ids :
         {QList<qint64>{m_project.runA, m_project.runB},
          QList<qint64>{m_project.runA, m_project.offline}, m_project.sweepA}) {
        QSignalSpy shown(&view, &ComparisonView::comparisonShown);
        view.setSelectedRuns(ids);
        [&] {
            QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && !view.isBusy(), 30000);
        }();
        both(&view, {}, &t);
    }
    return t;
}

Texts TestTranslatedViews::resultsTexts()
{
    Texts t;
    ResultsView view;
    view.resize(1200, 800);
    view.show();
    QSignalSpy charts(&view, &ResultsView::chartsShown);
    view.showRun(resultsPlan(), resultsRecords());
    [&] {
        QTRY_VERIFY_WITH_TIMEOUT(!charts.isEmpty(), 30000);
    }();
    // Left out: the request table (stored class names and the servers' messages: data) and the
    // LoadGen-style MLPerf block, a compatibility format that stays English.
    QWidget *requests = view.findChild<QWidget *>(u"requestFilter"_s)->parentWidget();
    QWidget *loadgen = view.findChild<QWidget *>(u"mlperfText"_s);
    both(&view, {requests, loadgen}, &t);
    return t;
}

Texts TestTranslatedViews::costTexts()
{
    Texts t;
    CostPage page;
    page.resize(1200, 800);
    page.show();
    QSignalSpy loaded(&page, &CostPage::loaded);
    page.setProject(m_project.path);
    [&] {
        QVERIFY(loaded.wait(30000));
    }();
    for (const QString &w : {u"window A"_s, u"window A 10 req/s"_s}) {
        [&] {
            QVERIFY(page.selectWindow(w));
        }();
        both(&page, {}, &t);
    }
    return t;
}

void TestTranslatedViews::noEnglishCoreTextInChinese_data()
{
    QTest::addColumn<int>("view");
    // Per view: identifiers its English texts must show, and Chinese it must show instead.
    QTest::addColumn<QList<QByteArray>>("englishIds");
    QTest::addColumn<QStringList>("chinese");
    QTest::newRow("compare") << 0 << QList<QByteArray>{"cmp.rank.lower",
                                                       "cmp.refusal.scenario",
                                                       "cmp.field.engine",
                                                       "cmp.cost.not_all_covered",
                                                       "cmp.row.request_throughput",
                                                       "metric.statement.percentiles"}
                             << QStringList{u"按 P99 TTFT 排名（越低越好）"_s,
                                            u"这些运行使用了不同的场景"_s, u"推理引擎"_s};
    QTest::newRow("results")
        << 1 << QList<QByteArray>{"error_class.timeout",     "error_class.http_5xx",
                                  "health.lateness",         "mlperf.early_ttft",
                                  "cmp.cell.invalid",        "metric.ttft.detail",
                                  "metric.statement.failed", "token_source.server_usage"}
        << QStringList{u"超时"_s, u"限制本次运行的是客户端"_s,
                       u"首 token 时间；仅统计成功的计量请求。"_s, u"提前停止判定未通过（TTFT）"_s};
    QTest::newRow("cost") << 2
                          << QList<QByteArray>{"cost.heading.breakdown",  "cost.why.overlap",
                                               "cost.why.prorated_total", "cost.items.overlapping",
                                               "cost.line.per_token",     "cost.rounding_rule"}
                          << QStringList{u"成本明细"_s, u"每个成功请求的成本"_s};
}

void TestTranslatedViews::noEnglishCoreTextInChinese()
{
    QFETCH(int, view);
    QFETCH(QList<QByteArray>, englishIds);
    QFETCH(QStringList, chinese);
    const Texts texts = view == 0 ? compareTexts() : view == 1 ? resultsTexts() : costTexts();
    QVERIFY(!texts.english.isEmpty() && !texts.chinese.isEmpty());

    // English: the core's texts are there.
    QSet<QByteArray> seen;
    for (const auto &h : cataloguetexts::find(m_templates, texts.english))
        seen.insert(h.id);
    QList<QByteArray> seenList(seen.cbegin(), seen.cend());
    std::sort(seenList.begin(), seenList.end());
    qInfo("English core texts seen: %d (%s)", int(seenList.size()),
          seenList.join(", ").constData());
    for (const QByteArray &id : englishIds)
        QVERIFY2(seen.contains(id), id.constData());

    // Chinese: none of them, nor any other core text in English.
    const auto hits = cataloguetexts::find(m_templates, texts.chinese);
    QStringList report;
    for (const auto &h : hits)
        report << u"%1: %2"_s.arg(QString::fromLatin1(h.id), h.text.left(160));
    QVERIFY2(hits.isEmpty(), qPrintable(report.join(u'\n')));
    const QString all = texts.chinese.join(u'\n');
    for (const QString &c : chinese)
        QVERIFY2(all.contains(c), qPrintable(c));
}

QTEST_MAIN(TestTranslatedViews)
#include "tst_translatedviews.moc"
