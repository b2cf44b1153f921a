#include "latencycurve.h"

#include "report/comparison.h"
#include "report/reportrun.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace sb {

using namespace Qt::StringLiterals;

LatencyCurves latencyThroughputCurves(const QList<ReportRun> &runs,
                                      const LatencyCurveOptions &options)
{
    LatencyCurves out;
    out.options = options;
    QSet<qint64> seen;
    for (const ReportRun &r : runs) {
        if (seen.contains(r.id))
            continue;
        seen.insert(r.id);
        const auto leaveOut = [&](const QString &why) {
            out.notes << u"%1: left out — %2"_s.arg(r.label, why);
        };
        // An imported summary was computed by another tool over its own window: beside
        // recomputed runs on one curve it would look like a measurement it is not.
        if (!r.rawRecords) {
            leaveOut(u"imported without per-request results, so its numbers cannot be "
                     "recomputed from raw records"_s);
            continue;
        }
        if (r.summary.completed == 0) {
            leaveOut(u"no successful request"_s);
            continue;
        }
        if (r.summary.durationS <= 0) {
            leaveOut(u"no duration"_s);
            continue;
        }
        QString note;
        const auto latency = latencyStatistic(r, options.metric, options.stat, &note);
        if (!latency || !std::isfinite(*latency)) {
            leaveOut(note.isEmpty() ? u"no %1 %2"_s.arg(options.stat, options.metric) : note);
            continue;
        }
        LatencyCurvePoint p;
        p.runId = r.id;
        p.runLabel = r.label;
        p.throughput = options.throughput == CurveThroughput::Output ? r.summary.outputThroughput
                                                                     : r.summary.requestThroughput;
        p.latency = *latency;
        const QString sut = r.sutName().isEmpty() ? u"(unnamed SUT)"_s : r.sutName();
        auto curve = std::find_if(out.curves.begin(), out.curves.end(),
                                  [&](const LatencyCurve &c) { return c.sut == sut; });
        if (curve == out.curves.end()) {
            out.curves.append(LatencyCurve{sut, {}});
            curve = out.curves.end() - 1;
        }
        curve->points.append(p);
    }
    for (LatencyCurve &c : out.curves)
        std::stable_sort(c.points.begin(), c.points.end(),
                         [](const LatencyCurvePoint &a, const LatencyCurvePoint &b) {
                             return a.throughput < b.throughput;
                         });
    return out;
}

} // namespace sb
