#pragma once

#include "config/runplan.h"
#include "metrics/requestrecord.h"
#include "run/runrequest.h"
#include "servermetrics/metricseriesstore.h"
#include "store/storetypes.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace sb {

class BackgroundJobs;
class ProjectFileWatcher;
class ProjectStore;

enum class EntityKind { None, Sut, Dataset, Profile, Run };

// Entities as the workbench edits them. `id` is the document's own key, stable for the session
// whether or not the project has been saved; `storeId` is the row in the project file (0: not
// saved yet).
struct DocSut
{
    int id = 0;
    qint64 storeId = 0;
    SutConfig config;
};

struct DocDataset
{
    int id = 0;
    qint64 storeId = 0;
    QString name;
    DatasetSpec spec;
    QString contentHash; // last hash the editor computed (sampling parameters included)
};

struct DocProfile
{
    int id = 0;
    qint64 storeId = 0;
    QString name;
    LoadProfile profile;
    RequestParams params;   // sent with every request of this profile's runs
    RunExecution execution; // single run, sweep or rate search; the HTTP client
};

struct DocRun
{
    int id = 0;
    qint64 storeId = 0; // 0: only in memory (a new project not saved yet)
    RunInfo info;       // name, status, times, snapshot (the frozen run plan), summary
    QString sutName;    // grouping key in the project tree
    QString sweepName;  // empty: not part of a sweep
    QString studyName;  // empty: not a cell of a selection study (docs/study.md)
    int sutDocId = 0;   // the document entities the run was made from (0: unknown)
    int datasetDocId = 0;
    int profileDocId = 0;
    QList<RequestRecord> records; // empty until loaded (stored runs load on demand)
    bool recordsLoaded = false;
    // The server metrics scraped beside it (docs/server-metrics.md), loaded with the records.
    QList<MetricSeriesStore> serverMetrics;
};

// The open project: SUTs, datasets, load profiles and runs, always backed by a SQLite project
// file of core/store. A new project lives in a temporary file until it is saved under a name
// (Save As copies the file), so its runs are recorded, compared and costed exactly like a saved
// project's. Config rows are small and written on Save (and, for the three entities a run uses,
// when the run starts) in the GUI thread; run records are large and move through the run
// pipeline's writer thread or a worker thread (loadRunRecords).
class ProjectDocument : public QObject
{
    Q_OBJECT
public:
    explicit ProjectDocument(QObject *parent = nullptr);
    ~ProjectDocument() override;

    // A project ready to run: the built-in simulator as SUT, a synthetic dataset and a Poisson
    // load profile. Not saved, not modified.
    void newProject();
    bool open(const QString &path, QString *error);
    // Writes config changes to the project file; a new project needs saveAs().
    bool save(QString *error);
    // Writes the whole project (configs and every run) to a new file and continues there.
    bool saveAs(const QString &path, QString *error);

    // The file the user named; empty for a new project that was never saved.
    QString path() const { return m_path; }
    // The file the project lives in: path(), or the temporary file of a new project.
    QString storePath() const { return m_storePath; }
    bool isTemporary() const { return m_path.isEmpty() && !m_storePath.isEmpty(); }
    QString displayName() const;
    bool isModified() const { return m_modified; }
    bool hasFile() const { return !m_path.isEmpty(); }

    // Writes the rows of the SUT, dataset and profile a run is about to use (so the run links
    // to them) and returns their store ids in *links. False with *error when the file refuses.
    bool storeRunEntities(int sutId, int datasetId, int profileId, RunInfo *links, QString *error);

    const QList<DocSut> &suts() const { return m_suts; }
    const QList<DocDataset> &datasets() const { return m_datasets; }
    const QList<DocProfile> &profiles() const { return m_profiles; }
    const QList<DocRun> &runs() const { return m_runs; }
    const DocSut *sut(int id) const;
    const DocDataset *dataset(int id) const;
    const DocProfile *profile(int id) const;
    const DocRun *run(int id) const;
    QString entityName(EntityKind kind, int id) const;

    int addSut(const SutConfig &config);
    int addDataset(const QString &name, const DatasetSpec &spec);
    int addProfile(const QString &name, const LoadProfile &profile);
    int addRun(const DocRun &run);
    void updateSut(int id, const SutConfig &config);
    void updateDataset(int id, const QString &name, const DatasetSpec &spec);
    void setDatasetHash(int id, const QString &hash);
    void updateProfile(int id, const QString &name, const LoadProfile &profile,
                       const RequestParams &params);
    void updateProfile(int id, const QString &name, const LoadProfile &profile,
                       const RequestParams &params, const RunExecution &execution);
    bool remove(EntityKind kind, int id);

    // Loads a stored run's records in a worker thread; runRecordsLoaded follows. Runs in memory
    // answer at once (still through the signal, queued). A stored run of more than
    // largeRunThreshold() requests is not loaded: largeRunReady follows instead, and the view
    // reads it from the file itself (docs/uiviews.md, "Large runs").
    void loadRunRecords(int runId);
    // 20,000 requests are 50–150 MB of records (docs/performance.md, memory per request).
    static constexpr qint64 kDefaultLargeRunThreshold = 20000;
    qint64 largeRunThreshold() const { return m_largeRunThreshold; }
    void setLargeRunThreshold(qint64 requests) { m_largeRunThreshold = requests; }

    // The default entities of newProject(), also used by tests.
    static SutConfig defaultSimulatorSut();
    static DatasetSpec defaultDataset();
    static LoadProfile defaultProfile();

    // Lists the runs another writer added to the file since it was opened (a study run in its
    // own thread, the CLI) and which study each run belongs to.
    void refreshRuns();
    // The same, read in a worker thread with its own read-only connection (for changedOnDisk,
    // which follows every commit of a writer): new runs are announced with entityAdded, and a
    // run listed as running that has since advanced or ended (the CLI recording it) with
    // entityChanged. One read at a time; a call during a read asks for one more after it.
    void refreshRunsInBackground();

signals:
    void projectReset();
    void entityAdded(sb::EntityKind kind, int id);
    void entityChanged(sb::EntityKind kind, int id);
    void entityRemoved(sb::EntityKind kind, int id);
    void modifiedChanged(bool modified);
    void pathChanged(const QString &path);
    // The project now lives in another file (a new project's temporary file, an opened or
    // saved-as file): views that read the file directly (Compare, Cost) follow it.
    void storeChanged(const QString &storePath);
    // The project file (or its -wal) changed on disk since the last time this was said: another
    // process wrote it (the CLI importing bills, creating a window, recording a run), or a
    // thread of this one did. Debounced (ProjectFileWatcher). Views that read the file directly
    // read it again; the document itself re-reads nothing on it unless asked to
    // (refreshRunsInBackground, which the main window connects for the project tree).
    void changedOnDisk();
    void runRecordsLoaded(int runId, const sb::RunPlan &plan,
                          const QList<sb::RequestRecord> &records, const QString &error);
    // A large stored run (see loadRunRecords()): where it is, and its stored request count.
    void largeRunReady(int runId, const sb::RunPlan &plan, const QString &storePath,
                       qint64 storeRunId, qint64 requestCount);

private:
    void clear();
    void setModified(bool modified);
    bool writeConfigs(ProjectStore *store, QString *error);
    // The file's runs as one read of the store gives them (any thread's connection).
    struct RunListing
    {
        QList<RunInfo> runs;
        QHash<qint64, QString> sweeps;  // sweep id -> name
        QHash<qint64, QString> studies; // run id -> study label
        QString error;
    };
    static RunListing readRunListing(ProjectStore *store);
    // Reads the file's runs; with onlyNew, only those not listed yet (a study or another
    // process added them) — each announced with entityAdded.
    void readRuns(bool onlyNew = false);
    void mergeRuns(const RunListing &listing, bool onlyNew);
    bool openStore(const QString &path, QString *error);

    std::unique_ptr<ProjectStore> m_store;
    BackgroundJobs *m_jobs;
    ProjectFileWatcher *m_fileWatcher;
    QString m_path;
    QString m_storePath;
    std::unique_ptr<QTemporaryDir> m_tempDir; // a new project's file lives here until saved
    bool m_modified = false;
    qint64 m_largeRunThreshold = kDefaultLargeRunThreshold;
    quint64 m_storeGeneration = 0; // raised by clear(): a read of an earlier file is dropped
    bool m_refreshing = false;     // refreshRunsInBackground's read is under way
    bool m_refreshAgain = false;   // ... and another was asked for meanwhile
    int m_nextId = 1;
    QList<DocSut> m_suts;
    QList<DocDataset> m_datasets;
    QList<DocProfile> m_profiles;
    QList<DocRun> m_runs;
    QList<qint64> m_deletedSuts, m_deletedDatasets, m_deletedProfiles, m_deletedRuns;
};

} // namespace sb

Q_DECLARE_METATYPE(sb::EntityKind)
