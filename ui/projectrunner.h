#pragma once

#include "run/planvalidation.h"
#include "run/runrequest.h"
#include "run/runsession.h"
#include "store/storetypes.h"

#include <QObject>
#include <atomic>
#include <memory>

namespace sb {

class ApiKeyStore;
class BackgroundJobs;
class Simulator;

// What a finished run hands back to the workbench.
struct FinishedRun
{
    RunPlan plan; // with the URL the run really used (the simulator's port, for instance)
    QList<RequestRecord> records;
    RunStatus status = RunStatus::Failed;
    RunInfo info; // name, times, status, snapshot, summary; id > 0 when stored in the file
    QString datasetHash;
    QString message;       // why it failed or was interrupted; empty when completed
    RunDerivation derived; // the pipeline's one derivation of the records
    QList<MetricSeriesStore> serverMetrics; // scraped beside the run, one store per target
    QString label; // a sweep's point ("synchronous", "rate-4.00", …); empty otherwise
    qint64 sweepId = 0;
    QString sweepName;
};

// The workbench's front end to the run pipeline (core/run): it turns "Run" into a RunRequest's
// execution without blocking the GUI thread. The API key comes from the key store; preparation
// (the simulator, the endpoint check, the dataset or trace, the project file) runs in a worker
// thread; a RunSession then executes the single run, sweep or rate search and records every run
// into the project file, exactly as `servebench-cli run` does.
class ProjectRunner : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, Preparing, Running, Stopping };
    Q_ENUM(State)

    explicit ProjectRunner(ApiKeyStore *keys, QObject *parent = nullptr);
    ~ProjectRunner() override;

    // storePath: the project file the runs are recorded into. `links` carries the store ids of
    // the SUT, dataset and profile (0: found or created by content). Refuses at once, with the
    // issues keyed by field, what validateRunRequest() refuses.
    bool start(const RunRequest &request, const QString &storePath, const RunInfo &links,
               QString *error);
    // Preparing: cancels; Running: stops issuing and cancels the streams in flight.
    void stop();

    State state() const { return m_state; }
    bool isBusy() const { return m_state != State::Idle; }
    RunController *controller() const;
    const RunPlan &plan() const { return m_plan; }
    const RunRequest &request() const { return m_request; }
    // The simulator after the first run that used it (it stays up for the next runs).
    Simulator *simulator() const { return m_simulator.get(); }
    // The issues of the last refused start (empty when it started).
    const QList<PlanIssue> &issues() const { return m_issues; }

signals:
    void stateChanged(sb::ProjectRunner::State state);
    void statusMessage(const QString &message);
    // plan: this run's plan (a sweep's point has its own rate); label: the point's label.
    void runStarted(sb::RunController *controller, const sb::RunPlan &plan);
    void pointStarted(const QString &label, int position, int plannedPoints);
    void runFinished(const sb::FinishedRun &run);
    void sessionFinished(const sb::SessionResult &result);
    void runFailed(const QString &error);

private:
    void setState(State s);
    void prepare(const QByteArray &apiKey);
    // Reads the next keychain token of a metrics target, or prepares when none is left.
    void fetchNextSecretOrPrepare();
    void fail(const QString &error);

    ApiKeyStore *m_keys;
    BackgroundJobs *m_jobs;
    State m_state = State::Idle;
    quint64 m_generation = 0;
    quint64 m_keyTicket = 0;
    quint64 m_secretTicket = 0;
    QByteArray m_apiKey;      // memory only, until prepare() hands it over
    QStringList m_secretRefs; // keychain references still to read
    QHash<QString, QByteArray> m_secrets;
    RunRequest m_request;
    RunPlan m_plan;
    QString m_storePath;
    RunInfo m_links;
    QList<PlanIssue> m_issues;
    std::shared_ptr<Simulator> m_simulator;
    std::shared_ptr<std::atomic<bool>> m_cancelPrepare;
    std::unique_ptr<RunSession> m_session;
    std::unique_ptr<RunSession> m_finishedSession; // keeps the last controller readable
};

} // namespace sb

Q_DECLARE_METATYPE(sb::FinishedRun)
