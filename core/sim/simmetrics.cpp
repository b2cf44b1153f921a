#include "simmetrics.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {

// vLLM's own buckets (vllm/v1/metrics/loggers.py, PrometheusStatLogger).
const QList<double> kTtftBuckets = {0.001, 0.005, 0.01, 0.02,  0.04,  0.06,  0.08, 0.1,
                                    0.25,  0.5,   0.75, 1.0,   2.5,   5.0,   7.5,  10.0,
                                    20.0,  40.0,  80.0, 160.0, 640.0, 2560.0};
const QList<double> kItlBuckets = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,  0.3,  0.4, 0.5,
                                   0.75, 1.0,   2.5,  5.0,   7.5, 10.0, 20.0, 40.0, 80.0};
const QList<double> kE2eBuckets = {0.3,  0.5,   0.8,   1.0,   1.5,   2.0,    2.5,
                                   5.0,  10.0,  15.0,  20.0,  30.0,  40.0,   50.0,
                                   60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

// Fixed numbers of the simulated GPU's framebuffer: the weights, and what a full KV cache adds.
constexpr double kFbBaseMiB = 16384;
constexpr double kFbKvMiB = 49152;
constexpr double kFbTotalMiB = 81920;

// Python's float repr, as prometheus_client writes values: 3.0, 0.25, 1e-06.
QByteArray num(double v)
{
    if (std::isinf(v))
        return v > 0 ? "+Inf" : "-Inf";
    if (std::isnan(v))
        return "NaN";
    if (v == std::trunc(v) && std::fabs(v) < 1e16)
        return QByteArray::number(v, 'f', 1);
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

QByteArray escapeLabel(const QString &value)
{
    QByteArray out;
    for (char c : value.toUtf8()) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

void family(QByteArray &out, const char *name, const char *type, const char *help)
{
    out += "# HELP ";
    out += name;
    out += ' ';
    out += help;
    out += "\n# TYPE ";
    out += name;
    out += ' ';
    out += type;
    out += '\n';
}

void sample(QByteArray &out, const char *name, const QByteArray &labels, double v)
{
    out += name;
    out += '{';
    out += labels;
    out += "} ";
    out += num(v);
    out += '\n';
}

void histogram(QByteArray &out, const char *name, const char *help, const QByteArray &labels,
               const SimMetrics::Histogram &h)
{
    family(out, name, "histogram", help);
    const QByteArray base(name);
    // Labels in name order, as prometheus_client writes them: engine, le, model_name.
    const qsizetype comma = labels.indexOf(',');
    const QByteArray engine = labels.left(comma), rest = labels.mid(comma + 1);
    quint64 cumulative = 0;
    for (qsizetype i = 0; i <= h.bounds.size(); ++i) {
        cumulative += h.counts[i];
        const QByteArray le = i < h.bounds.size() ? num(h.bounds[i]) : QByteArray("+Inf");
        out += base + "_bucket{" + engine + ",le=\"" + le + "\"," + rest + "} " +
               num(double(cumulative)) + '\n';
    }
    out += base + "_count{" + labels + "} " + num(double(h.count)) + '\n';
    out += base + "_sum{" + labels + "} " + num(h.sum) + '\n';
}

} // namespace

SimMetrics::Histogram::Histogram(const QList<double> &upperBounds)
    : bounds(upperBounds), counts(upperBounds.size() + 1, 0)
{}

void SimMetrics::Histogram::observe(double v)
{
    // Upper bounds are inclusive (le).
    const qsizetype i = std::lower_bound(bounds.cbegin(), bounds.cend(), v) - bounds.cbegin();
    ++counts[i];
    sum += v;
    ++count;
}

SimMetrics::SimMetrics() : m_ttft(kTtftBuckets), m_itl(kItlBuckets), m_e2e(kE2eBuckets)
{
    configure(QStringLiteral("servebench-sim"), 131072, 60, 350, 64);
}

void SimMetrics::configure(const QString &modelName, int kvCacheTokens, double gpuIdleW,
                           double gpuMaxW, int gpuSaturationRunning)
{
    m_labels = "engine=\"0\",model_name=\"" + escapeLabel(modelName) + '"';
    m_kvCapacity = std::max(1, kvCacheTokens);
    m_idleW = std::max(0.0, gpuIdleW);
    m_maxW = std::max(m_idleW, gpuMaxW);
    m_saturation = std::max(1, gpuSaturationRunning);
}

void SimMetrics::admitted(int promptTokens, int cachedTokens, bool prefixCacheOn)
{
    // vLLM counts the prompt tokens it looked up and those it found, when caching is on.
    if (!prefixCacheOn)
        return;
    m_prefixQueries += quint64(std::max(0, promptTokens));
    m_prefixHits += quint64(std::max(0, cachedTokens));
}

void SimMetrics::firstToken(qint64 arrivalNs, qint64 nowNs, int promptTokens)
{
    // vLLM measures TTFT from the request's arrival in its frontend and counts the prompt
    // when its prefill completes.
    m_ttft.observe(double(nowNs - arrivalNs) / 1e9);
    m_promptTokens += quint64(std::max(0, promptTokens));
}

void SimMetrics::tokens(int count)
{
    m_generationTokens += quint64(std::max(0, count));
}

void SimMetrics::interTokenGap(qint64 gapNs)
{
    m_itl.observe(double(gapNs) / 1e9);
}

void SimMetrics::finished(qint64 arrivalNs, qint64 lastTokenNs)
{
    ++m_success;
    m_e2e.observe(double(lastTokenNs - arrivalNs) / 1e9);
}

void SimMetrics::httpRequest(const QByteArray &handler, const QByteArray &method, int status)
{
    if (status <= 0)
        return; // never answered
    const QByteArray labels = "handler=\"" + escapeLabel(QString::fromUtf8(handler)) +
                              "\",method=\"" + escapeLabel(QString::fromUtf8(method)) +
                              "\",status=\"" + QByteArray::number(status / 100) + "xx\"";
    ++m_http[labels];
}

void SimMetrics::load(int running, int waiting, qint64 kvTokensHeld, qint64 nowNs)
{
    // Power is constant between load changes: the energy counter is its exact integral.
    if (m_energySince >= 0)
        m_energyMj += powerW() * double(nowNs - m_energySince) / 1e6;
    m_energySince = nowNs;
    m_running = running;
    m_waiting = waiting;
    m_kvHeld = kvTokensHeld;
}

double SimMetrics::kvCacheUsage() const
{
    return std::min(1.0, double(m_kvHeld) / double(m_kvCapacity));
}

double SimMetrics::gpuUtilPercent() const
{
    return 100.0 * std::min(1.0, double(m_running) / double(m_saturation));
}

double SimMetrics::powerW() const
{
    return m_idleW + (m_maxW - m_idleW) * gpuUtilPercent() / 100.0;
}

double SimMetrics::energyMilliJoules(qint64 nowNs) const
{
    if (m_energySince < 0)
        return 0;
    return m_energyMj + powerW() * double(nowNs - m_energySince) / 1e6;
}

QByteArray SimMetrics::renderVllm() const
{
    QByteArray out;
    out.reserve(12000);
    family(out, "vllm:num_requests_running", "gauge",
           "Number of requests in model execution batches.");
    sample(out, "vllm:num_requests_running", m_labels, m_running);
    family(out, "vllm:num_requests_waiting", "gauge",
           "Number of requests waiting to be processed.");
    sample(out, "vllm:num_requests_waiting", m_labels, m_waiting);
    family(out, "vllm:kv_cache_usage_perc", "gauge", "KV-cache usage. 1 means 100 percent usage.");
    sample(out, "vllm:kv_cache_usage_perc", m_labels, kvCacheUsage());
    family(out, "vllm:prefix_cache_queries_total", "counter",
           "Prefix cache queries, in terms of number of queried tokens.");
    sample(out, "vllm:prefix_cache_queries_total", m_labels, double(m_prefixQueries));
    family(out, "vllm:prefix_cache_hits_total", "counter",
           "Prefix cache hits, in terms of number of cached tokens.");
    sample(out, "vllm:prefix_cache_hits_total", m_labels, double(m_prefixHits));
    family(out, "vllm:num_preemptions_total", "counter",
           "Cumulative number of preemption from the engine.");
    sample(out, "vllm:num_preemptions_total", m_labels, double(m_preemptions));
    family(out, "vllm:prompt_tokens_total", "counter", "Number of prefill tokens processed.");
    sample(out, "vllm:prompt_tokens_total", m_labels, double(m_promptTokens));
    family(out, "vllm:generation_tokens_total", "counter",
           "Number of generation tokens processed.");
    sample(out, "vllm:generation_tokens_total", m_labels, double(m_generationTokens));
    family(out, "vllm:request_success_total", "counter",
           "Count of successfully processed requests.");
    // The simulator always stops at max_tokens: every success has finished_reason "length".
    const qsizetype comma = m_labels.indexOf(',');
    sample(out, "vllm:request_success_total",
           m_labels.left(comma) + ",finished_reason=\"length\"," + m_labels.mid(comma + 1),
           double(m_success));
    histogram(out, "vllm:time_to_first_token_seconds",
              "Histogram of time to first token in seconds.", m_labels, m_ttft);
    histogram(out, "vllm:inter_token_latency_seconds",
              "Histogram of inter-token latency in seconds.", m_labels, m_itl);
    histogram(out, "vllm:e2e_request_latency_seconds",
              "Histogram of e2e request latency in seconds.", m_labels, m_e2e);
    if (!m_http.isEmpty()) {
        // vLLM's API server exports this through prometheus-fastapi-instrumentator: requests
        // per endpoint, so a run of any API (completions, chat, responses, messages) shows up.
        family(out, "http_requests_total", "counter",
               "Total number of requests by method, status and handler.");
        for (auto it = m_http.cbegin(); it != m_http.cend(); ++it)
            sample(out, "http_requests_total", it.key(), double(it.value()));
    }
    return out;
}

QByteArray SimMetrics::renderDcgm(qint64 nowNs) const
{
    // The layout of dcgm-exporter's template (internal/pkg/rendermetrics/render_metrics.go) and
    // the help texts of its etc/default-counters.csv.
    const QByteArray l = "gpu=\"0\",UUID=\"GPU-00000000-5e5e-5e5e-5e5e-000000000000\","
                         "pci_bus_id=\"00000000:00:00.0\",device=\"nvidia0\","
                         "modelName=\"ServeBench simulated GPU\",hostname=\"servebench-sim\"";
    const double fbUsed = std::round(kFbBaseMiB + kFbKvMiB * kvCacheUsage());
    QByteArray out;
    out += "# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).\n"
           "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
           "DCGM_FI_DEV_POWER_USAGE{" +
           l + "} " + QByteArray::number(powerW(), 'f', 3) + '\n';
    out += "# HELP DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION Total energy consumption since boot "
           "(in mJ).\n"
           "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n"
           "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{" +
           l + "} " + QByteArray::number(std::floor(energyMilliJoules(nowNs)), 'f', 0) + '\n';
    out += "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
           "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
           "DCGM_FI_DEV_GPU_UTIL{" +
           l + "} " + QByteArray::number(std::round(gpuUtilPercent()), 'f', 0) + '\n';
    out += "# HELP DCGM_FI_DEV_FB_FREE Framebuffer memory free (in MiB).\n"
           "# TYPE DCGM_FI_DEV_FB_FREE gauge\n"
           "DCGM_FI_DEV_FB_FREE{" +
           l + "} " + QByteArray::number(kFbTotalMiB - fbUsed, 'f', 0) + '\n';
    out += "# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).\n"
           "# TYPE DCGM_FI_DEV_FB_USED gauge\n"
           "DCGM_FI_DEV_FB_USED{" +
           l + "} " + QByteArray::number(fbUsed, 'f', 0) + '\n';
    return out;
}

} // namespace sb
