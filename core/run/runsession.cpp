#include "runsession.h"

#include "common/backgroundjobs.h"
#include "common/clock.h"
#include "report/cancellationrecovery.h"
#include "report/serverreport.h"
#include "client/endpointprobe.h"
#include "run/cachecontrol.h"
#include "run/managedserver.h"
#include "run/runcontroller.h"
#include "run/runflags.h"
#include "run/runrecorder.h"
#include "run/runsnapshot.h"
#include "run/sessioncontroller.h"
#include "servermetrics/metricsscraper.h"

#include <QTimer>

#include <QSysInfo>
#include <QThread>

#include <cmath>
#include <mutex>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// The schedule starts this long after the run row is stored, so the stored start is the start.
constexpr qint64 kStartLeadNs = 200'000'000;
} // namespace

RunSession::RunSession(PreparedRun prepared, QObject *parent)
    : QObject(parent), m_prepared(std::move(prepared)), m_jobs(new BackgroundJobs(this))
{
    qRegisterMetaType<sb::RunOutcome>();
    qRegisterMetaType<sb::SessionResult>();
    qRegisterMetaType<sb::RunPlan>();
}

RunSession::~RunSession()
{
    // Join the workers first: one may be storing a run through m_recorder.
    delete m_jobs;
    m_jobs = nullptr;
    if (m_controller) {
        m_controller->disconnect(this);
        if (m_controller->status() == RunStatus::Running)
            m_controller->stop();
        delete m_controller;
    }
    // m_recorder's destructor closes the writer: a run still open is marked interrupted.
}

template <class Work, class Done> void RunSession::inWorker(Work work, Done done)
{
    m_jobs->run(std::move(work), std::move(done));
}

bool RunSession::openProject(const QString &path, QString *error)
{
    m_recorder = std::make_unique<RunRecorder>();
    if (!m_recorder->open(path, error)) {
        m_recorder.reset();
        return false;
    }
    m_recorder->setLinks(m_sutId, m_datasetId, profileLink());
    return true;
}

void RunSession::setRecorder(std::unique_ptr<RunRecorder> recorder)
{
    m_recorder = std::move(recorder);
    if (m_recorder)
        m_recorder->setLinks(m_sutId, m_datasetId, profileLink());
}

void RunSession::setLinks(qint64 sutId, qint64 datasetId, qint64 profileId)
{
    m_sutId = sutId;
    m_datasetId = datasetId;
    m_profileId = profileId;
    if (m_recorder)
        m_recorder->setLinks(sutId, datasetId, profileLink());
}

qint64 RunSession::profileLink() const
{
    // A sweep's points change the profile's rate: each is stored as the profile it ran.
    return m_prepared.request.mode == RunMode::Single ? m_profileId : 0;
}

bool RunSession::isGrouped() const
{
    return m_prepared.request.mode != RunMode::Single || m_prepared.request.numRuns > 1;
}

int RunSession::plannedPoints() const
{
    switch (m_prepared.request.mode) {
    case RunMode::Single:
        return std::max(1, m_prepared.request.numRuns);
    case RunMode::Sweep:
        return 2 + m_prepared.request.sweepRates;
    case RunMode::MaxValidRate:
        return std::max(2, m_position + (m_running ? 1 : 0));
    }
    return 1;
}

bool RunSession::start(QString *error)
{
    if (m_running) {
        *error = u"the session is already running"_s;
        return false;
    }
    m_running = true;
    m_result = {};
    const RunRequest &req = m_prepared.request;
    const bool search = req.mode == RunMode::MaxValidRate;
    const bool series = req.mode == RunMode::Single && req.numRuns > 1;
    if (isGrouped())
        m_result.sweepName = !req.plan.name.isEmpty() ? req.plan.name
                             : search                 ? u"max valid rate"_s
                             : series                 ? u"series of %1 runs"_s.arg(req.numRuns)
                                                      : u"sweep"_s;
    if (series)
        m_result.cacheState =
            req.plan.profile.cacheBust
                ? u"cache-busted: every request of every run has a new random prefix"_s
                : u"not cache-busted: runs after the first may hit the server's prefix cache"_s;
    if (!m_recorder || !isGrouped()) {
        QMetaObject::invokeMethod(this, &RunSession::beginNext, Qt::QueuedConnection);
        return true;
    }
    // A sweep is one row of its own that its runs point to.
    const QString name = m_result.sweepName;
    RunRequest whole = req;
    whole.calibrateTokens = false;
    QJsonObject config{{u"rates"_s, req.sweepRates},
                       {u"tolerance"_s, req.rateTolerance},
                       {u"command"_s, reproduceCommand(whole)}};
    if (series) {
        config[u"runs"_s] = req.numRuns;
        config[u"cache_state"_s] = m_result.cacheState;
    }
    RunRecorder *recorder = m_recorder.get();
    const QString kind = search ? u"find-max-valid-rate"_s : series ? u"series"_s : u"sweep"_s;
    struct Created
    {
        qint64 id = 0;
        QString error;
    };
    inWorker(
        [recorder, name, kind, config] {
            Created c;
            c.id = recorder->createSweep(name, kind, config, &c.error);
            return c;
        },
        [this](Created c) {
            if (c.id <= 0) {
                finishSession(u"the sweep could not be stored: %1"_s.arg(c.error));
                return;
            }
            m_result.sweepId = c.id;
            beginNext();
        });
    return true;
}

void RunSession::stop()
{
    if (!m_running)
        return;
    m_stopRequested = true;
    if (m_controller && m_controller->status() == RunStatus::Running)
        m_controller->stop();
}

bool RunSession::nextPoint(Point *out)
{
    const RunRequest &req = m_prepared.request;
    const RunPlan &plan = req.plan;
    const auto named = [&](const QString &label) {
        return (plan.name.isEmpty() ? QString() : plan.name + u' ') + label;
    };
    if (req.mode == RunMode::Single) {
        if (m_position >= std::max(1, req.numRuns))
            return false;
        *out = {plan, QString(), plan.profile.unlimitedRate() ? 0 : plan.profile.requestRate};
        if (req.numRuns > 1) {
            out->label = u"run-%1"_s.arg(m_position + 1);
            out->plan.name = named(out->label);
        }
        return true;
    }
    // Both searches start from a synchronous baseline (one request at a time) and the client's
    // maximum throughput, GuideLLM's way.
    if (m_position == 0) {
        Point p{plan, u"synchronous"_s, 0};
        p.plan.profile.scenario = Scenario::None;
        p.plan.profile.closedLoopConcurrency = 1;
        p.plan.profile.maxConcurrency = 0;
        p.plan.profile.requestRate = std::numeric_limits<double>::infinity();
        p.plan.profile.rampUpStrategy = RampUpStrategy::None;
        p.plan.name = named(p.label);
        *out = p;
        return true;
    }
    if (m_position == 1) {
        Point p{plan, u"throughput"_s, 0};
        p.plan.profile.scenario = Scenario::None;
        p.plan.profile.requestRate = std::numeric_limits<double>::infinity();
        p.plan.profile.rampUpStrategy = RampUpStrategy::None;
        p.plan.name = named(p.label);
        *out = p;
        return true;
    }
    if (req.mode == RunMode::Sweep) {
        if (m_sweepIndex > req.sweepRates)
            return false;
        Point p{plan, {}, m_low + (m_high - m_low) * m_sweepIndex / (req.sweepRates + 1)};
        p.plan.profile.requestRate = p.targetRate;
        p.label = u"rate-%1"_s.arg(p.targetRate, 0, 'f', 2);
        p.plan.name = named(p.label);
        ++m_sweepIndex;
        *out = p;
        return true;
    }
    // Bisection on the Server rate between 0 and a little above the measured maximum.
    if (!(m_bad - m_good > req.rateTolerance * m_high))
        return false;
    Point p{plan, {}, (m_good + m_bad) / 2};
    p.plan.profile.scenario = Scenario::Server;
    p.plan.profile.arrival = ArrivalProcess::Poisson;
    p.plan.profile.requestRate = p.targetRate;
    p.label = u"server-%1"_s.arg(p.targetRate, 0, 'f', 2);
    p.plan.name = named(p.label);
    *out = p;
    return true;
}

void RunSession::beginNext()
{
    if (m_stopRequested) {
        finishSession({});
        return;
    }
    Point point;
    if (!nextPoint(&point)) {
        finishSession({});
        return;
    }
    if (m_restartServer) {
        // --server-lifetime run: the server that served the last run goes, a fresh one comes.
        m_restartServer = false;
        std::shared_ptr<ManagedServer> old = m_prepared.managedServer;
        const SutConfig sut = m_prepared.request.plan.sut;
        const QByteArray key = m_prepared.apiKey;
        const TransportOptions options = m_prepared.transportOptions;
        const QString path = m_recorder ? m_recorder->path() : QString();
        struct Restarted
        {
            std::shared_ptr<ManagedServer> server;
            QString error;
            QStringList notes;
        };
        inWorker(
            [old, sut, key, options, path] {
                Restarted r;
                QString note;
                if (old) {
                    old->stop();
                    if (!path.isEmpty() && !saveManagedServerLog(path, *old, sut.name, &note))
                        r.notes << note;
                }
                auto fresh = std::make_shared<ManagedServer>(sut.managed, sut, key, options);
                if (!fresh->start()) {
                    r.error = fresh->error();
                    if (!path.isEmpty() && !saveManagedServerLog(path, *fresh, sut.name, &note))
                        r.notes << note;
                    return r;
                }
                r.notes << u"Managed server restarted: healthy after %1 ms (instance %2)."_s.arg(
                    QString::number(fresh->startupMs()), fresh->instanceId());
                r.server = fresh;
                return r;
            },
            [this, point](Restarted r) {
                for (const QString &n : std::as_const(r.notes))
                    emit note(n);
                m_prepared.managedServer = r.server;
                m_prepared.ownsManagedServer = bool(r.server);
                if (!r.server) {
                    finishSession(u"the managed server did not come back: %1"_s.arg(r.error));
                    return;
                }
                beginPoint(point);
            });
        return;
    }
    beginPoint(point);
}

void RunSession::beginPoint(const Point &point)
{
    m_current = point;
    // The controller is made here (its thread is this one) and readied in the worker: opening
    // the warm connections takes a while, and the run's start is fixed only once they are open.
    if (m_controller) {
        m_controller->disconnect(this);
        m_controller->deleteLater();
    }
    // Session workloads (docs/sessions.md) are dispatched turn by turn by a SessionController;
    // to everything that observes the run it is a RunController like any other.
    if (point.plan.isSessionWorkload()) {
        auto *sessions = new SessionController(this);
        sessions->configureSessions(point.plan, m_prepared.dataset.sessions, m_prepared.apiKey);
        m_controller = sessions;
    } else {
        m_controller = new RunController(this);
        m_controller->configure(point.plan, m_prepared.dataset.items, m_prepared.apiKey);
    }
    m_controller->setTransportKind(m_prepared.request.transport);
    if (!m_prepared.traceSchedule.isEmpty())
        m_controller->setScheduleOverride(m_prepared.traceSchedule);
    m_controller->setTransportOptions(m_prepared.transportOptions);
    // Server metrics (docs/server-metrics.md): a scraper of the run's own, on its own thread and
    // connections, owned by the controller so observers find it there.
    MetricsScraper *scraper = nullptr;
    if (m_prepared.scrape.enabled()) {
        scraper = new MetricsScraper(m_controller);
        scraper->setTargets(m_prepared.scrape.targets);
        scraper->setOptions(m_prepared.scrape.options);
        m_controller->setMetricsScraper(scraper);
    }
    RunController *controller = m_controller;
    const qint64 shardStart = m_prepared.shard.startAtMono;
    const PreparedRun *prepared = &m_prepared;
    RunRecorder *recorder = m_recorder.get();
    const qint64 sweepId = m_result.sweepId;
    const int position = isGrouped() ? m_position : -1;
    struct Begun
    {
        qint64 startAt = 0;
        QJsonObject snapshot;
        qint64 runId = 0;
        QString error;
        bool transportFailed = false;
        QStringList notes;
    };
    inWorker(
        [prepared, recorder, point, shardStart, sweepId, position, controller, scraper] {
            Begun b;
            if (!controller->prepareTransport(&b.error)) {
                b.transportFailed = true;
                return b;
            }
            // The "before" scrape: its round is over before the run's start is fixed.
            if (scraper) {
                QString why;
                if (!scraper->start(&why))
                    b.notes << u"server metrics off: %1"_s.arg(why);
                b.notes << scraper->notes();
            }
            b.startAt = shardStart > 0 ? shardStart : monotonicNs() + kStartLeadNs;
            b.snapshot = buildRunSnapshot(*prepared, point.plan, b.startAt);
            if (recorder)
                b.runId = recorder->beginRun(point.plan, b.snapshot, prepared->dataset.info,
                                             sweepId, position, b.startAt, &b.error);
            return b;
        },
        [this, point, recorder](Begun b) {
            for (const QString &n : std::as_const(b.notes))
                emit note(n);
            if (b.transportFailed) {
                finishSession(b.error);
                return;
            }
            if (recorder && b.runId <= 0) {
                finishSession(
                    u"the run could not be stored in %1: %2"_s.arg(recorder->path(), b.error));
                return;
            }
            launch(point, b.runId, b.startAt, b.snapshot);
        });
}

// --cache-policy reset (docs/cache-audit.md, "Cache policy"): the engine's counters are read
// again once the run's first kCacheCheckRequests requests (all of them in a shorter run) have
// finished; the increase since the reset is the verification. Filled by a worker, read by the
// run's finishing worker (which reads the counters itself when the first read is not done).
struct RunSession::CacheCheck
{
    std::mutex mutex;
    bool read = false;
    PrefixCounters after;
    qint64 requests = 0; // finished requests when the counters were read

    // The second read, once: whichever comes first of the k-th finished request and the run's
    // end takes it (from a worker thread; blocks on the network).
    void readOnce(const SutConfig &sut, const QByteArray &key, const TransportOptions &options,
                  qint64 finished)
    {
        std::lock_guard lock(mutex);
        if (read)
            return;
        EndpointProbe probe(sut, key, options, 5000);
        after = readPrefixCounters(probe);
        requests = finished;
        read = true;
    }
};

namespace {
constexpr qint64 kCacheCheckRequests = 16;
} // namespace

void RunSession::launch(const Point &point, qint64 runId, qint64 startAt,
                        const QJsonObject &snapshot)
{
    m_currentSnapshot = snapshot;
    m_cacheCheck.reset();
    m_finishedRequests = 0;
    if (m_prepared.verifyCacheReset && m_position == 0) {
        // Only the first run follows the reset; a sweep's later points find the cache as the
        // earlier points left it (docs/cache-audit.md).
        m_cacheCheck = std::make_shared<CacheCheck>();
        const qint64 k = std::min<qint64>(kCacheCheckRequests,
                                          std::max<qint64>(1, m_controller->plannedRequests()));
        auto check = m_cacheCheck;
        const SutConfig sut = m_prepared.request.plan.sut;
        const QByteArray key = m_prepared.apiKey;
        const TransportOptions options = m_prepared.transportOptions;
        connect(m_controller, &RunController::requestCompleted, this,
                [this, k, check, sut, key, options](const RequestRecord &) {
                    if (++m_finishedRequests != k)
                        return;
                    inWorker(
                        [check, sut, key, options, k] {
                            check->readOnce(sut, key, options, k);
                            return 0;
                        },
                        [](int) {});
                });
    }
    m_currentRunId = runId;
    m_controller->setStartAt(startAt);
    if (m_recorder)
        m_recorder->attach(m_controller);
    connect(m_controller, &RunController::finished, this, &RunSession::onControllerFinished);
    QString error;
    if (!m_controller->start(&error)) {
        RunRecorder *recorder = m_recorder.get();
        inWorker(
            [recorder, error] {
                QString ignored;
                if (recorder)
                    recorder->finishRun(RunStatus::Failed, QJsonObject{{u"error"_s, error}}, error,
                                        {}, 0, &ignored);
                return error;
            },
            [this](QString e) { finishSession(e); });
        return;
    }
    if (m_stopRequested)
        m_controller->stop();
    startSaturationWatch(point, startAt);
    emit runStarted(m_controller, point.plan, point.label, isGrouped() ? m_position : -1);
}

void RunSession::onControllerFinished()
{
    RunController *c = m_controller;
    RunOutcome o;
    RunReportInput &in = o.input;
    in.plan = m_current.plan;
    in.records = c->records();
    in.datasetHash = m_prepared.dataset.info.sha256;
    in.datasetInfo = m_prepared.dataset.info.toJson();
    in.status = QString::fromLatin1(runStatusName(c->status()));
    in.transport = c->transportName();
    in.transportCounters = c->transportCounters();
    in.clientLoad = c->clientLoad();
    in.runStartNs = c->runStartNs();
    in.wallStart = c->wallStart();
    in.snapshot = m_currentSnapshot;
    o.wallEnd = c->wallEnd();
    o.runEndNs = c->runEndNs();
    o.storedRunId = m_currentRunId;
    o.label = m_current.label;
    o.targetRate = m_current.targetRate;
    o.position = isGrouped() ? m_position : -1;
    o.stopReason = c->stopReason();
    if (m_saturationTimer)
        m_saturationTimer->stop();
    o.saturated = m_saturatedNow;
    o.saturation = m_saturationEvidence;
    const RunStatus status = c->status();
    const bool server = m_current.plan.profile.scenario == Scenario::Server;
    RunRecorder *recorder = m_recorder.get();
    MetricsScraper *scraper = c->metricsScraper();
    struct Stored
    {
        RunOutcome outcome;
        QString error;
        QString note;
    };
    // Deriving a large run and committing its last records wait on the CPU and the disk: not in
    // the caller's (GUI) thread.
    std::shared_ptr<CacheCheck> check = m_cacheCheck;
    const PrefixCounters baseline = m_prepared.cacheBaseline;
    const QJsonObject cachePolicy = m_prepared.prefixCache;
    const SutConfig sut = m_prepared.request.plan.sut;
    const QByteArray key = m_prepared.apiKey;
    const TransportOptions options = m_prepared.transportOptions;
    inWorker(
        [o = std::move(o), status, server, recorder, scraper, check, baseline, cachePolicy, sut,
         key, options]() mutable {
            Stored s;
            if (check) {
                check->readOnce(sut, key, options, o.input.records.size());
                std::lock_guard lock(check->mutex);
                // The cached tokens the same first requests' usage reported, in finishing order.
                qint64 cached = -1;
                qint64 seen = 0;
                for (const RequestRecord &r : o.input.records) {
                    if (seen++ >= check->requests)
                        break;
                    if (r.cachedTokens >= 0)
                        cached = std::max<qint64>(cached, 0) + r.cachedTokens;
                }
                QJsonObject block = cachePolicy;
                block[u"verification"_s] =
                    verifyCacheReset(baseline, check->after, check->requests, cached);
                o.cachePolicy = block;
                o.input.cachePolicy = block; // the summary text says it too
            }
            if (scraper) {
                // After a cancellation load the server gets kCancellationSettleNs from the last
                // cancellation to free its slots before the "after" scrape reads its running
                // requests (docs/metrics.md, "Cancelled by the load"); this is a worker thread.
                if (const qint64 last = lastLoadCancellationNs(o.input.records); last > 0)
                    for (qint64 now = monotonicNs(); now < last + kCancellationSettleNs;
                         now = monotonicNs())
                        QThread::usleep(
                            quint64(std::min<qint64>(last + kCancellationSettleNs - now,
                                                     50'000'000) /
                                        1000 +
                                    1));
                // The "after" scrape, then the samples: they belong to this run's outcome.
                scraper->stop();
                o.input.serverMetrics = scraper->stores();
            }
            o.derived = deriveRun(o.input);
            o.summaryJson = runResultJson(o.input, o.derived, false);
            if (!o.cachePolicy.isEmpty())
                o.summaryJson[u"cache_policy"_s] = o.cachePolicy;
            if (!o.stopReason.isEmpty()) {
                QJsonObject early{{u"reason"_s, o.stopReason}};
                if (o.saturated)
                    early[u"saturation"_s] = o.saturation;
                o.summaryJson[u"stopped_early"_s] = early;
            }
            if (server && o.derived.hasMlperf)
                o.validity = o.derived.mlperf.valid ? u"VALID"_s : u"INVALID"_s;
            // A failure to store the samples loses the server's side only: the run is kept.
            QString why;
            if (recorder && !o.input.serverMetrics.isEmpty() &&
                !recorder->saveServerMetrics(encodeServerMetrics(o.input.serverMetrics), &why))
                s.note = u"the server metrics could not be stored: %1"_s.arg(why);
            if (recorder) {
                const QString message = !o.stopReason.isEmpty() ? o.stopReason
                                        : status == RunStatus::Interrupted
                                            ? u"stopped by the user"_s
                                        : status == RunStatus::Failed ? u"the run failed"_s
                                                                      : QString();
                if (!recorder->finishRun(status, o.summaryJson, message, o.wallEnd, o.runEndNs,
                                         &s.error))
                    s.error =
                        u"the run could not be stored in %1: %2"_s.arg(recorder->path(), s.error);
                else if (!recorder->writeError().isEmpty())
                    s.error = u"the project file stopped accepting records: %1"_s.arg(
                        recorder->writeError());
            }
            s.outcome = std::move(o);
            return s;
        },
        [this](Stored s) {
            if (!s.note.isEmpty())
                emit note(s.note);
            if (!s.error.isEmpty()) {
                emit runFinished(s.outcome);
                finishSession(s.error);
                return;
            }
            onStored(std::move(s.outcome));
        });
}

void RunSession::onStored(RunOutcome outcome)
{
    RunOutcome point = outcome;
    if (!m_keepRecords)
        outcome.input.records = {};
    point.input.records = {}; // the result keeps the numbers, not the raw records
    m_result.points.append(point);
    emit runFinished(outcome);
    ++m_position;

    const RunRequest &req = m_prepared.request;
    // A saturated sweep step was stopped early on purpose: the sweep moves on.
    const bool movesOn = outcome.saturated && !m_stopRequested;
    if (!outcome.completed() && !movesOn) {
        // "the run stopped: …" for an unnamed plan (the CLI's), "the run 'sweep 3' stopped: …".
        const QString &name = outcome.input.plan.name;
        const QString run = name.isEmpty() ? u"the run"_s : u"the run '%1'"_s.arg(name);
        finishSession(m_stopRequested                            ? QString()
                      : !outcome.stopReason.isEmpty()            ? run + u' ' + outcome.stopReason
                      : outcome.input.status == "interrupted"_L1 ? QString()
                                                                 : run + u" failed"_s);
        return;
    }
    if (req.mode != RunMode::Single) {
        const double tput = outcome.derived.summary.requestThroughput;
        if (point.label == "synchronous"_L1) {
            m_low = tput;
        } else if (point.label == "throughput"_L1) {
            m_high = tput;
            if (!(m_high > 0)) {
                finishSession(u"the max-throughput run completed no request; nothing to sweep"_s);
                return;
            }
            m_good = 0;
            m_bad = m_high * 1.05;
            m_sweepIndex = 1;
            m_result.maxThroughput = m_high;
        } else if (req.mode == RunMode::MaxValidRate) {
            if (outcome.validity == "VALID"_L1 && !outcome.saturated)
                m_good = outcome.targetRate;
            else
                m_bad = outcome.targetRate;
            m_result.validRate = m_good;
            m_result.lowestTried = m_bad;
        }
    }
    m_restartServer = m_prepared.ownsManagedServer && m_prepared.managedServer &&
                      m_prepared.request.plan.sut.managed.lifetime == "run"_L1;
    beginNext();
}

void RunSession::startSaturationWatch(const Point &point, qint64 startAt)
{
    // Rate steps of a sweep or search only: a step whose queue grows without bound measures the
    // queue, so it stops early with the evidence (docs/statistics.md, saturation) and the
    // sweep moves on. The synchronous and max-throughput baselines saturate by design.
    m_saturatedNow = false;
    m_saturationEvidence = {};
    m_detector.reset();
    const RunRequest &req = m_prepared.request;
    const bool step = req.mode != RunMode::Single;
    if ((!step && !req.stopWhenSaturated) || point.targetRate <= 0 ||
        point.plan.profile.closedLoopConcurrency > 0)
        return;
    SaturationOptions options;
    options.windowSeconds = req.saturationWindowS;
    options.minSlices = std::max(5, int(req.saturationWindowS / 3));
    m_detector = std::make_unique<SaturationDetector>(startAt, options);
    m_sentFed = 0;
    RunController *c = m_controller;
    connect(c, &RunController::requestCompleted, this, [this](const RequestRecord &r) {
        if (m_detector)
            m_detector->addFinished(r);
    });
    if (!m_saturationTimer) {
        m_saturationTimer = new QTimer(this);
        m_saturationTimer->setInterval(1000);
        connect(m_saturationTimer, &QTimer::timeout, this, [this] {
            if (!m_detector || !m_controller || m_controller->status() != RunStatus::Running)
                return;
            // Sends are only known as the transport takes them; a send counts in the second
            // it was noticed, well inside the detector's one-second slices.
            const qint64 now = monotonicNs();
            for (qint64 issued = m_controller->issued(); m_sentFed < issued; ++m_sentFed)
                m_detector->addSent(now);
            const SaturationVerdict v = m_detector->evaluate(now);
            if (v.evaluated && v.saturated && !m_saturatedNow) {
                m_saturatedNow = true;
                m_saturationEvidence = v.toJson();
                m_controller->stopBecause(u"stopped early: over-saturated (%1)"_s.arg(v.reason));
            }
        });
    }
    m_saturationTimer->start();
}

void RunSession::finishSession(const QString &error)
{
    // Once: the managed server's stop below takes a while, and a late controller or worker
    // result must not finish the session a second time meanwhile.
    if (!m_running || m_finishing)
        return;
    m_finishing = true;
    if (m_prepared.request.numRuns > 1 && m_prepared.request.mode == RunMode::Single) {
        QList<RunSummary> summaries;
        for (const RunOutcome &p : std::as_const(m_result.points))
            if (p.completed())
                summaries.append(p.derived.summary);
        m_result.series = summarizeSeries(
            summaries, defaultSeriesKeys(m_prepared.request.plan.profile.metricPercentiles));
    }
    m_result.stopped = m_stopRequested;
    m_result.error = error;
    m_result.ok = error.isEmpty() && !m_stopRequested;
    // A managed server this session started is stopped before the session says it is over: a
    // caller that starts the next one finds the port free and no process left.
    stopManagedServer([this] {
        m_running = false;
        emit finished(m_result);
    });
}

void RunSession::stopManagedServer(std::function<void()> then)
{
    std::shared_ptr<ManagedServer> server = m_prepared.ownsManagedServer ? m_prepared.managedServer
                                                                         : nullptr;
    if (!server) {
        then();
        return;
    }
    m_prepared.managedServer.reset();
    m_prepared.ownsManagedServer = false;
    const QString path = m_recorder ? m_recorder->path() : QString();
    const QString sut = m_prepared.request.plan.sut.name;
    inWorker(
        [server, path, sut] {
            QString note;
            if (!server->stop())
                note = u"the managed server (instance %1) left processes behind after SIGKILL"_s.arg(
                    server->instanceId());
            if (!path.isEmpty())
                saveManagedServerLog(path, *server, sut, &note);
            return note;
        },
        [this, then = std::move(then)](QString line) {
            if (!line.isEmpty())
                emit note(line);
            then();
        });
}

} // namespace sb
