#include "cacheaudit.h"

#include "stats.h"

#include "common/specialfunctions.h"

#include <QHash>
#include <QJsonArray>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

double studentTCdf(double t, double df)
{
    const double tail = 0.5 * regularizedIncompleteBetaCf(df / (df + t * t), df / 2, 0.5);
    return t >= 0 ? 1 - tail : tail;
}

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

QString fixed(double v, int decimals = 2)
{
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : u"n/a"_s;
}

// vLLM's "{:<40} {:<10}".
QString line(const QString &label, const QString &value)
{
    return label.leftJustified(40) + u' ' + value + u'\n';
}

QString centered(const QString &text, QChar fill)
{
    constexpr qsizetype width = 50;
    const qsizetype pad = width - text.size();
    if (pad <= 0)
        return text + u'\n';
    return QString(pad / 2, fill) + text + QString(pad - pad / 2, fill) + u'\n';
}

// Greedy word wrap for the prose lines of the report.
QString wrapped(const QString &text, qsizetype width = 78)
{
    QString out, current;
    const QStringList words = text.split(u' ', Qt::SkipEmptyParts);
    for (const QString &w : words) {
        if (!current.isEmpty() && current.size() + 1 + w.size() > width) {
            out += current + u'\n';
            current.clear();
        }
        current += (current.isEmpty() ? QString() : u" "_s) + w;
    }
    if (!current.isEmpty())
        out += current + u'\n';
    return out;
}

bool hasTtft(const RequestRecord &r)
{
    return !r.warmup && r.ok() && r.tSend > 0 && r.tFirst > r.tSend;
}

double ttftMs(const RequestRecord &r)
{
    return double(r.tFirst - r.tSend) / 1e6;
}

qint64 pairKey(const RequestRecord &r)
{
    return r.datasetItem >= 0 ? r.datasetItem : r.index;
}

CacheAuditPass summarizePass(const QString &name, const QString &description,
                             const QList<RequestRecord> &records)
{
    CacheAuditPass p;
    p.name = name;
    p.description = description;
    QList<double> ttfts;
    for (const RequestRecord &r : records) {
        if (r.warmup)
            continue;
        ++p.requests;
        if (!hasTtft(r))
            continue;
        ttfts.append(ttftMs(r));
        if (r.cachedTokens >= 0) {
            ++p.cachedReported;
            p.cachedTokens += r.cachedTokens;
        }
    }
    p.succeeded = ttfts.size();
    if (!ttfts.isEmpty()) {
        const MetricStats s = computeStats(ttfts, {});
        p.meanTtftMs = s.mean;
        p.medianTtftMs = s.median;
    }
    return p;
}

} // namespace

const char *cacheVerdictKey(CacheVerdict v)
{
    switch (v) {
    case CacheVerdict::Detected:
        return "detected";
    case CacheVerdict::NotDetected:
        return "not-detected";
    case CacheVerdict::Inconclusive:
        return "inconclusive";
    }
    return "inconclusive";
}

QString cacheVerdictText(CacheVerdict v)
{
    switch (v) {
    case CacheVerdict::Detected:
        return u"prefix cache detected"_s;
    case CacheVerdict::NotDetected:
        return u"no prefix-cache effect detected"_s;
    case CacheVerdict::Inconclusive:
        return u"inconclusive"_s;
    }
    return u"inconclusive"_s;
}

double studentTQuantile(double p, double df)
{
    if (!(p > 0 && p < 1) || !(df > 0))
        return std::numeric_limits<double>::quiet_NaN();
    if (p == 0.5)
        return 0;
    if (p < 0.5)
        return -studentTQuantile(1 - p, df);
    double lo = 0, hi = 1;
    while (studentTCdf(hi, df) < p && hi < 1e12)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = (lo + hi) / 2;
        (studentTCdf(mid, df) < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

QJsonObject CacheAuditPass::toJson() const
{
    return QJsonObject{
        {u"pass"_s, name},
        {u"description"_s, description},
        {u"requests"_s, requests},
        {u"successful"_s, succeeded},
        {u"mean_ttft_ms"_s, number(meanTtftMs)},
        {u"median_ttft_ms"_s, number(medianTtftMs)},
        // null, not 0, when the server never reported it: "no cache hits" and "cannot tell"
        // are different answers.
        {u"cached_tokens"_s, cachedTokensReported() ? QJsonValue(cachedTokens) : QJsonValue()},
        {u"cached_tokens_reported_by"_s, cachedReported},
    };
}

bool CacheAuditResult::hasInterval() const
{
    return pairs >= 2 && std::isfinite(ciLow) && std::isfinite(ciHigh);
}

QString CacheAuditResult::methodText()
{
    return u"paired by prompt: d_i = ln(TTFT_B,i / TTFT_C,i); ratio = exp(mean d); "
           "95% CI = exp(mean d +- t(0.975, n-1) * s / sqrt(n)), s = sample standard deviation "
           "of d (Student's t)"_s;
}

QString CacheAuditResult::meaning() const
{
    switch (verdict) {
    case CacheVerdict::Detected:
        return u"The server reuses cached prompt prefixes: a prompt it has seen recently gets a "
               "faster first token. A run that repeats prompts (the same dataset run twice against "
               "this server, warm-up drawn from the measured prompts, sampling with replacement) "
               "measures the cache rather than prefill and looks better than a fresh workload. "
               "Use --cache-bust on runs that repeat prompts, and record whether the cache was "
               "cold or warm."_s;
    case CacheVerdict::NotDetected:
        return u"Repeating a prompt did not lower TTFT measurably and no cached tokens were "
               "reported: the server has no prefix cache, it is off, or prefill at this prompt "
               "length is too cheap to show. Repeated prompts are unlikely to flatter results at "
               "this length; --cache-bust still keeps repeated runs independent."_s;
    case CacheVerdict::Inconclusive:
        break;
    }
    return u"The evidence is mixed: the interval excludes 1 without lying below 0.9, or there "
           "are too few paired prompts. Rerun with more prompts (--num-prompts) or longer ones "
           "(--random-input-len); until then use --cache-bust on runs that repeat prompts."_s;
}

QJsonObject CacheAuditResult::toJson() const
{
    return QJsonObject{
        {u"passes"_s, QJsonArray{cold.toJson(), warm.toJson(), control.toJson()}},
        {u"ttft_ratio_b_over_c"_s, QJsonObject{{u"pairs"_s, pairs},
                                               {u"ratio"_s, number(ratio)},
                                               {u"confidence"_s, kConfidence},
                                               {u"ci_low"_s, number(ciLow)},
                                               {u"ci_high"_s, number(ciHigh)},
                                               {u"mean_log_ratio"_s, number(meanLogRatio)},
                                               {u"sd_log_ratio"_s, number(sdLogRatio)},
                                               {u"t_quantile"_s, number(tQuantile)},
                                               {u"method"_s, methodText()}}},
        {u"detect_below"_s, kDetectBelow},
        {u"verdict"_s, cacheVerdictText(verdict)},
        {u"verdict_key"_s, QString::fromLatin1(cacheVerdictKey(verdict))},
        {u"meaning"_s, meaning()},
    };
}

QString CacheAuditResult::formatText() const
{
    QString out = centered(u" Prefix-cache audit "_s, u'=');
    for (const CacheAuditPass *p : {&cold, &warm, &control}) {
        out += centered(u"Pass %1: %2"_s.arg(p->name, p->description), u'-');
        out += line(u"Successful requests:"_s, u"%1 of %2"_s.arg(p->succeeded).arg(p->requests));
        out += line(u"Mean TTFT (ms):"_s, fixed(p->meanTtftMs));
        out += line(u"Median TTFT (ms):"_s, fixed(p->medianTtftMs));
        out += line(u"Cached prompt tokens:"_s,
                    p->cachedTokensReported()
                        ? u"%1 (reported by %2 of %3 requests)"_s.arg(p->cachedTokens)
                              .arg(p->cachedReported)
                              .arg(p->succeeded)
                        : u"not reported"_s);
    }
    out += centered(u"Warm (B) versus control (C)"_s, u'-');
    out += line(u"Paired prompts:"_s, QString::number(pairs));
    out += line(u"TTFT ratio B/C (geometric mean):"_s, fixed(ratio, 3));
    out += line(u"95% confidence interval:"_s,
                hasInterval() ? u"[%1, %2]"_s.arg(fixed(ciLow, 3), fixed(ciHigh, 3))
                              : u"n/a (needs at least 2 paired prompts)"_s);
    out += wrapped(u"Method: "_s + methodText() + u'.');
    out += centered(QString(), u'=');
    out += u"Verdict: "_s + cacheVerdictText(verdict) + u'\n';
    out += wrapped(meaning());
    return out;
}

CacheAuditResult auditCache(const QList<RequestRecord> &cold, const QList<RequestRecord> &warm,
                            const QList<RequestRecord> &control)
{
    CacheAuditResult res;
    res.cold = summarizePass(u"A"_s, u"cold, new unique prefixes"_s, cold);
    res.warm = summarizePass(u"B"_s, u"warm, A's prompts repeated"_s, warm);
    res.control = summarizePass(u"C"_s, u"control, new unique prefixes"_s, control);

    QHash<qint64, double> controlTtft;
    for (const RequestRecord &r : control) {
        if (hasTtft(r) && !controlTtft.contains(pairKey(r)))
            controlTtft.insert(pairKey(r), ttftMs(r));
    }
    QList<double> d;
    QHash<qint64, bool> used;
    for (const RequestRecord &r : warm) {
        const qint64 key = pairKey(r);
        if (!hasTtft(r) || used.contains(key) || !controlTtft.contains(key))
            continue;
        used.insert(key, true);
        d.append(std::log(ttftMs(r) / controlTtft.value(key)));
    }
    res.pairs = d.size();
    if (res.pairs >= 1) {
        double sum = 0;
        for (const double v : std::as_const(d))
            sum += v;
        res.meanLogRatio = sum / double(res.pairs);
        res.ratio = std::exp(res.meanLogRatio);
    }
    if (res.pairs >= 2) {
        double ss = 0;
        for (const double v : std::as_const(d))
            ss += (v - res.meanLogRatio) * (v - res.meanLogRatio);
        res.sdLogRatio = std::sqrt(ss / double(res.pairs - 1));
        res.tQuantile =
            studentTQuantile(0.5 + CacheAuditResult::kConfidence / 2, double(res.pairs - 1));
        const double half = res.tQuantile * res.sdLogRatio / std::sqrt(double(res.pairs));
        res.ciLow = std::exp(res.meanLogRatio - half);
        res.ciHigh = std::exp(res.meanLogRatio + half);
    }

    const bool warmCached = res.warm.cachedTokens > 0;
    if ((res.hasInterval() && res.ciHigh < CacheAuditResult::kDetectBelow) || warmCached)
        res.verdict = CacheVerdict::Detected;
    else if (res.hasInterval() && res.ciLow <= 1.0 && res.ciHigh >= 1.0)
        res.verdict = CacheVerdict::NotDetected;
    else
        res.verdict = CacheVerdict::Inconclusive;
    return res;
}

} // namespace sb
