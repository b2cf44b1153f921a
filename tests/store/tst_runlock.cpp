// RunLock and the status readers see: a run whose writer is gone reads as interrupted at once,
// in every reader and without any writer opening the file; a live one reads as running.
#include "recordfactory.h"
#include "store/projectstore.h"
#include "store/runlock.h"
#include "store/runwriter.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QString createProject(const QTemporaryDir &dir, const QString &name)
{
    const QString path = dir.filePath(name);
    ProjectStore s;
    if (!s.open(path))
        qWarning() << s.lastError();
    return path;
}

// The project file and its -wal: what a reader must leave as it found them.
QByteArray filesHash(const QString &path)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const QString &f : {path, path + u"-wal"_s}) {
        QFile file(f);
        if (file.open(QIODevice::ReadOnly))
            h.addData(file.readAll());
        h.addData("|");
    }
    return h.result();
}

} // namespace

class TestRunLock : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void probeSeesALockOfThisProcess()
    {
        const QString project = m_dir.filePath(u"same.sbproj"_s);
        // No lock file at all: no writer ever ran, nothing is alive (and probing creates none).
        QCOMPARE(RunLock::probe(project, 3), RunLock::Writer::Gone);
        QVERIFY(!QFile::exists(RunLock::lockPath(project)));

        RunLock lock;
        QString error;
        QVERIFY2(lock.acquire(project, 3, &error), qPrintable(error));
        QVERIFY(lock.isHeld());
        QCOMPARE(RunLock::probe(project, 3), RunLock::Writer::Alive);
        // One byte per run: its neighbours are free.
        QCOMPARE(RunLock::probe(project, 2), RunLock::Writer::Gone);
        QCOMPARE(RunLock::probe(project, 4), RunLock::Writer::Gone);
        // A second writer of the same run is refused, even in the same process.
        RunLock second;
        QVERIFY(!second.acquire(project, 3, &error));
        QVERIFY2(error.contains(u"being written already"_s), qPrintable(error));
        QVERIFY(second.acquire(project, 4, &error));

        lock.release();
        QCOMPARE(RunLock::probe(project, 3), RunLock::Writer::Gone);
        QCOMPARE(RunLock::probe(project, 4), RunLock::Writer::Alive);
    }

    void liveRunReadsAsRunningInEveryMode()
    {
        const QString path = createProject(m_dir, u"live.sbproj"_s);
        RunWriter w;
        QVERIFY(w.open(path));
        RunInfo meta;
        meta.name = u"live"_s;
        const qint64 id = w.beginRun({}, meta);
        QVERIFY(id > 0);
        for (int i = 0; i < 5; ++i)
            w.append(testing::makeRecord(i));
        QVERIFY(w.flush());
        for (auto mode : {ProjectStore::OpenMode::ReadOnly, ProjectStore::OpenMode::ReadWrite}) {
            ProjectStore s;
            QVERIFY(s.open(path, mode));
            QCOMPARE(s.loadRun(id)->status, StoredRunStatus::Running);
            QCOMPARE(s.listRuns().value(0).status, StoredRunStatus::Running);
            QCOMPARE(s.loadRun(id)->requestCount, 5);
            QVERIFY(s.loadRun(id)->lastCommitUtc.isValid());
            QVERIFY(s.interruptedOnOpen().isEmpty());
        }
        QVERIFY(w.finishRun(StoredRunStatus::Completed, {}));
        QCOMPARE(RunLock::probe(path, id), RunLock::Writer::Gone);
        ProjectStore s;
        QVERIFY(s.open(path, ProjectStore::OpenMode::ReadOnly));
        QCOMPARE(s.loadRun(id)->status, StoredRunStatus::Completed);
    }

    void killedWriterReadsAsInterruptedBeforeAnyWriterOpens()
    {
        const QString path = createProject(m_dir, u"killed.sbproj"_s);
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QStringLiteral(SB_STORE_CRASH_CHILD), {u"write"_s, path});
        QVERIFY(child.waitForStarted());
        qint64 runId = 0, reported = 0;
        QByteArray pending;
        QDeadlineTimer deadline(60000);
        while (reported < 300 && !deadline.hasExpired()) {
            QVERIFY(child.state() == QProcess::Running);
            child.waitForReadyRead(200);
            pending += child.readAllStandardOutput();
            qsizetype nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(nl);
                pending.remove(0, nl + 1);
                if (line.startsWith("run "))
                    runId = line.mid(4).toLongLong();
                else if (line.startsWith("committed "))
                    reported = line.mid(10).toLongLong();
            }
        }
        QVERIFY(runId > 0 && reported >= 300);
        {
            // Alive: a reader sees it running while the child writes.
            ProjectStore s;
            QVERIFY(s.open(path, ProjectStore::OpenMode::ReadOnly));
            QCOMPARE(s.loadRun(runId)->status, StoredRunStatus::Running);
        }
        child.kill(); // SIGKILL: no cleanup of any kind runs in the child
        QVERIFY(child.waitForFinished());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        QCOMPARE(RunLock::probe(path, runId), RunLock::Writer::Gone);
        const QByteArray before = filesHash(path);
        {
            ProjectStore s;
            QVERIFY2(s.open(path, ProjectStore::OpenMode::ReadOnly), qPrintable(s.lastError()));
            const auto run = s.loadRun(runId);
            QVERIFY(run);
            QCOMPARE(run->status, StoredRunStatus::Interrupted);
            QVERIFY2(run->statusMessage.contains(u"stopped or crashed"_s),
                     qPrintable(run->statusMessage));
            QVERIFY(
                run->statusMessage.contains(u"%1 requests were recorded"_s.arg(run->requestCount)));
            QVERIFY(run->requestCount >= reported);
            QVERIFY(run->endedUtc.isValid());
            QCOMPARE(s.listRuns().value(0).status, StoredRunStatus::Interrupted);
            QCOMPARE(s.loadRequests(runId).size(), run->requestCount);
        }
        // Reading changed nothing: the file still says 'running'; only a writer stores the
        // status, and the reader did not need it to.
        QCOMPARE(filesHash(path), before);
        ProjectStore rw;
        QVERIFY(rw.open(path));
        QCOMPARE(rw.interruptedOnOpen(), QList<qint64>{runId});
    }
};

QTEST_GUILESS_MAIN(TestRunLock)
#include "tst_runlock.moc"
