#pragma once

#include "common/message.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

struct ReportRun;

// Which achieved throughput the curves put on the x axis.
enum class CurveThroughput { Output, Request };

struct LatencyCurvePoint
{
    qint64 runId = 0;
    QString runLabel;
    double throughput = 0; // achieved: output tok/s or req/s, from the run's summary
    double latency = 0;    // ms
    // The run over-saturated the server (docs/statistics.md, saturation): a sweep step or a
    // --stop-when-saturated run stopped early with the evidence, or a run whose own records
    // show the queue growing without bound. Its point describes the queue, not the server, so
    // views draw it apart (hollow) and say so.
    bool saturated = false;
    bool stoppedEarly = false; // stopped by the detector during the run
    Message saturationNote;    // "<run>: stopped early as over-saturated — <evidence>"
};

struct LatencyCurve
{
    QString sut;
    Message sutLabel;                // the SUT's name, or "(unnamed SUT)" in the reader's language
    QList<LatencyCurvePoint> points; // ascending throughput
};

struct LatencyCurveOptions
{
    QString metric = QStringLiteral("ttft"); // ttft | tpot | itl | e2el
    QString stat = QStringLiteral("p99");    // mean | median | p<N>
    CurveThroughput throughput = CurveThroughput::Output;
};

struct LatencyCurves
{
    LatencyCurveOptions options;
    QList<LatencyCurve> curves;  // one per SUT name, in the order the SUTs first appear
    QStringList notes;           // every run left out, and why
    QList<Message> noteMessages; // the same, for display (notes = their English text)
    // One per saturated point drawn, in curve order (the points' saturationNote).
    QList<Message> saturationMessages;
};

// Latency versus achieved throughput, one curve per SUT: what a rate sweep shows about where a
// platform saturates. Every point is a run's own summary (recomputed from its raw records), so a
// run that cannot give one on the same footing — imported without per-request results, no
// successful request, no such statistic — is left out with a note rather than drawn at zero.
// A run listed twice counts once. A saturated run keeps its point, marked saturated.
LatencyCurves latencyThroughputCurves(const QList<ReportRun> &runs,
                                      const LatencyCurveOptions &options = {});

} // namespace sb
