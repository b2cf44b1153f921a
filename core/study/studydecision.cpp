#include "studydecision.h"

#include "config/runplan.h"
#include "cost/costbreakdown.h"
#include "costproject/coststore.h"
#include "metrics/clienthealth.h"
#include "metrics/confidence.h"
#include "report/reportrun.h"
#include "store/projectstore.h"
#include "study/studycost.h"
#include "study/studydefinition.h"
#include "study/studyplan.h"
#include "study/studyscrub.h"
#include "study/studystore.h"

#include <QJsonArray>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

QJsonValue optional(const std::optional<double> &v)
{
    return v ? number(*v) : QJsonValue();
}

// The metrics reported beside the figure of merit, by scenario kind.
QStringList secondaryKeys(const QString &kind)
{
    if (kind == "offline"_L1)
        return {u"output_throughput"_s, u"request_throughput"_s, u"e2el.p99"_s};
    if (kind == "single-stream"_L1)
        return {u"e2el.p90"_s, u"ttft.p90"_s, u"tpot.mean"_s};
    // A server scenario's metrics are those of its highest VALID point, the rate it stands for.
    if (kind == "server"_L1)
        return {QString::fromLatin1(kStudyMaxValidRate),
                u"ttft.p99"_s,
                u"tpot.p99"_s,
                u"e2el.p99"_s,
                u"request_throughput"_s,
                u"output_throughput"_s};
    return {u"ttft.median"_s, u"ttft.p99"_s,        u"tpot.mean"_s,        u"itl.median"_s,
            u"e2el.p99"_s,    u"request_goodput"_s, u"output_throughput"_s};
}

QString fmt(double v, int decimals)
{
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : u"n/a"_s;
}

QString intervalText(const SeriesStats &s, int decimals)
{
    return studyIntervalText(s, decimals);
}

// i against j on the figure of merit: separated only when the two intervals do not overlap.
Verdict separated(const SeriesStats &i, const SeriesStats &j, bool lowerIsBetter)
{
    if (!i.meanInterval.available || !j.meanInterval.available)
        return Verdict::NotAvailable;
    const bool iBelow = i.meanInterval.hi < j.meanInterval.lo;
    const bool iAbove = i.meanInterval.lo > j.meanInterval.hi;
    if (!iBelow && !iAbove)
        return Verdict::NoDetectableDifference;
    return iBelow == lowerIsBetter ? Verdict::Better : Verdict::Worse;
}

Message verdictWords(Verdict v, bool baseline)
{
    if (baseline)
        return Message("study.verdict.baseline");
    switch (v) {
    case Verdict::Better:
        return Message("sig.verdict.better");
    case Verdict::Worse:
        return Message("sig.verdict.worse");
    case Verdict::NoDetectableDifference:
        return Message("study.verdict.tied");
    case Verdict::NotAvailable:
        break;
    }
    return Message("sig.verdict.na");
}

// One rate search of a cell, from its stored points: a point counts VALID when its run
// completed, its MLPerf Server judgement (recomputed from its records under the plan's own
// constraints) is VALID and it was not stopped early as over-saturated — the rule RunSession's
// bisection applies (core/run/runsession.cpp).
StudySearch readSearch(const ProjectStore &store, const QList<qint64> &points, qint64 cellRun)
{
    StudySearch sr;
    sr.runId = cellRun;
    sr.points = points;
    for (qint64 id : points) {
        ReportRun p;
        QString why;
        if (!loadReportRun(store, id, &p, &why))
            continue;
        const LoadProfile &profile = p.input.plan.profile;
        if (profile.scenario != Scenario::Server || profile.unlimitedRate() ||
            !(profile.requestRate > 0))
            continue; // the synchronous and max-throughput baselines
        const bool valid = p.input.status == "completed"_L1 && p.derived.hasMlperf &&
                           p.derived.mlperf.valid && !p.info.summary.contains(u"stopped_early"_s);
        if (valid)
            sr.validRate = std::max(sr.validRate, profile.requestRate);
        else if (sr.lowestTried <= 0 || profile.requestRate < sr.lowestTried)
            sr.lowestTried = profile.requestRate;
    }
    return sr;
}

QJsonObject searchJson(const StudySearch &sr)
{
    QJsonArray points;
    for (qint64 id : sr.points)
        points.append(id);
    return QJsonObject{
        {u"run_id"_s, sr.runId},
        {u"points"_s, points},
        {u"highest_valid_rate"_s, sr.validRate > 0 ? QJsonValue(sr.validRate) : QJsonValue()},
        {u"lowest_invalid_rate"_s, sr.lowestTried > 0 ? QJsonValue(sr.lowestTried) : QJsonValue()}};
}

QJsonObject figureJson(const StudyFigure &f)
{
    QJsonArray values;
    for (double v : f.values)
        values.append(number(v));
    const StudyMetricInfo info = studyMetricInfo(f.key);
    return QJsonObject{{u"key"_s, f.key},
                       {u"label"_s, info.label.text()},
                       {u"unit"_s, info.unit},
                       {u"values"_s, values},
                       {u"mean"_s, number(f.stats.mean)},
                       {u"interval"_s, f.stats.meanInterval.toJson()},
                       {u"runs"_s, f.stats.runs}};
}

} // namespace

StudyMetricInfo studyMetricInfo(const QString &key)
{
    StudyMetricInfo i;
    i.lowerIsBetter = lowerIsBetter(key);
    if (key == QLatin1StringView(kStudyMaxValidRate)) {
        i.label = Message("study.merit.max_valid_rate");
        i.unit = u"req/s"_s;
        i.lowerIsBetter = false;
    } else if (key == "output_throughput"_L1) {
        i.label = Message("cmp.row.output_throughput");
        i.unit = u"tok/s"_s;
    } else if (key == "request_throughput"_L1) {
        i.label = Message("cmp.row.request_throughput");
        i.unit = u"req/s"_s;
    } else if (key == "total_token_throughput"_L1) {
        i.label = Message("cmp.row.total_token_throughput");
        i.unit = u"tok/s"_s;
    } else if (key == "request_goodput"_L1) {
        i.label = Message("cmp.row.request_goodput");
        i.unit = u"req/s"_s;
    } else if (key == "failure_rate"_L1) {
        i.label = Message("cmp.row.failure_rate");
        i.unit = u"%"_s;
    } else if (key.contains(u'.')) {
        const QString metric = key.section(u'.', 0, 0).toUpper();
        const QString stat = key.section(u'.', 1);
        i.label = stat == "mean"_L1     ? Message("cmp.row.mean", {metric})
                  : stat == "median"_L1 ? Message("cmp.row.median", {metric})
                                        : Message::literal(stat.toUpper() + u' ' + metric);
        i.unit = u"ms"_s;
    } else {
        i.label = Message::literal(key);
    }
    return i;
}

QString studyCostText(const std::optional<double> &value,
                      const std::optional<std::pair<double, double>> &interval, int decimals)
{
    if (!value)
        return u"n/a"_s;
    QString out = QString::number(*value, 'f', decimals);
    if (interval)
        out += u" [%1, %2]"_s.arg(QString::number(interval->first, 'f', decimals),
                                  QString::number(interval->second, 'f', decimals));
    return out;
}

QStringList StudyDecision::missingCandidates() const
{
    QStringList out;
    if (scenarios.isEmpty())
        return out;
    for (int k = 0; k < scenarios.constFirst().candidates.size(); ++k) {
        bool any = false;
        for (const StudyScenarioDecision &s : scenarios)
            any = any || !s.candidates.at(k).runIds.isEmpty();
        if (!any)
            out << scenarios.constFirst().candidates.at(k).candidate;
    }
    return out;
}

bool buildStudyDecision(ProjectStore *store, const QString &studyName, int versionNumber,
                        StudyDecision *out, QString *error)
{
    StudyStore studies(store);
    if (!studies.available()) {
        *error = u"the project holds no study"_s;
        return false;
    }
    QString name = studyName;
    if (name.isEmpty()) {
        const QStringList names = studies.studyNames();
        if (names.size() != 1) {
            *error = names.isEmpty() ? u"the project holds no study"_s
                                     : u"the project holds %1 studies (%2): give --study NAME"_s
                                           .arg(names.size())
                                           .arg(names.join(u", "_s));
            return false;
        }
        name = names.constFirst();
    }
    const qint64 sid = studies.studyId(name);
    if (sid <= 0) {
        *error = u"no study named '%1'"_s.arg(name);
        return false;
    }
    const auto version =
        versionNumber > 0 ? studies.version(sid, versionNumber) : studies.latestVersion(sid);
    if (!version) {
        *error = studies.lastError();
        return false;
    }
    QList<StudyIssue> issues;
    const StudyDefinition d = StudyDefinition::fromJson(version->definition, &issues);
    if (d.candidates.isEmpty() || d.scenarios.isEmpty()) {
        *error = u"the stored definition cannot be read"_s;
        return false;
    }
    if (!store->isReadOnly())
        ensureStudyWindows(store, d, *version, &out->notes);

    StudyDecision &dec = *out;
    dec.name = d.name;
    dec.question = d.question;
    dec.version = version->version;
    dec.sha256 = version->sha256;
    // The decision travels (its JSON, the report, the acceptance bundle): no credential of the
    // definition's flags goes with it.
    dec.definition = scrubStudyDefinition(version->definition);
    dec.orderNote = StudyPlan::build(d).orderNote;
    const int base = d.baselineIndex();
    dec.baseline = d.candidates.at(base).name;

    const QList<StoredStudyCell> cells = studies.cells(version->id);
    dec.cells = int(cells.size());
    QHash<qint64, ReportRun> runs;
    QHash<qint64, StudySearch> searches; // by cell: a server scenario's completed cells
    for (const StoredStudyCell &c : cells) {
        if (c.state != "completed"_L1) {
            QString reason = c.reason;
            if (reason.isEmpty())
                reason = c.state == "running"_L1 ? u"running, or interrupted"_s : u"not run yet"_s;
            dec.leftOut << StudyLeftOut{c.position + 1, c.candidate, c.scenario,
                                        c.repeat + 1,   c.state,     reason};
            continue;
        }
        ReportRun r;
        QString why;
        if (!loadReportRun(*store, c.runId, &r, &why)) {
            dec.leftOut << StudyLeftOut{
                c.position + 1, c.candidate,
                c.scenario,     c.repeat + 1,
                c.state,        u"its run #%1 cannot be read: %2"_s.arg(c.runId).arg(why)};
            continue;
        }
        // A cell whose client was the bottleneck measured the client, not the candidate
        // (ClientHealth::bottleneck(), recomputed from the run's stored records and thread
        // samples; docs/performance.md): the load it offered fell behind the scenario's
        // (achieved rate below 95 % of the scheduled one), its lateness grew through the run,
        // or one of its threads wanted the CPU more than 90 % of a sample window. Late sends
        // alone (lateness p99 above 10 ms on a busy machine, flat, the rate still met) leave
        // the offered load as the scenario says and TTFT counts from the send: the cell stays,
        // with a note. One whose cache state is not the study's measured another boundary.
        const ClientHealth &health = r.derived.health;
        if (r.rawRecords && health.bottleneck()) {
            dec.leftOut << StudyLeftOut{
                c.position + 1,
                c.candidate,
                c.scenario,
                c.repeat + 1,
                u"client-saturated"_s,
                Message("study.reason.client", {health.warnings.join(u"; "_s)}).text()};
            continue;
        }
        if (r.rawRecords && !health.ok())
            dec.notes << Message("study.note.late_kept",
                                 {QString::number(c.position + 1), c.candidate, c.scenario,
                                  QString::number(c.repeat + 1),
                                  QString::number(health.latenessP99Ms, 'f', 2),
                                  QString::number(kMaxLatenessP99Ms, 'f', 0)})
                             .text();
        if (r.input.plan.profile.cacheBust != (d.boundary.cachePolicy == "cache-bust"_L1) ||
            r.input.plan.profile.cacheReset != (d.boundary.cachePolicy == "reset"_L1)) {
            dec.leftOut << StudyLeftOut{
                c.position + 1,
                c.candidate,
                c.scenario,
                c.repeat + 1,
                u"cache-state"_s,
                u"cache state not as the study says (%1)"_s.arg(d.boundary.cachePolicy)};
            continue;
        }
        ++dec.completedCells;
        runs.insert(c.id, r);
        const int si = d.scenarioIndex(c.scenario);
        if (si >= 0 && d.scenarios.at(si).isRateSearch())
            searches.insert(c.id, readSearch(*store, studies.attemptRuns(c.id, c.runId), c.runId));
    }

    CostStore costs(store);
    const CostOptions costOptions = costs.costOptions();
    for (int s = 0; s < d.scenarios.size(); ++s) {
        const StudyScenario &sc = d.scenarios.at(s);
        StudyScenarioDecision sd;
        sd.scenario = sc.name;
        sd.kind = sc.kind;
        sd.meritKey = sc.figureOfMerit();
        const StudyMetricInfo info = studyMetricInfo(sd.meritKey);
        sd.meritLabel = info.label;
        sd.unit = info.unit;
        sd.lowerIsBetter = info.lowerIsBetter;
        sd.decimals = info.decimals;
        QStringList keys = secondaryKeys(sc.kind);
        keys.removeAll(sd.meritKey);
        for (int k = 0; k < d.candidates.size(); ++k) {
            const StudyCandidate &cand = d.candidates.at(k);
            StudyCandidateResult res;
            res.candidate = cand.name;
            res.baseline = k == base;
            // The runs the metrics are read from: each pooled repeat's; for a server scenario
            // only those whose search found a VALID rate (the metrics at that rate).
            QList<const ReportRun *> mine;
            for (const StoredStudyCell &c : cells)
                if (c.candidate == cand.name && c.scenario == sc.name && runs.contains(c.id)) {
                    res.runIds << c.runId;
                    if (!sc.isRateSearch()) {
                        mine << &runs[c.id];
                        continue;
                    }
                    res.searches << searches.value(c.id);
                    if (res.searches.constLast().validRate > 0)
                        mine << &runs[c.id];
                }
            const auto figure = [&](const QString &key) {
                StudyFigure f;
                f.key = key;
                if (key == QLatin1StringView(kStudyMaxValidRate)) {
                    // A search that found no VALID rate has 0 as its result.
                    for (const StudySearch &sr : std::as_const(res.searches))
                        f.values << sr.validRate;
                } else {
                    for (const ReportRun *r : std::as_const(mine))
                        if (const auto v = runLevelValue(r->summary, key))
                            f.values << *v;
                }
                f.stats = seriesStats(f.values, dec.confidence);
                return f;
            };
            res.merit = figure(sd.meritKey);
            // Every search found nothing VALID: not a rate of 0 to rank on, but no rate at all
            // under the scenario's constraints — n/a with the reason, unranked.
            if (sc.isRateSearch() && !res.searches.isEmpty() && mine.isEmpty()) {
                res.meritNote =
                    Message("study.merit.none_valid", {QString::number(res.searches.size())});
                res.merit.values.clear();
                res.merit.stats = seriesStats({}, dec.confidence);
            }
            for (const QString &key : std::as_const(keys)) {
                const StudyFigure f = figure(key);
                if (!f.values.isEmpty() && !(mine.isEmpty() && !res.meritNote.isEmpty()))
                    res.figures << f;
            }
            // Unit costs from the candidate's window for this scenario.
            res.window = studyWindowName(d, version->version, cand.name, sc.name);
            if (const auto w = costs.window(res.window)) {
                const CostBreakdown b = costs.breakdown(*w, costOptions);
                res.currency = b.currency;
                if (b.perSuccessfulRequest.available())
                    res.costPerRequest = b.perSuccessfulRequest.value->toDouble();
                if (b.perMillionOutputTokens.available())
                    res.costPerMillionOutputTokens = b.perMillionOutputTokens.value->toDouble();
                if (!b.perSuccessfulRequest.available())
                    res.costNote = !b.errors.isEmpty() ? b.errors.join(u"; "_s)
                                                       : b.perSuccessfulRequest.reason;
                const auto carried =
                    [&](const std::optional<double> &cost,
                        const QString &key) -> std::optional<std::pair<double, double>> {
                    const SeriesStats t = figure(key).stats;
                    if (!cost || !t.meanInterval.available || !(t.meanInterval.lo > 0))
                        return std::nullopt;
                    return std::make_pair(*cost * t.mean / t.meanInterval.hi,
                                          *cost * t.mean / t.meanInterval.lo);
                };
                res.costPerRequestInterval = carried(res.costPerRequest, u"request_throughput"_s);
                res.costPerMillionOutputTokensInterval =
                    carried(res.costPerMillionOutputTokens, u"output_throughput"_s);
            } else {
                res.window.clear();
                res.costNote = u"no test window (no completed cell)"_s;
            }
            sd.candidates << res;
        }
        // The ranking with ties: separated only when the intervals over the repeats do not
        // overlap.
        const qsizetype n = sd.candidates.size();
        QList<double> estimates;
        for (const StudyCandidateResult &r : std::as_const(sd.candidates))
            estimates << (r.merit.stats.runs > 0 ? r.merit.stats.mean : kNaN);
        QList<QList<Verdict>> pairwise(n, QList<Verdict>(n, Verdict::NoDetectableDifference));
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                if (i != j)
                    pairwise[i][j] = separated(sd.candidates.at(i).merit.stats,
                                               sd.candidates.at(j).merit.stats, sd.lowerIsBetter);
        const Ranking ranking = rankWithTies(
            estimates, sd.lowerIsBetter ? Direction::LowerIsBetter : Direction::HigherIsBetter,
            pairwise);
        for (const RankedCandidate &rc : ranking.order) {
            StudyCandidateResult &r = sd.candidates[rc.index];
            r.rank = rc.rank;
            r.tied = rc.tied;
            for (int j : rc.inseparableFrom)
                r.tiedWith << sd.candidates.at(j).candidate;
            sd.order << rc.index;
        }
        for (int k = 0; k < n; ++k)
            if (k != base)
                sd.candidates[k].verdict = pairwise[k][base];
        dec.scenarios << sd;
    }
    return true;
}

QJsonObject StudyDecision::toJson() const
{
    QJsonArray scs;
    for (const StudyScenarioDecision &s : scenarios) {
        QJsonArray cands;
        for (const StudyCandidateResult &r : s.candidates) {
            QJsonArray ids, figs, tied;
            for (qint64 id : r.runIds)
                ids.append(id);
            for (const StudyFigure &f : r.figures)
                figs.append(figureJson(f));
            for (const QString &t : r.tiedWith)
                tied.append(t);
            QJsonObject cost{{u"window"_s, r.window},
                             {u"currency"_s, r.currency},
                             {u"per_successful_request"_s, optional(r.costPerRequest)},
                             {u"per_1m_output_tokens"_s, optional(r.costPerMillionOutputTokens)}};
            if (!r.costNote.isEmpty())
                cost[u"note"_s] = r.costNote;
            const auto range = [](const std::optional<std::pair<double, double>> &i) {
                return i ? QJsonValue(QJsonObject{
                               {u"lo"_s, number(i->first)},
                               {u"hi"_s, number(i->second)},
                               {u"method"_s, u"carried from the throughput's interval over the "
                                             "repeats (unit cost = window cost / throughput)"_s}})
                         : QJsonValue();
            };
            cost[u"per_successful_request_interval"_s] = range(r.costPerRequestInterval);
            cost[u"per_1m_output_tokens_interval"_s] = range(r.costPerMillionOutputTokensInterval);
            QJsonObject merit = figureJson(r.merit);
            if (!r.meritNote.isEmpty())
                merit[u"note"_s] = r.meritNote.text();
            QJsonArray searches;
            for (const StudySearch &sr : r.searches)
                searches.append(searchJson(sr));
            QJsonObject cand{{u"candidate"_s, r.candidate},
                             {u"baseline"_s, r.baseline},
                             {u"run_ids"_s, ids},
                             {u"figure_of_merit"_s, merit},
                             {u"rank"_s, r.rank > 0 ? QJsonValue(r.rank) : QJsonValue()},
                             {u"tied"_s, r.tied},
                             {u"tied_with"_s, tied},
                             {u"verdict"_s, r.baseline
                                                ? u"baseline"_s
                                                : QString::fromLatin1(verdictKey(r.verdict))},
                             {u"cost"_s, cost},
                             {u"other_metrics"_s, figs}};
            if (!r.searches.isEmpty())
                cand[u"searches"_s] = searches;
            cands.append(cand);
        }
        QJsonArray order;
        for (int i : s.order)
            order.append(s.candidates.at(i).candidate);
        scs.append(QJsonObject{{u"scenario"_s, s.scenario},
                               {u"kind"_s, s.kind},
                               {u"figure_of_merit"_s, s.meritKey},
                               {u"label"_s, s.meritLabel.text()},
                               {u"unit"_s, s.unit},
                               {u"lower_is_better"_s, s.lowerIsBetter},
                               {u"ranking"_s, order},
                               {u"candidates"_s, cands}});
    }
    QJsonArray left;
    for (const StudyLeftOut &l : leftOut)
        left.append(QJsonObject{{u"position"_s, l.position},
                                {u"candidate"_s, l.candidate},
                                {u"scenario"_s, l.scenario},
                                {u"repeat"_s, l.repeat},
                                {u"state"_s, l.state},
                                {u"reason"_s, l.reason}});
    return QJsonObject{
        {u"study"_s, name},
        {u"question"_s, question},
        {u"version"_s, version},
        {u"definition_sha256"_s, sha256},
        {u"definition"_s, definition},
        {u"order"_s, orderNote.text()},
        {u"baseline"_s, baseline},
        {u"confidence"_s, confidence},
        {u"interval"_s, u"Student t over the repeats' run-level values"_s},
        {u"ranking_rule"_s, Message("study.rank.rule", {confidenceText(confidence)}).text()},
        {u"cells"_s, cells},
        {u"completed_cells"_s, completedCells},
        {u"missing_candidates"_s, QJsonArray::fromStringList(missingCandidates())},
        {u"scenarios"_s, scs},
        {u"left_out"_s, left},
        {u"notes"_s, QJsonArray::fromStringList(notes)}};
}

QString StudyDecision::formatText(bool translate) const
{
    const auto tr = [translate](const Message &m) {
        return m.text(translate);
    };
    const QString conf = confidenceText(confidence);
    QString out;
    out +=
        tr(Message("study.text.title", {name, QString::number(version), sha256.left(12)})) + u'\n';
    out += tr(Message("study.text.question", {question})) + u'\n';
    out += tr(orderNote) + u'\n';
    out +=
        tr(Message("study.text.cells", {QString::number(completedCells), QString::number(cells)})) +
        u'\n';
    for (const StudyScenarioDecision &s : scenarios) {
        const QString label = tr(s.meritLabel);
        out +=
            u'\n' +
            tr(Message(s.lowerIsBetter ? "study.text.scenario.lower" : "study.text.scenario.higher",
                       {s.scenario, s.kind,
                        s.unit.isEmpty() ? label : label + u" ("_s + s.unit + u')', conf})) +
            u'\n';
        for (int i : s.order) {
            const StudyCandidateResult &r = s.candidates.at(i);
            QString line =
                u"  %1 %2 %3"_s.arg(r.rank > 0 ? QString::number(r.rank) + u'.' : u"-"_s, -3)
                    .arg(r.candidate, -14)
                    .arg(intervalText(r.merit.stats, s.decimals), -28);
            line +=
                u' ' + tr(Message("sig.text.pooled_runs", {QString::number(r.merit.stats.runs)}));
            if (!r.meritNote.isEmpty())
                line += u"  ("_s + tr(r.meritNote) + u')';
            line += u"  "_s + tr(verdictWords(r.verdict, r.baseline));
            if (r.tied)
                line +=
                    u"  ("_s + tr(Message("sig.text.tied_with", {r.tiedWith.join(u", "_s)})) + u')';
            out += line + u'\n';
        }
        out += u"  "_s + tr(Message("study.text.cost")) + u'\n';
        for (const StudyCandidateResult &r : s.candidates) {
            if (r.costPerRequest || r.costPerMillionOutputTokens)
                out += u"    %1 %2 %3/req, %4 %3/1M output tokens\n"_s.arg(r.candidate, -14)
                           .arg(studyCostText(r.costPerRequest, r.costPerRequestInterval, 6),
                                r.currency,
                                studyCostText(r.costPerMillionOutputTokens,
                                              r.costPerMillionOutputTokensInterval, 4));
            else
                out += u"    %1 n/a (%2)\n"_s.arg(r.candidate, -14)
                           .arg(tr(Message::fromEnglish(r.costNote)));
        }
        out += u"  "_s + tr(Message("study.text.other")) + u'\n';
        // Every metric any candidate has (a server scenario's candidate with no VALID rate has
        // none), in the order they come.
        QStringList figureKeys;
        for (const StudyCandidateResult &r : s.candidates)
            for (const StudyFigure &f : r.figures)
                if (!figureKeys.contains(f.key))
                    figureKeys << f.key;
        for (const QString &key : std::as_const(figureKeys)) {
            const StudyMetricInfo info = studyMetricInfo(key);
            QString line = u"    %1"_s.arg(
                info.unit.isEmpty() ? tr(info.label) : tr(info.label) + u" ("_s + info.unit + u')',
                -24);
            for (const StudyCandidateResult &r : s.candidates)
                for (const StudyFigure &f : r.figures)
                    if (f.key == key)
                        line += u"  %1 %2"_s.arg(r.candidate, intervalText(f.stats, info.decimals));
            out += line + u'\n';
        }
    }
    out += u'\n' + tr(Message("study.rank.rule", {conf})) + u'\n';
    if (!leftOut.isEmpty()) {
        out += tr(Message("study.text.left_out", {QString::number(leftOut.size())})) + u'\n';
        for (const StudyLeftOut &l : leftOut)
            out += u"  #%1 %2 · %3 · r%4: %5\n"_s.arg(l.position)
                       .arg(l.candidate, l.scenario)
                       .arg(l.repeat)
                       .arg(tr(Message::fromEnglish(l.reason)));
    }
    const QStringList missing = missingCandidates();
    if (!missing.isEmpty())
        out += tr(Message("study.text.missing", {missing.join(u", "_s)})) + u'\n';
    for (const QString &n : notes)
        out += tr(Message("study.text.note", {Message::fromEnglish(n)})) + u'\n';
    return out;
}

QString studyIntervalText(const SeriesStats &s, int decimals)
{
    if (s.runs == 0)
        return u"n/a"_s;
    if (!s.meanInterval.available)
        return fmt(s.mean, decimals);
    return u"%1 [%2, %3]"_s.arg(fmt(s.mean, decimals), fmt(s.meanInterval.lo, decimals),
                                fmt(s.meanInterval.hi, decimals));
}

} // namespace sb
