#include "comparisonstats.h"

#include "metrics/confidence.h"
#include "metrics/prng.h"
#include "metrics/samples.h"
#include "metrics/stats.h"
#include "report/comparison.h"
#include "report/reportrun.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sb {

using namespace Qt::StringLiterals;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The clustered bootstrap draws whole requests; above this many resampled gaps (B x pooled gaps
// of both runs) it would take minutes, so ITL is then left untested with the reason.
constexpr qint64 kMaxClusteredDraws = 50'000'000;

enum class RowKind { Latency, RunLevel, Cost, None };

const QStringList &latencyMetrics()
{
    static const QStringList m = {u"ttft"_s, u"tpot"_s, u"itl"_s, u"e2el"_s};
    return m;
}

RowKind kindOf(const ComparisonRow &row)
{
    if (row.verdict)
        return RowKind::None;
    if (row.key.startsWith("cost_"_L1))
        return RowKind::Cost;
    if (row.key.contains(u'.') && latencyMetrics().contains(row.key.section(u'.', 0, 0)))
        return RowKind::Latency;
    return RowKind::RunLevel;
}

// The per-request samples of one run, extracted once per comparison.
struct RunSamples
{
    bool ready = false;
    QHash<QString, QList<double>> perRequest; // ttft, tpot, e2el
    QList<QList<double>> itl;
    qint64 itlValues = 0;
};

class Tester
{
public:
    Tester(const QList<ReportRun> &runs, const Comparison &c, double confidence)
        : m_runs(runs), m_c(c), m_confidence(confidence), m_samples(runs.size())
    {}

    // Candidate `k` against candidate `b` as baseline on `row`.
    Difference test(const ComparisonRow &row, int k, int b, Message *note)
    {
        const Direction dir =
            row.lowerIsBetter ? Direction::LowerIsBetter : Direction::HigherIsBetter;
        const ComparisonCandidate &ck = m_c.candidates.at(k);
        const ComparisonCandidate &cb = m_c.candidates.at(b);
        const RowKind kind = kindOf(row);
        Difference none;
        none.direction = dir;
        none.confidence = m_confidence;
        none.candidate = estimate(row, ck).value_or(kNaN);
        none.baseline = estimate(row, cb).value_or(kNaN);
        if (kind == RowKind::Cost) {
            *note = Message("sig.note.cost");
            return none;
        }
        if (ck.isSeries() && cb.isSeries()) {
            const QList<double> vk = runValues(row, ck);
            const QList<double> vb = runValues(row, cb);
            if (vk.isEmpty() || vb.isEmpty()) {
                *note = Message("sig.note.no_value");
                return none;
            }
            Difference d = compareSeries(vk, vb, dir, m_confidence);
            if (d.verdict == Verdict::NotAvailable)
                *note = Message::fromEnglish(d.reason);
            return d;
        }
        if (ck.isSeries() || cb.isSeries()) {
            *note = Message("sig.note.mixed");
            return none;
        }
        if (kind == RowKind::RunLevel) {
            *note = Message("sig.note.one_run");
            return none;
        }
        const int ik = ck.columns.value(0, -1);
        const int ib = cb.columns.value(0, -1);
        if (ik < 0 || ib < 0 || !row.cells.value(ik).value || !row.cells.value(ib).value) {
            *note = Message("sig.note.no_value");
            return none;
        }
        for (int i : {ik, ib}) {
            const ReportRun &r = m_runs.at(i);
            if (!r.rawRecords || r.input.records.isEmpty()) {
                *note = Message("sig.note.no_records", {r.label});
                return none;
            }
        }
        const QString metric = row.key.section(u'.', 0, 0);
        const QString stat = row.key.section(u'.', 1);
        const double percent = stat == "median"_L1 ? 50.0
                               : stat == "mean"_L1 ? kNaN
                                                   : stat.mid(1).toDouble();
        Difference d;
        if (metric == "itl"_L1) {
            const RunSamples &sk = samples(ik);
            const RunSamples &sb = samples(ib);
            if (qint64(PercentileComparisonOptions().bootstrap.resamples) *
                    (sk.itlValues + sb.itlValues) >
                kMaxClusteredDraws) {
                *note = Message("sig.note.itl_too_large",
                                {QString::number(sk.itlValues + sb.itlValues)});
                return none;
            }
            d = std::isnan(percent)
                    ? compareMeansClustered(sk.itl, sb.itl, dir)
                    : comparePercentilesClustered(sk.itl, sb.itl, percent, dir, m_confidence);
        } else {
            const QList<double> &xk = samples(ik).perRequest.value(metric);
            const QList<double> &xb = samples(ib).perRequest.value(metric);
            d = std::isnan(percent) ? compareMeans(xk, xb, dir, m_confidence)
                                    : comparePercentiles(xk, xb, percent, dir, m_confidence);
        }
        if (d.verdict == Verdict::NotAvailable)
            *note = Message::fromEnglish(d.reason);
        return d;
    }

    // A single run's cell value, or the mean of a series' runs.
    std::optional<double> estimate(const ComparisonRow &row, const ComparisonCandidate &c) const
    {
        if (!c.isSeries()) {
            const int i = c.columns.value(0, -1);
            return i >= 0 ? row.cells.value(i).value : std::nullopt;
        }
        const QList<double> v = runValues(row, c);
        if (v.isEmpty())
            return std::nullopt;
        double sum = 0;
        for (double x : v)
            sum += x;
        return sum / double(v.size());
    }

    QList<double> runValues(const ComparisonRow &row, const ComparisonCandidate &c) const
    {
        QList<double> out;
        for (int i : c.columns)
            if (const auto &v = row.cells.value(i).value)
                out.append(*v);
        return out;
    }

private:
    const RunSamples &samples(int i)
    {
        RunSamples &s = m_samples[i];
        if (s.ready)
            return s;
        const RecordSet &records = m_runs.at(i).input.records;
        for (const char *m : {"ttft", "tpot", "e2el"}) {
            const QString key = QString::fromLatin1(m);
            s.perRequest.insert(key, requestSamples(records, key));
        }
        s.itl = itlByRequest(records);
        for (const QList<double> &cluster : std::as_const(s.itl))
            s.itlValues += cluster.size();
        s.ready = true;
        return s;
    }

    // ITL's mean over pooled gaps, resampling whole requests as the clustered percentile
    // comparison does: gaps of one request are not independent samples.
    Difference compareMeansClustered(const QList<QList<double>> &c, const QList<QList<double>> &b,
                                     Direction dir) const
    {
        Difference d;
        d.statistic = u"mean"_s;
        d.unit = u"requests (clustered)"_s;
        d.direction = dir;
        d.confidence = m_confidence;
        d.nCandidate = c.size();
        d.nBaseline = b.size();
        d.absolute.method = u"bootstrap-percentile, two-sample, resampling clusters"_s;
        d.relative.method = d.absolute.method;
        const auto pooledMean = [](std::span<double> v) {
            double sum = 0;
            for (double x : v)
                sum += x;
            return v.empty() ? kNaN : sum / double(v.size());
        };
        const auto pooled = [&](const QList<QList<double>> &clusters) {
            std::vector<double> all;
            for (const QList<double> &cl : clusters)
                all.insert(all.end(), cl.cbegin(), cl.cend());
            return pooledMean(all);
        };
        d.candidate = pooled(c);
        d.baseline = pooled(b);
        if (c.size() < 2 || b.size() < 2) {
            d.reason = u"needs at least 2 clusters a side"_s;
            d.absolute = Interval::unavailable(d.absolute.method, d.reason,
                                               d.nCandidate + d.nBaseline, m_confidence);
            d.relative = d.absolute;
            return d;
        }
        const BootstrapOptions bo;
        Prng rng(bo.seed);
        const std::vector<double> rc =
            bootstrapReplicatesClustered(c, pooledMean, bo.resamples, rng);
        const std::vector<double> rb =
            bootstrapReplicatesClustered(b, pooledMean, bo.resamples, rng);
        return differenceFromReplicates(std::move(d), rc, rb, u"the baseline mean is 0"_s);
    }

    const QList<ReportRun> &m_runs;
    const Comparison &m_c;
    double m_confidence;
    std::vector<RunSamples> m_samples;
};

Message unitMessage(const QString &unit)
{
    if (unit == "requests"_L1)
        return Message("sig.unit.requests");
    if (unit == "requests (clustered)"_L1)
        return Message("sig.unit.clustered");
    if (unit == "runs"_L1)
        return Message("sig.unit.runs");
    return Message::literal(unit);
}

Message hintMessage(const SampleSizeHint &h)
{
    const QString what = QString::number(h.relativeDifference * 100, 'g', 3) + u" %"_s;
    if (!h.available)
        return Message("sig.hint.none", {unitMessage(h.unit), Message::literal(what),
                                         Message::fromEnglish(h.reason)});
    return Message("sig.hint",
                   {Message::literal(QString::number(h.perSide)), unitMessage(h.unit),
                    Message::literal(what), Message::literal(confidenceText(h.confidence)),
                    Message::literal(QString::number(h.power * 100, 'g', 3) + u" %"_s)});
}

Verdict flipped(Verdict v)
{
    switch (v) {
    case Verdict::Better:
        return Verdict::Worse;
    case Verdict::Worse:
        return Verdict::Better;
    default:
        return v;
    }
}

QString signedNumber(double v, int decimals)
{
    if (std::abs(v) < 0.5 * std::pow(10.0, -decimals))
        v = 0; // no "-0.00"
    const QString s = QString::number(v, 'f', decimals);
    return v > 0 ? u'+' + s : s;
}

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

} // namespace

int Comparison::candidateOf(int column) const
{
    for (int k = 0; k < candidates.size(); ++k)
        if (candidates.at(k).columns.contains(column))
            return k;
    return -1;
}

int Comparison::tiedRankOf(int candidate, bool *tied) const
{
    for (const RankedCandidate &r : tiedRanking.order)
        if (r.index == candidate) {
            if (tied)
                *tied = r.tied;
            return r.rank;
        }
    if (tied)
        *tied = false;
    return 0;
}

Message verdictMessage(Verdict v, double confidence)
{
    switch (v) {
    case Verdict::Better:
        return Message("sig.verdict.better");
    case Verdict::Worse:
        return Message("sig.verdict.worse");
    case Verdict::NoDetectableDifference:
        return Message("sig.verdict.none", {confidenceText(confidence)});
    case Verdict::NotAvailable:
        break;
    }
    return Message("sig.verdict.na");
}

QString formatDifference(const Difference &d, int decimals, const QString &unit)
{
    if (!d.absolute.available)
        return QString();
    QString out = u"%1 [%2, %3]"_s.arg(signedNumber(d.absolute.estimate, decimals),
                                       signedNumber(d.absolute.lo, decimals),
                                       signedNumber(d.absolute.hi, decimals));
    if (!unit.isEmpty())
        out += u' ' + unit;
    if (d.relative.available)
        out += u" (%1 % [%2, %3])"_s.arg(signedNumber(d.relative.estimate * 100, 1),
                                         signedNumber(d.relative.lo * 100, 1),
                                         signedNumber(d.relative.hi * 100, 1));
    return out;
}

QString formatTest(const ComparisonRow &row, const CandidateTest &t, bool translate)
{
    if (t.baseline)
        return QString();
    const QString verdict = t.verdictMessage.text(translate);
    if (t.difference.absolute.available)
        return u"%1: %2"_s.arg(formatDifference(t.difference, row.decimals, row.unit), verdict);
    return t.noteMessage.isEmpty() ? verdict
                                   : u"%1 (%2)"_s.arg(verdict, t.noteMessage.text(translate));
}

void addComparisonStatistics(Comparison *c, const QList<ReportRun> &runs,
                             const ComparisonOptions &options)
{
    c->confidence = options.confidence;
    c->hintRelativeDifference = options.hintRelativeDifference;
    c->candidates.clear();

    // --- candidates: single runs, and the picked runs of each series as one ---
    QHash<qint64, int> picked;
    for (const ReportRun &r : runs)
        if (r.seriesId > 0)
            ++picked[r.seriesId];
    QHash<qint64, int> seriesCandidate;
    for (int i = 0; i < runs.size(); ++i) {
        const ReportRun &r = runs.at(i);
        if (options.groupSeries && r.seriesId > 0 && picked.value(r.seriesId) >= 2) {
            const auto it = seriesCandidate.constFind(r.seriesId);
            if (it != seriesCandidate.cend()) {
                c->candidates[*it].columns.append(i);
                continue;
            }
            ComparisonCandidate s;
            s.seriesId = r.seriesId;
            s.cacheState = r.seriesCacheState;
            s.columns = {i};
            s.labelMessage =
                Message("sig.candidate.series",
                        {r.seriesName.isEmpty() ? u"#%1"_s.arg(r.seriesId) : r.seriesName,
                         QString::number(picked.value(r.seriesId))});
            s.label = s.labelMessage.text();
            seriesCandidate.insert(r.seriesId, int(c->candidates.size()));
            c->candidates.append(s);
            continue;
        }
        ComparisonCandidate single;
        single.label = c->columns.value(i);
        single.labelMessage = Message::literal(single.label);
        single.columns = {i};
        c->candidates.append(single);
    }
    c->baselineCandidate = std::max(0, c->candidateOf(c->baseline));
    if (c->candidates.isEmpty())
        return;

    // --- every row against the baseline candidate ---
    Tester tester(runs, *c, options.confidence);
    for (ComparisonRow &row : c->rows) {
        row.tests.clear();
        if (kindOf(row) == RowKind::None)
            continue;
        for (int k = 0; k < c->candidates.size(); ++k) {
            const ComparisonCandidate &cand = c->candidates.at(k);
            CandidateTest t;
            t.estimate = tester.estimate(row, cand);
            if (cand.isSeries())
                t.series = seriesStats(tester.runValues(row, cand), options.confidence);
            if (k == c->baselineCandidate) {
                t.baseline = true;
                row.tests.append(t);
                continue;
            }
            t.difference = tester.test(row, k, c->baselineCandidate, &t.noteMessage);
            t.verdictMessage = verdictMessage(t.difference.verdict, options.confidence);
            if (t.difference.verdict != Verdict::NotAvailable) {
                t.hint = samplesNeeded(t.difference, options.hintRelativeDifference);
                t.hintMessage = hintMessage(t.hint);
            }
            row.tests.append(t);
        }
    }

    // --- the ranking with ties, by the rank-by row ---
    c->tiedRanking = Ranking();
    c->tieNoteMessage = Message();
    const ComparisonRow *rankRow = c->row(c->rankBy.rowKey());
    if (!c->comparability.rankable() || !rankRow || !rankRow->diffs || rankRow->tests.isEmpty())
        return;
    const qsizetype k = c->candidates.size();
    QList<double> estimates;
    for (const CandidateTest &t : rankRow->tests)
        estimates.append(t.estimate.value_or(kNaN));
    QList<QList<Verdict>> pairwise(k, QList<Verdict>(k, Verdict::NoDetectableDifference));
    for (int i = 0; i < k; ++i)
        for (int j = i + 1; j < k; ++j) {
            Verdict v;
            if (j == c->baselineCandidate)
                v = rankRow->tests.at(i).verdict();
            else if (i == c->baselineCandidate)
                v = flipped(rankRow->tests.at(j).verdict());
            else {
                Message ignored;
                v = tester.test(*rankRow, i, j, &ignored).verdict;
            }
            pairwise[i][j] = v;
            pairwise[j][i] = flipped(v);
        }
    c->tiedRanking = rankWithTies(
        estimates, rankRow->lowerIsBetter ? Direction::LowerIsBetter : Direction::HigherIsBetter,
        pairwise);
    QStringList tied;
    for (const RankedCandidate &r : std::as_const(c->tiedRanking.order))
        if (r.tied)
            tied << c->candidates.value(r.index).label;
    c->tieNoteMessage =
        tied.isEmpty()
            ? Message("sig.rank.separated",
                      {rankRow->labelMessage, Message::literal(confidenceText(options.confidence))})
            : Message("sig.rank.ties", {Message::literal(tied.join(u", "_s)), rankRow->labelMessage,
                                        Message::literal(confidenceText(options.confidence))});
}

QString formatReplicatesText(const Comparison &c, bool translate)
{
    if (!c.replicatesOnly())
        return QString();
    const auto tr = [translate](const Message &m) {
        return m.text(translate);
    };
    const ComparisonCandidate &cand = c.candidates.constFirst();
    QString out = tr(Message("sig.text.pooled",
                             {cand.labelMessage, Message::literal(confidenceText(c.confidence))})) +
                  u'\n';
    out += u"  "_s +
           tr(cand.cacheState.isEmpty() ? Message("sig.cache.unknown")
                                        : Message::fromEnglish(cand.cacheState)) +
           u'\n';
    for (const QString &key : keyMetricRows(c)) {
        const ComparisonRow *row = c.row(key);
        if (!row || row->tests.isEmpty())
            continue;
        const SeriesStats &s = row->tests.constFirst().series;
        const QString label = tr(row->labelMessage);
        const QString name = row->unit.isEmpty() ? label : u"%1 (%2)"_s.arg(label, row->unit);
        QString what;
        if (s.runs == 0)
            what = tr(Message("sig.verdict.na"));
        else if (s.meanInterval.available)
            what = u"%1 [%2, %3]"_s.arg(QString::number(s.mean, 'f', row->decimals),
                                        QString::number(s.meanInterval.lo, 'f', row->decimals),
                                        QString::number(s.meanInterval.hi, 'f', row->decimals));
        else
            what = QString::number(s.mean, 'f', row->decimals);
        what += u"  "_s + tr(Message("sig.text.pooled_runs", {QString::number(s.runs)}));
        out += u"  %1 %2\n"_s.arg(name.leftJustified(34), what);
    }
    return out;
}

QString formatSignificanceText(const Comparison &c, bool translate)
{
    if (c.replicatesOnly())
        return formatReplicatesText(c, translate);
    if (c.candidates.size() < 2)
        return QString();
    const auto tr = [translate](const Message &m) {
        return m.text(translate);
    };
    const QString conf = confidenceText(c.confidence);
    QString out;
    out += tr(Message("sig.text.title", {Message::literal(conf),
                                         c.candidates.value(c.baselineCandidate).labelMessage})) +
           u'\n';
    for (const ComparisonCandidate &cand : c.candidates)
        if (cand.isSeries())
            out += u"  "_s +
                   tr(Message("sig.text.series", {cand.labelMessage, Message::literal(conf),
                                                  cand.cacheState.isEmpty()
                                                      ? Message("sig.cache.unknown")
                                                      : Message::fromEnglish(cand.cacheState)})) +
                   u'\n';
    QString group;
    QList<Message> saidNotes;
    for (const ComparisonRow &row : c.rows) {
        if (row.tests.isEmpty())
            continue;
        if (row.group != group) {
            group = row.group;
            out += u"-- %1\n"_s.arg(tr(row.groupMessage));
        }
        const QString label = tr(row.labelMessage);
        const QString name = row.unit.isEmpty() ? label : u"%1 (%2)"_s.arg(label, row.unit);
        for (int k = 0; k < row.tests.size(); ++k) {
            const CandidateTest &t = row.tests.at(k);
            if (t.baseline)
                continue;
            // A reason repeated row after row (one run has no throughput spread) is said once.
            QString what = formatTest(row, t, translate);
            if (!t.difference.absolute.available && !t.noteMessage.isEmpty()) {
                if (saidNotes.contains(t.noteMessage))
                    what = tr(Message("sig.text.as_above", {t.verdictMessage}));
                else
                    saidNotes.append(t.noteMessage);
            }
            out += u"%1 %2: %3\n"_s.arg(name.leftJustified(34), c.candidates.at(k).label, what);
            if (t.verdict() == Verdict::NoDetectableDifference && !t.hintMessage.isEmpty())
                out += u"%1 %2\n"_s.arg(QString(36, u' '),
                                        tr(Message("sig.text.hint", {t.hintMessage})));
        }
    }
    if (!c.tiedRanking.order.isEmpty()) {
        const ComparisonRow *r = c.row(c.rankBy.rowKey());
        out += tr(Message("sig.text.ranking",
                          {r ? r->labelMessage : Message::literal(c.rankBy.rowKey()),
                           Message::literal(conf)})) +
               u'\n';
        for (const RankedCandidate &rc : c.tiedRanking.order) {
            QString line = u"  %1. %2"_s.arg(rc.rank > 0 ? QString::number(rc.rank) : u"-"_s,
                                             c.candidates.value(rc.index).label);
            if (rc.tied) {
                QStringList with;
                for (int j : rc.inseparableFrom)
                    with << c.candidates.value(j).label;
                line += u"  ("_s +
                        tr(Message("sig.text.tied_with", {Message::literal(with.join(u", "_s))})) +
                        u')';
            }
            out += line + u'\n';
        }
        out += tr(c.tieNoteMessage) + u'\n';
    }
    return out;
}

QJsonObject candidateTestJson(const CandidateTest &t)
{
    QJsonObject o{{u"estimate"_s, t.estimate ? number(*t.estimate) : QJsonValue()},
                  {u"baseline"_s, t.baseline}};
    if (t.series.runs > 0)
        o[u"series"_s] = t.series.toJson();
    if (t.baseline)
        return o;
    o[u"verdict"_s] = QString::fromLatin1(verdictKey(t.verdict()));
    o[u"verdict_text"_s] = t.verdictMessage.text();
    if (t.difference.absolute.available || !t.difference.statistic.isEmpty())
        o[u"test"_s] = t.difference.toJson();
    if (!t.noteMessage.isEmpty())
        o[u"note"_s] = t.noteMessage.text();
    if (!t.hintMessage.isEmpty()) {
        QJsonObject h = t.hint.toJson();
        h[u"text"_s] = t.hintMessage.text();
        o[u"sample_size_hint"_s] = h;
    }
    return o;
}

QJsonArray candidatesJson(const Comparison &c)
{
    QJsonArray out;
    for (int k = 0; k < c.candidates.size(); ++k) {
        const ComparisonCandidate &cand = c.candidates.at(k);
        QJsonArray ids;
        for (int i : cand.columns)
            ids.append(c.runIds.value(i));
        QJsonObject o{{u"label"_s, cand.label},
                      {u"run_ids"_s, ids},
                      {u"baseline"_s, k == c.baselineCandidate},
                      {u"series"_s, cand.isSeries()}};
        if (cand.isSeries()) {
            o[u"series_id"_s] = cand.seriesId;
            o[u"cache_state"_s] = cand.cacheState;
        }
        out.append(o);
    }
    return out;
}

QJsonObject tiedRankingJson(const Comparison &c)
{
    if (c.tiedRanking.order.isEmpty())
        return {};
    QJsonObject o = c.tiedRanking.toJson();
    o[u"rank_by"_s] = c.rankBy.rowKey();
    o[u"confidence"_s] = c.confidence;
    o[u"note"_s] = c.tieNoteMessage.text();
    return o;
}

QStringList keyMetricRows(const Comparison &c)
{
    QStringList keys = {u"ttft.median"_s,        u"ttft.p99"_s,        u"tpot.mean"_s,
                        u"itl.median"_s,         u"e2el.p99"_s,        u"output_throughput"_s,
                        u"request_throughput"_s, u"request_goodput"_s, u"failure_rate"_s};
    const QString rank = c.rankBy.rowKey();
    if (!keys.contains(rank) && !rank.startsWith("cost_"_L1))
        keys.prepend(rank);
    QStringList out;
    for (const QString &k : keys)
        if (c.row(k))
            out << k;
    return out;
}

} // namespace sb
