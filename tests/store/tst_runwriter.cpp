#include "recordfactory.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <thread>

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

RunInfo meta(const QString &name)
{
    RunInfo m;
    m.name = name;
    m.metricDefinitionsVersion = u"1"_s;
    return m;
}

void checkRecords(const QList<RequestRecord> &records, qint64 expected)
{
    QCOMPARE(records.size(), expected);
    for (qsizetype i = 0; i < records.size(); ++i) {
        QCOMPARE(records[i].index, i);
        const QString diff = testing::recordDifference(records[i], testing::makeRecord(i));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }
}
} // namespace

class TestRunWriter : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void recordsFromManyThreadsRoundTrip()
    {
        const QString path = createProject(m_dir, u"threads.sbproj"_s);
        RunWriter w;
        RunWriter::Options o;
        o.maxBatch = 100;
        QString error;
        QVERIFY2(w.open(path, o, &error), qPrintable(error));
        const qint64 id = w.beginRun(QJsonObject{{u"name"_s, u"t"_s}}, meta(u"threads"_s), &error);
        QVERIFY2(id > 0, qPrintable(error));
        QCOMPARE(w.currentRunId(), id);

        // Four "network threads" append interleaved records; none of them touches SQL.
        constexpr int kThreads = 4, kPerThread = 1500;
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&w, t] {
                for (int i = 0; i < kPerThread; ++i)
                    w.append(testing::makeRecord(qint64(i) * kThreads + t));
            });
        for (auto &t : threads)
            t.join();
        QVERIFY(w.finishRun(StoredRunStatus::Completed, QJsonObject{{u"requests"_s, 6000}},
                            u"done"_s, {}, 0, &error));
        QCOMPARE(w.committedCount(), kThreads * kPerThread);
        QCOMPARE(w.droppedCount(), 0);
        QVERIFY(w.batchesCommitted() >= kThreads * kPerThread / o.maxBatch);
        QCOMPARE(w.currentRunId(), 0);
        w.close();

        ProjectStore s;
        QVERIFY(s.open(path));
        const auto run = s.loadRun(id);
        QVERIFY(run);
        QCOMPARE(run->status, StoredRunStatus::Completed);
        QCOMPARE(run->statusMessage, u"done"_s);
        QCOMPARE(run->requestCount, kThreads * kPerThread);
        QCOMPARE(run->summary.value(u"requests"_s).toInt(), 6000);
        QVERIFY(run->endedMonoNs >= run->startedMonoNs);
        checkRecords(s.loadRequests(id), kThreads * kPerThread);
        QVERIFY(s.integrityCheck());
    }

    void commitsWithoutBeingAsked()
    {
        // Records become durable on their own within maxDelayMs: visible to another connection
        // while the run is still going.
        const QString path = createProject(m_dir, u"delay.sbproj"_s);
        RunWriter w;
        RunWriter::Options o;
        o.maxBatch = 1'000'000;
        o.maxDelayMs = 100;
        QVERIFY(w.open(path, o));
        const qint64 id = w.beginRun({}, meta(u"delay"_s));
        for (int i = 0; i < 10; ++i)
            w.append(testing::makeRecord(i));
        QTRY_COMPARE_WITH_TIMEOUT(w.committedCount(), 10, 10000);
        ProjectStore reader;
        QVERIFY(reader.open(path));
        QCOMPARE(reader.loadRequests(id).size(), 10);
        // The live run is not mistaken for an interrupted one: its writer is alive.
        QCOMPARE(reader.loadRun(id)->status, StoredRunStatus::Running);
        QVERIFY(reader.interruptedOnOpen().isEmpty());
        QVERIFY(w.finishRun(StoredRunStatus::Completed, {}));
        QCOMPARE(reader.loadRun(id)->status, StoredRunStatus::Completed);
    }

    void fullBatchesCommitSeparately()
    {
        const QString path = createProject(m_dir, u"batch.sbproj"_s);
        RunWriter w;
        RunWriter::Options o;
        o.maxBatch = 50;
        o.maxDelayMs = 1000;
        QVERIFY(w.open(path, o));
        QVERIFY(w.beginRun({}, meta(u"batch"_s)) > 0);
        for (int i = 0; i < 500; ++i)
            w.append(testing::makeRecord(i));
        QVERIFY(w.flush());
        QCOMPARE(w.committedCount(), 500);
        QCOMPARE(w.queuedCount(), 0);
        QVERIFY(w.batchesCommitted() >= 10); // never more than maxBatch per transaction
    }

    void appendWithoutRunIsDropped()
    {
        const QString path = createProject(m_dir, u"norun.sbproj"_s);
        RunWriter w;
        QVERIFY(w.open(path));
        w.append(testing::makeRecord(0));
        QCOMPARE(w.droppedCount(), 1);
        QVERIFY(!w.finishRun(StoredRunStatus::Completed, {}));
    }

    void closingMidRunMarksItInterrupted()
    {
        const QString path = createProject(m_dir, u"close.sbproj"_s);
        qint64 id = 0;
        {
            RunWriter w;
            QVERIFY(w.open(path));
            id = w.beginRun({}, meta(u"close"_s));
            for (int i = 0; i < 30; ++i)
                w.append(testing::makeRecord(i));
        } // destructor: commits the queue, then marks the run
        ProjectStore s;
        QVERIFY(s.open(path));
        const auto run = s.loadRun(id);
        QCOMPARE(run->status, StoredRunStatus::Interrupted);
        QCOMPARE(run->requestCount, 30);
        checkRecords(s.loadRequests(id), 30);
    }

    void runOfADeadProcessIsMarkedInterruptedOnOpen()
    {
        // A run left 'running' with nobody holding its lock: what a killed writer leaves (the
        // kill itself is tested below), made here by rewriting a finished run's status, with a
        // process id that is alive (ours) to show that a live pid does not keep it running.
        const QString path = createProject(m_dir, u"dead.sbproj"_s);
        qint64 id = 0;
        {
            RunWriter w;
            QVERIFY(w.open(path));
            id = w.beginRun({}, meta(u"dead"_s));
            for (int i = 0; i < 7; ++i)
                w.append(testing::makeRecord(i));
            QVERIFY(w.finishRun(StoredRunStatus::Completed, {}));
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"pid"_s);
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(u"UPDATE runs SET status = 'running', ended_utc = NULL, "
                           "writer_pid = %1 WHERE id = %2"_s.arg(QCoreApplication::applicationPid())
                               .arg(id)));
            db.close();
        }
        QSqlDatabase::removeDatabase(u"pid"_s);
        // A reader reports it interrupted without changing the file.
        {
            ProjectStore r;
            QVERIFY(r.open(path, ProjectStore::OpenMode::ReadOnly));
            QCOMPARE(r.loadRun(id)->status, StoredRunStatus::Interrupted);
            QCOMPARE(r.listRuns().value(0).status, StoredRunStatus::Interrupted);
            QVERIFY(r.interruptedOnOpen().isEmpty());
        }
        ProjectStore s;
        QVERIFY(s.open(path));
        QCOMPARE(s.interruptedOnOpen(), QList<qint64>{id});
        const auto run = s.loadRun(id);
        QCOMPARE(run->status, StoredRunStatus::Interrupted);
        QVERIFY(run->statusMessage.contains(u"7 requests were recorded"_s));
        QVERIFY(run->endedUtc.isValid());
        checkRecords(s.loadRequests(id), 7);
    }

    void fullDiskStopsCleanly()
    {
        const QString path = createProject(m_dir, u"full.sbproj"_s);
        qint64 pages = 0;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"pages"_s);
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(u"PRAGMA page_count"_s) && q.next());
            pages = q.value(0).toLongLong();
            db.close();
        }
        QSqlDatabase::removeDatabase(u"pages"_s);

        RunWriter w;
        RunWriter::Options o;
        o.maxBatch = 100;
        o.maxPageCount = pages + 40; // room for a few hundred records, then "disk full"
        QVERIFY(w.open(path, o));
        QSignalSpy failed(&w, &RunWriter::writeFailed);
        const qint64 id = w.beginRun({}, meta(u"full"_s));
        QVERIFY(id > 0);
        bool flushed = true;
        for (int i = 0; i < 20000 && flushed; ++i) {
            w.append(testing::makeRecord(i));
            if (i % 100 == 99)
                flushed = w.flush();
        }
        QVERIFY(!flushed);
        QVERIFY(w.hasFailed());
        QVERIFY2(w.errorString().contains(u"disk is full"_s), qPrintable(w.errorString()));
        QTRY_COMPARE(failed.size(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), w.errorString());
        const qint64 committed = w.committedCount();
        QVERIFY(committed > 0);
        w.append(testing::makeRecord(999999));
        QVERIFY(w.droppedCount() > 0);
        QString error;
        QVERIFY(!w.finishRun(StoredRunStatus::Completed, {}, {}, {}, 0, &error));
        QVERIFY(error.contains(u"disk is full"_s));
        w.close();
        QCOMPARE(failed.size(), 1); // once

        ProjectStore s;
        QVERIFY(s.open(path));
        QVERIFY(s.integrityCheck());
        const auto run = s.loadRun(id);
        QCOMPARE(run->status, StoredRunStatus::Failed);
        QVERIFY2(run->statusMessage.contains(u"disk is full"_s), qPrintable(run->statusMessage));
        QCOMPARE(run->requestCount, committed);
        checkRecords(s.loadRequests(id), committed);
    }

    void killedWriterLeavesAnIntactInterruptedRun()
    {
        const QString path = createProject(m_dir, u"kill.sbproj"_s);
        QRandomGenerator rng(11);
        for (int round = 0; round < 4; ++round) {
            QProcess child;
            child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
            child.start(QStringLiteral(SB_STORE_CRASH_CHILD), {u"write"_s, path});
            QVERIFY(child.waitForStarted());
            qint64 runId = 0, reported = 0;
            QByteArray pending;
            // Kill at a random point after a random number of commits: often mid-transaction.
            const qint64 target = 200 + qint64(rng.bounded(2000));
            QDeadlineTimer deadline(60000);
            while (reported < target && !deadline.hasExpired()) {
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
                    else
                        QFAIL(line.constData());
                }
            }
            QVERIFY(reported >= target);
            QThread::usleep(rng.bounded(30000));
            child.kill(); // SIGKILL
            QVERIFY(child.waitForFinished());
            QCOMPARE(child.exitStatus(), QProcess::CrashExit);

            ProjectStore s;
            QVERIFY2(s.open(path), qPrintable(s.lastError()));
            QString details;
            QVERIFY2(s.integrityCheck(&details), qPrintable(details));
            QVERIFY(s.interruptedOnOpen().contains(runId));
            const auto run = s.loadRun(runId);
            QVERIFY(run);
            QCOMPARE(run->status, StoredRunStatus::Interrupted);
            // Every record reported committed before the kill is there, whole and in order.
            QVERIFY2(run->requestCount >= reported,
                     qPrintable(u"%1 < %2"_s.arg(run->requestCount).arg(reported)));
            checkRecords(s.loadRequests(runId), run->requestCount);
            QCOMPARE(s.listRuns().size(), round + 1);
            qInfo("killed after %lld reported commits; %lld records stored", reported,
                  run->requestCount);
        }
    }
};

QTEST_GUILESS_MAIN(TestRunWriter)
#include "tst_runwriter.moc"
