#pragma once

#include "metrics/recordset.h"
#include "metrics/requestrecord.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <limits>
#include <vector>

namespace sb {

// Over-saturation: the server admits requests faster than it finishes them, so the queue, and
// with it TTFT, grows without bound while throughput stays flat. Results measured then describe
// the queue, not the server. Following GuideLLM's over-saturation detection (docs/statistics.md,
// "Saturation"): regress in-flight requests and TTFT on time over a recent window and call the
// run saturated when both slopes are significantly positive; ServeBench adds that throughput
// must not be significantly growing, and a minimum practical rise, and it works on per-second
// slices so that requests of the same second are not counted as independent evidence.
struct SaturationOptions
{
    double sliceSeconds = 1.0;
    double windowSeconds = 60.0; // the recent window the slopes are fitted over
    int minSlices = 20; // closed slices needed before any verdict (also the shortest window)
    // Two-sided slope intervals; "significant" = the interval lies above 0. 99 %, not 95 %: the
    // check repeats every slice, and a 95 % test repeated a hundred times over a loaded but
    // stable run would cry wolf (docs/statistics.md measures the trade-off).
    double confidence = 0.99;
    // Practical significance: the fitted rise over the window (slope x window length) must reach
    // this fraction of the window's mean, for TTFT and for in-flight alike.
    double minRelativeRise = 0.5;
};

// An ordinary least-squares slope of y on time (seconds) over the window's slices, with its
// Student's t interval, the standard error and the degrees of freedom corrected for the lag-1
// autocorrelation of the residuals (AR(1): n_eff = n (1 - r) / (1 + r), r clamped to [0, 0.95]).
struct SlopeTest
{
    bool available = false;
    QString reason;
    qint64 points = 0;
    double slope = std::numeric_limits<double>::quiet_NaN(); // unit of y per second
    double lo = std::numeric_limits<double>::quiet_NaN();
    double hi = std::numeric_limits<double>::quiet_NaN();
    double mean = std::numeric_limits<double>::quiet_NaN(); // mean y over the window
    double rise = std::numeric_limits<double>::quiet_NaN(); // slope x window length
    double autocorrelation = 0;                             // lag-1, of the residuals
    bool significantlyPositive = false;                     // lo > 0
    bool risingMaterially = false; // significantlyPositive and rise >= minRelativeRise x mean

    QJsonObject toJson() const;
};

struct SaturationVerdict
{
    bool evaluated = false; // enough closed slices to judge
    bool saturated = false;
    QString reason;          // not evaluated: why; otherwise the verdict in one sentence
    double windowStartS = 0; // from the origin
    double windowEndS = 0;
    SlopeTest inFlight;   // requests in flight at each slice's end
    SlopeTest ttft;       // median TTFT (ms) of the requests completing in each slice
    SlopeTest throughput; // successful completions per second in each slice

    QJsonObject toJson() const;
};

// Fed while a run goes on (sends as they happen, records as they finish); evaluate() at any
// moment judges the closed slices of the recent window. Deterministic: the same events give the
// same verdict, whatever the order they were added in.
class SaturationDetector
{
public:
    explicit SaturationDetector(qint64 originNs, const SaturationOptions &options = {});

    void addSent(qint64 tSendNs);
    // A finished record (successful or not): its completion leaves the in-flight count, its
    // TTFT (successful, with a first token) joins the slice it completed in.
    void addFinished(const RequestRecord &r);

    SaturationVerdict evaluate(qint64 nowNs) const;
    const SaturationOptions &options() const { return m_options; }

private:
    struct Slice
    {
        qint64 sent = 0;
        qint64 finished = 0;
        qint64 succeeded = 0;
        std::vector<double> ttftMs;
    };
    Slice &sliceAt(qint64 tNs);

    qint64 m_origin;
    qint64 m_sliceNs;
    SaturationOptions m_options;
    std::vector<Slice> m_slices;
};

// Replays a finished run's records through the detector, evaluating at every slice end from
// the first send: the first saturated verdict, or the last one when none was saturated.
SaturationVerdict detectSaturation(const RecordSet &records, const SaturationOptions &options = {});

} // namespace sb
