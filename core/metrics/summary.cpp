#include "summary.h"

#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace sb {

using namespace Qt::StringLiterals;

SummaryOptions SummaryOptions::forProfile(const LoadProfile &profile)
{
    SummaryOptions o;
    for (double p : profile.metricPercentiles) {
        const bool known = std::any_of(o.percentiles.cbegin(), o.percentiles.cend(),
                                       [p](double q) { return std::abs(q - p) < 1e-9; });
        if (!known)
            o.percentiles.append(p);
    }
    std::sort(o.percentiles.begin(), o.percentiles.end());
    o.goodput = profile.goodput;
    return o;
}

void TokenSourceCounts::add(TokenSource s)
{
    switch (s) {
    case TokenSource::ServerUsage:
        ++serverUsage;
        break;
    case TokenSource::ChunkCount:
        ++chunkCount;
        break;
    case TokenSource::Dataset:
        ++dataset;
        break;
    case TokenSource::Unknown:
        ++unknown;
        break;
    }
}

QString TokenSourceCounts::name() const
{
    const qint64 t = total();
    if (t == 0)
        return u"none"_s;
    if (serverUsage == t)
        return u"server_usage"_s;
    if (chunkCount == t)
        return u"chunk_count"_s;
    if (dataset == t)
        return u"dataset"_s;
    if (unknown == t)
        return u"unknown"_s;
    return u"mixed"_s;
}

QString TokenSourceCounts::describe() const
{
    const QString n = name();
    if (n != "mixed"_L1)
        return n;
    QStringList parts;
    const auto part = [&parts](const char *label, qint64 count) {
        if (count > 0)
            parts.append(QString::fromLatin1(label) + u' ' + QString::number(count));
    };
    part("server_usage", serverUsage);
    part("chunk_count", chunkCount);
    part("dataset", dataset);
    part("unknown", unknown);
    return n + u" ("_s + parts.join(u", "_s) + u')';
}

QJsonObject TokenSourceCounts::toJson() const
{
    return QJsonObject{{u"source"_s, name()},
                       {u"server_usage"_s, serverUsage},
                       {u"chunk_count"_s, chunkCount},
                       {u"dataset"_s, dataset},
                       {u"unknown"_s, unknown}};
}

const MetricStats *RunSummary::stats(QStringView key) const
{
    if (key == u"ttft")
        return &ttft;
    if (key == u"tpot")
        return &tpot;
    if (key == u"itl")
        return &itl;
    if (key == u"e2el")
        return &e2el;
    if (key == u"itl_per_token")
        return &itlPerToken;
    if (key == u"schedule_lag")
        return &scheduleLag;
    if (key == u"client_queue_time")
        return &clientQueueTime;
    if (key == u"ttft_from_sched")
        return &ttftFromSched;
    if (key == u"e2el_from_sched")
        return &e2elFromSched;
    return nullptr;
}

namespace {

// Tokens in chunk k: the server's count when it gave one, else one.
inline qint32 chunkTokenCount(const RequestRecord &r, qsizetype k)
{
    if (k < r.chunkTokens.size()) {
        const qint32 t = r.chunkTokens.at(k);
        return t > 0 ? t : 1;
    }
    return 1;
}

inline double nsToMsD(qint64 ns)
{
    return double(ns) / 1e6;
}

inline qint64 firstTokenNs(const RequestRecord &r)
{
    if (r.tFirst > 0)
        return r.tFirst;
    return r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constFirst();
}

inline qint64 lastTokenNs(const RequestRecord &r)
{
    if (r.tLast > 0)
        return r.tLast;
    return r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constLast();
}

// "Completion" for the duration window: stream end, else the last token, else the send.
inline qint64 completionNs(const RequestRecord &r)
{
    if (r.tEnd > 0)
        return r.tEnd;
    const qint64 last = lastTokenNs(r);
    return last > 0 ? last : r.tSend;
}

inline bool withinSlo(double valueNs, double sloMs)
{
    // Inclusive, as vLLM's `slo >= value`. Compared in ns to avoid a ms rounding step.
    return sloMs < 0 || valueNs <= sloMs * 1e6;
}

} // namespace

qint32 effectiveOutputTokens(const RequestRecord &r, TokenSource *source)
{
    if (r.outputTokens >= 0) {
        if (source)
            *source = r.outputSource;
        return r.outputTokens;
    }
    const qsizetype chunks = std::max(r.chunkTimes.size(), r.chunkTokens.size());
    qint64 n = 0;
    for (qsizetype k = 0; k < chunks; ++k)
        n += chunkTokenCount(r, k);
    if (source)
        *source = TokenSource::ChunkCount;
    return qint32(std::min<qint64>(n, std::numeric_limits<qint32>::max()));
}

qint32 effectiveInputTokens(const RequestRecord &r, TokenSource *source)
{
    if (r.inputTokens >= 0) {
        if (source)
            *source = r.inputSource;
        return r.inputTokens;
    }
    if (r.expectedInputTokens >= 0) {
        if (source)
            *source = TokenSource::Dataset;
        return r.expectedInputTokens;
    }
    if (source)
        *source = TokenSource::Unknown;
    return 0;
}

RunSummary summarize(const QList<RequestRecord> &records, const SummaryOptions &opts)
{
    RunSummary s;
    s.totalRecords = records.size();
    s.percentiles = opts.percentiles;
    s.method = opts.method;
    s.slo = opts.goodput;
    s.goodputSet = opts.goodput.any();
    s.warmupIncluded = opts.includeWarmup;

    const auto isMeasured = [&opts](const RequestRecord &r) {
        return !r.warmup || opts.includeWarmup;
    };

    // Pass 1: sizes, so every sample buffer is allocated exactly once.
    qsizetype nOk = 0;
    qsizetype nMeasured = 0;
    qsizetype nGaps = 0;
    bool multi = false;
    qint64 okMinSend = std::numeric_limits<qint64>::max();
    qint64 okMaxLast = std::numeric_limits<qint64>::min();
    for (const RequestRecord &r : records) {
        if (r.warmup)
            ++s.warmup;
        if (!isMeasured(r))
            continue;
        ++nMeasured;
        if (!r.ok())
            continue;
        ++nOk;
        const qsizetype chunks = r.chunkTimes.size();
        if (chunks > 1)
            nGaps += chunks - 1;
        if (!multi) {
            const qsizetype nt = std::min(chunks, r.chunkTokens.size());
            const qint32 *tok = r.chunkTokens.constData();
            for (qsizetype k = 1; k < nt; ++k) {
                if (tok[k] > 1) {
                    multi = true;
                    break;
                }
            }
        }
        if (r.tSend > 0) {
            okMinSend = std::min(okMinSend, r.tSend);
            okMaxLast = std::max(okMaxLast, lastTokenNs(r));
        }
    }
    s.measured = nMeasured;
    s.multiTokenChunks = multi;

    std::vector<double> ttft, tpot, e2el, ttftSched, e2elSched, lag, queue;
    ttft.reserve(size_t(nOk));
    tpot.reserve(size_t(nOk));
    e2el.reserve(size_t(nOk));
    ttftSched.reserve(size_t(nOk));
    e2elSched.reserve(size_t(nOk));
    lag.reserve(size_t(nMeasured));
    queue.reserve(size_t(nMeasured));
    // float ms: a 1M-request run can pool 100M gaps; 24 mantissa bits keep a 50 ms gap within
    // ~4 ns, far below the client's own timing error, at half the memory of double.
    std::vector<float> itl;
    std::vector<float> itlTok;
    itl.reserve(size_t(nGaps));
    if (multi)
        itlTok.reserve(size_t(nGaps));
    std::vector<qint64> okStarts, okEnds;
    okStarts.reserve(size_t(nOk));
    okEnds.reserve(size_t(nOk));

    std::vector<double> buckets; // output tokens per 1-second bucket from okMinSend
    if (nOk > 0 && okMaxLast >= okMinSend)
        buckets.assign(size_t((okMaxLast - okMinSend) / 1000000000) + 1, 0.0);

    qint64 minSend = std::numeric_limits<qint64>::max();
    qint64 maxSend = std::numeric_limits<qint64>::min();
    qint64 maxDone = std::numeric_limits<qint64>::min();
    qint64 minSched = std::numeric_limits<qint64>::max();

    // Pass 2.
    for (const RequestRecord &r : records) {
        if (!isMeasured(r))
            continue;
        if (r.tSched > 0)
            minSched = std::min(minSched, r.tSched);
        if (r.tSend > 0) {
            ++s.sent;
            minSend = std::min(minSend, r.tSend);
            maxSend = std::max(maxSend, r.tSend);
            maxDone = std::max(maxDone, completionNs(r));
            if (r.tSched > 0)
                lag.push_back(nsToMsD(r.tSend - r.tSched));
            // The wait for a concurrency slot; the hop to the transport is schedule lag.
            if (r.tQueued > 0 && r.tDispatch >= r.tQueued)
                queue.push_back(nsToMsD(r.tDispatch - r.tQueued));
        }

        if (!r.ok()) {
            ++s.failed;
            ++s.failedByClass[QString::fromLatin1(errorClassName(r.error))];
            continue;
        }
        ++s.completed;

        TokenSource inSrc;
        TokenSource outSrc;
        const qint32 nIn = effectiveInputTokens(r, &inSrc);
        const qint32 nOut = effectiveOutputTokens(r, &outSrc);
        s.inputSources.add(inSrc);
        s.outputSources.add(outSrc);
        s.totalInputTokens += nIn;
        s.totalOutputTokens += nOut;
        if (r.cachedTokens >= 0) {
            s.cachedTokens += r.cachedTokens;
            ++s.cachedTokensReported;
        }

        const qint64 first = firstTokenNs(r);
        const qint64 last = lastTokenNs(r);
        bool good = s.goodputSet;
        if (r.tSend > 0 && first > 0) {
            const qint64 ttftNs = first - r.tSend;
            const qint64 e2elNs = last - r.tSend;
            ttft.push_back(nsToMsD(ttftNs));
            e2el.push_back(nsToMsD(e2elNs));
            double tpotNs = 0; // vLLM: n_out <= 1 counts as TPOT 0 for goodput
            if (nOut > 1) {
                tpotNs = double(e2elNs - ttftNs) / double(nOut - 1);
                tpot.push_back(tpotNs / 1e6);
            }
            good = good && withinSlo(double(ttftNs), s.slo.ttftMs) &&
                   withinSlo(tpotNs, s.slo.tpotMs) && withinSlo(double(e2elNs), s.slo.e2elMs);
            okStarts.push_back(r.tSend);
            okEnds.push_back(last);
        } else {
            good = false; // no first token or no send time: cannot show it met the SLOs
        }
        if (r.tSched > 0 && first > 0) {
            ttftSched.push_back(nsToMsD(first - r.tSched));
            e2elSched.push_back(nsToMsD(last - r.tSched));
        }
        if (good)
            ++s.goodRequests;

        // The hot loop of a 100M-chunk run: one pass per request over its chunk times feeds the
        // ITL pools and the peak-throughput buckets.
        const qsizetype chunks = r.chunkTimes.size();
        const qint64 *ct = r.chunkTimes.constData();
        const bool bucketed = !buckets.empty();
        for (qsizetype k = 0; k < chunks; ++k) {
            const qint32 tokens = chunkTokenCount(r, k);
            if (k > 0) {
                const double gapMs = nsToMsD(ct[k] - ct[k - 1]);
                itl.push_back(float(gapMs));
                if (multi)
                    itlTok.push_back(float(gapMs / tokens));
            }
            if (bucketed) {
                const qint64 off = ct[k] - okMinSend;
                const size_t b = off < 0 ? buckets.size() : size_t(off / 1000000000);
                if (b < buckets.size())
                    buckets[b] += tokens;
            }
        }
    }

    if (s.sent > 0) {
        s.windowStartNs = minSend;
        s.windowEndNs = std::max(maxDone, minSend);
        s.durationS = double(s.windowEndNs - s.windowStartNs) / 1e9;
        if (s.sent > 1 && maxSend > minSend)
            s.achievedRequestRate = double(s.sent - 1) / (double(maxSend - minSend) / 1e9);
    }
    if (minSched != std::numeric_limits<qint64>::max())
        s.firstSchedNs = minSched;
    if (s.durationS > 0) {
        s.requestThroughput = double(s.completed) / s.durationS;
        s.outputThroughput = double(s.totalOutputTokens) / s.durationS;
        s.totalTokenThroughput = double(s.totalInputTokens + s.totalOutputTokens) / s.durationS;
        s.requestGoodput = double(s.goodRequests) / s.durationS;
    }
    if (!s.goodputSet)
        s.goodRequests = 0;

    if (!buckets.empty())
        s.peakOutputTokensPerS = *std::max_element(buckets.cbegin(), buckets.cend());
    // Sweep over half-open [send, last): an end at t frees its slot before a start at t.
    std::sort(okStarts.begin(), okStarts.end());
    std::sort(okEnds.begin(), okEnds.end());
    qint64 inFlight = 0;
    size_t j = 0;
    for (qint64 start : okStarts) {
        while (j < okEnds.size() && okEnds[j] <= start) {
            --inFlight;
            ++j;
        }
        ++inFlight;
        s.peakConcurrentRequests = std::max(s.peakConcurrentRequests, inFlight);
    }

    const QList<double> &ps = opts.percentiles;
    const PercentileMethod m = opts.method;
    s.ttft = computeStats(std::span<double>(ttft), ps, m);
    s.tpot = computeStats(std::span<double>(tpot), ps, m);
    s.e2el = computeStats(std::span<double>(e2el), ps, m);
    s.ttftFromSched = computeStats(std::span<double>(ttftSched), ps, m);
    s.e2elFromSched = computeStats(std::span<double>(e2elSched), ps, m);
    s.scheduleLag = computeStats(std::span<double>(lag), ps, m);
    s.clientQueueTime = computeStats(std::span<double>(queue), ps, m);
    s.itl = computeStats(std::span<float>(itl), ps, m);
    // Without multi-token chunks every gap divides by one: ITL per token is ITL, so skip the
    // second 100M-sample buffer.
    s.itlPerToken = multi ? computeStats(std::span<float>(itlTok), ps, m) : s.itl;
    return s;
}

} // namespace sb
