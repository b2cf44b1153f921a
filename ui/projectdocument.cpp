#include "projectdocument.h"

#include "projectfilewatcher.h"

#include "common/backgroundjobs.h"
#include "common/version.h"
#include "report/serverreport.h"
#include "store/projectstore.h"
#include "store/runwriter.h"
#include "study/studystore.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
template <class T> T *findById(QList<T> &list, int id)
{
    for (T &e : list)
        if (e.id == id)
            return &e;
    return nullptr;
}
template <class T> const T *findById(const QList<T> &list, int id)
{
    for (const T &e : list)
        if (e.id == id)
            return &e;
    return nullptr;
}
} // namespace

ProjectDocument::ProjectDocument(QObject *parent)
    : QObject(parent), m_jobs(new BackgroundJobs(this)), m_fileWatcher(new ProjectFileWatcher(this))
{
    qRegisterMetaType<sb::EntityKind>();
    qRegisterMetaType<sb::RunPlan>();
    qRegisterMetaType<QList<sb::RequestRecord>>();
    // Whatever file the project lives in is the one watched (a new project's temporary file
    // too): every place that moves the project emits storeChanged.
    connect(this, &ProjectDocument::storeChanged, m_fileWatcher, &ProjectFileWatcher::setPath);
    connect(m_fileWatcher, &ProjectFileWatcher::changed, this, &ProjectDocument::changedOnDisk);
}

ProjectDocument::~ProjectDocument() = default;

SutConfig ProjectDocument::defaultSimulatorSut()
{
    SutConfig s;
    s.name = QCoreApplication::translate("sb::ProjectDocument", "Built-in simulator");
    s.builtInSimulator = true;
    s.flavour = ApiFlavour::Completions;
    s.model = u"servebench-sim"_s;
    s.engine = u"servebench-sim"_s;
    s.engineVersion = QString::fromLatin1(toolVersion());
    s.clientLocation = u"localhost"_s;
    s.notes = QCoreApplication::translate(
        "sb::ProjectDocument",
        "Started in-process on a free port when a run uses it: TTFT 50 ms, 10 ms per token.");
    return s;
}

DatasetSpec ProjectDocument::defaultDataset()
{
    DatasetSpec d;
    d.kind = DatasetKind::Random;
    d.randomInputLen = 256;
    d.randomOutputLen = 64;
    d.randomRangeRatio = 0.25;
    d.versionLabel = u"v1"_s;
    return d;
}

LoadProfile ProjectDocument::defaultProfile()
{
    LoadProfile p;
    p.arrival = ArrivalProcess::Poisson;
    p.requestRate = 20;
    p.numPrompts = 200;
    p.seed = 1;
    p.metricPercentiles = {50, 90, 99};
    return p;
}

void ProjectDocument::clear()
{
    ++m_storeGeneration;
    m_store.reset();
    m_path.clear();
    m_storePath.clear();
    m_tempDir.reset();
    m_suts.clear();
    m_datasets.clear();
    m_profiles.clear();
    m_runs.clear();
    m_deletedSuts.clear();
    m_deletedDatasets.clear();
    m_deletedProfiles.clear();
    m_deletedRuns.clear();
    m_nextId = 1;
}

bool ProjectDocument::openStore(const QString &path, QString *error)
{
    auto store = std::make_unique<ProjectStore>();
    if (!store->open(path)) {
        if (error)
            *error = store->lastError();
        return false;
    }
    m_store = std::move(store);
    m_storePath = path;
    return true;
}

void ProjectDocument::newProject()
{
    clear();
    // A new project records its runs like a saved one, in a file of its own until Save As.
    m_tempDir = std::make_unique<QTemporaryDir>();
    QString error;
    if (!m_tempDir->isValid() || !openStore(m_tempDir->filePath(u"untitled.sbproj"_s), &error))
        qWarning("ServeBench: no temporary project file (%s): runs cannot be recorded",
                 qPrintable(m_tempDir->isValid() ? error : m_tempDir->errorString()));
    m_suts.append({m_nextId++, 0, defaultSimulatorSut()});
    m_datasets.append({m_nextId++, 0, tr("Synthetic 256 → 64 tokens"), defaultDataset(), {}});
    m_profiles.append({m_nextId++, 0, tr("Poisson 20 req/s"), defaultProfile()});
    m_modified = false;
    emit projectReset();
    emit pathChanged(m_path);
    emit storeChanged(m_storePath);
    emit modifiedChanged(false);
}

bool ProjectDocument::open(const QString &path, QString *error)
{
    auto store = std::make_unique<ProjectStore>();
    if (!store->open(path)) {
        if (error)
            *error = store->lastError();
        return false;
    }
    clear();
    m_store = std::move(store);
    m_path = path;
    m_storePath = path;
    for (const StoredSut &s : m_store->listSuts())
        m_suts.append({m_nextId++, s.id, s.config});
    for (const StoredDataset &d : m_store->listDatasets())
        m_datasets.append({m_nextId++, d.id, d.name, d.spec, d.contentHash});
    for (const StoredLoadProfile &p : m_store->listLoadProfiles())
        m_profiles.append(
            {m_nextId++, p.id, p.name, p.profile, p.params, RunExecution::fromJson(p.execution)});
    readRuns();
    m_modified = false;
    emit projectReset();
    emit pathChanged(m_path);
    emit storeChanged(m_storePath);
    emit modifiedChanged(false);
    return true;
}

namespace {
// Run id -> the study whose cell made it ("name", or "name v2" past the first version): every
// attempt of every cell, interrupted ones included.
QHash<qint64, QString> studiesOfRuns(ProjectStore *store)
{
    QHash<qint64, QString> out;
    StudyStore studies(store);
    if (!studies.available())
        return out;
    for (const QString &name : studies.studyNames()) {
        const qint64 id = studies.studyId(name);
        const auto latest = studies.latestVersion(id);
        if (!latest)
            continue;
        for (int v = 1; v <= latest->version; ++v) {
            const auto version = studies.version(id, v);
            if (!version)
                continue;
            const QString label = latest->version > 1 ? u"%1 v%2"_s.arg(name).arg(v) : name;
            for (const StoredStudyCell &cell : studies.cells(version->id))
                for (qint64 run : studies.cellRuns(cell.id))
                    out.insert(run, label);
        }
    }
    return out;
}
} // namespace

void ProjectDocument::refreshRuns()
{
    if (m_store)
        readRuns(true);
}

void ProjectDocument::refreshRunsInBackground()
{
    if (!m_store || m_storePath.isEmpty())
        return;
    if (m_refreshing) {
        m_refreshAgain = true;
        return;
    }
    m_refreshing = true;
    const QString path = m_storePath;
    const quint64 generation = m_storeGeneration;
    // One SQLite connection per thread: the worker opens its own, read-only.
    m_jobs->run(
        [path] {
            ProjectStore store;
            if (!store.open(path, ProjectStore::OpenMode::ReadOnly)) {
                RunListing failed;
                failed.error = store.lastError();
                return failed;
            }
            return readRunListing(&store);
        },
        [this, generation](const RunListing &listing) {
            m_refreshing = false;
            if (generation == m_storeGeneration && m_store && listing.error.isEmpty())
                mergeRuns(listing, true);
            if (std::exchange(m_refreshAgain, false))
                refreshRunsInBackground();
        });
}

ProjectDocument::RunListing ProjectDocument::readRunListing(ProjectStore *store)
{
    RunListing out;
    for (const StoredSweep &s : store->listSweeps())
        out.sweeps.insert(s.id, s.name);
    out.studies = studiesOfRuns(store);
    out.runs = store->listRuns();
    return out;
}

void ProjectDocument::readRuns(bool onlyNew)
{
    mergeRuns(readRunListing(m_store.get()), onlyNew);
}

void ProjectDocument::mergeRuns(const RunListing &listing, bool onlyNew)
{
    QHash<qint64, int> known; // store id -> index in m_runs
    for (int i = 0; i < m_runs.size(); ++i)
        if (m_runs.at(i).storeId > 0)
            known.insert(m_runs.at(i).storeId, i);
    // Removed here but not saved yet: still in the file, not to come back.
    const QSet<qint64> deleted(m_deletedRuns.cbegin(), m_deletedRuns.cend());
    QList<int> changed;
    for (DocRun &r : m_runs) {
        const QString study = listing.studies.value(r.storeId);
        if (onlyNew && r.storeId > 0 && study != r.studyName)
            changed.append(r.id); // regrouped under its study
        r.studyName = study;
    }
    for (const RunInfo &info : listing.runs) {
        if (deleted.contains(info.id))
            continue;
        if (const auto k = known.constFind(info.id); k != known.cend()) {
            // Only a run still running changes in the file (it advances, ends, or its writer dies):
            // a finished one is final, and a listing read before it finished must not undo it.
            DocRun &r = m_runs[*k];
            if (!onlyNew || r.info.status != StoredRunStatus::Running)
                continue;
            if (info.status == r.info.status && info.requestCount == r.info.requestCount &&
                info.lastCommitUtc == r.info.lastCommitUtc)
                continue;
            if (info.requestCount != r.info.requestCount) {
                r.records.clear(); // loaded while it ran: read again when shown
                r.recordsLoaded = false;
            }
            r.info = info;
            if (!changed.contains(r.id))
                changed.append(r.id);
            continue;
        }
        DocRun r;
        r.id = m_nextId++;
        r.storeId = info.id;
        r.info = info;
        for (const DocSut &s : std::as_const(m_suts))
            if (s.storeId == info.sutId && info.sutId != 0) {
                r.sutName = s.config.name;
                r.sutDocId = s.id;
            }
        for (const DocDataset &d : std::as_const(m_datasets))
            if (d.storeId == info.datasetId && info.datasetId != 0)
                r.datasetDocId = d.id;
        for (const DocProfile &p : std::as_const(m_profiles))
            if (p.storeId == info.profileId && info.profileId != 0)
                r.profileDocId = p.id;
        r.sweepName = listing.sweeps.value(info.sweepId);
        r.studyName = listing.studies.value(info.id);
        m_runs.append(r);
        if (onlyNew)
            emit entityAdded(EntityKind::Run, r.id);
    }
    for (int id : std::as_const(changed))
        emit entityChanged(EntityKind::Run, id);
}

bool ProjectDocument::writeConfigs(ProjectStore *store, QString *error)
{
    auto failed = [&] {
        if (error)
            *error = store->lastError();
        return false;
    };
    for (qint64 id : std::as_const(m_deletedRuns))
        store->deleteRun(id);
    for (qint64 id : std::as_const(m_deletedSuts))
        store->deleteSut(id);
    for (qint64 id : std::as_const(m_deletedDatasets))
        store->deleteDataset(id);
    for (qint64 id : std::as_const(m_deletedProfiles))
        store->deleteLoadProfile(id);
    for (DocSut &s : m_suts) {
        StoredSut row;
        row.id = s.storeId;
        row.config = s.config;
        const qint64 id = store->saveSut(row);
        if (id == 0)
            return failed();
        s.storeId = id;
    }
    for (DocDataset &d : m_datasets) {
        StoredDataset row;
        row.id = d.storeId;
        row.name = d.name;
        row.spec = d.spec;
        row.contentHash = d.contentHash;
        const qint64 id = store->saveDataset(row);
        if (id == 0)
            return failed();
        d.storeId = id;
    }
    for (DocProfile &p : m_profiles) {
        StoredLoadProfile row;
        row.id = p.storeId;
        row.name = p.name;
        row.profile = p.profile;
        row.params = p.params;
        row.execution = p.execution.toJson();
        const qint64 id = store->saveLoadProfile(row);
        if (id == 0)
            return failed();
        p.storeId = id;
    }
    m_deletedRuns.clear();
    m_deletedSuts.clear();
    m_deletedDatasets.clear();
    m_deletedProfiles.clear();
    return true;
}

bool ProjectDocument::save(QString *error)
{
    if (!m_store || m_path.isEmpty()) {
        if (error)
            *error = tr("The project has no file yet: use Save As.");
        return false;
    }
    if (!writeConfigs(m_store.get(), error))
        return false;
    setModified(false);
    return true;
}

bool ProjectDocument::saveAs(const QString &path, QString *error)
{
    if (!m_path.isEmpty() && QFileInfo(path) == QFileInfo(m_path))
        return save(error);
    if (!m_store) {
        if (error)
            *error = tr("The project has no file to copy.");
        return false;
    }
    // The file dialog has asked about overwriting; the copy needs a free name.
    for (const QString &suffix : {u""_s, u"-wal"_s, u"-shm"_s})
        if (QFile::exists(path + suffix) && !QFile::remove(path + suffix)) {
            if (error)
                *error = tr("Cannot replace %1.").arg(path + suffix);
            return false;
        }
    // The whole file is copied (every run with its records, the same row ids), then the unsaved
    // changes go into the copy: the file left behind keeps its last saved state.
    if (!m_store->copyTo(path)) {
        if (error)
            *error = m_store->lastError();
        return false;
    }
    auto store = std::make_unique<ProjectStore>();
    if (!store->open(path) || !writeConfigs(store.get(), error)) {
        if (error && error->isEmpty())
            *error = store->lastError();
        store.reset();
        for (const QString &suffix : {u""_s, u"-wal"_s, u"-shm"_s})
            QFile::remove(path + suffix);
        return false;
    }
    m_store = std::move(store);
    m_tempDir.reset(); // a new project's temporary file is not needed any more
    m_path = path;
    m_storePath = path;
    emit pathChanged(m_path);
    emit storeChanged(m_storePath);
    setModified(false);
    return true;
}

bool ProjectDocument::storeRunEntities(int sutId, int datasetId, int profileId, RunInfo *links,
                                       QString *error)
{
    DocSut *s = findById(m_suts, sutId);
    DocDataset *d = findById(m_datasets, datasetId);
    DocProfile *p = findById(m_profiles, profileId);
    if (!m_store || !s || !d || !p) {
        if (error)
            *error = m_store ? tr("The run's SUT, dataset or load profile no longer exists.")
                             : tr("The project has no file to record the run in.");
        return false;
    }
    StoredSut sut;
    sut.id = s->storeId;
    sut.config = s->config;
    StoredDataset dataset;
    dataset.id = d->storeId;
    dataset.name = d->name;
    dataset.spec = d->spec;
    dataset.contentHash = d->contentHash;
    StoredLoadProfile profile;
    profile.id = p->storeId;
    profile.name = p->name;
    profile.profile = p->profile;
    profile.params = p->params;
    profile.execution = p->execution.toJson();
    const qint64 sid = m_store->saveSut(sut);
    const qint64 did = sid ? m_store->saveDataset(dataset) : 0;
    const qint64 pid = did ? m_store->saveLoadProfile(profile) : 0;
    if (!pid) {
        if (error)
            *error = m_store->lastError();
        return false;
    }
    s->storeId = sid;
    d->storeId = did;
    p->storeId = pid;
    links->sutId = sid;
    links->datasetId = did;
    links->profileId = pid;
    return true;
}

QString ProjectDocument::displayName() const
{
    return m_path.isEmpty() ? tr("Untitled project") : QFileInfo(m_path).completeBaseName();
}

void ProjectDocument::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

const DocSut *ProjectDocument::sut(int id) const
{
    return findById(m_suts, id);
}
const DocDataset *ProjectDocument::dataset(int id) const
{
    return findById(m_datasets, id);
}
const DocProfile *ProjectDocument::profile(int id) const
{
    return findById(m_profiles, id);
}
const DocRun *ProjectDocument::run(int id) const
{
    return findById(m_runs, id);
}

QString ProjectDocument::entityName(EntityKind kind, int id) const
{
    switch (kind) {
    case EntityKind::Sut:
        if (auto s = sut(id))
            return s->config.name;
        break;
    case EntityKind::Dataset:
        if (auto d = dataset(id))
            return d->name;
        break;
    case EntityKind::Profile:
        if (auto p = profile(id))
            return p->name;
        break;
    case EntityKind::Run:
        if (auto r = run(id))
            return r->info.name;
        break;
    case EntityKind::None:
        break;
    }
    return {};
}

int ProjectDocument::addSut(const SutConfig &config)
{
    const int id = m_nextId++;
    m_suts.append({id, 0, config});
    setModified(true);
    emit entityAdded(EntityKind::Sut, id);
    return id;
}

int ProjectDocument::addDataset(const QString &name, const DatasetSpec &spec)
{
    const int id = m_nextId++;
    m_datasets.append({id, 0, name, spec, {}});
    setModified(true);
    emit entityAdded(EntityKind::Dataset, id);
    return id;
}

int ProjectDocument::addProfile(const QString &name, const LoadProfile &profile)
{
    const int id = m_nextId++;
    m_profiles.append({id, 0, name, profile, RequestParams()});
    setModified(true);
    emit entityAdded(EntityKind::Profile, id);
    return id;
}

int ProjectDocument::addRun(const DocRun &run)
{
    DocRun r = run;
    if (r.storeId == 0 || isTemporary())
        setModified(true); // lost unless the project is saved under a name
    // Listed already by refreshRunsInBackground while it was being recorded: the finished run
    // takes that entry's place (and id) rather than appearing twice.
    for (DocRun &listed : m_runs)
        if (r.storeId > 0 && listed.storeId == r.storeId) {
            r.id = listed.id;
            listed = r;
            emit entityChanged(EntityKind::Run, r.id);
            return r.id;
        }
    r.id = m_nextId++;
    m_runs.append(r);
    emit entityAdded(EntityKind::Run, r.id);
    return r.id;
}

void ProjectDocument::updateSut(int id, const SutConfig &config)
{
    DocSut *s = findById(m_suts, id);
    if (!s)
        return;
    const bool renamed = s->config.name != config.name;
    s->config = config;
    if (renamed)
        for (DocRun &r : m_runs)
            if (r.sutDocId == id)
                r.sutName = config.name;
    setModified(true);
    emit entityChanged(EntityKind::Sut, id);
}

void ProjectDocument::updateDataset(int id, const QString &name, const DatasetSpec &spec)
{
    DocDataset *d = findById(m_datasets, id);
    if (!d)
        return;
    d->name = name;
    d->spec = spec;
    setModified(true);
    emit entityChanged(EntityKind::Dataset, id);
}

void ProjectDocument::setDatasetHash(int id, const QString &hash)
{
    DocDataset *d = findById(m_datasets, id);
    if (!d || d->contentHash == hash)
        return;
    d->contentHash = hash;
    setModified(true);
}

void ProjectDocument::updateProfile(int id, const QString &name, const LoadProfile &profile,
                                    const RequestParams &params)
{
    const DocProfile *p = findById(m_profiles, id);
    if (p)
        updateProfile(id, name, profile, params, p->execution);
}

void ProjectDocument::updateProfile(int id, const QString &name, const LoadProfile &profile,
                                    const RequestParams &params, const RunExecution &execution)
{
    DocProfile *p = findById(m_profiles, id);
    if (!p)
        return;
    p->execution = execution;
    p->name = name;
    p->profile = profile;
    p->params = params;
    setModified(true);
    emit entityChanged(EntityKind::Profile, id);
}

bool ProjectDocument::remove(EntityKind kind, int id)
{
    auto take = [&](auto &list, QList<qint64> &deleted) {
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (list.at(i).id == id) {
                if (list.at(i).storeId != 0)
                    deleted.append(list.at(i).storeId);
                list.removeAt(i);
                return true;
            }
        }
        return false;
    };
    bool removed = false;
    switch (kind) {
    case EntityKind::Sut:
        removed = take(m_suts, m_deletedSuts);
        break;
    case EntityKind::Dataset:
        removed = take(m_datasets, m_deletedDatasets);
        break;
    case EntityKind::Profile:
        removed = take(m_profiles, m_deletedProfiles);
        break;
    case EntityKind::Run:
        removed = take(m_runs, m_deletedRuns);
        break;
    case EntityKind::None:
        break;
    }
    if (removed) {
        setModified(true);
        emit entityRemoved(kind, id);
    }
    return removed;
}

void ProjectDocument::loadRunRecords(int runId)
{
    DocRun *r = findById(m_runs, runId);
    if (!r) {
        QTimer::singleShot(0, this, [this, runId] {
            emit runRecordsLoaded(runId, {}, {}, tr("The run no longer exists."));
        });
        return;
    }
    if (r->recordsLoaded || r->storeId == 0) {
        const RunPlan plan = RunPlan::fromJson(r->info.snapshot);
        const QList<RequestRecord> records = r->records;
        QTimer::singleShot(0, this, [this, runId, plan, records] {
            emit runRecordsLoaded(runId, plan, records, {});
        });
        return;
    }
    struct Loaded
    {
        RunInfo info;
        QList<RequestRecord> records;
        QList<MetricSeriesStore> serverMetrics;
        QString error;
        bool large = false; // not loaded: the view reads it from the file
    };
    const QString path = m_storePath;
    const qint64 storeId = r->storeId;
    const qint64 largeRun = m_largeRunThreshold;
    // One SQLite connection per thread: the worker opens its own, read-only.
    m_jobs->run(
        [path, storeId, largeRun] {
            Loaded out;
            ProjectStore store;
            if (!store.open(path, ProjectStore::OpenMode::ReadOnly)) {
                out.error = store.lastError();
                return out;
            }
            if (auto info = store.loadRun(storeId))
                out.info = *info;
            out.large = out.info.requestCount > largeRun;
            if (!out.large)
                out.records = store.loadRequests(storeId);
            if (out.records.isEmpty() && !store.lastError().isEmpty())
                out.error = store.lastError();
            // A blob that does not decode loses the server's side only: the run still shows.
            QString metricsError;
            if (!loadServerMetrics(store, storeId, &out.serverMetrics, &metricsError)) {
                qWarning("%s", qPrintable(metricsError));
                out.serverMetrics.clear();
            }
            return out;
        },
        [this, runId](Loaded loaded) {
            DocRun *run = findById(m_runs, runId);
            if (!run)
                return;
            if (loaded.error.isEmpty()) {
                run->info.snapshot = loaded.info.snapshot;
                run->info.summary = loaded.info.summary;
                run->records = loaded.records;
                run->serverMetrics = loaded.serverMetrics;
                // A run another process was writing may have finished or died since the
                // project was read: the store reports its status now (RunLock).
                const bool statusChanged = run->info.status != loaded.info.status;
                run->info.status = loaded.info.status;
                run->info.statusMessage = loaded.info.statusMessage;
                run->info.endedUtc = loaded.info.endedUtc;
                run->info.requestCount = loaded.info.requestCount;
                // Records of a run still being written are a snapshot: read them again next time.
                run->recordsLoaded =
                    loaded.info.status != StoredRunStatus::Running && !loaded.large;
                if (statusChanged)
                    emit entityChanged(EntityKind::Run, runId);
                if (loaded.large) {
                    emit largeRunReady(runId, RunPlan::fromJson(loaded.info.snapshot), m_storePath,
                                       run->storeId, loaded.info.requestCount);
                    return;
                }
            }
            emit runRecordsLoaded(runId, RunPlan::fromJson(loaded.info.snapshot), loaded.records,
                                  loaded.error);
        });
}

} // namespace sb
