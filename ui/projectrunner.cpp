#include "projectrunner.h"

#include "run/managedserver.h"

#include "common/backgroundjobs.h"
#include "keychainstore.h"
#include "run/runcontroller.h"
#include "run/runrecorder.h"
#include "sim/simulator.h"

#include <QSysInfo>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
StoredRunStatus storedStatus(const QString &status)
{
    StoredRunStatus s = StoredRunStatus::Failed;
    storedRunStatusFromName(status, &s);
    return s;
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
                    if (m_state != State::Preparing)
                        return;
                    if (ticket == m_keyTicket) {
                        if (!message.isEmpty())
                            emit statusMessage(message);
                        m_apiKey = key;
                        fetchNextSecretOrPrepare();
                    } else if (ticket == m_secretTicket && !m_secretRefs.isEmpty()) {
                        // A message means the key did not come from the entry (the store fell
                        // back to OPENAI_API_KEY): never send the API key to another target.
                        // The scrape plan then says the entry could not be read.
                        const QString ref = m_secretRefs.takeFirst();
                        if (message.isEmpty() && !key.isEmpty())
                            m_secrets.insert(ref, key);
                        fetchNextSecretOrPrepare();
                    }
                });
}

ProjectRunner::~ProjectRunner()
{
    if (m_cancelPrepare)
        m_cancelPrepare->store(true);
    // Join the workers first: one may be preparing with the simulator.
    delete m_jobs;
    m_jobs = nullptr;
    if (m_session)
        m_session->disconnect(this);
    m_session.reset(); // stops a run in flight; its file row is marked interrupted
    m_finishedSession.reset();
}

RunController *ProjectRunner::controller() const
{
    if (m_session)
        return m_session->controller();
    return m_finishedSession ? m_finishedSession->controller() : nullptr;
}

void ProjectRunner::setState(State s)
{
    if (m_state == s)
        return;
    m_state = s;
    emit stateChanged(s);
}

bool ProjectRunner::start(const RunRequest &request, const QString &storePath, const RunInfo &links,
                          QString *error)
{
    if (m_state != State::Idle) {
        if (error)
            *error = tr("A run is already in progress.");
        return false;
    }
    m_issues = validateRunRequest(request);
    if (!m_issues.isEmpty()) {
        if (error) {
            const PlanIssue &i = m_issues.first();
            *error = tr("%1: %2").arg(i.field, i.message.translated());
        }
        return false;
    }
    m_request = request;
    m_request.frontEnd = u"workbench"_s;
    m_plan = request.plan;
    m_storePath = storePath;
    m_links = links;
    ++m_generation;
    setState(State::Preparing);
    // Tokens of metrics targets kept in the keychain are read here, as the API key is;
    // env: references are read by the pipeline from the environment.
    m_secrets.clear();
    m_secretRefs.clear();
    if (m_keys)
        for (const MetricsTarget &t : std::as_const(m_plan.sut.serverMetrics.targets))
            if (t.tokenRef.startsWith("keychain:"_L1) && !m_secretRefs.contains(t.tokenRef))
                m_secretRefs.append(t.tokenRef);
    if (m_plan.sut.builtInSimulator || !m_keys) {
        m_apiKey = m_plan.sut.builtInSimulator ? QByteArray() : qgetenv("OPENAI_API_KEY");
        fetchNextSecretOrPrepare();
        return true;
    }
    emit statusMessage(tr("Reading the API key …"));
    m_keyTicket = m_keys->fetch(m_plan.sut.apiKeyRef);
    return true;
}

void ProjectRunner::fetchNextSecretOrPrepare()
{
    if (m_secretRefs.isEmpty()) {
        prepare(m_apiKey);
        return;
    }
    emit statusMessage(tr("Reading the token of a metrics target from the keychain …"));
    m_secretTicket = m_keys->fetch(m_secretRefs.first());
}

void ProjectRunner::prepare(const QByteArray &apiKey)
{
    const quint64 generation = m_generation;
    m_cancelPrepare = std::make_shared<std::atomic<bool>>(false);
    struct Prepared
    {
        bool ok = false;
        PreparedRun run;
        std::unique_ptr<RunRecorder> recorder;
        PlanIssue issue;
        QString error;
    };
    const RunRequest request = m_request;
    const QString storePath = m_storePath;
    PrepareContext context;
    context.apiKey = apiKey;
    context.secrets = m_secrets;
    context.simulator = m_simulator;
    context.cancelled = m_cancelPrepare.get();
    auto cancel = m_cancelPrepare; // kept alive by the job
    // The job runs in m_jobs, which the destructor joins: `this` outlives every call.
    context.progress = [this, generation](const QString &what) {
        QMetaObject::invokeMethod(
            this,
            [this, generation, what] {
                if (m_generation == generation)
                    emit statusMessage(what);
            },
            Qt::QueuedConnection);
    };
    m_jobs->run(
        [request, storePath, context, cancel] {
            Prepared p;
            if (!prepareRun(request, context, &p.run, &p.issue)) {
                // A managed server that never became healthy: its output goes into the project
                // beside the failure (docs/managed-servers.md); here, off the GUI thread.
                if (p.run.managedServer && !storePath.isEmpty()) {
                    p.run.managedServer->stop();
                    QString ignored;
                    saveManagedServerLog(storePath, *p.run.managedServer, request.plan.sut.name,
                                         &ignored);
                }
                return p;
            }
            if (!storePath.isEmpty()) {
                // The project file is opened here, off the GUI thread, like every disk access.
                auto recorder = std::make_unique<RunRecorder>();
                if (!recorder->open(storePath, &p.error))
                    return p;
                p.recorder = std::move(recorder);
            }
            p.ok = true;
            return p;
        },
        [this, generation](Prepared p) {
            if (generation != m_generation || m_state != State::Preparing)
                return;
            if (!p.ok) {
                fail(!p.error.isEmpty()
                         ? tr("The project file cannot record the run: %1").arg(p.error)
                     : p.issue.field == "run"_L1
                         ? p.issue.message.translated()
                         : tr("%1: %2").arg(p.issue.field, p.issue.message.translated()));
                return;
            }
            if (p.run.simulator && p.run.simulator != m_simulator) {
                m_simulator = p.run.simulator;
                emit statusMessage(tr("Built-in simulator listening on %1.")
                                       .arg(m_simulator->baseUrl().toString()));
            }
            m_plan = p.run.request.plan;
            m_finishedSession.reset();
            m_session = std::make_unique<RunSession>(std::move(p.run));
            m_session->setLinks(m_links.sutId, m_links.datasetId, m_links.profileId);
            if (p.recorder)
                m_session->setRecorder(std::move(p.recorder));
            connect(
                m_session.get(), &RunSession::runStarted, this,
                [this](RunController *c, const RunPlan &plan, const QString &label, int position) {
                    setState(State::Running);
                    if (position >= 0)
                        emit pointStarted(label, position, m_session->plannedPoints());
                    emit statusMessage(tr("Run started: %1").arg(plan.name));
                    emit runStarted(c, plan);
                });
            connect(m_session.get(), &RunSession::runFinished, this, [this](const RunOutcome &o) {
                FinishedRun fr;
                fr.plan = o.input.plan;
                fr.records = o.input.records.list();
                fr.status = o.input.status == "completed"_L1     ? RunStatus::Completed
                            : o.input.status == "interrupted"_L1 ? RunStatus::Interrupted
                                                                 : RunStatus::Failed;
                fr.datasetHash = o.input.datasetHash;
                fr.derived = o.derived;
                fr.serverMetrics = o.input.serverMetrics;
                fr.label = o.label;
                fr.sweepId = m_session ? m_session->result().sweepId : 0;
                // A sweep's or series' runs are grouped under its name in the project tree.
                fr.sweepName = m_session ? m_session->result().sweepName : QString();
                RunInfo &info = fr.info;
                info = m_links;
                info.id = o.storedRunId;
                info.name = o.input.plan.name;
                info.toolVersion = o.input.snapshot.value(u"tool_version"_s).toString();
                info.host = QSysInfo::machineHostName();
                info.startedUtc = o.input.wallStart;
                info.startedMonoNs = o.input.runStartNs;
                info.endedUtc = o.wallEnd;
                info.endedMonoNs = o.runEndNs;
                info.status = storedStatus(o.input.status);
                info.snapshot = o.input.snapshot;
                info.summary = o.summaryJson;
                info.requestCount = o.input.records.size();
                info.sweepId = fr.sweepId;
                info.sweepPosition = o.position;
                if (fr.status == RunStatus::Interrupted)
                    fr.message = info.statusMessage = tr("stopped by the user");
                else if (fr.status == RunStatus::Failed)
                    fr.message = info.statusMessage = tr("the run failed");
                const RunSummary &s = o.derived.summary;
                emit statusMessage(o.storedRunId > 0
                                       ? tr("Run finished and saved: %1 of %2 requests "
                                            "succeeded.")
                                             .arg(s.completed)
                                             .arg(s.measured)
                                       : tr("Run finished: %1 of %2 requests succeeded.")
                                             .arg(s.completed)
                                             .arg(s.measured));
                emit runFinished(fr);
            });
            connect(m_session.get(), &RunSession::finished, this,
                    [this](const SessionResult &result) {
                        if (!result.error.isEmpty())
                            emit statusMessage(tr("The run ended early: %1").arg(result.error));
                        // Keep the session (and its last controller) readable until the next run.
                        m_finishedSession = std::move(m_session);
                        setState(State::Idle);
                        emit sessionFinished(result);
                        if (!result.error.isEmpty())
                            emit runFailed(result.error);
                    });
            for (const QString &n : m_session->prepared().notes)
                emit statusMessage(n);
            QString error;
            if (!m_session->start(&error)) {
                m_session.reset();
                fail(error);
            }
        });
}

void ProjectRunner::stop()
{
    switch (m_state) {
    case State::Idle:
    case State::Stopping:
        return;
    case State::Preparing:
        ++m_generation; // the preparation in flight is dropped when it comes back
        if (m_cancelPrepare)
            m_cancelPrepare->store(true);
        if (m_session) {
            m_session->stop();
            setState(State::Stopping);
            return;
        }
        setState(State::Idle);
        emit statusMessage(tr("Run cancelled before it started."));
        return;
    case State::Running:
        setState(State::Stopping);
        emit statusMessage(tr("Stopping: cancelling the requests in flight …"));
        if (m_session)
            m_session->stop();
        return;
    }
}

void ProjectRunner::fail(const QString &error)
{
    setState(State::Idle);
    emit statusMessage(error);
    emit runFailed(error);
}

} // namespace sb
