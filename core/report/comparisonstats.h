#pragma once

#include "common/message.h"
#include "metrics/significance.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

struct CandidateTest;
struct Comparison;
struct ComparisonOptions;
struct ComparisonRow;
struct ReportRun;

// The statistics of a comparison (docs/statistics.md, "Comparing a candidate with a baseline"):
// which runs form a candidate, and per row and candidate the difference from the baseline with
// its interval, a verdict and a sample-size hint; then the ranking by the rank-by row with the
// ties the data cannot separate. buildComparison() calls it once the table is built.
//
//   latency rows, single runs     per-request samples of each run: Welch for means, the
//                                 two-sample bootstrap for percentiles, ITL resampled by request;
//   any row, series on both sides Welch on the runs' values (compareSeries);
//   run-level rows, single runs   not testable from one run (one throughput, no spread);
//   a series against a single run not testable (neither unit fits both sides);
//   cost rows                     no interval (a window's cost is one number).
void addComparisonStatistics(Comparison *comparison, const QList<ReportRun> &runs,
                             const ComparisonOptions &options);

// The verdict in words, a catalogue message: "better", "worse", "no detectable difference at
// 95 %", "not available".
Message verdictMessage(Verdict verdict, double confidence);
// "-9.47 [-12.10, -6.84] ms (-21.0 % [-26.0, -16.0])"; the relative part only when available.
QString formatDifference(const Difference &d, int decimals, const QString &unit);
// The cell's test in one line for people: the difference with its interval and the verdict, or
// why there is none. Empty for the baseline.
QString formatTest(const ComparisonRow &row, const CandidateTest &test, bool translate);

// `servebench-cli compare`'s statistics block: candidates, per row and candidate the difference
// and verdict, the hints where no difference was detected, and the ranking with ties.
QString formatSignificanceText(const Comparison &comparison, bool translate);
// Runs that are all repeats of one candidate (Comparison::replicatesOnly): the pooled figure of
// each key metric with its interval over the runs, and no ranking. Empty otherwise.
QString formatReplicatesText(const Comparison &comparison, bool translate);

// JSON forms (English, as every JSON ServeBench writes).
QJsonObject candidateTestJson(const CandidateTest &test);
QJsonArray candidatesJson(const Comparison &comparison);
QJsonObject tiedRankingJson(const Comparison &comparison);

// The rows a decision-maker reads first, in this order, those the comparison has: median and
// p99 TTFT, mean TPOT, median ITL, p99 E2EL, output and request throughput, goodput, failure
// rate, and the rank-by row when it is none of them.
QStringList keyMetricRows(const Comparison &comparison);

} // namespace sb
