// The workbench end to end: a new project is ready to run against the built-in simulator,
// F5 completes a short run without blocking the GUI thread, Esc stops a run, invalid editor
// input disables Run, and Save As / Open keep configurations and runs.

#include "../report/reportfixture.h"

#include "compare/comparisonview.h"
#include "editors/loadprofileeditor.h"
#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "mainwindow.h"
#include "projectdocument.h"
#include "projectrunner.h"
#include "projecttreemodel.h"
#include "settings.h"

#include <QAction>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {
// Measures the longest gap between ticks of a 10 ms GUI timer: a blocked event loop shows up
// as a long gap.
class StallMeter : public QObject
{
public:
    StallMeter()
    {
        m_timer.setInterval(10);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.elapsed();
            m_maxGap = std::max(m_maxGap, now - m_last);
            m_last = now;
        });
        m_clock.start();
        m_timer.start();
    }
    qint64 maxGapMs() const { return m_maxGap; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_maxGap = 0;
};

void setShortProfile(MainWindow &w, int prompts, double rate)
{
    ProjectDocument *doc = w.document();
    const DocProfile &p = doc->profiles().first();
    LoadProfile profile = p.profile;
    profile.numPrompts = prompts;
    profile.requestRate = rate;
    doc->updateProfile(p.id, p.name, profile, p.params);
}
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void newProjectIsReady();
    void runCompletesWithoutBlocking();
    void escapeStopsRun();
    void seriesFromProfile();
    void invalidInputDisablesRun();
    void saveAsAndReopen();
    void windowStateSaved();
    void compareTab();

private:
    QTemporaryDir *m_dir = nullptr;
    Settings *m_settings = nullptr;
    ApiKeyStore *m_keys = nullptr;
    MainWindow *m_window = nullptr;
};

void TestMainWindow::init()
{
    m_dir = new QTemporaryDir;
    m_settings = new Settings(m_dir->filePath(u"settings.ini"_s));
    m_keys = new ApiKeyStore(new KeychainUnavailableBackend);
    m_window = new MainWindow(m_settings, m_keys);
    m_window->show();
}

void TestMainWindow::cleanup()
{
    delete m_window;
    delete m_keys;
    delete m_settings;
    delete m_dir;
}

void TestMainWindow::newProjectIsReady()
{
    ProjectDocument *doc = m_window->document();
    QCOMPARE(doc->suts().size(), 1);
    QVERIFY(doc->suts().first().config.builtInSimulator);
    QCOMPARE(doc->datasets().size(), 1);
    QCOMPARE(doc->datasets().first().spec.kind, DatasetKind::Random);
    QCOMPARE(doc->profiles().size(), 1);
    QCOMPARE(doc->profiles().first().profile.arrival, ArrivalProcess::Poisson);
    QVERIFY(!doc->profiles().first().profile.unlimitedRate());
    QVERIFY(doc->runs().isEmpty());
    QVERIFY(!doc->isModified());
    QVERIFY(m_window->runAction()->isEnabled());
    QVERIFY(!m_window->stopAction()->isEnabled());
    QCOMPARE(m_window->runAction()->shortcut(), QKeySequence(Qt::Key_F5));
    QCOMPARE(m_window->stopAction()->shortcut(), QKeySequence(Qt::Key_Escape));
    QVERIFY(m_window->planSummary().contains(doc->suts().first().config.name));
}

void TestMainWindow::runCompletesWithoutBlocking()
{
    setShortProfile(*m_window, 20, 200);
    // The profile's request parameters reach the plan the runner runs.
    {
        ProjectDocument *doc = m_window->document();
        const DocProfile &p = doc->profiles().first();
        RequestParams params;
        params.ignoreEos = true;
        params.temperature = 0.3;
        doc->updateProfile(p.id, p.name, p.profile, params);
    }
    StallMeter meter;
    QSignalSpy finished(m_window->runner(), &ProjectRunner::runFinished);
    // The run's span, trigger to runFinished, as this machine took it.
    QElapsedTimer span;
    qint64 runMs = -1;
    QObject::connect(m_window->runner(), &ProjectRunner::runFinished, &meter,
                     [&] { runMs = runMs < 0 ? span.elapsed() : runMs; });
    span.start();
    m_window->runAction()->trigger();
    // Run returns at once: the dataset loads in a worker.
    QVERIFY(m_window->runner()->isBusy());
    QVERIFY(!m_window->runAction()->isEnabled());
    QCOMPARE(m_window->tabs()->currentIndex(), 1); // the dashboard
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QTRY_COMPARE(m_window->runner()->state(), ProjectRunner::State::Idle);

    const auto run = finished.first().first().value<FinishedRun>();
    QCOMPARE(run.status, RunStatus::Completed);
    QCOMPARE(run.records.size(), 20);
    for (const RequestRecord &r : run.records)
        QVERIFY2(r.ok(), qPrintable(r.errorMessage));
    QVERIFY(run.plan.sut.baseUrl.startsWith(u"http://127.0.0.1:"_s));
    QCOMPARE(run.plan.params.temperature, 0.3);
    QVERIFY(run.plan.params.ignoreEos);
    QCOMPARE(run.info.snapshot.value(u"connection"_s).toObject().value(u"proxy"_s).toString(),
             u"direct"_s);
    QCOMPARE(run.datasetHash.size(), 64);
    QVERIFY(run.info.summary.contains(u"completed"_s));

    ProjectDocument *doc = m_window->document();
    QCOMPARE(doc->runs().size(), 1);
    QCOMPARE(doc->runs().first().info.status, StoredRunStatus::Completed);
    QCOMPARE(doc->runs().first().records.size(), 20);
    QVERIFY(m_window->treeModel()->indexFor(EntityKind::Run, doc->runs().first().id).isValid());
    QVERIFY(m_window->runAction()->isEnabled());
    // The GUI thread kept turning while the run went on: its longest gap is a small part of the
    // run's own span (measured here, so a slow machine's longer run moves both). A blocking wait
    // on the run, or on a stage of it, shows as a gap about as long as what it waited for.
    QVERIFY(runMs > 0);
    QVERIFY2(meter.maxGapMs() * 3 < runMs,
             qPrintable(u"the GUI thread's longest gap was %1 ms of a run that took %2 ms"_s
                            .arg(meter.maxGapMs())
                            .arg(runMs)));
}

void TestMainWindow::seriesFromProfile()
{
    // A profile with "Repeat runs" 3 runs as a series through the one pipeline: three runs
    // recorded under one series, the spread over runs computed by the run session.
    setShortProfile(*m_window, 10, 200);
    ProjectDocument *doc = m_window->document();
    {
        const DocProfile &p = doc->profiles().first();
        RunExecution execution = p.execution;
        execution.numRuns = 3;
        doc->updateProfile(p.id, p.name, p.profile, p.params, execution);
    }
    QSignalSpy finished(m_window->runner(), &ProjectRunner::sessionFinished);
    m_window->runAction()->trigger();
    QCOMPARE(m_window->runner()->request().numRuns, 3);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
    QTRY_COMPARE(m_window->runner()->state(), ProjectRunner::State::Idle);
    const auto result = finished.first().first().value<SessionResult>();
    QVERIFY2(result.ok, qPrintable(result.error));
    QCOMPARE(result.points.size(), 3);
    QVERIFY(!result.series.isEmpty());
    QVERIFY(!result.sweepName.isEmpty());
    QTRY_COMPARE(doc->runs().size(), 3);
    for (const DocRun &r : doc->runs())
        QCOMPARE(r.sweepName, result.sweepName);
    // The status bar gives the series' headline: the mean over runs with its interval.
    const QString message = m_window->statusBar()->currentMessage();
    QVERIFY2(message.startsWith(u"Series finished: 3 runs."_s), qPrintable(message));
    QVERIFY2(message.contains(u"P99 TTFT "_s) && message.contains(u"] ms"_s), qPrintable(message));
}

void TestMainWindow::escapeStopsRun()
{
    setShortProfile(*m_window, 400, 10); // 40 s if not stopped
    QSignalSpy finished(m_window->runner(), &ProjectRunner::runFinished);
    m_window->runAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(m_window->runner()->state(), ProjectRunner::State::Running, 30000);
    QVERIFY(m_window->stopAction()->isEnabled());
    QTest::qWait(300);
    QTest::keyClick(m_window, Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 30000);
    const auto run = finished.first().first().value<FinishedRun>();
    QCOMPARE(run.status, RunStatus::Interrupted);
    QVERIFY(run.records.size() < 400);
    QCOMPARE(m_window->document()->runs().first().info.status, StoredRunStatus::Interrupted);
}

void TestMainWindow::invalidInputDisablesRun()
{
    ProjectDocument *doc = m_window->document();
    const int profileId = doc->profiles().first().id;
    m_window->editEntity(EntityKind::Profile, profileId);
    QVERIFY(m_window->runAction()->isEnabled());
    auto *seed = m_window->profileEditor()->findChild<QLineEdit *>(u"seed"_s);
    seed->setText(u"not a seed"_s);
    QVERIFY(!m_window->runAction()->isEnabled());
    // The document kept the last valid profile.
    QCOMPARE(doc->profile(profileId)->profile.seed, ProjectDocument::defaultProfile().seed);
    m_window->runAction()->trigger(); // disabled: nothing happens
    QVERIFY(!m_window->runner()->isBusy());
    seed->setText(u"42"_s);
    QVERIFY(m_window->runAction()->isEnabled());
    QCOMPARE(doc->profile(profileId)->profile.seed, quint64(42));
}

void TestMainWindow::saveAsAndReopen()
{
    setShortProfile(*m_window, 10, 0);
    QSignalSpy finished(m_window->runner(), &ProjectRunner::runFinished);
    m_window->runAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QTRY_COMPARE(m_window->runner()->state(), ProjectRunner::State::Idle);

    ProjectDocument *doc = m_window->document();
    QVERIFY(doc->isModified()); // the run lives in a temporary file until saved
    QVERIFY(doc->isTemporary());
    QVERIFY(doc->runs().first().storeId > 0);
    const QString path = m_dir->filePath(u"p.sbproj"_s);
    QString error;
    QVERIFY2(doc->saveAs(path, &error), qPrintable(error));
    QVERIFY(!doc->isModified());
    QVERIFY(doc->runs().first().storeId > 0);
    // The Compare tab reads the saved file, and again after each run.
    ComparisonView *compare = m_window->comparisonView();
    QTRY_COMPARE_WITH_TIMEOUT(compare->listedRuns(), QList<qint64>{doc->runs().first().storeId},
                              20000);

    // A second run on a project with a file streams into the file.
    finished.clear();
    m_window->runAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QTRY_COMPARE(m_window->runner()->state(), ProjectRunner::State::Idle);
    QVERIFY(finished.first().first().value<FinishedRun>().info.id > 0);
    QTRY_COMPARE_WITH_TIMEOUT(compare->listedRuns().size(), 2, 20000);

    QVERIFY(m_window->openProject(path));
    QCOMPARE(doc->suts().size(), 1);
    QVERIFY(doc->suts().first().config.builtInSimulator);
    QCOMPARE(doc->datasets().size(), 1);
    QCOMPARE(doc->profiles().size(), 1);
    QCOMPARE(doc->runs().size(), 2);
    QCOMPARE(doc->runs().first().sutName, doc->suts().first().config.name);
    QCOMPARE(m_settings->recentProjects().first(), QFileInfo(path).absoluteFilePath());

    // Stored records load in a worker.
    QSignalSpy loaded(doc, &ProjectDocument::runRecordsLoaded);
    doc->loadRunRecords(doc->runs().last().id);
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 30000);
    QCOMPARE(loaded.first().at(3).toString(), QString());
    QCOMPARE(loaded.first().at(2).value<QList<RequestRecord>>().size(), 10);
    QVERIFY(loaded.first().at(1).value<RunPlan>().sut.builtInSimulator);
    // With the server metrics scraped beside the run: the simulator's /metrics and its GPU.
    const DocRun *stored = doc->run(doc->runs().last().id);
    QVERIFY(stored);
    QCOMPARE(stored->serverMetrics.size(), 2);
    QVERIFY(!stored->serverMetrics.first().scrapes().isEmpty());
}

void TestMainWindow::windowStateSaved()
{
    QVERIFY(m_window->close());
    QCOMPARE(m_settings->windowStateVersion(), Settings::kWindowStateVersion);
    QVERIFY(!m_settings->windowState().isEmpty());
    QVERIFY(!m_settings->windowGeometry().isEmpty());
}

void TestMainWindow::compareTab()
{
    QTabWidget *tabs = m_window->tabs();
    QCOMPARE(tabs->count(), 6); // Editor, Run, Results, Cost, Compare, Study
    QCOMPARE(tabs->tabText(4), u"Compare"_s);
    QCOMPARE(tabs->tabText(5), u"Study"_s);
    auto *view = qobject_cast<ComparisonView *>(tabs->widget(4));
    QVERIFY(view);
    QCOMPARE(view, m_window->comparisonView());
    QCOMPARE(view->objectName(), u"comparisonView"_s);

    // Opening a project lists its runs in the tab; a new project (its own temporary file, no
    // runs yet) empties it.
    fixture::Project project;
    QString error;
    QVERIFY2(fixture::build(m_dir->filePath(u"compare.sbproj"_s), &project, &error),
             qPrintable(error));
    QVERIFY(m_window->openProject(project.path));
    QCOMPARE(view->projectPath(), project.path);
    QTRY_COMPARE_WITH_TIMEOUT(view->listedRuns(), (QList<qint64>{project.runA, project.runB}),
                              20000);
    view->setSelectedRuns({project.runA, project.runB});
    QTRY_VERIFY_WITH_TIMEOUT(view->comparison() != nullptr, 30000);
    QCOMPARE(view->comparison()->runIds, (QList<qint64>{project.runA, project.runB}));
    m_window->newProject();
    QVERIFY(m_window->document()->isTemporary());
    QCOMPARE(view->projectPath(), m_window->document()->storePath());
    QTRY_VERIFY_WITH_TIMEOUT(view->listedRuns().isEmpty() && !view->isBusy(), 20000);
    QVERIFY(!view->comparison());
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
