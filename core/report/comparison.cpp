#include "comparison.h"

#include "metrics/definitions.h"
#include "metrics/stats.h"
#include "report/comparisonstats.h"
#include "report/reportcost.h"
#include "report/reportrun.h"
#include "report/serverreport.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <functional>

#include <algorithm>
#include <cmath>

namespace sb {

using namespace Qt::StringLiterals;

namespace {

const QStringList &latencyKeys()
{
    static const QStringList k = {u"ttft"_s, u"tpot"_s, u"itl"_s, u"e2el"_s};
    return k;
}

QString latencyLabel(const QString &metric)
{
    return metric.toUpper();
}

// "Mean TTFT", "Median TTFT", "P99 TTFT"
Message statRowLabel(const QString &stat, const QString &metric)
{
    if (stat == "mean"_L1)
        return Message("cmp.row.mean", {latencyLabel(metric)});
    if (stat == "median"_L1)
        return Message("cmp.row.median", {latencyLabel(metric)});
    return Message::literal(stat.toUpper() + u' ' + latencyLabel(metric));
}

bool validStat(const QString &stat)
{
    static const QRegularExpression p(u"^p(\\d+(\\.\\d+)?)$"_s);
    if (stat == "mean"_L1 || stat == "median"_L1)
        return true;
    const auto m = p.match(stat);
    return m.hasMatch() && m.captured(1).toDouble() <= 100;
}

QString pad(const QString &s, int width)
{
    return s.size() >= width ? s + u' ' : s.leftJustified(width);
}

QString csvField(const QString &s)
{
    if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n') && !s.contains(u'\r'))
        return s;
    QString q = s;
    q.replace(u"\""_s, u"\"\""_s);
    return u'"' + q + u'"';
}

QJsonValue opt(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}

} // namespace

std::optional<double> latencyStatistic(const ReportRun &r, const QString &metric,
                                       const QString &stat, QString *note)
{
    Message m;
    const auto v = latencyStatistic(r, metric, stat, &m);
    if (note && !m.isEmpty())
        *note = m.text();
    return v;
}

std::optional<double> latencyStatistic(const ReportRun &r, const QString &metric,
                                       const QString &stat, Message *note)
{
    const MetricStats *st = r.summary.stats(metric);
    if (!r.summary.isAvailable(metric)) {
        if (note)
            *note = Message::fromEnglish(r.summary.unavailableReason(metric));
        return std::nullopt;
    }
    if (!st || st->isEmpty()) {
        if (note)
            *note =
                Message(r.summary.completed == 0 ? "cmp.note.no_success" : "cmp.note.no_sample");
        return std::nullopt;
    }
    if (stat == "mean"_L1)
        return st->mean;
    if (stat == "median"_L1)
        return st->median;
    const double p = stat.mid(1).toDouble();
    const double v = st->percentile(p);
    if (std::isnan(v)) {
        if (note)
            *note = Message("cmp.note.percentile", {percentileWord(p)});
        return std::nullopt;
    }
    return v;
}

bool RankBy::parse(const QString &text, RankBy *out, QString *error)
{
    const QString t = text.trimmed().toLower();
    const qsizetype colon = t.indexOf(u':');
    RankBy r;
    r.metric = colon < 0 ? t : t.left(colon);
    r.stat = colon < 0 ? QString() : t.mid(colon + 1);
    if (r.metric == "goodput"_L1)
        r.metric = u"request_goodput"_s;
    if (latencyKeys().contains(r.metric)) {
        if (r.stat.isEmpty())
            r.stat = u"p99"_s;
        if (!validStat(r.stat)) {
            if (error)
                *error =
                    u"--rank-by %1: the statistic must be mean, median or p<N> (p99, p99.9)"_s.arg(
                        text);
            return false;
        }
    } else {
        static const QStringList rates = {u"request_throughput"_s,
                                          u"output_throughput"_s,
                                          u"total_token_throughput"_s,
                                          u"input_throughput"_s,
                                          u"item_throughput"_s,
                                          u"request_goodput"_s,
                                          u"failed"_s,
                                          u"cost_per_request"_s,
                                          u"cost_per_1m_output_tokens"_s};
        if (!rates.contains(r.metric) || !r.stat.isEmpty()) {
            if (error)
                *error = u"--rank-by %1: expected ttft|tpot|itl|e2el[:mean|median|p<N>] or one of "
                         "%2"_s.arg(text, rates.join(u", "_s));
            return false;
        }
    }
    *out = r;
    return true;
}

QString RankBy::rowKey() const
{
    return stat.isEmpty() ? metric : metric + u'.' + stat;
}

const ComparisonRow *Comparison::row(const QString &key) const
{
    for (const auto &r : rows)
        if (r.key == key)
            return &r;
    return nullptr;
}

QString formatCell(const ComparisonRow &row, const ComparisonCell &cell, bool translate)
{
    if (!cell.value)
        return Message("cmp.cell.na").text(translate);
    if (row.verdict)
        return Message(*cell.value > 0 ? "cmp.cell.valid" : "cmp.cell.invalid").text(translate);
    return QString::number(*cell.value, 'f', row.decimals);
}

Comparison buildComparison(const QList<ReportRun> &runs, const QList<RunCost> &costs,
                           const ComparisonOptions &options)
{
    Comparison c;
    QList<QJsonObject> snapshots;
    for (const ReportRun &r : runs) {
        c.columns << r.label;
        c.runIds << r.id;
        snapshots << r.info.snapshot;
    }
    c.comparability = checkComparability(snapshots, c.columns);
    c.baseline = std::clamp(options.baseline, 0, std::max(0, int(runs.size()) - 1));
    c.rankBy = options.rankBy;
    // Embeddings and rerank runs have no TTFT, TPOT, ITL or output tokens (docs/metrics.md,
    // "Embeddings and rerank"): a ranking asked for by one of them is by E2EL (latency) or
    // request throughput instead, and says so.
    const bool allNonStreamed =
        !runs.isEmpty() &&
        std::all_of(runs.cbegin(), runs.cend(), [](const ReportRun &r) {
            return r.summary.nonStreamed;
        });
    const bool anyNonStreamed = std::any_of(runs.cbegin(), runs.cend(), [](const ReportRun &r) {
        return r.summary.nonStreamed || r.summary.totalItems > 0;
    });
    std::optional<RankBy> askedRank;
    if (allNonStreamed) {
        static const QStringList streamed = {u"ttft"_s, u"tpot"_s, u"itl"_s};
        if (streamed.contains(c.rankBy.metric)) {
            askedRank = c.rankBy;
            c.rankBy.metric = u"e2el"_s;
        } else if (c.rankBy.metric == "output_throughput"_L1 ||
                   c.rankBy.metric == "total_token_throughput"_L1) {
            askedRank = c.rankBy;
            c.rankBy.metric = u"request_throughput"_s;
        }
    }

    const auto addRow =
        [&](ComparisonRow row,
            const std::function<std::optional<double>(const ReportRun &, int, Message *)> &value) {
            row.label = row.labelMessage.text();
            row.group = row.groupMessage.text();
            for (int i = 0; i < runs.size(); ++i) {
                ComparisonCell cell;
                cell.value = value(runs.at(i), i, &cell.noteMessage);
                cell.note = cell.noteMessage.text();
                if (cell.value && std::isnan(*cell.value))
                    cell.value.reset();
                row.cells.append(cell);
            }
            c.rows.append(row);
        };

    // --- latency ---
    QStringList stats = {u"mean"_s, u"median"_s};
    for (double p : options.percentiles)
        stats << u'p' + percentileWord(p);
    if (latencyKeys().contains(c.rankBy.metric) && !stats.contains(c.rankBy.stat))
        stats << c.rankBy.stat;
    for (const QString &metric : latencyKeys()) {
        for (const QString &stat : stats) {
            ComparisonRow row;
            row.key = metric + u'.' + stat;
            row.labelMessage = statRowLabel(stat, metric);
            row.unit = u"ms"_s;
            row.groupMessage = Message::literal(latencyLabel(metric));
            addRow(row, [&](const ReportRun &r, int, Message *note) {
                return latencyStatistic(r, metric, stat, note);
            });
        }
    }

    // --- reasoning (docs/metrics.md): only when some run streamed reasoning, so comparisons of
    // models that do not reason keep their rows ---
    const bool reasoning = std::any_of(runs.cbegin(), runs.cend(), [](const ReportRun &r) {
        return r.summary.reasoningRequests > 0;
    });
    if (reasoning) {
        for (const char *key : {"ttfct", "reasoning_time", "reasoning_tokens"}) {
            const QString metric = QString::fromLatin1(key);
            const MetricDefinition *d = metricDefinition(metric);
            const Message label =
                metric == "ttfct"_L1 ? Message::literal(u"TTFCT"_s) : d->labelMessage;
            for (const QString &stat : stats) {
                ComparisonRow row;
                row.key = metric + u'.' + stat;
                row.labelMessage =
                    stat == "mean"_L1 ? Message("cmp.row.mean", {label})
                    : stat == "median"_L1
                        ? Message("cmp.row.median", {label})
                        : Message::join({Message::literal(stat.toUpper()), label}, u" "_s);
                row.unit = d->unit;
                row.groupMessage = Message("cmp.group.reasoning");
                addRow(row, [&](const ReportRun &r, int, Message *note) {
                    return latencyStatistic(r, metric, stat, note);
                });
            }
        }
    }

    // --- throughput and goodput ---
    const auto rate = [&](const char *key, const char *label, const char *unit, auto getter) {
        ComparisonRow row;
        row.key = QString::fromLatin1(key);
        row.labelMessage = Message(label);
        row.unit = QString::fromLatin1(unit);
        row.groupMessage = Message("cmp.group.throughput");
        row.lowerIsBetter = false;
        addRow(row, [&](const ReportRun &r, int, Message *note) -> std::optional<double> {
            if (!r.summary.isAvailable(row.key)) {
                *note = Message::fromEnglish(r.summary.unavailableReason(row.key));
                return std::nullopt;
            }
            if (r.summary.durationS <= 0) {
                *note = Message("cmp.note.no_duration");
                return std::nullopt;
            }
            return getter(r);
        });
    };
    rate("request_throughput", "cmp.row.request_throughput", "req/s",
         [](const ReportRun &r) { return r.summary.requestThroughput; });
    rate("output_throughput", "cmp.row.output_throughput", "tok/s",
         [](const ReportRun &r) { return r.summary.outputThroughput; });
    rate("total_token_throughput", "cmp.row.total_token_throughput", "tok/s",
         [](const ReportRun &r) { return r.summary.totalTokenThroughput; });
    if (anyNonStreamed) {
        rate("input_throughput", "cmp.row.input_throughput", "tok/s",
             [](const ReportRun &r) { return r.summary.inputThroughput; });
        rate("item_throughput", "cmp.row.item_throughput", "items/s",
             [](const ReportRun &r) { return r.summary.itemThroughput; });
    }
    {
        ComparisonRow row;
        row.key = u"request_goodput"_s;
        row.labelMessage = Message("cmp.row.request_goodput");
        row.unit = u"req/s"_s;
        row.groupMessage = Message("cmp.group.throughput");
        row.lowerIsBetter = false;
        addRow(row, [](const ReportRun &r, int, Message *note) -> std::optional<double> {
            if (!r.summary.goodputSet) {
                *note = Message("cmp.note.no_slo");
                return std::nullopt;
            }
            return r.summary.requestGoodput;
        });
    }

    // --- the MLPerf verdict, as the run pipeline derived it ---
    bool anyScenario = false;
    for (const ReportRun &r : runs)
        anyScenario = anyScenario || r.input.plan.profile.scenario != Scenario::None;
    if (anyScenario) {
        ComparisonRow row;
        row.key = u"mlperf.valid"_s;
        row.labelMessage = Message("cmp.row.mlperf");
        row.groupMessage = Message("cmp.group.mlperf");
        row.diffs = false;
        row.verdict = true;
        row.decimals = 0;
        row.lowerIsBetter = false;
        addRow(row, [](const ReportRun &r, int, Message *note) -> std::optional<double> {
            if (r.input.plan.profile.scenario == Scenario::None) {
                *note = Message("cmp.note.no_scenario");
                return std::nullopt;
            }
            if (!r.derived.hasMlperf) {
                *note = r.rawRecords ? Message::fromEnglish(r.derived.mlperfError)
                                     : Message("cmp.note.imported_no_records");
                return std::nullopt;
            }
            return r.derived.mlperf.valid ? 1.0 : 0.0;
        });
    }

    // --- counts and failures ---
    const auto count = [&](const char *key, const char *label, const char *unit, bool lower,
                           int decimals, auto getter) {
        ComparisonRow row;
        row.key = QString::fromLatin1(key);
        row.labelMessage = Message(label);
        row.unit = QString::fromLatin1(unit);
        row.groupMessage = Message("cmp.group.requests");
        row.lowerIsBetter = lower;
        row.decimals = decimals;
        addRow(row, [&](const ReportRun &r, int, Message *) -> std::optional<double> {
            return getter(r);
        });
    };
    count("completed", "cmp.row.completed", "", false, 0,
          [](const ReportRun &r) { return double(r.summary.completed); });
    count("failed", "cmp.row.failed", "", true, 0,
          [](const ReportRun &r) { return double(r.summary.failed); });
    count("failure_rate", "cmp.row.failure_rate", "%", true, 2,
          [](const ReportRun &r) -> std::optional<double> {
              const qint64 n = r.summary.completed + r.summary.failed;
              return n > 0 ? std::optional<double>(100.0 * double(r.summary.failed) / double(n))
                           : std::nullopt;
          });
    count("duration", "cmp.row.duration", "s", true, 2,
          [](const ReportRun &r) -> std::optional<double> {
              if (!r.summary.isAvailable(u"duration"_s))
                  return std::nullopt;
              return r.summary.durationS;
          });

    // --- server-side evidence (report/serverreport.h), when some run has it ---
    c.rows.append(serverComparisonRows(runs));

    // --- cost ---
    bool anyCovered = false;
    for (const RunCost &rc : costs)
        anyCovered = anyCovered || rc.covered;
    if (!costs.isEmpty() && !anyCovered)
        c.costNoteMessages << Message("cmp.cost.no_window");
    if (anyCovered) {
        QStringList currencies;
        QStringList loads;
        bool allCovered = true;
        bool singleLoad = true;
        for (const RunCost &rc : costs) {
            if (!rc.covered) {
                allCovered = false;
                continue;
            }
            if (!rc.breakdown.currency.isEmpty() && !currencies.contains(rc.breakdown.currency))
                currencies << rc.breakdown.currency;
            if (rc.windowLoads.size() != 1)
                singleLoad = false;
            else if (!loads.contains(rc.windowLoads.constFirst()))
                loads << rc.windowLoads.constFirst();
        }
        bool costDiffs = true;
        if (!allCovered) {
            costDiffs = false;
            c.costNoteMessages << Message("cmp.cost.not_all_covered");
        } else if (currencies.size() > 1) {
            costDiffs = false;
            c.costNoteMessages << Message("cmp.cost.currencies", {currencies.join(u", "_s)});
        } else if (!singleLoad || loads.size() > 1) {
            costDiffs = false;
            c.costNoteMessages << Message("cmp.cost.loads", {loads.join(u" | "_s)});
        } else if (!c.comparability.workloadDifferences().isEmpty()) {
            costDiffs = false;
            c.costNoteMessages << Message("cmp.cost.workload");
        }
        const QString currency = currencies.value(0);
        const auto costRow = [&](const char *key, const char *label, auto figure) {
            ComparisonRow row;
            row.key = QString::fromLatin1(key);
            row.labelMessage = Message(label);
            row.unit = currency;
            row.groupMessage = Message("cmp.group.cost");
            row.decimals = 6;
            row.diffs = costDiffs;
            addRow(row, [&](const ReportRun &, int i, Message *note) -> std::optional<double> {
                const RunCost &rc = costs.value(i);
                // The cost module hands its reasons over in English; fromEnglish() finds their
                // catalogue entries (cost.reason.*).
                if (!rc.covered) {
                    *note = Message::fromEnglish(rc.reason);
                    return std::nullopt;
                }
                const CostFigure f = figure(rc.breakdown);
                if (!f.available()) {
                    *note = Message::fromEnglish(f.reason);
                    return std::nullopt;
                }
                return f.value->toDouble();
            });
        };
        costRow("cost_total", "cmp.row.cost_total", [](const CostBreakdown &b) { return b.total; });
        costRow("cost_per_request", "cmp.row.cost_per_request",
                [](const CostBreakdown &b) { return b.perSuccessfulRequest; });
        costRow("cost_per_1m_output_tokens", "cmp.row.cost_per_1m_output_tokens",
                [](const CostBreakdown &b) { return b.perMillionOutputTokens; });
        for (int i = 0; i < costs.size(); ++i)
            if (costs.at(i).covered && costs.at(i).windowRunCount > 1)
                c.costNoteMessages << Message("cmp.cost.shared_window",
                                              {c.columns.value(i), costs.at(i).windowName,
                                               QString::number(costs.at(i).windowRunCount)});
    }
    c.costNotes = messageTexts(c.costNoteMessages);

    // --- differences against the baseline ---
    for (ComparisonRow &row : c.rows) {
        if (!row.diffs || row.cells.isEmpty())
            continue;
        const auto base = row.cells.at(c.baseline).value;
        for (int i = 0; i < row.cells.size(); ++i) {
            ComparisonCell &cell = row.cells[i];
            if (!cell.value || !base)
                continue;
            cell.absDiff = *cell.value - *base;
            if (*base != 0)
                cell.relDiff = (*cell.value - *base) / std::abs(*base);
        }
    }

    // --- ranking ---
    const ComparisonRow *rankRow = c.row(c.rankBy.rowKey());
    if (!c.comparability.rankable()) {
        c.rankNoteMessage = Message("cmp.rank.refused",
                                    {Message::join(c.comparability.refusalMessages.isEmpty()
                                                       ? Message::literals(c.comparability.refusals)
                                                       : c.comparability.refusalMessages,
                                                   u" "_s)});
    } else if (!rankRow) {
        c.rankNoteMessage = Message("cmp.rank.no_row", {c.rankBy.rowKey()});
    } else if (!rankRow->diffs) {
        c.rankNoteMessage =
            Message("cmp.rank.no_diffs",
                    {rankRow->labelMessage, Message::join(c.costNoteMessages, u"; "_s)});
    } else {
        QList<int> order;
        for (int i = 0; i < rankRow->cells.size(); ++i)
            order << i;
        std::stable_sort(order.begin(), order.end(), [rankRow](int a, int b) {
            const auto &va = rankRow->cells.at(a).value;
            const auto &vb = rankRow->cells.at(b).value;
            if (!va || !vb)
                return va.has_value() && !vb.has_value(); // missing values last
            return rankRow->lowerIsBetter ? *va < *vb : *va > *vb;
        });
        c.ranking = order;
        c.rankNoteMessage = Message(rankRow->lowerIsBetter ? "cmp.rank.lower" : "cmp.rank.higher",
                                    {rankRow->labelMessage});
        if (c.comparability.variableCount() > 1)
            c.rankNoteMessage = Message("cmp.rank.confounded", {c.rankNoteMessage});
        QStringList missing;
        for (int i = 0; i < rankRow->cells.size(); ++i)
            if (!rankRow->cells.at(i).value)
                missing << c.columns.at(i);
        if (!missing.isEmpty())
            c.rankNoteMessage = Message(
                "cmp.rank.missing", {c.rankNoteMessage, Message::literal(missing.join(u", "_s))});
    }
    if (askedRank && c.comparability.rankable())
        c.rankNoteMessage = Message("cmp.rank.non_streamed",
                                    {c.rankNoteMessage, Message::literal(askedRank->rowKey())});
    addComparisonStatistics(&c, runs, options);
    // Repeats of one candidate (the picked runs all belong to one series) are replicates, not
    // competitors: their differences are run-to-run noise, so they are pooled, never ranked
    // (docs/statistics.md, "Repeats are replicates").
    if (c.replicatesOnly()) {
        c.ranking.clear();
        c.tiedRanking = Ranking();
        c.rankNoteMessage =
            Message("cmp.rank.replicates", {c.candidates.constFirst().labelMessage,
                                            Message::literal(QString::number(c.columns.size()))});
    }
    c.rankNote = c.rankNoteMessage.text();
    return c;
}

QString Comparison::formatText(bool translate) const
{
    QString out;
    out += Message("cmp.text.title").text(translate) + u'\n';
    out += comparability.formatText(translate);
    out += u'\n';
    constexpr int kLabel = 34;
    int kCol = 22;
    for (const QString &col : columns)
        kCol = std::max(kCol, int(col.size()) + 9);
    QString header = pad(Message("cmp.text.metric").text(translate), kLabel);
    for (int i = 0; i < columns.size(); ++i)
        header += pad(i == baseline ? Message("cmp.text.base", {columns.at(i)}).text(translate)
                                    : columns.at(i),
                      kCol);
    out += header.trimmed() + u'\n';
    QString group;
    for (const ComparisonRow &row : rows) {
        if (row.group != group) {
            group = row.group;
            out += u"-- %1\n"_s.arg(translate ? row.groupMessage.translated() : group);
        }
        const QString label = translate ? row.labelMessage.translated() : row.label;
        QString line = pad(row.unit.isEmpty() ? label : u"%1 (%2)"_s.arg(label, row.unit), kLabel);
        for (int i = 0; i < row.cells.size(); ++i) {
            const ComparisonCell &cell = row.cells.at(i);
            QString v = formatCell(row, cell, translate);
            if (i != baseline && cell.relDiff)
                v += u" (%1%2%)"_s.arg(*cell.relDiff >= 0 ? u"+"_s : QString())
                         .arg(*cell.relDiff * 100, 0, 'f', 1);
            line += pad(v, kCol);
        }
        out += line.trimmed() + u'\n';
    }
    out += u'\n';
    if (translate) {
        for (const Message &n : costNoteMessages)
            out += Message("cmp.text.cost", {n}).translated() + u'\n';
        out += rankNoteMessage.translated() + u'\n';
    } else {
        for (const QString &n : costNotes)
            out += u"Cost: "_s + n + u'\n';
        out += rankNote + u'\n';
    }
    if (!ranking.isEmpty()) {
        const ComparisonRow *r = row(rankBy.rowKey());
        for (int k = 0; k < ranking.size(); ++k) {
            const int i = ranking.at(k);
            out += u"  %1. %2  %3 %4\n"_s.arg(k + 1).arg(
                columns.at(i), formatCell(*r, r->cells.at(i), translate), r->unit);
        }
    }
    const QString stats = formatSignificanceText(*this, translate);
    if (!stats.isEmpty())
        out += u'\n' + stats;
    return out;
}

QJsonObject Comparison::toJson() const
{
    QJsonArray rs;
    for (const ComparisonRow &row : rows) {
        QJsonArray cells;
        for (const ComparisonCell &cell : row.cells) {
            QJsonObject o{{u"value"_s, opt(cell.value)},
                          {u"abs_diff"_s, opt(cell.absDiff)},
                          {u"rel_diff"_s, opt(cell.relDiff)}};
            if (!cell.note.isEmpty())
                o[u"note"_s] = cell.note;
            cells.append(o);
        }
        QJsonObject r{{u"key"_s, row.key},
                      {u"label"_s, row.label},
                      {u"unit"_s, row.unit},
                      {u"group"_s, row.group},
                      {u"lower_is_better"_s, row.lowerIsBetter},
                      {u"differences_meaningful"_s, row.diffs},
                      {u"cells"_s, cells}};
        if (!row.tests.isEmpty()) {
            QJsonArray tests;
            for (const CandidateTest &t : row.tests)
                tests.append(candidateTestJson(t));
            r[u"tests"_s] = tests; // one per candidate, against the baseline candidate
        }
        rs.append(r);
    }
    QJsonArray ids, rank;
    for (qint64 id : runIds)
        ids.append(id);
    for (int i : ranking)
        rank.append(runIds.value(i));
    return QJsonObject{{u"runs"_s, QJsonArray::fromStringList(columns)},
                       {u"run_ids"_s, ids},
                       {u"baseline_run_id"_s, runIds.value(baseline)},
                       {u"comparability"_s, comparability.toJson()},
                       {u"rank_by"_s, rankBy.rowKey()},
                       {u"ranking_run_ids"_s, rank},
                       {u"rank_note"_s, rankNote},
                       {u"cost_notes"_s, QJsonArray::fromStringList(costNotes)},
                       {u"confidence"_s, confidence},
                       {u"hint_relative_difference"_s, hintRelativeDifference},
                       {u"candidates"_s, candidatesJson(*this)},
                       {u"ranking_with_ties"_s, tiedRankingJson(*this)},
                       {u"rows"_s, rs}};
}

QByteArray Comparison::summaryCsv() const
{
    QString out = u"metric,label,unit,run_id,run,baseline,value,abs_diff,rel_diff,note\n"_s;
    const auto num = [](const std::optional<double> &v) {
        return v ? QString::number(*v, 'g', 12) : QString();
    };
    for (const ComparisonRow &row : rows) {
        for (int i = 0; i < row.cells.size(); ++i) {
            const ComparisonCell &cell = row.cells.at(i);
            const QStringList fields = {row.key,
                                        csvField(row.label),
                                        csvField(row.unit),
                                        QString::number(runIds.value(i)),
                                        csvField(columns.value(i)),
                                        i == baseline ? u"1"_s : u"0"_s,
                                        num(cell.value),
                                        num(cell.absDiff),
                                        num(cell.relDiff),
                                        csvField(cell.note)};
            out += fields.join(u',') + u'\n';
        }
    }
    return out.toUtf8();
}

} // namespace sb
