#include "definitions.h"

namespace sb {

using namespace Qt::StringLiterals;

const QList<MetricDefinition> &metricDefinitions()
{
    // The `definition` strings are docs/metrics.md, character for character (U+2212 minus, U+03A3
    // sigma, U+2264); edit them only together with kMetricDefinitionsVersion.
    static const QList<MetricDefinition> defs = {
        {u"ttft"_s, u"TTFT"_s, u"ms"_s, u"t_first − t_send"_s,
         u"Time to first token; successful measured requests only."_s},
        {u"e2el"_s, u"E2EL"_s, u"ms"_s,
         u"t_last − t_send (the usage chunk and [DONE] do not count)"_s,
         u"End-to-end latency; successful measured requests only. An embeddings or rerank answer "
         "is not streamed: its E2EL is t_end − t_send, to the end of its body."_s},
        {u"tpot"_s, u"TPOT"_s, u"ms"_s,
         u"(E2EL − TTFT) / (n_out − 1), only for n_out > 1; excludes the first token"_s,
         u"Time per output token; n_out is the request's output token count (server usage when "
         "reported, else one token per token chunk). Successful requests with n_out <= 1 have no "
         "TPOT sample; for goodput their TPOT counts as 0, as in vLLM."_s},
        {u"itl"_s, u"ITL"_s, u"ms"_s,
         u"every gap t_k − t_{k−1} between consecutive token chunks, pooled over requests (per "
         "chunk)"_s,
         u"Inter-token latency; pooled over successful measured requests."_s},
        {u"itl_per_token"_s, u"ITL per token"_s, u"ms"_s,
         u"each gap divided by the tokens in the later chunk; equals ITL without multi-token "
         "chunks; differs under speculative decoding — show both, never mix them"_s,
         u"Pooled over successful measured requests; a chunk without a token count counts as "
         "one token."_s},
        {u"schedule_lag"_s, u"Schedule lag"_s, u"ms"_s,
         u"t_send − t_sched; the client's own lateness. Large lag means the client, not the SUT, "
         "limited the run, and the run must say so"_s,
         u"Over every measured request that was sent (successful or failed): lateness is a "
         "property of the client, not of the response."_s},
        {u"client_queue_time"_s, u"Client queue time"_s, u"ms"_s,
         u"time a request waited for a concurrency slot"_s,
         u"t_dispatch − t_queued (slot granted minus due), over every measured request that was "
         "sent and has t_queued; the hop from dispatcher to transport counts as schedule lag."_s},
        {u"ttfct"_s, u"TTFCT"_s, u"ms"_s, u"t_first_content − t_send"_s,
         u"Time to first content token: the first chunk of the answer (delta.content, or the "
         "text of a completions request), after any reasoning; equals TTFT when the model does "
         "not reason. Successful measured requests only."_s},
        {u"reasoning_time"_s, u"Reasoning time"_s, u"ms"_s,
         u"t_first_content − t_first_reasoning"_s,
         u"The reasoning phase: from the first reasoning delta (delta.reasoning_content or "
         "delta.reasoning) to the first content delta; successful measured requests that "
         "streamed both."_s},
        {u"reasoning_tokens"_s, u"Reasoning tokens"_s, u"tokens"_s,
         u"usage.completion_tokens_details.reasoning_tokens, else the tokenizer's count of the "
         "reasoning text, else the reasoning chunks"_s,
         u"Per successful measured request that streamed reasoning (or whose server counted "
         "reasoning tokens); part of the output tokens. The source is recorded per request."_s},
        {u"ttft_from_sched"_s, u"TTFT from schedule"_s, u"ms"_s,
         u"MLPerf-style latency is measured from t_sched (LoadGen's rule)"_s,
         u"t_first − t_sched; successful measured requests only."_s},
        {u"e2el_from_sched"_s, u"E2EL from schedule"_s, u"ms"_s,
         u"MLPerf-style latency is measured from t_sched (LoadGen's rule)"_s,
         u"t_last − t_sched (t_end − t_sched for an embeddings or rerank answer); successful "
         "measured requests only."_s},
        {u"request_throughput"_s, u"Request throughput"_s, u"req/s"_s,
         u"successful requests / duration"_s, QString()},
        {u"output_throughput"_s, u"Output token throughput"_s, u"tok/s"_s,
         u"Σ n_out of successful requests / duration"_s, QString()},
        {u"total_token_throughput"_s, u"Total token throughput"_s, u"tok/s"_s,
         u"Σ (n_in + n_out) of successful requests / duration"_s, QString()},
        {u"input_throughput"_s, u"Input token throughput"_s, u"tok/s"_s,
         u"Σ n_in of successful requests / duration"_s,
         u"Reported for embeddings and rerank runs, whose n_in is usage.prompt_tokens, else "
         "usage.total_tokens, else the dataset's count."_s},
        {u"item_throughput"_s, u"Item throughput"_s, u"items/s"_s,
         u"Σ items (embeddings inputs, rerank documents) of successful requests / duration"_s,
         u"Embeddings and rerank runs: a request's items are its batch (--random-batch-size)."_s},
        {u"request_goodput"_s, u"Request goodput"_s, u"req/s"_s,
         u"successful requests meeting every SLO (e.g. TTFT ≤ 200 ms and TPOT ≤ 50 ms) / "
         "duration"_s,
         u"Each set SLO is inclusive (value <= SLO), as in vLLM; only set SLOs are checked."_s},
        {u"duration"_s, u"Duration"_s, u"s"_s,
         u"from the first send to the last completion of the measured (non-warm-up) requests"_s,
         u"Earliest t_send to the latest t_end (t_last, then t_send, when the stream never "
         "finished) over all measured requests, failed ones included: they occupied the run."_s},
        {u"achieved_request_rate"_s, u"Achieved request rate"_s, u"req/s"_s,
         u"(sent requests − 1) / (last t_send − first t_send) of the measured requests"_s,
         u"Compare with the configured rate; a shortfall means the client or the concurrency "
         "cap held requests back."_s},
    };
    static const QList<MetricDefinition> withMessages = [] {
        QList<MetricDefinition> out = defs;
        for (MetricDefinition &d : out) {
            const QByteArray stem = "metric." + d.key.toLatin1();
            d.labelMessage = Message((stem + ".label").constData());
            // The two schedule-based latencies quote one rule.
            const QByteArray def = d.key.endsWith("_from_sched"_L1)
                                       ? QByteArray("metric.from_sched.definition")
                                       : stem + ".definition";
            d.definitionMessage = Message(def.constData());
            if (!d.detail.isEmpty())
                d.detailMessage = Message((stem + ".detail").constData());
        }
        return out;
    }();
    return withMessages;
}

const MetricDefinition *metricDefinition(const QString &key)
{
    for (const auto &d : metricDefinitions())
        if (d.key == key)
            return &d;
    return nullptr;
}

// The statements' wording is in the message catalogue (metric.statement.*).
Message timeBaseMessage()
{
    return Message("metric.statement.time_base");
}

Message percentileMethodMessage()
{
    return Message("metric.statement.percentiles");
}

Message failedRequestsMessage()
{
    return Message("metric.statement.failed");
}

Message warmupMessage()
{
    return Message("metric.statement.warmup");
}

Message tokenCountMessage()
{
    return Message("metric.statement.tokens");
}

QString timeBaseStatement()
{
    return timeBaseMessage().text();
}

QString percentileMethodStatement()
{
    return percentileMethodMessage().text();
}

QString failedRequestsStatement()
{
    return failedRequestsMessage().text();
}

QString warmupStatement()
{
    return warmupMessage().text();
}

QString tokenCountStatement()
{
    return tokenCountMessage().text();
}

QString metricToolTip(const MetricDefinition &d, bool withDetail)
{
    QString tip = Message("metric.tooltip", {d.labelMessage, d.definitionMessage}).translated();
    if (withDetail && !d.detailMessage.isEmpty())
        tip += u"\n\n"_s + d.detailMessage.translated();
    return tip;
}

QJsonObject metricDefinitionsJson()
{
    QJsonObject metrics;
    for (const auto &d : metricDefinitions()) {
        QJsonObject o{{u"label"_s, d.label}, {u"unit"_s, d.unit}, {u"definition"_s, d.definition}};
        if (!d.detail.isEmpty())
            o.insert(u"detail"_s, d.detail);
        metrics.insert(d.key, o);
    }
    return QJsonObject{{u"version"_s, kMetricDefinitionsVersion},
                       {u"time_base"_s, timeBaseStatement()},
                       {u"percentile_method"_s, percentileMethodStatement()},
                       {u"failed_requests"_s, failedRequestsStatement()},
                       {u"warmup"_s, warmupStatement()},
                       {u"token_counts"_s, tokenCountStatement()},
                       {u"metrics"_s, metrics}};
}

QString metricDefinitionsText()
{
    QString out = u"Metric definitions (version %1)\n"_s.arg(kMetricDefinitionsVersion);
    out += timeBaseStatement() + u'\n';
    for (const auto &d : metricDefinitions()) {
        out += u"%1 (%2): %3"_s.arg(d.label, d.unit, d.definition);
        if (!d.detail.isEmpty())
            out += u". "_s + d.detail;
        out += u'\n';
    }
    out += percentileMethodStatement() + u'\n';
    out += failedRequestsStatement() + u'\n';
    out += warmupStatement() + u'\n';
    out += tokenCountStatement() + u'\n';
    return out;
}

} // namespace sb
