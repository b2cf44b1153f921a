#include "latencycurve.h"

#include "report/comparison.h"
#include "report/reportrun.h"

#include <QJsonObject>
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
        const auto leaveOut = [&](const Message &why) {
            out.noteMessages << Message("curve.left_out", {Message::literal(r.label), why});
            out.notes << out.noteMessages.constLast().text();
        };
        // An imported summary was computed by another tool over its own window: beside
        // recomputed runs on one curve it would look like a measurement it is not.
        if (!r.rawRecords) {
            leaveOut(Message("curve.imported"));
            continue;
        }
        if (r.summary.completed == 0) {
            leaveOut(Message("cmp.note.no_success"));
            continue;
        }
        if (r.summary.durationS <= 0) {
            leaveOut(Message("cmp.note.no_duration"));
            continue;
        }
        Message note;
        const auto latency = latencyStatistic(r, options.metric, options.stat, &note);
        if (!latency || !std::isfinite(*latency)) {
            leaveOut(note.isEmpty() ? Message("curve.no_stat", {options.stat, options.metric})
                                    : note);
            continue;
        }
        LatencyCurvePoint p;
        p.runId = r.id;
        p.runLabel = r.label;
        p.throughput = options.throughput == CurveThroughput::Output ? r.summary.outputThroughput
                                                                     : r.summary.requestThroughput;
        p.latency = *latency;
        // Stopped by the detector during the run (the stored evidence), else found afterwards
        // in the run's own records (the same detector replayed).
        const QJsonObject early = r.info.summary.value(u"stopped_early"_s).toObject();
        const QJsonObject evidence = early.value(u"saturation"_s).toObject();
        if (evidence.value(u"saturated"_s).toBool()) {
            p.saturated = p.stoppedEarly = true;
            p.saturationNote =
                Message("curve.saturated.stopped",
                        {Message::literal(r.label),
                         Message::fromEnglish(evidence.value(u"reason"_s).toString())});
        } else if (r.derived.statisticsComputed && r.derived.saturation.saturated) {
            p.saturated = true;
            p.saturationNote = Message(
                "curve.saturated.detected",
                {Message::literal(r.label), Message::fromEnglish(r.derived.saturation.reason)});
        }
        const Message sutLabel =
            r.sutName().isEmpty() ? Message("curve.unnamed_sut") : Message::literal(r.sutName());
        const QString sut = sutLabel.text();
        auto curve = std::find_if(out.curves.begin(), out.curves.end(),
                                  [&](const LatencyCurve &c) { return c.sut == sut; });
        if (curve == out.curves.end()) {
            out.curves.append(LatencyCurve{sut, sutLabel, {}});
            curve = out.curves.end() - 1;
        }
        curve->points.append(p);
    }
    for (LatencyCurve &c : out.curves) {
        std::stable_sort(c.points.begin(), c.points.end(),
                         [](const LatencyCurvePoint &a, const LatencyCurvePoint &b) {
                             return a.throughput < b.throughput;
                         });
        for (const LatencyCurvePoint &p : std::as_const(c.points))
            if (p.saturated)
                out.saturationMessages << p.saturationNote;
    }
    return out;
}

} // namespace sb
