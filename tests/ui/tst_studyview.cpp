// The Study tab (ui/study): it reads a study run by `servebench-cli study run` and shows the same
// decision the CLI prints (the decision JSON of both front ends is equal), fills the progress
// matrix from the stored cells, lists the study's runs in the project tree under the study
// (never as a sweep), and runs a study itself through the one run pipeline in its own thread.
#include "projectdocument.h"
#include "projecttreemodel.h"
#include "study/studydecisionmodel.h"
#include "study/studyview.h"

#include <QApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// Two simulator candidates, the second slower; one open-loop scenario; two repeats. Small:
// the whole study runs in a few seconds.
QByteArray studyJson(const QString &name)
{
    return uR"({
  "name": "%1",
  "question": "Which simulator answers first?",
  "boundary": {
    "model": "servebench-sim",
    "dataset": { "flags": ["--dataset-name", "random", "--random-input-len", "16", "--random-output-len", "8"] },
    "request": { "flags": ["--ignore-eos"] },
    "connection_mode": "warm",
    "cache_policy": "cache-bust"
  },
  "scenarios": [
    { "name": "poisson", "kind": "open-loop", "flags": ["--request-rate", "40", "--num-prompts", "16"],
      "rank_by": "ttft.median" }
  ],
  "repeats": 2,
  "seed": 11,
  "candidates": [
    { "name": "fast", "simulator": { "ttft_ms": 20, "itl_ms": 2 },
      "cost": { "source": "price_per_hour", "price_per_hour": "2.00", "currency": "USD" } },
    { "name": "slow", "simulator": { "ttft_ms": 60, "itl_ms": 2 },
      "cost": { "source": "price_per_hour", "price_per_hour": "1.00", "currency": "USD" } }
  ]
})"_s.arg(name)
        .toUtf8();
}

bool runCli(const QStringList &args, QByteArray *out = nullptr)
{
    QProcess p;
    p.start(QStringLiteral(SB_CLI), args);
    if (!p.waitForFinished(240000)) {
        p.kill();
        qWarning() << "servebench-cli" << args << "did not finish";
        return false;
    }
    const QByteArray o = p.readAllStandardOutput();
    if (out)
        *out = o;
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning() << "servebench-cli" << args << "exit" << p.exitCode() << o
                   << p.readAllStandardError();
        return false;
    }
    return true;
}

QJsonObject cliDecision(const QString &project, const QString &study, const QString &file)
{
    if (!runCli({u"study"_s, u"decide"_s, u"--project"_s, project, u"--study"_s, study, u"--json"_s,
                 file}))
        return {};
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QString writeStudy(const QTemporaryDir &dir, const QString &name)
{
    const QString path = dir.filePath(name + u".json"_s);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(studyJson(name)) < 0)
        return {};
    return path;
}

} // namespace

class TestStudyView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void showsTheCliDecision();
    void treeListsStudyRunsUnderTheStudy();
    void runsAStudyItself();

private:
    QTemporaryDir m_dir;
    QString m_project;
};

void TestStudyView::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_project = m_dir.filePath(u"p.sbproj"_s);
    const QString def = writeStudy(m_dir, u"cli-study"_s);
    QVERIFY(!def.isEmpty());
    QVERIFY(runCli({u"study"_s, u"run"_s, def, u"--project"_s, m_project}));
}

void TestStudyView::showsTheCliDecision()
{
    const QJsonObject cli = cliDecision(m_project, u"cli-study"_s, m_dir.filePath(u"cli.json"_s));
    QVERIFY(!cli.isEmpty());

    StudyView view;
    view.resize(1280, 800);
    view.setProject(m_project);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 30000);
    QCOMPARE(view.currentStudy(), u"cli-study"_s);
    // The same decision, derived once in core: equal JSON, number for number.
    const QJsonObject gui = view.decisionJson();
    if (gui != cli)
        qWarning().noquote() << "GUI:" << QJsonDocument(gui).toJson()
                             << "\nCLI:" << QJsonDocument(cli).toJson();
    QCOMPARE(gui, cli);

    // The progress matrix: one row per candidate, one column per scenario and repeat, all done.
    QTableWidget *m = view.progressTable();
    QCOMPARE(m->rowCount(), 2);
    QCOMPARE(m->columnCount(), 2);
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) {
            QVERIFY2(m->item(r, c), qPrintable(u"cell %1,%2 empty"_s.arg(r).arg(c)));
            QVERIFY2(m->item(r, c)->text().startsWith(u"done"_s),
                     qPrintable(m->item(r, c)->text()));
        }
    // The decision table: one row per candidate of the scenario, the faster ranked first.
    StudyDecisionModel *model = view.decisionModel();
    QCOMPARE(model->rowCount(), 2);
    QVERIFY(model->index(0, StudyDecisionModel::Candidate).data().toString().startsWith(u"fast"_s));
    QCOMPARE(model->index(0, StudyDecisionModel::Rank).data().toString(), u"1"_s);
    QCOMPARE(model->index(1, StudyDecisionModel::Rank).data().toString(), u"2"_s);
}

void TestStudyView::treeListsStudyRunsUnderTheStudy()
{
    ProjectDocument doc;
    QString error;
    QVERIFY2(doc.open(m_project, &error), qPrintable(error));
    ProjectTreeModel tree(&doc);
    const QModelIndex runs = tree.groupIndex(ProjectTreeModel::Group::Runs);
    QVERIFY(runs.isValid());
    QCOMPARE(tree.rowCount(runs), 1); // only the study: no SUT group, no sweep
    const QModelIndex study = tree.index(0, 0, runs);
    QCOMPARE(study.data().toString(), u"Study: cli-study"_s);
    QCOMPARE(tree.rowCount(study), 4); // 2 candidates × 1 scenario × 2 repeats
}

void TestStudyView::runsAStudyItself()
{
    const QString project = m_dir.filePath(u"gui.sbproj"_s);
    // A project file to run in: the CLI makes one with a single short run.
    QVERIFY(runCli({u"run"_s, u"--num-prompts"_s, u"2"_s, u"--request-rate"_s, u"50"_s,
                    u"--project"_s, project}));
    const QString def = writeStudy(m_dir, u"gui-study"_s);
    StudyView view;
    view.setProject(project);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 30000);
    QString error;
    QVERIFY2(view.runStudyFile(def, &error), qPrintable(error));
    QVERIFY(view.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 180000);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 30000);
    QCOMPARE(view.currentStudy(), u"gui-study"_s);
    QCOMPARE(view.snapshot().cells.size(), 4);
    for (const StoredStudyCell &c : view.snapshot().cells)
        QVERIFY2(c.state == u"completed"_s, qPrintable(c.state + u": "_s + c.reason));
    // What the workbench ran, the CLI decides the same way.
    const QJsonObject cli = cliDecision(project, u"gui-study"_s, m_dir.filePath(u"gui.json"_s));
    QVERIFY(!cli.isEmpty());
    QCOMPARE(view.decisionJson(), cli);
}

QTEST_MAIN(TestStudyView)
#include "tst_studyview.moc"
