// The study editor and the running cell's dashboard (docs/study.md, "Workbench"): a study made
// by picking the project's SUTs and load profiles is stored as exactly the definition a JSON file
// with the same content gives; an invalid choice names its field and saves nothing; a study run
// from the Study tab shows its current cell live beside the progress matrix; editing a study
// whose cells ran starts version 2.
#include "editors/fielderror.h"
#include "projectdocument.h"
#include "rundashboard.h"
#include "store/projectstore.h"
#include "study/studydefinition.h"
#include "study/studyeditor.h"
#include "study/studystore.h"
#include "study/studyview.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// What the editor is driven to below, written by hand as a definition file: the dataset, the
// profile's load and its request parameters as run flags, the SUTs as simulator candidates.
const char *kExpectedJson = R"({
  "name": "editor-study",
  "question": "Which simulator answers first?",
  "boundary": {
    "model": "servebench-sim",
    "dataset": { "flags": ["--dataset-name", "random", "--random-input-len", "16",
                           "--random-output-len", "8"] },
    "request": { "flags": ["--ignore-eos"] },
    "connection_mode": "warm",
    "cache_policy": "cache-bust"
  },
  "scenarios": [
    { "name": "poisson", "kind": "open-loop", "flags": ["--num-prompts", "30", "--request-rate", "20"] }
  ],
  "repeats": 2,
  "seed": 5,
  "candidates": [
    { "name": "fast", "simulator": { "ttft_ms": 20, "itl_ms": 2 },
      "cost": { "source": "price_per_hour", "price_per_hour": "2.00", "currency": "USD" } },
    { "name": "slow", "simulator": { "ttft_ms": 60, "itl_ms": 2 }, "cost": { "source": "bills" } }
  ]
})";

SutConfig simulator(const QString &name, double ttftMs)
{
    SutConfig s;
    s.name = name;
    s.builtInSimulator = true;
    s.model = u"servebench-sim"_s;
    s.simTtftMs = ttftMs;
    s.simItlMs = 2;
    return s;
}

int rowNamed(QTableWidget *t, const QString &name)
{
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, 0) && t->item(r, 0)->text() == name)
            return r;
    return -1;
}

void setChecked(QTableWidget *t, const QString &name, bool on)
{
    const int r = rowNamed(t, name);
    QVERIFY2(r >= 0, qPrintable(name));
    t->item(r, 0)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

// With SB_STUDY_SCREENSHOTS=DIR the editor and the running study are written there for
// docs/study.md (offscreen, 1280×800).
void screenshot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("SB_STUDY_SCREENSHOTS");
    if (!dir.isEmpty() && !w->grab().save(QDir(dir).filePath(name)))
        qWarning() << "could not write" << name;
}

std::optional<StoredStudyVersion> latest(const QString &project, const QString &study,
                                         QStringList *studies = nullptr)
{
    ProjectStore store;
    if (!store.open(project, ProjectStore::OpenMode::ReadOnly))
        return std::nullopt;
    StudyStore s(&store);
    if (studies)
        *studies = s.studyNames();
    const qint64 id = s.studyId(study);
    return id > 0 ? s.latestVersion(id) : std::nullopt;
}

} // namespace

class TestStudyEditor : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void newEditorOpensAtTheTop();
    void savesWhatTheJsonFileGives();
    void invalidChoiceNamesTheFieldAndSavesNothing();
    void runShowsTheCellLiveBesideTheMatrix();
    void editingARunStudyStartsVersion2();
    void cleanupTestCase();

private:
    template <class T> T *child(const QString &name) const { return m_view->findChild<T *>(name); }
    void fillValidStudy();

    QTemporaryDir m_dir;
    QString m_project;
    ProjectDocument m_doc;
    StudyView *m_view = nullptr;
};

void TestStudyEditor::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Three SUTs on the built-in simulator, one dataset, two load profiles; nothing else.
    m_doc.newProject();
    while (!m_doc.suts().isEmpty())
        m_doc.remove(EntityKind::Sut, m_doc.suts().first().id);
    while (!m_doc.datasets().isEmpty())
        m_doc.remove(EntityKind::Dataset, m_doc.datasets().first().id);
    while (!m_doc.profiles().isEmpty())
        m_doc.remove(EntityKind::Profile, m_doc.profiles().first().id);
    m_doc.addSut(simulator(u"fast"_s, 20));
    m_doc.addSut(simulator(u"slow"_s, 60));
    m_doc.addSut(simulator(u"spare"_s, 40));
    DatasetSpec tiny;
    tiny.kind = DatasetKind::Random;
    tiny.randomInputLen = 16;
    tiny.randomOutputLen = 8;
    m_doc.addDataset(u"tiny"_s, tiny);
    RequestParams params;
    params.ignoreEos = true;
    LoadProfile poisson;
    poisson.requestRate = 20;
    poisson.numPrompts = 30; // 1.5 s a cell: long enough to watch it fill in
    poisson.seed = 5;
    const int p1 = m_doc.addProfile(u"poisson"_s, poisson);
    m_doc.updateProfile(p1, u"poisson"_s, poisson, params);
    LoadProfile offline;
    offline.scenario = Scenario::Offline;
    offline.numPrompts = 20;
    const int p2 = m_doc.addProfile(u"offline"_s, offline);
    m_doc.updateProfile(p2, u"offline"_s, offline, params);
    m_project = m_dir.filePath(u"p.sbproj"_s);
    QString error;
    QVERIFY2(m_doc.saveAs(m_project, &error), qPrintable(error));

    m_view = new StudyView;
    m_view->resize(1280, 800);
    m_view->setDocument(&m_doc);
    m_view->setProject(m_doc.storePath());
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    m_view->activateWindow();
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isBusy(), 30000);
}

void TestStudyEditor::init()
{
    // Each check starts on the Study tab's view, whatever an earlier one left open.
    if (m_view->isEditing())
        QTest::mouseClick(child<QPushButton>(u"cancelStudyButton"_s), Qt::LeftButton);
    QVERIFY(!m_view->isEditing());
}

void TestStudyEditor::cleanupTestCase()
{
    delete m_view;
}

void TestStudyEditor::newEditorOpensAtTheTop()
{
    auto *newButton = child<QPushButton>(u"newStudyButton"_s);
    QVERIFY(newButton->isEnabled());
    QTest::mouseClick(newButton, Qt::LeftButton);
    QVERIFY(m_view->isEditing());
    // A long form (a project of many SUTs and profiles), scrolled down and left: a new editor
    // still opens at its top, its first field focused.
    auto *scroll = child<QScrollArea>(u"studyEditorScroll"_s);
    scroll->widget()->setMinimumHeight(3000);
    QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 1000);
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    child<QComboBox>(u"cachePolicy"_s)->setFocus();
    QTest::mouseClick(child<QPushButton>(u"cancelStudyButton"_s), Qt::LeftButton);
    QVERIFY(!m_view->isEditing());
    QTest::mouseClick(newButton, Qt::LeftButton);
    QVERIFY(m_view->isEditing());
    QTRY_COMPARE(scroll->verticalScrollBar()->value(), 0);
    QTRY_VERIFY(child<QLineEdit>(u"name"_s)->hasFocus());
    QTest::qWait(50); // a deferred scroll or focus change would show now
    QCOMPARE(scroll->verticalScrollBar()->value(), 0);
    QVERIFY(child<QLineEdit>(u"name"_s)->hasFocus());
    scroll->widget()->setMinimumHeight(0);
    QTest::mouseClick(child<QPushButton>(u"cancelStudyButton"_s), Qt::LeftButton);
}

void TestStudyEditor::fillValidStudy()
{
    QTest::mouseClick(child<QPushButton>(u"newStudyButton"_s), Qt::LeftButton);
    QVERIFY(m_view->isEditing());
    // Defaults from the project: its first SUT's model, its dataset, its first profile's seed.
    QCOMPARE(child<QLineEdit>(u"model"_s)->text(), u"servebench-sim"_s);
    QCOMPARE(child<QComboBox>(u"dataset"_s)->currentText(), u"tiny"_s);
    QCOMPARE(child<QLineEdit>(u"seed"_s)->text(), u"5"_s);
    QCOMPARE(child<QSpinBox>(u"repeats"_s)->value(), 3);
    QTest::keyClicks(child<QLineEdit>(u"name"_s), u"editor-study"_s);
    QTest::keyClicks(child<QLineEdit>(u"question"_s), u"Which simulator answers first?"_s);
    auto *candidates = child<QTableWidget>(u"candidates"_s);
    auto *scenarios = child<QTableWidget>(u"scenarios"_s);
    QCOMPARE(candidates->rowCount(), 3);
    QCOMPARE(scenarios->rowCount(), 2);
    setChecked(candidates, u"fast"_s, true);
    setChecked(candidates, u"slow"_s, true);
    setChecked(scenarios, u"poisson"_s, true);
    child<QSpinBox>(u"repeats"_s)->setValue(2);
    const int fast = rowNamed(candidates, u"fast"_s);
    qobject_cast<QComboBox *>(candidates->cellWidget(fast, 2))->setCurrentIndex(1);
    auto *price = qobject_cast<QLineEdit *>(candidates->cellWidget(fast, 3));
    QVERIFY(price->isEnabled()); // a price per hour asks for its price
    price->setText(u"2.00"_s);
    qobject_cast<QLineEdit *>(candidates->cellWidget(fast, 4))->setText(u"USD"_s);
    screenshot(m_view, u"study-editor.png"_s);
}

void TestStudyEditor::savesWhatTheJsonFileGives()
{
    fillValidStudy();
    StudyEditor *editor = m_view->editor();
    auto *save = child<QPushButton>(u"saveStudyButton"_s);
    QTRY_VERIFY2(save->isEnabled(),
                 qPrintable(editor->errorFor(u"candidates"_s) + editor->errorFor(u"general"_s)));
    QTest::mouseClick(save, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isEditing(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isBusy(), 30000);
    QCOMPARE(m_view->currentStudy(), u"editor-study"_s);

    const QString file = m_dir.filePath(u"expected.json"_s);
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kExpectedJson);
    }
    QList<StudyIssue> issues;
    const StudyDefinition expected = StudyDefinition::fromFile(file, &issues);
    QVERIFY(issues.isEmpty());
    const auto stored = latest(m_project, u"editor-study"_s);
    QVERIFY(stored);
    QCOMPARE(stored->version, 1);
    if (stored->definition != expected.toJson())
        qWarning().noquote() << "stored:" << QJsonDocument(stored->definition).toJson()
                             << "\nfile:" << QJsonDocument(expected.toJson()).toJson();
    QCOMPARE(stored->definition, expected.toJson());
    QCOMPARE(stored->sha256, expected.sha256()); // the same cells as `study run expected.json`
}

void TestStudyEditor::invalidChoiceNamesTheFieldAndSavesNothing()
{
    QTest::mouseClick(child<QPushButton>(u"newStudyButton"_s), Qt::LeftButton);
    StudyEditor *editor = m_view->editor();
    QTest::keyClicks(child<QLineEdit>(u"name"_s), u"bad-study"_s);
    QTest::keyClicks(child<QLineEdit>(u"question"_s), u"Is one candidate a study?"_s);
    auto *candidates = child<QTableWidget>(u"candidates"_s);
    auto *scenarios = child<QTableWidget>(u"scenarios"_s);
    auto *save = child<QPushButton>(u"saveStudyButton"_s);
    auto *candidatesError = child<FieldError>(u"error_candidates"_s);
    auto *scenariosError = child<FieldError>(u"error_scenarios"_s);
    // The error line sits right under the field it names.
    QCOMPARE(candidatesError->parentWidget(), candidates->parentWidget());
    QCOMPARE(scenariosError->parentWidget(), scenarios->parentWidget());

    // One candidate only.
    setChecked(candidates, u"fast"_s, true);
    setChecked(scenarios, u"poisson"_s, true);
    QTRY_VERIFY(candidatesError->isVisible());
    QVERIFY2(candidatesError->text().startsWith(u"candidates: "_s),
             qPrintable(candidatesError->text()));
    QVERIFY2(!scenariosError->isVisible(), qPrintable(scenariosError->text()));
    QVERIFY(!save->isEnabled());
    QVERIFY(!editor->save());

    // Two candidates, no scenario.
    setChecked(candidates, u"slow"_s, true);
    setChecked(scenarios, u"poisson"_s, false);
    QTRY_VERIFY(scenariosError->isVisible());
    QVERIFY2(scenariosError->text().startsWith(u"scenarios: "_s),
             qPrintable(scenariosError->text()));
    QVERIFY(!candidatesError->isVisible());
    QVERIFY(!save->isEnabled());
    QVERIFY(!editor->save());

    // The name of a study the project holds is refused too (it would edit that study).
    setChecked(scenarios, u"poisson"_s, true);
    child<QLineEdit>(u"name"_s)->setText(u"editor-study"_s);
    QTRY_VERIFY(child<FieldError>(u"error_name"_s)->isVisible());
    QVERIFY(!editor->save());

    QTest::qWait(200); // nothing in flight either
    QVERIFY(!editor->isSaving());
    QTest::mouseClick(child<QPushButton>(u"cancelStudyButton"_s), Qt::LeftButton);
    QStringList studies;
    const auto v = latest(m_project, u"editor-study"_s, &studies);
    QCOMPARE(studies, QStringList{u"editor-study"_s});
    QVERIFY(v);
    QCOMPARE(v->version, 1);
}

void TestStudyEditor::runShowsTheCellLiveBesideTheMatrix()
{
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isBusy(), 30000);
    QCOMPARE(m_view->currentStudy(), u"editor-study"_s);
    RunDashboard *dash = m_view->dashboard();
    QVERIFY(dash->isVisible());
    auto *runButton = child<QPushButton>(u"runSavedStudyButton"_s);
    QVERIFY(runButton->isEnabled());
    QTest::mouseClick(runButton, Qt::LeftButton);
    QVERIFY(m_view->isRunning());

    // Sample the dashboard while cells run: its counters must move during a cell, not only at
    // its end. Each cell plans 30 requests.
    auto *stop = dash->findChild<QPushButton *>(u"stopButton"_s);
    auto *title = dash->findChild<QLabel *>(u"title"_s);
    QList<qint64> midCell; // received counts seen while a cell ran, strictly inside (0, 30)
    QStringList titles;
    QElapsedTimer clock;
    clock.start();
    while (m_view->isRunning() && clock.elapsed() < 180000) {
        QTest::qWait(25);
        if (!dash->isAttached() || !stop->isEnabled())
            continue; // between cells
        const qint64 received = dash->counters().received;
        if (received > 0 && received < 30)
            midCell << received;
        if (received >= 20 && received < 30 &&
            m_view->snapshot().cells.value(3).state == u"running"_s)
            screenshot(m_view, u"study-running.png"_s); // the last cell, most of the matrix done
        if (!titles.contains(title->text()))
            titles << title->text();
    }
    QVERIFY(!m_view->isRunning());
    QVERIFY2(midCell.size() >= 2, qPrintable(u"samples: %1"_s.arg(midCell.size())));
    QVERIFY2(*std::max_element(midCell.begin(), midCell.end()) >
                 *std::min_element(midCell.begin(), midCell.end()),
             "the request count did not grow during a cell");
    // The dashboard followed the study's cells (the cell's run name is its title).
    bool named = false;
    for (const QString &t : titles)
        named = named || t.contains(u"editor-study · "_s);
    QVERIFY2(named, qPrintable(titles.join(u" | "_s)));
    QCOMPARE(dash->counters().received, 30); // the last cell, whole
    QCOMPARE(dash->counters().failed, 0);

    // The matrix beside it filled: 2 candidates × 1 scenario × 2 repeats, all done.
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isBusy(), 30000);
    QTableWidget *m = m_view->progressTable();
    QCOMPARE(m->rowCount(), 2);
    QCOMPARE(m->columnCount(), 2);
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) {
            QVERIFY(m->item(r, c));
            QVERIFY2(m->item(r, c)->text().startsWith(u"done"_s),
                     qPrintable(m->item(r, c)->text()));
        }
    for (const StoredStudyCell &c : m_view->snapshot().cells)
        QVERIFY2(c.state == u"completed"_s, qPrintable(c.state + u": "_s + c.reason));
}

void TestStudyEditor::editingARunStudyStartsVersion2()
{
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isBusy(), 30000);
    const auto v1 = latest(m_project, u"editor-study"_s);
    QVERIFY(v1);
    auto *edit = child<QPushButton>(u"editStudyButton"_s);
    QVERIFY(edit->isEnabled());
    QTest::mouseClick(edit, Qt::LeftButton);
    QVERIFY(m_view->isEditing());
    StudyEditor *editor = m_view->editor();
    QTRY_VERIFY(editor->isValid());
    // Opened as it is stored: saving it unchanged would be the same version.
    QCOMPARE(editor->definition().sha256(), v1->sha256);
    QVERIFY2(child<QLabel>(u"versionNote"_s)->text().contains(u"version 2"_s),
             qPrintable(child<QLabel>(u"versionNote"_s)->text()));
    child<QSpinBox>(u"repeats"_s)->setValue(3);
    auto *save = child<QPushButton>(u"saveStudyButton"_s);
    QTRY_VERIFY(save->isEnabled());
    QTest::mouseClick(save, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isEditing(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isBusy(), 30000);

    const auto v2 = latest(m_project, u"editor-study"_s);
    QVERIFY(v2);
    QCOMPARE(v2->version, 2);
    QCOMPARE(v2->definition.value(u"repeats"_s).toInt(), 3);
    // Version 1 keeps its completed cells; version 2 starts with fresh ones.
    {
        ProjectStore store;
        QVERIFY(store.open(m_project, ProjectStore::OpenMode::ReadOnly));
        StudyStore studies(&store);
        const auto old = studies.version(studies.studyId(u"editor-study"_s), 1);
        QVERIFY(old);
        QCOMPARE(old->sha256, v1->sha256);
        int completed = 0;
        for (const StoredStudyCell &c : studies.cells(old->id))
            completed += c.state == u"completed"_s;
        QCOMPARE(completed, 4);
        const QList<StoredStudyCell> fresh = studies.cells(v2->id);
        QCOMPARE(fresh.size(), 6);
        for (const StoredStudyCell &c : fresh)
            QCOMPARE(c.state, u"pending"_s);
    }
    // The tab shows the new version's matrix, nothing run yet.
    QCOMPARE(m_view->snapshot().decision.version, 2);
    QCOMPARE(m_view->progressTable()->columnCount(), 3);
}

QTEST_MAIN(TestStudyEditor)
#include "tst_studyeditor.moc"
