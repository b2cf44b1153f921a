#pragma once

#include "report/comparison.h"
#include "report/htmlreport.h"
#include "report/latencycurve.h"
#include "report/reportrun.h"
#include "store/storetypes.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

// What the comparison view reads from the project file and computes, as values built in a
// worker thread and handed to the GUI thread: nothing here touches a widget.

namespace sb {

// One row of the run picker.
struct CompareRunEntry
{
    qint64 id = 0;
    QString name;
    QString sut;
    Scenario scenario = Scenario::None;
    StoredRunStatus status = StoredRunStatus::Completed;
    QDateTime startedUtc;
    qint64 sweepId = 0;
    QString sweep; // the sweep's name; empty when the run is in none
    bool imported = false;
};

struct CompareRunList
{
    QList<CompareRunEntry> runs; // oldest first
    QString error;               // the project could not be read
};

// Opens the project read-only in the calling thread and lists its runs.
CompareRunList listCompareRuns(const QString &projectPath);

// The chosen runs as loaded once: the report content (runs with raw records and recomputed
// summaries, their costs, the report's chart data) and the runs the latency-versus-throughput
// curves draw on (the chosen ones and every run of the sweeps they belong to). Immutable once
// built, shared between the GUI and the jobs that rebuild the comparison for other options.
struct CompareRuns
{
    QList<qint64> runIds;
    ReportContent content;
    QList<ReportRun> curveRuns;
    QStringList sweeps; // the sweeps whose runs joined the curves
};

struct CompareOutcome
{
    std::shared_ptr<const CompareRuns> runs;
    Comparison comparison;
    LatencyCurves curves;
    QString error;
};

// Reads the runs from the project (its own read-only connection, in the calling thread) and
// builds the comparison exactly as `servebench-cli compare` does (loadReportContent).
CompareOutcome loadComparison(const QString &projectPath, const QList<qint64> &runIds,
                              const ComparisonOptions &options,
                              const LatencyCurveOptions &curveOptions);
// Another baseline, ranking or curve axis over runs already loaded: no disk access.
CompareOutcome rebuildComparison(const std::shared_ptr<const CompareRuns> &runs,
                                 const ComparisonOptions &options,
                                 const LatencyCurveOptions &curveOptions);

} // namespace sb
