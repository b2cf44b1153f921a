#pragma once

#include "cost/billitem.h"
#include "cost/costbreakdown.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

class ProjectStore;
struct ReportRun;

// The cost side of one run in a report: the test window that holds it and that window's
// breakdown (docs/cost.md), as core/costproject's CostStore computes it for `servebench-cli cost`.
// A run no window holds has no cost — never zero.
struct RunCost
{
    bool covered = false; // a test window holds the run
    qint64 windowId = 0;
    QString windowName;
    int windowRunCount = 0; // the window's unit costs are over all its runs
    QStringList windowLoads;
    CostBreakdown breakdown;
    QList<BillItem> items;    // the bill items the window considered (its SUT's and shared ones)
    QString reason;           // why there is no cost, when !covered
    QStringList otherWindows; // further windows holding the run (the first one is used)
};

// The cost of each run (same order as `runs`).
QList<RunCost> costsForRuns(ProjectStore &store, const QList<ReportRun> &runs);

// The same for a window given by name (a study's window of one candidate x scenario); not
// covered, with the reason, when the project has no such window.
RunCost windowCost(ProjectStore &store, const QString &windowName);

} // namespace sb
