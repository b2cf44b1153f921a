#pragma once

#include "metrics/saturation.h"
#include "metrics/series.h"
#include "report/runreport.h"
#include "run/runpreparation.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QTimer;

namespace sb {

class BackgroundJobs;
class RunController;
class RunRecorder;

// One finished run of a session: the single run, or one point of a sweep or rate search. Its
// result is derived once (deriveRun) and the same derivation is what is stored, printed and
// shown.
struct RunOutcome
{
    RunReportInput input;    // plan, raw records, dataset identity, status, snapshot, times
    RunDerivation derived;   // summary, client health, MLPerf verdict
    QJsonObject summaryJson; // what the project file stores as the run's summary
    QDateTime wallEnd;
    qint64 runEndNs = 0;
    qint64 storedRunId = 0; // > 0 when recorded in a project file
    QString label;          // a sweep's point: "synchronous", "throughput", "rate-4.00", …
    double targetRate = 0;  // the point's target rate (0: closed loop or unlimited)
    int position = -1;      // place in the sweep (-1: not part of one)
    QString validity;       // rate search: "VALID" | "INVALID"
    QString stopReason;     // the run stopped itself (error rate, saturation): why
    bool saturated = false; // a sweep step stopped early as over-saturated
    QJsonObject saturation; // its evidence (SaturationVerdict::toJson)
    // --cache-policy reset: what was done before the run and what its first requests verified
    // (docs/cache-audit.md); also the result's "cache_policy". Empty for other policies.
    QJsonObject cachePolicy;

    bool completed() const { return input.status == QLatin1StringView("completed"); }
};

// What a sweep or rate search found, besides its points.
struct SessionResult
{
    bool ok = false;          // every point ran (a stop by the user or a failure ends it early)
    bool stopped = false;     // the user stopped it
    QString error;            // why it ended early (empty when stopped by the user)
    QList<RunOutcome> points; // without their raw records (those are in the outcomes emitted)
    qint64 sweepId = 0;
    QString sweepName; // the sweep row's name (empty for a single run)
    // Rate search: the highest rate found VALID (0: none), the maximum throughput searched up
    // to, and the lowest rate tried.
    double validRate = 0;
    double maxThroughput = 0;
    double lowestTried = 0;
    // A series (--num-runs): the spread over its completed runs per metric, and what the
    // server's prefix cache could see between runs.
    QList<SeriesMetric> series;
    QString cacheState;
};

// Executes a prepared run request — a single run, a rate sweep or a max-valid-rate search,
// a shard of a distributed run — and records each run into a project file when one is given.
// The same object drives the CLI (with an event loop) and the workbench (through its signals);
// it lives in its caller's thread and keeps that thread light: the run's I/O is in the
// controller's threads, and storing and deriving each finished run happens in a worker thread.
class RunSession : public QObject
{
    Q_OBJECT
public:
    explicit RunSession(PreparedRun prepared, QObject *parent = nullptr);
    ~RunSession() override;

    // Before start(): record every run into this project file (created when missing; newer,
    // foreign or damaged files are refused). Blocks on the disk.
    bool openProject(const QString &path, QString *error);
    // The same with a recorder opened elsewhere (the workbench opens it in a worker thread).
    void setRecorder(std::unique_ptr<RunRecorder> recorder);
    // Before start(): the store rows the runs belong to (the workbench's SUT, dataset and load
    // profile); 0 finds or creates a row with the run's own content (the CLI).
    void setLinks(qint64 sutId, qint64 datasetId, qint64 profileId);
    // Keep each run's records in memory for the outcome (default true).
    void setKeepRecords(bool keep) { m_keepRecords = keep; }

    bool start(QString *error);
    // Stops issuing, cancels the streams in flight; the session then finishes as stopped.
    void stop();

    bool isRunning() const { return m_running; }
    RunController *controller() const { return m_controller; }
    // The project row of the run under way (0 before it is stored, or without a project); set
    // by the time runStarted is emitted.
    qint64 currentRunId() const { return m_currentRunId; }
    const PreparedRun &prepared() const { return m_prepared; }
    // Points planned so far (a rate search adds points as it goes).
    int plannedPoints() const;
    const SessionResult &result() const { return m_result; }

signals:
    // A run begins: its controller has started (attach dashboards here).
    void runStarted(sb::RunController *controller, const sb::RunPlan &plan, const QString &label,
                    int position);
    // A run ended and, when a project is open, is stored.
    void runFinished(const sb::RunOutcome &outcome);
    void note(const QString &line);
    void finished(const sb::SessionResult &result);

private:
    struct Point
    {
        RunPlan plan;
        QString label;
        double targetRate = 0;
    };
    void beginNext();
    void beginPoint(const Point &point);
    void launch(const Point &point, qint64 runId, qint64 startAt, const QJsonObject &snapshot);
    void onControllerFinished();
    void onStored(RunOutcome outcome);
    void finishSession(const QString &error);
    bool nextPoint(Point *out);
    template <class Work, class Done> void inWorker(Work work, Done done);
    qint64 profileLink() const;
    bool isGrouped() const; // a sweep, a search or a series: one group row, positions
    void startSaturationWatch(const Point &point, qint64 startAt);

    PreparedRun m_prepared;
    std::unique_ptr<RunRecorder> m_recorder;
    qint64 m_sutId = 0, m_datasetId = 0, m_profileId = 0;
    RunController *m_controller = nullptr;
    Point m_current;
    QJsonObject m_currentSnapshot;
    qint64 m_currentRunId = 0;
    int m_position = 0;
    bool m_keepRecords = true;
    bool m_running = false;
    bool m_stopRequested = false;
    SessionResult m_result;
    // Sweep and search state
    double m_low = 0, m_high = 0; // baseline and maximum throughput (req/s)
    double m_good = 0, m_bad = 0; // search bracket
    int m_sweepIndex = 0;         // next sweep rate (1-based)
    BackgroundJobs *m_jobs;       // storing and deriving finished runs, off the caller's thread
    std::unique_ptr<SaturationDetector> m_detector;
    QTimer *m_saturationTimer = nullptr;
    qint64 m_sentFed = 0;
    bool m_saturatedNow = false;
    QJsonObject m_saturationEvidence;
    // --cache-policy reset: the counters after the run's first requests (docs/cache-audit.md).
    struct CacheCheck;
    std::shared_ptr<CacheCheck> m_cacheCheck;
    qint64 m_finishedRequests = 0;
    // A managed server's end: stopped (when this session started it) and its log stored, off
    // this thread, before `then` runs here.
    void stopManagedServer(std::function<void()> then);
    // --server-lifetime run: a fresh server before every run after the first.
    bool m_restartServer = false;
    bool m_finishing = false; // finishSession() has begun (it may wait for a server's stop)
};

} // namespace sb

Q_DECLARE_METATYPE(sb::RunOutcome)
Q_DECLARE_METATYPE(sb::SessionResult)
