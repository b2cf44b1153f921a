#include "projectrunner.h"

#include "backgroundjobs.h"
#include "common/version.h"
#include "data/dataset.h"
#include "keychainstore.h"
#include "metrics/resultjson.h"
#include "metrics/summary.h"
#include "sim/simulator.h"
#include "store/runwriter.h"

#include <QSysInfo>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
StoredRunStatus storedStatus(RunStatus s)
{
    switch (s) {
    case RunStatus::Completed:
        return StoredRunStatus::Completed;
    case RunStatus::Interrupted:
        return StoredRunStatus::Interrupted;
    case RunStatus::Running:
        return StoredRunStatus::Running;
    case RunStatus::Idle:
    case RunStatus::Failed:
        break;
    }
    return StoredRunStatus::Failed;
}
} // namespace

ProjectRunner::ProjectRunner(ApiKeyStore *keys, QObject *parent)
    : QObject(parent), m_keys(keys), m_jobs(new BackgroundJobs(this))
{
    qRegisterMetaType<sb::FinishedRun>();
    qRegisterMetaType<sb::RunStatus>();
    qRegisterMetaType<sb::RequestRecord>();
    if (m_keys)
        connect(m_keys, &ApiKeyStore::keyFetched, this,
                [this](quint64 ticket, const QByteArray &key, const QString &message) {
                    if (ticket != m_keyTicket || m_state != State::Preparing)
                        return;
                    if (!message.isEmpty())
                        emit statusMessage(message);
                    launch(key);
                });
}

ProjectRunner::~ProjectRunner()
{
    // Join the workers first: one may be finishing the run in m_writer.
    delete m_jobs;
    m_jobs = nullptr;
    if (m_controller && m_controller->status() == RunStatus::Running) {
        m_controller->disconnect(this);
        m_controller->stop();
    }
    delete m_controller;
    if (m_writer) {
        m_writer->close(); // marks the run interrupted: the file stays truthful
        delete m_writer;
    }
}

void ProjectRunner::setState(State s)
{
    if (m_state == s)
        return;
    m_state = s;
    emit stateChanged(s);
}

bool ProjectRunner::start(const RunPlan &plan, const QString &storePath, const RunInfo &links,
                          QString *error)
{
    if (m_state != State::Idle) {
        if (error)
            *error = tr("A run is already in progress.");
        return false;
    }
    // The previous controller stays readable until now; the dashboard has been detached.
    delete m_controller;
    m_controller = nullptr;
    m_plan = plan;
    m_storePath = storePath;
    m_links = links;
    m_items.clear();
    const quint64 generation = ++m_generation;

    if (plan.sut.builtInSimulator) {
        if (!m_simulator) {
            // Binding a loopback port is immediate; the simulator then runs in its own thread.
            auto sim = std::make_shared<Simulator>();
            if (!sim->start()) {
                if (error)
                    *error =
                        tr("The built-in simulator could not start: %1").arg(sim->errorString());
                return false;
            }
            m_simulator = sim;
            emit statusMessage(
                tr("Built-in simulator listening on %1.").arg(m_simulator->baseUrl().toString()));
        }
        m_plan.sut.baseUrl = m_simulator->baseUrl().toString();
        if (m_plan.sut.model.isEmpty())
            m_plan.sut.model = m_simulator->config().modelName;
    }

    setState(State::Preparing);
    emit statusMessage(tr("Loading the dataset …"));
    struct Prepared
    {
        bool ok = false;
        LoadedDataset data;
        TransportOptions options; // the CA file is read here too, off the GUI thread
        bool routeError = false;  // the SUT's CA file or proxy setting is unusable
        QString error;
    };
    const DatasetSpec spec = m_plan.dataset;
    const SutConfig sut = m_plan.sut;
    // Duration-bound runs cycle through the list; 1000 distinct prompts keep them varied.
    const int wanted = m_plan.profile.numPrompts > 0 ? m_plan.profile.numPrompts : 1000;
    const quint64 seed = m_plan.profile.seed;
    m_jobs->run(
        [spec, sut, wanted, seed] {
            Prepared p;
            if (!resolveTransportOptions(sut, QProcessEnvironment::systemEnvironment(), &p.options,
                                         &p.error)) {
                p.routeError = true;
                return p;
            }
            p.ok = loadDataset(spec, wanted, seed, &p.data, &p.error);
            return p;
        },
        [this, generation](Prepared p) {
            if (generation != m_generation || m_state != State::Preparing)
                return;
            if (!p.ok) {
                fail(p.routeError ? p.error
                                  : tr("The dataset could not be loaded: %1").arg(p.error));
                return;
            }
            m_options = p.options;
            m_items = std::move(p.data.items);
            m_datasetHash = p.data.info.sha256;
            m_datasetInfo = p.data.info.toJson();
            if (m_plan.sut.builtInSimulator || !m_keys) {
                launch(m_plan.sut.builtInSimulator ? QByteArray() : qgetenv("OPENAI_API_KEY"));
                return;
            }
            emit statusMessage(tr("Reading the API key …"));
            m_keyTicket = m_keys->fetch(m_plan.sut.apiKeyRef);
        });
    return true;
}

QJsonObject ProjectRunner::snapshot() const
{
    // The same frozen configuration in memory and in the file, with the route the CLI records.
    QJsonObject o = m_plan.toJson();
    o[u"connection"_s] = connectionRoute(m_plan.sut, m_options);
    return o;
}

void ProjectRunner::launch(const QByteArray &apiKey)
{
    m_controller = new RunController(this);
    m_controller->configure(m_plan, m_items, apiKey);
    m_controller->setTransportOptions(m_options);
    m_items.clear();
    m_storedRunId = 0;
    if (!m_storePath.isEmpty()) {
        m_writer = new RunWriter;
        QString error;
        RunInfo meta = m_links;
        meta.name = m_plan.name;
        if (!m_writer->open(m_storePath, &error) ||
            (m_storedRunId = m_writer->beginRun(snapshot(), meta, &error)) == 0) {
            emit statusMessage(tr("The run is not recorded in the project file (%1); its "
                                  "records stay in memory until you save.")
                                   .arg(error));
            delete m_writer;
            m_writer = nullptr;
        } else {
            RunWriter *writer = m_writer;
            // append() is thread-safe and cheap: records only queue for the writer thread.
            connect(m_controller, &RunController::requestCompleted, writer,
                    [writer](const RequestRecord &r) { writer->append(r); });
            connect(m_writer, &RunWriter::writeFailed, this, [this](const QString &message) {
                emit statusMessage(tr("Writing the run failed: %1. Stopping.").arg(message));
                stop();
            });
        }
    }
    connect(m_controller, &RunController::finished, this, &ProjectRunner::onFinished);
    QString error;
    if (!m_controller->start(&error)) {
        if (m_writer) {
            m_writer->finishRun(StoredRunStatus::Failed, {}, error);
            m_writer->close();
            delete m_writer;
            m_writer = nullptr;
        }
        fail(error);
        return;
    }
    setState(State::Running);
    emit statusMessage(tr("Run started: %1").arg(m_plan.name));
    emit runStarted(m_controller, m_plan);
}

void ProjectRunner::stop()
{
    switch (m_state) {
    case State::Idle:
    case State::Stopping:
        return;
    case State::Preparing:
        ++m_generation; // the load in flight is dropped when it comes back
        setState(State::Idle);
        emit statusMessage(tr("Run cancelled before it started."));
        return;
    case State::Running:
        setState(State::Stopping);
        emit statusMessage(tr("Stopping: cancelling the requests in flight …"));
        m_controller->stop();
        return;
    }
}

void ProjectRunner::onFinished(RunStatus status)
{
    setState(State::Stopping);
    FinishedRun fr;
    fr.plan = m_plan;
    fr.records = m_controller->records();
    fr.status = status;
    fr.datasetHash = m_datasetHash;
    const RunSummary summary = summarize(fr.records, SummaryOptions::forProfile(m_plan.profile));
    ResultJsonOptions jo = ResultJsonOptions::forProfile(m_plan.profile);
    jo.backend = QString::fromLatin1(apiFlavourName(m_plan.sut.flavour));
    jo.modelId = m_plan.sut.model;
    jo.numPrompts = m_plan.profile.numPrompts;
    jo.date = m_controller->wallStart().toLocalTime();
    jo.runStartNs = m_controller->runStartNs();
    jo.configSnapshot = m_plan.toJson();
    jo.dataset = m_datasetInfo;
    const QJsonObject summaryJson = vllmResultJson(summary, {}, jo);

    RunInfo &info = fr.info;
    info = m_links;
    info.name = m_plan.name;
    info.toolVersion = QString::fromLatin1(toolVersion());
    info.host = QSysInfo::machineHostName();
    info.startedUtc = m_controller->wallStart();
    info.startedMonoNs = m_controller->runStartNs();
    info.endedUtc = m_controller->wallEnd();
    info.endedMonoNs = m_controller->runEndNs();
    info.status = storedStatus(status);
    info.snapshot = snapshot();
    info.summary = summaryJson;
    info.requestCount = fr.records.size();
    if (status == RunStatus::Interrupted)
        fr.message = info.statusMessage = tr("stopped by the user");
    else if (status == RunStatus::Failed)
        fr.message = info.statusMessage = tr("the run failed");

    if (!m_writer) {
        emit statusMessage(tr("Run finished: %1 of %2 requests succeeded.")
                               .arg(summary.completed)
                               .arg(summary.measured));
        emit runFinished(fr);
        setState(State::Idle);
        return;
    }
    // Committing the last batch waits on the disk: do it off the GUI thread.
    RunWriter *writer = m_writer;
    const qint64 runId = m_storedRunId;
    struct Done
    {
        bool ok = false;
        QString error;
    };
    m_jobs->run(
        [writer, info] {
            Done d;
            d.ok = writer->finishRun(info.status, info.summary, info.statusMessage, info.endedUtc,
                                     info.endedMonoNs, &d.error);
            return d;
        },
        [this, fr, runId, completed = summary.completed,
         measured = summary.measured](Done d) mutable {
            // Everything is committed: closing only ends the writer's (GUI-owned) thread.
            m_writer->close();
            delete m_writer;
            m_writer = nullptr;
            if (d.ok) {
                fr.info.id = runId;
                emit statusMessage(tr("Run finished and saved: %1 of %2 requests succeeded.")
                                       .arg(completed)
                                       .arg(measured));
            } else {
                emit statusMessage(tr("Run finished, but saving it failed: %1").arg(d.error));
            }
            emit runFinished(fr);
            setState(State::Idle);
        });
}

void ProjectRunner::fail(const QString &error)
{
    setState(State::Idle);
    emit statusMessage(error);
    emit runFailed(error);
}

} // namespace sb
