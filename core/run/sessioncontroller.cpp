#include "sessioncontroller.h"

#include "client/requestbuilder.h"
#include "client/transport.h"
#include "common/clock.h"
#include "common/threadcensus.h"
#include "data/sessiondataset.h"
#include "load/rng.h"
#include "load/schedule.h"
#include "metrics/summary.h"
#include "run/sessionturn.h"

#include <QRandomGenerator>
#include <QSemaphore>

#include <chrono>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr qint64 kStartLeadNs = 5'000'000; // lets the first session start on time
constexpr qint64 kSliceNs = 20'000'000;    // how often a waiting dispatcher checks for stop
constexpr int kMaxStreams = 100000;
} // namespace

SessionController::SessionController(QObject *parent) : RunController(parent) {}

SessionController::~SessionController()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopRequested = true;
    }
    m_cv.notify_all();
    if (m_dispatcher.joinable())
        m_dispatcher.join();
    // The transport's workers call onTurnFinished(): end them before this object's state goes.
    if (m_transport)
        m_transport->disconnect(this);
    m_transport.reset();
}

void SessionController::configureSessions(const RunPlan &plan, const QList<SessionItem> &sessions,
                                          const QByteArray &apiKey)
{
    m_plan = plan;
    m_sessions = std::make_shared<const QList<SessionItem>>(sessions);
    m_apiKey = apiKey;
}

qint64 SessionController::thinkTimeNs(const LoadProfile &p, const SessionItem &item, qint64 session,
                                      int turn)
{
    if (turn <= 0)
        return 0;
    double ms = 0;
    switch (p.thinkTime) {
    case ThinkTimeModel::None:
        break;
    case ThinkTimeModel::Fixed:
        ms = p.thinkTimeMs;
        break;
    case ThinkTimeModel::Exponential:
        if (p.thinkTimeMs > 0) {
            // One generator per (session, turn): a turn's think time does not depend on the
            // order in which turns happened to end.
            const quint64 seed =
                splitmix64Mix(deriveSeed(p.seed, kStreamThinkTime) ^
                              splitmix64Mix(quint64(session) * 0x10001ull + quint64(turn)));
            Rng rng(seed);
            ms = rng.exponential(1.0 / p.thinkTimeMs);
        }
        break;
    case ThinkTimeModel::Dataset:
        if (turn < item.turns.size())
            ms = std::max(0.0, item.turns.at(turn).thinkTimeMs);
        break;
    }
    return qint64(std::llround(std::min(ms, 1e12) * 1e6));
}

bool SessionController::prepareTransport(QString *error)
{
    return validateSutRequest(m_plan.sut, error);
}

bool SessionController::start(QString *error)
{
    if (m_status == RunStatus::Running) {
        *error = u"a run is already in progress"_s;
        return false;
    }
    if (!m_sessions || m_sessions->isEmpty()) {
        *error = u"the dataset has no sessions"_s;
        return false;
    }
    const LoadProfile &p = m_plan.profile;
    m_served = p.history == HistoryMode::Served;
    m_closedSessions = p.sessionUsers > 0;
    m_sessionLimit =
        p.durationS > 0 ? std::numeric_limits<qint64>::max() : qint64(std::max(1, p.numSessions));
    QList<qint64> starts;
    if (!m_closedSessions) {
        LoadProfile arrivals = p;
        arrivals.requestRate = p.sessionRate;
        arrivals.rampUpStrategy = RampUpStrategy::None;
        arrivals.tracePath.clear();
        qint64 n = m_sessionLimit;
        if (p.durationS > 0) {
            if (arrivals.unlimitedRate()) {
                *error = u"--duration with sessions needs a finite --session-rate or --users"_s;
                return false;
            }
            n = qint64(std::ceil(arrivals.requestRate * p.durationS * 1.5)) + 64;
        }
        if (n > 10'000'000) {
            *error = u"the run would start more than 10,000,000 sessions"_s;
            return false;
        }
        starts = buildSchedule(arrivals, int(n), p.seed);
        if (starts.isEmpty()) {
            *error = scheduleError(arrivals);
            return false;
        }
    }
    // Streams in flight: a cap when given, else every session at once (a session has at most
    // one turn in flight).
    const qint64 concurrent =
        m_closedSessions ? p.sessionUsers : std::min<qint64>(starts.size(), kMaxStreams);
    m_cap = int(
        std::clamp<qint64>(p.maxConcurrency > 0 ? p.maxConcurrency : concurrent, 1, kMaxStreams));
    qint64 planned = 0;
    if (p.durationS <= 0)
        for (qint64 s = 0; s < m_sessionLimit; ++s)
            planned += m_sessions->at(int(s % m_sessions->size())).turns.size();
    m_planned = planned;

    if (!createTransport(error))
        return false;
    m_slots = std::make_unique<QSemaphore>(m_cap);
    connect(
        m_transport.get(), &Transport::requestFinished, this,
        [this](const RequestRecord &r) { onTurnFinished(r); }, Qt::DirectConnection);
    connect(m_transport.get(), &Transport::requestFinished, this,
            &SessionController::onRecordQueued, Qt::QueuedConnection);

    m_records.clear();
    m_received = 0;
    m_issued = 0;
    m_stopRequested = false;
    m_dispatcherDone = false;
    m_runTag = QString::number(QRandomGenerator::system()->generate64() & 0xffffffffffULL, 16);
    m_wallStart = QDateTime::currentDateTimeUtc();
    m_runStartNs = std::max(m_startAt, monotonicNs() + kStartLeadNs);
    m_durationEnd = p.durationS > 0 ? m_runStartNs + qint64(p.durationS * 1e9) : 0;
    {
        std::lock_guard lock(m_mutex);
        m_events = {};
        m_state.clear();
        m_order = 0;
        m_inFlight = 0;
        m_nextSession = 0;
        if (m_closedSessions) {
            for (int u = 0; u < p.sessionUsers && m_nextSession < m_sessionLimit; ++u)
                beginSessionLocked(m_runStartNs, u);
        } else {
            for (qint64 offset : std::as_const(starts)) {
                if (m_nextSession >= m_sessionLimit)
                    break;
                beginSessionLocked(m_runStartNs + offset, -1);
            }
        }
    }
    m_status = RunStatus::Running;
    startClientSampler();
    m_dispatcher = std::thread([this] { dispatchLoop(); });
    return true;
}

void SessionController::stop()
{
    if (m_status != RunStatus::Running)
        return;
    {
        std::lock_guard lock(m_mutex);
        m_stopRequested = true;
    }
    m_cv.notify_all();
    if (m_transport)
        m_transport->cancelAll();
}

void SessionController::pushLocked(qint64 due, qint64 session, int turn, qint64 thinkNs)
{
    m_events.push(Event{due, m_order++, session, turn, thinkNs});
}

void SessionController::beginSessionLocked(qint64 due, int user)
{
    const qint64 id = m_nextSession++;
    SessionState st;
    st.item = int(id % m_sessions->size());
    st.turns = int(m_sessions->at(st.item).turns.size());
    st.user = user;
    m_state.insert(id, st);
    pushLocked(due, id, 0, 0);
}

void SessionController::endSessionLocked(qint64 session, qint64 endNs)
{
    const auto it = m_state.find(session);
    if (it == m_state.end())
        return;
    const int user = it->user;
    m_state.erase(it); // its history is no longer needed
    // A user whose session ended starts the next one at once (docs/sessions.md).
    if (user >= 0 && !m_stopRequested && m_nextSession < m_sessionLimit &&
        !(m_durationEnd && endNs >= m_durationEnd))
        beginSessionLocked(endNs, user);
}

bool SessionController::moreSessionsLocked(qint64 now) const
{
    // Open loop: every start is queued from the beginning. Closed loop: a running session may
    // still end and begin the next one.
    if (!m_closedSessions)
        return false;
    return !m_state.isEmpty() && m_nextSession < m_sessionLimit &&
           !(m_durationEnd && now >= m_durationEnd);
}

RequestJob SessionController::makeTurnJob(const Event &e)
{
    QStringList answers;
    QList<qint32> answerTokens;
    int itemIndex = 0;
    int turns = 0;
    {
        std::lock_guard lock(m_mutex);
        const SessionState &st = m_state.value(e.session);
        answers = st.answers;
        answerTokens = st.answerTokens;
        itemIndex = st.item;
        turns = st.turns;
    }
    const SessionItem &item = m_sessions->at(itemIndex);
    const SessionTurn &turn = item.turns.at(e.turn);
    // A cache-busting prefix per session: the session still reuses its own history.
    const QString bust =
        m_plan.profile.cacheBust ? u"[%1-s%2] "_s.arg(m_runTag).arg(e.session) : QString();
    const TurnInput in = buildTurnInput(item, e.turn, answers, answerTokens, bust);

    const qint64 index = m_issued.fetch_add(1, std::memory_order_acq_rel);
    RequestJob job;
    job.flavour = m_plan.sut.flavour;
    job.url = endpointUrl(m_plan.sut);
    const QString requestId = u"sb-%1-%2"_s.arg(m_runTag).arg(index);
    job.headers = buildRequestHeaders(m_plan.sut, m_apiKey, requestId);
    if (!m_plan.profile.sessionHeader.isEmpty())
        job.headers.append({m_plan.profile.sessionHeader.toLatin1(),
                            u"sb-%1-s%2"_s.arg(m_runTag).arg(e.session).toLatin1()});
    job.timeoutNs = qint64(m_plan.profile.timeoutS * 1e9);
    job.captureText = m_served;
    job.body =
        buildRequestBody(m_plan.sut, m_plan.params, in.prompt, in.messages, turn.outputTokens);
    RequestRecord &r = job.record;
    r.index = index;
    r.datasetItem = item.sourceIndex;
    r.requestId = requestId;
    r.expectedInputTokens = in.inputTokens;
    r.expectedOutputTokens = turn.outputTokens;
    r.sessionId = e.session;
    r.turnIndex = e.turn;
    r.sessionTurns = turns;
    r.historyTokens = in.historyTokens;
    r.thinkNs = e.thinkNs;
    return job;
}

void SessionController::dispatchLoop()
{
    enrollThisThread(QStringLiteral("dispatcher"));
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (m_stopRequested)
            break;
        const qint64 now = monotonicNs();
        if (m_events.empty()) {
            if (m_inFlight == 0 && !moreSessionsLocked(now))
                break;
            m_cv.wait_for(lock, std::chrono::nanoseconds(kSliceNs));
            continue;
        }
        const Event e = m_events.top();
        if (e.due > now) {
            // Woken early by a new event (possibly an earlier one) or by stop().
            m_cv.wait_for(lock, std::chrono::nanoseconds(std::min(e.due - now, kSliceNs)));
            continue;
        }
        m_events.pop();
        if (e.turn == 0 && m_durationEnd && e.due >= m_durationEnd) {
            m_state.remove(e.session); // the duration is over: the session never starts
            continue;
        }
        ++m_inFlight;
        lock.unlock();
        const qint64 tQueued = monotonicNs();
        bool gotSlot = false;
        while (!(gotSlot = m_slots->tryAcquire(1, 20)))
            if (m_stopRequested.load(std::memory_order_relaxed))
                break;
        if (!gotSlot || m_stopRequested.load()) {
            if (gotSlot)
                m_slots->release();
            lock.lock();
            --m_inFlight;
            break;
        }
        RequestJob job = makeTurnJob(e);
        const qint64 tDispatch = monotonicNs();
        job.record.tSched = e.due;
        // Waiting for a slot under a cap is client queue time, as for single requests.
        job.record.tQueued = m_plan.profile.maxConcurrency > 0 ? std::min(e.due, tQueued) : tQueued;
        job.record.tDispatch = tDispatch;
        m_transport->submit(std::move(job));
        lock.lock();
    }
    lock.unlock();
    const qint64 issued = m_issued.load();
    QMetaObject::invokeMethod(
        this, [this, issued] { onDispatcherDone(issued); }, Qt::QueuedConnection);
}

void SessionController::onTurnFinished(const RequestRecord &r)
{
    m_slots->release();
    {
        std::lock_guard lock(m_mutex);
        --m_inFlight;
        const auto it = m_state.find(r.sessionId);
        if (it != m_state.end()) {
            const qint64 end = r.tEnd > 0 ? r.tEnd : monotonicNs();
            if (r.ok() && !m_stopRequested) {
                const SessionItem &item = m_sessions->at(it->item);
                const SessionTurn &turn = item.turns.at(r.turnIndex);
                it->answers.append(m_served ? r.outputText : turn.reference);
                it->answerTokens.append(m_served ? effectiveOutputTokens(r) : turn.referenceTokens);
                const int next = r.turnIndex + 1;
                if (next < it->turns) {
                    const qint64 think = thinkTimeNs(m_plan.profile, item, r.sessionId, next);
                    pushLocked(end + think, r.sessionId, next, think);
                } else {
                    endSessionLocked(r.sessionId, end);
                }
            } else {
                endSessionLocked(r.sessionId, end); // a failed turn ends its session
            }
        }
    }
    m_cv.notify_all();
}

void SessionController::onRecordQueued(const RequestRecord &record)
{
    if (record.outputText.isEmpty())
        return onRecord(record);
    // The text was for the history; records never keep it.
    RequestRecord r = record;
    r.outputText.clear();
    onRecord(r);
}

} // namespace sb
