#pragma once

#include "common/message.h"
#include "metrics/series.h"
#include "metrics/significance.h"
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

// One candidate of a comparison: a single run, or the runs of one series (--num-runs) the user
// picked together, which are compared over runs (docs/statistics.md). Statistical verdicts are
// per candidate; the table's columns stay one per run.
struct ComparisonCandidate
{
    QString label;        // a run's label, or the series' name with its run count
    Message labelMessage; // the same, for display
    QList<int> columns;   // the run columns it holds (Comparison::columns indexes)
    qint64 seriesId = 0;  // > 0: the sweep row (kind "series") the runs belong to
    QString cacheState;   // a series: what the server's prefix cache could see between runs
    bool isSeries() const { return seriesId > 0 && columns.size() > 1; }
};

// One row's test of one candidate against the baseline candidate (comparisonstats.h).
struct CandidateTest
{
    // A single run: its cell's value; a series: the mean of its runs' values.
    std::optional<double> estimate;
    SeriesStats series;    // a series: the spread of its runs' values
    bool baseline = false; // this candidate is the baseline: nothing to test
    // The outcome: verdict, difference and its interval (Verdict::NotAvailable when no test
    // applies or the data are too few; noteMessage says why).
    Difference difference;
    Message
        verdictMessage;  // "better", "worse", "no detectable difference at 95 %", "not available"
    Message noteMessage; // why there is no verdict
    SampleSizeHint hint; // what would detect ComparisonOptions::hintRelativeDifference
    Message hintMessage;

    Verdict verdict() const { return difference.verdict; }
    bool significant() const { return verdict() == Verdict::Better || verdict() == Verdict::Worse; }
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
    QList<CandidateTest> tests;  // one per Comparison::candidates; empty for verdict rows
};

struct ComparisonOptions
{
    int baseline = 0; // column the differences are taken against
    RankBy rankBy;
    // Latency statistics per metric, besides mean: median, and these percentiles.
    QList<double> percentiles = {90, 99};
    // The statistical tests (docs/statistics.md): their confidence, the relative difference the
    // sample-size hints are for, and whether picked runs of one series form one candidate.
    double confidence = kDefaultConfidence;
    double hintRelativeDifference = 0.05;
    bool groupSeries = true;
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

    // The statistics (comparisonstats.h): the candidates, the one holding the baseline run,
    // and the ranking by rankBy with the ties the data cannot separate (empty when ranking is
    // refused).
    double confidence = kDefaultConfidence;
    double hintRelativeDifference = 0.05;
    QList<ComparisonCandidate> candidates;
    int baselineCandidate = 0;
    Ranking tiedRanking;
    Message tieNoteMessage;
    // The candidate a run column belongs to; -1 when none.
    int candidateOf(int column) const;
    // Every run belongs to one series: the runs are repeats of one candidate (replicates), so
    // the comparison pools them (mean with its interval over runs) and ranks nothing.
    bool replicatesOnly() const
    {
        return candidates.size() == 1 && candidates.constFirst().isSeries() && runIds.size() > 1;
    }
    // The tied rank (1 = best) of a candidate, 0 when unranked; *tied says whether it shares it.
    int tiedRankOf(int candidate, bool *tied = nullptr) const;

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
