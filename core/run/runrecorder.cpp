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
} // namespace

RunRecorder::RunRecorder(QObject *parent) : QObject(parent) {}

RunRecorder::~RunRecorder()
{
    if (m_writer)
        m_writer->close(); // a run still open is marked interrupted, never lost
}

bool RunRecorder::open(const QString &projectPath, QString *error)
{
    m_store = std::make_unique<ProjectStore>();
    // The store opens (and migrates) first; the writer thread then gets its own connection.
    if (!m_store->open(projectPath)) {
        *error = m_store->lastError();
        m_store.reset();
        return false;
    }
    m_writer = std::make_unique<RunWriter>();
    if (!m_writer->open(projectPath, error)) {
        m_writer.reset();
        m_store.reset();
        return false;
    }
    m_path = projectPath;
    connect(
        m_writer.get(), &RunWriter::writeFailed, this,
        [this](const QString &message) { m_writeError = message; }, Qt::QueuedConnection);
    return true;
}

bool RunRecorder::isOpen() const
{
    return m_store && m_writer;
}

qint64 RunRecorder::ensureSut(const SutConfig &sut)
{
    const QJsonObject want = sut.toJson();
    const QList<StoredSut> suts = m_store->listSuts();
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
            return m_store->saveSut(updated);
        }
    }
    StoredSut s;
    s.config = sut;
    s.config.name = uniqueName(sut.name, names);
    return m_store->saveSut(s);
}

qint64 RunRecorder::ensureDataset(const DatasetSpec &spec, const DatasetInfo &info)
{
    QStringList names;
    for (const StoredDataset &d : m_store->listDatasets()) {
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
    return m_store->saveDataset(d);
}

qint64 RunRecorder::ensureProfile(const LoadProfile &profile, const RequestParams &params)
{
    const QJsonObject want = profile.toJson();
    const QJsonObject wantParams = params.toJson();
    QStringList names;
    for (const StoredLoadProfile &p : m_store->listLoadProfiles()) {
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
    return m_store->saveLoadProfile(p);
}

qint64 RunRecorder::createSweep(const QString &name, const QString &kind, const QJsonObject &config,
                                QString *error)
{
    StoredSweep s;
    s.name = name;
    s.kind = kind;
    s.config = config;
    const qint64 id = m_store->saveSweep(s);
    if (id <= 0)
        *error = m_store->lastError();
    return id;
}

qint64 RunRecorder::beginRun(const RunPlan &plan, const QJsonObject &snapshot,
                             const DatasetInfo &dataset, qint64 sweepId, int sweepPosition,
                             qint64 startMonoNs, QString *error)
{
    RunInfo meta;
    meta.name = plan.name;
    meta.sutId = ensureSut(plan.sut);
    meta.datasetId = ensureDataset(plan.dataset, dataset);
    meta.profileId = ensureProfile(plan.profile, plan.params);
    meta.sweepId = sweepId;
    meta.sweepPosition = sweepPosition;
    meta.startedMonoNs = startMonoNs;
    if (meta.sutId <= 0 || meta.datasetId <= 0 || meta.profileId <= 0) {
        *error = m_store->lastError();
        return 0;
    }
    m_writeError.clear();
    m_runId = m_writer->beginRun(snapshot, meta, error);
    return m_runId;
}

void RunRecorder::attach(RunController *controller)
{
    RunWriter *writer = m_writer.get();
    // append() only queues: cheap enough for the controller's thread at any rate.
    connect(
        controller, &RunController::requestCompleted, writer,
        [writer](const RequestRecord &r) { writer->append(r); }, Qt::DirectConnection);
    connect(writer, &RunWriter::writeFailed, controller, &RunController::stop,
            Qt::QueuedConnection);
}

bool RunRecorder::finishRun(RunStatus status, const QJsonObject &summary, QString *error)
{
    StoredRunStatus s = StoredRunStatus::Completed;
    if (status == RunStatus::Interrupted)
        s = StoredRunStatus::Interrupted;
    else if (status == RunStatus::Failed)
        s = StoredRunStatus::Failed;
    if (m_writer->hasFailed())
        s = StoredRunStatus::Failed;
    const bool ok = m_writer->finishRun(
        s, summary, m_writer->hasFailed() ? m_writer->errorString() : QString(), {}, 0, error);
    m_runId = 0;
    return ok;
}

} // namespace sb
