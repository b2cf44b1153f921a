#include "chartspec.h"

#include "metrics/summary.h"
#include "report/reportrun.h"

#include <algorithm>

namespace sb {

using namespace Qt::StringLiterals;

QList<QPair<double, double>> empiricalCdf(QList<double> values, int maxPoints)
{
    QList<QPair<double, double>> out;
    if (values.isEmpty())
        return out;
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    const qsizetype points = std::min<qsizetype>(n, std::max(2, maxPoints));
    out.reserve(points);
    for (qsizetype k = 0; k < points; ++k) {
        // Evenly spaced ranks from the first to the last sample.
        const qsizetype i = points == 1 ? 0 : k * (n - 1) / (points - 1);
        out.append({values.at(i), double(i + 1) / double(n)});
    }
    return out;
}

QList<double> latencySamples(const ReportRun &run, const QString &metric)
{
    QList<double> out;
    if (!run.rawRecords)
        return out;
    for (const RequestRecord &r : run.input.records) {
        if (r.warmup || !r.ok() || r.tSend <= 0)
            continue;
        if (metric == "ttft"_L1) {
            if (r.tFirst > 0)
                out.append(double(r.tFirst - r.tSend) / 1e6);
        } else if (metric == "e2el"_L1) {
            // A non-streamed answer (embeddings, rerank) ends with its body.
            if (r.batchItems > 0 && r.tEnd > 0)
                out.append(double(r.tEnd - r.tSend) / 1e6);
            else if (r.tLast > 0)
                out.append(double(r.tLast - r.tSend) / 1e6);
        } else if (metric == "tpot"_L1) {
            const qint32 n = effectiveOutputTokens(r);
            if (n > 1 && r.tFirst > 0 && r.tLast > 0)
                out.append(double(r.tLast - r.tFirst) / 1e6 / double(n - 1));
        } else if (metric == "itl"_L1) {
            for (qsizetype k = 1; k < r.chunkTimes.size(); ++k)
                out.append(double(r.chunkTimes.at(k) - r.chunkTimes.at(k - 1)) / 1e6);
        }
    }
    return out;
}

QList<ChartSpec> reportChartSpecs(const QList<ReportRun> &runs)
{
    QList<ChartSpec> specs;
    const QList<QPair<QString, QString>> metrics = {{u"ttft"_s, u"TTFT"_s},
                                                    {u"tpot"_s, u"TPOT"_s},
                                                    {u"itl"_s, u"ITL"_s},
                                                    {u"e2el"_s, u"E2EL"_s}};
    for (const auto &m : metrics) {
        ChartSpec s;
        s.kind = ChartSpec::Kind::Cdf;
        s.key = u"cdf_"_s + m.first;
        s.titleMessage = Message("chart.cdf.title", {m.second});
        s.xLabelMessage = Message("chart.cdf.x", {m.second});
        s.yLabelMessage = Message("chart.cdf.y");
        s.title = s.titleMessage.text();
        s.xLabel = s.xLabelMessage.text();
        s.yLabel = s.yLabelMessage.text();
        QStringList without;
        for (const ReportRun &r : runs) {
            ChartSeries series;
            series.label = r.label;
            series.labelMessage = Message::literal(r.label);
            series.points = empiricalCdf(latencySamples(r, m.first));
            if (series.points.isEmpty())
                without << r.label;
            s.series.append(series);
        }
        if (without.size() == runs.size())
            s.emptyNoteMessage = Message("chart.no_samples");
        else if (!without.isEmpty())
            s.emptyNoteMessage = Message("chart.no_samples_for", {without.join(u", "_s)});
        s.emptyNote = s.emptyNoteMessage.text();
        specs.append(s);
    }

    ChartSpec req;
    req.kind = ChartSpec::Kind::Bars;
    req.key = u"throughput_requests"_s;
    req.titleMessage = Message("chart.requests.title");
    req.title = req.titleMessage.text();
    req.yLabel = u"req/s"_s;
    req.yLabelMessage = Message::literal(req.yLabel);
    ChartSpec tok;
    tok.kind = ChartSpec::Kind::Bars;
    tok.key = u"throughput_tokens"_s;
    tok.titleMessage = Message("chart.tokens.title");
    tok.title = tok.titleMessage.text();
    tok.yLabel = u"tok/s"_s;
    tok.yLabelMessage = Message::literal(tok.yLabel);
    const auto named = [](const char *id) {
        const Message m(id);
        return ChartSeries{m.text(), m, {}, {}};
    };
    ChartSeries reqTp = named("chart.series.request_throughput");
    ChartSeries goodput = named("chart.series.goodput");
    ChartSeries outTp = named("chart.series.output_tokens");
    ChartSeries totalTp = named("chart.series.total_tokens");
    bool anyGoodput = false;
    for (const ReportRun &r : runs) {
        req.categories << r.label;
        tok.categories << r.label;
        reqTp.values << r.summary.requestThroughput;
        goodput.values << (r.summary.goodputSet ? r.summary.requestGoodput : 0.0);
        anyGoodput = anyGoodput || r.summary.goodputSet;
        outTp.values << r.summary.outputThroughput;
        totalTp.values << r.summary.totalTokenThroughput;
    }
    req.series << reqTp;
    if (anyGoodput)
        req.series << goodput;
    tok.series << outTp << totalTp;
    specs << req << tok;
    return specs;
}

} // namespace sb
