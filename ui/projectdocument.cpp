#include "projectdocument.h"

#include "backgroundjobs.h"
#include "common/version.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
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
    : QObject(parent), m_jobs(new BackgroundJobs(this))
{
    qRegisterMetaType<sb::EntityKind>();
    qRegisterMetaType<sb::RunPlan>();
    qRegisterMetaType<QList<sb::RequestRecord>>();
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
    m_store.reset();
    m_path.clear();
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

void ProjectDocument::newProject()
{
    clear();
    m_suts.append({m_nextId++, 0, defaultSimulatorSut()});
    m_datasets.append({m_nextId++, 0, tr("Synthetic 256 → 64 tokens"), defaultDataset(), {}});
    m_profiles.append({m_nextId++, 0, tr("Poisson 20 req/s"), defaultProfile()});
    m_modified = false;
    emit projectReset();
    emit pathChanged(m_path);
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
    for (const StoredSut &s : m_store->listSuts())
        m_suts.append({m_nextId++, s.id, s.config});
    for (const StoredDataset &d : m_store->listDatasets())
        m_datasets.append({m_nextId++, d.id, d.name, d.spec, d.contentHash});
    for (const StoredLoadProfile &p : m_store->listLoadProfiles())
        m_profiles.append({m_nextId++, p.id, p.name, p.profile, p.params});
    readRuns();
    m_modified = false;
    emit projectReset();
    emit pathChanged(m_path);
    emit modifiedChanged(false);
    return true;
}

void ProjectDocument::readRuns()
{
    QHash<qint64, QString> sweeps;
    for (const StoredSweep &s : m_store->listSweeps())
        sweeps.insert(s.id, s.name);
    for (const RunInfo &info : m_store->listRuns()) {
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
        r.sweepName = sweeps.value(info.sweepId);
        m_runs.append(r);
    }
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
    if (!m_store) {
        if (error)
            *error = tr("The project has no file yet: use Save As.");
        return false;
    }
    if (!writeConfigs(m_store.get(), error))
        return false;
    setModified(false);
    return true;
}

bool ProjectDocument::writeRuns(const QString &path, QString *error)
{
    // Stored runs of the old file are copied through their records: the new file is a project
    // of its own, not a link to the old one.
    RunWriter writer;
    if (!writer.open(path, error))
        return false;
    for (DocRun &r : m_runs) {
        QList<RequestRecord> records = r.records;
        RunInfo full = r.info;
        if (r.storeId != 0 && m_store) {
            if (auto loaded = m_store->loadRun(r.storeId))
                full = *loaded;
            if (!r.recordsLoaded)
                records = m_store->loadRequests(r.storeId);
        }
        RunInfo meta = full;
        meta.id = 0;
        const DocSut *s = sut(r.sutDocId);
        const DocDataset *d = dataset(r.datasetDocId);
        const DocProfile *p = profile(r.profileDocId);
        meta.sutId = s ? s->storeId : 0;
        meta.datasetId = d ? d->storeId : 0;
        meta.profileId = p ? p->storeId : 0;
        meta.sweepId = 0;
        const qint64 id = writer.beginRun(full.snapshot, meta, error);
        if (id == 0)
            return false;
        for (const RequestRecord &rec : std::as_const(records))
            writer.append(rec);
        const StoredRunStatus status =
            full.status == StoredRunStatus::Running ? StoredRunStatus::Interrupted : full.status;
        if (!writer.finishRun(status, full.summary, full.statusMessage, full.endedUtc,
                              full.endedMonoNs, error))
            return false;
        r.storeId = id;
        r.info.id = id;
        r.info.sutId = meta.sutId;
        r.info.datasetId = meta.datasetId;
        r.info.profileId = meta.profileId;
    }
    writer.close();
    return true;
}

bool ProjectDocument::saveAs(const QString &path, QString *error)
{
    if (QFileInfo(path) == QFileInfo(m_path))
        return save(error);
    // The file dialog has asked about overwriting; the store would otherwise open the old
    // project and merge into it.
    for (const QString &suffix : {u""_s, u"-wal"_s, u"-shm"_s})
        if (QFile::exists(path + suffix) && !QFile::remove(path + suffix)) {
            if (error)
                *error = tr("Cannot replace %1.").arg(path + suffix);
            return false;
        }
    auto store = std::make_unique<ProjectStore>();
    if (!store->open(path)) {
        if (error)
            *error = store->lastError();
        return false;
    }
    // Every entity is new in the new file.
    QList<DocSut> suts = m_suts;
    QList<DocDataset> datasets = m_datasets;
    QList<DocProfile> profiles = m_profiles;
    for (DocSut &s : m_suts)
        s.storeId = 0;
    for (DocDataset &d : m_datasets)
        d.storeId = 0;
    for (DocProfile &p : m_profiles)
        p.storeId = 0;
    m_deletedRuns.clear();
    m_deletedSuts.clear();
    m_deletedDatasets.clear();
    m_deletedProfiles.clear();
    if (!writeConfigs(store.get(), error) || !writeRuns(path, error)) {
        m_suts = suts;
        m_datasets = datasets;
        m_profiles = profiles;
        return false;
    }
    m_store = std::move(store);
    m_path = path;
    emit pathChanged(m_path);
    setModified(false);
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
    r.id = m_nextId++;
    m_runs.append(r);
    if (r.storeId == 0)
        setModified(true); // only in memory until the project is saved
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
    DocProfile *p = findById(m_profiles, id);
    if (!p)
        return;
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
        QString error;
    };
    const QString path = m_path;
    const qint64 storeId = r->storeId;
    // One SQLite connection per thread: the worker opens its own, read-only.
    m_jobs->run(
        [path, storeId] {
            Loaded out;
            ProjectStore store;
            if (!store.open(path, ProjectStore::OpenMode::ReadOnly)) {
                out.error = store.lastError();
                return out;
            }
            if (auto info = store.loadRun(storeId))
                out.info = *info;
            out.records = store.loadRequests(storeId);
            if (out.records.isEmpty() && !store.lastError().isEmpty())
                out.error = store.lastError();
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
                run->recordsLoaded = true;
            }
            emit runRecordsLoaded(runId, RunPlan::fromJson(loaded.info.snapshot), loaded.records,
                                  loaded.error);
        });
}

} // namespace sb
