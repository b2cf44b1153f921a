#include "resultsdata.h"

#include "charts/finehistogram.h"
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
    return computeResultsSummary(in);
}

ResultsSummaryStage computeResultsSummary(const RunReportInput &in)
{
    return resultsSummaryFrom(in, deriveRun(in));
}

ResultsSummaryStage resultsSummaryFrom(const RunReportInput &in, const RunDerivation &d)
{
    const RunPlan &plan = in.plan;
    const RecordSet &records = in.records;
    const QList<MetricSeriesStore> &serverMetrics = in.serverMetrics;
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
    st.cancellation = d.cancellation;
    st.zeroNs = runZeroNs(records);
    if (d.hasServerMetrics) {
        st.server = d.server;
        for (ServerQuantity q : {ServerQuantity::Running, ServerQuantity::Waiting,
                                 ServerQuantity::KvCacheUsage, ServerQuantity::PowerW})
            st.serverSeries.append(serverTimeline(serverMetrics, q));
    }
    return st;
}

qint64 runZeroNs(const RecordSet &records)
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

ResultsChartBuilder::ResultsChartBuilder(qint64 zeroNs, bool pooledItl)
    : m_zero(zeroNs), m_lastNs(zeroNs), m_pooledItl(pooledItl)
{
    if (!pooledItl)
        m_itlHistogram = std::make_unique<FineHistogram>();
}

ResultsChartBuilder::~ResultsChartBuilder() = default;

void ResultsChartBuilder::bump(std::vector<double> &buckets, qint64 ns, double by) const
{
    const double s = double(ns - m_zero) / 1e9;
    const size_t b = s < 0 ? 0 : size_t(s); // 1-second buckets
    if (b >= buckets.size())
        buckets.resize(b + 1, 0.0);
    buckets[b] += by;
}

void ResultsChartBuilder::add(const RequestRecord &r, const RequestRow &row)
{
    // Latency samples of the measured successful requests: the population the summary uses.
    if (!std::isnan(row.scheduleLagMs) && !std::isnan(row.sendS)) {
        m_lagX.push_back(row.sendS);
        m_lagY.push_back(row.scheduleLagMs);
    }
    if (row.ok()) {
        if (!std::isnan(row.ttftMs)) {
            m_sendX.push_back(row.sendS);
            m_ttftY.push_back(row.ttftMs);
        }
        if (!std::isnan(row.itlMeanMs)) {
            m_endX.push_back(row.endS);
            m_itlY.push_back(row.itlMeanMs);
        }
        if (!row.warmup) {
            if (!std::isnan(row.ttftMs))
                m_ttft.push_back(row.ttftMs);
            if (!std::isnan(row.tpotMs))
                m_tpot.push_back(row.tpotMs);
            if (!std::isnan(row.e2elMs))
                m_e2el.push_back(row.e2elMs);
        }
    }
    m_lastNs = std::max({m_lastNs, r.tEnd, r.tLast, r.tSend});
    const qint64 *ct = r.chunkTimes.constData();
    // ITL is pooled per chunk gap, which the rows (one per request) cannot give.
    if (!r.warmup && r.ok()) {
        for (qsizetype k = 1; k < r.chunkTimes.size(); ++k) {
            const double gap = double(ct[k] - ct[k - 1]) / 1e6;
            if (m_pooledItl)
                m_itl.push_back(gap);
            else
                m_itlHistogram->add(float(gap));
        }
    }
    if (m_zero <= 0 || r.tSend <= 0)
        return;
    const qint64 done = r.tEnd > 0 ? r.tEnd : (r.tLast > 0 ? r.tLast : r.tSend);
    m_edges.emplace_back(r.tSend, +1);
    m_edges.emplace_back(done, -1);
    if (r.warmup || r.cancelledByLoad())
        return; // a request the cancellation load closed is neither ok nor an error
    if (!r.ok()) {
        bump(m_errPerBucket, done, 1);
        return;
    }
    bump(m_okPerBucket, done, 1);
    for (qsizetype k = 0; k < r.chunkTimes.size(); ++k) {
        const qint32 t = k < r.chunkTokens.size() ? r.chunkTokens.at(k) : 1;
        bump(m_tokPerBucket, ct[k], t > 0 ? t : 1);
    }
}

ResultsChartStage ResultsChartBuilder::finish(int columns, const std::function<bool()> &cancelled)
{
    ResultsChartStage st;
    const auto stop = [&cancelled] {
        return cancelled && cancelled();
    };
    if (stop())
        return st;
    st.distributions.append(distribution(u"ttft"_s, m_ttft, columns));
    st.distributions.append(distribution(u"tpot"_s, m_tpot, columns));
    if (m_pooledItl) {
        st.distributions.append(distribution(u"itl"_s, m_itl, columns));
    } else {
        ResultsChartStage::Distribution d;
        d.key = u"itl"_s;
        d.samples = m_itlHistogram->count();
        d.cdf = m_itlHistogram->cdf(columns);
        d.histogram = m_itlHistogram->histogram(60, 0.995);
        d.binned = true;
        st.distributions.append(d);
    }
    st.distributions.append(distribution(u"e2el"_s, m_e2el, columns));
    if (stop())
        return st;

    st.spanS = m_zero > 0 ? double(m_lastNs - m_zero) / 1e9 : 0;
    st.bucketS = 1.0;
    const size_t nb = size_t(std::floor(st.spanS / st.bucketS)) + 1;
    for (std::vector<double> *b : {&m_okPerBucket, &m_errPerBucket, &m_tokPerBucket})
        b->resize(std::max(b->size(), nb), 0.0);
    st.requestsPerS = rateSeries(m_okPerBucket, st.bucketS, columns);
    st.errorsPerS = rateSeries(m_errPerBucket, st.bucketS, columns);
    st.outputTokensPerS = rateSeries(m_tokPerBucket, st.bucketS, columns);

    // A completion at t frees its slot before a send at t (same rule as summarize's peak).
    std::sort(m_edges.begin(), m_edges.end());
    std::vector<double> fx, fy;
    fx.reserve(m_edges.size() * 2);
    fy.reserve(m_edges.size() * 2);
    qint64 level = 0;
    for (const auto &e : m_edges) {
        const double x = double(e.first - m_zero) / 1e9;
        fx.push_back(x);
        fy.push_back(double(level));
        level += e.second;
        fx.push_back(x);
        fy.push_back(double(level));
    }
    const double span = std::max(st.spanS, 1e-9);
    st.inFlight = thinMinMax(fx, fy, 0, span, columns);
    st.ttftOverTime = thinMinMax(m_sendX, m_ttftY, 0, span, columns);
    st.itlOverTime = thinMinMax(m_endX, m_itlY, 0, span, columns);
    st.lagOverTime = thinMinMax(m_lagX, m_lagY, 0, span, columns);
    return st;
}

ResultsChartStage computeResultsCharts(const QList<RequestRecord> &records,
                                       const QList<RequestRow> &rows, int columns,
                                       const std::function<bool()> &cancelled)
{
    ResultsChartBuilder builder(runZeroNs(records), true);
    for (qsizetype i = 0; i < records.size() && i < rows.size(); ++i) {
        if ((i & 4095) == 0 && cancelled && cancelled())
            return {};
        builder.add(records.at(i), rows.at(i));
    }
    return builder.finish(columns, cancelled);
}

} // namespace sb
