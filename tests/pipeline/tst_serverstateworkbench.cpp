// The server's state under control from the workbench (docs/managed-servers.md, docs/cache-audit.md
// "Cache policy"): the workbench's runner, with a SUT that is a managed server and a load profile
// that resets the prefix cache, starts the server, resets and verifies the cache, runs, stops the
// server (no process left) and stores its output — through the same pipeline as the CLI
// (tests/servercontrol covers the CLI) — and the Results view says what was done and verified.

#include "projectdocument.h"
#include "projectrunner.h"
#include "resultsview.h"
#include "store/projectstore.h"

#include <QDir>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

bool processWith(const QString &marker)
{
    for (const QString &p : QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        const int pid = p.toInt(&ok);
        if (!ok || pid == QCoreApplication::applicationPid())
            continue;
        QFile f(u"/proc/%1/cmdline"_s.arg(pid));
        if (f.open(QIODevice::ReadOnly) && f.readAll().replace('\0', ' ').contains(marker.toUtf8()))
            return true;
    }
    return false;
}

} // namespace

class TestServerStateWorkbench : public QObject
{
    Q_OBJECT
private slots:
    void managedServerAndCacheResetFromTheWorkbench();
};

void TestServerStateWorkbench::managedServerAndCacheResetFromTheWorkbench()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = dir.filePath(u"p.sbproj"_s);
    quint16 port = 0;
    {
        QTcpServer s;
        QVERIFY(s.listen(QHostAddress::LocalHost, 0));
        port = s.serverPort();
    }
    const QString marker = u"wb-"_s + QUuid::createUuid().toString(QUuid::Id128).left(10);

    ProjectDocument doc;
    doc.newProject();
    DocSut sut = doc.suts().first();
    sut.config.builtInSimulator = false;
    sut.config.baseUrl = u"http://127.0.0.1:%1"_s.arg(port);
    sut.config.model = marker;
    sut.config.managed.startCommand =
        u"exec %1 simulate --port %2 --model %3 --prefix-cache"_s.arg(QString::fromUtf8(SB_CLI))
            .arg(port)
            .arg(marker);
    doc.updateSut(sut.id, sut.config);
    const DocDataset dataset = doc.datasets().first();
    DocProfile profile = doc.profiles().first();
    profile.profile.numPrompts = 20;
    profile.profile.cacheReset = true;
    doc.updateProfile(profile.id, profile.name, profile.profile, profile.params);
    QString error;
    QVERIFY2(doc.saveAs(project, &error), qPrintable(error));
    RunInfo links;
    QVERIFY2(doc.storeRunEntities(sut.id, dataset.id, profile.id, &links, &error),
             qPrintable(error));

    RunRequest request;
    request.plan.sut = doc.suts().first().config;
    request.plan.dataset = dataset.spec;
    request.plan.profile = doc.profiles().first().profile;
    request.plan.params = profile.params;
    request.plan.name = u"managed"_s;
    ProjectRunner runner(nullptr);
    QSignalSpy finished(&runner, &ProjectRunner::runFinished);
    QVERIFY2(runner.start(request, project, links, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 90000);
    QTRY_COMPARE_WITH_TIMEOUT(runner.state(), ProjectRunner::State::Idle, 30000);
    const FinishedRun run = finished.first().first().value<FinishedRun>();
    QCOMPARE(run.status, RunStatus::Completed);
    QVERIFY2(!processWith(marker), "the managed server is still running");

    // What the run keeps: the server in the snapshot, the reset and its verification.
    const QJsonObject managed = run.info.snapshot.value(u"managed_server"_s).toObject();
    QCOMPARE(managed.value(u"start_command"_s).toString(), request.plan.sut.managed.startCommand);
    QVERIFY(managed.value(u"startup_ms"_s).toInteger() > 0);
    const QJsonObject cache = run.info.summary.value(u"cache_policy"_s).toObject();
    QVERIFY(cache.value(u"reset"_s).toObject().value(u"done"_s).toBool());
    QCOMPARE(cache.value(u"verification"_s).toObject().value(u"verdict"_s).toString(),
             u"cold"_s);
    ProjectStore store;
    QVERIFY(store.open(project, ProjectStore::OpenMode::ReadOnly));
    const auto log = store.loadServerLog(managed.value(u"instance"_s).toString());
    QVERIFY(log.has_value());
    QVERIFY(!log->output.isEmpty());
    QCOMPARE(log->info.value(u"processes_left"_s).toBool(true), false);

    // The Results view says it.
    ResultsView view;
    view.showRun(run.plan, run.records, run.serverMetrics);
    view.setServerState(run.info.snapshot, run.info.summary);
    const auto *label = view.findChild<QLabel *>(u"serverState"_s);
    QVERIFY(label);
    QVERIFY2(label->text().contains(u"Managed server: healthy"_s) &&
                 label->text().contains(u"verified cold over the first 16 requests"_s),
             qPrintable(label->text()));
    view.clear();
    QVERIFY(label->text().isEmpty());
}

QTEST_MAIN(TestServerStateWorkbench)
#include "tst_serverstateworkbench.moc"
