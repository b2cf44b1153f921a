#pragma once

#include "common/message.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace sb {

struct ReportRun;

// A chart's data, computed in core and drawn by app/render (core links no Gui): the report
// embeds the picture and keeps the numbers next to it.
struct ChartSeries
{
    QString label;
    Message labelMessage; // for display: a run's label as it is, a series name translated
    QList<QPair<double, double>> points; // CDF: (value, cumulative fraction); bars: (0, value)
    QList<double> values;                // bars: one value per category
    // Timeline: drawn against the right-hand axis (y2Label); otherwise the left one. Dots: one
    // marker per point (per-request values) instead of a line (a gauge over time).
    bool rightAxis = false;
    bool dots = false;
};

struct ChartSpec
{
    // Timeline: (seconds from the run's start, value) points, two y axes.
    enum class Kind { Cdf, Bars, Timeline };
    Kind kind = Kind::Cdf;
    QString key;   // "cdf_ttft", "throughput_tokens": also the image's name
    QString title; // "TTFT — cumulative distribution"
    QString xLabel;
    QString yLabel;
    QString y2Label;        // Timeline: the right-hand axis
    QStringList categories; // bars: the run labels
    QList<ChartSeries> series;
    QString emptyNote; // set when no run has data for the chart
    // The texts above as messages, for a report in the reader's language.
    Message titleMessage;
    Message xLabelMessage;
    Message yLabelMessage;
    Message y2LabelMessage;
    Message emptyNoteMessage;
};

// The empirical CDF of a sample (any order), thinned to at most maxPoints points that keep the
// first and last sample and the steps between (value, fraction ≤ value).
QList<QPair<double, double>> empiricalCdf(QList<double> values, int maxPoints = 400);

// Per-request samples of a latency metric in ms for a CDF: ttft, tpot, e2el per successful
// measured request; itl pooled per chunk gap. Empty for a run without raw records.
QList<double> latencySamples(const ReportRun &run, const QString &metric);

// The report's charts: a CDF of TTFT, TPOT, ITL and E2EL with one line per run, and bars of the
// request and token throughputs per run.
QList<ChartSpec> reportChartSpecs(const QList<ReportRun> &runs);

} // namespace sb
