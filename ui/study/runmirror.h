#pragma once

#include "run/runcontroller.h"

#include <QList>

namespace sb {

// The GUI thread's stand-in for a run whose controller lives in another thread — a study's cell,
// which StudyExecutor runs in a thread of its own (docs/study.md, "Workbench"). The run dashboard
// reads its controller from the GUI thread (rundashboard.h), so it cannot follow that controller
// itself; it follows a RunMirror instead, which shows the same records, counts and times. It
// never runs anything: relayRun() feeds it from the run's own thread, in batches.
class RunMirror : public RunController
{
    Q_OBJECT
public:
    explicit RunMirror(QObject *parent = nullptr);

    // A mirror issues no requests.
    bool prepareTransport(QString *error) override;
    bool start(QString *error) override;
    // The dashboard's Stop: asks the owner to stop the real run (stopRequested).
    void stop() override;

    // GUI thread, from relayRun()'s posts.
    void begin(const sb::RunPlan &plan, qint64 runStartNs, qint64 plannedRequests);
    void feed(const QList<sb::RequestRecord> &records, qint64 issued);
    void end(sb::RunStatus status, qint64 runEndNs, qint64 issued);

signals:
    // A run began: attach the dashboard to this mirror now.
    void begun(const sb::RunPlan &plan);
    void stopRequested();
};

// Relays the run of `source` into `mirror`: to be called in source's thread while the run has
// started (RunSession::runStarted / StudyExecutor::runStarted, connected directly). The records
// are gathered there and posted to the mirror's thread every 100 ms with the issued count, so the
// GUI thread gets a few queued calls a second whatever the rate, and never waits on the run. The
// relay is a child of the controller and ends with it.
void relayRun(RunController *source, const RunPlan &plan, RunMirror *mirror);

} // namespace sb
