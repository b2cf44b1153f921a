#pragma once

#include <QByteArray>
#include <QFontMetricsF>
#include <QList>
#include <QMap>
#include <QRectF>
#include <QSize>
#include <QString>

namespace sb {

struct ChartSpec;

// Draws report charts into PNG images with QPainter on a QImage (no window system needed beyond
// a QGuiApplication, which may use the "offscreen" platform).
//
// CDF charts: one line per run, x = the metric in ms (linear axis from 0 to the largest value
// shown; the top 0.1 % beyond the p99.9 are clipped so one outlier does not flatten every
// line, and the chart says so), y = cumulative fraction with grid lines at 0.5, 0.9 and 0.99.
// Bar charts: groups per run, one bar per series, values written above the bars.
QByteArray renderChartPng(const ChartSpec &spec, QSize size = QSize(960, 480));

// Where each legend entry (colour box and label) goes: left to right from (left, top), a new row
// when the next entry would pass `right`. An entry wider than the whole row gets a row of its
// own.
QList<QRectF> legendLayout(const QFontMetricsF &fm, const QStringList &labels, qreal left,
                           qreal right, qreal top);

// Every chart by its key; charts without any data are left out.
QMap<QString, QByteArray> renderChartPngs(const QList<ChartSpec> &specs);

} // namespace sb
