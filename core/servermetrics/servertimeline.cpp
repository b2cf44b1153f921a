#include "servertimeline.h"

#include "metricseriesstore.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sb {

namespace {

double combinedAt(const ResolvedQuantity &r, qint64 tNs)
{
    const bool mean = EngineCatalog::aggregation(r.quantity) == QuantityAggregation::Mean;
    double sum = 0;
    int n = 0;
    for (const MetricSeriesStore::Series *s : r.series) {
        const auto it = std::lower_bound(s->tNs.cbegin(), s->tNs.cend(), tNs);
        if (it == s->tNs.cend() || *it != tNs)
            continue;
        const double v = s->values[it - s->tNs.cbegin()];
        if (std::isnan(v))
            continue;
        sum += v;
        ++n;
    }
    if (n == 0)
        return std::numeric_limits<double>::quiet_NaN();
    return (mean ? sum / n : sum) * r.selector.scale;
}

} // namespace

double quantityAt(const MetricSeriesStore &store, ServerEngine engine, ServerQuantity q, qint64 tNs)
{
    ResolvedQuantity r;
    if (EngineCatalog::kind(q) == QuantityKind::Histogram ||
        !EngineCatalog::resolve(store, engine, q, &r))
        return std::numeric_limits<double>::quiet_NaN();
    return combinedAt(r, tNs);
}

ServerGaugeSample gaugeSample(const MetricSeriesStore &store, qint64 tNs)
{
    ServerGaugeSample g;
    g.tNs = tNs;
    const ServerEngine engine = EngineCatalog::detect(store);
    const ServerQuantity qs[ServerGaugeSample::Count] = {
        ServerQuantity::Running, ServerQuantity::Waiting, ServerQuantity::KvCacheUsage,
        ServerQuantity::GpuUtil, ServerQuantity::PowerW};
    for (int i = 0; i < ServerGaugeSample::Count; ++i)
        g.values[size_t(i)] = quantityAt(store, engine, qs[i], tNs);
    return g;
}

ServerTimelineSeries serverTimeline(const QList<MetricSeriesStore> &stores, ServerQuantity q)
{
    ServerTimelineSeries out;
    out.quantity = q;
    if (EngineCatalog::kind(q) == QuantityKind::Histogram)
        return out;
    for (const MetricSeriesStore &store : stores) {
        ResolvedQuantity r;
        if (!EngineCatalog::resolve(store, EngineCatalog::detect(store), q, &r))
            continue;
        for (const ScrapeRecord &rec : store.scrapes()) {
            if (!rec.ok())
                continue;
            const double v = combinedAt(r, rec.tNs);
            if (!std::isnan(v))
                out.points.append({rec.tNs, v});
        }
        if (out.points.isEmpty())
            continue;
        out.target = store.targetName();
        out.series = QString::fromUtf8(r.selector.name);
        return out;
    }
    return out;
}

} // namespace sb
