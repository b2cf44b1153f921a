#include "projectstore.h"

#include "metrics/requestrecord.h"
#include "projectschema.h"
#include "requestrows.h"
#include "runlock.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>
#include <memory>
#include <sqlite3.h>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

int g_connectionSerial = 0;

QVariant utcText(const QDateTime &t)
{
    if (!t.isValid())
        return QVariant(QMetaType(QMetaType::QString));
    return t.toUTC().toString(u"yyyy-MM-ddTHH:mm:ss.zzzZ"_s);
}

// NOT NULL text columns take "" for a null QString.
QString text(const QString &s)
{
    return s.isNull() ? u""_s : s;
}

QDateTime utcFrom(const QVariant &v)
{
    if (v.isNull())
        return {};
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    return t.isValid() ? t.toUTC() : QDateTime();
}

QString jsonText(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QJsonObject jsonFrom(const QVariant &v)
{
    return QJsonDocument::fromJson(v.toString().toUtf8()).object();
}

QVariant idOrNull(qint64 id)
{
    return id > 0 ? QVariant(id) : QVariant(QMetaType(QMetaType::LongLong));
}

// Marks a run stored as 'running' whose writer is gone: what every reader shows, and what a
// read-write open stores. The same words either way.
const char *const kGoneMessageSql =
    "'the run was not finished (the program was stopped or crashed); ' || request_count || "
    "' requests were recorded'";

QString goneMessage(qint64 requestCount)
{
    return u"the run was not finished (the program was stopped or crashed); %1 requests were "
           "recorded"_s.arg(requestCount);
}

} // namespace

ProjectStore::ProjectStore() = default;

ProjectStore::~ProjectStore()
{
    close();
}

QSqlDatabase ProjectStore::db() const
{
    return QSqlDatabase::database(m_connection, false);
}

bool ProjectStore::isOpen() const
{
    return !m_connection.isEmpty() && db().isOpen();
}

bool ProjectStore::fail(const QString &message) const
{
    m_error = message;
    return false;
}

bool ProjectStore::writable() const
{
    if (!isOpen())
        return fail(u"no project is open"_s);
    if (m_readOnly)
        return fail(u"%1 is open read-only"_s.arg(QFileInfo(m_path).fileName()));
    return true;
}

void ProjectStore::close()
{
    if (m_connection.isEmpty())
        return;
    ProjectFile::closeConnection(m_connection);
    m_connection.clear();
}

bool ProjectStore::open(const QString &path, OpenMode mode)
{
    close();
    m_error.clear();
    m_interrupted.clear();
    m_path = path;
    m_readOnly = mode == OpenMode::ReadOnly;
    m_version = 0;
    m_migratedFrom = 0;

    const ProjectFile::Probe probe = ProjectFile::probe(path);
    m_openState = probe.state;
    const QString file = QFileInfo(path).fileName();
    switch (probe.state) {
    case ProjectFile::State::Newer:
    case ProjectFile::State::Foreign:
    case ProjectFile::State::Corrupt:
    case ProjectFile::State::Unreadable:
        return fail(probe.message);
    case ProjectFile::State::Missing:
    case ProjectFile::State::Empty:
        if (m_readOnly)
            return fail(u"%1: %2, nothing to open read-only"_s.arg(
                file, probe.state == ProjectFile::State::Missing ? u"no such file"_s
                                                                 : u"the file is empty"_s));
        if (!probe.writable)
            return fail(probe.message.isEmpty()
                            ? u"%1: the file or its folder is read-only"_s.arg(file)
                            : probe.message);
        break;
    case ProjectFile::State::Project:
        if (!m_readOnly && !probe.writable)
            return fail(u"%1: the project file is read-only (or its folder is): ServeBench needs "
                        "to write the file and its -wal/-shm beside it; open it read-only to view "
                        "its runs"_s.arg(file));
        if (m_readOnly && probe.version < ProjectSchema::minimumReadableVersion())
            return fail(u"%1: project schema version %2 must be upgraded; open it read-write "
                        "once"_s.arg(file)
                            .arg(probe.version));
        break;
    }

    m_connection = u"sb-project-%1"_s.arg(++g_connectionSerial);
    QString error;
    // A read-only view of a file in a folder we cannot write cannot create the -shm; with no
    // -wal pending nobody is writing it, so SQLite may treat it as immutable.
    const bool immutable = m_readOnly && !probe.writable && !probe.walPending;
    if (!ProjectFile::openConnection(m_connection, path, m_readOnly, &error, immutable)) {
        close();
        return fail(u"%1: %2"_s.arg(file, error));
    }
    m_version = probe.version;
    m_migratedFrom = probe.version;
    if (!m_readOnly) {
        QSqlDatabase d = db();
        if (!ProjectSchema::migrate(d, m_version, ProjectSchema::currentVersion(), &error)) {
            close();
            return fail(u"%1: upgrading the project from schema version %2 failed: %3"_s.arg(
                file, QString::number(m_migratedFrom), error));
        }
        m_version = ProjectSchema::currentVersion();
        if (!markInterruptedRuns()) {
            const QString why = m_error;
            close();
            return fail(u"%1: %2"_s.arg(file, why));
        }
    }
    return true;
}

bool ProjectStore::markInterruptedRuns()
{
    QSqlQuery q(db());
    if (!q.exec(u"SELECT id FROM runs WHERE status = 'running'"_s))
        return fail(ProjectFile::describe(q.lastError()));
    QList<qint64> dead;
    while (q.next())
        if (RunLock::probe(m_path, q.value(0).toLongLong()) == RunLock::Writer::Gone)
            dead.append(q.value(0).toLongLong());
    q.finish();
    for (qint64 id : dead) {
        QSqlQuery u(db());
        u.prepare(u"UPDATE runs SET status = 'interrupted', "
                  "ended_utc = coalesce(last_commit_utc, started_utc), "
                  "status_message = %1 WHERE id = ? AND status = 'running'"_s.arg(
                      QLatin1StringView(kGoneMessageSql)));
        u.addBindValue(id);
        if (!u.exec())
            return fail(ProjectFile::describe(u.lastError()));
        m_interrupted.append(id);
    }
    return true;
}

// --- SUTs -------------------------------------------------------------------------------------

qint64 ProjectStore::saveSut(const StoredSut &sut)
{
    if (!writable())
        return 0;
    const SutConfig &c = sut.config;
    const QVariant now = utcText(QDateTime::currentDateTimeUtc());
    QSqlQuery q(db());
    if (sut.id > 0)
        q.prepare(u"UPDATE suts SET name = ?, model = ?, engine = ?, gpu_model = ?, gpu_count = ?, "
                  "base_url = ?, config_json = ?, updated_utc = ? WHERE id = ?"_s);
    else
        q.prepare(u"INSERT INTO suts (name, model, engine, gpu_model, gpu_count, base_url, "
                  "config_json, updated_utc, created_utc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    q.addBindValue(text(c.name));
    q.addBindValue(text(c.model));
    q.addBindValue(text(c.engine));
    q.addBindValue(text(c.gpuModel));
    q.addBindValue(c.gpuCount);
    q.addBindValue(text(c.baseUrl));
    q.addBindValue(jsonText(scrubSecrets(c.toJson())));
    q.addBindValue(now);
    q.addBindValue(sut.id > 0 ? QVariant(sut.id) : now);
    if (!q.exec())
        return fail(u"saving SUT '%1': %2"_s.arg(c.name, ProjectFile::describe(q.lastError())));
    if (sut.id > 0 && q.numRowsAffected() != 1)
        return fail(u"no SUT with id %1"_s.arg(sut.id));
    return sut.id > 0 ? sut.id : q.lastInsertId().toLongLong();
}

QList<StoredSut> ProjectStore::listSuts() const
{
    QList<StoredSut> out;
    QSqlQuery q(db());
    if (!q.exec(u"SELECT id, config_json, created_utc, updated_utc FROM suts ORDER BY name"_s)) {
        fail(ProjectFile::describe(q.lastError()));
        return out;
    }
    while (q.next()) {
        StoredSut s;
        s.id = q.value(0).toLongLong();
        s.config = SutConfig::fromJson(jsonFrom(q.value(1)));
        s.createdUtc = utcFrom(q.value(2));
        s.updatedUtc = utcFrom(q.value(3));
        out.append(s);
    }
    return out;
}

std::optional<StoredSut> ProjectStore::loadSut(qint64 id) const
{
    for (const StoredSut &s : listSuts())
        if (s.id == id)
            return s;
    fail(u"no SUT with id %1"_s.arg(id));
    return std::nullopt;
}

bool ProjectStore::deleteSut(qint64 id)
{
    if (!writable())
        return false;
    QSqlQuery q(db());
    q.prepare(u"DELETE FROM suts WHERE id = ?"_s);
    q.addBindValue(id);
    if (!q.exec())
        return fail(ProjectFile::describe(q.lastError()));
    return q.numRowsAffected() == 1 || fail(u"no SUT with id %1"_s.arg(id));
}

// --- datasets ---------------------------------------------------------------------------------

qint64 ProjectStore::saveDataset(const StoredDataset &d)
{
    if (!writable())
        return 0;
    const QVariant now = utcText(QDateTime::currentDateTimeUtc());
    QSqlQuery q(db());
    if (d.id > 0)
        q.prepare(u"UPDATE datasets SET name = ?, kind = ?, content_hash = ?, version_label = ?, "
                  "spec_json = ?, updated_utc = ? WHERE id = ?"_s);
    else
        q.prepare(u"INSERT INTO datasets (name, kind, content_hash, version_label, spec_json, "
                  "updated_utc, created_utc) VALUES (?, ?, ?, ?, ?, ?, ?)"_s);
    q.addBindValue(text(d.name));
    q.addBindValue(QString::fromLatin1(datasetKindName(d.spec.kind)));
    q.addBindValue(text(d.contentHash));
    q.addBindValue(text(d.spec.versionLabel));
    q.addBindValue(jsonText(scrubSecrets(d.spec.toJson())));
    q.addBindValue(now);
    q.addBindValue(d.id > 0 ? QVariant(d.id) : now);
    if (!q.exec())
        return fail(u"saving dataset '%1': %2"_s.arg(d.name, ProjectFile::describe(q.lastError())));
    if (d.id > 0 && q.numRowsAffected() != 1)
        return fail(u"no dataset with id %1"_s.arg(d.id));
    return d.id > 0 ? d.id : q.lastInsertId().toLongLong();
}

QList<StoredDataset> ProjectStore::listDatasets() const
{
    QList<StoredDataset> out;
    QSqlQuery q(db());
    if (!q.exec(u"SELECT id, name, content_hash, spec_json, created_utc, updated_utc "
                "FROM datasets ORDER BY name"_s)) {
        fail(ProjectFile::describe(q.lastError()));
        return out;
    }
    while (q.next()) {
        StoredDataset d;
        d.id = q.value(0).toLongLong();
        d.name = q.value(1).toString();
        d.contentHash = q.value(2).toString();
        d.spec = DatasetSpec::fromJson(jsonFrom(q.value(3)));
        d.createdUtc = utcFrom(q.value(4));
        d.updatedUtc = utcFrom(q.value(5));
        out.append(d);
    }
    return out;
}

std::optional<StoredDataset> ProjectStore::loadDataset(qint64 id) const
{
    for (const StoredDataset &d : listDatasets())
        if (d.id == id)
            return d;
    fail(u"no dataset with id %1"_s.arg(id));
    return std::nullopt;
}

bool ProjectStore::deleteDataset(qint64 id)
{
    if (!writable())
        return false;
    QSqlQuery q(db());
    q.prepare(u"DELETE FROM datasets WHERE id = ?"_s);
    q.addBindValue(id);
    if (!q.exec())
        return fail(ProjectFile::describe(q.lastError()));
    return q.numRowsAffected() == 1 || fail(u"no dataset with id %1"_s.arg(id));
}

// --- load profiles ----------------------------------------------------------------------------

qint64 ProjectStore::saveLoadProfile(const StoredLoadProfile &p)
{
    if (!writable())
        return 0;
    const QVariant now = utcText(QDateTime::currentDateTimeUtc());
    QSqlQuery q(db());
    if (p.id > 0)
        q.prepare(u"UPDATE load_profiles SET name = ?, scenario = ?, arrival = ?, "
                  "profile_json = ?, updated_utc = ? WHERE id = ?"_s);
    else
        q.prepare(u"INSERT INTO load_profiles (name, scenario, arrival, profile_json, "
                  "updated_utc, created_utc) VALUES (?, ?, ?, ?, ?, ?)"_s);
    q.addBindValue(text(p.name));
    q.addBindValue(QString::fromLatin1(scenarioName(p.profile.scenario)));
    q.addBindValue(QString::fromLatin1(arrivalName(p.profile.arrival)));
    QJsonObject profileJson = p.profile.toJson();
    profileJson[u"request_params"_s] = p.params.toJson();
    if (!p.execution.isEmpty())
        profileJson[u"execution"_s] = p.execution;
    q.addBindValue(jsonText(scrubSecrets(profileJson)));
    q.addBindValue(now);
    q.addBindValue(p.id > 0 ? QVariant(p.id) : now);
    if (!q.exec())
        return fail(
            u"saving load profile '%1': %2"_s.arg(p.name, ProjectFile::describe(q.lastError())));
    if (p.id > 0 && q.numRowsAffected() != 1)
        return fail(u"no load profile with id %1"_s.arg(p.id));
    return p.id > 0 ? p.id : q.lastInsertId().toLongLong();
}

QList<StoredLoadProfile> ProjectStore::listLoadProfiles() const
{
    QList<StoredLoadProfile> out;
    QSqlQuery q(db());
    if (!q.exec(u"SELECT id, name, profile_json, created_utc, updated_utc "
                "FROM load_profiles ORDER BY name"_s)) {
        fail(ProjectFile::describe(q.lastError()));
        return out;
    }
    while (q.next()) {
        StoredLoadProfile p;
        p.id = q.value(0).toLongLong();
        p.name = q.value(1).toString();
        const QJsonObject profileJson = jsonFrom(q.value(2));
        p.profile = LoadProfile::fromJson(profileJson);
        p.params = RequestParams::fromJson(profileJson.value(u"request_params"_s).toObject());
        p.execution = profileJson.value(u"execution"_s).toObject();
        p.createdUtc = utcFrom(q.value(3));
        p.updatedUtc = utcFrom(q.value(4));
        out.append(p);
    }
    return out;
}

std::optional<StoredLoadProfile> ProjectStore::loadLoadProfile(qint64 id) const
{
    for (const StoredLoadProfile &p : listLoadProfiles())
        if (p.id == id)
            return p;
    fail(u"no load profile with id %1"_s.arg(id));
    return std::nullopt;
}

bool ProjectStore::deleteLoadProfile(qint64 id)
{
    if (!writable())
        return false;
    QSqlQuery q(db());
    q.prepare(u"DELETE FROM load_profiles WHERE id = ?"_s);
    q.addBindValue(id);
    if (!q.exec())
        return fail(ProjectFile::describe(q.lastError()));
    return q.numRowsAffected() == 1 || fail(u"no load profile with id %1"_s.arg(id));
}

// --- sweeps -----------------------------------------------------------------------------------

qint64 ProjectStore::saveSweep(const StoredSweep &s)
{
    if (!writable())
        return 0;
    QSqlQuery q(db());
    if (s.id > 0)
        q.prepare(u"UPDATE sweeps SET name = ?, kind = ?, config_json = ? WHERE id = ?"_s);
    else
        q.prepare(u"INSERT INTO sweeps (name, kind, config_json, created_utc) "
                  "VALUES (?, ?, ?, ?)"_s);
    q.addBindValue(text(s.name));
    q.addBindValue(text(s.kind));
    q.addBindValue(jsonText(scrubSecrets(s.config)));
    q.addBindValue(s.id > 0 ? QVariant(s.id) : utcText(QDateTime::currentDateTimeUtc()));
    if (!q.exec())
        return fail(u"saving sweep '%1': %2"_s.arg(s.name, ProjectFile::describe(q.lastError())));
    if (s.id > 0 && q.numRowsAffected() != 1)
        return fail(u"no sweep with id %1"_s.arg(s.id));
    return s.id > 0 ? s.id : q.lastInsertId().toLongLong();
}

QList<StoredSweep> ProjectStore::listSweeps() const
{
    QList<StoredSweep> out;
    QSqlQuery q(db());
    if (!q.exec(u"SELECT id, name, kind, config_json, created_utc FROM sweeps ORDER BY id"_s)) {
        fail(ProjectFile::describe(q.lastError()));
        return out;
    }
    while (q.next()) {
        StoredSweep s;
        s.id = q.value(0).toLongLong();
        s.name = q.value(1).toString();
        s.kind = q.value(2).toString();
        s.config = jsonFrom(q.value(3));
        s.createdUtc = utcFrom(q.value(4));
        out.append(s);
    }
    return out;
}

bool ProjectStore::deleteSweep(qint64 id)
{
    if (!writable())
        return false;
    QSqlQuery q(db());
    q.prepare(u"DELETE FROM sweeps WHERE id = ?"_s);
    q.addBindValue(id);
    if (!q.exec())
        return fail(ProjectFile::describe(q.lastError()));
    return q.numRowsAffected() == 1 || fail(u"no sweep with id %1"_s.arg(id));
}

// --- runs -------------------------------------------------------------------------------------

namespace {
constexpr auto kRunColumns =
    "id, name, sut_id, dataset_id, profile_id, sweep_id, sweep_position, status, status_message, "
    "tool_version, host, metric_definitions_version, started_utc, ended_utc, started_mono_ns, "
    "ended_mono_ns, request_count, last_commit_utc, snapshot_json, summary_json"_L1;

RunInfo runFrom(const QSqlQuery &q, bool full)
{
    RunInfo r;
    int i = 0;
    r.id = q.value(i++).toLongLong();
    r.name = q.value(i++).toString();
    r.sutId = q.value(i++).toLongLong();
    r.datasetId = q.value(i++).toLongLong();
    r.profileId = q.value(i++).toLongLong();
    r.sweepId = q.value(i++).toLongLong();
    const QVariant pos = q.value(i++);
    r.sweepPosition = pos.isNull() ? -1 : pos.toInt();
    if (!storedRunStatusFromName(q.value(i++).toString(), &r.status))
        r.status = StoredRunStatus::Failed;
    r.statusMessage = q.value(i++).toString();
    r.toolVersion = q.value(i++).toString();
    r.host = q.value(i++).toString();
    r.metricDefinitionsVersion = q.value(i++).toString();
    r.startedUtc = utcFrom(q.value(i++));
    r.endedUtc = utcFrom(q.value(i++));
    r.startedMonoNs = q.value(i++).toLongLong();
    r.endedMonoNs = q.value(i++).toLongLong();
    r.requestCount = q.value(i++).toLongLong();
    r.lastCommitUtc = utcFrom(q.value(i++));
    if (full) {
        r.snapshot = jsonFrom(q.value(i++));
        r.summary = jsonFrom(q.value(i++));
    }
    return r;
}
} // namespace

QList<RunInfo> ProjectStore::queryRuns(const QString &where, const QVariantList &binds) const
{
    QList<RunInfo> out;
    QSqlQuery q(db());
    // listRuns never reads the JSON columns: snapshots of a big project add up.
    q.prepare(u"SELECT %1 FROM runs %2"_s.arg(
        QString(kRunColumns).replace(u", snapshot_json, summary_json"_s, u", NULL, NULL"_s),
        where));
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec()) {
        fail(ProjectFile::describe(q.lastError()));
        return out;
    }
    while (q.next()) {
        out.append(runFrom(q, false));
        applyLiveness(&out.last());
    }
    return out;
}

void ProjectStore::applyLiveness(RunInfo *run) const
{
    if (run->status != StoredRunStatus::Running)
        return;
    QString detail;
    switch (RunLock::probe(m_path, run->id, &detail)) {
    case RunLock::Writer::Alive:
        return;
    case RunLock::Writer::Unknown:
        run->statusMessage = u"cannot tell whether its writer is still running: %1"_s.arg(detail);
        return;
    case RunLock::Writer::Gone:
        run->status = StoredRunStatus::Interrupted;
        run->statusMessage = goneMessage(run->requestCount);
        run->endedUtc = run->lastCommitUtc.isValid() ? run->lastCommitUtc : run->startedUtc;
        return;
    }
}

QList<RunInfo> ProjectStore::listRuns(qint64 sweepId) const
{
    if (sweepId > 0)
        return queryRuns(u"WHERE sweep_id = ? ORDER BY sweep_position, id"_s, {sweepId});
    return queryRuns(u"ORDER BY started_utc, id"_s, {});
}

std::optional<RunInfo> ProjectStore::loadRun(qint64 runId) const
{
    QSqlQuery q(db());
    q.prepare(u"SELECT %1 FROM runs WHERE id = ?"_s.arg(kRunColumns));
    q.addBindValue(runId);
    if (!q.exec()) {
        fail(ProjectFile::describe(q.lastError()));
        return std::nullopt;
    }
    if (!q.next()) {
        fail(u"no run with id %1"_s.arg(runId));
        return std::nullopt;
    }
    RunInfo run = runFrom(q, true);
    applyLiveness(&run);
    return run;
}

bool ProjectStore::copyTo(const QString &path)
{
    if (!db().isOpen())
        return fail(u"no project is open"_s);
    if (QFileInfo::exists(path))
        return fail(u"%1 exists already"_s.arg(path));
    QSqlQuery q(db());
    // The path is a bound parameter: VACUUM INTO takes an expression.
    q.prepare(u"VACUUM INTO ?"_s);
    q.addBindValue(path);
    if (!q.exec())
        return fail(u"cannot write %1: %2"_s.arg(path, ProjectFile::describe(q.lastError())));
    return true;
}

bool ProjectStore::deleteRun(qint64 runId)
{
    if (!writable())
        return false;
    QSqlQuery q(db());
    q.prepare(u"DELETE FROM runs WHERE id = ?"_s);
    q.addBindValue(runId);
    if (!q.exec())
        return fail(ProjectFile::describe(q.lastError()));
    return q.numRowsAffected() == 1 || fail(u"no run with id %1"_s.arg(runId));
}

bool ProjectStore::visitRequests(qint64 runId,
                                 const std::function<bool(const RequestRecord &)> &visit) const
{
    return visitRequestRows(runId, true,
                            [&visit](const RequestRecord &r, qint64) { return visit(r); });
}

namespace {

using Statement = std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)>;

} // namespace

// Rows are read through SQLite's own statement on the Qt connection's handle (the same
// connection, so the same snapshot and locks): Qt's driver would build a QVariant per column per
// row, which is most of the cost of reading a million requests.
bool ProjectStore::prepareRequestSelect(
    const QString &where, sqlite3 **handle,
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> *st) const
{
    const QVariant h = db().driver() ? db().driver()->handle() : QVariant();
    if (!h.isValid() || qstrcmp(h.typeName(), "sqlite3*") != 0)
        return fail(u"the project file's connection is not SQLite"_s);
    *handle = *static_cast<sqlite3 *const *>(h.constData());
    const QByteArray sql =
        u"SELECT %1 FROM requests WHERE %2"_s.arg(RequestRows::selectColumns(m_version), where)
            .toUtf8();
    sqlite3_stmt *raw = nullptr;
    if (sqlite3_prepare_v2(*handle, sql.constData(), int(sql.size()), &raw, nullptr) != SQLITE_OK)
        return fail(sqliteErrorText(*handle));
    *st = Statement(raw, sqlite3_finalize);
    return true;
}

QString ProjectStore::sqliteErrorText(sqlite3 *h)
{
    const int code = sqlite3_extended_errcode(h);
    return ProjectFile::describe(QSqlError(QString(), QString::fromUtf8(sqlite3_errmsg(h)),
                                           QSqlError::StatementError, QString::number(code)));
}

bool ProjectStore::visitRequestRows(
    qint64 runId, bool withChunks,
    const std::function<bool(const RequestRecord &, qint64 chunkCount)> &visit) const
{
    sqlite3 *h = nullptr;
    Statement st(nullptr, sqlite3_finalize);
    if (!prepareRequestSelect(u"run_id = ? ORDER BY idx"_s, &h, &st))
        return false;
    sqlite3_bind_int64(st.get(), 1, runId);
    RequestRecord r;
    QString error;
    int rc = SQLITE_ROW;
    qint64 chunkCount = 0;
    while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
        if (!RequestRows::read(st.get(), &r, &error, withChunks, &chunkCount))
            return fail(u"run %1: %2"_s.arg(runId).arg(error));
        if (!visit(r, chunkCount))
            return true;
    }
    if (rc != SQLITE_DONE)
        return fail(sqliteErrorText(h));
    return true;
}

bool ProjectStore::visitRequestIndex(
    qint64 runId,
    const std::function<bool(qint64 index, qint64 tSched, qint64 tSend, ErrorClass error)> &visit)
    const
{
    const QVariant h = db().driver() ? db().driver()->handle() : QVariant();
    if (!h.isValid() || qstrcmp(h.typeName(), "sqlite3*") != 0)
        return fail(u"the project file's connection is not SQLite"_s);
    sqlite3 *handle = *static_cast<sqlite3 *const *>(h.constData());
    static const QByteArray sql = "SELECT idx, t_sched, t_send, error_class FROM requests "
                                  "WHERE run_id = ? ORDER BY idx";
    sqlite3_stmt *raw = nullptr;
    if (sqlite3_prepare_v2(handle, sql.constData(), int(sql.size()), &raw, nullptr) != SQLITE_OK)
        return fail(sqliteErrorText(handle));
    const Statement st(raw, sqlite3_finalize);
    sqlite3_bind_int64(raw, 1, runId);
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
        const auto *name = reinterpret_cast<const char *>(sqlite3_column_text(raw, 3));
        const ErrorClass error =
            errorClassFromName(QLatin1StringView(name ? name : "", sqlite3_column_bytes(raw, 3)));
        if (!visit(sqlite3_column_int64(raw, 0), sqlite3_column_int64(raw, 1),
                   sqlite3_column_int64(raw, 2), error))
            return true;
    }
    if (rc != SQLITE_DONE)
        return fail(sqliteErrorText(handle));
    return true;
}

bool ProjectStore::readRequestsAt(qint64 runId, const QList<qint64> &indices,
                                  QList<RequestRecord> *out) const
{
    out->clear();
    sqlite3 *h = nullptr;
    Statement st(nullptr, sqlite3_finalize);
    // One indexed lookup per record (requests_by_run): a screenful of a sorted million-row
    // table costs a few hundred microseconds, wherever the rows are.
    if (!prepareRequestSelect(u"run_id = ? AND idx = ?"_s, &h, &st))
        return false;
    out->reserve(indices.size());
    RequestRecord r;
    QString error;
    for (qint64 idx : indices) {
        sqlite3_reset(st.get());
        sqlite3_bind_int64(st.get(), 1, runId);
        sqlite3_bind_int64(st.get(), 2, idx);
        const int rc = sqlite3_step(st.get());
        if (rc == SQLITE_DONE)
            return fail(u"run %1 has no request %2"_s.arg(runId).arg(idx));
        if (rc != SQLITE_ROW)
            return fail(sqliteErrorText(h));
        if (!RequestRows::read(st.get(), &r, &error))
            return fail(u"run %1: %2"_s.arg(runId).arg(error));
        out->append(r);
    }
    return true;
}

QList<RequestRecord> ProjectStore::loadRequests(qint64 runId) const
{
    QList<RequestRecord> out;
    {
        QSqlQuery q(db());
        q.prepare(u"SELECT request_count FROM runs WHERE id = ?"_s);
        q.addBindValue(runId);
        if (q.exec() && q.next())
            out.reserve(q.value(0).toLongLong());
    }
    if (!visitRequests(runId, [&out](const RequestRecord &r) {
            out.append(r);
            return true;
        }))
        return {};
    return out;
}

// --- server metrics ------------------------------------------------------------------------

bool ProjectStore::saveRunMetrics(qint64 runId, const QList<StoredRunMetrics> &targets)
{
    if (!writable())
        return false;
    if (m_version < ProjectSchema::serverMetricsVersion())
        return fail(u"the project file has no table for server metrics"_s);
    QSqlDatabase d = db();
    if (!d.transaction())
        return fail(ProjectFile::describe(d.lastError()));
    QSqlQuery q(d);
    q.prepare(u"DELETE FROM run_metrics WHERE run_id = ?"_s);
    q.addBindValue(runId);
    bool ok = q.exec();
    for (qsizetype i = 0; ok && i < targets.size(); ++i) {
        const StoredRunMetrics &t = targets.at(i);
        q.prepare(u"INSERT INTO run_metrics (run_id, position, target, url, engine, scrapes, "
                  "blob) VALUES (?, ?, ?, ?, ?, ?, ?)"_s);
        q.addBindValue(runId);
        q.addBindValue(t.position);
        q.addBindValue(text(t.target));
        q.addBindValue(text(t.url));
        q.addBindValue(text(t.engine));
        q.addBindValue(t.scrapes);
        // A blob never binds as NULL, even when empty (the column is NOT NULL).
        q.addBindValue(t.blob.isNull() ? QByteArray("") : t.blob);
        ok = q.exec();
    }
    if (!ok) {
        const QString why = ProjectFile::describe(q.lastError());
        d.rollback();
        return fail(u"saving the server metrics of run %1: %2"_s.arg(runId).arg(why));
    }
    if (!d.commit()) {
        const QString why = ProjectFile::describe(d.lastError());
        d.rollback();
        return fail(why);
    }
    return true;
}

QList<StoredRunMetrics> ProjectStore::loadRunMetrics(qint64 runId) const
{
    QList<StoredRunMetrics> out;
    if (m_version < ProjectSchema::serverMetricsVersion())
        return out;
    QSqlQuery q(db());
    q.prepare(u"SELECT position, target, url, engine, scrapes, blob FROM run_metrics "
              "WHERE run_id = ? ORDER BY position"_s);
    q.addBindValue(runId);
    if (!q.exec()) {
        fail(ProjectFile::describe(q.lastError()));
        return out;
    }
    while (q.next()) {
        StoredRunMetrics t;
        t.position = q.value(0).toInt();
        t.target = q.value(1).toString();
        t.url = q.value(2).toString();
        t.engine = q.value(3).toString();
        t.scrapes = q.value(4).toInt();
        t.blob = q.value(5).toByteArray();
        out.append(t);
    }
    return out;
}

// --- managed servers' logs ---------------------------------------------------------------------

bool ProjectStore::saveServerLog(const StoredServerLog &log)
{
    if (!writable())
        return false;
    if (m_version < ProjectSchema::serverLogsVersion())
        return fail(u"the project file has no table for server logs"_s);
    QSqlQuery q(db());
    q.prepare(u"INSERT OR REPLACE INTO server_logs (instance, sut, started_utc, info_json, output) "
              "VALUES (?, ?, ?, ?, ?)"_s);
    q.addBindValue(text(log.instance));
    q.addBindValue(text(log.sut));
    q.addBindValue(text(log.startedUtc));
    q.addBindValue(QString::fromUtf8(QJsonDocument(log.info).toJson(QJsonDocument::Compact)));
    q.addBindValue(log.output.isNull() ? QByteArray("") : log.output);
    if (!q.exec())
        return fail(u"saving the log of managed server %1: %2"_s.arg(
            log.instance, ProjectFile::describe(q.lastError())));
    return true;
}

namespace {

StoredServerLog serverLogFrom(const QSqlQuery &q, bool withOutput)
{
    StoredServerLog l;
    l.instance = q.value(0).toString();
    l.sut = q.value(1).toString();
    l.startedUtc = q.value(2).toString();
    l.info = QJsonDocument::fromJson(q.value(3).toString().toUtf8()).object();
    if (withOutput)
        l.output = q.value(4).toByteArray();
    return l;
}

} // namespace

std::optional<StoredServerLog> ProjectStore::loadServerLog(const QString &instance) const
{
    if (m_version < ProjectSchema::serverLogsVersion())
        return std::nullopt;
    QSqlQuery q(db());
    q.prepare(u"SELECT instance, sut, started_utc, info_json, output FROM server_logs "
              "WHERE instance = ?"_s);
    q.addBindValue(instance);
    if (!q.exec()) {
        fail(ProjectFile::describe(q.lastError()));
        return std::nullopt;
    }
    if (!q.next())
        return std::nullopt;
    return serverLogFrom(q, true);
}

QList<StoredServerLog> ProjectStore::listServerLogs() const
{
    QList<StoredServerLog> out;
    if (m_version < ProjectSchema::serverLogsVersion())
        return out;
    QSqlQuery q(db());
    if (!q.exec(u"SELECT instance, sut, started_utc, info_json FROM server_logs "
                "ORDER BY started_utc, instance"_s)) {
        fail(ProjectFile::describe(q.lastError()));
        return out;
    }
    while (q.next())
        out.append(serverLogFrom(q, false));
    return out;
}

// --- bills and test windows -------------------------------------------------------------------

qint64 ProjectStore::saveBillItem(const BillItemRow &b)
{
    if (!writable())
        return 0;
    QSqlQuery q(db());
    if (b.id > 0)
        q.prepare(u"UPDATE bill_items SET category = ?, provider = ?, resource_id = ?, "
                  "start_utc = ?, end_utc = ?, amount_minor = ?, amount_scale = ?, "
                  "amount_kind = ?, currency = ?, billing_unit = ?, min_increment_s = ?, "
                  "notes = ?, source = ?, reference = ?, confirmed = ?, item_json = ? "
                  "WHERE id = ?"_s);
    else
        q.prepare(u"INSERT INTO bill_items (category, provider, resource_id, start_utc, end_utc, "
                  "amount_minor, amount_scale, amount_kind, currency, billing_unit, "
                  "min_increment_s, notes, source, reference, confirmed, item_json) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    for (const QVariant &v : QVariantList{
             text(b.category), text(b.provider), text(b.resourceId), utcText(b.startUtc),
             utcText(b.endUtc), b.amountMinor, b.amountScale, text(b.amountKind), text(b.currency),
             text(b.billingUnit), b.minIncrementS, text(b.notes), text(b.source), text(b.reference),
             int(b.confirmed), jsonText(scrubSecrets(b.details))})
        q.addBindValue(v);
    if (b.id > 0)
        q.addBindValue(b.id);
    if (!q.exec())
        return fail(u"saving bill item: %1"_s.arg(ProjectFile::describe(q.lastError())));
    if (b.id > 0 && q.numRowsAffected() != 1)
        return fail(u"no bill item with id %1"_s.arg(b.id));
    return b.id > 0 ? b.id : q.lastInsertId().toLongLong();
}

QList<qint64> ProjectStore::saveBillItems(const QList<BillItemRow> &items)
{
    if (!writable())
        return {};
    QSqlDatabase d = db();
    if (!d.transaction()) {
        fail(ProjectFile::describe(d.lastError()));
        return {};
    }
    QList<qint64> ids;
    for (const BillItemRow &b : items) {
        const qint64 id = saveBillItem(b);
        if (id <= 0) {
            const QString why = m_error;
            d.rollback();
            fail(why);
            return {};
        }
        ids.append(id);
    }
    if (!d.commit()) {
        fail(ProjectFile::describe(d.lastError()));
        d.rollback();
        return {};
    }
    return ids;
}

QList<BillItemRow> ProjectStore::listBillItems() const
{
    QList<BillItemRow> out;
    QSqlQuery q(db());
    if (!q.exec(
            u"SELECT id, category, provider, resource_id, start_utc, end_utc, amount_minor, "
            "amount_scale, amount_kind, currency, billing_unit, min_increment_s, notes, source, "
            "reference, confirmed, item_json FROM bill_items ORDER BY start_utc, id"_s)) {
        fail(ProjectFile::describe(q.lastError()));
        return out;
    }
    while (q.next()) {
        BillItemRow b;
        int i = 0;
        b.id = q.value(i++).toLongLong();
        b.category = q.value(i++).toString();
        b.provider = q.value(i++).toString();
        b.resourceId = q.value(i++).toString();
        b.startUtc = utcFrom(q.value(i++));
        b.endUtc = utcFrom(q.value(i++));
        b.amountMinor = q.value(i++).toLongLong();
        b.amountScale = q.value(i++).toInt();
        b.amountKind = q.value(i++).toString();
        b.currency = q.value(i++).toString();
        b.billingUnit = q.value(i++).toString();
        b.minIncrementS = q.value(i++).toLongLong();
        b.notes = q.value(i++).toString();
        b.source = q.value(i++).toString();
        b.reference = q.value(i++).toString();
        b.confirmed = q.value(i++).toInt() != 0;
        b.details = jsonFrom(q.value(i++));
        out.append(b);
    }
    return out;
}

bool ProjectStore::deleteBillItem(qint64 id)
{
    if (!writable())
        return false;
    QSqlQuery q(db());
    q.prepare(u"DELETE FROM bill_items WHERE id = ?"_s);
    q.addBindValue(id);
    if (!q.exec())
        return fail(ProjectFile::describe(q.lastError()));
    return q.numRowsAffected() == 1 || fail(u"no bill item with id %1"_s.arg(id));
}

qint64 ProjectStore::saveTestWindow(const TestWindowRow &w)
{
    if (!writable())
        return 0;
    QSqlDatabase d = db();
    if (!d.transaction())
        return fail(ProjectFile::describe(d.lastError()));
    auto abort = [&](const QString &why) {
        d.rollback();
        return fail(u"saving test window '%1': %2"_s.arg(w.name, why));
    };
    QSqlQuery q(d);
    if (w.id > 0)
        q.prepare(u"UPDATE test_windows SET name = ?, sut_id = ?, start_utc = ?, end_utc = ? "
                  "WHERE id = ?"_s);
    else
        q.prepare(u"INSERT INTO test_windows (name, sut_id, start_utc, end_utc) "
                  "VALUES (?, ?, ?, ?)"_s);
    q.addBindValue(text(w.name));
    q.addBindValue(idOrNull(w.sutId));
    q.addBindValue(utcText(w.startUtc));
    q.addBindValue(utcText(w.endUtc));
    if (w.id > 0)
        q.addBindValue(w.id);
    if (!q.exec())
        return abort(ProjectFile::describe(q.lastError()));
    if (w.id > 0 && q.numRowsAffected() != 1)
        return abort(u"no test window with id %1"_s.arg(w.id));
    const qint64 id = w.id > 0 ? w.id : q.lastInsertId().toLongLong();
    for (const auto &table : {u"window_runs"_s, u"window_bill_rules"_s}) {
        QSqlQuery del(d);
        del.prepare(u"DELETE FROM %1 WHERE window_id = ?"_s.arg(table));
        del.addBindValue(id);
        if (!del.exec())
            return abort(ProjectFile::describe(del.lastError()));
    }
    QSqlQuery run(d);
    run.prepare(u"INSERT INTO window_runs (window_id, run_id) VALUES (?, ?)"_s);
    for (qint64 runId : w.runIds) {
        run.addBindValue(id);
        run.addBindValue(runId);
        if (!run.exec())
            return abort(ProjectFile::describe(run.lastError()));
    }
    QSqlQuery rule(d);
    rule.prepare(
        u"INSERT INTO window_bill_rules (window_id, bill_item_id, rule) VALUES (?, ?, ?)"_s);
    for (const WindowBillRule &r : w.billRules) {
        rule.addBindValue(id);
        rule.addBindValue(r.billItemId);
        rule.addBindValue(text(r.rule));
        if (!rule.exec())
            return abort(ProjectFile::describe(rule.lastError()));
    }
    if (!d.commit())
        return abort(ProjectFile::describe(d.lastError()));
    return id;
}

QList<TestWindowRow> ProjectStore::listTestWindows() const
{
    QList<TestWindowRow> out;
    QSqlQuery q(db());
    if (!q.exec(u"SELECT id, name, sut_id, start_utc, end_utc FROM test_windows "
                "ORDER BY start_utc, id"_s)) {
        fail(ProjectFile::describe(q.lastError()));
        return out;
    }
    while (q.next()) {
        TestWindowRow w;
        w.id = q.value(0).toLongLong();
        w.name = q.value(1).toString();
        w.sutId = q.value(2).toLongLong();
        w.startUtc = utcFrom(q.value(3));
        w.endUtc = utcFrom(q.value(4));
        out.append(w);
    }
    for (TestWindowRow &w : out) {
        QSqlQuery r(db());
        r.prepare(u"SELECT run_id FROM window_runs WHERE window_id = ? ORDER BY run_id"_s);
        r.addBindValue(w.id);
        if (r.exec())
            while (r.next())
                w.runIds.append(r.value(0).toLongLong());
        QSqlQuery b(db());
        b.prepare(u"SELECT bill_item_id, rule FROM window_bill_rules WHERE window_id = ? "
                  "ORDER BY bill_item_id"_s);
        b.addBindValue(w.id);
        if (b.exec())
            while (b.next()) {
                WindowBillRule rule;
                rule.billItemId = b.value(0).toLongLong();
                rule.rule = b.value(1).toString();
                w.billRules.append(rule);
            }
    }
    return out;
}

std::optional<TestWindowRow> ProjectStore::loadTestWindow(qint64 id) const
{
    for (const TestWindowRow &w : listTestWindows())
        if (w.id == id)
            return w;
    fail(u"no test window with id %1"_s.arg(id));
    return std::nullopt;
}

bool ProjectStore::deleteTestWindow(qint64 id)
{
    if (!writable())
        return false;
    QSqlQuery q(db());
    q.prepare(u"DELETE FROM test_windows WHERE id = ?"_s);
    q.addBindValue(id);
    if (!q.exec())
        return fail(ProjectFile::describe(q.lastError()));
    return q.numRowsAffected() == 1 || fail(u"no test window with id %1"_s.arg(id));
}

// --- project settings ----------------------------------------------------------------------

QString ProjectStore::projectInfo(const QString &name) const
{
    QSqlQuery q(db());
    q.prepare(u"SELECT value FROM project_info WHERE name = ?"_s);
    q.addBindValue(text(name));
    if (!q.exec()) {
        fail(ProjectFile::describe(q.lastError()));
        return {};
    }
    return q.next() ? q.value(0).toString() : QString();
}

bool ProjectStore::setProjectInfo(const QString &name, const QString &value)
{
    if (!writable())
        return false;
    if (name.isEmpty() || name.startsWith("created_"_L1))
        return fail(u"project setting '%1' cannot be set"_s.arg(name));
    QSqlQuery q(db());
    q.prepare(u"INSERT INTO project_info (name, value) VALUES (?, ?) "
              "ON CONFLICT(name) DO UPDATE SET value = excluded.value"_s);
    q.addBindValue(name);
    q.addBindValue(text(value));
    if (!q.exec())
        return fail(
            u"saving project setting '%1': %2"_s.arg(name, ProjectFile::describe(q.lastError())));
    return true;
}

bool ProjectStore::integrityCheck(QString *details) const
{
    QSqlQuery q(db());
    if (!q.exec(u"PRAGMA integrity_check"_s))
        return fail(ProjectFile::describe(q.lastError()));
    QStringList lines;
    while (q.next())
        lines.append(q.value(0).toString());
    if (details)
        *details = lines.join(u'\n');
    return lines == QStringList{u"ok"_s};
}

} // namespace sb
