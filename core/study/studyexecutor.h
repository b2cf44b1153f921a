#pragma once

#include "study/studydefinition.h"
#include "study/studyplan.h"
#include "study/studystore.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace sb {

class ManagedServer;
class ProjectStore;
class RunController;
class RunSession;
struct RunPlan;
struct RunOutcome;
struct SessionResult;

// Runs a study's cells (docs/study.md, "Execution"): each cell as an ordinary run through the
// one run pipeline (parseRunFlags → validateRunRequest → prepareRun → RunSession, as
// `servebench-cli run` does), recorded in the project and linked to its study, version and cell.
// It starts at the first unfinished cell: after a kill -9 the interrupted run stays recorded as
// interrupted (the project marks it when opened) and its cell runs again. A cell its candidate
// cannot run (endpoint down, every request failing, another dataset) is marked failed with the
// reason and the others go on. When the cells are done, the candidates' test windows are made
// (studycost.h). A server scenario's cell is a rate search (RunMode::MaxValidRate, the same
// RunSession): one attempt of the cell, every point linked to it, and the cell's run at the end
// is the search's highest VALID point (docs/study.md, "Server scenarios").
//
// Lives in its caller's thread, which must run an event loop; prepare() blocks on the disk.
class StudyExecutor : public QObject
{
    Q_OBJECT
public:
    StudyExecutor(QString projectPath, StudyDefinition definition, QObject *parent = nullptr);
    ~StudyExecutor() override;

    // Opens the project read-write (migrating it; a run left 'running' by a dead process is
    // marked interrupted), finds or creates the study's version, and puts cells left running back
    // to pending. *what: "created", "resumed", "replaced" or "new-version".
    bool prepare(QString *what, QString *error);
    void setApiKey(const QByteArray &key) { m_apiKey = key; }
    void start();
    void stop();

    const StoredStudyVersion &version() const { return m_version; }
    const StudyPlan &plan() const { return m_plan; }
    QList<StoredStudyCell> cells() const;
    // Cells put back to pending by prepare(), with the run each left interrupted.
    const QList<StoredStudyCell> &resumedCells() const { return m_resumed; }

signals:
    void cellStarted(const sb::StoredStudyCell &cell, qint64 runId, int total);
    // A rate search cell's point has started (the first one after cellStarted): "synchronous",
    // "throughput", "server-12.50", ...
    void searchPointStarted(const sb::StoredStudyCell &cell, qint64 runId, const QString &label);
    // A cell's run has started (RunSession::runStarted): its controller lives in this
    // executor's thread, so a receiver elsewhere connects with Qt::DirectConnection and relays
    // what it needs (the workbench's live dashboard, ui/study/runmirror.h).
    void runStarted(sb::RunController *controller, const sb::RunPlan &plan);
    void cellFinished(const sb::StoredStudyCell &cell, const QString &state, const QString &reason);
    void note(const QString &line);
    void finished(bool ok, const QString &error);

private:
    void runNext();
    void failCell(const StoredStudyCell &cell, const QString &reason);
    void onRunFinished(const RunOutcome &outcome);
    void onSessionFinished(const SessionResult &result);
    void finish(const QString &error);

    QString m_path;
    StudyDefinition m_def;
    StudyPlan m_plan;
    std::unique_ptr<ProjectStore> m_store;
    std::unique_ptr<StudyStore> m_studies;
    StoredStudyVersion m_version;
    QList<StoredStudyCell> m_resumed;
    QByteArray m_apiKey;
    std::unique_ptr<RunSession> m_session;
    StoredStudyCell m_cell;
    QString m_cellState;
    QString m_cellReason;
    QString m_datasetHash;       // the boundary's, or the first completed cell's
    bool m_search = false;       // the cell under way is a rate search
    bool m_attemptBegun = false; // its attempt is recorded (a search's later points add to it)
    bool m_stop = false;
    bool m_running = false;
    // Managed servers kept up for their candidate (--server-lifetime candidate;
    // docs/managed-servers.md): started at the candidate's first cell, used by all its cells,
    // restarted at a new repeat block when the cache policy is "restart", stopped at the end.
    struct KeptServer
    {
        std::shared_ptr<ManagedServer> server;
        int repeat = 0;
    };
    QHash<QString, KeptServer> m_kept;
    void releaseKeptServer(const QString &candidate);
};

} // namespace sb
