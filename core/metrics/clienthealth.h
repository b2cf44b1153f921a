#pragma once

#include "common/message.h"
#include "metrics/clientload.h"
#include "metrics/recordset.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace sb {

struct LoadProfile;

// Whether the client kept its own schedule. When it did not, the run measured the client, not
// the SUT, and every report must say so.
//
// Lateness of a request = schedule lag (t_send − t_sched) minus its client queue time
// (t_dispatch − t_queued): the part of the delay that the configured concurrency cap does not
// explain. The achieved rate is compared with the schedule's own rate over the same requests,
// not with the nominal rate, so a short Poisson run is not flagged for its natural variance.
struct ClientHealth
{
    qint64 requests = 0;      // measured requests that were sent
    double latenessP99Ms = 0; // linear-interpolated p99
    double latenessMaxMs = 0;
    double scheduledRate = 0; // (n − 1) / (last t_sched − first t_sched); 0 for closed loops
    double achievedRate = 0;  // (n − 1) / (last t_send − first t_send)
    bool openLoop = false;
    // The achieved rate is below kMinRateRatio of the scheduled one (open loop, no cap).
    bool fellBehind = false;
    // From the samples of the client's own threads (docs/performance.md, "The client checks
    // itself"): the busiest thread-window, and whether the lateness grew through the run.
    ThreadBusyVerdict threadBusy;
    LagTrend lag;
    QStringList warnings;           // empty when the client kept up
    QList<Message> warningMessages; // the same for display (warnings = their English text)

    bool ok() const { return warnings.isEmpty(); }
    // The client, not the SUT, limited the run: a thread busy above 90 % of a core over a
    // sample window, lateness growing through the run, or the scheduled rate not met. Late
    // sends alone (lateness p99 above 10 ms, flat) are a warning, not this.
    bool bottleneck() const { return threadBusy.busy || lag.growing || fellBehind; }
    QJsonObject toJson() const;
};

// Thresholds (stated in the warnings): lateness p99 above 10 ms, or an achieved rate below 95 %
// of the scheduled rate on an open-loop run of finite rate.
inline constexpr double kMaxLatenessP99Ms = 10.0;
inline constexpr double kMinRateRatio = 0.95;

// samples: what the run's sampler stored (empty for runs without: then only the records judge).
ClientHealth assessClientHealth(const RecordSet &records, const LoadProfile &profile,
                                const ClientLoadSamples &samples = {});

} // namespace sb
