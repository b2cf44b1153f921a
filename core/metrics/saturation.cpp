#include "saturation.h"

#include "cacheaudit.h"
#include "samples.h"
#include "stats.h"

#include <QJsonValue>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

SlopeTest fitSlope(const std::vector<double> &x, const std::vector<double> &y, double confidence,
                   double windowSeconds, double minRelativeRise)
{
    SlopeTest t;
    t.points = qint64(x.size());
    if (x.size() < 3) {
        t.reason = u"needs at least 3 points (has %1)"_s.arg(x.size());
        return t;
    }
    const double n = double(x.size());
    double mx = 0, my = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    double sxx = 0, sxy = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    if (!(sxx > 0)) {
        t.reason = u"all points at one time"_s;
        return t;
    }
    const double b = sxy / sxx;
    std::vector<double> e(x.size());
    double rss = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        e[i] = y[i] - (my + b * (x[i] - mx));
        rss += e[i] * e[i];
    }
    // Neighbouring slices share queued requests, so their residuals are correlated and plain
    // least squares overstates the evidence. The lag-1 autocorrelation r of the residuals
    // shrinks the sample to n (1 - r) / (1 + r) effective points (AR(1) model) and widens the
    // standard error by sqrt((1 + r) / (1 - r)).
    double lag = 0;
    for (size_t i = 1; i < e.size(); ++i)
        lag += e[i] * e[i - 1];
    const double r = rss > 0 ? std::clamp(lag / rss, 0.0, 0.95) : 0.0;
    const double inflation = (1 + r) / (1 - r);
    const double nEff = std::max(3.0, n / inflation);
    const double se = std::sqrt(rss / (n - 2) / sxx * inflation);
    const double q = studentTQuantile(0.5 + confidence / 2, nEff - 2);
    t.autocorrelation = r;
    t.available = true;
    t.slope = b;
    t.lo = b - q * se;
    t.hi = b + q * se;
    t.mean = my;
    t.rise = b * windowSeconds;
    t.significantlyPositive = t.lo > 0;
    t.risingMaterially = t.significantlyPositive && my > 0 && t.rise >= minRelativeRise * my;
    return t;
}

} // namespace

QJsonObject SlopeTest::toJson() const
{
    QJsonObject o{{u"available"_s, available},
                  {u"points"_s, points},
                  {u"slope_per_s"_s, number(slope)},
                  {u"slope_lo"_s, number(lo)},
                  {u"slope_hi"_s, number(hi)},
                  {u"mean"_s, number(mean)},
                  {u"rise"_s, number(rise)},
                  {u"residual_autocorrelation"_s, number(autocorrelation)},
                  {u"significantly_positive"_s, significantlyPositive},
                  {u"rising_materially"_s, risingMaterially}};
    if (!available)
        o.insert(u"reason"_s, reason);
    return o;
}

QJsonObject SaturationVerdict::toJson() const
{
    return QJsonObject{{u"evaluated"_s, evaluated},     {u"saturated"_s, saturated},
                       {u"reason"_s, reason},           {u"window_start_s"_s, windowStartS},
                       {u"window_end_s"_s, windowEndS}, {u"in_flight"_s, inFlight.toJson()},
                       {u"ttft_ms"_s, ttft.toJson()},   {u"throughput_rps"_s, throughput.toJson()}};
}

SaturationDetector::SaturationDetector(qint64 originNs, const SaturationOptions &options)
    : m_origin(originNs),
      m_sliceNs(std::max<qint64>(1, qint64(std::llround(options.sliceSeconds * 1e9)))),
      m_options(options)
{}

SaturationDetector::Slice &SaturationDetector::sliceAt(qint64 tNs)
{
    const auto k = size_t(std::max<qint64>(0, (tNs - m_origin) / m_sliceNs));
    if (k >= m_slices.size())
        m_slices.resize(k + 1);
    return m_slices[k];
}

void SaturationDetector::addSent(qint64 tSendNs)
{
    ++sliceAt(tSendNs).sent;
}

void SaturationDetector::addFinished(const RequestRecord &r)
{
    const qint64 done = std::max(completionTimeNs(r), r.tSend);
    Slice &s = sliceAt(done);
    ++s.finished;
    if (!r.ok())
        return;
    ++s.succeeded;
    const qint64 first =
        r.tFirst > 0 ? r.tFirst : (r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constFirst());
    if (first > 0 && r.tSend > 0)
        s.ttftMs.push_back(double(first - r.tSend) / 1e6);
}

SaturationVerdict SaturationDetector::evaluate(qint64 nowNs) const
{
    SaturationVerdict v;
    const qint64 closed = std::max<qint64>(0, (nowNs - m_origin) / m_sliceNs);
    if (closed < m_options.minSlices) {
        v.reason = u"needs %1 s of data before judging (has %2 s)"_s
                       .arg(double(m_options.minSlices) * double(m_sliceNs) / 1e9)
                       .arg(double(closed) * double(m_sliceNs) / 1e9);
        return v;
    }
    const double sliceS = double(m_sliceNs) / 1e9;
    const qint64 windowSlices = std::max<qint64>(
        m_options.minSlices, qint64(std::llround(m_options.windowSeconds / sliceS)));
    const qint64 first = std::max<qint64>(0, closed - windowSlices);
    v.evaluated = true;
    v.windowStartS = double(first) * sliceS;
    v.windowEndS = double(closed) * sliceS;
    const double windowS = v.windowEndS - v.windowStartS;

    // Cumulative in-flight up to the window's first slice.
    qint64 inFlight = 0;
    const auto slice = [this](qint64 k) -> const Slice * {
        return k < qint64(m_slices.size()) ? &m_slices[size_t(k)] : nullptr;
    };
    for (qint64 k = 0; k < first; ++k) {
        if (const Slice *s = slice(k))
            inFlight += s->sent - s->finished;
    }
    std::vector<double> xf, yf, xt, yt, xr, yr;
    for (qint64 k = first; k < closed; ++k) {
        const Slice *s = slice(k);
        if (s)
            inFlight += s->sent - s->finished;
        const double mid = (double(k) + 0.5) * sliceS;
        xf.push_back(double(k + 1) * sliceS);
        yf.push_back(double(inFlight));
        xr.push_back(mid);
        yr.push_back(s ? double(s->succeeded) / sliceS : 0.0);
        if (s && !s->ttftMs.empty()) {
            std::vector<double> t = s->ttftMs;
            std::sort(t.begin(), t.end());
            xt.push_back(mid);
            yt.push_back(percentileLinear(t, 50));
        }
    }
    const SaturationOptions &o = m_options;
    v.inFlight = fitSlope(xf, yf, o.confidence, windowS, o.minRelativeRise);
    v.ttft = fitSlope(xt, yt, o.confidence, windowS, o.minRelativeRise);
    v.throughput = fitSlope(xr, yr, o.confidence, windowS, o.minRelativeRise);
    v.saturated = v.inFlight.risingMaterially && v.ttft.risingMaterially &&
                  !(v.throughput.available && v.throughput.significantlyPositive);
    if (v.saturated)
        v.reason = u"over-saturated: in flight +%1/s and median TTFT +%2 ms/s over %3 s while "
                   "throughput did not grow"_s.arg(v.inFlight.slope, 0, 'f', 2)
                       .arg(v.ttft.slope, 0, 'f', 1)
                       .arg(windowS, 0, 'f', 0);
    else if (!v.inFlight.risingMaterially)
        v.reason = u"not saturated: requests in flight are not rising materially"_s;
    else if (!v.ttft.risingMaterially)
        v.reason = u"not saturated: TTFT is not rising materially"_s;
    else
        v.reason = u"not saturated: throughput is still growing"_s;
    return v;
}

SaturationVerdict detectSaturation(const RecordSet &records, const SaturationOptions &options)
{
    qint64 origin = std::numeric_limits<qint64>::max(), end = 0;
    for (const RequestRecord &r : records) {
        if (r.tSend <= 0)
            continue;
        origin = std::min(origin, r.tSend);
        end = std::max(end, std::max(completionTimeNs(r), r.tSend));
    }
    if (origin == std::numeric_limits<qint64>::max()) {
        SaturationVerdict v;
        v.reason = u"no request was sent"_s;
        return v;
    }
    SaturationDetector d(origin, options);
    for (const RequestRecord &r : records) {
        if (r.tSend <= 0)
            continue;
        d.addSent(r.tSend);
        d.addFinished(r);
    }
    const auto sliceNs = std::max<qint64>(1, qint64(std::llround(options.sliceSeconds * 1e9)));
    SaturationVerdict last;
    for (qint64 t = origin + sliceNs; t <= end; t += sliceNs) {
        last = d.evaluate(t);
        if (last.saturated)
            return last;
    }
    if (!last.evaluated && last.reason.isEmpty())
        last = d.evaluate(end);
    return last;
}

} // namespace sb
