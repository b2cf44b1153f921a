// What a restart brings back and what the views follow while the workbench runs:
// - a second MainWindow over the same settings file reopens the last project with its Compare
//   tab as it was left (ticked runs, baseline, ranking, splitters), the window's size and tab;
// - a last project whose file is gone: a status message and a new, empty project, no file made;
// - the CLI writing into the open project (bills import, a recorded run): the Compare tab's cost
//   row and the project tree change without ↻, the choices in the Compare tab kept.

#include "../uiviews/comparefixture.h"
#include "clirun.h"

#include "compare/comparisontablemodel.h"
#include "compare/comparisonview.h"
#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "mainwindow.h"
#include "projectdocument.h"
#include "projecttreemodel.h"
#include "settings.h"

#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// The fixture's runs: A, B, A's Offline run and two sweeps of three.
constexpr qsizetype kRuns = 9;

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

// The texts of a row of the comparison table, run columns only.
QStringList rowTexts(const ComparisonView *view, const QString &key)
{
    const ComparisonTableModel *model = view->tableModel();
    const int row = model->rowOf(key);
    QStringList out;
    if (row < 0)
        return out;
    for (int col = 1; col < model->columnCount(); ++col)
        out << model->index(row, col).data().toString();
    return out;
}

QList<int> splitterSizes(QWidget *window, const QString &name)
{
    auto *s = window->findChild<QSplitter *>(name);
    return s ? s->sizes() : QList<int>();
}

// Equal to within `slack` pixels each: QSplitter scales restored sizes to its width.
bool near(const QList<int> &a, const QList<int> &b, int slack)
{
    if (a.size() != b.size() || a.isEmpty())
        return false;
    for (int i = 0; i < a.size(); ++i)
        if (std::abs(a.at(i) - b.at(i)) > slack)
            return false;
    return true;
}

QString describe(const QList<int> &l)
{
    QStringList s;
    for (int v : l)
        s << QString::number(v);
    return s.join(u',');
}

} // namespace

class TestRestartState : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void restartRestoresProjectAndCompare();
    void missingLastProject();
    void compareFollowsCliWrites();
    void treeListsCliRun();

private:
    MainWindow *newWindow();
    bool waitCompared(ComparisonView *view, const QList<qint64> &runs);

    QTemporaryDir *m_dir = nullptr;
    Settings *m_settings = nullptr;
    ApiKeyStore *m_keys = nullptr;
    comparefixture::Project m_project;
};

void TestRestartState::init()
{
    m_dir = new QTemporaryDir;
    m_settings = new Settings(m_dir->filePath(u"settings.ini"_s));
    m_keys = new ApiKeyStore(new KeychainUnavailableBackend);
    QString error;
    QVERIFY2(comparefixture::build(m_dir->filePath(u"restart.sbproj"_s), &m_project, &error),
             qPrintable(error));
}

void TestRestartState::cleanup()
{
    delete m_keys;
    delete m_settings;
    delete m_dir;
}

MainWindow *TestRestartState::newWindow()
{
    auto *w = new MainWindow(m_settings, m_keys);
    w->show();
    return w;
}

bool TestRestartState::waitCompared(ComparisonView *view, const QList<qint64> &runs)
{
    return QTest::qWaitFor(
        [&] { return !view->isBusy() && view->comparison() && view->comparison()->runIds == runs; },
        30000);
}

void TestRestartState::restartRestoresProjectAndCompare()
{
    const QString path = QFileInfo(m_project.path).absoluteFilePath();
    // Three of the nine runs, a baseline that is not the first of them, a ranking other than
    // the default P99 TTFT.
    const QList<qint64> ticked = {m_project.sweepA.at(1), m_project.sweepB.at(1),
                                  m_project.sweepB.at(2)};
    const qint64 baseline = m_project.sweepB.at(1);
    const QString rankBy = u"tpot:mean"_s;
    QList<int> upper, lower, main;
    QSize size;
    {
        std::unique_ptr<MainWindow> w(newWindow());
        w->resize(1300, 820);
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openProject(path));
        ComparisonView *view = w->comparisonView();
        w->tabs()->setCurrentWidget(view);
        QTRY_VERIFY_WITH_TIMEOUT(view->listedRuns().size() == kRuns && !view->isBusy(), 20000);
        view->setSelectedRuns(ticked);
        QVERIFY(view->setBaselineRun(baseline));
        QVERIFY(view->setRankBy(rankBy));
        QVERIFY(waitCompared(view, ticked));
        // The user drags the splitters: the run picker narrow, the table wide and tall.
        auto *upperSplitter = w->findChild<QSplitter *>(u"upperSplitter"_s);
        auto *lowerSplitter = w->findChild<QSplitter *>(u"lowerSplitter"_s);
        auto *mainSplitter = w->findChild<QSplitter *>(u"mainSplitter"_s);
        QVERIFY(upperSplitter && lowerSplitter && mainSplitter);
        const int width = upperSplitter->width();
        upperSplitter->setSizes({width * 2 / 5, width * 3 / 5});
        lowerSplitter->setSizes({width * 3 / 4, width / 4});
        mainSplitter->setSizes({mainSplitter->height() / 4, mainSplitter->height() * 3 / 4});
        QCoreApplication::processEvents();
        upper = upperSplitter->sizes();
        lower = lowerSplitter->sizes();
        main = mainSplitter->sizes();
        size = w->size();
        // Destroyed, not closed: what the settings hold must not depend on a close event.
    }
    delete m_settings;
    m_settings = new Settings(m_dir->filePath(u"settings.ini"_s));

    std::unique_ptr<MainWindow> w(newWindow());
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QTRY_COMPARE_WITH_TIMEOUT(w->document()->path(), path, 5000);
    QCOMPARE(w->document()->runs().size(), kRuns);
    QCOMPARE(w->size(), size);
    ComparisonView *view = w->comparisonView();
    QCOMPARE(w->tabs()->currentWidget(), view);
    QVERIFY(waitCompared(view, ticked));
    QCOMPARE(view->selectedRuns(), ticked);
    QCOMPARE(view->baselineRun(), baseline);
    QCOMPARE(view->rankBy(), rankBy);
    QCOMPARE(view->comparison()->rankBy.rowKey(), u"tpot.mean"_s);
    QCOMPARE(view->comparison()->runIds.at(view->comparison()->baseline), baseline);
    const QList<int> upperNow = splitterSizes(w.get(), u"upperSplitter"_s);
    const QList<int> lowerNow = splitterSizes(w.get(), u"lowerSplitter"_s);
    const QList<int> mainNow = splitterSizes(w.get(), u"mainSplitter"_s);
    QVERIFY2(near(upperNow, upper, 4),
             qPrintable(describe(upperNow) + u" instead of "_s + describe(upper)));
    QVERIFY2(near(lowerNow, lower, 4),
             qPrintable(describe(lowerNow) + u" instead of "_s + describe(lower)));
    QVERIFY2(near(mainNow, main, 4),
             qPrintable(describe(mainNow) + u" instead of "_s + describe(main)));

    // Another project opened meanwhile starts with nothing ticked; coming back to this one
    // brings its choices back.
    comparefixture::Project other;
    QString error;
    QVERIFY2(comparefixture::build(m_dir->filePath(u"other.sbproj"_s), &other, &error),
             qPrintable(error));
    QVERIFY(w->openProject(other.path));
    QTRY_VERIFY_WITH_TIMEOUT(view->listedRuns().size() == kRuns && !view->isBusy(), 20000);
    QVERIFY(view->selectedRuns().isEmpty());
    QVERIFY(w->openProject(path));
    QVERIFY(waitCompared(view, ticked));
    QCOMPARE(view->baselineRun(), baseline);
}

void TestRestartState::missingLastProject()
{
    const QString path = m_dir->filePath(u"gone.sbproj"_s);
    QVERIFY(QFile::copy(m_project.path, path));
    {
        std::unique_ptr<MainWindow> w(newWindow());
        QVERIFY(w->openProject(path));
        w->comparisonView()->setSelectedRuns({m_project.runA, m_project.runB});
    }
    QVERIFY(QFile::remove(path));

    std::unique_ptr<MainWindow> w(newWindow());
    QTRY_VERIFY_WITH_TIMEOUT(w->statusBar()->currentMessage().contains(u"no longer there"_s), 5000);
    QVERIFY2(w->statusBar()->currentMessage().contains(u"gone.sbproj"_s),
             qPrintable(w->statusBar()->currentMessage()));
    // An empty window: the new project, nothing compared, and no empty project made where the
    // old one was.
    QVERIFY(w->document()->isTemporary());
    QVERIFY(w->document()->runs().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(!w->comparisonView()->isBusy(), 20000);
    QVERIFY(w->comparisonView()->listedRuns().isEmpty());
    QVERIFY(!w->comparisonView()->comparison());
    QVERIFY(!QFile::exists(path));
}

void TestRestartState::compareFollowsCliWrites()
{
    std::unique_ptr<MainWindow> w(newWindow());
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(w->openProject(m_project.path));
    ComparisonView *view = w->comparisonView();
    w->tabs()->setCurrentWidget(view);
    QTRY_VERIFY_WITH_TIMEOUT(view->listedRuns().size() == kRuns && !view->isBusy(), 20000);
    const QList<qint64> runs = {m_project.runA, m_project.runB};
    view->setSelectedRuns(runs);
    QVERIFY(view->setBaselineRun(m_project.runB));
    QVERIFY(view->setRankBy(u"output_throughput"_s));
    QVERIFY(waitCompared(view, runs));
    const QStringList before = rowTexts(view, u"cost_per_request"_s);
    QCOMPARE(before.size(), 2);

    // A bill for run A's SUT inside its test window, imported by the CLI.
    const QString csv = m_dir->filePath(u"extra.csv"_s);
    QVERIFY(writeFile(csv, "id,category,start,end,amount,currency\n"
                           "extra,other,2024-05-01T10:00:01Z,2024-05-01T10:00:01Z,7.00,USD\n"));
    auto r = test::runCli({u"bills"_s, u"import"_s, u"--project"_s, m_project.path, u"--csv"_s, csv,
                           u"--sut"_s, u"vllm-a100"_s});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && rowTexts(view, u"cost_per_request"_s) != before,
                             5000);
    const QStringList after = rowTexts(view, u"cost_per_request"_s);
    qInfo("cost per request: %s -> %s", qPrintable(before.join(u" | "_s)),
          qPrintable(after.join(u" | "_s)));
    QVERIFY2(after.at(0) != before.at(0),
             qPrintable(before.join(u" | "_s) + u" -> "_s + after.join(u" | "_s)));
    QCOMPARE(after.at(1), before.at(1)); // run B's window has no new bill
    // The choices stay as they were.
    QCOMPARE(view->selectedRuns(), runs);
    QCOMPARE(view->baselineRun(), m_project.runB);
    QCOMPARE(view->rankBy(), u"output_throughput"_s);
    QCOMPARE(view->comparison()->rankBy.rowKey(), u"output_throughput"_s);

    // Hidden behind another tab: read when shown again.
    w->tabs()->setCurrentIndex(0);
    QVERIFY(writeFile(csv, "id,category,start,end,amount,currency\n"
                           "more,other,2024-05-01T10:00:02Z,2024-05-01T10:00:02Z,50.00,USD\n"));
    r = test::runCli({u"bills"_s, u"import"_s, u"--project"_s, m_project.path, u"--csv"_s, csv,
                      u"--sut"_s, u"vllm-a100"_s});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QSignalSpy listed(view, &ComparisonView::runsListed);
    QTest::qWait(1500);
    QCOMPARE(listed.count(), 0);
    QCOMPARE(rowTexts(view, u"cost_per_request"_s), after);
    w->tabs()->setCurrentWidget(view);
    QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && rowTexts(view, u"cost_per_request"_s) != after,
                             5000);
    QCOMPARE(view->selectedRuns(), runs);
}

void TestRestartState::treeListsCliRun()
{
    std::unique_ptr<MainWindow> w(newWindow());
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(w->openProject(m_project.path));
    ProjectDocument *doc = w->document();
    QCOMPARE(doc->runs().size(), kRuns);
    const auto r = test::runCli({u"run"_s, u"--num-prompts"_s, u"4"_s, u"--random-input-len"_s,
                                 u"16"_s, u"--random-output-len"_s, u"4"_s, u"--request-rate"_s,
                                 u"50"_s, u"--project"_s, m_project.path});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QTRY_COMPARE_WITH_TIMEOUT(doc->runs().size(), kRuns + 1, 5000);
    const DocRun &added = doc->runs().last();
    QVERIFY(added.storeId > 0);
    const QModelIndex index = w->treeModel()->indexFor(EntityKind::Run, added.id);
    QVERIFY(index.isValid());
    // Listed once it has ended, as the file says (not as running).
    QTRY_VERIFY_WITH_TIMEOUT(doc->run(added.id)->info.status == StoredRunStatus::Completed, 5000);
    QVERIFY2(
        w->treeModel()
            ->indexFor(EntityKind::Run, added.id)
            .data(Qt::ToolTipRole)
            .toString()
            .contains(u"Status: completed"_s),
        qPrintable(
            w->treeModel()->indexFor(EntityKind::Run, added.id).data(Qt::ToolTipRole).toString()));
}

QTEST_MAIN(TestRestartState)
#include "tst_restartstate.moc"
