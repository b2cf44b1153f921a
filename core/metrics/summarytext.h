#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <limits>

namespace sb {

struct LoadProfile;
struct RunSummary;

// Which `vllm bench serve` printout to reproduce. Both print labels left-justified to 40
// columns, a space, and the value left-justified to 10 (Python "{:<40} {:<10}", trailing spaces
// included), floats with two decimals.
enum class VllmTextStyle : quint8 {
    // benchmarks/benchmark_serving.py of vLLM <= 0.9 — the block in docs/metrics.md: Successful
    // requests, duration, token totals, throughputs (goodput only with SLOs), then sections.
    Classic,
    // vllm/benchmarks/serve.py of vLLM 0.10/0.11: adds "Failed requests:", "Maximum request
    // concurrency:" (when set), "Request rate configured (RPS):" (finite rate), "Peak output
    // token throughput (tok/s):" and "Peak concurrent requests:". ServeBench's peak counts
    // tokens per chunk where vLLM counts chunks; they differ only with multi-token chunks.
    BenchServe,
};

struct SummaryTextOptions
{
    VllmTextStyle style = VllmTextStyle::Classic;
    // vLLM's --percentile-metrics (sections, always printed in the order ttft, tpot, itl, e2el)
    QStringList percentileMetrics = {QStringLiteral("ttft"), QStringLiteral("tpot"),
                                     QStringLiteral("itl")};
    // vLLM's --metric-percentiles: one "P<p>" line per value and section. Each must be among
    // the summary's percentiles (SummaryOptions::forProfile ensures it); a missing one prints
    // "nan", as Python would.
    QList<double> metricPercentiles = {99};
    int maxConcurrency = 0;                                       // 0 = none
    double requestRate = std::numeric_limits<double>::infinity(); // configured rate
    bool servebenchAdditions = true;  // append ServeBench's block after vLLM's closing line
    QString datasetHash;              // printed in the additions when set
    QString tokenizer;                // the run's tokenizer (Tokenizer::describe()), when set
    QStringList clientHealthWarnings; // each printed as "WARNING: ..." in the additions
    // The cancellation load as configured, "rate 30 %, after 5 tokens" (forProfile); empty
    // without one. With it (or any request cancelled by the load) the additions print
    // "Cancelled by the load: N of M (rate …)".
    QString cancellation;

    static SummaryTextOptions forProfile(const LoadProfile &profile);
};

// vLLM's block, then (servebenchAdditions) ServeBench's own block.
QString formatVllmSummary(const RunSummary &summary, const SummaryTextOptions &opts = {});
// Only vLLM's block, from the "=== Serving Benchmark Result ===" line to the closing "====" line.
QString formatVllmBlock(const RunSummary &summary, const SummaryTextOptions &opts = {});
// Only ServeBench's block: failures by class, warm-up, achieved rate, schedule lag, client queue
// time, ITL per token, reasoning (time to first content token, reasoning time and tokens, when
// any request streamed reasoning), token-count sources, the client's count beside the server's,
// cached tokens, tokenizer, dataset hash, definitions version, percentile method, client-health
// warnings.
QString formatServeBenchAdditions(const RunSummary &summary, const SummaryTextOptions &opts = {});

// Python's format(v, ".{decimals}f"): correctly rounded, ties to even, "nan"/"inf"/"-inf",
// independent of the C locale (QCoreApplication calls setlocale, so printf is not safe).
QString pythonFixed(double v, int decimals = 2);

// A section heading of the summary's width (50), centred with `fill` as Python's
// "{s:{c}^{n}}" centres it (the odd padding character to the right), and a newline. Other
// blocks printed after the summary (the server's) use it to line up with it.
QString summaryHeading(const QString &text, QChar fill);

} // namespace sb
