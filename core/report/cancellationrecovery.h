#pragma once

#include "config/runplan.h"
#include "metrics/recordset.h"
#include "servermetrics/metricseriesstore.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <limits>

namespace sb {

// How long the run's last scrape waits after the last request the cancellation load closed
// (RunSession): a server gets this long to notice the disconnect and free the request's slot
// before its running-requests gauge is read (docs/metrics.md, "Cancelled by the load").
inline constexpr qint64 kCancellationSettleNs = 1'000'000'000;

// The server's recovery from a cancellation load, as its own /metrics tells it: the running
// requests it reported at the run's last scrape after the last cancellation, beside the client's
// own requests in flight at that instant. Derived from the records and the stored scrapes only.
struct CancellationRecovery
{
    bool configured = false; // the plan has a cancellation load (LoadProfile::cancels())
    qint64 cancelled = 0;    // records the load closed (warm-up ones included: none are chosen)
    qint64 lastCancelNs = 0; // t_end of the last of them (the run's clock); 0: none

    // The figure: available, or the reason why not ("not exported", …).
    bool available = false;
    QString reason;
    QString target;     // the scraped target it came from
    QString series;     // the metric name read (vllm:num_requests_running, …)
    qint64 scrapeNs = 0; // the scrape's time (the run's clock)
    double serverRunning = std::numeric_limits<double>::quiet_NaN();
    qint64 clientInFlight = -1; // records with t_send <= scrape < t_end (or no t_end)

    double afterS() const { return double(scrapeNs - lastCancelNs) / 1e9; }
    // "Server running requests 1.02 s after the last cancellation: 0; client in flight: 0", or
    // "Server running requests after the last cancellation: not exported (…)"; empty when the
    // plan has no cancellation load and nothing was cancelled.
    QString text() const;
    QJsonObject toJson() const;
};

CancellationRecovery cancellationRecovery(const LoadProfile &profile, const RecordSet &records,
                                          const QList<MetricSeriesStore> &stores);

// The latest t_end of a record the cancellation load closed; 0 when none.
qint64 lastLoadCancellationNs(const RecordSet &records);

// The cancellation load's requests for the result JSON: count, share, configuration and one row
// per cancelled request (index, request id, cancel time from run start, chunks received, TTFT).
QJsonObject cancelledByLoadJson(const LoadProfile &profile, const RecordSet &records,
                                qint64 measured, qint64 runStartNs);

} // namespace sb
