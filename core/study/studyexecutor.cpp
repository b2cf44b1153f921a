#include "studyexecutor.h"

#include "common/message.h"
#include "run/managedserver.h"
#include "run/planvalidation.h"
#include "run/runflags.h"
#include "run/runpreparation.h"
#include "run/runsession.h"
#include "store/projectstore.h"
#include "study/studycost.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace sb {

StudyExecutor::StudyExecutor(QString projectPath, StudyDefinition definition, QObject *parent)
    : QObject(parent), m_path(std::move(projectPath)), m_def(std::move(definition)),
      m_plan(StudyPlan::build(m_def))
{}

StudyExecutor::~StudyExecutor()
{
    // The session's destructor closes its recorder: a run still open is marked interrupted.
    m_session.reset();
    for (auto it = m_kept.cbegin(); it != m_kept.cend(); ++it) {
        it->server->stop();
        QString ignored;
        saveManagedServerLog(m_path, *it->server, it.key(), &ignored);
    }
}

bool StudyExecutor::prepare(QString *what, QString *error)
{
    m_store = std::make_unique<ProjectStore>();
    if (!m_store->open(m_path, ProjectStore::OpenMode::ReadWrite)) {
        *error = m_store->lastError();
        return false;
    }
    m_studies = std::make_unique<StudyStore>(m_store.get());
    const auto v = m_studies->ensureVersion(m_def, m_plan, what);
    if (!v) {
        *error = m_studies->lastError();
        return false;
    }
    m_version = *v;
    m_resumed = m_studies->resetRunningCells(m_version.id);
    m_datasetHash = m_def.boundary.datasetSha256;
    return true;
}

QList<StoredStudyCell> StudyExecutor::cells() const
{
    return m_studies ? m_studies->cells(m_version.id) : QList<StoredStudyCell>();
}

void StudyExecutor::start()
{
    m_running = true;
    m_stop = false;
    QTimer::singleShot(0, this, &StudyExecutor::runNext);
}

void StudyExecutor::stop()
{
    m_stop = true;
    if (m_session)
        m_session->stop();
}

void StudyExecutor::failCell(const StoredStudyCell &cell, const QString &reason)
{
    if (!m_studies->finishCell(cell.id, u"failed"_s, reason))
        emit note(u"the study's cell could not be stored: %1"_s.arg(m_studies->lastError()));
    emit cellFinished(cell, u"failed"_s, reason);
}

void StudyExecutor::runNext()
{
    if (m_stop) {
        finish({});
        return;
    }
    const QList<StoredStudyCell> all = cells();
    // The boundary's dataset hash, or the one the first completed cell ran with: every cell is
    // held to it.
    if (m_datasetHash.isEmpty()) {
        for (const StoredStudyCell &c : all)
            if (c.state == "completed"_L1 && c.runId > 0)
                if (const auto run = m_store->loadRun(c.runId)) {
                    m_datasetHash = run->snapshot.value(u"dataset_info"_s)
                                        .toObject()
                                        .value(u"sha256"_s)
                                        .toString();
                    if (!m_datasetHash.isEmpty())
                        break;
                }
    }
    const StoredStudyCell *next = nullptr;
    for (const StoredStudyCell &c : all)
        if (c.state == "pending"_L1) {
            next = &c;
            break;
        }
    if (!next) {
        // Every cell ran (or failed with its reason): the test windows, then done.
        QStringList notes;
        ensureStudyWindows(m_store.get(), m_def, m_version, &notes);
        for (const QString &n : std::as_const(notes))
            emit note(n);
        finish({});
        return;
    }
    m_cell = *next;
    m_cellState.clear();
    m_cellReason.clear();
    const int k = m_def.candidateIndex(m_cell.candidate);
    const int s = m_def.scenarioIndex(m_cell.scenario);
    if (k < 0 || s < 0) {
        failCell(m_cell, u"the cell names no candidate or scenario of the definition"_s);
        QTimer::singleShot(0, this, &StudyExecutor::runNext);
        return;
    }
    RunRequest request;
    RunFlagOptions opts;
    QString error;
    if (!parseRunFlags(m_def.cellFlags(k, s, m_cell.repeat), &request, &opts, &error)) {
        failCell(m_cell, error);
        QTimer::singleShot(0, this, &StudyExecutor::runNext);
        return;
    }
    request.frontEnd = u"study"_s;
    // A managed server kept for the candidate (--server-lifetime candidate) serves all its cells;
    // the "restart" cache policy starts it afresh at every repeat block.
    SutConfig &sut = request.plan.sut;
    const bool keep = sut.managed.enabled() && sut.managed.lifetime == "candidate"_L1;
    if (m_kept.contains(m_cell.candidate) &&
        (!keep || (m_def.boundary.cachePolicy == "restart"_L1 &&
                   m_kept.value(m_cell.candidate).repeat != m_cell.repeat) ||
         !m_kept.value(m_cell.candidate).server->alive()))
        releaseKeptServer(m_cell.candidate);
    PrepareContext context;
    context.apiKey = m_apiKey;
    if (keep)
        context.managedServer = m_kept.value(m_cell.candidate).server;
    PreparedRun prepared;
    PlanIssue issue;
    if (!prepareRun(request, context, &prepared, &issue)) {
        // The candidate cannot run this cell (its endpoint does not answer, its model is
        // missing, its managed server never became healthy): the reason is kept and the study
        // goes on; a managed server's output is stored beside it.
        if (prepared.managedServer &&
            prepared.managedServer != m_kept.value(m_cell.candidate).server) {
            prepared.managedServer->stop();
            QString line;
            if (!saveManagedServerLog(m_path, *prepared.managedServer, m_cell.candidate, &line))
                emit note(line);
        }
        m_studies->beginAttempt(m_cell, m_version.studyId, 0);
        failCell(m_cell, issue.text());
        QTimer::singleShot(0, this, &StudyExecutor::runNext);
        return;
    }
    if (keep && prepared.ownsManagedServer) {
        // This study keeps it, not the cell's session.
        m_kept.insert(m_cell.candidate, {prepared.managedServer, m_cell.repeat});
        prepared.ownsManagedServer = false;
    }
    m_session = std::make_unique<RunSession>(std::move(prepared));
    if (!m_session->openProject(m_path, &error)) {
        m_session.reset();
        finish(error);
        return;
    }
    RunSession *session = m_session.get();
    const int total = int(all.size());
    m_search = request.mode == RunMode::MaxValidRate;
    m_attemptBegun = false;
    connect(session, &RunSession::runStarted, this,
            [this, session, total](RunController *, const RunPlan &, const QString &label) {
                const qint64 runId = session->currentRunId();
                // A search's points are one attempt: the first begins it, the others join it,
                // so an interrupted search runs again as a whole and its points stay the
                // earlier attempt's.
                const bool ok = m_attemptBegun
                                    ? m_studies->addAttemptRun(m_cell, m_version.studyId, runId)
                                    : m_studies->beginAttempt(m_cell, m_version.studyId, runId);
                if (!ok)
                    emit note(
                        u"the study's cell could not be stored: %1"_s.arg(m_studies->lastError()));
                if (!m_attemptBegun)
                    emit cellStarted(m_cell, runId, total);
                m_attemptBegun = true;
                if (m_search)
                    emit searchPointStarted(m_cell, runId, label);
            });
    connect(session, &RunSession::runStarted, this,
            [this](RunController *controller, const RunPlan &plan) {
                emit runStarted(controller, plan);
            });
    connect(session, &RunSession::runFinished, this, &StudyExecutor::onRunFinished);
    connect(session, &RunSession::finished, this, &StudyExecutor::onSessionFinished);
    if (!session->start(&error)) {
        m_session.reset();
        failCell(m_cell, error);
        QTimer::singleShot(0, this, &StudyExecutor::runNext);
    }
}

void StudyExecutor::onRunFinished(const RunOutcome &o)
{
    // A search's point that failed the cell keeps it failed whatever the later points do.
    if (!m_cellState.isEmpty() && m_cellState != "completed"_L1)
        return;
    // A search's rate step stopped early as over-saturated is an INVALID point, and the search
    // goes on (RunSession).
    if (m_search && o.saturated)
        return;
    if (!o.completed()) {
        m_cellState = o.input.status == "interrupted"_L1 ? u"pending"_s : u"failed"_s;
        m_cellReason =
            !o.stopReason.isEmpty() ? o.stopReason : u"the run ended %1"_s.arg(o.input.status);
        return;
    }
    if (o.derived.summary.completed == 0) {
        m_cellState = u"failed"_s;
        m_cellReason =
            u"every request failed (%1 failed, none completed)"_s.arg(o.derived.summary.failed);
        return;
    }
    if (!m_datasetHash.isEmpty() && !o.input.datasetHash.isEmpty() &&
        o.input.datasetHash != m_datasetHash) {
        m_cellState = u"failed"_s;
        m_cellReason = u"different dataset hash (%1, the study's is %2)"_s.arg(
            o.input.datasetHash.left(12), m_datasetHash.left(12));
        return;
    }
    if (m_datasetHash.isEmpty())
        m_datasetHash = o.input.datasetHash;
    m_cellState = u"completed"_s;
    // Its run is kept, but the decision leaves it out (buildStudyDecision recomputes the same
    // verdict from the stored run): `study status` says so beside the cell. A search's points
    // are judged by the decision on the point the cell stands for.
    const ClientHealth &health = o.derived.health;
    if (!m_search && health.bottleneck())
        m_cellReason =
            Message("study.reason.client_left_out", {health.warnings.join(u"; "_s)}).text();
}

void StudyExecutor::onSessionFinished(const SessionResult &result)
{
    QString state = m_cellState;
    QString reason = m_cellReason;
    if (state.isEmpty()) {
        state = result.stopped ? u"pending"_s : u"failed"_s;
        reason = result.error.isEmpty() ? u"the run did not finish"_s : result.error;
    }
    if (state == "completed"_L1 && !result.error.isEmpty()) {
        state = u"failed"_s;
        reason = result.error;
    }
    // A completed search: its result is the highest rate found VALID, 0 when none was — a
    // result, stated, not a failure. The cell's run becomes that point (or, with none, the
    // lowest rate tried), so its window and metrics are those of the rate it stands for.
    qint64 cellRun = 0;
    if (m_search && state == "completed"_L1) {
        int tried = 0;
        double lowest = 0;
        for (const RunOutcome &p : result.points) {
            if (p.targetRate <= 0 || p.validity.isEmpty())
                continue; // the synchronous and max-throughput baselines
            ++tried;
            const bool valid = p.validity == "VALID"_L1 && !p.saturated;
            if (valid && p.targetRate == result.validRate)
                cellRun = p.storedRunId;
            if (!valid && (lowest <= 0 || p.targetRate < lowest)) {
                lowest = p.targetRate;
                if (result.validRate <= 0)
                    cellRun = p.storedRunId;
            }
        }
        reason =
            result.validRate > 0
                ? Message("study.reason.search_valid",
                          {QString::number(result.validRate, 'f', 2), QString::number(tried)})
                      .text()
                : Message("study.reason.search_none", {QString::number(lowest, 'f', 2)}).text();
    }
    if (!m_studies->finishCell(m_cell.id, state, state == "pending"_L1 ? QString() : reason,
                               cellRun)) {
        finish(u"the study's cell could not be stored: %1"_s.arg(m_studies->lastError()));
        return;
    }
    emit cellFinished(m_cell, state, reason);
    // The session is deleted once its signal has returned.
    RunSession *done = m_session.release();
    done->deleteLater();
    if (result.stopped || m_stop) {
        finish({});
        return;
    }
    QTimer::singleShot(0, this, &StudyExecutor::runNext);
}

void StudyExecutor::releaseKeptServer(const QString &candidate)
{
    const KeptServer kept = m_kept.take(candidate);
    if (!kept.server)
        return;
    QString line;
    kept.server->stop();
    if (!saveManagedServerLog(m_path, *kept.server, candidate, &line))
        emit note(line);
}

void StudyExecutor::finish(const QString &error)
{
    if (!m_running)
        return;
    for (const QString &candidate : m_kept.keys())
        releaseKeptServer(candidate);
    m_running = false;
    emit finished(error.isEmpty() && !m_stop, error);
}

} // namespace sb
