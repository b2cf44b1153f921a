#include "runwriter.h"

#include "common/clock.h"
#include "common/threadcensus.h"
#include "common/version.h"
#include "metrics/definitions.h"
#include "metrics/requestrecord.h"
#include "projectfile.h"
#include "projectschema.h"
#include "requestrows.h"
#include "runlock.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSysInfo>
#include <QThread>
#include <QVariant>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

std::atomic<int> g_writerSerial{0};

QString utcText(const QDateTime &t)
{
    return t.toUTC().toString(u"yyyy-MM-ddTHH:mm:ss.zzzZ"_s);
}

struct Result
{
    bool ok = false;
    qint64 id = 0;
    QString error;
};

struct Command
{
    enum Kind { Begin, Finish, Flush } kind = Flush;
    QJsonObject json; // snapshot or summary
    RunInfo meta;
    StoredRunStatus status = StoredRunStatus::Completed;
    QString message;
    QDateTime endedUtc;
    qint64 endedMonoNs = 0;
    std::promise<Result> done;
};

} // namespace

struct RunWriter::State
{
    QString path;
    Options options;
    std::mutex mutex;
    std::condition_variable wake;
    QList<RequestRecord> queue;
    QElapsedTimer oldest; // since the first record of the current queue arrived
    std::deque<std::unique_ptr<Command>> commands;
    bool stop = false;
    QString error; // the first write failure, under mutex
    std::promise<Result> opened;

    // Writer-thread only.
    QString connection;
    qint64 runId = 0;
    RunLock lock; // held from the run's insert until its end is stored
    std::unique_ptr<QSqlQuery> insert;
};

RunWriter::RunWriter(QObject *parent) : QObject(parent) {}

RunWriter::~RunWriter()
{
    close();
}

bool RunWriter::open(const QString &path, QString *error)
{
    return open(path, Options{}, error);
}

bool RunWriter::open(const QString &path, const Options &options, QString *error)
{
    close();
    // Probe before SQLite writes anything (even "journal_mode = WAL" rewrites the header): a
    // file that is not a current project must leave here untouched.
    const ProjectFile::Probe probe = ProjectFile::probe(path);
    QString refusal;
    if (probe.state != ProjectFile::State::Project)
        refusal = probe.message.isEmpty()
                      ? u"%1: not a ServeBench project (open or create it with the project store "
                        "first)"_s.arg(QFileInfo(path).fileName())
                      : probe.message;
    else if (probe.version != ProjectSchema::currentVersion())
        refusal = u"%1: project schema version %2, expected %3 (open it with the project store "
                  "first, which upgrades it)"_s.arg(QFileInfo(path).fileName())
                      .arg(probe.version)
                      .arg(ProjectSchema::currentVersion());
    else if (!probe.writable)
        refusal = u"%1: the project file is read-only (or its folder is)"_s.arg(
            QFileInfo(path).fileName());
    if (!refusal.isEmpty()) {
        if (error)
            *error = refusal;
        return false;
    }
    m_failed = false;
    m_committed = 0;
    m_dropped = 0;
    m_batches = 0;
    m_state = std::make_unique<State>();
    m_state->path = path;
    m_state->options = options;
    m_state->options.maxBatch = qMax(1, options.maxBatch);
    m_state->options.maxDelayMs = qBound(1, options.maxDelayMs, 1000);
    auto opened = m_state->opened.get_future();
    m_thread = QThread::create([this] { threadMain(); });
    m_thread->setObjectName(u"sb-run-writer"_s);
    m_thread->start();
    const Result r = opened.get();
    if (!r.ok) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
        m_state.reset();
        if (error)
            *error = r.error;
        return false;
    }
    return true;
}

bool RunWriter::isOpen() const
{
    return m_thread != nullptr;
}

void RunWriter::close()
{
    if (!m_thread)
        return;
    {
        std::lock_guard lock(m_state->mutex);
        m_state->stop = true;
    }
    m_state->wake.notify_one();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_state.reset();
    m_activeRun = 0;
}

QString RunWriter::errorString() const
{
    if (!m_state)
        return {};
    std::lock_guard lock(m_state->mutex);
    return m_state->error;
}

qint64 RunWriter::queuedCount() const
{
    if (!m_state)
        return 0;
    std::lock_guard lock(m_state->mutex);
    return m_state->queue.size();
}

void RunWriter::append(const RequestRecord &record)
{
    if (!m_state || m_activeRun.load() == 0 || m_failed.load()) {
        ++m_dropped;
        return;
    }
    bool wakeNow = false;
    {
        std::lock_guard lock(m_state->mutex);
        if (m_state->queue.isEmpty())
            m_state->oldest.start();
        m_state->queue.append(record);
        // The writer sleeps until the oldest record is due; only a full batch wakes it early,
        // so append() costs a lock and a copy, not a context switch per record.
        wakeNow = m_state->queue.size() == 1 || m_state->queue.size() >= m_state->options.maxBatch;
    }
    if (wakeNow)
        m_state->wake.notify_one();
}

namespace {
Result submit(std::mutex &mutex, std::condition_variable &wake,
              std::deque<std::unique_ptr<Command>> &commands, std::unique_ptr<Command> cmd)
{
    auto result = cmd->done.get_future();
    {
        std::lock_guard lock(mutex);
        commands.push_back(std::move(cmd));
    }
    wake.notify_one();
    return result.get();
}
} // namespace

qint64 RunWriter::beginRun(const QJsonObject &snapshot, const RunInfo &meta, QString *error)
{
    if (!m_state) {
        if (error)
            *error = u"the run writer is not open"_s;
        return 0;
    }
    auto cmd = std::make_unique<Command>();
    cmd->kind = Command::Begin;
    cmd->json = snapshot;
    cmd->meta = meta;
    const Result r = submit(m_state->mutex, m_state->wake, m_state->commands, std::move(cmd));
    if (!r.ok) {
        if (error)
            *error = r.error;
        return 0;
    }
    m_committed = 0;
    m_activeRun = r.id;
    return r.id;
}

bool RunWriter::flush(QString *error)
{
    if (!m_state) {
        if (error)
            *error = u"the run writer is not open"_s;
        return false;
    }
    auto cmd = std::make_unique<Command>();
    cmd->kind = Command::Flush;
    const Result r = submit(m_state->mutex, m_state->wake, m_state->commands, std::move(cmd));
    if (!r.ok && error)
        *error = r.error;
    return r.ok;
}

bool RunWriter::finishRun(StoredRunStatus status, const QJsonObject &summary,
                          const QString &message, const QDateTime &endedUtc, qint64 endedMonoNs,
                          QString *error)
{
    if (!m_state || m_activeRun.load() == 0) {
        if (error)
            *error = u"no run is being written"_s;
        return false;
    }
    auto cmd = std::make_unique<Command>();
    cmd->kind = Command::Finish;
    cmd->json = summary;
    cmd->status = status;
    cmd->message = message;
    cmd->endedUtc = endedUtc.isValid() ? endedUtc : QDateTime::currentDateTimeUtc();
    cmd->endedMonoNs = endedMonoNs > 0 ? endedMonoNs : monotonicNs();
    const Result r = submit(m_state->mutex, m_state->wake, m_state->commands, std::move(cmd));
    m_activeRun = 0;
    if (!r.ok && error)
        *error = r.error;
    return r.ok;
}

// --- the writer thread ------------------------------------------------------------------------

void RunWriter::threadMain()
{
    State &s = *m_state;
    // It takes every record of a run: sampled through the run with the client's other threads
    // (docs/performance.md, "The client checks itself").
    enrollThisThread(u"store-writer"_s);
    s.connection = u"sb-run-writer-%1"_s.arg(++g_writerSerial);
    const QString file = QFileInfo(s.path).fileName();

    auto sqlFail = [&](const QSqlError &e) {
        return ProjectFile::describe(e);
    };

    // Records a write failure once: the run is marked failed (best effort: on a full disk the
    // rollback usually frees enough for this one small update) and the owner is told.
    auto recordFailure = [&](const QString &what) {
        QString message = u"%1: %2"_s.arg(file, what);
        {
            std::lock_guard lock(s.mutex);
            if (!s.error.isEmpty())
                return;
            s.error = message;
        }
        m_failed = true;
        if (s.runId > 0) {
            QSqlQuery q(QSqlDatabase::database(s.connection, false));
            q.prepare(u"UPDATE runs SET status = 'failed', status_message = ?, ended_utc = "
                      "coalesce(last_commit_utc, started_utc) WHERE id = ?"_s);
            q.addBindValue(u"storing the run stopped: %1; the %2 requests committed before are "
                           "kept"_s.arg(what)
                               .arg(m_committed.load()));
            q.addBindValue(s.runId);
            q.exec();
        }
        emit writeFailed(message);
    };

    QString error;
    bool ok = ProjectFile::openConnection(s.connection, s.path, false, &error);
    if (ok) {
        QSqlQuery q(QSqlDatabase::database(s.connection, false));
        // The writer never migrates: two places upgrading one file is one too many.
        if (!q.exec(u"SELECT (SELECT application_id FROM pragma_application_id), "
                    "(SELECT user_version FROM pragma_user_version)"_s) ||
            !q.next()) {
            ok = false;
            error = sqlFail(q.lastError());
        } else if (q.value(0).toInt() != ProjectSchema::applicationId ||
                   q.value(1).toInt() != ProjectSchema::currentVersion()) {
            ok = false;
            error = u"not a ServeBench project at schema version %1 (open it with the project "
                    "store first)"_s.arg(ProjectSchema::currentVersion());
        }
        if (ok && s.options.maxPageCount > 0)
            q.exec(u"PRAGMA max_page_count = %1"_s.arg(s.options.maxPageCount));
    }
    if (ok) {
        s.insert = std::make_unique<QSqlQuery>(QSqlDatabase::database(s.connection, false));
        if (!s.insert->prepare(RequestRows::insertSql())) {
            ok = false;
            error = sqlFail(s.insert->lastError());
        }
    }
    if (!ok) {
        s.insert.reset();
        ProjectFile::closeConnection(s.connection);
        s.opened.set_value({false, 0, u"%1: %2"_s.arg(file, error)});
        return;
    }
    s.opened.set_value({true, 0, {}});
    QSqlDatabase db = QSqlDatabase::database(s.connection, false);

    auto writeBatch = [&](const QList<RequestRecord> &batch) {
        if (batch.isEmpty() || m_failed.load())
            return;
        if (s.runId == 0) {
            m_dropped += batch.size();
            return;
        }
        QString why;
        if (!db.transaction()) {
            recordFailure(sqlFail(db.lastError()));
            m_dropped += batch.size();
            return;
        }
        for (const RequestRecord &r : batch) {
            RequestRows::bind(*s.insert, s.runId, r);
            if (!s.insert->exec()) {
                why = u"storing request %1 failed: %2"_s.arg(r.index).arg(
                    sqlFail(s.insert->lastError()));
                break;
            }
        }
        if (why.isEmpty()) {
            QSqlQuery u(db);
            u.prepare(u"UPDATE runs SET request_count = request_count + ?, last_commit_utc = ? "
                      "WHERE id = ?"_s);
            u.addBindValue(qint64(batch.size()));
            u.addBindValue(utcText(QDateTime::currentDateTimeUtc()));
            u.addBindValue(s.runId);
            if (!u.exec())
                why = sqlFail(u.lastError());
        }
        if (why.isEmpty() && !db.commit())
            why = sqlFail(db.lastError());
        if (!why.isEmpty()) {
            db.rollback();
            m_dropped += batch.size();
            recordFailure(why);
            return;
        }
        m_committed += batch.size();
        ++m_batches;
    };

    auto execute = [&](Command &c) {
        Result r;
        switch (c.kind) {
        case Command::Flush:
            r.ok = !m_failed.load();
            break;
        case Command::Begin: {
            const RunInfo &m = c.meta;
            QSqlQuery q(db);
            q.prepare(u"INSERT INTO runs (name, sut_id, dataset_id, profile_id, sweep_id, "
                      "sweep_position, status, snapshot_json, tool_version, host, "
                      "metric_definitions_version, started_utc, started_mono_ns, writer_pid, "
                      "last_commit_utc) VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, "
                      "?)"_s);
            auto idOrNull = [](qint64 id) {
                return id > 0 ? QVariant(id) : QVariant(QMetaType(QMetaType::LongLong));
            };
            const QDateTime started =
                m.startedUtc.isValid() ? m.startedUtc : QDateTime::currentDateTimeUtc();
            q.addBindValue(m.name.isNull() ? u""_s : m.name);
            q.addBindValue(idOrNull(m.sutId));
            q.addBindValue(idOrNull(m.datasetId));
            q.addBindValue(idOrNull(m.profileId));
            q.addBindValue(idOrNull(m.sweepId));
            q.addBindValue(m.sweepPosition >= 0 ? QVariant(m.sweepPosition)
                                                : QVariant(QMetaType(QMetaType::Int)));
            q.addBindValue(QString::fromUtf8(
                QJsonDocument(scrubSecrets(c.json)).toJson(QJsonDocument::Compact)));
            q.addBindValue(m.toolVersion.isEmpty() ? QString::fromLatin1(toolVersion())
                                                   : m.toolVersion);
            q.addBindValue(m.host.isEmpty() ? QSysInfo::machineHostName() : m.host);
            q.addBindValue(m.metricDefinitionsVersion.isEmpty()
                               ? QString::number(kMetricDefinitionsVersion)
                               : m.metricDefinitionsVersion);
            q.addBindValue(utcText(started));
            q.addBindValue(m.startedMonoNs > 0 ? m.startedMonoNs : monotonicNs());
            q.addBindValue(QCoreApplication::applicationPid());
            q.addBindValue(utcText(started));
            // The run's lock is taken before its row becomes visible (inside the insert's
            // transaction), so no reader ever sees it 'running' without a live writer.
            QString lockError;
            if (m_failed.load()) {
                r.error = u"an earlier write failed"_s;
            } else if (!db.transaction()) {
                r.error = u"%1: creating the run failed: %2"_s.arg(file, sqlFail(db.lastError()));
            } else if (!q.exec()) {
                r.error = u"%1: creating the run failed: %2"_s.arg(file, sqlFail(q.lastError()));
                db.rollback();
            } else if (!s.lock.acquire(s.path, q.lastInsertId().toLongLong(), &lockError)) {
                r.error = u"%1: creating the run failed: %2"_s.arg(file, lockError);
                db.rollback();
            } else if (!db.commit()) {
                r.error = u"%1: creating the run failed: %2"_s.arg(file, sqlFail(db.lastError()));
                db.rollback();
                s.lock.release();
            } else {
                r.ok = true;
                r.id = s.lock.runId();
                s.runId = r.id;
            }
            break;
        }
        case Command::Finish: {
            if (s.runId == 0) {
                r.error = u"no run is being written"_s;
                break;
            }
            if (m_failed.load()) {
                std::lock_guard lock(s.mutex);
                r.error = s.error;
            } else {
                QSqlQuery q(db);
                q.prepare(u"UPDATE runs SET status = ?, status_message = ?, summary_json = ?, "
                          "ended_utc = ?, ended_mono_ns = ?, writer_pid = NULL WHERE id = ?"_s);
                q.addBindValue(QString::fromLatin1(storedRunStatusName(c.status)));
                q.addBindValue(c.message.isNull() ? u""_s : c.message);
                q.addBindValue(QString::fromUtf8(
                    QJsonDocument(scrubSecrets(c.json)).toJson(QJsonDocument::Compact)));
                q.addBindValue(utcText(c.endedUtc));
                q.addBindValue(c.endedMonoNs);
                q.addBindValue(s.runId);
                if (q.exec()) {
                    r.ok = true;
                } else {
                    r.error =
                        u"%1: storing the run's end failed: %2"_s.arg(file, sqlFail(q.lastError()));
                    recordFailure(sqlFail(q.lastError()));
                }
            }
            s.runId = 0;
            s.lock.release();
            break;
        }
        }
        c.done.set_value(r);
    };

    for (;;) {
        QList<RequestRecord> batch;
        std::deque<std::unique_ptr<Command>> commands;
        bool stop = false;
        {
            std::unique_lock lock(s.mutex);
            for (;;) {
                if (s.stop || !s.commands.empty() || s.queue.size() >= s.options.maxBatch)
                    break;
                if (s.queue.isEmpty()) {
                    s.wake.wait(lock);
                    continue;
                }
                const qint64 waitMs = s.options.maxDelayMs - s.oldest.elapsed();
                if (waitMs <= 0)
                    break;
                s.wake.wait_for(lock, std::chrono::milliseconds(waitMs));
            }
            batch.swap(s.queue);
            commands.swap(s.commands);
            stop = s.stop;
        }
        // Records first: every record appended before a command was issued lands before it.
        for (qsizetype i = 0; i < batch.size(); i += s.options.maxBatch)
            writeBatch(batch.mid(i, s.options.maxBatch));
        for (auto &c : commands)
            execute(*c);
        if (stop)
            break;
    }

    if (s.runId > 0 && !m_failed.load()) {
        QSqlQuery q(db);
        q.prepare(u"UPDATE runs SET status = 'interrupted', status_message = 'the writer was "
                  "closed before the run finished', ended_utc = ?, ended_mono_ns = ?, "
                  "writer_pid = NULL WHERE id = ?"_s);
        q.addBindValue(utcText(QDateTime::currentDateTimeUtc()));
        q.addBindValue(monotonicNs());
        q.addBindValue(s.runId);
        q.exec();
    }
    s.lock.release();
    s.insert.reset();
    db = QSqlDatabase();
    ProjectFile::closeConnection(s.connection);
}

} // namespace sb
