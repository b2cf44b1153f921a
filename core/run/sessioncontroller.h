#pragma once

#include "run/runcontroller.h"

#include <QHash>
#include <QStringList>

#include <condition_variable>
#include <mutex>
#include <queue>
#include <vector>

namespace sb {

struct SessionItem;

// Drives a session workload (docs/sessions.md): sessions arrive open-loop on the plan's session
// schedule (LoadProfile::sessionRate, arrival, burstiness) or closed-loop (sessionUsers users,
// each starting its next session when the last one ends); each session sends its turns one
// after another, turn k+1 a think time after turn k's answer ended, with the conversation so far
// (buildTurnInput) and, when the plan names one, the session's affinity header. A failed turn
// ends its session. Records carry their session and turn.
//
// It is a RunController to everything that observes a run (recorder, dashboard, RunSession):
// the same transport, concurrency cap (max-concurrency caps requests in flight), records,
// signals and end. Threads: a dispatcher thread sleeps until the next due turn (a condition
// variable on CLOCK_MONOTONIC deadlines); a turn's end is handled in the transport's worker
// thread, so the next turn's due time is the answer's end plus the think time whatever the
// owner thread does.
class SessionController : public RunController
{
    Q_OBJECT
public:
    explicit SessionController(QObject *parent = nullptr);
    ~SessionController() override;

    void configureSessions(const RunPlan &plan, const QList<SessionItem> &sessions,
                           const QByteArray &apiKey);
    // Sessions build their arrivals and transport in start() (no warm-up connections): here
    // only what is refused before anything is sent.
    bool prepareTransport(QString *error) override;
    bool start(QString *error) override;
    void stop() override;

    // The think time drawn before turn `turn` of session `session` (ns): a pure function of the
    // plan's seed, model and mean, so a run's think times are reproducible.
    static qint64 thinkTimeNs(const LoadProfile &profile, const SessionItem &item, qint64 session,
                              int turn);

private:
    struct Event
    {
        qint64 due = 0;
        quint64 order = 0;
        qint64 session = 0;
        int turn = 0;
        qint64 thinkNs = 0;
        bool operator>(const Event &o) const
        {
            return due != o.due ? due > o.due : order > o.order;
        }
    };
    struct SessionState
    {
        int item = 0;
        int turns = 0;
        int user = -1; // closed loop: the user running it
        QStringList answers;
        QList<qint32> answerTokens;
    };

    void dispatchLoop();
    void onTurnFinished(const RequestRecord &record); // the transport's worker thread
    void onRecordQueued(const sb::RequestRecord &record);
    // With m_mutex held.
    void pushLocked(qint64 due, qint64 session, int turn, qint64 thinkNs);
    void beginSessionLocked(qint64 due, int user);
    void endSessionLocked(qint64 session, qint64 endNs);
    bool moreSessionsLocked(qint64 now) const;
    RequestJob makeTurnJob(const Event &e);

    std::shared_ptr<const QList<SessionItem>> m_sessions;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> m_events;
    QHash<qint64, SessionState> m_state;
    quint64 m_order = 0;
    qint64 m_nextSession = 0; // closed loop: the next session to begin
    qint64 m_sessionLimit = 0;
    qint64 m_inFlight = 0;
    qint64 m_durationEnd = 0;
    bool m_closedSessions = false;
    bool m_served = true;
};

} // namespace sb
