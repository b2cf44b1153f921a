#include "runrecorder.h"

#include "data/dataset.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// Names are unique per table in a project: a second, different entity gets "name #2".
QString uniqueName(const QString &base, const QStringList &taken)
{
    QString name = base;
    for (int n = 2; taken.contains(name); ++n)
        name = u"%1 #%2"_s.arg(base).arg(n);
    return name;
}

qint64 ensureSut(ProjectStore *store, const SutConfig &sut)
{
    const QJsonObject want = sut.toJson();
    const QList<StoredSut> suts = store->listSuts();
    for (const StoredSut &s : suts)
        if (s.config.toJson() == want)
            return s.id;
    // SUT names are unique in a project. The built-in simulator listens on a new port each
    // time, which is no new SUT; any other change of configuration under a used name is.
    QStringList names;
    for (const StoredSut &s : suts) {
        names.append(s.config.name);
        if (s.config.name == sut.name && s.config.builtInSimulator && sut.builtInSimulator) {
            StoredSut updated = s;
            updated.config = sut;
            return store->saveSut(updated);
        }
    }
    StoredSut s;
    s.config = sut;
    s.config.name = uniqueName(sut.name, names);
    return store->saveSut(s);
}

qint64 ensureDataset(ProjectStore *store, const DatasetSpec &spec, const DatasetInfo &info)
{
    QStringList names;
    for (const StoredDataset &d : store->listDatasets()) {
        if (d.contentHash == info.sha256 && d.spec.toJson() == spec.toJson())
            return d.id;
        names.append(d.name);
    }
    StoredDataset d;
    d.name =
        uniqueName(spec.versionLabel.isEmpty() ? QString::fromLatin1(datasetKindName(spec.kind)) +
                                                     u' ' + info.sha256.left(12)
                                               : spec.versionLabel,
                   names);
    d.contentHash = info.sha256;
    d.spec = spec;
    return store->saveDataset(d);
}

qint64 ensureProfile(ProjectStore *store, const LoadProfile &profile, const RequestParams &params)
{
    const QJsonObject want = profile.toJson();
    const QJsonObject wantParams = params.toJson();
    QStringList names;
    for (const StoredLoadProfile &p : store->listLoadProfiles()) {
        if (p.profile.toJson() == want && p.params.toJson() == wantParams)
            return p.id;
        names.append(p.name);
    }
    StoredLoadProfile p;
    p.name =
        uniqueName(u"%1 @ %2 req/s"_s.arg(
                       QString::fromLatin1(scenarioName(profile.scenario)),
                       profile.unlimitedRate() ? u"inf"_s : QString::number(profile.requestRate)),
                   names);
    p.profile = profile;
    p.params = params;
    return store->saveLoadProfile(p);
}
} // namespace

RunRecorder::RunRecorder() = default;

RunRecorder::~RunRecorder()
{
    if (m_writer)
        m_writer->close(); // a run still open is marked interrupted, never lost
}

bool RunRecorder::open(const QString &projectPath, QString *error)
{
    {
        // The store opens (and migrates) first; the writer thread then gets its own connection.
        ProjectStore store;
        if (!store.open(projectPath)) {
            *error = store.lastError();
            return false;
        }
    }
    m_writer = std::make_unique<RunWriter>();
    if (!m_writer->open(projectPath, error)) {
        m_writer.reset();
        return false;
    }
    m_path = projectPath;
    // Emitted once, from the writer's thread.
    QObject::connect(
        m_writer.get(), &RunWriter::writeFailed, m_writer.get(),
        [this](const QString &message) {
            QMutexLocker lock(&m_mutex);
            m_writeError = message;
        },
        Qt::DirectConnection);
    return true;
}

bool RunRecorder::isOpen() const
{
    return m_writer != nullptr;
}

void RunRecorder::setLinks(qint64 sutId, qint64 datasetId, qint64 profileId)
{
    m_sutId = sutId;
    m_datasetId = datasetId;
    m_profileId = profileId;
}

qint64 RunRecorder::createSweep(const QString &name, const QString &kind, const QJsonObject &config,
                                QString *error)
{
    ProjectStore store;
    if (!store.open(m_path)) {
        *error = store.lastError();
        return 0;
    }
    StoredSweep s;
    s.name = name;
    s.kind = kind;
    s.config = config;
    const qint64 id = store.saveSweep(s);
    if (id <= 0)
        *error = store.lastError();
    return id;
}

qint64 RunRecorder::beginRun(const RunPlan &plan, const QJsonObject &snapshot,
                             const DatasetInfo &dataset, qint64 sweepId, int sweepPosition,
                             qint64 startMonoNs, QString *error)
{
    ProjectStore store;
    if (!store.open(m_path)) {
        *error = store.lastError();
        return 0;
    }
    RunInfo meta;
    meta.name = plan.name;
    meta.sutId = m_sutId > 0 ? m_sutId : ensureSut(&store, plan.sut);
    meta.datasetId = m_datasetId > 0 ? m_datasetId : ensureDataset(&store, plan.dataset, dataset);
    meta.profileId =
        m_profileId > 0 ? m_profileId : ensureProfile(&store, plan.profile, plan.params);
    meta.sweepId = sweepId;
    meta.sweepPosition = sweepPosition;
    meta.startedMonoNs = startMonoNs;
    if (meta.sutId <= 0 || meta.datasetId <= 0 || meta.profileId <= 0) {
        *error = store.lastError();
        return 0;
    }
    {
        QMutexLocker lock(&m_mutex);
        m_writeError.clear();
    }
    m_runId = m_writer->beginRun(snapshot, meta, error);
    return m_runId;
}

QString RunRecorder::writeError() const
{
    QMutexLocker lock(&m_mutex);
    return m_writeError;
}

void RunRecorder::attach(RunController *controller)
{
    RunWriter *writer = m_writer.get();
    // append() only queues: cheap enough for the controller's thread at any rate.
    QObject::connect(
        controller, &RunController::requestCompleted, writer,
        [writer](const RequestRecord &r) { writer->append(r); }, Qt::DirectConnection);
    QObject::connect(writer, &RunWriter::writeFailed, controller, &RunController::stop,
                     Qt::QueuedConnection);
}

bool RunRecorder::finishRun(RunStatus status, const QJsonObject &summary, const QString &message,
                            const QDateTime &endedUtc, qint64 endedMonoNs, QString *error)
{
    StoredRunStatus s = StoredRunStatus::Completed;
    if (status == RunStatus::Interrupted)
        s = StoredRunStatus::Interrupted;
    else if (status == RunStatus::Failed)
        s = StoredRunStatus::Failed;
    if (m_writer->hasFailed())
        s = StoredRunStatus::Failed;
    const bool ok =
        m_writer->finishRun(s, summary, m_writer->hasFailed() ? m_writer->errorString() : message,
                            endedUtc, endedMonoNs, error);
    m_runId = 0;
    return ok;
}

bool RunRecorder::saveServerMetrics(const QList<StoredRunMetrics> &targets, QString *error)
{
    if (m_runId <= 0) {
        *error = u"no run is being recorded"_s;
        return false;
    }
    // Its own connection in the calling thread, beside the writer's (WAL: one writer at a time,
    // each waits for the other's short transaction).
    ProjectStore store;
    if (!store.open(m_path) || !store.saveRunMetrics(m_runId, targets)) {
        *error = store.lastError();
        return false;
    }
    return true;
}

qint64 RunRecorder::recordRun(const RunPlan &plan, const QJsonObject &snapshot,
                              const DatasetInfo &dataset, RunInfo meta,
                              const QList<RequestRecord> &records, StoredRunStatus status,
                              const QJsonObject &summary, const QString &message, QString *error)
{
    {
        ProjectStore store;
        if (!store.open(m_path)) {
            *error = store.lastError();
            return 0;
        }
        meta.sutId = ensureSut(&store, plan.sut);
        meta.datasetId = ensureDataset(&store, plan.dataset, dataset);
        meta.profileId = ensureProfile(&store, plan.profile, plan.params);
        if (meta.sutId <= 0 || meta.datasetId <= 0 || meta.profileId <= 0) {
            *error = store.lastError();
            return 0;
        }
    }
    const qint64 id = m_writer->beginRun(snapshot, meta, error);
    if (id <= 0)
        return 0;
    for (const RequestRecord &r : records)
        m_writer->append(r);
    if (!m_writer->finishRun(status, summary, message, meta.endedUtc, meta.endedMonoNs, error))
        return 0;
    return id;
}

} // namespace sb
