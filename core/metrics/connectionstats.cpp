#include "connectionstats.h"

#include "metrics/stats.h"

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

ConnectionStats::Stat stat(std::vector<double> v)
{
    ConnectionStats::Stat s;
    s.n = qint64(v.size());
    if (v.empty())
        return s;
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v)
        sum += x;
    s.mean = sum / double(v.size());
    // The summary's own method (linear interpolation), so TTFT here equals the summary's TTFT.
    s.p50 = percentileSorted(v, 50, PercentileMethod::Linear);
    s.p99 = percentileSorted(v, 99, PercentileMethod::Linear);
    s.max = v.back();
    return s;
}

double ms(qint64 ns)
{
    return double(ns) / 1e6;
}

} // namespace

qint64 connectionSetupNs(const RequestRecord &r)
{
    if (r.connection != ConnectionUse::New || r.tConnectStart <= 0)
        return 0;
    const qint64 done = r.tTlsDone > 0 ? r.tTlsDone : r.tConnected;
    return done >= r.tConnectStart ? done - r.tConnectStart : 0;
}

qint64 ttftWithoutSetupNs(const RequestRecord &r)
{
    if (r.tRequestWritten >= r.tSend && r.tRequestWritten > 0 && r.tFirst >= r.tRequestWritten)
        return r.tFirst - r.tRequestWritten;
    return r.tFirst - r.tSend - connectionSetupNs(r);
}

QJsonObject ConnectionStats::Stat::toJson() const
{
    if (n == 0)
        return {{u"n"_s, 0}};
    return {{u"n"_s, n}, {u"mean"_s, mean}, {u"p50"_s, p50}, {u"p99"_s, p99}, {u"max"_s, max}};
}

ConnectionStats connectionStats(const RecordSet &records)
{
    ConnectionStats c;
    std::vector<double> setup, ttft, bare, head;
    for (const RequestRecord &r : records) {
        if (r.warmup || !r.ok() || r.tFirst <= 0 || r.tSend <= 0)
            continue;
        ++c.requests;
        switch (r.connection) {
        case ConnectionUse::New:
            ++c.opened;
            if (const qint64 s = connectionSetupNs(r); s > 0)
                setup.push_back(ms(s));
            break;
        case ConnectionUse::Reused:
            ++c.reused;
            break;
        case ConnectionUse::Prewarmed:
            ++c.prewarmed;
            break;
        default:
            ++c.unknown;
        }
        const qint64 t = r.tFirst - r.tSend;
        ttft.push_back(ms(t));
        bare.push_back(ms(ttftWithoutSetupNs(r)));
        if (r.tRequestWritten > 0 && r.tHeadReceived >= r.tRequestWritten)
            head.push_back(ms(r.tHeadReceived - r.tRequestWritten));
    }
    c.setup = stat(std::move(setup));
    c.ttft = stat(std::move(ttft));
    c.ttftWithoutSetup = stat(std::move(bare));
    c.headAfterWrite = stat(std::move(head));
    return c;
}

QJsonObject ConnectionStats::toJson() const
{
    return {{u"requests"_s, requests},
            {u"opened"_s, opened},
            {u"reused"_s, reused},
            {u"prewarmed"_s, prewarmed},
            {u"unknown"_s, unknown},
            {u"setup_ms"_s, setup.toJson()},
            {u"ttft_ms"_s, ttft.toJson()},
            {u"ttft_without_setup_ms"_s, ttftWithoutSetup.toJson()},
            {u"head_after_write_ms"_s, headAfterWrite.toJson()}};
}

QString ConnectionStats::text(const QString &mode) const
{
    const auto line = [](const QString &label, const QString &value) {
        return u"%1 %2\n"_s.arg(label, -40).arg(value);
    };
    const auto f = [](double v) {
        return QString::number(v, 'f', 2);
    };
    QString out = u"-------------------Connections--------------------\n"_s;
    out += line(u"Connection mode:"_s, mode);
    out += line(u"Opened / reused / pre-opened:"_s,
                u"%1 / %2 / %3%4"_s.arg(opened).arg(reused).arg(prewarmed).arg(
                    unknown > 0 ? u" (%1 not recorded)"_s.arg(unknown) : QString()));
    if (setup.n > 0) {
        out += line(u"Mean connection set-up (ms):"_s, f(setup.mean));
        out += line(u"P99 connection set-up (ms):"_s, f(setup.p99));
    }
    if (ttftWithoutSetup.n > 0) {
        out += line(u"Mean TTFT without set-up (ms):"_s, f(ttftWithoutSetup.mean));
        out += line(u"P99 TTFT without set-up (ms):"_s, f(ttftWithoutSetup.p99));
    }
    return out;
}

} // namespace sb
