#include "runcontroller.h"

#include "client/qnamtransport.h"
#include "client/requestbuilder.h"
#include "client/sockettransport.h"
#include "common/clock.h"
#include "common/threadcensus.h"
#include "data/dataset.h"
#include "data/mooncaketrace.h"
#include "load/schedule.h"
#include "run/clientloadsampler.h"
#include "run/planvalidation.h"
#include "run/runpreparation.h"
#include "run/runrequest.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSemaphore>
#include <QThread>
#include <cerrno>
#include <cmath>
#include <time.h>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// The manager pool needs a manager per 6 streams; beyond this it would need hundreds of them.
constexpr int kMaxQnamStreams = 4096;
// The socket transport holds a descriptor and a few hundred bytes per stream; the descriptor
// limit (raised to the hard limit when needed) is what binds.
constexpr int kMaxSocketStreams = 100000;
constexpr qint64 kSliceNs = 20'000'000;    // how often a sleeping dispatcher checks for stop
constexpr qint64 kStartLeadNs = 5'000'000; // lets the first request be sent on time

void sleepUntil(qint64 deadlineNs)
{
    timespec ts;
    ts.tv_sec = time_t(deadlineNs / 1000000000);
    ts.tv_nsec = long(deadlineNs % 1000000000);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
}
} // namespace

const char *transportKindName(TransportKind kind)
{
    return kind == TransportKind::Qnam ? "qnam" : "socket";
}

bool transportKindFromName(const QString &name, TransportKind *out)
{
    const QString n = name.trimmed().toLower();
    if (n == "qnam"_L1)
        *out = TransportKind::Qnam;
    else if (n == "socket"_L1)
        *out = TransportKind::Socket;
    else
        return false;
    return true;
}

const char *runStatusName(RunStatus s)
{
    switch (s) {
    case RunStatus::Idle:
        return "idle";
    case RunStatus::Running:
        return "running";
    case RunStatus::Completed:
        return "completed";
    case RunStatus::Interrupted:
        return "interrupted";
    case RunStatus::Failed:
        return "failed";
    }
    return "idle";
}

RunController::RunController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<sb::RequestRecord>();
    qRegisterMetaType<sb::RunStatus>();
}

RunController::~RunController()
{
    m_stopRequested = true;
    if (m_dispatcher.joinable())
        m_dispatcher.join();
    m_sampler.reset();
    if (m_transport)
        m_transport->disconnect(this);
    m_transport.reset();
}

void RunController::configure(const RunPlan &plan, const QList<PromptItem> &items,
                              const QByteArray &apiKey)
{
    m_plan = plan;
    m_items = std::make_shared<const QList<PromptItem>>(items);
    m_apiKey = apiKey;
}

QString RunController::transportName() const
{
    return m_transport ? m_transport->name() : QString();
}

QJsonObject RunController::transportCounters() const
{
    return m_transport ? m_transport->counters() : QJsonObject();
}

bool RunController::isClosedLoop() const
{
    const auto &p = m_plan.profile;
    return p.closedLoopConcurrency > 0 || p.scenario == Scenario::SingleStream ||
           (p.durationS > 0 && p.unlimitedRate());
}

bool RunController::prepareTransport(QString *error)
{
    if (m_status == RunStatus::Running) {
        *error = u"a run is already in progress"_s;
        return false;
    }
    m_transportReady = false;
    if (!m_items || m_items->isEmpty()) {
        *error = u"the dataset has no prompts"_s;
        return false;
    }
    // Headers with CR/LF/NUL or an unusable endpoint are refused before anything is sent.
    if (!validateSutRequest(m_plan.sut, error))
        return false;
    // The load settings are the pipeline's to check (validateRunRequest): the same rules for
    // every caller, here too for the benches and tools that drive a controller directly.
    {
        RunRequest check;
        check.plan.sut.builtInSimulator = true;
        check.plan.sut.flavour = m_plan.sut.flavour; // a batch size is checked against it
        check.plan.profile = m_plan.profile;
        for (const PlanIssue &issue : validateRunRequest(check)) {
            *error = issue.text();
            return false;
        }
    }
    LoadProfile &p = m_plan.profile;
    if (p.scenario == Scenario::Offline)
        p.requestRate = std::numeric_limits<double>::infinity();
    if (p.scenario == Scenario::Server)
        p.arrival = ArrivalProcess::Poisson;
    m_closedLoop = isClosedLoop() && m_override.isEmpty();
    // The open-loop schedule is computed before the run: a pure function of profile and seed.
    m_schedule.clear();
    m_warmupByCount = p.warmupRequests;
    if (!m_override.isEmpty()) {
        m_schedule = m_override;
        p.numPrompts = int(m_schedule.size()) - p.warmupRequests;
    } else if (!m_closedLoop) {
        qint64 n = qint64(p.warmupRequests) + std::max(0, p.numPrompts);
        if (p.durationS > 0)
            n = qint64(std::ceil(p.requestRate * p.durationS * 1.5)) + 64 + p.warmupRequests;
        if (p.warmupSeconds > 0)
            n += qint64(std::ceil(p.requestRate * p.warmupSeconds * 1.5)) + 16;
        if (n > 50'000'000) {
            *error = u"the run would issue more than 50,000,000 requests"_s;
            return false;
        }
        m_schedule = buildSchedule(p, int(n), p.seed);
        if (m_schedule.isEmpty()) {
            *error = scheduleError(p);
            return false;
        }
    }

    if (m_closedLoop)
        m_cap = p.closedLoopConcurrency > 0            ? p.closedLoopConcurrency
                : p.scenario == Scenario::SingleStream ? 1
                                                       : p.maxConcurrency;
    else if (p.maxConcurrency > 0)
        m_cap = p.maxConcurrency;
    const int maxStreams =
        m_transportKind == TransportKind::Qnam ? kMaxQnamStreams : kMaxSocketStreams;
    if (!m_closedLoop && p.maxConcurrency <= 0)
        m_cap = int(std::min<qint64>(m_schedule.size(), maxStreams));
    if (m_cap > maxStreams) {
        *error = u"concurrency %1 is above what the %2 transport holds (%3)"_s.arg(m_cap)
                     .arg(QString::fromLatin1(transportKindName(m_transportKind)))
                     .arg(maxStreams);
        return false;
    }
    m_cap = std::max(1, m_cap);
    // What a progress bar can count on: every request of a count-bound run, warm-up included;
    // 0 for a duration-bound run, whose end is a time.
    m_planned = !m_override.isEmpty() ? m_schedule.size()
                : p.durationS > 0     ? 0
                                      : qint64(p.warmupRequests) + p.numPrompts;

    if (!createTransport(error))
        return false;
    const TransportOptions &transportOptions = m_transport->options();
    // Warm connections: the cap's worth opened before the run's clock starts, so no request's
    // times include a connection set-up. A failure is not fatal: the requests then open what
    // they need and report it in their own records. This waits (up to 5 s): the pipeline calls
    // prepareTransport() from a worker thread, never the GUI's.
    if (transportOptions.connectionMode == ConnectionMode::Warm) {
        constexpr qint64 kPrewarmNs = 5'000'000'000; // the longest wait for them
        QString warmError;
        const int warm =
            warmConnectionCount(m_cap, m_closedLoop || p.maxConcurrency > 0, m_schedule);
        if (!m_transport->prewarm(endpointUrl(m_plan.sut), warm, monotonicNs() + kPrewarmNs,
                                  &warmError))
            qWarning("%s", qPrintable(warmError));
    }
    // The transport was made in this (maybe worker) thread; its signals are delivered to the
    // controller's thread, and it lives there from now on.
    if (QThread::currentThread() != thread())
        m_transport->moveToThread(thread());
    m_transportReady = true;
    return true;
}

bool RunController::start(QString *error)
{
    if (m_status == RunStatus::Running) {
        *error = u"a run is already in progress"_s;
        return false;
    }
    if (!m_transportReady && !prepareTransport(error))
        return false;
    m_transportReady = false;
    const LoadProfile &p = m_plan.profile;
    m_slots = std::make_unique<QSemaphore>(m_cap);
    QSemaphore *sem = m_slots.get();
    // Released in the worker thread: the next request may go at once, whatever this thread does.
    connect(
        m_transport.get(), &Transport::requestFinished, this,
        [sem](const RequestRecord &) { sem->release(); }, Qt::DirectConnection);
    connect(m_transport.get(), &Transport::requestFinished, this, &RunController::onRecord,
            Qt::QueuedConnection);

    m_records.clear();
    m_stopReason.clear();
    m_errorStopper.reset();
    if (p.maxErrorRate >= 0)
        m_errorStopper = std::make_unique<ErrorRateStopper>(p.maxErrorRate);
    m_received = 0;
    m_issued = 0;
    m_stopRequested = false;
    m_dispatcherDone = false;
    m_runTag = QString::number(QRandomGenerator::system()->generate64() & 0xffffffffffULL, 16);
    m_status = RunStatus::Running;
    m_wallStart = QDateTime::currentDateTimeUtc();
    m_runStartNs = std::max(m_startAt, monotonicNs() + kStartLeadNs);
    startClientSampler();
    m_dispatcher = std::thread([this] { dispatchLoop(); });
    return true;
}

void RunController::startClientSampler()
{
    if (!m_sampler) {
        m_sampler = std::make_unique<ClientLoadSampler>();
        // From the sampler's thread to this object's: a display reads it in its own thread.
        m_sampler->setOnTick([this](const ClientLoadTick &tick) {
            QMetaObject::invokeMethod(
                this, [this, tick] { emit clientLoadSampled(tick); }, Qt::QueuedConnection);
        });
    }
    m_clientLoad = {};
    m_sampler->start(m_runStartNs);
}

void RunController::stopBecause(const QString &reason)
{
    if (m_status != RunStatus::Running)
        return;
    if (m_stopReason.isEmpty())
        m_stopReason = reason;
    stop();
}

bool RunController::createTransport(QString *error)
{
    TransportOptions transportOptions;
    // Preset options are taken as they are (prepareRun already applied the plan's connection
    // settings to them; a bench or test may choose its own); resolved here, the plan's apply.
    if (m_presetOptions) {
        transportOptions = *m_presetOptions;
    } else {
        if (!resolveTransportOptions(m_plan.sut, m_environment, &transportOptions, error))
            return false;
        applyProfileToTransport(m_plan.profile, &transportOptions);
    }
    if (m_transportKind == TransportKind::Qnam)
        m_transport = std::make_unique<QnamTransport>();
    else
        m_transport = std::make_unique<SocketTransport>();
    m_transport->setOptions(transportOptions);
    m_route = connectionRoute(m_plan.sut, transportOptions);
    m_transport->prepare(m_cap);
    return true;
}

void RunController::stop()
{
    if (m_status != RunStatus::Running)
        return;
    m_stopRequested = true;
    if (m_transport)
        m_transport->cancelAll();
}

bool RunController::waitUntil(qint64 deadlineNs)
{
    for (;;) {
        if (m_stopRequested.load(std::memory_order_relaxed))
            return false;
        const qint64 now = monotonicNs();
        if (now >= deadlineNs)
            return true;
        sleepUntil(std::min(deadlineNs, now + kSliceNs));
    }
}

RequestJob RunController::makeJob(qint64 i, bool warmup) const
{
    const auto &items = *m_items;
    const PromptItem &item = items.at(int(i % items.size()));
    RequestJob job;
    job.flavour = m_plan.sut.flavour;
    job.url = endpointUrl(m_plan.sut);
    const QString requestId = u"sb-%1-%2"_s.arg(m_runTag).arg(i);
    job.headers = buildRequestHeaders(m_plan.sut, m_apiKey, requestId);
    job.timeoutNs = qint64(m_plan.profile.timeoutS * 1e9);

    if (apiFlavourIsPooling(m_plan.sut.flavour))
        return makePoolingJob(std::move(job), i, warmup);
    QString prompt = item.prompt.isEmpty() && !item.hashIds.isEmpty()
                         ? mooncakePrompt(item.hashIds, item.inputTokens, item.hashBlockTokens)
                         : item.prompt;
    QJsonArray messages = item.messages;
    if (m_plan.profile.cacheBust) {
        // A unique prefix per request and run keeps the server's prefix cache from serving
        // a repeated prompt; it is derived from the run tag so a run can be re-created.
        const QString prefix = u"[%1-%2] "_s.arg(m_runTag).arg(i);
        if (!messages.isEmpty()) {
            QJsonObject first = messages.at(0).toObject();
            first[u"content"_s] = prefix + first.value(u"content"_s).toString();
            messages[0] = first;
        } else {
            prompt.prepend(prefix);
        }
    }
    job.body = buildRequestBody(m_plan.sut, m_plan.params, prompt, messages, item.outputTokens,
                                item.images);

    RequestRecord &r = job.record;
    if (apiFlavourTakesImages(m_plan.sut.flavour))
        r.imageBytes = item.imageBytes;
    r.index = i;
    r.datasetItem = item.sourceIndex;
    r.warmup = warmup;
    r.requestId = requestId;
    r.expectedInputTokens = item.inputTokens;
    r.expectedOutputTokens = item.outputTokens;
    // The cancellation load chooses among the measured requests by schedule index and seed, so
    // the same requests are chosen on every run with the same seed (docs/metrics.md).
    const LoadProfile &p = m_plan.profile;
    if (!warmup && requestCancelledByLoad(p, i)) {
        if (p.cancelAfterTokens > 0)
            job.cancelAfterChunks = p.cancelAfterTokens;
        else
            job.cancelAfterNs = qint64(std::llround(p.cancelDelayS * 1e9));
    }
    return job;
}

RequestJob RunController::makePoolingJob(RequestJob job, qint64 i, bool warmup) const
{
    // Request i takes the next itemsPerRequest() items of the list, in order and cycled
    // (docs/metrics.md, "Embeddings and rerank"): rerank's first is its query, the rest its
    // documents; embeddings embeds them all.
    const auto &items = *m_items;
    const bool rerank = m_plan.sut.flavour == ApiFlavour::Rerank;
    const int per = m_plan.itemsPerRequest();
    const qint64 first = i * per;
    QString query;
    QStringList inputs;
    qint64 queryTokens = 0;
    qint64 inputTokens = 0;
    for (int k = 0; k < per; ++k) {
        const PromptItem &item = items.at(int((first + k) % items.size()));
        QString text = item.prompt.isEmpty() && !item.hashIds.isEmpty()
                           ? mooncakePrompt(item.hashIds, item.inputTokens, item.hashBlockTokens)
                           : item.prompt;
        if (m_plan.profile.cacheBust)
            text.prepend(u"[%1-%2-%3] "_s.arg(m_runTag).arg(i).arg(k));
        if (rerank && k == 0) {
            query = text;
            queryTokens = item.inputTokens;
        } else {
            inputs.append(text);
            inputTokens += item.inputTokens;
        }
    }
    job.body = buildPoolingBody(m_plan.sut, m_plan.params, query, inputs);
    RequestRecord &r = job.record;
    r.index = i;
    r.datasetItem = items.at(int(first % items.size())).sourceIndex;
    r.warmup = warmup;
    r.requestId = u"sb-%1-%2"_s.arg(m_runTag).arg(i);
    r.batchItems = qint32(inputs.size());
    // A cross-encoder reads the query beside every document: the dataset's estimate of what a
    // rerank server counts (its usage wins when it sends one).
    r.expectedInputTokens =
        qint32(std::min<qint64>(inputTokens + queryTokens * inputs.size(), INT32_MAX));
    r.expectedOutputTokens = 0;
    const LoadProfile &p = m_plan.profile;
    if (!warmup && requestCancelledByLoad(p, i))
        job.cancelAfterNs = qint64(std::llround(p.cancelDelayS * 1e9));
    return job;
}

void RunController::dispatchLoop()
{
    enrollThisThread(u"dispatcher"_s);
    ClientLoadSampler *sampler = m_sampler.get();
    const LoadProfile &p = m_plan.profile;
    const qint64 durationEnd = p.durationS > 0 ? m_runStartNs + qint64(p.durationS * 1e9) : 0;
    const qint64 warmupEnd = p.warmupSeconds > 0 ? m_runStartNs + qint64(p.warmupSeconds * 1e9) : 0;
    qint64 measured = 0;
    qint64 i = 0;
    if (m_closedLoop)
        waitUntil(m_runStartNs);
    for (;; ++i) {
        if (m_stopRequested.load(std::memory_order_relaxed))
            break;
        if (p.durationS <= 0 && measured >= p.numPrompts)
            break;
        qint64 tSched = 0;
        if (!m_closedLoop) {
            if (i >= m_schedule.size())
                break;
            tSched = m_runStartNs + m_schedule.at(int(i));
            if (durationEnd && tSched >= durationEnd)
                break;
            if (!waitUntil(tSched))
                break;
        }
        const qint64 tQueued = monotonicNs();
        if (!m_closedLoop && sampler)
            sampler->noteWake(tQueued - tSched);
        bool gotSlot = false;
        while (!(gotSlot = m_slots->tryAcquire(1, 20))) {
            if (m_stopRequested.load(std::memory_order_relaxed))
                break;
        }
        // stop() sets the flag before cancelling, and cancelling frees slots: a slot won here
        // may be one of those, and must not start a request after the stop.
        if (!gotSlot || m_stopRequested.load()) {
            if (gotSlot)
                m_slots->release();
            break;
        }
        const qint64 tDispatch = monotonicNs();
        if (m_closedLoop)
            tSched = tDispatch; // closed loop: a request is due the moment a slot frees
        if (durationEnd && tDispatch >= durationEnd) {
            m_slots->release();
            break;
        }
        const bool warmup = i < m_warmupByCount || (warmupEnd && tSched < warmupEnd);
        RequestJob job = makeJob(i, warmup);
        job.record.tSched = tSched;
        // With a user's cap, a due request joins the client's queue at its scheduled time: the
        // wait for a slot is client queue time, not lateness. Without one there is no queue.
        job.record.tQueued = m_closedLoop           ? tDispatch
                             : p.maxConcurrency > 0 ? std::min(tSched, tQueued)
                                                    : tQueued;
        job.record.tDispatch = tDispatch;
        m_issued.fetch_add(1, std::memory_order_acq_rel);
        m_transport->submit(std::move(job));
        if (!warmup)
            ++measured;
    }
    const qint64 issued = m_issued.load();
    QMetaObject::invokeMethod(
        this, [this, issued] { onDispatcherDone(issued); }, Qt::QueuedConnection);
}

void RunController::onDispatcherDone(qint64 issued)
{
    Q_UNUSED(issued);
    if (m_dispatcher.joinable())
        m_dispatcher.join();
    m_dispatcherDone = true;
    if (m_stopRequested)
        m_transport->cancelAll(); // anything submitted after the first cancel
    maybeFinish();
}

void RunController::onRecord(const RequestRecord &record)
{
    ++m_received;
    if (m_keepRecords)
        m_records.append(record);
    emit requestCompleted(record);
    if (m_errorStopper && m_errorStopper->add(record) && m_stopReason.isEmpty())
        stopBecause(
            u"stopped: the error rate exceeded its bound (%1)"_s.arg(m_errorStopper->reason()));
    maybeFinish();
}

void RunController::maybeFinish()
{
    if (m_status != RunStatus::Running || !m_dispatcherDone || m_received < m_issued.load())
        return;
    m_runEndNs = monotonicNs();
    m_wallEnd = QDateTime::currentDateTimeUtc();
    if (m_sampler)
        m_clientLoad = m_sampler->stop();
    m_status = m_stopRequested ? RunStatus::Interrupted : RunStatus::Completed;
    // Records arrive sorted by completion; the schedule's order is what users expect.
    std::sort(m_records.begin(), m_records.end(),
              [](const RequestRecord &a, const RequestRecord &b) { return a.index < b.index; });
    emit finished(m_status);
}

} // namespace sb
