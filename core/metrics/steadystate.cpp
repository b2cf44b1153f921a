#include "steadystate.h"

#include "samples.h"
#include "summary.h"

#include <QJsonValue>

#include <algorithm>
#include <limits>
#include <map>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

double secondsFrom(qint64 origin, qint64 t)
{
    return double(t - origin) / 1e9;
}

} // namespace

bool SteadyStateWindow::contains(const RequestRecord &r) const
{
    return available && r.tSend > 0 && r.tSend >= startNs && r.tSend <= endNs;
}

QJsonObject SteadyStateWindow::toJson() const
{
    QJsonObject o{{u"available"_s, available}};
    if (!available) {
        o.insert(u"reason"_s, reason);
        return o;
    }
    o.insert(u"start_s"_s, secondsFrom(runStartNs, startNs));
    o.insert(u"end_s"_s, secondsFrom(runStartNs, endNs));
    o.insert(u"duration_s"_s, seconds());
    o.insert(u"warmup_s"_s, warmupSeconds());
    o.insert(u"drain_s"_s, drainSeconds());
    o.insert(u"run_end_s"_s, secondsFrom(runStartNs, runEndNs));
    o.insert(u"steady_in_flight"_s, steadyInFlight);
    o.insert(u"reached_level_s"_s, secondsFrom(runStartNs, reachedLevelNs));
    o.insert(u"first_completion_s"_s, secondsFrom(runStartNs, firstCompletionNs));
    o.insert(u"warmup_rule"_s, warmupRule);
    o.insert(u"requests"_s, requests);
    o.insert(u"definition"_s,
             u"warm-up ends when requests in flight first reach their time-weighted median "
             "between the first and the last send, or at the first completion if later; the "
             "drain starts at the last send; the steady window holds the requests sent between"_s);
    return o;
}

SteadyStateWindow detectSteadyState(const RecordSet &records, const SteadyStateOptions &options)
{
    SteadyStateWindow w;
    constexpr qint64 kNone = std::numeric_limits<qint64>::max();
    qint64 firstSend = kNone, lastSend = 0, runEnd = 0, firstDone = kNone, firstMeasured = kNone;
    for (const RequestRecord &r : records) {
        if (r.tSend <= 0)
            continue;
        firstSend = std::min(firstSend, r.tSend);
        lastSend = std::max(lastSend, r.tSend);
        const qint64 done = std::max(completionTimeNs(r), r.tSend);
        runEnd = std::max(runEnd, done);
        if (done > r.tSend)
            firstDone = std::min(firstDone, done);
        if (!r.warmup)
            firstMeasured = std::min(firstMeasured, r.tSend);
    }
    if (firstSend == kNone) {
        w.reason = u"no request was sent"_s;
        return w;
    }
    w.runStartNs = firstSend;
    w.lastSendNs = lastSend;
    w.runEndNs = runEnd;
    w.firstCompletionNs = firstDone == kNone ? runEnd : firstDone;
    if (lastSend <= firstSend) {
        w.reason = u"every request was sent at the same moment: there is no sending phase"_s;
        return w;
    }

    // Time-weighted median of the in-flight count over [firstSend, lastSend].
    const QList<InFlightStep> steps = inFlightSteps(records, true);
    std::map<qint64, qint64> timeAtLevel;
    for (qsizetype i = 0; i < steps.size(); ++i) {
        const qint64 a = std::max(steps[i].tNs, firstSend);
        const qint64 b = std::min(i + 1 < steps.size() ? steps[i + 1].tNs : runEnd, lastSend);
        if (b > a)
            timeAtLevel[steps[i].inFlight] += b - a;
    }
    const qint64 total = lastSend - firstSend;
    qint64 acc = 0;
    for (const auto &[level, dt] : timeAtLevel) {
        acc += dt;
        if (2 * acc >= total) {
            w.steadyInFlight = level;
            break;
        }
    }
    w.reachedLevelNs = firstSend;
    for (const InFlightStep &s : steps) {
        if (s.inFlight >= w.steadyInFlight) {
            w.reachedLevelNs = s.tNs;
            break;
        }
    }
    if (w.firstCompletionNs > w.reachedLevelNs) {
        w.warmupEndNs = w.firstCompletionNs;
        w.warmupRule = u"first completion"_s;
    } else {
        w.warmupEndNs = w.reachedLevelNs;
        w.warmupRule = u"in flight first reached %1"_s.arg(w.steadyInFlight);
    }
    w.startNs = firstMeasured == kNone ? w.warmupEndNs : std::max(w.warmupEndNs, firstMeasured);
    w.endNs = lastSend;
    if (w.startNs >= w.endNs) {
        w.reason = u"the warm-up lasted until the last send: the run never reached a steady "
                   "state (%1 s of sending, warm-up %2 s)"_s
                       .arg(double(lastSend - firstSend) / 1e9, 0, 'f', 3)
                       .arg(double(w.warmupEndNs - firstSend) / 1e9, 0, 'f', 3);
        return w;
    }
    w.available = true; // contains() needs it
    for (const RequestRecord &r : records)
        if (!r.warmup && w.contains(r))
            ++w.requests;
    if (w.requests < options.minRequests) {
        w.available = false;
        w.reason = u"only %1 measured requests were sent in the steady window (at least %2 "
                   "needed)"_s.arg(w.requests)
                       .arg(options.minRequests);
    }
    return w;
}

QList<RequestRecord> recordsInWindow(const RecordSet &records, const SteadyStateWindow &window)
{
    QList<RequestRecord> out;
    for (const RequestRecord &r : records)
        if (window.contains(r))
            out.append(r);
    return out;
}

RunSummary summarizeSteadyState(const RecordSet &records, const SteadyStateWindow &window,
                                const SummaryOptions &options)
{
    if (!window.available)
        return summarize({}, options);
    // summarize(recordsInWindow(...)) without the copy: a million-request window would
    // duplicate ~370 MB of records only to read them once.
    SummaryBuilder builder(options);
    for (const RequestRecord &r : records)
        if (window.contains(r))
            builder.scan(r, r.chunkTimes.size());
    for (const RequestRecord &r : records)
        if (window.contains(r))
            builder.add(r);
    RunSummary s = builder.finish();
    const qint64 a = window.startNs, b = window.endNs;
    s.windowStartNs = a;
    s.windowEndNs = b;
    s.durationS = double(b - a) / 1e9;
    qint64 done = 0, outTokens = 0, inTokens = 0;
    for (const RequestRecord &r : records) {
        if ((r.warmup && !options.includeWarmup) || !r.ok())
            continue;
        const qint64 end = completionTimeNs(r);
        if (r.tSend > 0 && end >= a && end <= b) {
            ++done;
            inTokens += effectiveInputTokens(r);
        }
        for (qsizetype k = 0; k < r.chunkTimes.size(); ++k) {
            const qint64 t = r.chunkTimes.at(k);
            if (t >= a && t <= b)
                outTokens +=
                    k < r.chunkTokens.size() && r.chunkTokens.at(k) > 0 ? r.chunkTokens.at(k) : 1;
        }
    }
    s.requestThroughput = s.durationS > 0 ? double(done) / s.durationS : 0;
    s.outputThroughput = s.durationS > 0 ? double(outTokens) / s.durationS : 0;
    s.totalTokenThroughput =
        s.durationS > 0 ? s.outputThroughput + double(inTokens) / s.durationS : 0;
    s.requestGoodput = s.goodputSet && s.completed > 0
                           ? s.requestThroughput * double(s.goodRequests) / double(s.completed)
                           : 0;
    return s;
}

} // namespace sb
