#include "samples.h"

#include "summary.h"

#include <algorithm>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// The summary's readings of a record (summary.cpp): the first / last token from t_first /
// t_last, else from the chunk times.
qint64 firstToken(const RequestRecord &r)
{
    if (r.tFirst > 0)
        return r.tFirst;
    return r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constFirst();
}

qint64 lastToken(const RequestRecord &r)
{
    if (r.tLast > 0)
        return r.tLast;
    return r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constLast();
}

double ms(qint64 ns)
{
    return double(ns) / 1e6;
}

} // namespace

QList<double> requestSamples(const RecordSet &records, QStringView metric, bool includeWarmup)
{
    QList<double> out;
    enum Kind { Ttft, Tpot, E2el, TtftSched, E2elSched, Lag, Queue } kind;
    if (metric == u"ttft")
        kind = Ttft;
    else if (metric == u"tpot")
        kind = Tpot;
    else if (metric == u"e2el")
        kind = E2el;
    else if (metric == u"ttft_from_sched")
        kind = TtftSched;
    else if (metric == u"e2el_from_sched")
        kind = E2elSched;
    else if (metric == u"schedule_lag")
        kind = Lag;
    else if (metric == u"client_queue_time")
        kind = Queue;
    else
        return out;
    for (const RequestRecord &r : records) {
        if (r.warmup && !includeWarmup)
            continue;
        if (kind == Lag) {
            if (r.tSend > 0 && r.tSched > 0)
                out.append(ms(r.tSend - r.tSched));
            continue;
        }
        if (kind == Queue) {
            if (r.tSend > 0 && r.tQueued > 0 && r.tDispatch >= r.tQueued)
                out.append(ms(r.tDispatch - r.tQueued));
            continue;
        }
        if (!r.ok())
            continue;
        if (r.batchItems > 0) {
            // A non-streamed answer (docs/metrics.md, "Embeddings and rerank"): E2EL to the end
            // of its body; no first token, so no TTFT or TPOT sample.
            if (kind == E2el && r.tSend > 0 && r.tEnd > r.tSend)
                out.append(ms(r.tEnd - r.tSend));
            else if (kind == E2elSched && r.tSched > 0 && r.tEnd > 0)
                out.append(ms(r.tEnd - r.tSched));
            continue;
        }
        const qint64 first = firstToken(r);
        const qint64 last = lastToken(r);
        if (first <= 0)
            continue;
        switch (kind) {
        case Ttft:
            if (r.tSend > 0)
                out.append(ms(first - r.tSend));
            break;
        case E2el:
            if (r.tSend > 0)
                out.append(ms(last - r.tSend));
            break;
        case Tpot: {
            const qint32 nOut = effectiveOutputTokens(r);
            if (r.tSend > 0 && nOut > 1)
                out.append(double((last - r.tSend) - (first - r.tSend)) / double(nOut - 1) / 1e6);
            break;
        }
        case TtftSched:
            if (r.tSched > 0)
                out.append(ms(first - r.tSched));
            break;
        case E2elSched:
            if (r.tSched > 0)
                out.append(ms(last - r.tSched));
            break;
        case Lag:
        case Queue:
            break;
        }
    }
    return out;
}

QList<QList<double>> itlByRequest(const RecordSet &records, bool perToken, bool includeWarmup)
{
    QList<QList<double>> out;
    QList<double> gaps;
    for (const RequestRecord &r : records)
        if (itlOfRequest(r, &gaps, perToken, includeWarmup))
            out.append(std::exchange(gaps, {}));
    return out;
}

qint64 itlGapCount(const RequestRecord &r, qsizetype chunkCount, bool includeWarmup)
{
    if ((r.warmup && !includeWarmup) || !r.ok() || chunkCount < 2)
        return 0;
    return chunkCount - 1;
}

bool itlOfRequest(const RequestRecord &r, QList<double> *out, bool perToken, bool includeWarmup)
{
    if (itlGapCount(r, r.chunkTimes.size(), includeWarmup) == 0)
        return false;
    QList<double> gaps;
    gaps.reserve(r.chunkTimes.size() - 1);
    for (qsizetype k = 1; k < r.chunkTimes.size(); ++k) {
        // The summary pools gaps as float ms; the same rounding keeps percentiles equal.
        const double gap = ms(r.chunkTimes.at(k) - r.chunkTimes.at(k - 1));
        if (perToken) {
            const qint32 t =
                k < r.chunkTokens.size() && r.chunkTokens.at(k) > 0 ? r.chunkTokens.at(k) : 1;
            gaps.append(double(float(gap / t)));
        } else {
            gaps.append(double(float(gap)));
        }
    }
    *out = std::move(gaps);
    return true;
}

qint64 completionTimeNs(const RequestRecord &r)
{
    if (r.tEnd > 0)
        return r.tEnd;
    const qint64 last = lastToken(r);
    return last > 0 ? last : r.tSend;
}

QList<InFlightStep> inFlightSteps(const RecordSet &records, bool includeWarmup)
{
    // (time, +1 | -1); at equal times -1 sorts first.
    std::vector<std::pair<qint64, int>> events;
    events.reserve(size_t(records.size()) * 2);
    for (const RequestRecord &r : records) {
        if ((r.warmup && !includeWarmup) || r.tSend <= 0)
            continue;
        const qint64 end = std::max(completionTimeNs(r), r.tSend);
        if (end == r.tSend)
            continue; // never occupied a slot for any length of time
        events.emplace_back(r.tSend, +1);
        events.emplace_back(end, -1);
    }
    std::sort(events.begin(), events.end());
    QList<InFlightStep> steps;
    qint64 level = 0;
    for (size_t i = 0; i < events.size();) {
        const qint64 t = events[i].first;
        while (i < events.size() && events[i].first == t)
            level += events[i++].second;
        steps.append({t, level});
    }
    return steps;
}

qint64 inFlightAt(const QList<InFlightStep> &steps, qint64 tNs)
{
    const auto it = std::upper_bound(steps.cbegin(), steps.cend(), tNs,
                                     [](qint64 t, const InFlightStep &s) { return t < s.tNs; });
    return it == steps.cbegin() ? 0 : std::prev(it)->inFlight;
}

} // namespace sb
