#pragma once

#include "common/message.h"
#include "report/comparability.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace sb {

struct ReportRun;
struct RunCost;

// What to rank the runs by: a latency metric and one statistic ("ttft:p99", "tpot:mean",
// "e2el:median"), or a rate / cost ("output_throughput", "goodput", "cost_per_request").
struct RankBy
{
    QString metric = QStringLiteral("ttft");
    QString stat = QStringLiteral("p99"); // mean | median | p<N>; empty for rates and costs

    // Accepts "ttft:p99", "ttft" (p99), "tpot:mean", "itl:p90", "e2el:median",
    // "request_throughput", "output_throughput", "total_token_throughput", "goodput",
    // "failed", "cost_per_request", "cost_per_1m_output_tokens".
    static bool parse(const QString &text, RankBy *out, QString *error);
    QString rowKey() const; // the comparison row it reads: "ttft.p99", "output_throughput"
};

struct ComparisonCell
{
    std::optional<double> value;   // empty: not available (and never shown as zero)
    std::optional<double> absDiff; // value − baseline
    std::optional<double> relDiff; // (value − baseline) / baseline; empty for a zero baseline
    QString note;                  // why not available
    Message noteMessage;           // the same, for display (note = its English text)
};

struct ComparisonRow
{
    QString key;          // "ttft.p99", "request_throughput", "cost_per_request"
    QString label;        // "P99 TTFT"
    QString unit;         // "ms", "req/s", "USD"
    QString group;        // "TTFT", "Throughput", "Failures", "Cost"
    Message labelMessage; // label and group for display (label = labelMessage.text())
    Message groupMessage;
    bool lowerIsBetter = true;
    bool diffs = true; // false: differences are not meaningful (e.g. costs over unlike windows)
    int decimals = 2;
    // A verdict, not a quantity: cells hold 1 (VALID) or 0 (INVALID) and read as the words; no
    // differences, never ranked.
    bool verdict = false;
    QList<ComparisonCell> cells; // one per run
};

struct ComparisonOptions
{
    int baseline = 0; // column the differences are taken against
    RankBy rankBy;
    // Latency statistics per metric, besides mean: median, and these percentiles.
    QList<double> percentiles = {90, 99};
};

// Runs as columns, metrics as rows, differences against a baseline column, and a ranking when
// the runs may be ranked at all.
struct Comparison
{
    QStringList columns; // run labels
    QList<qint64> runIds;
    int baseline = 0;
    Comparability comparability;
    QList<ComparisonRow> rows;

    RankBy rankBy;
    QList<int> ranking; // column indexes, best first; empty when ranking is refused
    QString rankNote;   // why there is no ranking, or what it is based on
    QStringList costNotes;
    Message rankNoteMessage; // rankNote and costNotes for display (the strings are their text())
    QList<Message> costNoteMessages;

    const ComparisonRow *row(const QString &key) const;
    // English unless `translate`: then in the installed language (the CLI under a Chinese locale).
    QString formatText(bool translate = false) const;
    QJsonObject toJson() const;
    // One line per (row, run): metric,unit,run,value,abs_diff,rel_diff.
    QByteArray summaryCsv() const;
};

// Builds the table. `costs` may be empty (no cost rows) or one per run.
Comparison buildComparison(const QList<ReportRun> &runs, const QList<RunCost> &costs,
                           const ComparisonOptions &options = {});

// One latency statistic of a run in ms ("ttft", "p99"; "mean", "median", "p<N>"), as the
// comparison's rows and the latency-versus-throughput curves read it; empty with *note (optional)
// saying why when the run has no such sample or statistic.
std::optional<double> latencyStatistic(const ReportRun &run, const QString &metric,
                                       const QString &stat, QString *note = nullptr);
std::optional<double> latencyStatistic(const ReportRun &run, const QString &metric,
                                       const QString &stat, Message *note);

// Formats a value with its row's decimals; "n/a" when missing. `translate`: the words (n/a,
// VALID, INVALID) in the installed language.
QString formatCell(const ComparisonRow &row, const ComparisonCell &cell, bool translate = false);

} // namespace sb
