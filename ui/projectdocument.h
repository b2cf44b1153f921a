#pragma once

#include "config/runplan.h"
#include "metrics/requestrecord.h"
#include "store/storetypes.h"

#include <QList>
#include <QObject>
#include <QString>
#include <memory>

namespace sb {

class BackgroundJobs;
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
    RequestParams params; // sent with every request of this profile's runs
};

struct DocRun
{
    int id = 0;
    qint64 storeId = 0; // 0: only in memory (a new project not saved yet)
    RunInfo info;       // name, status, times, snapshot (the frozen run plan), summary
    QString sutName;    // grouping key in the project tree
    QString sweepName;  // empty: not part of a sweep
    int sutDocId = 0;   // the document entities the run was made from (0: unknown)
    int datasetDocId = 0;
    int profileDocId = 0;
    QList<RequestRecord> records; // empty until loaded (stored runs load on demand)
    bool recordsLoaded = false;
};

// The open project: SUTs, datasets, load profiles and runs, backed by the SQLite project file of
// core/store once it has a path. Until then (a new project) everything lives in memory and
// Save As writes it out, runs included. Config rows are small and written on Save in the GUI
// thread; run records are large and move through RunWriter's thread (while a run records) or a
// worker thread (loadRunRecords).
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

    QString path() const { return m_path; }
    QString displayName() const;
    bool isModified() const { return m_modified; }
    bool hasFile() const { return !m_path.isEmpty(); }

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
    bool remove(EntityKind kind, int id);

    // Loads a stored run's records in a worker thread; runRecordsLoaded follows. Runs in memory
    // answer at once (still through the signal, queued).
    void loadRunRecords(int runId);

    // The default entities of newProject(), also used by tests.
    static SutConfig defaultSimulatorSut();
    static DatasetSpec defaultDataset();
    static LoadProfile defaultProfile();

signals:
    void projectReset();
    void entityAdded(sb::EntityKind kind, int id);
    void entityChanged(sb::EntityKind kind, int id);
    void entityRemoved(sb::EntityKind kind, int id);
    void modifiedChanged(bool modified);
    void pathChanged(const QString &path);
    void runRecordsLoaded(int runId, const sb::RunPlan &plan,
                          const QList<sb::RequestRecord> &records, const QString &error);

private:
    void clear();
    void setModified(bool modified);
    bool writeConfigs(ProjectStore *store, QString *error);
    bool writeRuns(const QString &path, QString *error);
    void readRuns();

    std::unique_ptr<ProjectStore> m_store;
    BackgroundJobs *m_jobs;
    QString m_path;
    bool m_modified = false;
    int m_nextId = 1;
    QList<DocSut> m_suts;
    QList<DocDataset> m_datasets;
    QList<DocProfile> m_profiles;
    QList<DocRun> m_runs;
    QList<qint64> m_deletedSuts, m_deletedDatasets, m_deletedProfiles, m_deletedRuns;
};

} // namespace sb

Q_DECLARE_METATYPE(sb::EntityKind)
