#include "serverevidence.h"

#include "metricseriesstore.h"

#include <QJsonArray>
#include <QMap>
#include <algorithm>
#include <deque>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

struct Point
{
    qint64 t;
    double v;
};

struct Definition
{
    const char *name;
    const char *unit;
    const char *text;
};

// The definitions every figure follows. docs/server-metrics.md repeats them with the reasons.
constexpr Definition kDefinitions[] = {
    {"running_peak", "requests",
     "Largest number of requests the engine reported running at a scrape inside the window."},
    {"running_mean", "requests",
     "Time-weighted mean of the running requests over the scrapes inside the window "
     "(trapezoids between consecutive scrapes)."},
    {"waiting_peak", "requests",
     "Largest number of requests the engine reported waiting at a scrape inside the window."},
    {"waiting_mean", "requests", "Time-weighted mean of the waiting requests, as running_mean."},
    {"kv_cache_usage_peak", "fraction",
     "Largest KV-cache usage (0..1) reported at a scrape inside the window; the mean over "
     "engines when the server runs several."},
    {"kv_cache_usage_mean", "fraction", "Time-weighted mean of the KV-cache usage."},
    {"preemptions", "preemptions",
     "Increase of the engine's preemption counter from the last scrape at or before the "
     "window's start to the first scrape at or after its end; a drop is a counter reset and "
     "counts the new value."},
    {"server_prompt_tokens", "tokens",
     "Increase of the engine's prompt-token counter, as "
     "preemptions."},
    {"server_generation_tokens", "tokens",
     "Increase of the engine's generated-token counter, as preemptions; beside it the client's "
     "output tokens and the difference server - client."},
    {"server_requests", "requests",
     "Increase of the engine's finished-request counter, as preemptions; beside it the "
     "client's successful requests."},
    {"prefix_cache_hit_rate", "fraction",
     "Increase of the prefix-cache hit counter divided by the increase of the query counter "
     "over the same scrapes."},
    {"server_ttft_mean_ms", "ms",
     "Increase of the engine's TTFT histogram sum divided by the increase of its count, over "
     "the scrapes that bracket the window."},
    {"server_ttft_p50_ms", "ms",
     "Median of the increase of the engine's TTFT histogram over the bracketing scrapes, "
     "interpolated inside its bucket as Prometheus' histogram_quantile does."},
    {"server_ttft_p90_ms", "ms", "90th percentile of the same histogram increase."},
    {"server_ttft_p99_ms", "ms", "99th percentile of the same histogram increase."},
    {"ttft_outside_engine_ms", "ms",
     "Client's mean TTFT minus the engine's mean TTFT: the time a first token spends outside "
     "the engine's own measurement (network, HTTP server, queueing before the engine sees the "
     "request, client)."},
    {"server_itl_mean_ms", "ms", "Mean of the engine's inter-token latency histogram increase."},
    {"server_itl_p50_ms", "ms", "Median of the engine's inter-token latency histogram increase."},
    {"server_itl_p90_ms", "ms", "90th percentile of the same."},
    {"server_itl_p99_ms", "ms", "99th percentile of the same."},
    {"server_e2e_mean_ms", "ms", "Mean of the engine's end-to-end latency histogram increase."},
    {"server_e2e_p50_ms", "ms", "Median of the engine's end-to-end latency histogram increase."},
    {"server_e2e_p90_ms", "ms", "90th percentile of the same."},
    {"server_e2e_p99_ms", "ms", "99th percentile of the same."},
    {"e2e_outside_engine_ms", "ms",
     "Client's mean E2EL minus the engine's mean end-to-end "
     "latency."},
    {"gpu_util_mean", "%",
     "Time-weighted mean GPU utilisation over the scrapes inside the window, averaged over "
     "GPUs."},
    {"power_mean_w", "W",
     "Time-weighted mean GPU power over the scrapes inside the window, summed over GPUs."},
    {"energy_j", "J",
     "GPU energy from the last scrape at or before the window's start to the first at or "
     "after its end: the increase of the energy counter where the target exports one, "
     "otherwise the trapezoid integral of the summed power over those scrapes."},
    {"joules_per_output_token", "J/token",
     "energy_j divided by the client's output tokens in the window."},
    {"fb_used_peak_bytes", "bytes",
     "Largest framebuffer memory in use at a scrape inside the window, summed over GPUs."},
};

const Definition *findDefinition(const QString &name)
{
    for (const Definition &d : kDefinitions) {
        if (name == QLatin1StringView(d.name))
            return &d;
    }
    return nullptr;
}

bool isGpuQuantity(ServerQuantity q)
{
    return q == ServerQuantity::GpuUtil || q == ServerQuantity::PowerW ||
           q == ServerQuantity::EnergyJ || q == ServerQuantity::FbUsedBytes;
}

// The times of a store's successful scrapes, in order.
QList<qint64> okTimes(const MetricSeriesStore &store)
{
    QList<qint64> out;
    for (const ScrapeRecord &r : store.scrapes()) {
        if (r.ok())
            out.append(r.tNs);
    }
    return out;
}

// The value a series had at time t, if it has a point there.
bool valueAt(const MetricSeriesStore::Series &s, qint64 t, double *v)
{
    const auto it = std::lower_bound(s.tNs.cbegin(), s.tNs.cend(), t);
    if (it == s.tNs.cend() || *it != t)
        return false;
    *v = s.values[it - s.tNs.cbegin()];
    return true;
}

// Increase of one counter series over [from, to]: from its last value at or before `from`
// (0 when it did not exist yet: a labelled counter appears at its first increment), each
// drop counted as a reset to 0.
double seriesIncrease(const MetricSeriesStore::Series &s, qint64 from, qint64 to, int *resets)
{
    const auto begin = std::upper_bound(s.tNs.cbegin(), s.tNs.cend(), from);
    qsizetype i = begin - s.tNs.cbegin();
    double prev = i > 0 ? s.values[i - 1] : 0.0;
    double sum = 0;
    for (; i < s.tNs.size() && s.tNs[i] <= to; ++i) {
        const double v = s.values[i];
        if (std::isnan(v))
            continue;
        if (v < prev) {
            ++*resets;
            sum += v;
        } else {
            sum += v - prev;
        }
        prev = v;
    }
    return sum;
}

double sumIncrease(const QList<const MetricSeriesStore::Series *> &series, qint64 from, qint64 to,
                   int *resets)
{
    double sum = 0;
    for (const MetricSeriesStore::Series *s : series)
        sum += seriesIncrease(*s, from, to, resets);
    return sum;
}

double timeWeightedMean(const QList<Point> &pts)
{
    if (pts.size() == 1)
        return pts[0].v;
    double area = 0;
    for (qsizetype i = 1; i < pts.size(); ++i)
        area += (pts[i].v + pts[i - 1].v) / 2.0 * double(pts[i].t - pts[i - 1].t);
    const double span = double(pts.back().t - pts.front().t);
    if (span <= 0) {
        double s = 0;
        for (const Point &p : pts)
            s += p.v;
        return s / double(pts.size());
    }
    return area / span;
}

double trapezoidJoules(const QList<Point> &pts)
{
    double joules = 0;
    for (qsizetype i = 1; i < pts.size(); ++i)
        joules += (pts[i].v + pts[i - 1].v) / 2.0 * double(pts[i].t - pts[i - 1].t) / 1e9;
    return joules;
}

QString ms(qint64 ns)
{
    return u"%1 ms"_s.arg(double(ns) / 1e6, 0, 'f', 1);
}

// One quantity found in one target, with what the window needs from that target.
struct Found
{
    const MetricSeriesStore *store = nullptr;
    ServerEngine engine = ServerEngine::Unknown;
    ResolvedQuantity r;
    QList<qint64> ok; // successful scrape times

    QString source() const
    {
        return u"%1: %2"_s.arg(store->targetName(), QString::fromUtf8(r.selector.name));
    }
};

class Builder
{
public:
    explicit Builder(const EvidenceInput &in) : m_in(in)
    {
        for (const MetricSeriesStore *s : in.stores) {
            if (!s)
                continue;
            const QList<qint64> ok = okTimes(*s);
            if (ok.isEmpty()) {
                m_targetProblems.append(
                    u"target '%1' not available: %2"_s.arg(s->targetName(), lastFailure(*s)));
                continue;
            }
            m_live.append({s, EngineCatalog::detect(*s), ok});
        }
    }

    static QString lastFailure(const MetricSeriesStore &s)
    {
        for (qsizetype i = s.scrapes().size() - 1; i >= 0; --i) {
            const ScrapeRecord &r = s.scrapes()[i];
            if (!r.ok())
                return r.detail.isEmpty() ? QString::fromLatin1(scrapeOutcomeName(r.outcome))
                                          : r.detail;
        }
        return u"never scraped"_s;
    }

    // The first live target exporting q; otherwise the reason it is not available.
    bool find(ServerQuantity q, Found *out, QString *reason) const
    {
        QStringList engines;
        for (const Live &l : m_live) {
            ResolvedQuantity r;
            if (EngineCatalog::resolve(*l.store, l.engine, q, &r)) {
                if (isGpuQuantity(q))
                    filterGpus(&r);
                if (r.series.isEmpty() && r.buckets.isEmpty() && r.counts.isEmpty())
                    continue;
                *out = {l.store, l.engine, r, l.ok};
                return true;
            }
            engines.append(QString::fromLatin1(serverEngineName(l.engine)));
        }
        if (m_live.isEmpty()) {
            *reason = m_targetProblems.isEmpty() ? u"no server metrics target"_s
                                                 : m_targetProblems.join(u"; "_s);
        } else {
            engines.removeDuplicates();
            *reason = u"not exported by the target (%1)"_s.arg(engines.join(u", "_s));
            if (!m_targetProblems.isEmpty())
                *reason += u"; "_s + m_targetProblems.join(u"; "_s);
        }
        return false;
    }

    void filterGpus(ResolvedQuantity *r) const
    {
        if (m_in.gpuLabel.isEmpty() || m_in.gpuValues.isEmpty())
            return;
        QList<const MetricSeriesStore::Series *> kept;
        for (const MetricSeriesStore::Series *s : std::as_const(r->series)) {
            bool has = false;
            for (const auto &l : s->labels)
                has = has || l.first == m_in.gpuLabel;
            if (!has || m_in.gpuValues.contains(s->label(m_in.gpuLabel)))
                kept.append(s);
        }
        r->series = kept;
    }

    // Aggregated gauge values at the successful scrapes inside [t0, t1].
    QList<Point> windowPoints(const Found &f) const
    {
        QList<Point> pts;
        const bool mean = EngineCatalog::aggregation(f.r.quantity) == QuantityAggregation::Mean;
        for (qint64 t : f.ok) {
            if (t < m_in.t0Ns || t > m_in.t1Ns)
                continue;
            double sum = 0;
            int n = 0;
            for (const MetricSeriesStore::Series *s : f.r.series) {
                double v;
                if (valueAt(*s, t, &v) && !std::isnan(v)) {
                    sum += v;
                    ++n;
                }
            }
            if (n)
                pts.append({t, (mean ? sum / n : sum) * f.r.selector.scale});
        }
        return pts;
    }

    // The successful scrapes that bracket the window.
    bool bracket(const Found &f, qint64 *from, qint64 *to, QString *reason) const
    {
        const auto afterStart = std::upper_bound(f.ok.cbegin(), f.ok.cend(), m_in.t0Ns);
        if (afterStart == f.ok.cbegin()) {
            *reason = u"no successful scrape of '%1' at or before the window's start"_s.arg(
                f.store->targetName());
            return false;
        }
        const auto end = std::lower_bound(f.ok.cbegin(), f.ok.cend(), m_in.t1Ns);
        if (end == f.ok.cend()) {
            *reason = u"no successful scrape of '%1' at or after the window's end"_s.arg(
                f.store->targetName());
            return false;
        }
        *from = *(afterStart - 1);
        *to = *end;
        return true;
    }

    // Items live in a std::deque: references to earlier items stay valid as more are added.
    EvidenceItem &add(const char *name)
    {
        EvidenceItem it;
        it.name = QString::fromLatin1(name);
        const Definition *d = findDefinition(it.name);
        it.unit = d ? QString::fromLatin1(d->unit) : QString();
        m_items.push_back(it);
        return m_items.back();
    }
    void setValue(EvidenceItem &it, double v, const QString &source)
    {
        if (!std::isfinite(v)) {
            it.reason = u"the value is not a finite number"_s;
            return;
        }
        it.available = true;
        it.value = v;
        it.source = source;
    }

    void gauge(ServerQuantity q, const char *peakName, const char *meanName)
    {
        EvidenceItem &peak = add(peakName);
        EvidenceItem &mean = add(meanName);
        Found f;
        QString reason;
        if (!find(q, &f, &reason)) {
            peak.reason = mean.reason = reason;
            return;
        }
        const QList<Point> pts = windowPoints(f);
        if (pts.isEmpty()) {
            peak.reason = mean.reason =
                u"no successful scrape of '%1' inside the window"_s.arg(f.store->targetName());
            return;
        }
        double max = pts[0].v;
        for (const Point &p : pts)
            max = std::max(max, p.v);
        setValue(peak, max, f.source());
        setValue(mean, timeWeightedMean(pts), f.source());
        for (EvidenceItem *it : {&peak, &mean}) {
            it->detail.insert("scrapes"_L1, int(pts.size()));
            if (!f.r.selector.note.isEmpty())
                it->detail.insert("note"_L1, f.r.selector.note);
        }
    }

    bool counterDelta(ServerQuantity q, double *delta, Found *f, QJsonObject *detail,
                      QString *reason) const
    {
        if (!find(q, f, reason))
            return false;
        qint64 from = 0, to = 0;
        if (!bracket(*f, &from, &to, reason))
            return false;
        int resets = 0;
        *delta = sumIncrease(f->r.series, from, to, &resets) * f->r.selector.scale;
        detail->insert("from_ns"_L1, from);
        detail->insert("to_ns"_L1, to);
        detail->insert("counter_resets"_L1, resets);
        if (!f->r.selector.note.isEmpty())
            detail->insert("note"_L1, f->r.selector.note);
        return true;
    }

    void counter(ServerQuantity q, const char *name, double client = -1,
                 const char *clientKey = nullptr)
    {
        EvidenceItem &it = add(name);
        double delta = 0;
        Found f;
        if (!counterDelta(q, &delta, &f, &it.detail, &it.reason))
            return;
        setValue(it, delta, f.source());
        if (clientKey && client >= 0) {
            it.detail.insert(QLatin1StringView(clientKey), client);
            it.detail.insert("difference"_L1, delta - client);
        }
    }

    // Histogram increase over the bracket: buckets (bound, count), sum, count.
    struct HistDelta
    {
        QList<QPair<double, double>> buckets;
        double sum = 0;
        double count = 0;
        Found found;
    };

    bool histogram(ServerQuantity q, HistDelta *h, QJsonObject *detail, QString *reason) const
    {
        if (!find(q, &h->found, reason))
            return false;
        qint64 from = 0, to = 0;
        if (!bracket(h->found, &from, &to, reason))
            return false;
        const ResolvedQuantity &r = h->found.r;
        int resets = 0;
        const double scale = r.selector.scale;
        for (const auto &b : r.buckets)
            h->buckets.append({b.first, sumIncrease(b.second, from, to, &resets)});
        h->sum = sumIncrease(r.sums, from, to, &resets) * scale;
        h->count = sumIncrease(r.counts, from, to, &resets);
        detail->insert("from_ns"_L1, from);
        detail->insert("to_ns"_L1, to);
        detail->insert("observations"_L1, h->count);
        detail->insert("counter_resets"_L1, resets);
        if (!r.selector.note.isEmpty())
            detail->insert("note"_L1, r.selector.note);
        if (h->count <= 0) {
            *reason = u"no observations in '%1' during the window"_s.arg(
                QString::fromUtf8(r.selector.name));
            return false;
        }
        return true;
    }

    // Mean and quantiles (in ms) of a latency histogram; returns the mean (NaN if none).
    double latency(ServerQuantity q, const char *prefix, double clientMeanMs,
                   const char *outsideName)
    {
        const QString p = QString::fromLatin1(prefix);
        EvidenceItem &mean = add(qPrintable(p + u"_mean_ms"_s));
        HistDelta h;
        QJsonObject detail;
        QString reason;
        const bool ok = histogram(q, &h, &detail, &reason);
        double meanMs = std::numeric_limits<double>::quiet_NaN();
        if (ok && !h.found.r.sums.isEmpty()) {
            meanMs = h.sum / h.count * 1e3;
            setValue(mean, meanMs, h.found.source());
            mean.detail = detail;
        } else {
            mean.reason = ok ? u"the engine exports no sum for it"_s : reason;
            mean.detail = detail;
        }
        for (const auto &[suffix, quantile] :
             {std::pair{"_p50_ms", 0.5}, std::pair{"_p90_ms", 0.9}, std::pair{"_p99_ms", 0.99}}) {
            EvidenceItem &it = add(qPrintable(p + QLatin1StringView(suffix)));
            if (!ok) {
                it.reason = reason;
                continue;
            }
            if (h.buckets.isEmpty()) {
                it.reason = u"the engine exports no buckets for it (a mean only)"_s;
                continue;
            }
            const double v = ServerEvidence::bucketQuantile(quantile, h.buckets);
            if (std::isnan(v)) {
                it.reason = u"the histogram has no +Inf bucket or fewer than two buckets"_s;
                continue;
            }
            setValue(it, v * 1e3, h.found.source());
            it.detail.insert("observations"_L1, h.count);
        }
        if (outsideName) {
            EvidenceItem &out = add(outsideName);
            if (std::isnan(meanMs))
                out.reason = u"no server mean: "_s + mean.reason;
            else if (std::isnan(clientMeanMs))
                out.reason = u"no client mean given"_s;
            else {
                setValue(out, clientMeanMs - meanMs, h.found.source());
                out.detail.insert("client_mean_ms"_L1, clientMeanMs);
                out.detail.insert("server_mean_ms"_L1, meanMs);
            }
        }
        return meanMs;
    }

    void energy()
    {
        EvidenceItem &e = add("energy_j");
        EvidenceItem &perToken = add("joules_per_output_token");
        double joules = std::numeric_limits<double>::quiet_NaN();
        Found f;
        QString counterReason;
        double delta = 0;
        QJsonObject detail;
        if (counterDelta(ServerQuantity::EnergyJ, &delta, &f, &detail, &counterReason)) {
            joules = delta;
            detail.insert("method"_L1, "energy counter"_L1);
            setValue(e, joules, f.source());
        } else {
            // No counter: integrate the power over the same bracketing scrapes.
            Found p;
            QString reason;
            if (!find(ServerQuantity::PowerW, &p, &reason)) {
                e.reason = u"no energy counter (%1) and no power: %2"_s.arg(counterReason, reason);
            } else {
                qint64 from = 0, to = 0;
                if (!bracket(p, &from, &to, &reason)) {
                    e.reason = reason;
                } else {
                    QList<Point> pts;
                    for (qint64 t : p.ok) {
                        if (t < from || t > to)
                            continue;
                        double sum = 0;
                        int n = 0;
                        for (const MetricSeriesStore::Series *s : p.r.series) {
                            double v;
                            if (valueAt(*s, t, &v) && !std::isnan(v)) {
                                sum += v;
                                ++n;
                            }
                        }
                        if (n)
                            pts.append({t, sum * p.r.selector.scale});
                    }
                    if (pts.size() < 2) {
                        e.reason = u"fewer than two power samples around the window"_s;
                    } else {
                        joules = trapezoidJoules(pts);
                        detail.insert("method"_L1, "integrated power"_L1);
                        detail.insert("from_ns"_L1, from);
                        detail.insert("to_ns"_L1, to);
                        detail.insert("power_samples"_L1, int(pts.size()));
                        setValue(e, joules, p.source());
                    }
                }
            }
        }
        e.detail = detail;
        if (!e.available) {
            perToken.reason = e.reason;
        } else if (m_in.client.outputTokens <= 0) {
            perToken.reason = m_in.client.outputTokens == 0 ? u"the client counted no output "
                                                              "tokens"_s
                                                            : u"no client output tokens given"_s;
        } else {
            setValue(perToken, joules / double(m_in.client.outputTokens), e.source);
            perToken.detail.insert("output_tokens"_L1, double(m_in.client.outputTokens));
        }
    }

    void prefixHitRate()
    {
        EvidenceItem &it = add("prefix_cache_hit_rate");
        double queries = 0, hits = 0;
        Found fq, fh;
        QJsonObject dq, dh;
        QString reason;
        if (!counterDelta(ServerQuantity::PrefixCacheQueries, &queries, &fq, &dq, &reason) ||
            !counterDelta(ServerQuantity::PrefixCacheHits, &hits, &fh, &dh, &reason)) {
            it.reason = reason;
            return;
        }
        if (queries <= 0) {
            it.reason = u"no prefix-cache lookups during the window"_s;
            return;
        }
        setValue(it, hits / queries, fh.source() + u" / "_s + fq.source());
        it.detail.insert("queries"_L1, queries);
        it.detail.insert("hits"_L1, hits);
        if (dq.contains("note"_L1))
            it.detail.insert("note"_L1, dq.value("note"_L1));
    }

    void fbPeak()
    {
        EvidenceItem &it = add("fb_used_peak_bytes");
        Found f;
        if (!find(ServerQuantity::FbUsedBytes, &f, &it.reason))
            return;
        const QList<Point> pts = windowPoints(f);
        if (pts.isEmpty()) {
            it.reason =
                u"no successful scrape of '%1' inside the window"_s.arg(f.store->targetName());
            return;
        }
        double max = pts[0].v;
        for (const Point &p : pts)
            max = std::max(max, p.v);
        setValue(it, max, f.source());
    }

    void meanGauge(ServerQuantity q, const char *name)
    {
        EvidenceItem &it = add(name);
        Found f;
        if (!find(q, &f, &it.reason))
            return;
        const QList<Point> pts = windowPoints(f);
        if (pts.isEmpty()) {
            it.reason =
                u"no successful scrape of '%1' inside the window"_s.arg(f.store->targetName());
            return;
        }
        setValue(it, timeWeightedMean(pts), f.source());
        it.detail.insert("scrapes"_L1, int(pts.size()));
    }

    std::deque<EvidenceItem> m_items;

private:
    struct Live
    {
        const MetricSeriesStore *store;
        ServerEngine engine;
        QList<qint64> ok;
    };
    const EvidenceInput &m_in;
    QList<Live> m_live;
    QStringList m_targetProblems;
};

QJsonObject targetSummary(const MetricSeriesStore &s)
{
    QJsonObject o;
    o.insert("name"_L1, s.targetName());
    o.insert("url"_L1, s.url());
    o.insert("engine"_L1, QString::fromLatin1(serverEngineName(EngineCatalog::detect(s))));
    int ok = 0, malformed = 0;
    QMap<QString, int> failures;
    for (const ScrapeRecord &r : s.scrapes()) {
        malformed += r.malformedLines;
        if (r.ok())
            ++ok;
        else
            ++failures[QString::fromLatin1(scrapeOutcomeName(r.outcome))];
    }
    o.insert("scrapes"_L1, int(s.scrapes().size()));
    o.insert("ok"_L1, ok);
    QJsonObject f;
    for (auto it = failures.cbegin(); it != failures.cend(); ++it)
        f.insert(it.key(), it.value());
    o.insert("failures"_L1, f);
    o.insert("malformed_lines"_L1, malformed);
    o.insert("series"_L1, int(s.series().size()));
    if (ok > 0) {
        o.insert("status"_L1, "available"_L1);
    } else {
        o.insert("status"_L1, "not available"_L1);
        o.insert("reason"_L1, Builder::lastFailure(s));
    }
    return o;
}

} // namespace

double ServerEvidence::bucketQuantile(double q, QList<QPair<double, double>> buckets)
{
    if (std::isnan(q))
        return std::numeric_limits<double>::quiet_NaN();
    if (q < 0)
        return -std::numeric_limits<double>::infinity();
    if (q > 1)
        return std::numeric_limits<double>::infinity();
    if (buckets.isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(buckets.begin(), buckets.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    if (!std::isinf(buckets.back().first) || buckets.back().first < 0)
        return std::numeric_limits<double>::quiet_NaN();
    // Buckets of equal bound add up (coalesceBuckets); counts are forced monotonic
    // (ensureMonotonic): a later bucket never holds fewer observations than an earlier one.
    QList<QPair<double, double>> b;
    for (const auto &x : std::as_const(buckets)) {
        if (!b.isEmpty() && b.back().first == x.first)
            b.back().second += x.second;
        else
            b.append(x);
    }
    for (qsizetype i = 1; i < b.size(); ++i)
        b[i].second = std::max(b[i].second, b[i - 1].second);
    if (b.size() < 2)
        return std::numeric_limits<double>::quiet_NaN();
    const double observations = b.back().second;
    if (observations == 0)
        return std::numeric_limits<double>::quiet_NaN();
    double rank = q * observations;
    qsizetype i = 0;
    while (i < b.size() - 1 && b[i].second < rank)
        ++i;
    if (i == b.size() - 1)
        return b[b.size() - 2].first;
    if (i == 0 && b[0].first <= 0)
        return b[0].first;
    double start = 0, count = b[i].second;
    if (i > 0) {
        start = b[i - 1].first;
        count -= b[i - 1].second;
        rank -= b[i - 1].second;
    }
    return start + (b[i].first - start) * (rank / count);
}

ServerEvidence ServerEvidence::compute(const EvidenceInput &in)
{
    ServerEvidence ev;
    ev.m_window.insert("t0_ns"_L1, in.t0Ns);
    ev.m_window.insert("t1_ns"_L1, in.t1Ns);
    ev.m_window.insert("duration"_L1, ms(in.t1Ns - in.t0Ns));
    for (const MetricSeriesStore *s : in.stores) {
        if (s)
            ev.m_targets.append(targetSummary(*s));
    }
    Builder b(in);
    b.gauge(ServerQuantity::Running, "running_peak", "running_mean");
    b.gauge(ServerQuantity::Waiting, "waiting_peak", "waiting_mean");
    b.gauge(ServerQuantity::KvCacheUsage, "kv_cache_usage_peak", "kv_cache_usage_mean");
    b.counter(ServerQuantity::PreemptionsTotal, "preemptions");
    b.counter(ServerQuantity::PromptTokensTotal, "server_prompt_tokens");
    b.counter(ServerQuantity::GenerationTokensTotal, "server_generation_tokens",
              double(in.client.outputTokens), "client_output_tokens");
    b.counter(ServerQuantity::RequestsTotal, "server_requests", double(in.client.requests),
              "client_requests");
    b.prefixHitRate();
    b.latency(ServerQuantity::Ttft, "server_ttft", in.client.ttftMeanMs, "ttft_outside_engine_ms");
    b.latency(ServerQuantity::Itl, "server_itl", std::numeric_limits<double>::quiet_NaN(), nullptr);
    b.latency(ServerQuantity::E2e, "server_e2e", in.client.e2elMeanMs, "e2e_outside_engine_ms");
    b.meanGauge(ServerQuantity::GpuUtil, "gpu_util_mean");
    b.meanGauge(ServerQuantity::PowerW, "power_mean_w");
    b.energy();
    b.fbPeak();
    ev.m_items = QList<EvidenceItem>(b.m_items.cbegin(), b.m_items.cend());
    return ev;
}

const EvidenceItem *ServerEvidence::item(const QString &name) const
{
    for (const EvidenceItem &it : m_items) {
        if (it.name == name)
            return &it;
    }
    return nullptr;
}

QString ServerEvidence::definition(const QString &name)
{
    const Definition *d = findDefinition(name);
    return d ? QString::fromLatin1(d->text) : QString();
}

QStringList ServerEvidence::names()
{
    QStringList out;
    for (const Definition &d : kDefinitions)
        out.append(QString::fromLatin1(d.name));
    return out;
}

QJsonObject ServerEvidence::toJson() const
{
    QJsonObject root;
    root.insert("window"_L1, m_window);
    QJsonArray targets;
    for (const QJsonObject &t : m_targets)
        targets.append(t);
    root.insert("targets"_L1, targets);
    QJsonObject evidence;
    QJsonObject definitions;
    for (const EvidenceItem &it : m_items) {
        QJsonObject o = it.detail;
        o.insert("available"_L1, it.available);
        o.insert("unit"_L1, it.unit);
        if (it.available) {
            o.insert("value"_L1, it.value);
            o.insert("source"_L1, it.source);
        } else {
            o.insert("reason"_L1, it.reason);
        }
        evidence.insert(it.name, o);
        definitions.insert(it.name, definition(it.name));
    }
    root.insert("evidence"_L1, evidence);
    root.insert("definitions"_L1, definitions);
    return root;
}

} // namespace sb
