#include "summarytext.h"

#include "config/runplan.h"
#include "metrics/definitions.h"
#include "metrics/stats.h"
#include "metrics/summary.h"

#include <charconv>
#include <cmath>

namespace sb {

using namespace Qt::StringLiterals;

SummaryTextOptions SummaryTextOptions::forProfile(const LoadProfile &profile)
{
    SummaryTextOptions o;
    o.percentileMetrics = profile.percentileMetrics;
    o.metricPercentiles = profile.metricPercentiles;
    o.maxConcurrency = profile.maxConcurrency;
    o.requestRate =
        profile.unlimitedRate() ? std::numeric_limits<double>::infinity() : profile.requestRate;
    if (profile.cancels())
        o.cancellation = u"rate %1 %, %2"_s.arg(QString::number(profile.cancelRatePct, 'g', 6),
                                                cancellationPointText(profile));
    return o;
}

QString pythonFixed(double v, int decimals)
{
    if (std::isnan(v))
        return u"nan"_s;
    if (std::isinf(v))
        return v > 0 ? u"inf"_s : u"-inf"_s;
    // to_chars with a precision is specified as printf("%.*f") in the C locale: exact decimal
    // expansion, ties to even — the same digits as Python's float formatting.
    char buf[400];
    const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
    if (res.ec != std::errc())
        return QString::number(v, 'f', decimals);
    return QString::fromLatin1(buf, res.ptr - buf);
}

namespace {

constexpr int kWidth = 50;

// Python "{:<40} {:<10}".
QString line(const QString &label, const QString &value)
{
    return label.leftJustified(40) + u' ' + value.leftJustified(10) + u'\n';
}

QString line(const QString &label, qint64 value)
{
    return line(label, QString::number(value));
}

QString lineF(const QString &label, double value)
{
    return line(label, pythonFixed(value, 2));
}

// "n/a (reason)" in place of the number when the summary cannot tell the quantity.
QString notAvailable(const RunSummary &s, const QString &key)
{
    return u"n/a (%1)"_s.arg(s.unavailableReason(key));
}

QString lineF(const RunSummary &s, const QString &key, const QString &label, double value)
{
    return s.isAvailable(key) ? lineF(label, value) : line(label, notAvailable(s, key));
}

QString line(const RunSummary &s, const QString &key, const QString &label, qint64 value)
{
    return s.isAvailable(key) ? line(label, value) : line(label, notAvailable(s, key));
}

struct Section
{
    const char16_t *key;
    const char16_t *name;
    const char16_t *header;
};

constexpr Section kSections[] = {
    {u"ttft", u"TTFT", u"Time to First Token"},
    {u"tpot", u"TPOT", u"Time per Output Token (excl. 1st token)"},
    {u"itl", u"ITL", u"Inter-token Latency"},
    {u"e2el", u"E2EL", u"End-to-end Latency"},
};

QString percentileLines(const RunSummary &s, const QString &key, const MetricStats &st,
                        const QString &name, const QList<double> &ps)
{
    QString out;
    for (double p : ps)
        out += lineF(s, key, u"P%1 %2 (ms):"_s.arg(percentileWord(p), name), st.percentile(p));
    return out;
}

} // namespace

// The block of a run against an embeddings or rerank endpoint (docs/metrics.md, "Embeddings and
// rerank"), in the order of vLLM's own pooling printout (requests, duration, input tokens,
// throughputs, then E2EL only). The streaming metrics are said to be unavailable once, with the
// reason, instead of a line of n/a per percentile.
QString formatNonStreamedBlock(const RunSummary &s, const SummaryTextOptions &o)
{
    const bool benchServe = o.style == VllmTextStyle::BenchServe;
    QString out;
    out += summaryHeading(u" Serving Benchmark Result "_s, u'=');
    out += line(u"Successful requests:"_s, s.completed);
    if (benchServe) {
        out += line(u"Failed requests:"_s, s.failed);
        if (o.maxConcurrency > 0)
            out += line(u"Maximum request concurrency:"_s, qint64(o.maxConcurrency));
        if (!std::isinf(o.requestRate))
            out += lineF(u"Request rate configured (RPS):"_s, o.requestRate);
    }
    out += lineF(s, u"duration"_s, u"Benchmark duration (s):"_s, s.durationS);
    out += line(s, u"total_input_tokens"_s, u"Total input tokens:"_s, s.totalInputTokens);
    out += line(u"Total items (inputs, documents):"_s, s.totalItems);
    out += lineF(s, u"request_throughput"_s, u"Request throughput (req/s):"_s, s.requestThroughput);
    if (s.goodputSet)
        out += lineF(s, u"request_goodput"_s, u"Request goodput (req/s):"_s, s.requestGoodput);
    out += lineF(s, u"total_input_tokens"_s, u"Input token throughput (tok/s):"_s,
                 s.inputThroughput);
    // Rates over the window: unknown when the duration is.
    out += lineF(s, u"duration"_s, u"Item throughput (items/s):"_s, s.itemThroughput);
    out += lineF(s, u"total_token_throughput"_s, u"Total Token throughput (tok/s):"_s,
                 s.totalTokenThroughput);
    out += line(u"Generated tokens, TTFT, TPOT, ITL:"_s, notAvailable(s, u"ttft"_s));
    out += summaryHeading(u"End-to-end Latency"_s, u'-');
    out += lineF(s, u"e2el"_s, u"Mean E2EL (ms):"_s, s.e2el.mean);
    out += lineF(s, u"e2el"_s, u"Median E2EL (ms):"_s, s.e2el.median);
    out += percentileLines(s, u"e2el"_s, s.e2el, u"E2EL"_s, o.metricPercentiles);
    out += QString(kWidth, u'=') + u'\n';
    return out;
}

QString formatVllmBlock(const RunSummary &s, const SummaryTextOptions &o)
{
    if (s.nonStreamed)
        return formatNonStreamedBlock(s, o);
    const bool benchServe = o.style == VllmTextStyle::BenchServe;
    QString out;
    out += summaryHeading(u" Serving Benchmark Result "_s, u'=');
    out += line(u"Successful requests:"_s, s.completed);
    if (benchServe) {
        out += line(u"Failed requests:"_s, s.failed);
        if (o.maxConcurrency > 0)
            out += line(u"Maximum request concurrency:"_s, qint64(o.maxConcurrency));
        if (!std::isinf(o.requestRate))
            out += lineF(u"Request rate configured (RPS):"_s, o.requestRate);
    }
    out += lineF(s, u"duration"_s, u"Benchmark duration (s):"_s, s.durationS);
    out += line(s, u"total_input_tokens"_s, u"Total input tokens:"_s, s.totalInputTokens);
    out += line(u"Total generated tokens:"_s, s.totalOutputTokens);
    out += lineF(s, u"request_throughput"_s, u"Request throughput (req/s):"_s, s.requestThroughput);
    if (s.goodputSet)
        out += lineF(s, u"request_goodput"_s, u"Request goodput (req/s):"_s, s.requestGoodput);
    out +=
        lineF(s, u"output_throughput"_s, u"Output token throughput (tok/s):"_s, s.outputThroughput);
    if (benchServe) {
        out += lineF(s, u"max_output_tokens_per_s"_s, u"Peak output token throughput (tok/s):"_s,
                     s.peakOutputTokensPerS);
        out += lineF(s, u"max_concurrent_requests"_s, u"Peak concurrent requests:"_s,
                     double(s.peakConcurrentRequests));
    }
    out += lineF(s, u"total_token_throughput"_s, u"Total Token throughput (tok/s):"_s,
                 s.totalTokenThroughput);

    for (const Section &sec : kSections) {
        const QString key = QString::fromUtf16(sec.key);
        if (!o.percentileMetrics.contains(key))
            continue;
        const MetricStats *st = s.stats(key);
        const QString name = QString::fromUtf16(sec.name);
        out += summaryHeading(QString::fromUtf16(sec.header), u'-');
        out += lineF(s, key, u"Mean %1 (ms):"_s.arg(name), st->mean);
        out += lineF(s, key, u"Median %1 (ms):"_s.arg(name), st->median);
        out += percentileLines(s, key, *st, name, o.metricPercentiles);
    }
    out += QString(kWidth, u'=') + u'\n';
    return out;
}

QString formatServeBenchAdditions(const RunSummary &s, const SummaryTextOptions &o)
{
    QString out;
    out += summaryHeading(u" ServeBench Details "_s, u'=');
    if (o.style == VllmTextStyle::Classic)
        out += line(u"Failed requests:"_s, s.failed);
    for (auto it = s.failedByClass.cbegin(); it != s.failedByClass.cend(); ++it)
        out += line(u"  "_s + it.key() + u':', it.value());
    if (!o.cancellation.isEmpty() || s.cancelledByLoad > 0) {
        // Neither failed nor completed (docs/metrics.md, "Cancelled by the load").
        QString value = u"%1 of %2"_s.arg(s.cancelledByLoad).arg(s.measured);
        if (!o.cancellation.isEmpty())
            value += u" ("_s + o.cancellation + u')';
        out += line(u"Cancelled by the load:"_s, value);
        if (s.cancelledByLoad > 0)
            out += line(u"  before the cancel:"_s,
                        u"%1 had a first token, %2 token chunks received"_s
                            .arg(s.cancelledWithFirstToken)
                            .arg(s.cancelledChunks));
    }
    if (s.warmup > 0)
        out += line(s.warmupIncluded ? u"Warm-up requests (included):"_s
                                     : u"Warm-up requests (excluded):"_s,
                    s.warmup);
    out += lineF(s, u"achieved_request_rate"_s, u"Achieved request rate (req/s):"_s,
                 s.achievedRequestRate);

    const auto statsSection = [&out, &o, &s](const QString &header, const QString &key,
                                             const QString &name, const MetricStats &st,
                                             bool median) {
        out += summaryHeading(header, u'-');
        out += lineF(s, key, u"Mean %1 (ms):"_s.arg(name), st.mean);
        if (median)
            out += lineF(s, key, u"Median %1 (ms):"_s.arg(name), st.median);
        out += percentileLines(s, key, st, name, o.metricPercentiles);
        out += lineF(s, key, u"Max %1 (ms):"_s.arg(name), st.max);
    };
    statsSection(u"Schedule Lag"_s, u"schedule_lag"_s, u"schedule lag"_s, s.scheduleLag, false);
    statsSection(u"Client Queue Time"_s, u"client_queue_time"_s, u"client queue time"_s,
                 s.clientQueueTime, false);
    if (!s.nonStreamed)
        statsSection(u"Inter-token Latency per Token"_s, u"itl_per_token"_s, u"ITL per token"_s,
                     s.itlPerToken, true);
    if (s.reasoningRequests > 0) {
        // Only reasoning streams make these differ from TTFT (docs/metrics.md, reasoning).
        statsSection(u"Time to First Content Token"_s, u"ttfct"_s, u"TTFCT"_s, s.ttfct, true);
        statsSection(u"Reasoning Time"_s, u"reasoning_time"_s, u"reasoning time"_s, s.reasoningTime,
                     true);
        out += line(u"Requests with reasoning:"_s, s.reasoningRequests);
        out += line(s, u"total_reasoning_tokens"_s, u"Total reasoning tokens:"_s,
                    s.totalReasoningTokens);
        out += lineF(s, u"reasoning_tokens"_s, u"Mean reasoning tokens per request:"_s,
                     s.reasoningTokens.mean);
    }

    out += summaryHeading(u"Token Counts"_s, u'-');
    out += line(u"Input token count source:"_s, s.inputSources.describe());
    if (s.nonStreamed)
        out += line(u"Output tokens:"_s, notAvailable(s, u"total_output_tokens"_s));
    else
        out += line(u"Output token count source:"_s, s.outputSources.describe());
    if (s.reasoningRequests > 0)
        out += line(u"Reasoning token count source:"_s, s.reasoningSources.describe());
    if (s.outputCountCompared > 0) {
        out +=
            line(u"Output tokens, server vs tokenizer:"_s,
                 u"%1 vs %2"_s.arg(s.comparedServerOutputTokens).arg(s.comparedClientOutputTokens));
        out +=
            line(u"Output count mismatch rate:"_s,
                 u"%1 % (%2 of %3 requests)"_s.arg(pythonFixed(100 * s.outputCountMismatchRate()))
                     .arg(s.outputCountMismatched)
                     .arg(s.outputCountCompared));
    }
    if (s.cachedTokensReported > 0)
        out += line(u"Cached prompt tokens:"_s, s.cachedTokens);
    if (s.multiTokenChunks)
        out += line(u"Multi-token chunks:"_s, u"yes (ITL per token differs from ITL)"_s);
    if (s.imageRequests > 0)
        // The image files' bytes, not their base64 text (docs/datasets.md, "Images in prompts").
        out += line(u"Image bytes per request:"_s,
                    u"mean %1 (%2 requests with images)"_s.arg(pythonFixed(s.meanImageBytes(), 0))
                        .arg(s.imageRequests));

    out += QString(kWidth, u'-') + u'\n';
    if (!o.tokenizer.isEmpty())
        out += line(u"Tokenizer:"_s, o.tokenizer);
    if (!o.datasetHash.isEmpty())
        out += line(u"Dataset hash:"_s, o.datasetHash);
    out += line(u"Metric definitions version:"_s, qint64(kMetricDefinitionsVersion));
    out += line(u"Percentile method:"_s, s.method == PercentileMethod::LoadGen
                                             ? u"LoadGen sorted[floor(N*p)]"_s
                                             : u"linear interpolation (numpy default, as vLLM)"_s);
    for (const QString &w : o.clientHealthWarnings)
        out += u"WARNING: "_s + w + u'\n';
    out += QString(kWidth, u'=') + u'\n';
    return out;
}

QString formatVllmSummary(const RunSummary &s, const SummaryTextOptions &o)
{
    QString out = formatVllmBlock(s, o);
    if (o.servebenchAdditions)
        out += formatServeBenchAdditions(s, o);
    return out;
}

QString summaryHeading(const QString &text, QChar fill)
{
    const qsizetype pad = kWidth - text.size();
    if (pad <= 0)
        return text + u'\n';
    const qsizetype left = pad / 2;
    return QString(left, fill) + text + QString(pad - left, fill) + u'\n';
}

} // namespace sb
