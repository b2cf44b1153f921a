#pragma once

#include "enginecatalog.h"
#include "metricsscraper.h"

#include <QList>
#include <QPair>
#include <QString>

namespace sb {

class MetricSeriesStore;

// The value of a gauge quantity (running, waiting, KV-cache usage, GPU utilisation, power, ...)
// at one successful scrape of one store, its series combined as ServerEvidence combines them
// (summed; averaged for KV-cache usage and GPU utilisation) and scaled to ServeBench's units.
// NaN when the store exports no such quantity or none of its series has a value then.
double quantityAt(const MetricSeriesStore &store, ServerEngine engine, ServerQuantity q,
                  qint64 tNs);

// The dashboard's gauges at one scrape of one store (NaN where not exported).
ServerGaugeSample gaugeSample(const MetricSeriesStore &store, qint64 tNs);

// A gauge quantity over a run, for charts: its value at every successful scrape of the first
// target (in the stores' order: the SUT first) that exports it.
struct ServerTimelineSeries
{
    ServerQuantity quantity = ServerQuantity::Running;
    QString target;                      // the target it came from; empty when no target exports it
    QString series;                      // the metric name read
    QList<QPair<qint64, double>> points; // (scrape time ns on the run's clock, value)

    bool isEmpty() const { return points.isEmpty(); }
};
ServerTimelineSeries serverTimeline(const QList<MetricSeriesStore> &stores, ServerQuantity q);

} // namespace sb
