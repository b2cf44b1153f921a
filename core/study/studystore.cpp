#include "studystore.h"

#include "store/projectschema.h"
#include "store/projectstore.h"
#include "study/studydefinition.h"
#include "study/studyplan.h"

#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// Links a run to its study, version and cell (study_runs), in the caller's transaction.
bool linkRun(QSqlQuery *q, qint64 studyId, const StoredStudyCell &cell, qint64 runId)
{
    q->prepare(u"INSERT OR REPLACE INTO study_runs (run_id, study_id, version_id, cell_id) "_s
               "VALUES (?, ?, ?, ?)"_s);
    q->addBindValue(runId);
    q->addBindValue(studyId);
    q->addBindValue(cell.versionId);
    q->addBindValue(cell.id);
    return q->exec();
}

QString nowUtc()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QString json(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QJsonObject parse(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

} // namespace

StudyStore::StudyStore(ProjectStore *store) : m_store(store) {}

bool StudyStore::fail(const QString &message) const
{
    m_error = message;
    return false;
}

bool StudyStore::available() const
{
    return m_store && m_store->isOpen() &&
           m_store->schemaVersion() >= ProjectSchema::studiesVersion();
}

QStringList StudyStore::studyNames() const
{
    QStringList out;
    if (!available())
        return out;
    QSqlQuery q(m_store->db());
    if (q.exec(u"SELECT name FROM studies ORDER BY id"_s))
        while (q.next())
            out << q.value(0).toString();
    return out;
}

qint64 StudyStore::studyId(const QString &name) const
{
    if (!available())
        return 0;
    QSqlQuery q(m_store->db());
    q.prepare(u"SELECT id FROM studies WHERE name = ?"_s);
    q.addBindValue(name);
    return q.exec() && q.next() ? q.value(0).toLongLong() : 0;
}

std::optional<StoredStudyVersion> StudyStore::readVersion(const QString &where,
                                                          const QVariantList &binds) const
{
    if (!available()) {
        fail(u"the project has no studies"_s);
        return std::nullopt;
    }
    QSqlQuery q(m_store->db());
    q.prepare(u"SELECT id, study_id, version, definition_sha256, definition_json, plan_json, "_s
              "created_utc FROM study_versions WHERE "_s +
              where + u" ORDER BY version DESC LIMIT 1"_s);
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec() || !q.next()) {
        fail(q.lastError().isValid() ? q.lastError().text() : u"no such study version"_s);
        return std::nullopt;
    }
    StoredStudyVersion v;
    v.id = q.value(0).toLongLong();
    v.studyId = q.value(1).toLongLong();
    v.version = q.value(2).toInt();
    v.sha256 = q.value(3).toString();
    v.definition = parse(q.value(4).toString());
    v.plan = parse(q.value(5).toString());
    v.createdUtc = QDateTime::fromString(q.value(6).toString(), Qt::ISODateWithMs);
    return v;
}

std::optional<StoredStudyVersion> StudyStore::latestVersion(qint64 studyId) const
{
    return readVersion(u"study_id = ?"_s, {studyId});
}

std::optional<StoredStudyVersion> StudyStore::version(qint64 studyId, int version) const
{
    return readVersion(u"study_id = ? AND version = ?"_s, {studyId, version});
}

bool StudyStore::insertCells(qint64 versionId, const StudyDefinition &d, const StudyPlan &plan)
{
    QSqlQuery q(m_store->db());
    q.prepare(u"INSERT INTO study_cells (version_id, position, candidate, scenario, repeat, "_s
              "state) VALUES (?, ?, ?, ?, ?, 'pending')"_s);
    for (const StudyCell &c : plan.cells) {
        q.addBindValue(versionId);
        q.addBindValue(c.position);
        q.addBindValue(d.candidates.at(c.candidate).name);
        q.addBindValue(d.scenarios.at(c.scenario).name);
        q.addBindValue(c.repeat);
        if (!q.exec())
            return fail(q.lastError().text());
    }
    return true;
}

std::optional<StoredStudyVersion> StudyStore::ensureVersion(const StudyDefinition &d,
                                                            const StudyPlan &plan, QString *what)
{
    if (!available()) {
        fail(u"the project file has no study tables (open it read-write to migrate it)"_s);
        return std::nullopt;
    }
    QSqlDatabase db = m_store->db();
    const QString sha = d.sha256();
    qint64 sid = studyId(d.name);
    std::optional<StoredStudyVersion> latest;
    if (sid > 0)
        latest = latestVersion(sid);
    if (latest && latest->sha256 == sha) {
        *what = u"resumed"_s;
        return latest;
    }
    if (!db.transaction()) {
        fail(db.lastError().text());
        return std::nullopt;
    }
    const auto rollback = [&](const QString &e) -> std::optional<StoredStudyVersion> {
        db.rollback();
        fail(e);
        return std::nullopt;
    };
    QSqlQuery q(db);
    if (sid == 0) {
        q.prepare(u"INSERT INTO studies (name, created_utc) VALUES (?, ?)"_s);
        q.addBindValue(d.name);
        q.addBindValue(nowUtc());
        if (!q.exec())
            return rollback(q.lastError().text());
        sid = q.lastInsertId().toLongLong();
    }
    int number = 1;
    *what = u"created"_s;
    if (latest) {
        bool started = false;
        for (const StoredStudyCell &c : cells(latest->id))
            started = started || c.attempts > 0 || c.state != "pending"_L1;
        if (!started) {
            // Nothing ran under the old definition: it is replaced, not versioned.
            q.prepare(u"DELETE FROM study_versions WHERE id = ?"_s);
            q.addBindValue(latest->id);
            if (!q.exec())
                return rollback(q.lastError().text());
            number = latest->version;
            *what = u"replaced"_s;
        } else {
            number = latest->version + 1;
            *what = u"new-version"_s;
        }
    }
    q.prepare(u"INSERT INTO study_versions (study_id, version, definition_json, "_s
              "definition_sha256, plan_json, created_utc) VALUES (?, ?, ?, ?, ?, ?)"_s);
    q.addBindValue(sid);
    q.addBindValue(number);
    q.addBindValue(QString::fromUtf8(d.canonicalJson()));
    q.addBindValue(sha);
    q.addBindValue(json(plan.toJson(d)));
    q.addBindValue(nowUtc());
    if (!q.exec())
        return rollback(q.lastError().text());
    const qint64 vid = q.lastInsertId().toLongLong();
    if (!insertCells(vid, d, plan))
        return rollback(m_error);
    if (!db.commit())
        return rollback(db.lastError().text());
    return latestVersion(sid);
}

QList<StoredStudyCell> StudyStore::cells(qint64 versionId) const
{
    QList<StoredStudyCell> out;
    if (!available())
        return out;
    QSqlQuery q(m_store->db());
    q.prepare(u"SELECT id, version_id, position, candidate, scenario, repeat, state, reason, "_s
              "run_id, attempts FROM study_cells WHERE version_id = ? ORDER BY position"_s);
    q.addBindValue(versionId);
    if (!q.exec()) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next()) {
        StoredStudyCell c;
        c.id = q.value(0).toLongLong();
        c.versionId = q.value(1).toLongLong();
        c.position = q.value(2).toInt();
        c.candidate = q.value(3).toString();
        c.scenario = q.value(4).toString();
        c.repeat = q.value(5).toInt();
        c.state = q.value(6).toString();
        c.reason = q.value(7).toString();
        c.runId = q.value(8).isNull() ? 0 : q.value(8).toLongLong();
        c.attempts = q.value(9).toInt();
        out << c;
    }
    return out;
}

bool StudyStore::beginAttempt(const StoredStudyCell &cell, qint64 studyId, qint64 runId)
{
    QSqlDatabase db = m_store->db();
    if (!db.transaction())
        return fail(db.lastError().text());
    QSqlQuery q(db);
    q.prepare(u"UPDATE study_cells SET state = 'running', reason = '', attempts = attempts + 1, "_s
              "run_id = ? WHERE id = ?"_s);
    q.addBindValue(runId > 0 ? QVariant(runId) : QVariant());
    q.addBindValue(cell.id);
    bool ok = q.exec();
    if (ok && runId > 0) {
        ok = linkRun(&q, studyId, cell, runId);
    }
    if (!ok) {
        const QString e = q.lastError().text();
        db.rollback();
        return fail(e);
    }
    return db.commit() || fail(db.lastError().text());
}

bool StudyStore::addAttemptRun(const StoredStudyCell &cell, qint64 studyId, qint64 runId)
{
    QSqlDatabase db = m_store->db();
    if (!db.transaction())
        return fail(db.lastError().text());
    QSqlQuery q(db);
    q.prepare(u"UPDATE study_cells SET run_id = ? WHERE id = ?"_s);
    q.addBindValue(runId);
    q.addBindValue(cell.id);
    bool ok = q.exec();
    if (ok) {
        ok = linkRun(&q, studyId, cell, runId);
    }
    if (!ok) {
        const QString e = q.lastError().text();
        db.rollback();
        return fail(e);
    }
    return db.commit() || fail(db.lastError().text());
}

bool StudyStore::finishCell(qint64 cellId, const QString &state, const QString &reason,
                            qint64 runId)
{
    QSqlQuery q(m_store->db());
    q.prepare(runId > 0 ? u"UPDATE study_cells SET state = ?, reason = COALESCE(?, ''), "_s
                          "run_id = ? WHERE id = ?"_s
                        : u"UPDATE study_cells SET state = ?, reason = COALESCE(?, '') "_s
                          "WHERE id = ?"_s);
    q.addBindValue(state);
    q.addBindValue(reason);
    if (runId > 0)
        q.addBindValue(runId);
    q.addBindValue(cellId);
    return q.exec() || fail(q.lastError().text());
}

QList<StoredStudyCell> StudyStore::resetRunningCells(qint64 versionId)
{
    QList<StoredStudyCell> reset;
    for (const StoredStudyCell &c : cells(versionId))
        if (c.state == "running"_L1 && finishCell(c.id, u"pending"_s, QString()))
            reset << c;
    return reset;
}

QList<qint64> StudyStore::cellRuns(qint64 cellId) const
{
    QList<qint64> out;
    QSqlQuery q(m_store->db());
    q.prepare(u"SELECT run_id FROM study_runs WHERE cell_id = ? ORDER BY run_id"_s);
    q.addBindValue(cellId);
    if (q.exec())
        while (q.next())
            out << q.value(0).toLongLong();
    return out;
}

QList<qint64> StudyStore::attemptRuns(qint64 cellId, qint64 runId) const
{
    QList<qint64> out;
    // Runs of one cell that share a sweep row are one search; a run without one is an attempt
    // of its own.
    QSqlQuery q(m_store->db());
    q.prepare(u"SELECT s.run_id FROM study_runs s JOIN runs r ON r.id = s.run_id "_s
              "WHERE s.cell_id = ? AND (s.run_id = ? OR r.sweep_id = "_s
              "(SELECT sweep_id FROM runs WHERE id = ?)) ORDER BY s.run_id"_s);
    q.addBindValue(cellId);
    q.addBindValue(runId);
    q.addBindValue(runId);
    if (q.exec())
        while (q.next())
            out << q.value(0).toLongLong();
    return out;
}

} // namespace sb
