#pragma once

#include "metrics/recordset.h"
#include "metrics/requestrecord.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sb {

struct RunSummary;
struct SummaryOptions;

// The part of a run where the load was neither ramping up from an empty server nor draining
// after the last send (docs/statistics.md, "Steady state"):
//   steady level L   the time-weighted median of requests in flight between the first and the
//                    last send (every sent record counts, warm-up requests too: they occupy
//                    the server);
//   warm-up end      the later of the first moment in flight reaches L and the first
//                    completion (before it, no request has seen the server both admit and
//                    finish work);
//   drain start      the last send: after it only completions happen and the load falls.
// The steady window is [max(warm-up end, first measured send), drain start]; a request belongs
// to it when its t_send lies inside.
struct SteadyStateOptions
{
    // Fewer measured requests sent inside the window leave it unavailable.
    qint64 minRequests = 10;
};

struct SteadyStateWindow
{
    bool available = false;
    QString reason; // why not available

    qint64 runStartNs = 0; // first send of any record
    qint64 lastSendNs = 0; // = drain start
    qint64 runEndNs = 0;   // last completion
    qint64 firstCompletionNs = 0;
    qint64 steadyInFlight = 0; // L
    qint64 reachedLevelNs = 0; // first moment in flight >= L
    qint64 warmupEndNs = 0;    // max(reachedLevelNs, firstCompletionNs)
    QString warmupRule;        // which of the two set warmupEndNs
    qint64 startNs = 0;        // the window
    qint64 endNs = 0;
    qint64 requests = 0; // measured requests sent inside

    double seconds() const { return double(endNs - startNs) / 1e9; }
    double warmupSeconds() const { return double(startNs - runStartNs) / 1e9; }
    double drainSeconds() const { return double(runEndNs - endNs) / 1e9; }
    // t_send inside [startNs, endNs] (warm-up flag not considered: summarize() applies it).
    bool contains(const RequestRecord &r) const;
    QJsonObject toJson() const; // times in seconds from runStart, plus the rules in words
};

SteadyStateWindow detectSteadyState(const RecordSet &records,
                                    const SteadyStateOptions &options = {});

// The records the window contains, in input order.
QList<RequestRecord> recordsInWindow(const RecordSet &records, const SteadyStateWindow &window);

// The steady-state summary: summarize() over recordsInWindow() for every latency statistic and
// count, with the window's own rates in place of the whole-run ones, since the requests sent
// inside the window finish partly after it:
//   durationS, windowStartNs/EndNs     the window;
//   requestThroughput                  successful measured completions inside the window / length;
//   outputThroughput                   output tokens of successful measured requests whose chunks
//                                      arrived inside the window / length (tokens per chunk);
//   totalTokenThroughput               outputThroughput + input tokens of the completions counted
//                                      above / length;
//   requestGoodput                     requestThroughput x the good fraction of the window's
//                                      requests.
// An unavailable window gives an empty summary.
RunSummary summarizeSteadyState(const RecordSet &records, const SteadyStateWindow &window,
                                const SummaryOptions &options);

} // namespace sb
