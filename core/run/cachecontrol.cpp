#include "cachecontrol.h"

#include "client/endpointprobe.h"
#include "config/runplan.h"
#include "servermetrics/enginecatalog.h"
#include "servermetrics/metricseriesstore.h"
#include "servermetrics/promparser.h"

#include <QElapsedTimer>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

double lastSum(const QList<const MetricSeriesStore::Series *> &series)
{
    double sum = 0;
    for (const MetricSeriesStore::Series *s : series)
        if (!s->values.isEmpty())
            sum += s->values.last();
    return sum;
}

QString engineOf(const SutConfig &sut)
{
    const QString e = sut.engine.toLower();
    if (e.contains("sglang"_L1))
        return u"sglang"_s;
    if (e.contains("vllm"_L1))
        return u"vllm"_s;
    return {};
}

} // namespace

QJsonObject PrefixCounters::toJson() const
{
    if (!available)
        return QJsonObject{{u"available"_s, false}, {u"engine"_s, engine}, {u"why"_s, why}};
    return QJsonObject{{u"available"_s, true},
                       {u"engine"_s, engine},
                       {u"queries"_s, queries},
                       {u"hits"_s, hits}};
}

PrefixCounters readPrefixCounters(EndpointProbe &probe)
{
    PrefixCounters c;
    const ProbeReply r = probe.get(u"/metrics"_s);
    if (!r.answered || r.status != 200) {
        c.why = r.answered ? u"/metrics answered HTTP %1"_s.arg(r.status)
                           : u"/metrics did not answer: %1"_s.arg(r.error);
        return c;
    }
    const PromParseResult parsed = PromParser::parse(r.body);
    MetricSeriesStore store;
    ScrapeRecord rec;
    rec.tNs = r.sendNs;
    rec.httpStatus = r.status;
    rec.bytes = r.body.size();
    store.addScrape(rec, &parsed);
    const ServerEngine engine = EngineCatalog::detect(store);
    c.engine = QString::fromLatin1(serverEngineName(engine));
    ResolvedQuantity queries, hits;
    if (!EngineCatalog::resolve(store, engine, ServerQuantity::PrefixCacheQueries, &queries) ||
        !EngineCatalog::resolve(store, engine, ServerQuantity::PrefixCacheHits, &hits)) {
        c.why = u"the server's /metrics exports no prefix-cache counters"_s;
        return c;
    }
    c.available = true;
    c.queries = lastSum(queries.series);
    c.hits = lastSum(hits.series);
    return c;
}

QJsonObject CacheResetOutcome::toJson() const
{
    QJsonObject o{{u"done"_s, done},
                  {u"engine"_s, engine},
                  {u"endpoint"_s, endpoint},
                  {u"http_status"_s, httpStatus}};
    if (done)
        o.insert(u"ms"_s, ms);
    else
        o.insert(u"detail"_s, detail);
    o.insert(u"counters_at_reset"_s, atReset.toJson());
    return o;
}

CacheResetOutcome resetPrefixCache(EndpointProbe &probe, const SutConfig &sut)
{
    CacheResetOutcome out;
    out.engine = engineOf(sut);
    if (out.engine.isEmpty()) {
        // Not stated: the engine its metrics name, when they name one we know a reset of.
        const PrefixCounters c = readPrefixCounters(probe);
        if (c.engine == "vllm"_L1 || c.engine == "sglang"_L1)
            out.engine = c.engine;
    }
    QStringList paths{u"/reset_prefix_cache"_s, u"/flush_cache"_s};
    if (out.engine == "sglang"_L1)
        std::swap(paths[0], paths[1]);
    QStringList missing;
    for (const QString &path : std::as_const(paths)) {
        QElapsedTimer t;
        t.start();
        const ProbeReply r = probe.postJson(path, QByteArray());
        const double ms = double(t.nsecsElapsed()) / 1e6;
        out.endpoint = path;
        out.httpStatus = r.answered ? r.status : 0;
        if (!r.answered) {
            out.detail = u"POST %1 did not answer: %2"_s.arg(path, r.error);
            return out;
        }
        if (r.status >= 200 && r.status < 300) {
            out.done = true;
            out.ms = ms;
            out.atReset = readPrefixCounters(probe);
            return out;
        }
        if (r.status == 404 || r.status == 405) {
            missing << u"POST %1: HTTP %2"_s.arg(path).arg(r.status);
            continue;
        }
        out.detail = u"the server refused the reset: POST %1 answered HTTP %2 %3"_s.arg(
            path, QString::number(r.status), r.excerpt());
        return out;
    }
    out.detail = u"the server has no prefix-cache reset (%1)"_s.arg(missing.join(u"; "_s));
    return out;
}

QJsonObject verifyCacheReset(const PrefixCounters &atReset, const PrefixCounters &after,
                             qint64 requests, qint64 cachedTokensReported)
{
    QJsonObject o{{u"first_requests"_s, requests}};
    if (cachedTokensReported >= 0)
        o.insert(u"cached_tokens_reported"_s, cachedTokensReported);
    if (atReset.available && after.available) {
        const double q = after.queries - atReset.queries;
        const double h = after.hits - atReset.hits;
        o.insert(u"queries"_s, q);
        o.insert(u"hits"_s, h);
        if (q > 0) {
            const double ratio = h / q;
            o.insert(u"hit_ratio"_s, ratio);
            o.insert(u"verdict"_s, ratio <= kColdHitRatio ? u"cold"_s : u"warm"_s);
        } else {
            o.insert(u"verdict"_s, u"unverified"_s);
            o.insert(u"why"_s, u"the counters saw no lookup"_s);
        }
        o.insert(u"source"_s, u"engine counters"_s);
        return o;
    }
    o.insert(u"why_no_counters"_s, !atReset.available ? atReset.why : after.why);
    if (cachedTokensReported >= 0) {
        o.insert(u"verdict"_s, cachedTokensReported == 0 ? u"cold"_s : u"warm"_s);
        o.insert(u"source"_s, u"usage cached_tokens"_s);
    } else {
        o.insert(u"verdict"_s, u"unverified"_s);
    }
    return o;
}

} // namespace sb
