#pragma once

#include "metrics/definitions.h"
#include "metrics/recordset.h"
#include "metrics/stats.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sb {

struct SummaryOptions;

// One turn position across the sessions of a run (docs/sessions.md): turn 1 is every session's
// first request, turn 2 every second one, … Latencies have the run summary's definitions
// (docs/metrics.md), computed over this turn's records only; so a prefix cache shows as TTFT
// falling with the turn.
struct TurnSummary
{
    int turn = 0;         // 1-based position in the session
    qint64 requests = 0;  // measured records of this turn
    qint64 completed = 0; // successful
    qint64 failed = 0;
    MetricStats ttft, tpot, itl, e2el; // ms
    // Successful requests: input tokens as the summary counts them (the server's usage, else
    // the dataset's), the new part (the client's count of the new user message, at most the
    // input), the history part (input - new), and the server's cached_tokens where reported.
    double meanInputTokens = 0;
    double meanHistoryTokens = 0;
    double meanNewTokens = 0;
    qint64 cachedTokens = 0;
    qint64 cachedReported = 0;   // requests that reported cached_tokens
    double cacheHitRate = -1;    // Σ cached / Σ input over those; -1: none reported
    MetricStats thinkConfigured; // ms drawn before this turn (turns 2+)
    MetricStats thinkMeasured;   // ms from the previous turn's end to this turn's send
};

// What a session workload did, from its raw records alone (their session and turn ids).
struct SessionSummary
{
    bool present = false;    // the records belong to sessions
    qint64 sessions = 0;     // sessions with at least one measured record
    qint64 completed = 0;    // every planned turn sent and successful
    qint64 failed = 0;       // a turn failed (which ended the session)
    qint64 incomplete = 0;   // neither: the run stopped before the session's last turn
    qint64 turnsPlanned = 0; // Σ planned turns of these sessions
    qint64 turnsSent = 0;    // records (sent, or failed before sending)
    qint64 turnsCompleted = 0;
    qint64 turnsFailed = 0;
    qint64 turnsNotSent = 0;      // planned turns without a record (after a failure or a stop)
    MetricStats sessionDurationS; // completed sessions: first send to last end, think included
    double meanTurnsPerSession = 0;
    MetricStats thinkConfigured; // ms, turns 2+ with the previous turn's record
    MetricStats thinkMeasured;   // ms, previous turn's end to this turn's send
    MetricStats thinkExcess;     // ms, measured - configured: the client's lateness
    qint64 inputTokens = 0;      // successful turns, as the run summary counts them
    qint64 historyTokens = 0;
    qint64 newInputTokens = 0;
    qint64 cachedTokens = 0;
    qint64 cachedReported = 0;
    double cacheHitRate = -1; // Σ cached / Σ input over the requests reporting cached_tokens
    // Load as sessions pile up: a session is active from its first turn's scheduled time to its
    // last record's end; the most at once, and the time-weighted mean over the run.
    qint64 peakActiveSessions = 0;
    double meanActiveSessions = 0;
    QList<TurnSummary> turns; // by turn, from 1

    QJsonObject toJson() const;
};

// Reduces a run's records to its session summary; `present` is false when no record belongs to
// a session. Warm-up records are left out as everywhere.
SessionSummary summarizeSessions(const RecordSet &records, const SummaryOptions &opts);

// The definitions of the session metrics (docs/sessions.md), as printed and stored.
const QList<MetricDefinition> &sessionMetricDefinitions();

// The CLI's and the text report's session block (English), after the run's summary.
QString formatSessionBlock(const SessionSummary &s, const QString &historyMode);

} // namespace sb
