#include "resultsdata.h"

#include "config/runplan.h"
#include "report/runreport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace Qt::StringLiterals;

namespace sb {

ResultsSummaryStage computeResultsSummary(const RunPlan &plan, const QList<RequestRecord> &records,
                                          const QList<MetricSeriesStore> &serverMetrics)
{
    RunReportInput in;
    in.plan = plan;
    in.records = records;
    in.serverMetrics = serverMetrics;
    const RunDerivation d = deriveRun(in);
    ResultsSummaryStage st;
    st.summary = d.summary;
    st.hasMlperf = d.hasMlperf;
    st.mlperf = d.mlperf;
    st.mlperfError = d.mlperfError;
    st.health = d.health;
    st.intervals = d.intervals;
    if (d.hasMlperf)
        st.mlperfText = d.mlperf.formatMlperfBlock();
    st.sessions = d.sessions;
    st.connections = d.connections;
    st.historyMode = QString::fromLatin1(historyModeName(plan.profile.history));
    st.hasServer = d.hasServerMetrics;
    st.zeroNs = runZeroNs(records);
    if (d.hasServerMetrics) {
        st.server = d.server;
        for (ServerQuantity q : {ServerQuantity::Running, ServerQuantity::Waiting,
                                 ServerQuantity::KvCacheUsage, ServerQuantity::PowerW})
            st.serverSeries.append(serverTimeline(serverMetrics, q));
    }
    return st;
}

qint64 runZeroNs(const QList<RequestRecord> &records)
{
    qint64 sched = std::numeric_limits<qint64>::max();
    qint64 send = std::numeric_limits<qint64>::max();
    for (const RequestRecord &r : records) {
        if (r.tSched > 0)
            sched = std::min(sched, r.tSched);
        if (r.tSend > 0)
            send = std::min(send, r.tSend);
    }
    if (sched != std::numeric_limits<qint64>::max())
        return sched;
    return send != std::numeric_limits<qint64>::max() ? send : 0;
}

namespace {

ResultsChartStage::Distribution distribution(const QString &key, std::vector<double> &values,
                                             int columns)
{
    ResultsChartStage::Distribution d;
    d.key = key;
    d.samples = qint64(values.size());
    std::sort(values.begin(), values.end());
    d.cdf = cdfPoints(values, columns);
    // 60 bins read well at any chart size; the top 0.5 % would stretch the axis for nothing
    // visible, so it is counted, not drawn.
    d.histogram = makeHistogram(values, 60, 0.995);
    return d;
}

QList<QPointF> rateSeries(const std::vector<double> &counts, double bucketS, int columns)
{
    std::vector<double> xs(counts.size());
    std::vector<double> ys(counts.size());
    for (size_t b = 0; b < counts.size(); ++b) {
        xs[b] = (double(b) + 0.5) * bucketS;
        ys[b] = counts[b] / bucketS;
    }
    if (counts.empty())
        return {};
    return thinMinMax(xs, ys, 0, double(counts.size()) * bucketS, columns);
}

} // namespace

ResultsChartStage computeResultsCharts(const QList<RequestRecord> &records,
                                       const QList<RequestRow> &rows, int columns,
                                       const std::function<bool()> &cancelled)
{
    ResultsChartStage st;
    const auto stop = [&cancelled] {
        return cancelled && cancelled();
    };
    const qint64 zero = runZeroNs(records);

    // Latency samples of the measured successful requests: the population the summary uses.
    std::vector<double> ttft, tpot, e2el, itl;
    std::vector<double> sendX, ttftY, endX, itlY, lagX, lagY;
    for (const RequestRow &r : rows) {
        if (!std::isnan(r.scheduleLagMs) && !std::isnan(r.sendS)) {
            lagX.push_back(r.sendS);
            lagY.push_back(r.scheduleLagMs);
        }
        if (!r.ok())
            continue;
        if (!std::isnan(r.ttftMs)) {
            sendX.push_back(r.sendS);
            ttftY.push_back(r.ttftMs);
        }
        if (!std::isnan(r.itlMeanMs)) {
            endX.push_back(r.endS);
            itlY.push_back(r.itlMeanMs);
        }
        if (r.warmup)
            continue;
        if (!std::isnan(r.ttftMs))
            ttft.push_back(r.ttftMs);
        if (!std::isnan(r.tpotMs))
            tpot.push_back(r.tpotMs);
        if (!std::isnan(r.e2elMs))
            e2el.push_back(r.e2elMs);
    }
    // ITL is pooled per chunk gap, which the rows (one per request) cannot give.
    qint64 lastNs = zero;
    for (const RequestRecord &r : records) {
        lastNs = std::max({lastNs, r.tEnd, r.tLast, r.tSend});
        if (r.warmup || !r.ok())
            continue;
        const qint64 *ct = r.chunkTimes.constData();
        for (qsizetype k = 1; k < r.chunkTimes.size(); ++k)
            itl.push_back(double(ct[k] - ct[k - 1]) / 1e6);
    }
    if (stop())
        return st;
    st.distributions.append(distribution(u"ttft"_s, ttft, columns));
    st.distributions.append(distribution(u"tpot"_s, tpot, columns));
    st.distributions.append(distribution(u"itl"_s, itl, columns));
    st.distributions.append(distribution(u"e2el"_s, e2el, columns));
    if (stop())
        return st;

    st.spanS = zero > 0 ? double(lastNs - zero) / 1e9 : 0;
    st.bucketS = 1.0;
    const size_t nb = size_t(std::floor(st.spanS / st.bucketS)) + 1;
    std::vector<double> okPerBucket(nb, 0.0), errPerBucket(nb, 0.0), tokPerBucket(nb, 0.0);
    const auto bucketOf = [zero, nb, &st](qint64 ns) {
        const double s = double(ns - zero) / 1e9;
        return s < 0 ? size_t(0) : std::min(nb - 1, size_t(s / st.bucketS));
    };
    std::vector<std::pair<qint64, int>> edges; // (time, +1 send / -1 completion)
    edges.reserve(size_t(records.size()) * 2);
    for (qsizetype i = 0; i < records.size(); ++i) {
        const RequestRecord &r = records.at(i);
        if (zero <= 0 || r.tSend <= 0)
            continue;
        const qint64 done = r.tEnd > 0 ? r.tEnd : (r.tLast > 0 ? r.tLast : r.tSend);
        edges.emplace_back(r.tSend, +1);
        edges.emplace_back(done, -1);
        if (r.warmup)
            continue;
        if (!r.ok()) {
            errPerBucket[bucketOf(done)] += 1;
            continue;
        }
        okPerBucket[bucketOf(done)] += 1;
        const qint64 *ct = r.chunkTimes.constData();
        for (qsizetype k = 0; k < r.chunkTimes.size(); ++k) {
            const qint32 t = k < r.chunkTokens.size() ? r.chunkTokens.at(k) : 1;
            tokPerBucket[bucketOf(ct[k])] += t > 0 ? t : 1;
        }
    }
    if (stop())
        return st;
    st.requestsPerS = rateSeries(okPerBucket, st.bucketS, columns);
    st.errorsPerS = rateSeries(errPerBucket, st.bucketS, columns);
    st.outputTokensPerS = rateSeries(tokPerBucket, st.bucketS, columns);

    // A completion at t frees its slot before a send at t (same rule as summarize's peak).
    std::sort(edges.begin(), edges.end());
    std::vector<double> fx, fy;
    fx.reserve(edges.size() * 2);
    fy.reserve(edges.size() * 2);
    qint64 level = 0;
    for (const auto &e : edges) {
        const double x = double(e.first - zero) / 1e9;
        fx.push_back(x);
        fy.push_back(double(level));
        level += e.second;
        fx.push_back(x);
        fy.push_back(double(level));
    }
    st.inFlight = thinMinMax(fx, fy, 0, std::max(st.spanS, 1e-9), columns);
    st.ttftOverTime = thinMinMax(sendX, ttftY, 0, std::max(st.spanS, 1e-9), columns);
    st.itlOverTime = thinMinMax(endX, itlY, 0, std::max(st.spanS, 1e-9), columns);
    st.lagOverTime = thinMinMax(lagX, lagY, 0, std::max(st.spanS, 1e-9), columns);
    return st;
}

} // namespace sb
