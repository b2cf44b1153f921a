#pragma once

#include "client/transport.h"
#include "config/runplan.h"
#include "metrics/requestrecord.h"
#include "run/runcontroller.h"
#include "store/storetypes.h"

#include <QObject>
#include <memory>

namespace sb {

class ApiKeyStore;
class BackgroundJobs;
class RunWriter;
class Simulator;

// What a finished run hands back to the workbench.
struct FinishedRun
{
    RunPlan plan; // with the URL the run really used (the simulator's port, for instance)
    QList<RequestRecord> records;
    RunStatus status = RunStatus::Failed;
    RunInfo info; // name, times, status, snapshot, summary; id > 0 when stored in the file
    QString datasetHash;
    QString message; // why it failed or was interrupted; empty when completed
};

// Takes a run plan from "Run" to a finished run without blocking the GUI thread: the dataset is
// loaded (and the built-in simulator started on a free port, when the SUT is the simulator) in
// a worker thread, the API key comes from the key store, then a RunController runs the plan and
// each record streams into the project file through RunWriter's thread when the project has one.
class ProjectRunner : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, Preparing, Running, Stopping };
    Q_ENUM(State)

    explicit ProjectRunner(ApiKeyStore *keys, QObject *parent = nullptr);
    ~ProjectRunner() override;

    // storePath non-empty: records are written to that project file while the run goes.
    // `links` carries the store ids of the SUT, dataset and profile (0: none).
    bool start(const RunPlan &plan, const QString &storePath, const RunInfo &links, QString *error);
    // Preparing: cancels; Running: stops issuing and cancels the streams in flight.
    void stop();

    State state() const { return m_state; }
    bool isBusy() const { return m_state != State::Idle; }
    RunController *controller() const { return m_controller; }
    const RunPlan &plan() const { return m_plan; }
    // The simulator after the first run that used it (it stays up for the next runs).
    Simulator *simulator() const { return m_simulator.get(); }

signals:
    void stateChanged(sb::ProjectRunner::State state);
    void statusMessage(const QString &message);
    void runStarted(sb::RunController *controller, const sb::RunPlan &plan);
    void progress(qint64 completed, qint64 planned);
    void runFinished(const sb::FinishedRun &run);
    void runFailed(const QString &error);

private:
    void setState(State s);
    void launch(const QByteArray &apiKey);
    void onFinished(RunStatus status);
    void fail(const QString &error);

    ApiKeyStore *m_keys;
    BackgroundJobs *m_jobs;
    State m_state = State::Idle;
    quint64 m_generation = 0;
    quint64 m_keyTicket = 0;
    RunPlan m_plan;
    QString m_storePath;
    RunInfo m_links;
    QList<PromptItem> m_items;
    QString m_datasetHash;
    QJsonObject m_datasetInfo;
    TransportOptions m_options; // resolved with the dataset, off the GUI thread
    QJsonObject snapshot() const;
    std::shared_ptr<Simulator> m_simulator;
    RunController *m_controller = nullptr;
    RunWriter *m_writer = nullptr;
    qint64 m_storedRunId = 0;
};

} // namespace sb

Q_DECLARE_METATYPE(sb::FinishedRun)
