#pragma once

#include "client/transport.h"
#include "config/runplan.h"
#include "metrics/clientload.h"
#include "metrics/errorrate.h"
#include "metrics/requestrecord.h"
#include "servermetrics/metricsscraper.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QProcessEnvironment>
#include <atomic>
#include <memory>
#include <optional>
#include <thread>

class QSemaphore;

namespace sb {

class ClientLoadSampler;
class Transport;
struct PromptItem;

enum class RunStatus { Idle, Running, Completed, Interrupted, Failed };
const char *runStatusName(RunStatus s);

// Which HTTP client carries the run's requests. Socket (the default) is the hand-written
// HTTP/1.1 client built for high concurrency and precise receive times; Qnam is the
// QNetworkAccessManager pool, which keeps proxies and HTTP/2-capable plumbing.
enum class TransportKind { Qnam, Socket };
const char *transportKindName(TransportKind kind); // "qnam" | "socket"
// Accepts "qnam" and "socket" (case-insensitive); false for anything else.
bool transportKindFromName(const QString &name, TransportKind *out);

// Drives one run: turns the plan's schedule into requests at the right instants, keeps the
// concurrency cap, collects the finished records. Works the same under the GUI and the CLI.
//
// Threads: a dispatcher thread sleeps on CLOCK_MONOTONIC until each request is due (timer
// events would add a millisecond of slack) and hands requests to the transport, whose worker
// threads do the I/O. Finished records come back to this object's thread through a queued
// connection; the concurrency slot is released in the worker thread itself, so a slow owner
// thread (a busy GUI) never holds back the schedule.
class RunController : public QObject
{
    Q_OBJECT
public:
    explicit RunController(QObject *parent = nullptr);
    ~RunController() override;

    // items: the dataset's prompts, used in order and cycled when the run needs more.
    // apiKey is used for the Authorization header only, never stored.
    void configure(const RunPlan &plan, const QList<PromptItem> &items, const QByteArray &apiKey);
    // Replaces the computed schedule (trace replay): offsets in ns from the run start, one per
    // request, in order. The run then issues exactly these requests.
    void setScheduleOverride(const QList<qint64> &offsetsNs) { m_override = offsetsNs; }
    // The monotonic instant the schedule starts from (offset 0). By default start() picks "now
    // plus a few ms"; a recorder that must store the start before the run begins sets it.
    void setStartAt(qint64 monotonicNs) { m_startAt = monotonicNs; }
    // Checks the plan, builds the schedule, creates the transport and, in warm connection mode,
    // opens the connections the run needs: blocks up to a few seconds, so the pipeline calls it
    // from a worker thread before it fixes the run's start time. start() calls it when it has
    // not been called. SessionController prepares in its start() and does nothing here.
    virtual bool prepareTransport(QString *error);
    // Virtual for SessionController, which drives session workloads through the same
    // observers (recorder, dashboard) with a dispatch of its own.
    virtual bool start(QString *error);
    // Stops issuing, cancels the streams in flight; finished() follows with Interrupted.
    virtual void stop();

    RunStatus status() const { return m_status; }
    const QList<RequestRecord> &records() const { return m_records; }
    qint64 runStartNs() const { return m_runStartNs; }
    qint64 runEndNs() const { return m_runEndNs; }
    QDateTime wallStart() const { return m_wallStart; }
    QDateTime wallEnd() const { return m_wallEnd; }
    qint64 issued() const { return m_issued.load(); }
    qint64 completed() const { return m_records.size(); }
    qint64 plannedRequests() const { return m_planned; }
    int openStreamsCap() const { return m_cap; }
    QString transportName() const;
    QJsonObject transportCounters() const; // Transport::counters() of the last run
    // Why the run stopped by itself (--max-error-rate tripped, a saturated sweep step); empty
    // when it ran to its end or the user stopped it.
    QString stopReason() const { return m_stopReason; }
    // Stops the run as stop() does, remembering why (the run's status message says it).
    void stopBecause(const QString &reason);
    // Random per run; makes request ids and cache-bust prefixes unique across runs.
    QString runTag() const { return m_runTag; }
    // Keep records in memory (default). A store-backed run may turn this off for huge runs.
    void setKeepRecords(bool keep) { m_keepRecords = keep; }
    // Before start(); applies to the next run.
    void setTransportKind(TransportKind kind) { m_transportKind = kind; }
    TransportKind transportKind() const { return m_transportKind; }
    // Where proxy settings are read (the process environment unless a test sets another).
    void setEnvironment(const QProcessEnvironment &env) { m_environment = env; }
    // Options resolved beforehand (resolveTransportOptions reads the CA file: the GUI does it
    // off its thread), used as they are: prepareRun already applied the plan's connection mode,
    // idle timeout and caps to them. Without them start() resolves the SUT's own and applies those.
    void setTransportOptions(const TransportOptions &options) { m_presetOptions = options; }
    // How the run reaches the SUT (proxy, CA file): see connectionRoute(). Set by start().
    QJsonObject route() const { return m_route; }
    // The scraper of the server's metrics beside this run (docs/server-metrics.md), or null:
    // set by the pipeline (RunSession), read by observers that draw the server's side live.
    void setMetricsScraper(MetricsScraper *scraper) { m_scraper = scraper; }
    MetricsScraper *metricsScraper() const { return m_scraper.data(); }
    // The client's own threads sampled once a second through the last run (docs/performance.md,
    // "The client checks itself"); complete when finished() is emitted.
    const ClientLoadSamples &clientLoad() const { return m_clientLoad; }

signals:
    void requestCompleted(const sb::RequestRecord &record);
    // Once a second while the run goes on: its busiest client thread (for a live display).
    void clientLoadSampled(const sb::ClientLoadTick &tick);
    void finished(sb::RunStatus status);

protected:
    // Shared with SessionController: the record path and the end of a run are the same.
    void onRecord(const sb::RequestRecord &record);
    void onDispatcherDone(qint64 issued);
    void maybeFinish();
    // The transport of the plan's kind with the resolved options, prepared for m_cap streams.
    bool createTransport(QString *error);
    // Starts sampling the client's threads from m_runStartNs (before the dispatcher starts).
    void startClientSampler();

private:
    bool isClosedLoop() const;
    RequestJob makeJob(qint64 index, bool warmup) const;
    // Embeddings and rerank: job (URL, headers, timeout set) with a batch of items.
    RequestJob makePoolingJob(RequestJob job, qint64 index, bool warmup) const;
    void dispatchLoop();
    bool waitUntil(qint64 deadlineNs);

protected:
    RunPlan m_plan;
    std::shared_ptr<const QList<PromptItem>> m_items;
    QByteArray m_apiKey;
    std::unique_ptr<Transport> m_transport;
    std::unique_ptr<QSemaphore> m_slots;
    std::thread m_dispatcher;
    std::atomic<bool> m_stopRequested{false};
    std::atomic<qint64> m_issued{0};
    bool m_dispatcherDone = false;
    bool m_keepRecords = true;
    TransportKind m_transportKind = TransportKind::Socket;
    QProcessEnvironment m_environment = QProcessEnvironment::systemEnvironment();
    QJsonObject m_route;
    std::optional<TransportOptions> m_presetOptions;
    qint64 m_received = 0;
    qint64 m_planned = 0;
    int m_cap = 0;
    QList<qint64> m_schedule;
    QList<qint64> m_override;
    qint64 m_startAt = 0;
    qint64 m_warmupByCount = 0;
    bool m_closedLoop = false;
    QString m_runTag;
    RunStatus m_status = RunStatus::Idle;
    QList<RequestRecord> m_records;
    std::unique_ptr<ErrorRateStopper> m_errorStopper;
    QString m_stopReason;
    bool m_transportReady = false;
    qint64 m_runStartNs = 0;
    qint64 m_runEndNs = 0;
    QDateTime m_wallStart;
    QDateTime m_wallEnd;
    QPointer<MetricsScraper> m_scraper;
    std::unique_ptr<ClientLoadSampler> m_sampler;
    ClientLoadSamples m_clientLoad;
};

} // namespace sb

Q_DECLARE_METATYPE(sb::RunStatus)
