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
        {u"warnings"_s, w},
    };
}

ClientHealth assessClientHealth(const RecordSet &records, const LoadProfile &profile)
{
    ClientHealth h;
    std::vector<double> lateness;
    lateness.reserve(size_t(records.size()));
    qint64 firstSched = 0, lastSched = 0, firstSend = 0, lastSend = 0;
    for (const RequestRecord &r : records) {
        if (r.warmup || r.tSend <= 0 || r.tSched <= 0)
            continue;
        const qint64 queue =
            r.tQueued > 0 && r.tDispatch >= r.tQueued ? r.tDispatch - r.tQueued : 0;
        lateness.push_back(nsToMs(std::max<qint64>(0, r.tSend - r.tSched - queue)));
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
    if (h.requests == 0)
        return h;
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
    if (h.openLoop && profile.maxConcurrency <= 0 && h.scheduledRate > 0 &&
        h.achievedRate < kMinRateRatio * h.scheduledRate)
        h.warningMessages.append(
            Message("health.rate", {QString::number(h.achievedRate, 'f', 2),
                                    QString::number(h.scheduledRate, 'f', 2)}));
    h.warnings = messageTexts(h.warningMessages);
    return h;
}

} // namespace sb
