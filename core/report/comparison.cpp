#include "comparison.h"

#include "metrics/stats.h"
#include "report/reportcost.h"
#include "report/reportrun.h"

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

QString statLabel(const QString &stat)
{
    if (stat == "mean"_L1)
        return u"Mean"_s;
    if (stat == "median"_L1)
        return u"Median"_s;
    return stat.toUpper(); // "P99"
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
    const MetricStats *st = r.summary.stats(metric);
    if (!r.summary.isAvailable(metric)) {
        if (note)
            *note = r.summary.unavailableReason(metric);
        return std::nullopt;
    }
    if (!st || st->isEmpty()) {
        if (note)
            *note = r.summary.completed == 0 ? u"no successful request"_s : u"no sample"_s;
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
            *note = u"p%1 not computed for this run"_s.arg(percentileWord(p));
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

QString formatCell(const ComparisonRow &row, const ComparisonCell &cell)
{
    if (!cell.value)
        return u"n/a"_s;
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

    const auto addRow =
        [&](ComparisonRow row,
            const std::function<std::optional<double>(const ReportRun &, int, QString *)> &value) {
            for (int i = 0; i < runs.size(); ++i) {
                ComparisonCell cell;
                cell.value = value(runs.at(i), i, &cell.note);
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
            row.label = statLabel(stat) + u' ' + latencyLabel(metric);
            row.unit = u"ms"_s;
            row.group = latencyLabel(metric);
            addRow(row, [&](const ReportRun &r, int, QString *note) {
                return latencyStatistic(r, metric, stat, note);
            });
        }
    }

    // --- throughput and goodput ---
    const auto rate = [&](const char *key, const char *label, const char *unit, auto getter) {
        ComparisonRow row;
        row.key = QString::fromLatin1(key);
        row.label = QString::fromLatin1(label);
        row.unit = QString::fromLatin1(unit);
        row.group = u"Throughput"_s;
        row.lowerIsBetter = false;
        addRow(row, [&](const ReportRun &r, int, QString *note) -> std::optional<double> {
            if (!r.summary.isAvailable(row.key)) {
                *note = r.summary.unavailableReason(row.key);
                return std::nullopt;
            }
            if (r.summary.durationS <= 0) {
                *note = u"no duration"_s;
                return std::nullopt;
            }
            return getter(r);
        });
    };
    rate("request_throughput", "Request throughput", "req/s",
         [](const ReportRun &r) { return r.summary.requestThroughput; });
    rate("output_throughput", "Output token throughput", "tok/s",
         [](const ReportRun &r) { return r.summary.outputThroughput; });
    rate("total_token_throughput", "Total token throughput", "tok/s",
         [](const ReportRun &r) { return r.summary.totalTokenThroughput; });
    {
        ComparisonRow row;
        row.key = u"request_goodput"_s;
        row.label = u"Request goodput"_s;
        row.unit = u"req/s"_s;
        row.group = u"Throughput"_s;
        row.lowerIsBetter = false;
        addRow(row, [](const ReportRun &r, int, QString *note) -> std::optional<double> {
            if (!r.summary.goodputSet) {
                *note = u"no SLO set"_s;
                return std::nullopt;
            }
            return r.summary.requestGoodput;
        });
    }

    // --- counts and failures ---
    const auto count = [&](const char *key, const char *label, const char *unit, bool lower,
                           int decimals, auto getter) {
        ComparisonRow row;
        row.key = QString::fromLatin1(key);
        row.label = QString::fromLatin1(label);
        row.unit = QString::fromLatin1(unit);
        row.group = u"Requests"_s;
        row.lowerIsBetter = lower;
        row.decimals = decimals;
        addRow(row, [&](const ReportRun &r, int, QString *) -> std::optional<double> {
            return getter(r);
        });
    };
    count("completed", "Successful requests", "", false, 0,
          [](const ReportRun &r) { return double(r.summary.completed); });
    count("failed", "Failed requests", "", true, 0,
          [](const ReportRun &r) { return double(r.summary.failed); });
    count("failure_rate", "Failure rate", "%", true, 2,
          [](const ReportRun &r) -> std::optional<double> {
              const qint64 n = r.summary.completed + r.summary.failed;
              return n > 0 ? std::optional<double>(100.0 * double(r.summary.failed) / double(n))
                           : std::nullopt;
          });
    count("duration", "Benchmark duration", "s", true, 2,
          [](const ReportRun &r) -> std::optional<double> {
              if (!r.summary.isAvailable(u"duration"_s))
                  return std::nullopt;
              return r.summary.durationS;
          });

    // --- cost ---
    bool anyCovered = false;
    for (const RunCost &rc : costs)
        anyCovered = anyCovered || rc.covered;
    if (!costs.isEmpty() && !anyCovered)
        c.costNotes << u"unit costs are not available: no test window holds these runs"_s;
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
            c.costNotes << u"not every run lies in a test window: unit costs are shown where "
                           "available and not compared"_s;
        } else if (currencies.size() > 1) {
            costDiffs = false;
            c.costNotes << u"the windows are in different currencies (%1): not compared"_s.arg(
                currencies.join(u", "_s));
        } else if (!singleLoad || loads.size() > 1) {
            costDiffs = false;
            c.costNotes << u"the test windows do not hold the same single load (%1): unit costs "
                           "are comparable only over matching windows and load"_s.arg(
                               loads.join(u" | "_s));
        } else if (!c.comparability.workloadDifferences().isEmpty()) {
            costDiffs = false;
            c.costNotes << u"the runs differ in their workload: unit costs are not compared"_s;
        }
        const QString currency = currencies.value(0);
        const auto costRow = [&](const char *key, const char *label, auto figure) {
            ComparisonRow row;
            row.key = QString::fromLatin1(key);
            row.label = QString::fromLatin1(label);
            row.unit = currency;
            row.group = u"Cost"_s;
            row.decimals = 6;
            row.diffs = costDiffs;
            addRow(row, [&](const ReportRun &, int i, QString *note) -> std::optional<double> {
                const RunCost &rc = costs.value(i);
                if (!rc.covered) {
                    *note = rc.reason;
                    return std::nullopt;
                }
                const CostFigure f = figure(rc.breakdown);
                if (!f.available()) {
                    *note = f.reason;
                    return std::nullopt;
                }
                return f.value->toDouble();
            });
        };
        costRow("cost_total", "Window cost (total)",
                [](const CostBreakdown &b) { return b.total; });
        costRow("cost_per_request", "Cost per successful request",
                [](const CostBreakdown &b) { return b.perSuccessfulRequest; });
        costRow("cost_per_1m_output_tokens", "Cost per 1M output tokens",
                [](const CostBreakdown &b) { return b.perMillionOutputTokens; });
        for (int i = 0; i < costs.size(); ++i)
            if (costs.at(i).covered && costs.at(i).windowRunCount > 1)
                c.costNotes << u"%1: its window '%2' holds %3 runs; unit costs are over all of "
                               "them"_s.arg(c.columns.value(i), costs.at(i).windowName)
                                   .arg(costs.at(i).windowRunCount);
    }

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
        c.rankNote = u"No ranking: "_s + c.comparability.refusals.join(u" "_s);
    } else if (!rankRow) {
        c.rankNote = u"No ranking: the table has no row '%1'"_s.arg(c.rankBy.rowKey());
    } else if (!rankRow->diffs) {
        c.rankNote = u"No ranking by %1: "_s.arg(rankRow->label) + c.costNotes.join(u"; "_s);
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
        c.rankNote = u"Ranked by %1 (%2 is better)"_s.arg(
            rankRow->label, rankRow->lowerIsBetter ? u"lower"_s : u"higher"_s);
        if (c.comparability.variableCount() > 1)
            c.rankNote += u"; the runs differ in more than one variable, so the ranking does not "
                          "say which one made the difference"_s;
        QStringList missing;
        for (int i = 0; i < rankRow->cells.size(); ++i)
            if (!rankRow->cells.at(i).value)
                missing << c.columns.at(i);
        if (!missing.isEmpty())
            c.rankNote += u"; not available for %1 (ranked last)"_s.arg(missing.join(u", "_s));
    }
    return c;
}

QString Comparison::formatText() const
{
    QString out;
    out += u"================ Run comparison ================\n"_s;
    out += comparability.formatText();
    out += u'\n';
    constexpr int kLabel = 34;
    int kCol = 22;
    for (const QString &col : columns)
        kCol = std::max(kCol, int(col.size()) + 9);
    QString header = pad(u"metric"_s, kLabel);
    for (int i = 0; i < columns.size(); ++i)
        header += pad(columns.at(i) + (i == baseline ? u" (base)"_s : QString()), kCol);
    out += header.trimmed() + u'\n';
    QString group;
    for (const ComparisonRow &row : rows) {
        if (row.group != group) {
            group = row.group;
            out += u"-- %1\n"_s.arg(group);
        }
        QString line =
            pad(row.unit.isEmpty() ? row.label : u"%1 (%2)"_s.arg(row.label, row.unit), kLabel);
        for (int i = 0; i < row.cells.size(); ++i) {
            const ComparisonCell &cell = row.cells.at(i);
            QString v = formatCell(row, cell);
            if (i != baseline && cell.relDiff)
                v += u" (%1%2%)"_s.arg(*cell.relDiff >= 0 ? u"+"_s : QString())
                         .arg(*cell.relDiff * 100, 0, 'f', 1);
            line += pad(v, kCol);
        }
        out += line.trimmed() + u'\n';
    }
    out += u'\n';
    for (const QString &n : costNotes)
        out += u"Cost: "_s + n + u'\n';
    out += rankNote + u'\n';
    if (!ranking.isEmpty()) {
        const ComparisonRow *r = row(rankBy.rowKey());
        for (int k = 0; k < ranking.size(); ++k) {
            const int i = ranking.at(k);
            out += u"  %1. %2  %3 %4\n"_s.arg(k + 1).arg(columns.at(i),
                                                         formatCell(*r, r->cells.at(i)), r->unit);
        }
    }
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
        rs.append(QJsonObject{{u"key"_s, row.key},
                              {u"label"_s, row.label},
                              {u"unit"_s, row.unit},
                              {u"group"_s, row.group},
                              {u"lower_is_better"_s, row.lowerIsBetter},
                              {u"differences_meaningful"_s, row.diffs},
                              {u"cells"_s, cells}});
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
