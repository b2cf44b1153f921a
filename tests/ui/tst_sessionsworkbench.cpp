// Sessions in the workbench (docs/sessions.md): the dataset and load-profile editors set up a
// synthetic session workload, F5 runs it against the built-in simulator, the dashboard shows the
// turns live and the Results tab the per-turn table and TTFT-by-turn chart; the project file
// holds the sessions. Settings that cannot run are refused in the editor or at Run.

#include "charts/chartview.h"
#include "editors/dataseteditor.h"
#include "editors/loadprofileeditor.h"
#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "mainwindow.h"
#include "models/turntablemodel.h"
#include "projectdocument.h"
#include "projectrunner.h"
#include "resultsview.h"
#include "rundashboard.h"
#include "sessionturnsview.h"
#include "settings.h"
#include "store/projectstore.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestSessionsWorkbench : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void sessionRunFromTheEditors();
    void editorRefusesWhatCannotRun();
    void runnerRefusesSessionSettingsWithoutSessions();

private:
    template <class T> T *child(QWidget *w, const char *name)
    {
        T *c = w->findChild<T *>(QString::fromLatin1(name));
        if (!c)
            qFatal("no child %s", name);
        return c;
    }

    QTemporaryDir *m_dir = nullptr;
    Settings *m_settings = nullptr;
    ApiKeyStore *m_keys = nullptr;
    MainWindow *m_window = nullptr;
};

void TestSessionsWorkbench::init()
{
    m_dir = new QTemporaryDir;
    m_settings = new Settings(m_dir->filePath(u"settings.ini"_s));
    m_keys = new ApiKeyStore(new KeychainUnavailableBackend);
    m_window = new MainWindow(m_settings, m_keys);
    m_window->show();
}

void TestSessionsWorkbench::cleanup()
{
    delete m_window;
    delete m_keys;
    delete m_settings;
    delete m_dir;
}

void TestSessionsWorkbench::sessionRunFromTheEditors()
{
    ProjectDocument *doc = m_window->document();
    // The dataset: synthetic sessions of 3 turns, each session with 1,500 tokens of its own.
    m_window->editEntity(EntityKind::Dataset, doc->datasets().first().id);
    DatasetEditor *de = m_window->datasetEditor();
    child<QCheckBox>(de, "multiTurn")->setChecked(true);
    child<QSpinBox>(de, "sessionTurns")->setValue(3);
    child<QSpinBox>(de, "sessionPrefixLen")->setValue(1500);
    child<QSpinBox>(de, "inputLen")->setValue(30);
    child<QSpinBox>(de, "outputLen")->setValue(4);
    QTRY_VERIFY(de->isValid());
    QTRY_VERIFY(doc->datasets().first().spec.multiTurn);
    QCOMPARE(doc->datasets().first().spec.sessionPrefixLen, 1500);
    // The preview lists the turns.
    QTRY_VERIFY_WITH_TIMEOUT(!de->isLoading() && de->info().sessions, 20000);

    // The profile: 6 sessions run by 2 users with a fixed think time.
    m_window->editEntity(EntityKind::Profile, doc->profiles().first().id);
    LoadProfileEditor *pe = m_window->profileEditor();
    child<QDoubleSpinBox>(pe, "rate")->setValue(0); // sessions arrive by users, not by rate
    child<QSpinBox>(pe, "numSessions")->setValue(6);
    child<QSpinBox>(pe, "users")->setValue(2);
    auto *think = child<QComboBox>(pe, "thinkTime");
    think->setCurrentIndex(think->findData(int(ThinkTimeModel::Fixed)));
    child<QDoubleSpinBox>(pe, "thinkTimeMs")->setValue(40);
    QVERIFY2(pe->isValid(), qPrintable(pe->errors().join(u"; "_s)));
    QTRY_COMPARE(doc->profiles().first().profile.sessionUsers, 2);

    QVERIFY(m_window->runAction()->isEnabled());
    QSignalSpy finished(m_window->runner(), &ProjectRunner::runFinished);
    m_window->runAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QTRY_COMPARE(m_window->runner()->state(), ProjectRunner::State::Idle);
    const auto run = finished.first().first().value<FinishedRun>();
    QCOMPARE(run.status, RunStatus::Completed);
    QCOMPARE(run.records.size(), 18);
    for (const RequestRecord &r : run.records) {
        QVERIFY(r.inSession());
        QVERIFY(r.ok());
    }
    QCOMPARE(run.derived.sessions.completed, 6);

    // The dashboard followed the turns live.
    auto *dashboard = m_window->findChild<RunDashboard *>();
    QVERIFY(dashboard);
    QVERIFY(!dashboard->sessionsView()->isHidden());
    QTRY_COMPARE_WITH_TIMEOUT(dashboard->sessionsView()->model()->rowCount(), 3, 10000);

    // The Results tab: the per-turn table and the TTFT-by-turn chart; turns 2 and 3 reuse the
    // session's context from the simulator's prefix cache.
    auto *results = m_window->findChild<ResultsView *>();
    QVERIFY(results);
    QTRY_VERIFY_WITH_TIMEOUT(!results->isBusy(), 20000);
    SessionTurnsView *view = results->sessionsView();
    const int tab = results->tabs()->indexOf(view);
    QVERIFY(results->tabs()->isTabVisible(tab));
    TurnTableModel *model = view->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), 3);
    const auto ttft = [model](int row) {
        return model
            ->data(model->index(row, TurnTableModel::MeanTtftColumn), TurnTableModel::ValueRole)
            .toDouble();
    };
    QVERIFY2(ttft(1) < 0.7 * ttft(0) && ttft(2) < 0.7 * ttft(0),
             qPrintable(u"%1 %2 %3"_s.arg(ttft(0)).arg(ttft(1)).arg(ttft(2))));
    QVERIFY(model->data(model->index(1, TurnTableModel::HitRateColumn), TurnTableModel::ValueRole)
                .toDouble() > 50);
    QVERIFY(
        model->data(model->index(1, TurnTableModel::ThinkMeasuredColumn), TurnTableModel::ValueRole)
            .toDouble() >= 40);
    QCOMPARE(view->chart()->pointCount(0), 3);
    QVERIFY(view->summaryText().contains(u"6 completed"_s));

    // The project file holds the sessions.
    ProjectStore store;
    QVERIFY(store.open(doc->storePath(), ProjectStore::OpenMode::ReadOnly));
    const QList<RequestRecord> stored = store.loadRequests(run.info.id);
    QCOMPARE(stored.size(), 18);
    QSet<qint64> sessions;
    for (const RequestRecord &r : stored) {
        QVERIFY(r.turnIndex >= 0 && r.turnIndex < 3);
        sessions.insert(r.sessionId);
    }
    QCOMPARE(sessions.size(), 6);

    // A single-request run afterwards hides the Sessions tab again.
    m_window->editEntity(EntityKind::Dataset, doc->datasets().first().id);
    child<QCheckBox>(de, "multiTurn")->setChecked(false);
    m_window->editEntity(EntityKind::Profile, doc->profiles().first().id);
    child<QSpinBox>(pe, "users")->setValue(0);
    think->setCurrentIndex(think->findData(int(ThinkTimeModel::None)));
    child<QDoubleSpinBox>(pe, "rate")->setValue(100);
    child<QSpinBox>(pe, "numPrompts")->setValue(5);
    QTRY_VERIFY(m_window->runAction()->isEnabled());
    finished.clear();
    m_window->runAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!results->isBusy(), 20000);
    QVERIFY(!results->tabs()->isTabVisible(tab));
    QVERIFY(dashboard->sessionsView()->isHidden());
}

void TestSessionsWorkbench::editorRefusesWhatCannotRun()
{
    ProjectDocument *doc = m_window->document();
    m_window->editEntity(EntityKind::Profile, doc->profiles().first().id);
    LoadProfileEditor *pe = m_window->profileEditor();
    auto *think = child<QComboBox>(pe, "thinkTime");
    think->setCurrentIndex(think->findData(int(ThinkTimeModel::Exponential)));
    child<QDoubleSpinBox>(pe, "thinkTimeMs")->setValue(0);
    QVERIFY(!pe->isValid());
    QVERIFY2(!pe->errorFor(u"think"_s).isEmpty(), qPrintable(pe->errors().join(u"; "_s)));
    QVERIFY(!m_window->runAction()->isEnabled());
    child<QDoubleSpinBox>(pe, "thinkTimeMs")->setValue(500);
    QTRY_VERIFY(pe->isValid());
    // Users and a session rate at once: one of the two.
    child<QSpinBox>(pe, "users")->setValue(3);
    child<QDoubleSpinBox>(pe, "sessionRate")->setValue(2);
    QVERIFY(!pe->errorFor(u"sessions"_s).isEmpty());
    child<QDoubleSpinBox>(pe, "sessionRate")->setValue(0);
    QTRY_VERIFY(pe->isValid());
    // A header name that would break the request.
    child<QLineEdit>(pe, "sessionHeader")->setText(u"X Session"_s);
    QVERIFY(!pe->errorFor(u"sessionHeader"_s).isEmpty());
}

void TestSessionsWorkbench::runnerRefusesSessionSettingsWithoutSessions()
{
    RunRequest request;
    request.plan.sut.builtInSimulator = true;
    request.plan.profile.sessionUsers = 3; // the dataset is single-request
    QString error;
    QVERIFY(!m_window->runner()->start(request, QString(), RunInfo(), &error));
    QVERIFY2(error.contains(u"users"_s), qPrintable(error));
    request.plan.dataset.multiTurn = true;
    request.plan.profile.scenario = Scenario::Server;
    request.plan.profile.requestRate = std::numeric_limits<double>::infinity();
    QVERIFY(!m_window->runner()->start(request, QString(), RunInfo(), &error));
    QVERIFY2(error.contains(u"scenario"_s), qPrintable(error));
}

QTEST_MAIN(TestSessionsWorkbench)
#include "tst_sessionsworkbench.moc"
