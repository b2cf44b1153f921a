#include "resultjson.h"

#include "common/version.h"
#include "config/runplan.h"
#include "metrics/definitions.h"
#include "metrics/requestrecord.h"
#include "metrics/stats.h"
#include "metrics/summary.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <vector>

namespace sb {

using namespace Qt::StringLiterals;

ResultJsonOptions ResultJsonOptions::forProfile(const LoadProfile &profile)
{
    ResultJsonOptions o;
    o.requestRate =
        profile.unlimitedRate() ? std::numeric_limits<double>::infinity() : profile.requestRate;
    o.burstiness = profile.burstiness;
    o.maxConcurrency = profile.maxConcurrency;
    return o;
}

QJsonObject metricStatsJson(const MetricStats &st, const QString &unit)
{
    const QString sfx = u'_' + unit;
    QJsonObject o{{u"count"_s, st.count},         {u"mean"_s + sfx, st.mean},
                  {u"median"_s + sfx, st.median}, {u"std"_s + sfx, st.stddev},
                  {u"min"_s + sfx, st.min},       {u"max"_s + sfx, st.max}};
    for (const auto &pv : st.percentiles)
        o.insert(u'p' + percentileWord(pv.first) + sfx, pv.second);
    return o;
}

namespace {

double secondsBetween(qint64 from, qint64 to)
{
    return double(to - from) / 1e9;
}

// What the summary cannot tell is null, never 0, with the reason under "<key>_unavailable_reason".
bool markIfUnavailable(QJsonObject &o, const RunSummary &s, const QString &key)
{
    if (s.isAvailable(key))
        return false;
    o.insert(key + u"_unavailable_reason"_s, s.unavailableReason(key));
    return true;
}

// `key` both names the quantity in RunSummary::unavailable and is the JSON key.
void insertValue(QJsonObject &o, const RunSummary &s, const QString &key, const QJsonValue &v)
{
    o.insert(key, markIfUnavailable(o, s, key) ? QJsonValue() : v);
}

void insertVllmStats(QJsonObject &o, const RunSummary &s, const QString &metric,
                     const MetricStats &st)
{
    // vLLM: result[f"mean_{m}_ms"], median, std, and p{p_word}_{m}_ms per percentile.
    const bool na = markIfUnavailable(o, s, metric);
    const auto value = [na](double v) {
        return na ? QJsonValue() : QJsonValue(v);
    };
    o.insert(u"mean_"_s + metric + u"_ms"_s, value(st.mean));
    o.insert(u"median_"_s + metric + u"_ms"_s, value(st.median));
    o.insert(u"std_"_s + metric + u"_ms"_s, value(st.stddev));
    for (const auto &pv : st.percentiles)
        o.insert(u'p' + percentileWord(pv.first) + u'_' + metric + u"_ms"_s, value(pv.second));
}

// A ServeBench statistics object (metricStatsJson), or null when the summary cannot tell it.
void insertStats(QJsonObject &o, const RunSummary &s, const QString &key, const MetricStats &st)
{
    o.insert(key, markIfUnavailable(o, s, key) ? QJsonValue() : QJsonValue(metricStatsJson(st)));
}

QJsonObject failedByClassJson(const RunSummary &s)
{
    QJsonObject o;
    for (auto it = s.failedByClass.cbegin(); it != s.failedByClass.cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

} // namespace

QJsonObject vllmResultJson(const RunSummary &s, const RecordSet &recordSet,
                           const ResultJsonOptions &opts)
{
    QJsonObject o;
    const QDateTime date = opts.date.isValid() ? opts.date : QDateTime::currentDateTime();
    o.insert(u"date"_s, date.toString(u"yyyyMMdd-HHmmss"_s)); // vLLM: "%Y%m%d-%H%M%S"
    o.insert(u"backend"_s, opts.backend);
    o.insert(u"endpoint_type"_s, opts.backend); // vLLM keeps both for backward compatibility
    o.insert(u"label"_s, opts.label.isEmpty() ? QJsonValue() : QJsonValue(opts.label));
    o.insert(u"model_id"_s, opts.modelId);
    o.insert(u"tokenizer_id"_s, opts.tokenizerId.isEmpty() ? opts.modelId : opts.tokenizerId);
    o.insert(u"num_prompts"_s, opts.numPrompts >= 0 ? opts.numPrompts : s.measured);
    if (std::isinf(opts.requestRate) || !(opts.requestRate > 0))
        o.insert(u"request_rate"_s, u"inf"_s);
    else
        o.insert(u"request_rate"_s, opts.requestRate);
    o.insert(u"burstiness"_s, opts.burstiness);
    o.insert(u"max_concurrency"_s,
             opts.maxConcurrency > 0 ? QJsonValue(opts.maxConcurrency) : QJsonValue());

    insertValue(o, s, u"duration"_s, s.durationS);
    o.insert(u"completed"_s, s.completed);
    o.insert(u"failed"_s, s.failed);
    insertValue(o, s, u"total_input_tokens"_s, s.totalInputTokens);
    insertValue(o, s, u"total_output_tokens"_s, s.totalOutputTokens);
    insertValue(o, s, u"request_throughput"_s, s.requestThroughput);
    insertValue(o, s, u"request_goodput"_s, s.requestGoodput);
    insertValue(o, s, u"output_throughput"_s, s.outputThroughput);
    insertValue(o, s, u"total_token_throughput"_s, s.totalTokenThroughput);
    insertValue(o, s, u"max_output_tokens_per_s"_s, s.peakOutputTokensPerS);
    insertValue(o, s, u"max_concurrent_requests"_s, s.peakConcurrentRequests);
    insertVllmStats(o, s, u"ttft"_s, s.ttft);
    insertVllmStats(o, s, u"tpot"_s, s.tpot);
    insertVllmStats(o, s, u"itl"_s, s.itl);
    insertVllmStats(o, s, u"e2el"_s, s.e2el);

    // ServeBench additions.
    // Embeddings and rerank (docs/metrics.md, "Embeddings and rerank"): the streaming metrics
    // above are null with the reason; these are what such a run measures besides E2EL.
    o.insert(u"non_streamed"_s, s.nonStreamed);
    if (s.nonStreamed || s.totalItems > 0) {
        o.insert(u"total_items"_s, s.totalItems);
        // Unavailable for the duration's reason, written beside it.
        o.insert(u"item_throughput"_s, s.isAvailable(u"duration"_s) ? QJsonValue(s.itemThroughput)
                                                                     : QJsonValue());
        // Unavailable for the reasons of total_input_tokens or duration, written beside them.
        o.insert(u"input_throughput"_s,
                 s.isAvailable(u"total_input_tokens"_s) && s.isAvailable(u"duration"_s)
                     ? QJsonValue(s.inputThroughput)
                     : QJsonValue());
    }
    // Images in prompts (docs/datasets.md): the image files' bytes per request that carried any.
    o.insert(u"image_requests"_s, s.imageRequests);
    o.insert(u"image_bytes_per_request"_s,
             s.imageRequests > 0 ? QJsonValue(s.meanImageBytes()) : QJsonValue());
    o.insert(u"warmup_requests"_s, s.warmup);
    o.insert(u"warmup_included"_s, s.warmupIncluded);
    insertValue(o, s, u"achieved_request_rate"_s, s.achievedRequestRate);
    insertStats(o, s, u"schedule_lag"_s, s.scheduleLag);
    insertStats(o, s, u"client_queue_time"_s, s.clientQueueTime);
    insertStats(o, s, u"itl_per_token"_s, s.itlPerToken);
    insertStats(o, s, u"ttft_from_sched"_s, s.ttftFromSched);
    insertStats(o, s, u"e2el_from_sched"_s, s.e2elFromSched);
    o.insert(u"multi_token_chunks"_s, s.multiTokenChunks);
    o.insert(u"failed_by_class"_s, failedByClassJson(s));
    o.insert(u"token_count_source"_s, QJsonObject{{u"input"_s, s.inputSources.toJson()},
                                                  {u"output"_s, s.outputSources.toJson()},
                                                  {u"reasoning"_s, s.reasoningSources.toJson()}});
    // The client's count of the output beside the server's (docs/metrics.md, token counts).
    o.insert(
        u"output_token_mismatch"_s,
        markIfUnavailable(o, s, u"output_token_mismatch"_s)
            ? QJsonValue()
            : QJsonValue(QJsonObject{{u"compared_requests"_s, s.outputCountCompared},
                                     {u"mismatched_requests"_s, s.outputCountMismatched},
                                     {u"mismatch_rate"_s, s.outputCountMismatchRate()},
                                     {u"server_output_tokens"_s, s.comparedServerOutputTokens},
                                     {u"client_output_tokens"_s, s.comparedClientOutputTokens}}));
    // Reasoning-aware latency (docs/metrics.md, reasoning): time to first content token, the
    // reasoning phase and its tokens.
    insertStats(o, s, u"ttfct"_s, s.ttfct);
    insertStats(o, s, u"reasoning_time"_s, s.reasoningTime);
    o.insert(u"reasoning_requests"_s, s.reasoningRequests);
    insertValue(o, s, u"total_reasoning_tokens"_s, s.totalReasoningTokens);
    o.insert(u"reasoning_tokens"_s,
             markIfUnavailable(o, s, u"reasoning_tokens"_s)
                 ? QJsonValue()
                 : QJsonValue(metricStatsJson(s.reasoningTokens, u"tokens"_s)));
    insertValue(o, s, u"cached_tokens"_s, s.cachedTokens);
    o.insert(u"goodput_slo_ms"_s,
             s.goodputSet
                 ? QJsonValue(QJsonObject{
                       {u"ttft"_s, s.slo.ttftMs >= 0 ? QJsonValue(s.slo.ttftMs) : QJsonValue()},
                       {u"tpot"_s, s.slo.tpotMs >= 0 ? QJsonValue(s.slo.tpotMs) : QJsonValue()},
                       {u"e2el"_s, s.slo.e2elMs >= 0 ? QJsonValue(s.slo.e2elMs) : QJsonValue()}})
                 : QJsonValue());
    o.insert(u"percentile_method"_s, QString::fromLatin1(percentileMethodName(s.method)));
    o.insert(u"metric_definitions"_s, metricDefinitionsJson());
    o.insert(u"metric_definitions_version"_s, kMetricDefinitionsVersion);
    o.insert(u"config_snapshot"_s, opts.configSnapshot);
    o.insert(u"tool_version"_s,
             opts.toolVersion.isEmpty() ? QString::fromLatin1(toolVersion()) : opts.toolVersion);
    o.insert(u"dataset"_s, opts.dataset);

    if (!opts.detailed)
        return o;

    // Per-request arrays need the records by position (a list-backed set shares its list).
    const QList<RequestRecord> all = recordSet.list();
    const QList<RequestRecord> &records = all;
    // Measured records in schedule order; a stable sort keeps equal indexes in input order.
    std::vector<qsizetype> order;
    order.reserve(size_t(s.measured));
    for (qsizetype i = 0; i < records.size(); ++i)
        if (!records.at(i).warmup || s.warmupIncluded)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&records](qsizetype a, qsizetype b) {
        return records.at(a).index < records.at(b).index;
    });

    qint64 zero = opts.runStartNs;
    if (zero <= 0)
        zero = s.firstSchedNs > 0 ? s.firstSchedNs : s.windowStartNs;

    QJsonArray inputLens, outputLens, ttfts, itls, errors, e2els, starts, scheds;
    QJsonArray ttfcts, reasoningLens;   // ServeBench's
    QJsonArray batchItems, imageBytes;  // ServeBench's, only when a request had any
    QJsonArray sessionIds, turnIndices; // ServeBench's, only for a session workload
    const bool sessions = std::any_of(records.cbegin(), records.cend(),
                                      [](const RequestRecord &r) { return r.inSession(); });
    for (qsizetype i : order) {
        const RequestRecord &r = records.at(i);
        const bool ok = r.ok();
        inputLens.append(effectiveInputTokens(r));
        outputLens.append(ok ? effectiveOutputTokens(r) : 0); // vLLM: 0 for a failed request
        const qint64 first =
            r.tFirst > 0 ? r.tFirst : (r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constFirst());
        // A non-streamed answer ends with its body (docs/metrics.md, "Embeddings and rerank").
        const qint64 last = r.batchItems > 0 ? r.tEnd
                            : r.tLast > 0    ? r.tLast
                                             : (r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constLast());
        batchItems.append(r.batchItems);
        imageBytes.append(r.imageBytes);
        // vLLM keeps the ttft and gaps a failed request got before it failed; latency only on
        // success.
        ttfts.append(r.tSend > 0 && first > 0 ? secondsBetween(r.tSend, first) : 0.0);
        ttfcts.append(r.tSend > 0 && r.tFirstContent > 0
                          ? QJsonValue(secondsBetween(r.tSend, r.tFirstContent))
                          : QJsonValue());
        reasoningLens.append(r.reasoningTokens >= 0 ? QJsonValue(r.reasoningTokens) : QJsonValue());
        QJsonArray gaps;
        for (qsizetype k = 1; k < r.chunkTimes.size(); ++k)
            gaps.append(secondsBetween(r.chunkTimes.at(k - 1), r.chunkTimes.at(k)));
        itls.append(gaps);
        QString err;
        if (!ok)
            err = r.errorMessage.isEmpty() ? QString::fromLatin1(errorClassName(r.error))
                                           : r.errorMessage;
        errors.append(err);
        e2els.append(ok && r.tSend > 0 && last > 0 ? secondsBetween(r.tSend, last) : 0.0);
        starts.append(r.tSend > 0 ? QJsonValue(secondsBetween(zero, r.tSend)) : QJsonValue());
        scheds.append(r.tSched > 0 ? QJsonValue(secondsBetween(zero, r.tSched)) : QJsonValue());
        if (sessions) {
            sessionIds.append(r.inSession() ? QJsonValue(r.sessionId) : QJsonValue());
            turnIndices.append(r.inSession() ? QJsonValue(r.turnIndex) : QJsonValue());
        }
    }
    if (sessions) {
        o.insert(u"session_ids"_s, sessionIds);
        o.insert(u"turn_indices"_s, turnIndices);
    }
    o.insert(u"input_lens"_s, inputLens);
    o.insert(u"output_lens"_s, outputLens);
    o.insert(u"ttfts"_s, ttfts);
    o.insert(u"itls"_s, itls);
    // ServeBench keeps no generated text (token counts and timings only), and unknown is not
    // empty: vLLM's "generated_texts" is left out, with the reason, rather than filled with "".
    // Readers of vLLM's files already meet results without it (vLLM itself drops the per-request
    // arrays without --save-detailed); a "" would read as an empty answer.
    o.insert(u"generated_texts_unavailable_reason"_s,
             u"ServeBench does not keep the generated text, only its token counts and timings"_s);
    o.insert(u"errors"_s, errors);
    o.insert(u"e2els"_s, e2els);
    o.insert(u"start_times"_s, starts);
    o.insert(u"scheduled_times"_s, scheds);
    o.insert(u"ttfcts"_s, ttfcts);
    o.insert(u"reasoning_lens"_s, reasoningLens);
    if (s.totalItems > 0 || s.nonStreamed)
        o.insert(u"batch_items"_s, batchItems);
    if (s.imageRequests > 0)
        o.insert(u"image_bytes"_s, imageBytes);
    return o;
}

} // namespace sb
