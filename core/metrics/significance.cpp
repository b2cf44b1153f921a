#include "significance.h"

#include "cacheaudit.h"
#include "prng.h"

#include <QJsonArray>
#include <QJsonValue>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

struct Moments
{
    qint64 n = 0;
    double mean = kNaN;
    double var = kNaN; // sample variance (n - 1)
};

Moments moments(std::span<const double> v)
{
    Moments m;
    m.n = qint64(v.size());
    if (m.n == 0)
        return m;
    double s = 0;
    for (double x : v)
        s += x;
    m.mean = s / double(m.n);
    if (m.n > 1) {
        double ss = 0;
        for (double x : v)
            ss += (x - m.mean) * (x - m.mean);
        m.var = ss / double(m.n - 1);
    }
    return m;
}

Difference notAvailable(Difference d, const QString &reason)
{
    d.verdict = Verdict::NotAvailable;
    d.reason = reason;
    d.absolute =
        Interval::unavailable(d.absolute.method, reason, d.nCandidate + d.nBaseline, d.confidence);
    d.relative =
        Interval::unavailable(d.relative.method, reason, d.nCandidate + d.nBaseline, d.confidence);
    return d;
}

Interval makeInterval(double estimate, double lo, double hi, double confidence,
                      const QString &method, qint64 n)
{
    Interval i;
    i.available = std::isfinite(lo) && std::isfinite(hi);
    i.estimate = estimate;
    i.lo = lo;
    i.hi = hi;
    i.confidence = confidence;
    i.method = method;
    i.n = n;
    if (!i.available)
        i.reason = u"the interval is not finite"_s;
    return i;
}

// Welch on two groups given their moments; `unit` names what the samples are.
Difference welch(const Moments &c, const Moments &b, Direction direction, double confidence,
                 const QString &statistic, const QString &unit)
{
    Difference d;
    d.statistic = statistic;
    d.unit = unit;
    d.direction = direction;
    d.confidence = confidence;
    d.candidate = c.mean;
    d.baseline = b.mean;
    d.nCandidate = c.n;
    d.nBaseline = b.n;
    d.absolute.method = u"welch-t"_s;
    d.relative.method = u"welch-t, delta method on the ratio of means"_s;
    if (!(confidence > 0 && confidence < 1))
        return notAvailable(d, u"confidence must lie strictly between 0 and 1"_s);
    if (c.n < 2 || b.n < 2)
        return notAvailable(
            d, u"needs at least 2 %1 on each side (candidate %2, baseline %3)"_s.arg(unit)
                   .arg(c.n)
                   .arg(b.n));
    const double vc = c.var / double(c.n);
    const double vb = b.var / double(b.n);
    d.varianceCandidate = vc;
    d.varianceBaseline = vb;
    const double se = std::sqrt(vc + vb);
    // Welch-Satterthwaite; with no spread at all the pooled df keeps the quantile finite.
    const double df = (vc + vb) > 0 ? (vc + vb) * (vc + vb) /
                                          (vc * vc / double(c.n - 1) + vb * vb / double(b.n - 1))
                                    : double(c.n + b.n - 2);
    const double t = studentTQuantile(0.5 + confidence / 2, df);
    const double diff = c.mean - b.mean;
    const qint64 n = c.n + b.n;
    d.absolute = makeInterval(diff, diff - t * se, diff + t * se, confidence, d.absolute.method, n);
    if (b.mean != 0) {
        const double r = c.mean / b.mean;
        // Delta method for a ratio of independent means: Var(r) ~ (vc + r^2 vb) / b^2.
        const double seRatio = std::sqrt(vc + r * r * vb) / std::fabs(b.mean);
        d.relative = makeInterval(r - 1, r - 1 - t * seRatio, r - 1 + t * seRatio, confidence,
                                  d.relative.method, n);
    } else {
        d.relative =
            Interval::unavailable(d.relative.method, u"the baseline mean is 0"_s, n, confidence);
    }
    d.verdict = verdictFor(d.absolute, direction);
    return d;
}

QString statisticName(double percent)
{
    return u'p' + percentileWord(percent);
}

} // namespace

const char *verdictKey(Verdict v)
{
    switch (v) {
    case Verdict::Better:
        return "better";
    case Verdict::Worse:
        return "worse";
    case Verdict::NoDetectableDifference:
        return "no-detectable-difference";
    case Verdict::NotAvailable:
        return "not-available";
    }
    return "not-available";
}

QString verdictText(Verdict v, double confidence)
{
    switch (v) {
    case Verdict::Better:
        return u"better"_s;
    case Verdict::Worse:
        return u"worse"_s;
    case Verdict::NoDetectableDifference:
        return u"no detectable difference at "_s + confidenceText(confidence);
    case Verdict::NotAvailable:
        return u"not available"_s;
    }
    return u"not available"_s;
}

Verdict verdictFor(const Interval &abs, Direction direction)
{
    if (!abs.available)
        return Verdict::NotAvailable;
    const bool lowerIsBetter = direction == Direction::LowerIsBetter;
    if (abs.lo > 0)
        return lowerIsBetter ? Verdict::Worse : Verdict::Better;
    if (abs.hi < 0)
        return lowerIsBetter ? Verdict::Better : Verdict::Worse;
    return Verdict::NoDetectableDifference;
}

QJsonObject Difference::toJson() const
{
    QJsonObject o{{u"statistic"_s, statistic},
                  {u"unit"_s, unit},
                  {u"lower_is_better"_s, direction == Direction::LowerIsBetter},
                  {u"confidence"_s, confidence},
                  {u"candidate"_s, number(candidate)},
                  {u"baseline"_s, number(baseline)},
                  {u"n_candidate"_s, nCandidate},
                  {u"n_baseline"_s, nBaseline},
                  {u"difference"_s, absolute.toJson()},
                  {u"relative_difference"_s, relative.toJson()},
                  {u"verdict"_s, QString::fromLatin1(verdictKey(verdict))},
                  {u"verdict_text"_s, verdictText(verdict, confidence)}};
    if (verdict == Verdict::NotAvailable)
        o.insert(u"reason"_s, reason);
    return o;
}

Difference compareMeans(std::span<const double> candidate, std::span<const double> baseline,
                        Direction direction, double confidence)
{
    return welch(moments(candidate), moments(baseline), direction, confidence, u"mean"_s,
                 u"requests"_s);
}

Difference compareMeans(const QList<double> &candidate, const QList<double> &baseline,
                        Direction direction, double confidence)
{
    return compareMeans(std::span<const double>(candidate.constData(), size_t(candidate.size())),
                        std::span<const double>(baseline.constData(), size_t(baseline.size())),
                        direction, confidence);
}

Difference compareSeries(const QList<double> &candidateRuns, const QList<double> &baselineRuns,
                         Direction direction, double confidence)
{
    return welch(
        moments(std::span<const double>(candidateRuns.constData(), size_t(candidateRuns.size()))),
        moments(std::span<const double>(baselineRuns.constData(), size_t(baselineRuns.size()))),
        direction, confidence, u"mean over runs"_s, u"runs"_s);
}

Difference differenceFromReplicates(Difference d, const std::vector<double> &rc,
                                    const std::vector<double> &rb, const QString &zeroBaseline)
{
    std::vector<double> diff(rc.size()), rel;
    rel.reserve(rc.size());
    bool relOk = true;
    for (size_t i = 0; i < rc.size(); ++i) {
        diff[i] = rc[i] - rb[i];
        if (rb[i] == 0)
            relOk = false;
        else
            rel.push_back(rc[i] / rb[i] - 1);
    }
    const double se_c = replicateStandardError(rc);
    const double se_b = replicateStandardError(rb);
    d.varianceCandidate = se_c * se_c;
    d.varianceBaseline = se_b * se_b;
    const qint64 n = d.nCandidate + d.nBaseline;
    d.absolute = intervalFromReplicates(std::move(diff), d.candidate - d.baseline, d.confidence,
                                        d.absolute.method, n);
    if (relOk && d.baseline != 0)
        d.relative = intervalFromReplicates(std::move(rel), d.candidate / d.baseline - 1,
                                            d.confidence, d.relative.method, n);
    else
        d.relative = Interval::unavailable(d.relative.method, zeroBaseline, n, d.confidence);
    d.verdict = verdictFor(d.absolute, d.direction);
    if (d.verdict == Verdict::NotAvailable)
        d.reason = d.absolute.reason;
    return d;
}

namespace {

Difference fromReplicates(Difference d, const std::vector<double> &rc,
                          const std::vector<double> &rb)
{
    return differenceFromReplicates(std::move(d), rc, rb,
                                    u"the baseline percentile is 0 in some resample"_s);
}

QString tooFewReason(double percent, double confidence, qint64 need, qint64 nc, qint64 nb,
                     const QString &unit)
{
    return u"p%1 needs at least %2 %3 a side for a %4 interval (candidate %5, baseline %6)"_s
        .arg(percentileWord(percent))
        .arg(need)
        .arg(unit)
        .arg(confidenceText(confidence))
        .arg(nc)
        .arg(nb);
}

} // namespace

Difference comparePercentiles(std::span<const double> candidate, std::span<const double> baseline,
                              double percent, Direction direction, double confidence,
                              const PercentileComparisonOptions &options)
{
    Difference d;
    d.statistic = statisticName(percent);
    d.unit = u"requests"_s;
    d.direction = direction;
    d.confidence = confidence;
    d.nCandidate = qint64(candidate.size());
    d.nBaseline = qint64(baseline.size());
    d.absolute.method = u"bootstrap-percentile, two-sample"_s;
    d.relative.method = d.absolute.method;
    if (!(confidence > 0 && confidence < 1))
        return notAvailable(d, u"confidence must lie strictly between 0 and 1"_s);
    std::vector<double> c(candidate.begin(), candidate.end());
    std::vector<double> b(baseline.begin(), baseline.end());
    if (!c.empty())
        d.candidate = percentileOfUnsorted(c, percent, options.method);
    if (!b.empty())
        d.baseline = percentileOfUnsorted(b, percent, options.method);
    const qint64 need = minimumSamplesForPercentile(percent, confidence);
    if (need == 0)
        return notAvailable(d, u"no distribution-free interval exists for %1"_s.arg(d.statistic));
    if (d.nCandidate < need || d.nBaseline < need)
        return notAvailable(
            d, tooFewReason(percent, confidence, need, d.nCandidate, d.nBaseline, u"requests"_s));

    const double draws = double(options.bootstrap.resamples) * double(d.nCandidate + d.nBaseline);
    if (draws > double(options.maxBootstrapDraws)) {
        // Large samples: each side's standard error from its exact order-statistic interval,
        // which is about +- z standard errors wide once n is large.
        d.absolute.method = u"normal approximation, order-statistic standard errors"_s;
        d.relative.method = u"normal approximation, delta method on the ratio"_s;
        const Interval ic = percentileInterval(candidate, percent, confidence, options.method);
        const Interval ib = percentileInterval(baseline, percent, confidence, options.method);
        const double z = normalQuantile(0.5 + confidence / 2);
        const double sc = (ic.hi - ic.lo) / (2 * z);
        const double sb = (ib.hi - ib.lo) / (2 * z);
        d.varianceCandidate = sc * sc;
        d.varianceBaseline = sb * sb;
        const double diff = d.candidate - d.baseline;
        const double se = std::sqrt(sc * sc + sb * sb);
        const qint64 n = d.nCandidate + d.nBaseline;
        d.absolute =
            makeInterval(diff, diff - z * se, diff + z * se, confidence, d.absolute.method, n);
        if (d.baseline != 0) {
            const double r = d.candidate / d.baseline;
            const double seR = std::sqrt(sc * sc + r * r * sb * sb) / std::fabs(d.baseline);
            d.relative = makeInterval(r - 1, r - 1 - z * seR, r - 1 + z * seR, confidence,
                                      d.relative.method, n);
        } else {
            d.relative = Interval::unavailable(d.relative.method, u"the baseline percentile is 0"_s,
                                               n, confidence);
        }
        d.verdict = verdictFor(d.absolute, direction);
        return d;
    }

    // One generator for both sides, candidate first in every replicate: reproducible bit for bit.
    Prng rng(options.bootstrap.seed);
    const int B = options.bootstrap.resamples;
    std::vector<double> rc, rb;
    rc.reserve(size_t(B));
    rb.reserve(size_t(B));
    std::vector<double> bufC(c.size()), bufB(b.size());
    for (int i = 0; i < B; ++i) {
        for (double &x : bufC)
            x = candidate[size_t(rng.below(candidate.size()))];
        for (double &x : bufB)
            x = baseline[size_t(rng.below(baseline.size()))];
        rc.push_back(percentileOfUnsorted(bufC, percent, options.method));
        rb.push_back(percentileOfUnsorted(bufB, percent, options.method));
    }
    return fromReplicates(d, rc, rb);
}

Difference comparePercentiles(const QList<double> &candidate, const QList<double> &baseline,
                              double percent, Direction direction, double confidence,
                              const PercentileComparisonOptions &options)
{
    return comparePercentiles(
        std::span<const double>(candidate.constData(), size_t(candidate.size())),
        std::span<const double>(baseline.constData(), size_t(baseline.size())), percent, direction,
        confidence, options);
}

Difference comparePercentilesClustered(const QList<QList<double>> &candidate,
                                       const QList<QList<double>> &baseline, double percent,
                                       Direction direction, double confidence,
                                       const PercentileComparisonOptions &options)
{
    Difference d;
    d.statistic = statisticName(percent);
    d.unit = u"requests (clustered)"_s;
    d.direction = direction;
    d.confidence = confidence;
    d.nCandidate = candidate.size();
    d.nBaseline = baseline.size();
    d.absolute.method = u"bootstrap-percentile, two-sample, resampling clusters"_s;
    d.relative.method = d.absolute.method;
    if (!(confidence > 0 && confidence < 1))
        return notAvailable(d, u"confidence must lie strictly between 0 and 1"_s);
    const auto pool = [](const QList<QList<double>> &cl) {
        std::vector<double> v;
        for (const QList<double> &c : cl)
            v.insert(v.end(), c.cbegin(), c.cend());
        return v;
    };
    std::vector<double> pc = pool(candidate), pb = pool(baseline);
    if (!pc.empty())
        d.candidate = percentileOfUnsorted(pc, percent, options.method);
    if (!pb.empty())
        d.baseline = percentileOfUnsorted(pb, percent, options.method);
    const qint64 need = minimumSamplesForPercentile(percent, confidence);
    if (need == 0)
        return notAvailable(d, u"no distribution-free interval exists for %1"_s.arg(d.statistic));
    if (qint64(pc.size()) < need || qint64(pb.size()) < need)
        return notAvailable(d, tooFewReason(percent, confidence, need, qint64(pc.size()),
                                            qint64(pb.size()), u"pooled values"_s));
    if (d.nCandidate < 2 || d.nBaseline < 2)
        return notAvailable(d, u"needs at least 2 clusters a side"_s);
    const Statistic stat = [percent, m = options.method](std::span<double> v) {
        return percentileOfUnsorted(v, percent, m);
    };
    // Candidate replicates first, then baseline, from one seeded stream.
    Prng rng(options.bootstrap.seed);
    const std::vector<double> rc =
        bootstrapReplicatesClustered(candidate, stat, options.bootstrap.resamples, rng);
    const std::vector<double> rb =
        bootstrapReplicatesClustered(baseline, stat, options.bootstrap.resamples, rng);
    return fromReplicates(d, rc, rb);
}

// --- sample-size hint -------------------------------------------------------------------------

QJsonObject SampleSizeHint::toJson() const
{
    QJsonObject o{{u"available"_s, available},
                  {u"relative_difference"_s, relativeDifference},
                  {u"absolute_difference"_s, number(absoluteDifference)},
                  {u"confidence"_s, confidence},
                  {u"power"_s, power},
                  {u"per_side"_s, available ? QJsonValue(perSide) : QJsonValue()},
                  {u"unit"_s, unit}};
    if (!available)
        o.insert(u"reason"_s, reason);
    return o;
}

QString SampleSizeHint::text() const
{
    const QString what = QString::number(relativeDifference * 100, 'g', 3) + u" %"_s;
    if (!available)
        return u"no estimate of the %1 needed to detect a %2 difference: %3"_s.arg(unit, what,
                                                                                   reason);
    return u"about %1 %2 per side would detect a %3 difference (%4 confidence, %5 power)"_s
        .arg(perSide)
        .arg(unit, what, confidenceText(confidence),
             QString::number(power * 100, 'g', 3) + u" %"_s);
}

SampleSizeHint samplesNeeded(const Difference &d, double relativeDifference, double power)
{
    SampleSizeHint h;
    h.relativeDifference = relativeDifference;
    h.confidence = d.confidence;
    h.power = power;
    h.unit = d.unit;
    const double delta = std::fabs(relativeDifference * d.baseline);
    h.absoluteDifference = delta;
    if (!(relativeDifference != 0) || !std::isfinite(relativeDifference)) {
        h.reason = u"the relative difference must be a non-zero number"_s;
        return h;
    }
    if (!(power > 0 && power < 1)) {
        h.reason = u"power must lie strictly between 0 and 1"_s;
        return h;
    }
    if (!std::isfinite(d.varianceCandidate) || !std::isfinite(d.varianceBaseline) ||
        d.nCandidate < 2 || d.nBaseline < 2) {
        h.reason = d.reason.isEmpty() ? u"the comparison has no variance estimate"_s : d.reason;
        return h;
    }
    if (!(delta > 0)) {
        h.reason = u"the baseline estimate is 0, so a relative difference has no size"_s;
        return h;
    }
    // Per-sample variance of each side's estimate: v = s2 / n, so n v = s2.
    const double perSample =
        double(d.nCandidate) * d.varianceCandidate + double(d.nBaseline) * d.varianceBaseline;
    if (!(perSample > 0)) {
        h.reason = u"neither side varies, so any difference is detected at once"_s;
        h.available = true;
        h.perSide = 2;
        return h;
    }
    const double za = normalQuantile(0.5 + d.confidence / 2);
    const double zb = normalQuantile(power);
    double m = std::ceil((za + zb) * (za + zb) * perSample / (delta * delta));
    // Student's t at the resulting degrees of freedom matters for runs (a handful per side).
    for (int iter = 0; iter < 20; ++iter) {
        const double df = std::max(1.0, 2 * (std::max(m, 2.0) - 1));
        const double ta = studentTQuantile(0.5 + d.confidence / 2, df);
        const double tb = studentTQuantile(power, df);
        const double next = std::ceil((ta + tb) * (ta + tb) * perSample / (delta * delta));
        if (next == m)
            break;
        m = next;
    }
    h.available = true;
    h.perSide = std::max<qint64>(2, qint64(m));
    return h;
}

// --- ranking ---------------------------------------------------------------------------------

QString Ranking::ruleText()
{
    return u"rank = 1 + the number of candidates significantly better (the pair's interval "
           "excludes 0); candidates the data cannot separate may share a rank"_s;
}

QJsonObject Ranking::toJson() const
{
    QJsonArray arr;
    for (const RankedCandidate &c : order) {
        QJsonArray insep;
        for (int j : c.inseparableFrom)
            insep.append(j);
        arr.append(QJsonObject{{u"index"_s, c.index},
                               {u"rank"_s, c.rank > 0 ? QJsonValue(c.rank) : QJsonValue()},
                               {u"estimate"_s, number(c.estimate)},
                               {u"tied"_s, c.tied},
                               {u"inseparable_from"_s, insep}});
    }
    return QJsonObject{{u"rule"_s, ruleText()}, {u"order"_s, arr}};
}

Ranking rankWithTies(const QList<double> &estimates, Direction direction,
                     const QList<QList<Verdict>> &pairwise)
{
    const qsizetype k = estimates.size();
    const auto verdict = [&pairwise](qsizetype i, qsizetype j) {
        if (i < pairwise.size() && j < pairwise.at(i).size())
            return pairwise.at(i).at(j);
        return Verdict::NotAvailable;
    };
    QList<RankedCandidate> all;
    for (qsizetype i = 0; i < k; ++i) {
        RankedCandidate c;
        c.index = int(i);
        c.estimate = estimates.at(i);
        if (std::isnan(c.estimate)) {
            all.append(c);
            continue;
        }
        int better = 0;
        for (qsizetype j = 0; j < k; ++j) {
            if (j == i || std::isnan(estimates.at(j)))
                continue;
            const Verdict v = verdict(j, i); // j against i as baseline
            if (v == Verdict::Better)
                ++better;
            const Verdict w = verdict(i, j);
            const bool separated = v == Verdict::Better || v == Verdict::Worse ||
                                   w == Verdict::Better || w == Verdict::Worse;
            if (!separated)
                c.inseparableFrom.append(int(j));
        }
        c.rank = 1 + better;
        all.append(c);
    }
    const bool lower = direction == Direction::LowerIsBetter;
    std::stable_sort(all.begin(), all.end(),
                     [lower](const RankedCandidate &a, const RankedCandidate &b) {
                         if ((a.rank == 0) != (b.rank == 0))
                             return b.rank == 0;
                         if (a.rank != b.rank)
                             return a.rank < b.rank;
                         if (a.rank == 0)
                             return false;
                         return lower ? a.estimate < b.estimate : a.estimate > b.estimate;
                     });
    for (RankedCandidate &c : all) {
        if (c.rank == 0)
            continue;
        c.tied = std::count_if(all.cbegin(), all.cend(),
                               [&c](const RankedCandidate &o) { return o.rank == c.rank; }) > 1;
    }
    Ranking r;
    r.order = all;
    return r;
}

Ranking rankSamples(const QList<QList<double>> &samples, const QString &statistic,
                    Direction direction, double confidence,
                    const PercentileComparisonOptions &options)
{
    double percent = -1;
    if (statistic == "median"_L1)
        percent = 50;
    else if (statistic.startsWith(u'p')) {
        bool ok = false;
        percent = statistic.mid(1).toDouble(&ok);
        if (!ok)
            percent = -1;
    }
    const bool useMean = statistic == "mean"_L1;
    const qsizetype k = samples.size();
    if (!useMean && !(percent > 0 && percent < 100)) {
        // An unknown statistic ranks nobody rather than silently ranking by something else.
        QList<QList<Verdict>> none(k, QList<Verdict>(k, Verdict::NotAvailable));
        return rankWithTies(QList<double>(k, kNaN), direction, none);
    }
    QList<double> estimates(k, kNaN);
    QList<QList<Verdict>> pairwise(k, QList<Verdict>(k, Verdict::NotAvailable));
    for (qsizetype i = 0; i < k; ++i) {
        for (qsizetype j = i + 1; j < k; ++j) {
            const Difference d =
                useMean ? compareMeans(samples.at(i), samples.at(j), direction, confidence)
                        : comparePercentiles(samples.at(i), samples.at(j), percent, direction,
                                             confidence, options);
            pairwise[i][j] = d.verdict;
            pairwise[j][i] = d.verdict == Verdict::Better  ? Verdict::Worse
                             : d.verdict == Verdict::Worse ? Verdict::Better
                                                           : d.verdict;
            if (std::isnan(estimates[i]))
                estimates[i] = d.candidate;
            if (std::isnan(estimates[j]))
                estimates[j] = d.baseline;
        }
    }
    if (k == 1 && !samples.at(0).isEmpty()) {
        std::vector<double> v(samples.at(0).cbegin(), samples.at(0).cend());
        estimates[0] = useMean ? std::accumulate(v.cbegin(), v.cend(), 0.0) / double(v.size())
                               : percentileOfUnsorted(v, percent, options.method);
    }
    return rankWithTies(estimates, direction, pairwise);
}

} // namespace sb
