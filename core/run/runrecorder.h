#pragma once

#include "run/runcontroller.h"
#include "store/storetypes.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMutex>
#include <memory>

namespace sb {

class ProjectStore;
class RunWriter;
struct DatasetInfo;

// Records runs into a project file while they happen: registers the run's SUT, dataset and
// profile (once per distinct content), streams every finished request to the store's writer
// thread, and closes the run with its status. The one recorder of the run pipeline.
//
// open(), createSweep(), beginRun() and finishRun() block on the disk and may be called from any
// one thread at a time (the workbench calls them from a worker thread): each opens the SQLite
// connection it needs in the calling thread, and records go through RunWriter's own thread.
class RunRecorder
{
public:
    RunRecorder();
    ~RunRecorder();
    RunRecorder(const RunRecorder &) = delete;
    RunRecorder &operator=(const RunRecorder &) = delete;

    // Creates the file when missing; refuses newer, foreign or corrupt files with a message.
    bool open(const QString &projectPath, QString *error);
    bool isOpen() const;
    QString path() const { return m_path; }

    qint64 createSweep(const QString &name, const QString &kind, const QJsonObject &config,
                       QString *error);
    // Inserts the run (status running). The snapshot must already be scrubbed (RunPlan::toJson).
    qint64 beginRun(const RunPlan &plan, const QJsonObject &snapshot, const DatasetInfo &dataset,
                    qint64 sweepId, int sweepPosition, qint64 startMonoNs, QString *error);
    // Every record the controller finishes goes to the writer; a write failure stops the run.
    void attach(RunController *controller);
    // endedUtc / endedMonoNs: when the run ended (invalid / 0: now).
    bool finishRun(RunStatus status, const QJsonObject &summary, const QString &message,
                   const QDateTime &endedUtc, qint64 endedMonoNs, QString *error);
    // Stores the current run's server metrics (one row per scraped target), before finishRun().
    bool saveServerMetrics(const QList<StoredRunMetrics> &targets, QString *error);
    // Links for the rows beginRun() creates (0: find or create by content).
    void setLinks(qint64 sutId, qint64 datasetId, qint64 profileId);

    // Stores, in one go, a run that happened elsewhere (agents merged into one run): its rows
    // linked like a recorded run's, its records, its end. meta carries name, host and times.
    qint64 recordRun(const RunPlan &plan, const QJsonObject &snapshot, const DatasetInfo &dataset,
                     RunInfo meta, const QList<RequestRecord> &records, StoredRunStatus status,
                     const QJsonObject &summary, const QString &message, QString *error);

    qint64 currentRunId() const { return m_runId; }
    // Set when the store could not write (full disk, read-only file): the run was stopped.
    QString writeError() const;

private:
    QString m_path;
    std::unique_ptr<RunWriter> m_writer;
    qint64 m_runId = 0;
    qint64 m_sutId = 0, m_datasetId = 0, m_profileId = 0;
    mutable QMutex m_mutex;
    QString m_writeError;
};

} // namespace sb
