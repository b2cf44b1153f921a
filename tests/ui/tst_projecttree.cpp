// The project tree model, checked by QAbstractItemModelTester through every structural change:
// new project, entities added and removed, runs grouped by SUT and sweep, renames.

#include "projectdocument.h"
#include "projecttreemodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestProjectTree : public QObject
{
    Q_OBJECT
private slots:
    void newProjectHasDefaults();
    void runsGroupBySutAndSweep();
    void editsKeepModelConsistent();
};

namespace {
int runId(ProjectDocument &doc, const QString &sut, int sutDocId, const QString &sweep,
          const QString &name)
{
    DocRun r;
    r.info.name = name;
    r.info.status = StoredRunStatus::Completed;
    r.sutName = sut;
    r.sutDocId = sutDocId;
    r.sweepName = sweep;
    return doc.addRun(r);
}
} // namespace

void TestProjectTree::newProjectHasDefaults()
{
    ProjectDocument doc;
    ProjectTreeModel model(&doc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    doc.newProject();
    QCOMPARE(model.rowCount(), 4);
    const QModelIndex suts = model.groupIndex(ProjectTreeModel::Group::Suts);
    QCOMPARE(model.rowCount(suts), 1);
    const QModelIndex sim = model.index(0, 0, suts);
    QCOMPARE(model.kindAt(sim), EntityKind::Sut);
    QVERIFY(doc.sut(model.idAt(sim))->config.builtInSimulator);
    QCOMPARE(model.rowCount(model.groupIndex(ProjectTreeModel::Group::Datasets)), 1);
    QCOMPARE(model.rowCount(model.groupIndex(ProjectTreeModel::Group::Profiles)), 1);
    QCOMPARE(model.rowCount(model.groupIndex(ProjectTreeModel::Group::Runs)), 0);
    QCOMPARE(model.parent(sim), suts);
    QVERIFY(model.data(suts).toString().contains(u"(1)"_s));
    QCOMPARE(model.indexFor(EntityKind::Sut, model.idAt(sim)), sim);
}

void TestProjectTree::runsGroupBySutAndSweep()
{
    ProjectDocument doc;
    ProjectTreeModel model(&doc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    doc.newProject();
    const int a = doc.addSut(SutConfig{.name = u"A"_s});
    const int b = doc.addSut(SutConfig{.name = u"B"_s});
    runId(doc, u"A"_s, a, {}, u"a1"_s);
    runId(doc, u"B"_s, b, {}, u"b1"_s);
    runId(doc, u"A"_s, a, u"rates"_s, u"a-sweep-1"_s);
    runId(doc, u"A"_s, a, u"rates"_s, u"a-sweep-2"_s);
    const int a2 = runId(doc, u"A"_s, a, {}, u"a2"_s);

    const QModelIndex runs = model.groupIndex(ProjectTreeModel::Group::Runs);
    QCOMPARE(model.rowCount(runs), 2); // A, B in order of their first run
    const QModelIndex groupA = model.index(0, 0, runs);
    QCOMPARE(model.data(groupA).toString(), u"A"_s);
    QCOMPARE(model.data(model.index(1, 0, runs)).toString(), u"B"_s);
    QCOMPARE(model.rowCount(groupA), 3); // a1, the sweep, a2
    const QModelIndex sweep = model.index(1, 0, groupA);
    QCOMPARE(model.data(sweep, ProjectTreeModel::GroupRole).toInt(),
             int(ProjectTreeModel::Group::RunSweep));
    QCOMPARE(model.rowCount(sweep), 2);
    QCOMPARE(model.data(model.index(1, 0, sweep)).toString(), u"a-sweep-2"_s);
    const QModelIndex run = model.indexFor(EntityKind::Run, a2);
    QCOMPARE(model.parent(run), groupA);
    QCOMPARE(run.row(), 2);

    // Renaming the SUT regroups its runs under the new name.
    SutConfig renamed = doc.sut(a)->config;
    renamed.name = u"A-prime"_s;
    doc.updateSut(a, renamed);
    QCOMPARE(model.data(model.index(0, 0, runs)).toString(), u"A-prime"_s);

    QVERIFY(doc.remove(EntityKind::Run, a2));
    QCOMPARE(model.rowCount(model.index(0, 0, runs)), 2);
}

void TestProjectTree::editsKeepModelConsistent()
{
    ProjectDocument doc;
    ProjectTreeModel model(&doc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    doc.newProject();
    const int d = doc.addDataset(u"sharegpt"_s, DatasetSpec{});
    const QModelIndex datasets = model.groupIndex(ProjectTreeModel::Group::Datasets);
    QCOMPARE(model.rowCount(datasets), 2);
    doc.updateDataset(d, u"sharegpt v2"_s, DatasetSpec{});
    QCOMPARE(model.data(model.indexFor(EntityKind::Dataset, d)).toString(), u"sharegpt v2"_s);
    QVERIFY(doc.isModified());
    QVERIFY(doc.remove(EntityKind::Dataset, d));
    QVERIFY(!model.indexFor(EntityKind::Dataset, d).isValid());
    QCOMPARE(model.rowCount(model.groupIndex(ProjectTreeModel::Group::Datasets)), 1);
    QVERIFY(!doc.remove(EntityKind::Dataset, d));
    doc.newProject();
    QVERIFY(!doc.isModified());
    QCOMPARE(model.rowCount(model.groupIndex(ProjectTreeModel::Group::Suts)), 1);
}

QTEST_MAIN(TestProjectTree)
#include "tst_projecttree.moc"
