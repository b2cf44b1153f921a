#include "cancellationrecovery.h"

#include "servermetrics/servertimeline.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QString count(double v)
{
    // Gauges of requests are whole numbers; anything else is shown as the server wrote it.
    return v == std::floor(v) ? QString::number(qint64(v)) : QString::number(v, 'g', 6);
}

} // namespace

qint64 lastLoadCancellationNs(const RecordSet &records)
{
    qint64 last = 0;
    for (const RequestRecord &r : records)
        if (r.cancelledByLoad())
            last = std::max(last, r.tEnd);
    return last;
}

CancellationRecovery cancellationRecovery(const LoadProfile &profile, const RecordSet &records,
                                          const QList<MetricSeriesStore> &stores)
{
    CancellationRecovery c;
    c.configured = profile.cancels();
    for (const RequestRecord &r : records) {
        if (!r.cancelledByLoad())
            continue;
        ++c.cancelled;
        c.lastCancelNs = std::max(c.lastCancelNs, r.tEnd);
    }
    if (c.cancelled == 0) {
        c.reason = u"no request was cancelled by the load"_s;
        return c;
    }
    if (stores.isEmpty()) {
        c.reason = u"not scraped: the server's metrics were off for this run"_s;
        return c;
    }
    const ServerTimelineSeries running = serverTimeline(stores, ServerQuantity::Running);
    if (running.isEmpty()) {
        c.reason = u"not exported: no scraped target exports a running-requests gauge "
                   "(vLLM's vllm:num_requests_running)"_s;
        return c;
    }
    // The run's last scrape: taken after the last request ended and at least
    // kCancellationSettleNs after the last cancellation (RunSession waits for it).
    const auto &[tNs, value] = running.points.constLast();
    if (tNs < c.lastCancelNs) {
        c.reason = u"no scrape of %1 after the last cancellation"_s.arg(running.target);
        return c;
    }
    c.available = true;
    c.target = running.target;
    c.series = running.series;
    c.scrapeNs = tNs;
    c.serverRunning = value;
    c.clientInFlight = 0;
    for (const RequestRecord &r : records)
        if (r.tSend > 0 && r.tSend <= tNs && (r.tEnd <= 0 || r.tEnd > tNs))
            ++c.clientInFlight;
    return c;
}

QString CancellationRecovery::text() const
{
    if (!configured && cancelled == 0)
        return {};
    if (!available)
        return u"Server running requests after the last cancellation: %1"_s.arg(reason);
    return u"Server running requests %1 s after the last cancellation: %2; client in flight: %3"_s
        .arg(QString::number(afterS(), 'f', 2), count(serverRunning))
        .arg(clientInFlight);
}

QJsonObject CancellationRecovery::toJson() const
{
    QJsonObject o{{u"available"_s, available}};
    if (!available) {
        o.insert(u"reason"_s, reason);
        return o;
    }
    o.insert(u"server_running"_s, serverRunning);
    o.insert(u"client_in_flight"_s, clientInFlight);
    o.insert(u"seconds_after_last_cancellation"_s, afterS());
    o.insert(u"target"_s, target);
    o.insert(u"series"_s, series);
    o.insert(u"scrape_ns"_s, scrapeNs);
    o.insert(u"last_cancellation_ns"_s, lastCancelNs);
    return o;
}

QJsonObject cancelledByLoadJson(const LoadProfile &profile, const RecordSet &records,
                                qint64 measured, qint64 runStartNs)
{
    QJsonArray rows;
    qint64 n = 0;
    for (const RequestRecord &r : records) {
        if (!r.cancelledByLoad())
            continue;
        ++n;
        const qint64 first =
            r.tFirst > 0 ? r.tFirst : (r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constFirst());
        QJsonObject row{{u"index"_s, r.index},
                        {u"request_id"_s, r.requestId},
                        {u"token_chunks"_s, qint64(r.chunkTimes.size())}};
        row.insert(u"cancelled_s"_s, r.tEnd > 0 && runStartNs > 0
                                         ? QJsonValue(double(r.tEnd - runStartNs) / 1e9)
                                         : QJsonValue());
        row.insert(u"ttft_ms"_s, first > 0 && r.tSend > 0
                                     ? QJsonValue(double(first - r.tSend) / 1e6)
                                     : QJsonValue());
        if (r.tRequestWritten > 0 && r.tEnd > 0)
            row.insert(u"after_written_s"_s, double(r.tEnd - r.tRequestWritten) / 1e9);
        rows.append(row);
    }
    QJsonObject o{{u"count"_s, n},
                  {u"of"_s, measured},
                  {u"rate_percent"_s, profile.cancelRatePct},
                  {u"requests"_s, rows}};
    if (profile.cancelAfterTokens > 0)
        o.insert(u"after_tokens"_s, profile.cancelAfterTokens);
    else
        o.insert(u"delay_s"_s, profile.cancelDelayS);
    return o;
}

} // namespace sb
