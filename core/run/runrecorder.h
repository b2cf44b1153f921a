#pragma once

#include "run/runcontroller.h"

#include <QJsonObject>
#include <QObject>
#include <memory>

namespace sb {

class ProjectStore;
class RunWriter;
struct DatasetInfo;

// Records runs into a project file while they happen: registers the run's SUT, dataset and
// profile (once per distinct content), streams every finished request to the store's writer
// thread, and closes the run with its status. Shared by the CLI and the GUI.
class RunRecorder : public QObject
{
    Q_OBJECT
public:
    explicit RunRecorder(QObject *parent = nullptr);
    ~RunRecorder() override;

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
    bool finishRun(RunStatus status, const QJsonObject &summary, QString *error);

    qint64 currentRunId() const { return m_runId; }
    // Set when the store could not write (full disk, read-only file): the run was stopped.
    QString writeError() const { return m_writeError; }

private:
    qint64 ensureSut(const SutConfig &sut);
    qint64 ensureDataset(const DatasetSpec &spec, const DatasetInfo &info);
    qint64 ensureProfile(const LoadProfile &profile, const RequestParams &params);

    QString m_path;
    std::unique_ptr<ProjectStore> m_store;
    std::unique_ptr<RunWriter> m_writer;
    qint64 m_runId = 0;
    QString m_writeError;
};

} // namespace sb
