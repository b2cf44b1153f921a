#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>

namespace sb {

class ProjectStore;
struct StudyDefinition;
struct StudyPlan;

// One version of a study's definition as the project file holds it.
struct StoredStudyVersion
{
    qint64 id = 0;
    qint64 studyId = 0;
    int version = 0; // 1, 2, ...
    QString sha256;  // of the definition's canonical JSON
    QJsonObject definition;
    QJsonObject plan;
    QDateTime createdUtc;
};

// A cell's state: pending (not run yet, or its attempt was interrupted and it runs again),
// running (an attempt is under way, or the process died during it), completed (its run
// finished), failed (its candidate could not run it; reason says why).
struct StoredStudyCell
{
    qint64 id = 0;
    qint64 versionId = 0;
    int position = 0; // 0-based running order
    QString candidate;
    QString scenario;
    int repeat = 0; // 0-based
    QString state;
    QString reason;
    qint64 runId = 0; // the last attempt's run
    int attempts = 0;
};

// The study tables of an open project (docs/study.md, "Storage"), on the store's own connection
// and thread. Failing calls return 0 / false / nullopt and set lastError().
class StudyStore
{
public:
    explicit StudyStore(ProjectStore *store);
    QString lastError() const { return m_error; }
    // The file has the study tables (a read-only view of an older file has none).
    bool available() const;

    QStringList studyNames() const;
    qint64 studyId(const QString &name) const; // 0 when none
    std::optional<StoredStudyVersion> latestVersion(qint64 studyId) const;
    std::optional<StoredStudyVersion> version(qint64 studyId, int version) const;

    // The version to run `definition` as: the latest when its hash is the same (a resume); the
    // latest rewritten when none of its cells has started; otherwise a new version with fresh
    // cells — runs of different versions are never pooled. *what: "created", "resumed",
    // "replaced" or "new-version".
    std::optional<StoredStudyVersion> ensureVersion(const StudyDefinition &definition,
                                                    const StudyPlan &plan, QString *what);

    QList<StoredStudyCell> cells(qint64 versionId) const; // in running order
    // An attempt of a cell begins with this run: the cell is running, counts the attempt and
    // points to the run, and the run is linked to its study, version and cell.
    bool beginAttempt(const StoredStudyCell &cell, qint64 studyId, qint64 runId);
    // A further run of the attempt under way (a rate search's next point): linked to the cell
    // like the first, and the cell points to it; the attempt count stays.
    bool addAttemptRun(const StoredStudyCell &cell, qint64 studyId, qint64 runId);
    // runId > 0: the cell's run becomes that one (a search's result: its highest VALID point).
    bool finishCell(qint64 cellId, const QString &state, const QString &reason, qint64 runId = 0);
    // Cells left running by a process that died: back to pending (their runs stay recorded,
    // interrupted). Returns the cells reset.
    QList<StoredStudyCell> resetRunningCells(qint64 versionId);
    // Every run a cell made, oldest first (interrupted attempts included).
    QList<qint64> cellRuns(qint64 cellId) const;
    // The runs of the attempt `runId` belongs to, oldest first: the run itself, or every point
    // of its rate search (the cell's runs in the same sweep row). An interrupted search's points
    // are the earlier attempt's, never the later one's.
    QList<qint64> attemptRuns(qint64 cellId, qint64 runId) const;

private:
    bool fail(const QString &message) const;
    std::optional<StoredStudyVersion> readVersion(const QString &where,
                                                  const QVariantList &binds) const;
    bool insertCells(qint64 versionId, const StudyDefinition &d, const StudyPlan &plan);

    ProjectStore *m_store;
    mutable QString m_error;
};

} // namespace sb
