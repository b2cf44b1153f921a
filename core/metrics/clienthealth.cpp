#include "clienthealth.h"

#include "common/clock.h"
#include "config/runplan.h"
#include "metrics/requestrecord.h"
#include "metrics/stats.h"

#include <QJsonArray>
#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace sb {

QJsonObject ClientHealth::toJson() const
{
    QJsonArray w;
    for (const auto &s : warnings)
        w.append(s);
    return QJsonObject{
        {u"ok"_s, ok()},
        {u"requests"_s, requests},
        {u"lateness_p99_ms"_s, latenessP99Ms},
        {u"lateness_max_ms"_s, latenessMaxMs},
        {u"open_loop"_s, openLoop},
        {u"scheduled_rate"_s, scheduledRate},
        {u"achieved_rate"_s, achievedRate},
        {u"max_lateness_p99_ms"_s, kMaxLatenessP99Ms},
        {u"min_rate_ratio"_s, kMinRateRatio},
        {u"fell_behind"_s, fellBehind},
        {u"thread_busy"_s, threadBusy.toJson()},
        {u"lag_trend"_s, lag.toJson()},
        {u"bottleneck"_s, bottleneck()},
        {u"warnings"_s, w},
    };
}

namespace {

void appendBottleneckWarnings(ClientHealth *h)
{
    const ThreadBusyVerdict &b = h->threadBusy;
    if (b.busy)
        h->warningMessages.append(
            Message("health.thread_busy", {b.thread, QString::number(b.share * 100, 'f', 0),
                                           QString::number(b.windowEndS, 'f', 1),
                                           QString::number(b.cpuShare * 100, 'f', 0),
                                           QString::number(b.waitShare * 100, 'f', 0),
                                           QString::number(kMaxThreadBusyShare * 100, 'f', 0)}));
    if (h->lag.growing)
        h->warningMessages.append(
            Message("health.lag_growing",
                    {QString::number(h->lag.startMs, 'f', 2), QString::number(h->lag.endMs, 'f', 2),
                     QString::number(h->lag.slopeMsPerS, 'f', 2)}));
}

// Lateness p99 per one-second bin of t_send, bins counted from the first measured send; bins
// without a send are left out (docs/performance.md, "The client checks itself").
LagTrend lagTrendOf(const std::vector<std::pair<qint64, double>> &sends)
{
    if (sends.empty())
        return lagTrend({}, {});
    qint64 first = sends.front().first;
    for (const auto &s : sends)
        first = std::min(first, s.first);
    std::vector<std::vector<double>> bins;
    for (const auto &[tSend, late] : sends) {
        const size_t b = size_t((tSend - first) / 1'000'000'000);
        if (b >= bins.size())
            bins.resize(b + 1);
        bins[b].push_back(late);
    }
    QList<double> starts, p99;
    for (size_t b = 0; b < bins.size(); ++b) {
        if (bins[b].empty())
            continue;
        std::sort(bins[b].begin(), bins[b].end());
        starts.append(double(b));
        p99.append(percentileLinear(bins[b], 99.0));
    }
    return lagTrend(starts, p99);
}

} // namespace

ClientHealth assessClientHealth(const RecordSet &records, const LoadProfile &profile,
                                const ClientLoadSamples &samples)
{
    ClientHealth h;
    h.threadBusy = judgeThreadBusy(samples);
    std::vector<double> lateness;
    lateness.reserve(size_t(records.size()));
    std::vector<std::pair<qint64, double>> sends;
    sends.reserve(size_t(records.size()));
    qint64 firstSched = 0, lastSched = 0, firstSend = 0, lastSend = 0;
    for (const RequestRecord &r : records) {
        if (r.warmup || r.tSend <= 0 || r.tSched <= 0)
            continue;
        const qint64 queue =
            r.tQueued > 0 && r.tDispatch >= r.tQueued ? r.tDispatch - r.tQueued : 0;
        lateness.push_back(nsToMs(std::max<qint64>(0, r.tSend - r.tSched - queue)));
        sends.emplace_back(r.tSend, lateness.back());
        if (h.requests == 0) {
            firstSched = lastSched = r.tSched;
            firstSend = lastSend = r.tSend;
        }
        firstSched = std::min(firstSched, r.tSched);
        lastSched = std::max(lastSched, r.tSched);
        firstSend = std::min(firstSend, r.tSend);
        lastSend = std::max(lastSend, r.tSend);
        ++h.requests;
    }
    h.lag = lagTrendOf(sends);
    if (h.requests == 0) {
        appendBottleneckWarnings(&h);
        h.warnings = messageTexts(h.warningMessages);
        return h;
    }
    const MetricStats st = computeStats(std::span<double>(lateness), {99.0});
    h.latenessP99Ms = st.percentile(99.0);
    h.latenessMaxMs = st.max;
    h.openLoop = profile.closedLoopConcurrency <= 0 && profile.scenario != Scenario::SingleStream &&
                 !profile.unlimitedRate();
    if (h.requests > 1 && lastSend > firstSend)
        h.achievedRate = double(h.requests - 1) / nsToS(lastSend - firstSend);
    if (h.openLoop && h.requests > 1 && lastSched > firstSched)
        h.scheduledRate = double(h.requests - 1) / nsToS(lastSched - firstSched);

    if (h.latenessP99Ms > kMaxLatenessP99Ms)
        h.warningMessages.append(
            Message("health.lateness", {QString::number(h.latenessP99Ms, 'f', 2),
                                        QString::number(kMaxLatenessP99Ms, 'f', 0)}));
    // A cap can legitimately hold the rate back; then the queue time tells, not the client.
    h.fellBehind = h.openLoop && profile.maxConcurrency <= 0 && h.scheduledRate > 0 &&
                   h.achievedRate < kMinRateRatio * h.scheduledRate;
    if (h.fellBehind)
        h.warningMessages.append(
            Message("health.rate", {QString::number(h.achievedRate, 'f', 2),
                                    QString::number(h.scheduledRate, 'f', 2)}));
    appendBottleneckWarnings(&h);
    h.warnings = messageTexts(h.warningMessages);
    return h;
}

} // namespace sb
