// Managed servers (docs/managed-servers.md) through servebench-cli: a server started by its
// command becomes healthy, serves the run and is gone afterwards (no process of it left, its
// output in the project); one that exits during start-up or never answers fails with its output;
// a port someone else already serves is refused; --server-lifetime run restarts it between runs;
// a stop command is used when given; and in a study a candidate whose server does not start
// fails its cells with the output while the other candidate's cells run on a server kept for it.

#include "clirun.h"
#include "run/managedserver.h"
#include "servertestutil.h"
#include "simprocess.h"
#include "store/projectstore.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QUuid>
#include <QtTest>

using namespace Qt::StringLiterals;
using namespace sb;
using namespace sb::test;

namespace {

// Processes whose command line holds marker (this test's own, so nothing else is counted).
QList<int> processesWith(const QString &marker)
{
    QList<int> out;
    const QStringList pids = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &p : pids) {
        bool ok = false;
        const int pid = p.toInt(&ok);
        if (!ok || pid == QCoreApplication::applicationPid())
            continue;
        QFile f(u"/proc/%1/cmdline"_s.arg(pid));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        QByteArray cmd = f.readAll();
        cmd.replace('\0', ' ');
        if (cmd.contains(marker.toUtf8()))
            out << pid;
    }
    return out;
}

QString cli()
{
    return QString::fromUtf8(SB_CLI);
}

QStringList smallRun(const QString &url, const QString &project)
{
    return {u"run"_s,         u"--base-url"_s,          url,        u"--num-prompts"_s,
            u"6"_s,           u"--random-input-len"_s,  u"16"_s,    u"--random-output-len"_s,
            u"3"_s,           u"--project"_s,           project};
}


QList<StoredServerLog> serverLogs(const QString &project)
{
    ProjectStore store;
    if (!store.open(project, ProjectStore::OpenMode::ReadOnly))
        return {};
    QList<StoredServerLog> out;
    for (const StoredServerLog &l : store.listServerLogs())
        if (auto full = store.loadServerLog(l.instance))
            out << *full;
    return out;
}

} // namespace

class TestManagedServer : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString marker() const
    {
        return u"sbtest-"_s + QUuid::createUuid().toString(QUuid::Id128).left(12);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A command is stored as written: a credential in it must be a reference.
    void literalSecretsInCommands_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("found");
        QTest::newRow("env assignment") << u"HF_TOKEN=hf_abc vllm serve m"_s << u"HF_TOKEN=…"_s;
        QTest::newRow("env reference") << u"HF_TOKEN=$HF_TOKEN vllm serve m"_s << QString();
        QTest::newRow("quoted in docker -e")
            << u"docker run -e HUGGING_FACE_HUB_TOKEN='hf_x' img"_s
            << u"HUGGING_FACE_HUB_TOKEN=…"_s;
        QTest::newRow("flag value") << u"vllm serve m --api-key sk-123"_s << u"--api-key …"_s;
        QTest::newRow("flag=value") << u"sglang --api-key=\"abc\""_s << u"--api-key …"_s;
        QTest::newRow("flag reference") << u"vllm serve m --api-key $KEY"_s << QString();
        QTest::newRow("flag braced reference") << u"x --hf-token ${HF}"_s << QString();
        QTest::newRow("token-ish flags that are no secret")
            << u"vllm serve m --max-num-batched-tokens 8192 --tokenizer /m/tok"_s << QString();
        QTest::newRow("MAX_TOKENS is no secret") << u"MAX_TOKENS=5 ./serve"_s << QString();
    }
    void literalSecretsInCommands()
    {
        QFETCH(QString, command);
        QFETCH(QString, found);
        QCOMPARE(literalSecretIn(command), found);
    }

    void cliRefusesALiteralSecret()
    {
        const CliResult r = runCli({u"run"_s, u"--base-url"_s, u"http://127.0.0.1:9"_s,
                                    u"--server-start-cmd"_s, u"HF_TOKEN=hf_abc vllm serve m"_s});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(u"--server-start-cmd"_s) && r.err.contains(u"HF_TOKEN=…"_s) &&
                     !r.err.contains(u"hf_abc"_s),
                 qPrintable(r.err));
    }

    // The simulator and the independent FastAPI server, each started by its command.
    void startsServesAndIsGone_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("simulator") << u"simulator"_s;
        QTest::newRow("fastapi (independent)") << u"fastapi"_s;
    }
    void startsServesAndIsGone()
    {
        QFETCH(QString, kind);
        const QString tag = marker();
        const quint16 port = freePort();
        const QString url = u"http://127.0.0.1:%1"_s.arg(port);
        // The marker rides in the model name, so this test finds the server's processes.
        const QString command =
            kind == "simulator"_L1
                ? u"echo starting %1; exec %2 simulate --port %3 --model %1 --ttft-ms 2 --itl-ms 1"_s
                      .arg(tag, cli())
                      .arg(port)
                : u"echo starting %1; exec %2 %3 --port %4 --model %1 --ttft-ms 2 --itl-ms 1"_s
                      .arg(tag, python3(), QString::fromUtf8(SB_FASTAPI_SERVER))
                      .arg(port);
        const QString project = m_dir.filePath(kind + u"-managed.sbproj"_s);
        const CliResult r = runCli(smallRun(url, project) +
                                   QStringList{u"--server-start-cmd"_s, command,
                                               u"--server-start-timeout"_s, u"60"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY2(r.err.contains(u"Managed server healthy"_s), qPrintable(r.err));
        QVERIFY2(r.out.contains(u"Successful requests:                     6"_s),
                 qPrintable(r.out));
        // Gone: no process of it left, nothing answers at its port.
        QVERIFY2(processesWith(tag).isEmpty(), qPrintable(tag));
        QVERIFY(httpGet(url + u"/health"_s).isNull() || httpGet(url + u"/health"_s).isEmpty());

        const QList<RunInfo> runs = storedRuns(project);
        QCOMPARE(runs.size(), 1);
        const QJsonObject ms = runs.first().snapshot.value(u"managed_server"_s).toObject();
        QCOMPARE(ms.value(u"start_command"_s).toString(), command);
        QVERIFY(ms.value(u"startup_ms"_s).toInteger() > 0);
        QCOMPARE(ms.value(u"state"_s).toString(), u"healthy"_s);
        const QList<StoredServerLog> logs = serverLogs(project);
        QCOMPARE(logs.size(), 1);
        QCOMPARE(logs.first().instance, ms.value(u"instance"_s).toString());
        QVERIFY2(logs.first().output.contains((u"starting "_s + tag).toUtf8()),
                 logs.first().output.constData());
        QCOMPARE(logs.first().info.value(u"processes_left"_s).toBool(true), false);
        QCOMPARE(logs.first().info.value(u"stop"_s).toString(), u"SIGTERM to the process group"_s);
        // The command that reproduces the run starts the server the same way.
        QVERIFY(runs.first().snapshot.value(u"command"_s).toString().contains(
            u"--server-start-cmd"_s));
        // The acceptance bundle carries the server's facts and output beside the run.
        const QString bundle = m_dir.filePath(kind + u"-bundle"_s);
        const CliResult b =
            runCli({u"report"_s, u"--project"_s, project, u"--runs"_s,
                    QString::number(runs.first().id), u"--bundle"_s, bundle});
        QVERIFY2(b.code == 0, qPrintable(b.describe()));
        QFile log(u"%1/runs/%2/managed-server.log"_s.arg(bundle).arg(runs.first().id));
        QVERIFY2(log.open(QIODevice::ReadOnly), qPrintable(log.fileName()));
        QVERIFY(log.readAll().contains((u"starting "_s + tag).toUtf8()));
        QVERIFY(QFile::exists(
            u"%1/runs/%2/managed-server.json"_s.arg(bundle).arg(runs.first().id)));
    }

    void failsWithItsOutput_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("timeout");
        QTest::addColumn<QString>("expected");
        QTest::newRow("exits during start-up")
            << u"echo loading weights; echo 'CUDA out of memory' >&2; exit 3"_s << u"30"_s
            << u"exited during start-up (exit code 3)"_s;
        QTest::newRow("never healthy")
            << u"echo loading weights; echo 'CUDA out of memory' >&2; exec sleep 60"_s << u"1.5"_s
            << u"did not become healthy within 1.5 s"_s;
    }
    void failsWithItsOutput()
    {
        QFETCH(QString, command);
        QFETCH(QString, timeout);
        QFETCH(QString, expected);
        const QString tag = marker();
        const QString url = u"http://127.0.0.1:%1"_s.arg(freePort());
        const QString project = m_dir.filePath(tag + u".sbproj"_s);
        const CliResult r = runCli(
            smallRun(url, project) + QStringList{u"--server-start-cmd"_s,
                                                 u": %1; "_s.arg(tag) + command,
                                                 u"--server-start-timeout"_s, timeout});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(u"server-start-cmd"_s) && r.err.contains(expected) &&
                     r.err.contains(u"CUDA out of memory"_s) &&
                     r.err.contains(u"loading weights"_s),
                 qPrintable(r.err));
        QVERIFY2(processesWith(tag).isEmpty(), "a process of the failed server is left");
        QVERIFY(storedRuns(project).isEmpty());
        const QList<StoredServerLog> logs = serverLogs(project);
        QCOMPARE(logs.size(), 1);
        QVERIFY(logs.first().output.contains("CUDA out of memory"));
        QCOMPARE(logs.first().info.value(u"state"_s).toString(), u"failed"_s);
    }

    // The server runs in a session of its own: a Ctrl+C or SIGTERM to the CLI while it waits for
    // the server must stop the server, not leave it running.
    void interruptedStartLeavesNoProcess()
    {
        const QString tag = marker();
        const QString url = u"http://127.0.0.1:%1"_s.arg(freePort());
        const QString pidFile = m_dir.filePath(tag + u".pid"_s);
        QProcess cli;
        cli.start(QString::fromUtf8(SB_CLI),
                  smallRun(url, m_dir.filePath(tag + u".sbproj"_s)) +
                      QStringList{u"--server-start-cmd"_s,
                                  u"echo $$ > %1; exec sleep 120"_s.arg(pidFile),
                                  u"--server-start-timeout"_s, u"100"_s});
        QVERIFY(cli.waitForStarted());
        // The server is up (its pid written), the CLI waits for its health.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(pidFile).size() > 0, 20000);
        QFile f(pidFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const int pid = f.readAll().trimmed().toInt();
        QVERIFY(pid > 0 && QFile::exists(u"/proc/%1"_s.arg(pid)));
        cli.terminate(); // SIGTERM, as a supervisor or Ctrl+C would
        QVERIFY(cli.waitForFinished(30000));
        QVERIFY(cli.exitCode() != 0);
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.contains(u"cancelled"_s), qPrintable(err));
        QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(u"/proc/%1"_s.arg(pid)), 5000);
    }

    // A step after the server became healthy fails (a dataset file that is not there): the
    // server is stopped, not left, and its log is stored with how it ended.
    void laterFailureStopsTheServer()
    {
        const QString tag = marker();
        const quint16 port = freePort();
        const QString url = u"http://127.0.0.1:%1"_s.arg(port);
        const QString project = m_dir.filePath(tag + u".sbproj"_s);
        const CliResult r = runCli(
            {u"run"_s, u"--base-url"_s, url, u"--dataset-name"_s, u"custom"_s,
             u"--dataset-path"_s, m_dir.filePath(u"not-there.jsonl"_s), u"--project"_s, project,
             u"--server-start-cmd"_s,
             u"exec %1 simulate --port %2 --model %3"_s.arg(cli()).arg(port).arg(tag)});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(u"dataset-path"_s), qPrintable(r.err));
        QVERIFY(processesWith(tag).isEmpty());
        const QList<StoredServerLog> logs = serverLogs(project);
        QCOMPARE(logs.size(), 1);
        QCOMPARE(logs.first().info.value(u"state"_s).toString(), u"stopped"_s);
        QCOMPARE(logs.first().info.value(u"processes_left"_s).toBool(true), false);
    }

    void refusesAPortAlreadyServed()
    {
        SimProcess other({u"--duration"_s, u"300"_s});
        QVERIFY(!other.url.isEmpty());
        const QString tag = marker();
        const CliResult r = runCli(smallRun(other.url, m_dir.filePath(tag + u".sbproj"_s)) +
                                   QStringList{u"--server-start-cmd"_s,
                                               u"echo %1; exec sleep 60"_s.arg(tag)});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(u"already answers"_s), qPrintable(r.err));
        QVERIFY(processesWith(tag).isEmpty()); // never started
    }

    void lifetimeRunRestartsAndStopCommandIsUsed()
    {
        const QString tag = marker();
        const quint16 port = freePort();
        const QString url = u"http://127.0.0.1:%1"_s.arg(port);
        const QString pidFile = m_dir.filePath(tag + u".pid"_s);
        const QString stopped = m_dir.filePath(tag + u".stopped"_s);
        const QString project = m_dir.filePath(tag + u".sbproj"_s);
        const QString start = u"echo $$ > %1; exec %2 simulate --port %3 --model %4"_s
                                  .arg(pidFile, cli())
                                  .arg(port)
                                  .arg(tag);
        const QString stop = u"echo x >> %1; kill $(cat %2)"_s.arg(stopped, pidFile);
        const CliResult r = runCli(
            smallRun(url, project) + QStringList{u"--num-runs"_s, u"2"_s, u"--server-start-cmd"_s,
                                                 start, u"--server-stop-cmd"_s, stop,
                                                 u"--server-lifetime"_s, u"run"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY(processesWith(tag).isEmpty());
        const QList<RunInfo> runs = storedRuns(project);
        QCOMPARE(runs.size(), 2);
        const QString first =
            runs.at(0).snapshot.value(u"managed_server"_s).toObject().value(u"instance"_s).toString();
        const QString second =
            runs.at(1).snapshot.value(u"managed_server"_s).toObject().value(u"instance"_s).toString();
        QVERIFY(!first.isEmpty() && !second.isEmpty());
        QVERIFY(first != second);
        const QList<StoredServerLog> logs = serverLogs(project);
        QCOMPARE(logs.size(), 2);
        for (const StoredServerLog &l : logs)
            QCOMPARE(l.info.value(u"stop"_s).toString(), u"stop command"_s);
        QFile f(stopped);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count('x'), 2); // once per server
    }

    // A study whose second candidate's server exits during start-up: its cells fail with the
    // output, the first candidate's cells run (its server kept up across its cells, restarted once
// per repeat block).
    void studyCellFailsWithOutputOthersRun()
    {
        const QString tag = marker();
        const quint16 goodPort = freePort();
        const QString project = m_dir.filePath(tag + u".sbproj"_s);
        const QString defPath = m_dir.filePath(tag + u".study.json"_s);
        const QJsonObject cost{{u"source"_s, u"price_per_hour"_s},
                               {u"price_per_hour"_s, u"1.00"_s},
                               {u"currency"_s, u"USD"_s}};
        const QJsonObject def{
            {u"name"_s, u"managed"_s},
            {u"question"_s, u"does the managed candidate serve?"_s},
            {u"repeats"_s, 2},
            {u"seed"_s, 3},
            {u"boundary"_s,
             QJsonObject{{u"model"_s, tag},
                         {u"dataset"_s,
                          QJsonObject{{u"flags"_s,
                                       QJsonArray{u"--dataset-name"_s, u"random"_s,
                                                  u"--random-input-len"_s, u"16"_s,
                                                  u"--random-output-len"_s, u"3"_s}}}},
                         {u"cache_policy"_s, u"restart"_s}}},
            {u"candidates"_s,
             QJsonArray{
                 QJsonObject{{u"name"_s, u"good"_s},
                             {u"cost"_s, cost},
                             {u"base_url"_s, u"http://127.0.0.1:%1"_s.arg(goodPort)},
                             {u"flags"_s,
                              QJsonArray{u"--server-start-cmd"_s,
                                         u"exec %1 simulate --port %2 --model %3 --prefix-cache"_s
                                             .arg(cli())
                                             .arg(goodPort)
                                             .arg(tag),
                                         u"--server-lifetime"_s, u"candidate"_s}}},
                 QJsonObject{{u"name"_s, u"broken"_s},
                             {u"cost"_s, cost},
                             {u"base_url"_s, u"http://127.0.0.1:%1"_s.arg(freePort())},
                             {u"flags"_s,
                              QJsonArray{u"--server-start-cmd"_s,
                                         u": %1; echo 'model file not found' >&2; exit 2"_s.arg(
                                             tag)}}}}},
            {u"scenarios"_s,
             QJsonArray{
                 QJsonObject{{u"name"_s, u"a"_s},
                             {u"kind"_s, u"open-loop"_s},
                             {u"flags"_s, QJsonArray{u"--num-prompts"_s, u"4"_s}}},
                 QJsonObject{{u"name"_s, u"b"_s},
                             {u"kind"_s, u"open-loop"_s},
                             {u"flags"_s, QJsonArray{u"--num-prompts"_s, u"4"_s,
                                                     u"--max-concurrency"_s, u"1"_s}}}}},
        };
        QFile f(defPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(def).toJson());
        f.close();
        const CliResult r =
            runCli({u"study"_s, u"run"_s, defPath, u"--project"_s, project}, 300000);
        QVERIFY2(r.code == 0 || r.code == 1, qPrintable(r.describe()));
        QVERIFY(processesWith(tag).isEmpty());
        const CliResult status =
            runCli({u"study"_s, u"status"_s, u"managed"_s, u"--project"_s, project});
        QVERIFY2(status.code == 0, qPrintable(status.describe()));
        // good: 2 scenarios x 2 repeats
        QVERIFY2(status.out.count(u"completed  attempts"_s) == 4, qPrintable(status.out));
        QVERIFY2(status.out.count(u"model file not found"_s) >= 1, qPrintable(status.out));
        // The good candidate's server (--server-lifetime candidate): kept up across its cells,
        // the broken candidate's cells between them, and started afresh once per repeat block
        // (cache policy "restart"), so two starts serve its four cells; the broken one's every
        // try is stored with its output.
        const QList<StoredServerLog> logs = serverLogs(project);
        int good = 0, broken = 0;
        for (const StoredServerLog &l : logs) {
            if (l.sut == "good"_L1)
                ++good;
            else if (l.sut == "broken"_L1 && l.output.contains("model file not found"))
                ++broken;
        }
        QCOMPARE(good, 2);
        QCOMPARE(broken, 4);
        const QList<RunInfo> runs = storedRuns(project);
        QCOMPARE(runs.size(), 4);
        QSet<QString> instances;
        for (const RunInfo &run : runs)
            instances << run.snapshot.value(u"managed_server"_s)
                             .toObject()
                             .value(u"instance"_s)
                             .toString();
        QCOMPARE(instances.size(), 2);
        // The study's bundle carries every start's output, the failed ones too.
        const QString bundle = m_dir.filePath(tag + u"-bundle"_s);
        const CliResult b = runCli({u"study"_s, u"bundle"_s, u"managed"_s, u"--project"_s,
                                    project, u"--out"_s, bundle});
        QVERIFY2(b.code == 0, qPrintable(b.describe()));
        const QStringList files =
            QDir(bundle + u"/study/managed-servers"_s).entryList({u"*.log"_s}, QDir::Files);
        QCOMPARE(files.filter(u"good-"_s).size(), 2);
        QCOMPARE(files.filter(u"broken-"_s).size(), 4);
        QFile failed(bundle + u"/study/managed-servers/"_s + files.filter(u"broken-"_s).first());
        QVERIFY(failed.open(QIODevice::ReadOnly));
        QVERIFY(failed.readAll().contains("model file not found"));
    }
};

QTEST_GUILESS_MAIN(TestManagedServer)
#include "tst_managedserver.moc"
