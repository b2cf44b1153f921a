#pragma once

#include "projectfile.h"
#include "storetypes.h"

#include <QList>
#include <QString>
#include <QVariant>
#include <functional>
#include <memory>
#include <optional>

class QSqlDatabase;
struct sqlite3;
struct sqlite3_stmt;

namespace sb {

struct RequestRecord;
enum class ErrorClass : quint8;

// A project file opened in the calling thread (one SQLite connection per thread: use the store
// only from the thread that opened it). Opening probes the file first and refuses, without
// touching it, a newer schema, a foreign database or a damaged file; an older project is
// migrated forward. Runs are written by RunWriter, not here.
//
// A run's writer holds its RunLock while it writes. listRuns() and loadRun() report a run stored
// as 'running' whose lock nobody holds as Interrupted (with what it recorded), in every mode, so
// a reader never shows a dead run as live; a read-write open also stores that status.
//
// Failing calls return 0 / false / empty / nullopt and set lastError().
class ProjectStore
{
public:
    enum class OpenMode { ReadWrite, ReadOnly };

    ProjectStore();
    ~ProjectStore();
    ProjectStore(const ProjectStore &) = delete;
    ProjectStore &operator=(const ProjectStore &) = delete;

    // Creates the file when missing. On refusal, openState() says why (Newer, Foreign, Corrupt,
    // Unreadable) and lastError() has the sentence for the user; a read-only file opened
    // ReadWrite is refused with a message that says so.
    bool open(const QString &path, OpenMode mode = OpenMode::ReadWrite);
    void close();
    bool isOpen() const;
    bool isReadOnly() const { return m_readOnly; }
    QString path() const { return m_path; }
    ProjectFile::State openState() const { return m_openState; }
    int schemaVersion() const { return m_version; }     // after migration
    int migratedFrom() const { return m_migratedFrom; } // version found on disk
    QList<qint64> interruptedOnOpen() const { return m_interrupted; }
    QString lastError() const { return m_error; }

    // Config entities: id 0 inserts, otherwise updates that row. Return the row id.
    qint64 saveSut(const StoredSut &sut);
    QList<StoredSut> listSuts() const;
    std::optional<StoredSut> loadSut(qint64 id) const;
    bool deleteSut(qint64 id);

    qint64 saveDataset(const StoredDataset &dataset);
    QList<StoredDataset> listDatasets() const;
    std::optional<StoredDataset> loadDataset(qint64 id) const;
    bool deleteDataset(qint64 id);

    qint64 saveLoadProfile(const StoredLoadProfile &profile);
    QList<StoredLoadProfile> listLoadProfiles() const;
    std::optional<StoredLoadProfile> loadLoadProfile(qint64 id) const;
    bool deleteLoadProfile(qint64 id);

    qint64 saveSweep(const StoredSweep &sweep);
    QList<StoredSweep> listSweeps() const;
    bool deleteSweep(qint64 id); // its runs stay, unlinked

    // Runs, oldest first, without snapshot and summary. sweepId > 0: only that sweep's runs,
    // in sweep order.
    QList<RunInfo> listRuns(qint64 sweepId = 0) const;
    std::optional<RunInfo> loadRun(qint64 runId) const; // with snapshot and summary
    // Writes a consistent copy of the whole project into a new file (SQLite's VACUUM INTO): the
    // same rows with the same ids, every run with its records. The file must not exist.
    bool copyTo(const QString &path);
    bool deleteRun(qint64 runId);                          // with its requests
    QList<RequestRecord> loadRequests(qint64 runId) const; // in schedule order
    // Streams a run's records in schedule order without holding them all; return false from
    // `visit` to stop early. Returns false on a read error (not on an early stop).
    bool visitRequests(qint64 runId, const std::function<bool(const RequestRecord &)> &visit) const;
    // The same rows with their stored chunk count; withChunks false leaves the chunk lists
    // empty (not decoded) except for records without an output count (see RequestRows::read).
    bool visitRequestRows(
        qint64 runId, bool withChunks,
        const std::function<bool(const RequestRecord &, qint64 chunkCount)> &visit) const;
    // Only each row's schedule index, t_sched, t_send and error class, in schedule order: what a
    // table of the run needs to exist (a million rows in about 0.3 s instead of 1.5–2.5 s).
    bool visitRequestIndex(qint64 runId,
                           const std::function<bool(qint64 index, qint64 tSched, qint64 tSend,
                                                    ErrorClass error)> &visit) const;
    // The records with these schedule indices (RequestRecord::index), with their chunks, in
    // the order asked. False when one does not exist or cannot be read.
    bool readRequestsAt(qint64 runId, const QList<qint64> &indices,
                        QList<RequestRecord> *out) const;

    // A run's server metrics, one row per target (replacing the run's earlier rows), and back
    // in position order. A file from before the run_metrics table reads as none.
    bool saveRunMetrics(qint64 runId, const QList<StoredRunMetrics> &targets);
    QList<StoredRunMetrics> loadRunMetrics(qint64 runId) const;

    // A managed server's log (inserted, or replaced for the same instance), one instance's, and
    // every instance's without output (started order). A file from before the table has none.
    bool saveServerLog(const StoredServerLog &log);
    std::optional<StoredServerLog> loadServerLog(const QString &instance) const;
    QList<StoredServerLog> listServerLogs() const;

    qint64 saveBillItem(const BillItemRow &item);
    // Saves every item in one transaction, or none (an import is all or nothing). Returns the
    // row ids in order; empty on failure.
    QList<qint64> saveBillItems(const QList<BillItemRow> &items);
    QList<BillItemRow> listBillItems() const;
    bool deleteBillItem(qint64 id);

    // Saves the window with exactly the given runs and rules (replacing earlier ones).
    qint64 saveTestWindow(const TestWindowRow &window);
    QList<TestWindowRow> listTestWindows() const;
    std::optional<TestWindowRow> loadTestWindow(qint64 id) const;
    bool deleteTestWindow(qint64 id);

    // Project-wide settings kept in the project_info table (e.g. the cost module's conversion
    // rates). Empty for an unset name. The file's own facts ("created_*") cannot be overwritten.
    QString projectInfo(const QString &name) const;
    bool setProjectInfo(const QString &name, const QString &value);

    // PRAGMA integrity_check; `details` gets SQLite's report when it is not "ok".
    bool integrityCheck(QString *details = nullptr) const;

private:
    friend class StudyStore; // core/study: the study tables, on this store's connection
    QSqlDatabase db() const;
    bool prepareRequestSelect(const QString &where, sqlite3 **handle,
                              std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> *st) const;
    static QString sqliteErrorText(sqlite3 *h);
    bool fail(const QString &message) const;
    bool writable() const;
    bool markInterruptedRuns();
    bool readRun(qint64 runId, RunInfo *out, bool full) const;
    void applyLiveness(RunInfo *run) const;
    QList<RunInfo> queryRuns(const QString &where, const QVariantList &binds) const;

    QString m_connection;
    QString m_path;
    bool m_readOnly = false;
    int m_version = 0;
    int m_migratedFrom = 0;
    ProjectFile::State m_openState = ProjectFile::State::Missing;
    QList<qint64> m_interrupted;
    mutable QString m_error;
};

} // namespace sb
