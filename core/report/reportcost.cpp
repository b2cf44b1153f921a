#include "reportcost.h"

#include "costproject/coststore.h"
#include "report/reportrun.h"
#include "store/projectstore.h"

namespace sb {

using namespace Qt::StringLiterals;

namespace {

void fillWindowCost(const CostStore &costs, const ProjectWindow &w, const CostOptions &options,
                    RunCost *c)
{
    c->covered = true;
    c->windowId = w.rowId;
    c->windowName = w.window.name;
    c->windowRunCount = int(w.window.runs.size());
    c->windowLoads = w.window.distinctLoads();
    c->breakdown = costs.breakdown(w, options);
    for (const QString &p : w.problems)
        c->breakdown.warnings << p;
    QStringList problems;
    for (const ProjectBillItem &item : costs.billItemsForSut(w.window.sut, &problems))
        c->items.append(item.item);
    c->breakdown.warnings << problems;
}

} // namespace

QList<RunCost> costsForRuns(ProjectStore &store, const QList<ReportRun> &runs)
{
    QList<RunCost> out;
    CostStore costs(&store);
    const QList<ProjectWindow> windows = costs.windows();
    const CostOptions options = costs.costOptions();
    for (const ReportRun &r : runs) {
        RunCost c;
        const QString runId = QString::number(r.id);
        const ProjectWindow *w = nullptr;
        for (const ProjectWindow &pw : windows) {
            bool holds = false;
            for (const WindowRun &wr : pw.window.runs)
                holds = holds || wr.runId == runId;
            if (!holds)
                continue;
            if (!w)
                w = &pw;
            else
                c.otherWindows << pw.window.name;
        }
        if (!w) {
            c.reason = windows.isEmpty() ? u"the project has no test windows"_s
                                         : u"no test window holds run %1"_s.arg(r.id);
            out.append(c);
            continue;
        }
        fillWindowCost(costs, *w, options, &c);
        out.append(c);
    }
    return out;
}

RunCost windowCost(ProjectStore &store, const QString &windowName)
{
    RunCost c;
    CostStore costs(&store);
    const auto w = costs.window(windowName);
    if (!w) {
        c.reason = u"no test window named '%1'"_s.arg(windowName);
        return c;
    }
    fillWindowCost(costs, *w, costs.costOptions(), &c);
    return c;
}

} // namespace sb
