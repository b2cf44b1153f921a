#pragma once

#include "enginecatalog.h"

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <cmath>
#include <limits>

namespace sb {

class MetricSeriesStore;

// What the client measured over the same window, to set beside the server's view.
// A NaN or negative field is unknown.
struct ClientFigures
{
    qint64 outputTokens = -1; // output tokens of the successful measured requests
    qint64 requests = -1;     // successful measured requests
    double ttftMeanMs = std::numeric_limits<double>::quiet_NaN();
    double ttftP50Ms = std::numeric_limits<double>::quiet_NaN();
    double ttftP99Ms = std::numeric_limits<double>::quiet_NaN();
    double e2elMeanMs = std::numeric_limits<double>::quiet_NaN();
    double e2elP50Ms = std::numeric_limits<double>::quiet_NaN();
    double e2elP99Ms = std::numeric_limits<double>::quiet_NaN();
};

struct EvidenceInput
{
    // The targets of one SUT: its own /metrics first, then extra targets (a DCGM exporter).
    // Each quantity is taken from the first target that exports it.
    QList<const MetricSeriesStore *> stores;
    qint64 t0Ns = 0; // the measured window, CLOCK_MONOTONIC (the run's clock)
    qint64 t1Ns = 0;
    ClientFigures client;
    // Only these GPUs count (label `gpuLabel` of the GPU series, e.g. "gpu" for DCGM,
    // "gpu_uuid" for Triton); empty: every GPU the target exports.
    QByteArray gpuLabel;
    QList<QByteArray> gpuValues;
};

// One derived figure: available with a value, or not available with the reason.
struct EvidenceItem
{
    QString name; // e.g. "running_peak", "server_ttft_mean_ms", "energy_j"
    bool available = false;
    double value = std::numeric_limits<double>::quiet_NaN();
    QString unit;
    QString reason;     // when not available
    QString source;     // target and series it came from
    QJsonObject detail; // what else explains the value (client figure, method, span, resets)
};

// The server-side and GPU evidence of one run window: each figure has a definition (see
// definition() and docs/server-metrics.md) and is either available or says why not.
class ServerEvidence
{
public:
    static ServerEvidence compute(const EvidenceInput &input);

    const QList<EvidenceItem> &items() const { return m_items; }
    const EvidenceItem *item(const QString &name) const;
    // The definitions the figures follow, one sentence each.
    static QString definition(const QString &name);
    static QStringList names();

    QJsonObject toJson() const;

    // Prometheus' histogram_quantile for one classic histogram (promql/quantile.go,
    // BucketQuantile): buckets (upper bound, cumulative count) in any order; the highest bound
    // must be +Inf; the quantile is interpolated linearly inside its bucket (from 0 in the
    // lowest bucket when its bound is positive); a quantile in the +Inf bucket is the highest
    // finite bound. NaN without observations, with fewer than two buckets or no +Inf bucket.
    static double bucketQuantile(double q, QList<QPair<double, double>> buckets);

private:
    QList<EvidenceItem> m_items;
    QJsonObject m_window;
    QList<QJsonObject> m_targets;
};

} // namespace sb
