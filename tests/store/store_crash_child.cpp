// Helper process for the store tests. Modes:
//   write <file>             writes one run forever, printing "run <id>" and "committed <n>"
//                            after each commit, until the test kills it (kill -9)
//   open <file> <rw|ro> [--as-nobody]
//                            opens the project and prints "ok <runs>" or "refused <message>";
//                            --as-nobody drops root first, so file permissions apply
//   make-v1 <file>           writes a real schema-version-1 project (the migration fixture)

#include "recordfactory.h"
#include "store/projectschema.h"
#include "store/projectstore.h"
#include "store/requestrows.h"
#include "store/runwriter.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QThread>
#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

void say(const QString &line)
{
    std::fputs(line.toUtf8().constData(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

int writeForever(const QString &path)
{
    ProjectStore store;
    if (!store.open(path)) {
        say(u"refused "_s + store.lastError());
        return 2;
    }
    store.close();
    RunWriter writer;
    RunWriter::Options options;
    options.maxBatch = 64;
    options.maxDelayMs = 20;
    QString error;
    if (!writer.open(path, options, &error)) {
        say(u"refused "_s + error);
        return 2;
    }
    RunInfo meta;
    meta.name = u"crash"_s;
    meta.metricDefinitionsVersion = u"1"_s;
    const qint64 id = writer.beginRun(QJsonObject{{u"name"_s, u"crash"_s}}, meta, &error);
    if (id == 0) {
        say(u"refused "_s + error);
        return 2;
    }
    say(u"run %1"_s.arg(id));
    qint64 reported = 0;
    for (qint64 i = 0;; ++i) {
        writer.append(testing::makeRecord(i));
        if (i % 16 == 0) {
            const qint64 c = writer.committedCount();
            if (c != reported) {
                reported = c;
                say(u"committed %1"_s.arg(c));
            }
            QThread::usleep(200);
        }
    }
}

int openOnly(const QString &path, bool readWrite, bool asNobody)
{
    if (asNobody && geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) {
        say(u"error cannot drop privileges"_s);
        return 3;
    }
    ProjectStore store;
    if (!store.open(path, readWrite ? ProjectStore::OpenMode::ReadWrite
                                    : ProjectStore::OpenMode::ReadOnly)) {
        say(u"refused "_s + store.lastError());
        return 1;
    }
    say(u"ok %1"_s.arg(store.listRuns().size()));
    if (readWrite) {
        RunWriter writer;
        QString error;
        if (!writer.open(path, &error)) {
            say(u"writer-refused "_s + error);
            return 1;
        }
    }
    return 0;
}

// Version 1 is frozen: the statements that made this file never change, so the file is what a
// v1 build wrote. Rows go in with plain SQL because the v1 build's writer is gone.
int makeV1(const QString &path)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"v1"_s);
        db.setDatabaseName(path);
        if (!db.open())
            return 2;
        QSqlQuery(db).exec(u"PRAGMA journal_mode = WAL"_s);
        QString error;
        if (!ProjectSchema::migrate(db, 0, 1, &error)) {
            say(error);
            return 2;
        }
        QSqlQuery q(db);
        q.exec(u"INSERT INTO suts (id, name, model, config_json, created_utc, updated_utc) VALUES "
               "(1, 'v1-sut', 'm', '{\"name\":\"v1-sut\",\"model\":\"m\"}', "
               "'2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')"_s);
        q.exec(u"INSERT INTO runs (id, name, sut_id, status, snapshot_json, tool_version, host, "
               "metric_definitions_version, started_utc, ended_utc, started_mono_ns, "
               "ended_mono_ns, request_count) VALUES (1, 'v1-run', 1, 'completed', "
               "'{\"name\":\"v1-run\"}', '0.1.0', 'fixture-host', '1', "
               "'2025-01-01T00:00:01.000Z', '2025-01-01T00:00:02.000Z', 5, 6, 40)"_s);
        db.transaction();
        QSqlQuery ins(db);
        ins.prepare(RequestRows::insertSql(false)); // version 1: no session columns
        for (qint64 i = 0; i < 40; ++i) {
            RequestRows::bind(ins, 1, testing::makeRecord(i), false);
            ins.exec();
        }
        db.commit();
        QSqlQuery(db).exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s);
        QSqlQuery(db).exec(u"PRAGMA journal_mode = DELETE"_s);
        QSqlQuery(db).exec(u"VACUUM"_s);
        QSqlQuery(db).exec(u"PRAGMA journal_mode = WAL"_s);
        db.close();
    }
    QSqlDatabase::removeDatabase(u"v1"_s);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() >= 3 && args[1] == "write"_L1)
        return writeForever(args[2]);
    if (args.size() >= 4 && args[1] == "open"_L1)
        return openOnly(args[2], args[3] == "rw"_L1, args.contains(u"--as-nobody"_s));
    if (args.size() >= 3 && args[1] == "make-v1"_L1)
        return makeV1(args[2]);
    say(u"usage: store_crash_child write|open|make-v1 <file> ..."_s);
    return 64;
}
