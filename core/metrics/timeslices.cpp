#include "timeslices.h"

#include "samples.h"

#include <QJsonArray>
#include <QJsonValue>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QJsonObject statsJson(const MetricStats &s)
{
    QJsonObject o{{u"count"_s, s.count}};
    if (s.count > 0) {
        o.insert(u"mean"_s, s.mean);
        for (const auto &pv : s.percentiles)
            o.insert(u"p"_s + percentileWord(pv.first), pv.second);
    }
    return o;
}

} // namespace

QJsonObject TimeSlice::toJson() const
{
    return QJsonObject{{u"index"_s, index},
                       {u"start_s"_s, startS},
                       {u"end_s"_s, endS},
                       {u"sent"_s, sent},
                       {u"completed"_s, completed},
                       {u"failed"_s, failed},
                       {u"output_tokens"_s, outputTokens},
                       {u"request_throughput"_s, requestThroughput},
                       {u"output_throughput"_s, outputThroughput},
                       {u"ttft_ms"_s, statsJson(ttft)},
                       {u"itl_ms"_s, statsJson(itl)},
                       {u"in_flight_at_end"_s, inFlightAtEnd}};
}

QJsonObject TimeSlices::toJson() const
{
    QJsonArray arr;
    for (const TimeSlice &s : slices)
        arr.append(s.toJson());
    QJsonArray ps;
    for (double p : percentiles)
        ps.append(p);
    return QJsonObject{
        {u"slice_seconds"_s, sliceSeconds}, {u"percentiles"_s, ps}, {u"slices"_s, arr}};
}

QString TimeSlices::formatTable() const
{
    QStringList head = {u"start s"_s, u"sent"_s, u"done"_s, u"failed"_s, u"req/s"_s, u"tok/s"_s};
    for (double p : percentiles)
        head << u"TTFT p"_s + percentileWord(p);
    for (double p : percentiles)
        head << u"ITL p"_s + percentileWord(p);
    head << u"in flight"_s;
    constexpr int w = 10;
    QString out;
    for (const QString &h : head)
        out += h.rightJustified(w) + u' ';
    out += u'\n';
    const auto num = [](double v, int decimals) {
        return QString::number(v, 'f', decimals);
    };
    for (const TimeSlice &s : slices) {
        QStringList cells = {
            num(s.startS, 1),          QString::number(s.sent),     QString::number(s.completed),
            QString::number(s.failed), num(s.requestThroughput, 2), num(s.outputThroughput, 1)};
        for (double p : percentiles)
            cells << (s.ttft.count > 0 ? num(s.ttft.percentile(p), 2) : u"-"_s);
        for (double p : percentiles)
            cells << (s.itl.count > 0 ? num(s.itl.percentile(p), 2) : u"-"_s);
        cells << QString::number(s.inFlightAtEnd);
        for (const QString &c : cells)
            out += c.rightJustified(w) + u' ';
        out += u'\n';
    }
    return out;
}

TimeSlices timeSlices(const RecordSet &records, const TimeSliceOptions &opts)
{
    TimeSlices out;
    out.sliceSeconds = opts.sliceSeconds;
    out.percentiles = opts.percentiles;
    if (!(opts.sliceSeconds > 0))
        return out;
    const auto included = [&opts](const RequestRecord &r) {
        return (!r.warmup || opts.includeWarmup) && r.tSend > 0;
    };
    qint64 origin = std::numeric_limits<qint64>::max(), end = 0;
    for (const RequestRecord &r : records) {
        if (!included(r))
            continue;
        origin = std::min(origin, r.tSend);
        end = std::max(end, std::max(completionTimeNs(r), r.tSend));
    }
    if (origin == std::numeric_limits<qint64>::max())
        return out;
    out.originNs = origin;
    const auto len = qint64(std::llround(opts.sliceSeconds * 1e9));
    if (len <= 0)
        return out;
    // Slices are [a, a + len); the run's end itself belongs to the last one, which ends there.
    const qint64 count = std::max<qint64>(1, (end - origin + len - 1) / len);
    const auto sliceOf = [origin, len, count](qint64 t) {
        return std::clamp<qint64>((t - origin) / len, 0, count - 1);
    };
    std::vector<TimeSlice> sl(static_cast<size_t>(count));
    std::vector<std::vector<double>> ttft(static_cast<size_t>(count));
    // Gaps as floats, rounded as the run's ITL pool rounds them: a 100M-gap run's slices would
    // otherwise hold 800 MB.
    std::vector<std::vector<float>> itl(static_cast<size_t>(count));
    for (const RequestRecord &r : records) {
        if (!included(r))
            continue;
        ++sl[size_t(sliceOf(r.tSend))].sent;
        const qint64 done = std::max(completionTimeNs(r), r.tSend);
        if (r.cancelledByLoad())
            continue; // neither completed nor failed (docs/metrics.md)
        if (!r.ok()) {
            ++sl[size_t(sliceOf(done))].failed;
            continue;
        }
        ++sl[size_t(sliceOf(done))].completed;
        const qint64 first =
            r.tFirst > 0 ? r.tFirst : (r.chunkTimes.isEmpty() ? 0 : r.chunkTimes.constFirst());
        if (first > 0)
            ttft[size_t(sliceOf(first))].push_back(double(first - r.tSend) / 1e6);
        for (qsizetype k = 0; k < r.chunkTimes.size(); ++k) {
            const qint64 t = r.chunkTimes.at(k);
            if (t < origin)
                continue;
            const size_t s = size_t(sliceOf(t));
            sl[s].outputTokens +=
                k < r.chunkTokens.size() && r.chunkTokens.at(k) > 0 ? r.chunkTokens.at(k) : 1;
            if (k > 0)
                itl[s].push_back(float(double(t - r.chunkTimes.at(k - 1)) / 1e6));
        }
    }
    // The records `included` keeps, without copying them (inFlightSteps skips the same ones).
    const QList<InFlightStep> steps = inFlightSteps(records, opts.includeWarmup);
    for (qint64 i = 0; i < count; ++i) {
        TimeSlice &s = sl[size_t(i)];
        s.index = int(i);
        const qint64 a = origin + i * len;
        const qint64 b = i + 1 < count ? a + len : std::min(a + len, end);
        s.startS = double(a - origin) / 1e9;
        s.endS = double(b - origin) / 1e9;
        const double seconds = s.endS - s.startS;
        if (seconds > 0) {
            s.requestThroughput = double(s.completed) / seconds;
            s.outputThroughput = double(s.outputTokens) / seconds;
        }
        s.ttft = computeStats(std::span<double>(ttft[size_t(i)]), opts.percentiles, opts.method);
        s.itl = computeStats(std::span<float>(itl[size_t(i)]), opts.percentiles, opts.method);
        // At the instant b, after the sends and completions that happen exactly then.
        s.inFlightAtEnd = inFlightAt(steps, b);
    }
    out.slices = QList<TimeSlice>(sl.cbegin(), sl.cend());
    return out;
}

} // namespace sb
