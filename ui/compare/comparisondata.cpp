#include "comparisondata.h"

#include "store/projectstore.h"

#include <QHash>
#include <QSet>

using namespace Qt::StringLiterals;

namespace sb {

CompareRunList listCompareRuns(const QString &projectPath)
{
    CompareRunList out;
    ProjectStore store;
    if (!store.open(projectPath, ProjectStore::OpenMode::ReadOnly)) {
        out.error = store.lastError();
        return out;
    }
    QHash<qint64, QString> sweeps;
    for (const StoredSweep &s : store.listSweeps())
        sweeps.insert(s.id, s.name);
    for (const RunInfo &info : store.listRuns()) {
        CompareRunEntry e;
        e.id = info.id;
        e.name = info.name;
        e.status = info.status;
        e.startedUtc = info.startedUtc;
        e.sweepId = info.sweepId;
        e.sweep = sweeps.value(info.sweepId);
        // listRuns() leaves the snapshot out; the SUT and scenario live in it.
        if (const auto full = store.loadRun(info.id)) {
            const RunPlan plan = RunPlan::fromJson(full->snapshot);
            e.sut = plan.sut.name;
            e.scenario = plan.profile.scenario;
            e.imported = !full->snapshot.value(u"imported"_s).toObject().isEmpty();
        }
        out.runs.append(e);
    }
    return out;
}

CompareOutcome loadComparison(const QString &projectPath, const QList<qint64> &runIds,
                              const ComparisonOptions &options,
                              const LatencyCurveOptions &curveOptions)
{
    CompareOutcome out;
    ProjectStore store;
    if (!store.open(projectPath, ProjectStore::OpenMode::ReadOnly)) {
        out.error = store.lastError();
        return out;
    }
    auto runs = std::make_shared<CompareRuns>();
    runs->runIds = runIds;
    if (!loadReportContent(store, runIds, options, &runs->content, &out.error))
        return out;

    // A run of a sweep is one point of its SUT's curve: the curve needs the sweep's other rates.
    runs->curveRuns = runs->content.runs;
    QSet<qint64> have(runIds.cbegin(), runIds.cend());
    QSet<qint64> sweepsDone;
    QHash<qint64, QString> sweepNames;
    for (const StoredSweep &s : store.listSweeps())
        sweepNames.insert(s.id, s.name);
    for (const ReportRun &r : runs->content.runs) {
        const qint64 sweep = r.info.sweepId;
        if (sweep <= 0 || sweepsDone.contains(sweep))
            continue;
        sweepsDone.insert(sweep);
        runs->sweeps << sweepNames.value(sweep, u"#%1"_s.arg(sweep));
        for (const RunInfo &sibling : store.listRuns(sweep)) {
            if (have.contains(sibling.id))
                continue;
            have.insert(sibling.id);
            ReportRun extra;
            QString error;
            if (!loadReportRun(store, sibling.id, &extra, &error))
                continue; // deleted meanwhile: the curve simply has one point fewer
            // The curve reads the summary only; the records would just hold memory.
            extra.input.records = {};
            runs->curveRuns.append(std::move(extra));
        }
    }
    out.comparison = runs->content.comparison;
    out.curves = latencyThroughputCurves(runs->curveRuns, curveOptions);
    out.runs = std::move(runs);
    return out;
}

CompareOutcome rebuildComparison(const std::shared_ptr<const CompareRuns> &runs,
                                 const ComparisonOptions &options,
                                 const LatencyCurveOptions &curveOptions)
{
    CompareOutcome out;
    out.runs = runs;
    out.comparison = buildComparison(runs->content.runs, runs->content.costs, options);
    out.curves = latencyThroughputCurves(runs->curveRuns, curveOptions);
    return out;
}

} // namespace sb
