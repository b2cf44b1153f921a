// The workbench as a reader of runs another process writes: a run whose writer is alive shows
// as running, and once that writer is killed (SIGKILL) the project tree shows it interrupted,
// with what it recorded, without reopening the project. The writer is this test binary itself,
// started again with --write-forever.

#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "mainwindow.h"
#include "projectdocument.h"
#include "projecttreemodel.h"
#include "settings.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <cstdio>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// Child mode: begins a run, commits a few records, says "run <id>", then waits to be killed.
int writeForever(const QString &path)
{
    {
        ProjectStore store;
        if (!store.open(path))
            return 2;
    }
    RunWriter writer;
    if (!writer.open(path))
        return 2;
    RunPlan plan;
    plan.name = u"written elsewhere"_s;
    RunInfo meta;
    meta.name = plan.name;
    const qint64 id = writer.beginRun(plan.toJson(), meta);
    if (id == 0)
        return 2;
    for (int i = 0; i < 7; ++i) {
        RequestRecord r;
        r.index = i;
        r.tSched = r.tSend = 1'000'000'000 + i;
        r.tEnd = r.tSend + 1000;
        writer.append(r);
    }
    if (!writer.flush())
        return 2;
    std::printf("run %lld\n", static_cast<long long>(id));
    std::fflush(stdout);
    for (;;)
        QThread::sleep(1);
}

} // namespace

class TestRunLiveness : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void killedWriterShowsInterruptedInTheTree()
    {
        QVERIFY(m_dir.isValid());
        const QString path = m_dir.filePath(u"shared.sbproj"_s);
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), {u"--write-forever"_s, path});
        QVERIFY(child.waitForStarted());
        QByteArray line;
        QDeadlineTimer deadline(30000);
        while (!line.contains('\n') && !deadline.hasExpired()) {
            child.waitForReadyRead(200);
            line += child.readAllStandardOutput();
        }
        QVERIFY2(line.startsWith("run "), line.constData());
        const qint64 storeId = line.mid(4).trimmed().toLongLong();

        Settings settings(m_dir.filePath(u"settings.ini"_s));
        ApiKeyStore keys(new KeychainUnavailableBackend);
        MainWindow w(&settings, &keys);
        QVERIFY(w.openProject(path));
        ProjectDocument *doc = w.document();
        int docId = 0;
        for (const DocRun &r : doc->runs())
            if (r.storeId == storeId)
                docId = r.id;
        QVERIFY(docId > 0);
        const auto tooltip = [&] {
            return w.treeModel()->indexFor(EntityKind::Run, docId).data(Qt::ToolTipRole).toString();
        };
        // Its writer lives: running.
        QCOMPARE(doc->run(docId)->info.status, StoredRunStatus::Running);
        QVERIFY2(tooltip().contains(u"Status: running"_s), qPrintable(tooltip()));

        child.kill();
        QVERIFY(child.waitForFinished());

        // Selecting the run reads it again (read-only, in a worker): now interrupted, with the
        // records it committed, and the tree says so.
        QSignalSpy loaded(doc, &ProjectDocument::runRecordsLoaded);
        doc->loadRunRecords(docId);
        QVERIFY(loaded.wait(30000));
        QCOMPARE(loaded.first().at(2).value<QList<RequestRecord>>().size(), 7);
        QCOMPARE(doc->run(docId)->info.status, StoredRunStatus::Interrupted);
        QVERIFY(doc->run(docId)->info.statusMessage.contains(u"7 requests were recorded"_s));
        QVERIFY2(tooltip().contains(u"Status: interrupted"_s), qPrintable(tooltip()));

        // A window opening the project afterwards sees the same.
        MainWindow again(&settings, &keys);
        QVERIFY(again.openProject(path));
        for (const DocRun &r : again.document()->runs())
            if (r.storeId == storeId)
                QCOMPARE(r.info.status, StoredRunStatus::Interrupted);
    }
};

int main(int argc, char **argv)
{
    if (argc == 3 && qstrcmp(argv[1], "--write-forever") == 0) {
        QCoreApplication app(argc, argv);
        return writeForever(QString::fromLocal8Bit(argv[2]));
    }
    QApplication app(argc, argv);
    TestRunLiveness test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_runliveness.moc"
