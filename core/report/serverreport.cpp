#include "serverreport.h"

#include "metrics/summary.h"
#include "metrics/summarytext.h"
#include "report/chartspec.h"
#include "report/comparison.h"
#include "report/htmlreport.h"
#include "report/reportrun.h"
#include "servermetrics/enginecatalog.h"
#include "servermetrics/metricsscraper.h"
#include "servermetrics/seriescodec.h"
#include "servermetrics/servertimeline.h"
#include "store/projectstore.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr double kGiB = 1.0 / (1024.0 * 1024.0 * 1024.0);

QString line(const QString &label, const QString &value)
{
    return label.leftJustified(40) + u' ' + value + u'\n';
}

QJsonValue jsonNumber(double v)
{
    if (std::isnan(v))
        return u"NaN"_s;
    if (std::isinf(v))
        return v > 0 ? u"+Inf"_s : u"-Inf"_s;
    return v;
}

// Thins (x, y) points to at most two per column (the lowest and the highest), in x order: a
// report chart of a long run stays a few thousand points.
QList<QPair<double, double>> thinned(QList<QPair<double, double>> pts, double xMax, int columns)
{
    if (pts.size() <= 2 * columns || !(xMax > 0))
        return pts;
    std::sort(pts.begin(), pts.end());
    QList<QPair<double, double>> out;
    qsizetype i = 0;
    for (int c = 0; c < columns && i < pts.size(); ++c) {
        const double end = xMax * (c + 1) / columns;
        qsizetype lo = -1, hi = -1;
        for (; i < pts.size() && (pts[i].first <= end || c == columns - 1); ++i) {
            if (lo < 0 || pts[i].second < pts[lo].second)
                lo = i;
            if (hi < 0 || pts[i].second > pts[hi].second)
                hi = i;
        }
        if (lo < 0)
            continue;
        out.append(pts[std::min(lo, hi)]);
        if (hi != lo)
            out.append(pts[std::max(lo, hi)]);
    }
    return out;
}

} // namespace

ServerEvidence deriveServerEvidence(const QList<MetricSeriesStore> &stores, const RunSummary &s)
{
    EvidenceInput in;
    for (const MetricSeriesStore &store : stores)
        in.stores.append(&store);
    in.t0Ns = s.windowStartNs;
    in.t1Ns = s.windowEndNs;
    in.client.outputTokens = s.totalOutputTokens;
    in.client.requests = s.completed;
    if (s.completed > 0) {
        in.client.ttftMeanMs = s.ttft.mean;
        in.client.ttftP50Ms = s.ttft.median;
        in.client.ttftP99Ms = s.ttft.percentile(99);
        in.client.e2elMeanMs = s.e2el.mean;
        in.client.e2elP50Ms = s.e2el.median;
        in.client.e2elP99Ms = s.e2el.percentile(99);
    }
    return ServerEvidence::compute(in);
}

const QList<ServerFigure> &serverFigures()
{
    // The evidence's order; what a comparison lists is what a reader weighs runs by.
    static const QList<ServerFigure> all = {
        {"running_peak", "requests", 1, 0, true, false},
        {"running_mean", "requests", 1, 2, true, true},
        {"waiting_peak", "requests", 1, 0, true, true},
        {"waiting_mean", "requests", 1, 2, true, false},
        {"kv_cache_usage_peak", "%", 100, 1, true, true},
        {"kv_cache_usage_mean", "%", 100, 1, true, false},
        {"preemptions", "", 1, 0, true, true},
        {"server_prompt_tokens", "tokens", 1, 0, true, false},
        {"server_generation_tokens", "tokens", 1, 0, false, true},
        {"server_requests", "requests", 1, 0, false, false},
        {"prefix_cache_hit_rate", "%", 100, 1, false, true},
        {"server_ttft_mean_ms", "ms", 1, 2, true, true},
        {"server_ttft_p50_ms", "ms", 1, 2, true, false},
        {"server_ttft_p90_ms", "ms", 1, 2, true, false},
        {"server_ttft_p99_ms", "ms", 1, 2, true, false},
        {"ttft_outside_engine_ms", "ms", 1, 2, true, true},
        {"server_itl_mean_ms", "ms", 1, 2, true, false},
        {"server_itl_p50_ms", "ms", 1, 2, true, false},
        {"server_itl_p90_ms", "ms", 1, 2, true, false},
        {"server_itl_p99_ms", "ms", 1, 2, true, false},
        {"server_e2e_mean_ms", "ms", 1, 2, true, true},
        {"server_e2e_p50_ms", "ms", 1, 2, true, false},
        {"server_e2e_p90_ms", "ms", 1, 2, true, false},
        {"server_e2e_p99_ms", "ms", 1, 2, true, false},
        {"e2e_outside_engine_ms", "ms", 1, 2, true, true},
        {"gpu_util_mean", "%", 1, 1, false, true},
        {"power_mean_w", "W", 1, 1, true, true},
        {"energy_j", "J", 1, 1, true, true},
        {"joules_per_output_token", "J/token", 1, 4, true, true},
        {"fb_used_peak_bytes", "GiB", kGiB, 2, true, false},
    };
    return all;
}

const ServerFigure *serverFigure(const QString &name)
{
    for (const ServerFigure &f : serverFigures())
        if (name == QLatin1StringView(f.name))
            return &f;
    return nullptr;
}

Message serverFigureLabel(const QString &name)
{
    const QByteArray id = "server.label." + name.toLatin1();
    return Message::known(id.constData()) ? Message(id.constData()) : Message::literal(name);
}

Message serverFigureDefinition(const QString &name)
{
    const QByteArray id = "server.def." + name.toLatin1();
    return Message::known(id.constData()) ? Message(id.constData())
                                          : Message::literal(ServerEvidence::definition(name));
}

Message serverReasonMessage(const QString &english)
{
    return Message::fromEnglish(english);
}

Message serverTargetMessage(const QJsonObject &t)
{
    const QString name = t.value("name"_L1).toString();
    const QString url = t.value("url"_L1).toString();
    const int ok = t.value("ok"_L1).toInt();
    if (ok == 0)
        return Message("server.target.na",
                       QList<Message>{Message::literal(name), Message::literal(url),
                                      serverReasonMessage(t.value("reason"_L1).toString())});
    return Message("server.target.ok",
                   {name, url, t.value("engine"_L1).toString(),
                    QString::number(t.value("scrapes"_L1).toInt()), QString::number(ok)});
}

Message serverSourceMessage(const QString &source)
{
    const qsizetype colon = source.indexOf(": "_L1);
    if (colon <= 0)
        return Message::literal(source);
    return Message("server.source", {source.left(colon), source.mid(colon + 2)});
}

Message serverChartEmptyNote(const EvidenceItem *item)
{
    // The one reason a reader can act on without the table: the server does not export it (a
    // host without a DCGM exporter has no GPU power). Any other reason is in the table.
    if (item && !item->available) {
        const Message reason = serverReasonMessage(item->reason);
        if (reason.id() && qstrcmp(reason.id(), "server.reason.not_exported") == 0)
            return Message("server.chart.not_exported");
    }
    return Message("server.chart.no_data");
}

QString formatServerValue(const EvidenceItem &item, bool translate)
{
    if (!item.available)
        return Message("server.na", {serverReasonMessage(item.reason)}).text(translate);
    const ServerFigure *f = serverFigure(item.name);
    const double v = item.value * (f ? f->scale : 1.0);
    const QString number = QString::number(v, 'f', f ? f->decimals : 2);
    const QString unit = f ? QString::fromLatin1(f->unit) : item.unit;
    // The two units that are words read in the reader's language; symbols stay as they are.
    if (unit == "requests"_L1)
        return Message("server.value.requests", {number}).text(translate);
    if (unit == "tokens"_L1)
        return Message("server.value.tokens", {number}).text(translate);
    return unit.isEmpty() ? number : number + u' ' + unit;
}

QString formatServerMetricsBlock(const ServerEvidence &ev)
{
    QString out = summaryHeading(u"Server metrics"_s, u'-');
    const QJsonObject json = ev.toJson();
    for (const QJsonValue &v : json.value("targets"_L1).toArray()) {
        const QJsonObject t = v.toObject();
        const int scrapes = t.value("scrapes"_L1).toInt();
        const int ok = t.value("ok"_L1).toInt();
        QString what =
            u"%1, %2 scrapes, %3 ok"_s.arg(t.value("engine"_L1).toString()).arg(scrapes).arg(ok);
        if (ok == 0)
            what = u"not available (%1)"_s.arg(t.value("reason"_L1).toString());
        out += line(u"Target %1:"_s.arg(t.value("name"_L1).toString()),
                    u"%1 (%2)"_s.arg(what, t.value("url"_L1).toString()));
    }
    for (const EvidenceItem &item : ev.items()) {
        QString value = formatServerValue(item);
        if (item.available) {
            if (item.detail.contains("client_output_tokens"_L1))
                value +=
                    u" (client %1, difference %2)"_s
                        .arg(item.detail.value("client_output_tokens"_L1).toDouble(), 0, 'f', 0)
                        .arg(item.detail.value("difference"_L1).toDouble(), 0, 'f', 0);
            else if (item.detail.contains("client_requests"_L1))
                value += u" (client %1)"_s.arg(item.detail.value("client_requests"_L1).toDouble(),
                                               0, 'f', 0);
            else if (item.detail.contains("client_mean_ms"_L1))
                value += u" (client %1 ms, engine %2 ms)"_s
                             .arg(item.detail.value("client_mean_ms"_L1).toDouble(), 0, 'f', 2)
                             .arg(item.detail.value("server_mean_ms"_L1).toDouble(), 0, 'f', 2);
            else if (item.name == "energy_j"_L1)
                value += u" (%1)"_s.arg(item.detail.value("method"_L1).toString());
            const int resets = item.detail.value("counter_resets"_L1).toInt();
            if (resets > 0)
                value += u" [%1 counter reset(s)]"_s.arg(resets);
            // Evidence from the built-in simulator's GPU is simulated, and says so.
            const QString simulated = QString::fromLatin1(kSimulatedGpuTargetName);
            if (item.source.startsWith(simulated + u':'))
                value += u" (simulated: "_s + simulated + u')';
        }
        out += line(serverFigureLabel(item.name).text() + u':', value);
    }
    out += u"(window: the measured requests' first send to last completion; definitions in "
           "docs/metrics.md)\n"_s;
    return out;
}

QList<StoredRunMetrics> encodeServerMetrics(const QList<MetricSeriesStore> &stores)
{
    QList<StoredRunMetrics> out;
    for (qsizetype i = 0; i < stores.size(); ++i) {
        const MetricSeriesStore &s = stores.at(i);
        StoredRunMetrics m;
        m.position = int(i);
        m.target = s.targetName();
        m.url = s.url();
        m.engine = QString::fromLatin1(serverEngineName(EngineCatalog::detect(s)));
        m.scrapes = int(s.scrapes().size());
        m.blob = encodeSeriesStore(s);
        out.append(m);
    }
    return out;
}

bool loadServerMetrics(const ProjectStore &store, qint64 runId, QList<MetricSeriesStore> *out,
                       QString *error)
{
    out->clear();
    const QList<StoredRunMetrics> rows = store.loadRunMetrics(runId);
    if (rows.isEmpty() && !store.lastError().isEmpty() &&
        store.lastError().contains("run_metrics"_L1)) {
        *error = store.lastError();
        return false;
    }
    for (const StoredRunMetrics &row : rows) {
        MetricSeriesStore s;
        QString why;
        if (!decodeSeriesStore(row.blob, &s, &why)) {
            *error =
                u"run %1: the server metrics of target '%2' cannot be read: %3"_s.arg(runId).arg(
                    row.target, why);
            return false;
        }
        out->append(s);
    }
    return true;
}

QJsonObject serverMetricsFileJson(const MetricSeriesStore &store, qint64 runStartNs)
{
    QJsonArray scrapes;
    for (const ScrapeRecord &r : store.scrapes()) {
        QJsonObject o{{u"t_ns"_s, r.tNs},
                      {u"t_s"_s, double(r.tNs - runStartNs) / 1e9},
                      {u"duration_ms"_s, double(r.durationNs) / 1e6},
                      {u"outcome"_s, QString::fromLatin1(scrapeOutcomeName(r.outcome))},
                      {u"http_status"_s, r.httpStatus},
                      {u"bytes"_s, r.bytes},
                      {u"samples"_s, r.samples},
                      {u"malformed_lines"_s, r.malformedLines}};
        if (!r.detail.isEmpty())
            o[u"detail"_s] = r.detail;
        scrapes.append(o);
    }
    QJsonArray series;
    for (const MetricSeriesStore::Series &s : store.series()) {
        QJsonArray t, v;
        for (qsizetype i = 0; i < s.tNs.size(); ++i) {
            t.append(double(s.tNs[i] - runStartNs) / 1e9);
            v.append(jsonNumber(s.values[i]));
        }
        series.append(QJsonObject{{u"key"_s, QString::fromUtf8(s.key)},
                                  {u"type"_s, QString::fromLatin1(promTypeName(s.type))},
                                  {u"t_s"_s, t},
                                  {u"values"_s, v}});
    }
    return QJsonObject{
        {u"target"_s, store.targetName()},
        {u"url"_s, store.url()},
        {u"engine"_s, QString::fromLatin1(serverEngineName(EngineCatalog::detect(store)))},
        {u"run_start_ns"_s, runStartNs},
        {u"time_base"_s, u"t_ns: CLOCK_MONOTONIC of the scrape's request, the run's clock; t_s: "
                         "seconds from the run's start"_s},
        {u"scrapes"_s, scrapes},
        {u"series"_s, series},
    };
}

QList<ComparisonRow> serverComparisonRows(const QList<ReportRun> &runs)
{
    QList<ComparisonRow> rows;
    bool any = false;
    for (const ReportRun &r : runs)
        any = any || r.derived.hasServerMetrics;
    if (!any)
        return rows;
    for (const ServerFigure &f : serverFigures()) {
        if (!f.compared)
            continue;
        const QString name = QString::fromLatin1(f.name);
        ComparisonRow row;
        row.key = u"server."_s + name;
        row.labelMessage = serverFigureLabel(name);
        row.groupMessage = Message("cmp.group.server");
        row.label = row.labelMessage.text();
        row.group = row.groupMessage.text();
        row.unit = QString::fromLatin1(f.unit);
        row.decimals = f.decimals;
        row.lowerIsBetter = f.lowerIsBetter;
        for (const ReportRun &r : runs) {
            ComparisonCell cell;
            const EvidenceItem *item =
                r.derived.hasServerMetrics ? r.derived.server.item(name) : nullptr;
            if (!r.derived.hasServerMetrics)
                cell.noteMessage = Message("cmp.note.no_server_metrics");
            else if (!item)
                cell.noteMessage = Message::literal(name);
            else if (!item->available)
                cell.noteMessage = serverReasonMessage(item->reason);
            else if (std::isfinite(item->value))
                cell.value = item->value * f.scale;
            cell.note = cell.noteMessage.text();
            row.cells.append(cell);
        }
        rows.append(row);
    }
    return rows;
}

QList<ChartSpec> serverChartSpecs(const ReportRun &run)
{
    QList<ChartSpec> out;
    const QList<MetricSeriesStore> &stores = run.input.serverMetrics;
    if (stores.isEmpty())
        return out;
    const qint64 zero = run.input.runStartNs;
    QList<QPair<double, double>> ttft;
    double xMax = 0;
    for (const RequestRecord &r : run.input.records) {
        if (r.warmup || !r.ok() || r.tFirst <= 0 || r.tSend <= 0)
            continue;
        const double x = double(r.tSend - zero) / 1e9;
        ttft.append({x, double(r.tFirst - r.tSend) / 1e6});
        xMax = std::max(xMax, x);
    }
    struct Wanted
    {
        const char *key;
        const char *titleId;
        const char *axisId;
        QList<std::pair<ServerQuantity, const char *>> quantities;
        double scale;
    };
    const Wanted wanted[] = {
        {"server_queue",
         "report.server.chart.queue",
         "report.server.axis.requests",
         {{ServerQuantity::Running, "report.server.series.running"},
          {ServerQuantity::Waiting, "report.server.series.waiting"}},
         1.0},
        {"server_kv",
         "report.server.chart.kv",
         "report.server.axis.percent",
         {{ServerQuantity::KvCacheUsage, "report.server.series.kv"}},
         100.0},
        {"server_power",
         "report.server.chart.power",
         "report.server.axis.watts",
         {{ServerQuantity::PowerW, "report.server.series.power"}},
         1.0},
    };
    for (const Wanted &w : wanted) {
        ChartSpec spec;
        spec.kind = ChartSpec::Kind::Timeline;
        spec.key = u"%1_%2"_s.arg(QLatin1StringView(w.key)).arg(run.id);
        spec.titleMessage = Message(w.titleId, {run.label});
        spec.xLabelMessage = Message("report.server.axis.time");
        spec.yLabelMessage = Message("report.server.axis.ttft");
        spec.y2LabelMessage = Message(w.axisId);
        bool any = false;
        QList<ChartSeries> server;
        for (const auto &[q, labelId] : w.quantities) {
            const ServerTimelineSeries tl = serverTimeline(stores, q);
            if (tl.isEmpty())
                continue;
            any = true;
            ChartSeries s;
            s.labelMessage = Message(labelId);
            s.rightAxis = true;
            for (const auto &[t, v] : tl.points) {
                const double x = double(t - zero) / 1e9;
                s.points.append({x, v * w.scale});
                xMax = std::max(xMax, x);
            }
            server.append(s);
        }
        if (!any)
            continue;
        ChartSeries client;
        client.labelMessage = Message("report.server.series.ttft");
        client.dots = true;
        client.points = thinned(ttft, xMax, 800);
        spec.series.append(client);
        spec.series.append(server);
        for (ChartSeries &s : spec.series)
            s.label = s.labelMessage.text();
        spec.title = spec.titleMessage.text();
        spec.xLabel = spec.xLabelMessage.text();
        spec.yLabel = spec.yLabelMessage.text();
        spec.y2Label = spec.y2LabelMessage.text();
        out.append(spec);
    }
    return out;
}

QString serverReportSection(const ReportContent &c, const QMap<QString, QByteArray> &pngs,
                            bool translate)
{
    bool any = false;
    for (const ReportRun &r : c.runs)
        any = any || r.derived.hasServerMetrics;
    if (!any)
        return {};
    const auto w = [translate](const Message &m) {
        return htmlEscape(m.text(translate));
    };
    const auto th = [](const QString &escaped) {
        return u"<th>"_s + escaped + u"</th>"_s;
    };
    const auto td = [](const QString &escaped, bool num = false) {
        return (num ? u"<td class=\"num\">"_s : u"<td>"_s) + escaped + u"</td>"_s;
    };
    const QString table = u"<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                          "width=\"100%\">"_s;
    QString h = u"<h2 id=\"server\" style=\"page-break-before: always\">%1</h2>\n"_s.arg(
        w(Message("report.section.server")));
    h += u"<p>%1</p>\n"_s.arg(w(Message("report.server.intro")));
    for (const ReportRun &r : c.runs) {
        h += u"<h3>%1</h3>\n"_s.arg(w(Message("report.server.run", {r.label})));
        if (!r.derived.hasServerMetrics) {
            h += u"<p>%1</p>\n"_s.arg(w(Message("report.server.none", {r.label})));
            continue;
        }
        const QJsonObject json = r.derived.server.toJson();
        h += table + u"<tr>"_s + th(w(Message("report.server.col.target"))) + th(u"URL"_s) +
             th(w(Message("report.server.col.engine"))) +
             th(w(Message("report.server.col.scrapes"))) +
             th(w(Message("report.server.col.status"))) + u"</tr>\n"_s;
        for (const QJsonValue &v : json.value("targets"_L1).toArray()) {
            const QJsonObject t = v.toObject();
            const bool ok = t.value("ok"_L1).toInt() > 0;
            h += u"<tr>"_s + td(htmlEscape(t.value("name"_L1).toString())) +
                 td(htmlEscape(t.value("url"_L1).toString())) +
                 td(htmlEscape(t.value("engine"_L1).toString())) +
                 td(u"%1 (%2)"_s.arg(t.value("scrapes"_L1).toInt()).arg(t.value("ok"_L1).toInt()),
                    true) +
                 td(ok ? w(Message("report.server.status.available"))
                       : w(Message("server.na",
                                   {serverReasonMessage(t.value("reason"_L1).toString())}))) +
                 u"</tr>\n"_s;
        }
        h += u"</table>\n"_s;
        h += table + u"<tr>"_s + th(w(Message("report.server.col.figure"))) +
             th(w(Message("report.server.col.value"))) + th(w(Message("report.col.definition"))) +
             u"</tr>\n"_s;
        for (const EvidenceItem &item : r.derived.server.items())
            h += u"<tr>"_s + td(w(serverFigureLabel(item.name))) +
                 td(htmlEscape(formatServerValue(item, translate)), item.available) +
                 td(w(serverFigureDefinition(item.name))) + u"</tr>\n"_s;
        h += u"</table>\n"_s;
        const QString suffix = u"_%1"_s.arg(r.id);
        for (const ChartSpec &spec : c.charts) {
            if (spec.kind != ChartSpec::Kind::Timeline || !spec.key.endsWith(suffix))
                continue;
            const QString title = spec.titleMessage.text(translate);
            h += u"<p><b>%1</b></p>\n"_s.arg(htmlEscape(title));
            const QByteArray png = pngs.value(spec.key);
            if (!png.isEmpty())
                h += u"<p><img src=\"data:image/png;base64,%1\" width=\"500\" alt=\"%2\"/></p>\n"_s
                         .arg(QString::fromLatin1(png.toBase64()), htmlEscape(title));
            else
                h += u"<p><i>%1</i></p>\n"_s.arg(w(Message("report.chart_not_rendered")));
        }
    }
    return h;
}

} // namespace sb
