#include "mlperf.h"

#include "common/clock.h"
#include "config/runplan.h"
#include "metrics/requestrecord.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Preset
{
    const char *name;
    double percentile;
    double ttftMs;
    double tpotMs;
    qint64 minQueries;
};

constexpr double kMlperfMinDurationS = 600;

constexpr Preset kPresets[] = {
    {"llama2-70b-server", 0.99, 2000, 200, 100},    {"llama2-70b-interactive", 0.99, 450, 40, 100},
    {"llama3.1-8b-server", 0.99, 2000, 100, 100},   {"llama3.1-8b-interactive", 0.99, 500, 30, 100},
    {"llama3.1-405b-server", 0.99, 6000, 175, 100}, {"llama2-70b-offline", 0.90, -1, -1, 24576},
    {"llama3.1-8b-offline", 0.90, -1, -1, 13368},   {"llama3.1-405b-offline", 0.90, -1, -1, 8313},
    {"single-stream", 0.90, -1, -1, 100},
};

QJsonValue numberOrNull(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

// "p99", "p99.9", "p90": the name MLPerf logs and our summaries use.
QString percentileLabel(double p)
{
    return u"p"_s + QString::number(p * 100, 'g', 6);
}

QString ms(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', 1) : u"inf"_s;
}

QString boundText(double v)
{
    return QString::number(v, 'g', 10);
}

QJsonObject earlyStoppingJson(const EarlyStoppingResult &r, bool singleStream)
{
    QJsonObject o{
        {u"percentile"_s, r.percentile},
        {u"queries"_s, r.queries},
        {u"estimate_ms"_s, numberOrNull(r.estimateMs)},
        {u"satisfied"_s, r.satisfied},
        {u"queries_needed"_s, r.queriesNeeded},
        {u"more_queries_needed"_s, r.moreQueriesNeeded()},
    };
    if (singleStream) {
        o[u"discarded"_s] = r.discarded();
        o[u"estimate_rank_from_top"_s] = r.overlatencyQueries; // estimate = t-th largest
    } else {
        o[u"overlatency_queries"_s] = r.overlatencyQueries;
    }
    return o;
}

QString serverEarlyStoppingText(const EarlyStoppingResult &r)
{
    if (r.satisfied)
        return u" * Run successful."_s;
    return u" * Run unsuccessful.\n * Processed %1 queries (%2 over the bound).\n"
           " * Would need to run at least %3 more queries,\n"
           "   with the run being successful if every additional\n"
           "   query were under latency."_s.arg(r.queries)
               .arg(r.overlatencyQueries)
               .arg(r.moreQueriesNeeded());
}

QString singleStreamEarlyStoppingText(const EarlyStoppingResult &r)
{
    const QString pct = QString::number(r.percentile * 100, 'g', 6);
    if (!r.satisfied)
        return u" * Only processed %1 queries.\n * Need to process at least %2 queries for early"
               " stopping."_s.arg(r.queries)
                   .arg(r.queriesNeeded);
    return u" * Processed at least %1 queries (%2).\n * Would discard %3 highest latency queries.\n"
           " * Early stopping %4th percentile estimate: %5 ms"_s.arg(r.queriesNeeded)
               .arg(r.queries)
               .arg(r.discarded())
               .arg(pct, ms(r.estimateMs));
}

const char *scenarioTitle(Scenario s)
{
    switch (s) {
    case Scenario::Server:
        return "Server";
    case Scenario::SingleStream:
        return "SingleStream";
    case Scenario::Offline:
        return "Offline";
    case Scenario::None:
        break;
    }
    return "None";
}

qint64 outputTokensOf(const RequestRecord &r)
{
    if (r.outputTokens >= 0)
        return r.outputTokens;
    qint64 n = 0;
    for (qint32 c : r.chunkTokens)
        n += c;
    return n > 0 ? n : r.chunkTimes.size();
}

qint64 schedOf(const RequestRecord &r)
{
    return r.tSched != 0 ? r.tSched : r.tSend;
}
qint64 completionOf(const RequestRecord &r)
{
    return std::max(r.tLast, r.tEnd);
}

} // namespace

double loadgenPercentile(const QList<double> &sortedAscending, double p)
{
    if (sortedAscending.isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    // LoadGen indexes with the truncated double product; keep its exact arithmetic.
    const auto index = std::min<qsizetype>(qsizetype(double(sortedAscending.size()) * p),
                                           sortedAscending.size() - 1);
    return sortedAscending.at(index);
}

QJsonObject MlperfConstraints::toJson() const
{
    QJsonObject o{
        {u"preset"_s, preset},
        {u"percentile"_s, percentile},
        {u"confidence"_s, confidence},
        {u"min_query_count"_s, minQueryCount},
        {u"min_duration_s"_s, minDurationS},
    };
    if (ttftBoundMs >= 0)
        o[u"ttft_ms"_s] = ttftBoundMs;
    if (tpotBoundMs >= 0)
        o[u"tpot_ms"_s] = tpotBoundMs;
    return o;
}

QStringList mlperfPresetNames()
{
    QStringList names;
    for (const auto &p : kPresets)
        names.append(QString::fromLatin1(p.name));
    return names;
}

bool mlperfPreset(const QString &name, MlperfConstraints *out)
{
    for (const auto &p : kPresets) {
        if (name.compare(QLatin1StringView(p.name), Qt::CaseInsensitive) != 0)
            continue;
        MlperfConstraints c;
        c.preset = QString::fromLatin1(p.name);
        c.percentile = p.percentile;
        c.ttftBoundMs = p.ttftMs;
        c.tpotBoundMs = p.tpotMs;
        c.minQueryCount = p.minQueries;
        c.minDurationS = kMlperfMinDurationS;
        *out = c;
        return true;
    }
    return false;
}

bool MlperfJudgement::earlyStoppingMet() const
{
    switch (scenario) {
    case Scenario::Server:
        return (!ttftChecked || ttftEarlyStopping.satisfied) &&
               (!tpotChecked || tpotEarlyStopping.satisfied);
    case Scenario::SingleStream:
        return e2elEarlyStopping.satisfied;
    case Scenario::Offline:
    case Scenario::None:
        break;
    }
    return true;
}

MlperfJudgement judgeScenario(Scenario scenario, const RecordSet &records,
                              const MlperfConstraints &c)
{
    MlperfJudgement j;
    j.scenario = scenario;
    j.constraints = c;

    QList<double> ttftOk; // successful only: the percentile statistic
    QList<double> tpotOk;
    QList<double> ttftAll; // failed as +inf: early stopping
    QList<double> tpotAll;
    QList<double> e2elAll;
    qint64 firstSched = std::numeric_limits<qint64>::max();
    qint64 lastSched = std::numeric_limits<qint64>::min();
    qint64 lastSend = std::numeric_limits<qint64>::min();
    qint64 lastDone = std::numeric_limits<qint64>::min();
    qint64 outputTokens = 0;
    qint64 succeeded = 0;

    for (const RequestRecord &r : records) {
        if (r.warmup)
            continue;
        ++j.queries;
        const qint64 sched = schedOf(r);
        firstSched = std::min(firstSched, sched);
        lastSched = std::max(lastSched, sched);
        lastSend = std::max(lastSend, r.tSend);
        if (!r.ok()) {
            ++j.failedQueries;
            ttftAll.append(kInf);
            tpotAll.append(kInf);
            e2elAll.append(kInf);
            continue;
        }
        ++succeeded;
        lastDone = std::max(lastDone, completionOf(r));
        const qint64 nOut = outputTokensOf(r);
        outputTokens += nOut;
        const double ttft = nsToMs(r.tFirst - sched);
        const double tpot = nOut > 1 ? nsToMs(r.tLast - r.tFirst) / double(nOut - 1) : 0.0;
        ttftOk.append(ttft);
        tpotOk.append(tpot);
        ttftAll.append(ttft);
        tpotAll.append(tpot);
        e2elAll.append(nsToMs(r.tLast - sched));
    }

    const auto fail = [&j](const Message &m) {
        j.failedConstraintMessages.append(m);
        j.failedConstraints.append(m.text());
    };
    if (j.queries == 0) {
        fail(Message("mlperf.no_measured"));
        return j;
    }

    switch (scenario) {
    case Scenario::Server: {
        j.durationS = nsToS(lastSched - firstSched);
        std::sort(ttftOk.begin(), ttftOk.end());
        std::sort(tpotOk.begin(), tpotOk.end());
        j.ttftChecked = c.ttftBoundMs >= 0;
        j.tpotChecked = c.tpotBoundMs >= 0;
        if (!j.ttftChecked && !j.tpotChecked) {
            j.perfConstraintsMet = false;
            fail(Message("mlperf.no_bound"));
        }
        if (succeeded == 0) {
            j.perfConstraintsMet = false;
            fail(Message("mlperf.no_success"));
        }
        const QString label = percentileLabel(c.percentile);
        if (j.ttftChecked) {
            j.ttftPercentileMs = loadgenPercentile(ttftOk, c.percentile);
            if (succeeded > 0 && j.ttftPercentileMs > c.ttftBoundMs) {
                j.perfConstraintsMet = false;
                fail(Message("mlperf.ttft_bound",
                             {label, ms(j.ttftPercentileMs), boundText(c.ttftBoundMs)}));
            }
        }
        if (j.tpotChecked) {
            j.tpotPercentileMs = loadgenPercentile(tpotOk, c.percentile);
            if (succeeded > 0 && j.tpotPercentileMs > c.tpotBoundMs) {
                j.perfConstraintsMet = false;
                fail(Message("mlperf.tpot_bound",
                             {label, ms(j.tpotPercentileMs), boundText(c.tpotBoundMs)}));
            }
        }
        if (j.ttftChecked) {
            j.ttftEarlyStopping =
                serverEarlyStopping(ttftAll, c.ttftBoundMs, c.percentile, c.confidence);
            if (!j.ttftEarlyStopping.satisfied)
                fail(Message("mlperf.early_ttft"));
        }
        if (j.tpotChecked) {
            j.tpotEarlyStopping =
                serverEarlyStopping(tpotAll, c.tpotBoundMs, c.percentile, c.confidence);
            if (!j.tpotEarlyStopping.satisfied)
                fail(Message("mlperf.early_tpot"));
        }
        break;
    }
    case Scenario::SingleStream:
        j.durationS = nsToS(lastSend - firstSched);
        j.e2elEarlyStopping = singleStreamEarlyStopping(e2elAll, c.percentile, c.confidence);
        if (!j.e2elEarlyStopping.satisfied)
            fail(Message("mlperf.early_e2el"));
        else if (!std::isfinite(j.e2elEarlyStopping.estimateMs))
            fail(Message("mlperf.early_e2el_failed",
                         {QString::number(j.failedQueries), percentileLabel(c.percentile)}));
        break;
    case Scenario::Offline:
        j.durationS = succeeded > 0 ? nsToS(lastDone - firstSched) : 0;
        if (j.durationS > 0) {
            j.samplesPerSecond = double(succeeded) / j.durationS;
            j.tokensPerSecond = double(outputTokens) / j.durationS;
        }
        if (j.failedQueries > 0)
            fail(Message("mlperf.offline_failed", {QString::number(j.failedQueries)}));
        break;
    case Scenario::None:
        fail(Message("mlperf.no_scenario"));
        return j;
    }

    if (c.minQueryCount > 0 && j.queries < c.minQueryCount) {
        j.minQueryCountMet = false;
        fail(Message("mlperf.min_query_count",
                     {QString::number(c.minQueryCount), QString::number(j.queries)}));
    }
    if (c.minDurationS > 0 && j.durationS < c.minDurationS) {
        j.minDurationMet = false;
        fail(Message("mlperf.min_duration",
                     {boundText(c.minDurationS), QString::number(j.durationS, 'f', 1)}));
    }
    j.valid = j.failedConstraints.isEmpty();
    return j;
}

QJsonObject MlperfJudgement::toJson() const
{
    QJsonObject o{
        {u"scenario"_s, QString::fromLatin1(scenarioName(scenario))},
        {u"result"_s, valid ? u"VALID"_s : u"INVALID"_s},
        {u"failed_constraints"_s, QJsonArray::fromStringList(failedConstraints)},
        {u"constraints"_s, constraints.toJson()},
        {u"latency_origin"_s, u"t_sched"_s},
        {u"queries"_s, queries},
        {u"failed_queries"_s, failedQueries},
        {u"duration_s"_s, durationS},
        {u"min_query_count_met"_s, minQueryCountMet},
        {u"min_duration_met"_s, minDurationMet},
        {u"early_stopping_met"_s, earlyStoppingMet()},
    };
    QJsonObject es;
    switch (scenario) {
    case Scenario::Server: {
        o[u"perf_constraints_met"_s] = perfConstraintsMet;
        const QString pct = percentileLabel(constraints.percentile);
        if (ttftChecked) {
            o[u"ttft_%1_ms"_s.arg(pct)] = numberOrNull(ttftPercentileMs);
            es[u"ttft"_s] = earlyStoppingJson(ttftEarlyStopping, false);
        }
        if (tpotChecked) {
            o[u"tpot_%1_ms"_s.arg(pct)] = numberOrNull(tpotPercentileMs);
            es[u"tpot"_s] = earlyStoppingJson(tpotEarlyStopping, false);
        }
        break;
    }
    case Scenario::SingleStream:
        es[u"e2el"_s] = earlyStoppingJson(e2elEarlyStopping, true);
        o[u"early_stopping_estimate_ms"_s] = numberOrNull(e2elEarlyStopping.estimateMs);
        break;
    case Scenario::Offline:
        o[u"samples_per_second"_s] = samplesPerSecond;
        o[u"tokens_per_second"_s] = tokensPerSecond;
        break;
    case Scenario::None:
        break;
    }
    if (!es.isEmpty())
        o[u"early_stopping"_s] = es;
    return o;
}

QString MlperfJudgement::formatMlperfBlock() const
{
    const auto yesNo = [](bool b) {
        return b ? u"Yes"_s : u"NO"_s;
    };
    const QString rule = u"================================================"_s;
    QStringList lines;
    lines << rule << u"MLPerf-style Results Summary"_s << rule;
    lines << u"Scenario : %1"_s.arg(QLatin1StringView(scenarioTitle(scenario)));
    if (!constraints.preset.isEmpty())
        lines << u"Preset   : %1"_s.arg(constraints.preset);
    lines << u"Latency measured from t_sched (LoadGen's rule)"_s;
    lines << u"Queries  : %1 (%2 failed)"_s.arg(queries).arg(failedQueries);
    const QString pct = percentileLabel(constraints.percentile);
    switch (scenario) {
    case Scenario::Server:
        if (ttftChecked)
            lines << u"TTFT %1 (ms) : %2 (bound %3)"_s.arg(pct, ms(ttftPercentileMs),
                                                           boundText(constraints.ttftBoundMs));
        if (tpotChecked)
            lines << u"TPOT %1 (ms) : %2 (bound %3)"_s.arg(pct, ms(tpotPercentileMs),
                                                           boundText(constraints.tpotBoundMs));
        break;
    case Scenario::SingleStream:
        lines << u"%1th percentile early-stopping latency (ms) : %2"_s.arg(
            QString::number(constraints.percentile * 100, 'g', 6),
            ms(e2elEarlyStopping.estimateMs));
        break;
    case Scenario::Offline:
        lines << u"Samples per second: %1"_s.arg(QString::number(samplesPerSecond, 'f', 2));
        lines << u"Tokens per second: %1"_s.arg(QString::number(tokensPerSecond, 'f', 2));
        break;
    case Scenario::None:
        break;
    }
    lines << u"Result is : %1"_s.arg(valid ? u"VALID"_s : u"INVALID"_s);
    if (scenario == Scenario::Server)
        lines << u"  Performance constraints satisfied : %1"_s.arg(yesNo(perfConstraintsMet));
    lines << u"  Min duration satisfied : %1"_s.arg(yesNo(minDurationMet));
    lines << u"  Min queries satisfied : %1"_s.arg(yesNo(minQueryCountMet));
    lines << u"  Early stopping satisfied: %1"_s.arg(yesNo(earlyStoppingMet()));
    if (!failedConstraints.isEmpty()) {
        lines << u"Failed constraints:"_s;
        for (const QString &f : failedConstraints)
            lines << u" * "_s + f;
    }
    if (scenario == Scenario::Server) {
        if (ttftChecked)
            lines << u"TTFT Early Stopping Result:"_s << serverEarlyStoppingText(ttftEarlyStopping);
        if (tpotChecked)
            lines << u"TPOT Early Stopping Result:"_s << serverEarlyStoppingText(tpotEarlyStopping);
    } else if (scenario == Scenario::SingleStream) {
        lines << u"Early Stopping Result:"_s << singleStreamEarlyStoppingText(e2elEarlyStopping);
    }
    lines << rule;
    return lines.join(u'\n') + u'\n';
}

} // namespace sb
