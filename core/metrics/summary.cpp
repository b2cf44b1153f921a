#include "summary.h"
#include "streamedstats.h"

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
    case TokenSource::Tokenizer:
        ++tokenizer;
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
    if (tokenizer == t)
        return u"tokenizer"_s;
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
    part("tokenizer", tokenizer);
    part("unknown", unknown);
    return n + u" ("_s + parts.join(u", "_s) + u')';
}

Message TokenSourceCounts::describeMessage() const
{
    const QString n = name();
    if (n != "mixed"_L1)
        return Message((QByteArray("token_source.") + n.toLatin1()).constData());
    QList<Message> parts;
    const auto part = [&parts](TokenSource s, qint64 count) {
        if (count > 0)
            parts.append(Message("token_source.part",
                                 {tokenSourceLabel(s), Message::literal(QString::number(count))}));
    };
    part(TokenSource::ServerUsage, serverUsage);
    part(TokenSource::ChunkCount, chunkCount);
    part(TokenSource::Dataset, dataset);
    part(TokenSource::Tokenizer, tokenizer);
    part(TokenSource::Unknown, unknown);
    return Message("token_source.mixed", {Message::join(parts, u", "_s)});
}

QJsonObject TokenSourceCounts::toJson() const
{
    return QJsonObject{{u"source"_s, name()},          {u"server_usage"_s, serverUsage},
                       {u"chunk_count"_s, chunkCount}, {u"dataset"_s, dataset},
                       {u"tokenizer"_s, tokenizer},    {u"unknown"_s, unknown}};
}

void RunSummary::markUnavailable(const QString &key, const QString &reason)
{
    if (!unavailable.contains(key))
        unavailable.insert(key, reason);
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
    if (key == u"ttfct")
        return &ttfct;
    if (key == u"reasoning_time")
        return &reasoningTime;
    if (key == u"reasoning_tokens")
        return &reasoningTokens;
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

// The ITL sample of gap k (k >= 1) between chunk k-1 and chunk k, and of that gap per token.
// One definition for the pooled and the streamed passes, which must agree to the bit.
inline double gapMs(const qint64 *chunkTimes, qsizetype k)
{
    return nsToMsD(chunkTimes[k] - chunkTimes[k - 1]);
}
inline float itlSample(double gapMs)
{
    return float(gapMs);
}
inline float itlPerTokenSample(double gapMs, qint32 tokens)
{
    return float(gapMs / tokens);
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

QString nonStreamedReason()
{
    return u"non-streamed endpoint: no tokens are generated"_s;
}

qint32 effectiveOutputTokens(const RequestRecord &r, TokenSource *source)
{
    if (r.outputTokens >= 0) {
        if (source)
            *source = r.outputSource;
        return r.outputTokens;
    }
    if (r.clientOutputTokens >= 0) {
        if (source)
            *source = TokenSource::Tokenizer;
        return r.clientOutputTokens;
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

struct SummaryBuilder::State
{
    SummaryOptions opts;
    RunSummary s;

    // Pass 1.
    qsizetype nOk = 0;
    qsizetype nMeasured = 0;
    qsizetype nPooled = 0; // measured requests to a non-streamed endpoint (batchItems > 0)
    qsizetype nGaps = 0;
    qint64 okMinSend = std::numeric_limits<qint64>::max();

    // Pass 2.
    bool adding = false;
    bool multi = false;
    std::vector<double> ttft, tpot, e2el, ttftSched, e2elSched, lag, queue;
    std::vector<double> ttfct, reasoningTime, reasoningTokens;
    // float ms: a 1M-request run can pool 100M gaps; 24 mantissa bits keep a 50 ms gap within
    // ~4 ns, far below the client's own timing error, at half the memory of double.
    std::vector<float> itl;
    std::vector<float> itlTok; // filled from the first multi-token chunk on (see add())
    // streamGaps(): the same samples streamed instead; the per-token one gets every gap (a
    // one-token gap divides by one, the same float as its ITL sample) and counts only if multi.
    std::unique_ptr<StreamedStats<float>> itlStream, itlTokStream;
    std::vector<qint64> okStarts, okEnds;
    std::vector<double> buckets; // output tokens per 1-second bucket from okMinSend
    qint64 minSend = std::numeric_limits<qint64>::max();
    qint64 maxSend = std::numeric_limits<qint64>::min();
    qint64 maxDone = std::numeric_limits<qint64>::min();
    qint64 minSched = std::numeric_limits<qint64>::max();

    bool isMeasured(const RequestRecord &r) const { return !r.warmup || opts.includeWarmup; }

    void beginPass2()
    {
        adding = true;
        ttft.reserve(size_t(nOk));
        tpot.reserve(size_t(nOk));
        e2el.reserve(size_t(nOk));
        ttftSched.reserve(size_t(nOk));
        e2elSched.reserve(size_t(nOk));
        ttfct.reserve(size_t(nOk));
        lag.reserve(size_t(nMeasured));
        queue.reserve(size_t(nMeasured));
        if (!itlStream)
            itl.reserve(size_t(nGaps));
        okStarts.reserve(size_t(nOk));
        okEnds.reserve(size_t(nOk));
    }
};

SummaryBuilder::SummaryBuilder(const SummaryOptions &opts) : d(std::make_unique<State>())
{
    d->opts = opts;
    RunSummary &s = d->s;
    s.percentiles = opts.percentiles;
    s.method = opts.method;
    s.slo = opts.goodput;
    s.goodputSet = opts.goodput.any();
    s.warmupIncluded = opts.includeWarmup;
}

SummaryBuilder::~SummaryBuilder() = default;

void SummaryBuilder::scan(const RequestRecord &r, qint64 chunkCount)
{
    Q_ASSERT(!d->adding);
    RunSummary &s = d->s;
    ++s.totalRecords;
    if (r.warmup)
        ++s.warmup;
    if (!d->isMeasured(r))
        return;
    ++d->nMeasured;
    if (r.batchItems > 0)
        ++d->nPooled;
    if (!r.ok())
        return;
    ++d->nOk;
    if (chunkCount > 1)
        d->nGaps += chunkCount - 1;
    if (r.tSend > 0)
        d->okMinSend = std::min(d->okMinSend, r.tSend);
}

qint64 SummaryBuilder::gapCount() const
{
    return d->nGaps;
}

void SummaryBuilder::streamGaps()
{
    Q_ASSERT(!d->adding);
    const QList<double> &ps = d->opts.percentiles;
    d->itlStream = std::make_unique<StreamedStats<float>>(ps, d->opts.method);
    d->itlTokStream = std::make_unique<StreamedStats<float>>(ps, d->opts.method);
}

void SummaryBuilder::add(const RequestRecord &r)
{
    if (!d->adding)
        d->beginPass2();
    State &st = *d;
    RunSummary &s = st.s;
    if (!st.isMeasured(r))
        return;
    if (r.tSched > 0)
        st.minSched = std::min(st.minSched, r.tSched);
    if (r.tSend > 0) {
        ++s.sent;
        st.minSend = std::min(st.minSend, r.tSend);
        st.maxSend = std::max(st.maxSend, r.tSend);
        st.maxDone = std::max(st.maxDone, completionNs(r));
        if (r.tSched > 0)
            st.lag.push_back(nsToMsD(r.tSend - r.tSched));
        // The wait for a concurrency slot; the hop to the transport is schedule lag.
        if (r.tQueued > 0 && r.tDispatch >= r.tQueued)
            st.queue.push_back(nsToMsD(r.tDispatch - r.tQueued));
        if (r.imageBytes > 0) {
            ++s.imageRequests;
            s.totalImageBytes += r.imageBytes;
        }
    }

    if (r.cancelledByLoad()) {
        // Its own class (docs/metrics.md, "Cancelled by the load"): counted, its send and end
        // inside the window, nothing else.
        ++s.cancelledByLoad;
        if (firstTokenNs(r) > 0)
            ++s.cancelledWithFirstToken;
        s.cancelledChunks += r.chunkTimes.size();
        return;
    }
    if (!r.ok()) {
        ++s.failed;
        ++s.failedByClass[QString::fromLatin1(errorClassName(r.error))];
        return;
    }
    ++s.completed;

    TokenSource inSrc;
    TokenSource outSrc;
    const qint32 nIn = effectiveInputTokens(r, &inSrc);
    const qint32 nOut = effectiveOutputTokens(r, &outSrc);
    if (r.inputTokens < 0 && r.expectedInputTokens < 0)
        ++s.inputTokensMissing;
    s.inputSources.add(inSrc);
    s.outputSources.add(outSrc);
    s.totalInputTokens += nIn;
    s.totalOutputTokens += nOut;
    if (r.cachedTokens >= 0) {
        s.cachedTokens += r.cachedTokens;
        ++s.cachedTokensReported;
    }
    if (outSrc == TokenSource::ServerUsage && r.clientOutputTokens >= 0) {
        ++s.outputCountCompared;
        if (r.clientOutputTokens != nOut)
            ++s.outputCountMismatched;
        s.comparedServerOutputTokens += nOut;
        s.comparedClientOutputTokens += r.clientOutputTokens;
    }
    // A request reasoned when it streamed reasoning or the server counted reasoning tokens (a
    // server may send reasoning_tokens 0 for every answer of a model that does not reason).
    if (r.tFirstReasoning > 0 || r.reasoningTokens > 0) {
        ++s.reasoningRequests;
        s.reasoningSources.add(r.reasoningSource);
        if (r.reasoningTokens >= 0) {
            s.totalReasoningTokens += r.reasoningTokens;
            st.reasoningTokens.push_back(double(r.reasoningTokens));
        }
    }
    if (r.tSend > 0 && r.tFirstContent > 0)
        st.ttfct.push_back(nsToMsD(r.tFirstContent - r.tSend));
    if (r.tFirstReasoning > 0 && r.tFirstContent >= r.tFirstReasoning)
        st.reasoningTime.push_back(nsToMsD(r.tFirstContent - r.tFirstReasoning));

    if (r.batchItems > 0) {
        // A non-streamed answer (docs/metrics.md, "Embeddings and rerank"): no first token, no
        // chunks; its latency is send to the end of the body, and only E2EL can meet an SLO.
        s.totalItems += r.batchItems;
        if (r.tSend > 0 && r.tEnd > r.tSend) {
            st.e2el.push_back(nsToMsD(r.tEnd - r.tSend));
            st.okStarts.push_back(r.tSend);
            st.okEnds.push_back(r.tEnd);
            if (r.tSched > 0)
                st.e2elSched.push_back(nsToMsD(r.tEnd - r.tSched));
            if (s.goodputSet && withinSlo(double(r.tEnd - r.tSend), s.slo.e2elMs))
                ++s.goodRequests;
        }
        return;
    }

    const qint64 first = firstTokenNs(r);
    const qint64 last = lastTokenNs(r);
    bool good = s.goodputSet;
    if (r.tSend > 0 && first > 0) {
        const qint64 ttftNs = first - r.tSend;
        const qint64 e2elNs = last - r.tSend;
        st.ttft.push_back(nsToMsD(ttftNs));
        st.e2el.push_back(nsToMsD(e2elNs));
        double tpotNs = 0; // vLLM: n_out <= 1 counts as TPOT 0 for goodput
        if (nOut > 1) {
            tpotNs = double(e2elNs - ttftNs) / double(nOut - 1);
            st.tpot.push_back(tpotNs / 1e6);
        }
        good = good && withinSlo(double(ttftNs), s.slo.ttftMs) && withinSlo(tpotNs, s.slo.tpotMs) &&
               withinSlo(double(e2elNs), s.slo.e2elMs);
        st.okStarts.push_back(r.tSend);
        st.okEnds.push_back(last);
    } else {
        good = false; // no first token or no send time: cannot show it met the SLOs
    }
    if (r.tSched > 0 && first > 0) {
        st.ttftSched.push_back(nsToMsD(first - r.tSched));
        st.e2elSched.push_back(nsToMsD(last - r.tSched));
    }
    if (good)
        ++s.goodRequests;

    // The first chunk after the first that carries > 1 token makes ITL per token differ from
    // ITL. Every gap pooled before it was over one-token chunks, so ITL per token equals ITL
    // there: the per-token pool starts as a copy (one pass, no look-ahead needed).
    const qsizetype chunks = r.chunkTimes.size();
    if (!st.multi) {
        const bool pooled = !st.itlStream;
        const qsizetype nt = std::min(chunks, r.chunkTokens.size());
        const qint32 *tok = r.chunkTokens.constData();
        for (qsizetype k = 1; k < nt; ++k) {
            if (tok[k] > 1) {
                st.multi = true;
                if (pooled) {
                    st.itlTok.reserve(st.itl.capacity());
                    st.itlTok.assign(st.itl.cbegin(), st.itl.cend());
                }
                break;
            }
        }
    }

    // The hot loop of a 100M-chunk run: one pass per request over its chunk times feeds the
    // ITL pools and the peak-throughput buckets.
    const qint64 *ct = r.chunkTimes.constData();
    const bool bucketed = st.okMinSend != std::numeric_limits<qint64>::max();
    for (qsizetype k = 0; k < chunks; ++k) {
        const qint32 tokens = chunkTokenCount(r, k);
        if (k > 0) {
            const double gap = gapMs(ct, k);
            if (st.itlStream) {
                st.itlStream->add(itlSample(gap));
                st.itlTokStream->add(itlPerTokenSample(gap, tokens));
            } else {
                st.itl.push_back(itlSample(gap));
                if (st.multi)
                    st.itlTok.push_back(itlPerTokenSample(gap, tokens));
            }
        }
        if (bucketed) {
            // Buckets grow with the data: a bucket exists once a chunk falls in it.
            const qint64 off = ct[k] - st.okMinSend;
            if (off < 0)
                continue;
            const size_t b = size_t(off / 1000000000);
            if (b >= st.buckets.size())
                st.buckets.resize(b + 1, 0.0);
            st.buckets[b] += tokens;
        }
    }
}

bool SummaryBuilder::needsGapPass() const
{
    return d->itlStream && d->itlStream->needsSecondPass();
}

void SummaryBuilder::addGaps(const RequestRecord &r)
{
    State &st = *d;
    // The records add() took gaps of, and the same samples in the same order.
    if (!needsGapPass() || !st.isMeasured(r) || !r.ok())
        return;
    const qint64 *ct = r.chunkTimes.constData();
    for (qsizetype k = 1; k < r.chunkTimes.size(); ++k) {
        const double gap = gapMs(ct, k);
        st.itlStream->addAgain(itlSample(gap));
        if (st.multi)
            st.itlTokStream->addAgain(itlPerTokenSample(gap, chunkTokenCount(r, k)));
    }
}

RunSummary SummaryBuilder::finish()
{
    if (!d->adding)
        d->beginPass2();
    State &st = *d;
    RunSummary s = std::move(st.s);
    s.measured = st.nMeasured;
    s.nonStreamed = st.nPooled > 0 && st.nPooled == st.nMeasured;
    s.multiTokenChunks = st.multi;
    if (s.sent > 0) {
        s.windowStartNs = st.minSend;
        s.windowEndNs = std::max(st.maxDone, st.minSend);
        s.durationS = double(s.windowEndNs - s.windowStartNs) / 1e9;
        if (s.sent > 1 && st.maxSend > st.minSend)
            s.achievedRequestRate = double(s.sent - 1) / (double(st.maxSend - st.minSend) / 1e9);
    }
    if (st.minSched != std::numeric_limits<qint64>::max())
        s.firstSchedNs = st.minSched;
    if (s.durationS > 0) {
        s.requestThroughput = double(s.completed) / s.durationS;
        s.outputThroughput = double(s.totalOutputTokens) / s.durationS;
        s.totalTokenThroughput = double(s.totalInputTokens + s.totalOutputTokens) / s.durationS;
        s.requestGoodput = double(s.goodRequests) / s.durationS;
        s.itemThroughput = double(s.totalItems) / s.durationS;
        s.inputThroughput = double(s.totalInputTokens) / s.durationS;
    }
    if (!s.goodputSet)
        s.goodRequests = 0;

    if (!st.buckets.empty())
        s.peakOutputTokensPerS = *std::max_element(st.buckets.cbegin(), st.buckets.cend());
    // Sweep over half-open [send, last): an end at t frees its slot before a start at t.
    std::sort(st.okStarts.begin(), st.okStarts.end());
    std::sort(st.okEnds.begin(), st.okEnds.end());
    qint64 inFlight = 0;
    size_t j = 0;
    for (qint64 start : st.okStarts) {
        while (j < st.okEnds.size() && st.okEnds[j] <= start) {
            --inFlight;
            ++j;
        }
        ++inFlight;
        s.peakConcurrentRequests = std::max(s.peakConcurrentRequests, inFlight);
    }

    const QList<double> &ps = st.opts.percentiles;
    const PercentileMethod m = st.opts.method;
    s.ttft = computeStats(std::span<double>(st.ttft), ps, m);
    s.tpot = computeStats(std::span<double>(st.tpot), ps, m);
    s.e2el = computeStats(std::span<double>(st.e2el), ps, m);
    s.ttftFromSched = computeStats(std::span<double>(st.ttftSched), ps, m);
    s.e2elFromSched = computeStats(std::span<double>(st.e2elSched), ps, m);
    s.ttfct = computeStats(std::span<double>(st.ttfct), ps, m);
    s.reasoningTime = computeStats(std::span<double>(st.reasoningTime), ps, m);
    s.reasoningTokens = computeStats(std::span<double>(st.reasoningTokens), ps, m);
    s.scheduleLag = computeStats(std::span<double>(st.lag), ps, m);
    s.clientQueueTime = computeStats(std::span<double>(st.queue), ps, m);
    // Without multi-token chunks every gap divides by one: ITL per token is ITL, so skip the
    // second 100M-sample buffer.
    if (st.itlStream) {
        s.itl = st.itlStream->finish();
        s.itlPerToken = st.multi ? st.itlTokStream->finish() : s.itl;
    } else {
        s.itl = computeStats(std::span<float>(st.itl), ps, m);
        s.itlPerToken = st.multi ? computeStats(std::span<float>(st.itlTok), ps, m) : s.itl;
    }
    markUnavailableQuantities(&s, st.maxSend == st.minSend);
    return s;
}

void markUnavailableQuantities(RunSummary *summary, bool sendsAtOneInstant)
{
    RunSummary &s = *summary;
    const QString noRecords = u"the run has no request records"_s;
    const QString noneSent = s.measured == 0 ? noRecords : u"no request was sent"_s;
    if (s.sent == 0) {
        for (const char *k : {"duration", "request_throughput", "output_throughput",
                              "total_token_throughput", "request_goodput"})
            s.markUnavailable(QString::fromLatin1(k), noneSent);
    }
    if (!s.goodputSet)
        s.markUnavailable(u"request_goodput"_s, u"no goodput SLO was given (--goodput)"_s);

    // Sends that all share one instant are not send times: an importer that had none put every
    // request at the same point (a real client never sends two requests in the same
    // nanosecond). Rates and peaks over that time base would be invented.
    const QString oneInstant = u"every request has the same send time: the records carry no real "
                               "send times"_s;
    if (s.sent < 2)
        s.markUnavailable(u"achieved_request_rate"_s,
                          s.sent == 0 ? noneSent : u"fewer than two requests were sent"_s);
    else if (sendsAtOneInstant)
        s.markUnavailable(u"achieved_request_rate"_s, oneInstant);
    if (s.sent >= 2 && sendsAtOneInstant) {
        s.markUnavailable(u"max_output_tokens_per_s"_s, oneInstant);
        s.markUnavailable(u"max_concurrent_requests"_s, oneInstant);
    }

    if (s.nonStreamed) {
        // Embeddings and rerank generate no tokens (docs/metrics.md, "Embeddings and rerank"):
        // what only a stream of tokens can tell is not zero but unavailable, with this reason.
        const QString why = nonStreamedReason();
        for (const char *k :
             {"ttft", "tpot", "itl", "itl_per_token", "ttft_from_sched", "ttfct", "reasoning_time",
              "reasoning_tokens", "total_reasoning_tokens", "output_throughput",
              "max_output_tokens_per_s", "total_output_tokens", "output_token_mismatch"})
            s.markUnavailable(QString::fromLatin1(k), why);
    }

    const QString noSuccess = s.measured == 0 ? noRecords : u"no request succeeded"_s;
    const auto latency = [&](const char *key, const MetricStats &st, const QString &why) {
        if (st.isEmpty())
            s.markUnavailable(QString::fromLatin1(key), s.completed == 0 ? noSuccess : why);
    };
    latency("ttft", s.ttft, u"no successful request has both a send time and a first token"_s);
    latency("e2el", s.e2el,
            s.nonStreamed ? u"no successful request has both a send time and an end"_s
                          : u"no successful request has both a send time and a first token"_s);
    latency("tpot", s.tpot, u"no successful request produced more than one output token"_s);
    latency("itl", s.itl, u"no successful request streamed more than one chunk"_s);
    latency("itl_per_token", s.itlPerToken,
            u"no successful request streamed more than one chunk"_s);
    latency("ttft_from_sched", s.ttftFromSched,
            u"no successful request has a scheduled time (t_sched)"_s);
    latency("e2el_from_sched", s.e2elFromSched,
            u"no successful request has a scheduled time (t_sched)"_s);
    if (s.scheduleLag.isEmpty())
        s.markUnavailable(u"schedule_lag"_s,
                          s.sent == 0 ? noneSent : u"no request has a scheduled time (t_sched)"_s);
    if (s.clientQueueTime.isEmpty())
        s.markUnavailable(u"client_queue_time"_s,
                          s.sent == 0 ? noneSent
                                      : u"no request recorded when it was queued (t_queued)"_s);

    if (s.inputTokensMissing > 0) {
        const QString why = u"%1 of %2 successful requests have no input token count (no usage "
                            "from the server, no dataset length)"_s.arg(s.inputTokensMissing)
                                .arg(s.completed);
        s.markUnavailable(u"total_input_tokens"_s, why);
        s.markUnavailable(u"total_token_throughput"_s, why);
    }
    // Records without any first-content time but with first tokens were written before the
    // client told content from reasoning (or imported from a tool that does not): say so.
    latency("ttfct", s.ttfct,
            !s.ttft.isEmpty() && s.reasoningRequests == 0
                ? u"the records do not tell content from reasoning tokens (recorded without "
                  "first-content times)"_s
                : u"no successful request has both a send time and a content token"_s);
    latency("reasoning_time", s.reasoningTime,
            u"no successful request streamed both reasoning and content"_s);
    latency("reasoning_tokens", s.reasoningTokens,
            u"no successful request streamed reasoning or reported reasoning tokens"_s);
    if (!s.isAvailable(u"reasoning_tokens"_s))
        s.markUnavailable(u"total_reasoning_tokens"_s, s.unavailableReason(u"reasoning_tokens"_s));
    if (s.outputCountCompared == 0)
        s.markUnavailable(u"output_token_mismatch"_s,
                          s.completed == 0
                              ? noSuccess
                              : u"no successful request has both the server's output count "
                                "(usage) and the tokenizer's (--tokenizer)"_s);
    if (s.cachedTokensReported == 0)
        s.markUnavailable(u"cached_tokens"_s,
                          s.completed == 0 ? noSuccess
                                           : u"the server reported no cached prompt tokens (usage."
                                             "prompt_tokens_details.cached_tokens)"_s);
}

RunSummary summarize(const RecordSet &records, const SummaryOptions &opts)
{
    SummaryBuilder b(opts);
    for (const RequestRecord &r : records)
        b.scan(r, r.chunkTimes.size());
    for (const RequestRecord &r : records)
        b.add(r);
    return b.finish();
}

} // namespace sb
