#include "htmlreport.h"

#include "common/version.h"
#include "cost/costattribution.h"
#include "load/mlperf.h"
#include "load/mlperfprofile.h"
#include "metrics/clienthealth.h"
#include "metrics/definitions.h"
#include "metrics/summary.h"
#include "report/bundle.h"
#include "store/projectstore.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace sb {

using namespace Qt::StringLiterals;

QString htmlEscape(const QString &text)
{
    QString out;
    out.reserve(text.size() + text.size() / 8);
    for (const QChar c : text) {
        switch (c.unicode()) {
        case '&':
            out += "&amp;"_L1;
            break;
        case '<':
            out += "&lt;"_L1;
            break;
        case '>':
            out += "&gt;"_L1;
            break;
        case '"':
            out += "&quot;"_L1;
            break;
        case '\'':
            out += "&#39;"_L1;
            break;
        default:
            // Control characters other than tab / newline would make the page invalid.
            if (c.unicode() < 0x20 && c != u'\n' && c != u'\t' && c != u'\r')
                out += u"&#xFFFD;"_s;
            else
                out += c;
        }
    }
    return out;
}

bool loadReportContent(ProjectStore &store, const QList<qint64> &runIds,
                       const ComparisonOptions &options, ReportContent *out, QString *error)
{
    ReportContent c;
    if (!loadReportRuns(store, runIds, &c.runs, error))
        return false;
    c.projectPath = store.path();
    c.generatedUtc = QDateTime::currentDateTimeUtc();
    c.costs = costsForRuns(store, c.runs);
    c.comparison = buildComparison(c.runs, c.costs, options);
    c.charts = reportChartSpecs(c.runs);
    QStringList labels;
    for (const ReportRun &r : c.runs)
        labels << r.label;
    c.title = (c.runs.size() == 1 ? u"ServeBench run report: "_s : u"ServeBench comparison: "_s) +
              labels.join(u" vs "_s);
    *out = std::move(c);
    return true;
}

namespace {

QString esc(const QString &s)
{
    return htmlEscape(s);
}

QString cut(const QString &s, int limit = kReportMessageLimit)
{
    if (s.size() <= limit)
        return esc(s);
    return esc(s.left(limit)) +
           u"<i> … (%1 more characters; the full text is in the CSV and JSON)</i>"_s.arg(s.size() -
                                                                                         limit);
}

QString td(const QString &escaped, const QString &attrs = {})
{
    return u"<td%1>%2</td>"_s.arg(attrs.isEmpty() ? QString() : u' ' + attrs, escaped);
}

QString th(const QString &escaped)
{
    return u"<th>%1</th>"_s.arg(escaped);
}

const char *kStyle =
    "body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 10pt; color: #222; }\n"
    "h1 { font-size: 18pt; } h2 { font-size: 14pt; margin-top: 18px; } h3 { font-size: 11pt; }\n"
    "table { border-collapse: collapse; margin: 6px 0; }\n"
    "th, td { border: 1px solid #999; padding: 3px 6px; vertical-align: top; }\n"
    "th { background-color: #e8e8e8; text-align: left; }\n"
    "td.num { text-align: right; }\n"
    "td.diff { background-color: #fff0c0; }\n"
    "td.unknown { background-color: #e0e8ff; }\n"
    "td.base { background-color: #f2f2f2; }\n"
    "p.verdict { font-size: 12pt; font-weight: bold; }\n"
    "p.warn { color: #8a4b00; }\n"
    "p.bad { color: #a00000; font-weight: bold; }\n"
    "pre { font-family: 'DejaVu Sans Mono', monospace; font-size: 8pt; background-color: #f6f6f6; "
    "white-space: pre-wrap; }\n"
    ".better { color: #006000; } .worse { color: #a00000; }\n";

QString tableOpen()
{
    // Attributes as well as CSS: QTextDocument (the PDF) honours these, browsers the CSS.
    return u"<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">"_s;
}

QString jsonPre(const QJsonObject &o)
{
    return u"<pre>"_s + esc(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented))) +
           u"</pre>"_s;
}

QString section(const QString &id, const QString &title, bool pageBreak = false)
{
    return u"<h2 id=\"%1\"%3>%2</h2>\n"_s.arg(
        id, esc(title), pageBreak ? u" style=\"page-break-before: always\""_s : QString());
}

// --- sections ---

QString summarySection(const ReportContent &c)
{
    const Comparison &cmp = c.comparison;
    QString h = section(u"summary"_s, u"Summary verdict"_s);
    if (c.runs.size() > 1) {
        h += u"<p class=\"verdict\">%1</p>\n"_s.arg(esc(cmp.comparability.verdict()));
        h += u"<p>%1</p>\n"_s.arg(esc(cmp.rankNote));
        if (!cmp.ranking.isEmpty()) {
            const ComparisonRow *row = cmp.row(cmp.rankBy.rowKey());
            h += u"<ol>\n"_s;
            for (int i : cmp.ranking)
                h += u"<li>%1: %2 %3</li>\n"_s.arg(esc(cmp.columns.at(i)),
                                                   esc(formatCell(*row, row->cells.at(i))),
                                                   esc(row->unit));
            h += u"</ol>\n"_s;
        }
    }
    h += tableOpen() + u"<tr>"_s + th(u"run"_s) + th(u"SUT"_s) + th(u"status"_s) +
         th(u"successful"_s) + th(u"failed"_s) + th(u"req/s"_s) + th(u"output tok/s"_s) +
         th(u"P99 TTFT (ms)"_s) + th(u"P99 TPOT (ms)"_s) + u"</tr>\n"_s;
    for (int i = 0; i < c.runs.size(); ++i) {
        const ReportRun &r = c.runs.at(i);
        const auto cell = [&](const QString &key) {
            const ComparisonRow *row = cmp.row(key);
            return row ? esc(formatCell(*row, row->cells.at(i))) : u"n/a"_s;
        };
        h += u"<tr>"_s + td(esc(r.label)) + td(esc(r.sutName())) + td(esc(r.input.status)) +
             td(QString::number(r.summary.completed), u"class=\"num\""_s) +
             td(QString::number(r.summary.failed), u"class=\"num\""_s) +
             td(cell(u"request_throughput"_s), u"class=\"num\""_s) +
             td(cell(u"output_throughput"_s), u"class=\"num\""_s) +
             td(cell(u"ttft.p99"_s), u"class=\"num\""_s) +
             td(cell(u"tpot.p99"_s), u"class=\"num\""_s) + u"</tr>\n"_s;
    }
    h += u"</table>\n"_s;
    for (const ReportRun &r : c.runs) {
        if (r.input.status != "completed"_L1)
            h += u"<p class=\"warn\">%1 is %2: only the requests that finished are counted.</p>\n"_s
                     .arg(esc(r.label), esc(r.input.status));
        for (const QString &n : r.notes)
            h += u"<p class=\"warn\">%1: %2</p>\n"_s.arg(esc(r.label), esc(n));
    }
    return h;
}

QString comparabilitySection(const ReportContent &c)
{
    const Comparability &cb = c.comparison.comparability;
    QString h = section(u"comparability"_s, u"Comparability"_s);
    h += u"<p class=\"%1\">%2</p>\n"_s.arg(cb.rankable() ? u"verdict"_s : u"bad"_s,
                                           esc(cb.verdict()));
    for (const QString &w : cb.warnings)
        h += u"<p class=\"warn\">%1</p>\n"_s.arg(esc(w));
    h += u"<p>Highlighted rows differ; blue cells are unknown for that run. Workload settings "
         "must match for a fair comparison; SUT settings are what is compared (change one thing at "
         "a "
         "time).</p>\n"_s;
    h += tableOpen() + u"<tr>"_s + th(u"setting"_s) + th(u"role"_s);
    for (const QString &l : cb.runLabels)
        h += th(esc(l));
    h += u"</tr>\n"_s;
    for (const FieldComparison &f : cb.fields) {
        QString role = f.role == FieldRole::Sut           ? u"compared (SUT)"_s
                       : f.role == FieldRole::Measurement ? u"measurement"_s
                       : f.blocker                        ? u"workload — must match to rank"_s
                                                          : u"workload"_s;
        h += u"<tr>"_s + td(esc(f.label)) + td(esc(role));
        for (qsizetype i = 0; i < f.values.size(); ++i) {
            QString cls;
            if (!f.known.value(i, true))
                cls = u"class=\"unknown\""_s;
            else if (f.differs)
                cls = u"class=\"diff\""_s;
            h += td(esc(f.values.at(i)), cls);
        }
        h += u"</tr>\n"_s;
    }
    h += u"</table>\n"_s;
    return h;
}

QString resultsSection(const ReportContent &c, const QMap<QString, QByteArray> &pngs)
{
    const Comparison &cmp = c.comparison;
    QString h = section(u"results"_s, u"Results"_s, true);
    h += u"<p>Latencies in milliseconds from the monotonic clock; percentiles by linear "
         "interpolation between order statistics (numpy's default, as vLLM). Failed requests are "
         "excluded from latencies and throughput numerators and listed under Failures. "
         "Differences are against the baseline column %1.</p>\n"_s.arg(
             esc(cmp.columns.value(cmp.baseline)));
    h += tableOpen() + u"<tr>"_s + th(u"metric"_s);
    for (int i = 0; i < cmp.columns.size(); ++i)
        h += th(esc(cmp.columns.at(i)) + (i == cmp.baseline ? u" (baseline)"_s : QString()));
    h += u"</tr>\n"_s;
    QString group;
    for (const ComparisonRow &row : cmp.rows) {
        if (row.group != group) {
            group = row.group;
            h += u"<tr><th colspan=\"%1\">%2</th></tr>\n"_s.arg(cmp.columns.size() + 1)
                     .arg(esc(group));
        }
        h += u"<tr>"_s +
             td(esc(row.unit.isEmpty() ? row.label : u"%1 (%2)"_s.arg(row.label, row.unit)));
        for (int i = 0; i < row.cells.size(); ++i) {
            const ComparisonCell &cell = row.cells.at(i);
            QString v = esc(formatCell(row, cell));
            if (!cell.value && !cell.note.isEmpty())
                v += u"<br/><small>%1</small>"_s.arg(esc(cell.note));
            if (i != cmp.baseline && cell.relDiff && cell.absDiff) {
                const bool better = row.lowerIsBetter ? *cell.relDiff < 0 : *cell.relDiff > 0;
                const QString cls = *cell.relDiff == 0 ? QString()
                                    : better           ? u"better"_s
                                                       : u"worse"_s;
                v += u"<br/><span class=\"%1\">%2%3 (%4%5%)</span>"_s.arg(
                    cls, *cell.absDiff >= 0 ? u"+"_s : QString(),
                    QString::number(*cell.absDiff, 'f', row.decimals),
                    *cell.relDiff >= 0 ? u"+"_s : QString(),
                    QString::number(*cell.relDiff * 100, 'f', 1));
            }
            h += td(v, i == cmp.baseline ? u"class=\"num base\""_s : u"class=\"num\""_s);
        }
        h += u"</tr>\n"_s;
    }
    h += u"</table>\n"_s;
    for (const QString &n : cmp.costNotes)
        h += u"<p class=\"warn\">Cost: %1</p>\n"_s.arg(esc(n));

    // Client health: a run whose client fell behind measured the client, not the SUT.
    for (const ReportRun &r : c.runs) {
        if (!r.rawRecords)
            continue;
        for (const QString &w : r.derived.health.warnings)
            h += u"<p class=\"warn\">%1: WARNING: %2</p>\n"_s.arg(esc(r.label), esc(w));
    }

    h += u"<h3>Charts</h3>\n"_s;
    for (const ChartSpec &spec : c.charts) {
        h += u"<p><b>%1</b></p>\n"_s.arg(esc(spec.title));
        if (!spec.emptyNote.isEmpty())
            h += u"<p class=\"warn\">%1</p>\n"_s.arg(esc(spec.emptyNote));
        const QByteArray png = pngs.value(spec.key);
        if (!png.isEmpty()) {
            h += u"<p><img src=\"data:image/png;base64,%1\" width=\"500\" alt=\"%2\"/></p>\n"_s.arg(
                QString::fromLatin1(png.toBase64()), esc(spec.title));
        } else if (spec.kind == ChartSpec::Kind::Bars) {
            h += tableOpen() + u"<tr>"_s + th(u"run"_s);
            for (const ChartSeries &s : spec.series)
                h += th(esc(s.label) + u" ("_s + esc(spec.yLabel) + u')');
            h += u"</tr>\n"_s;
            for (qsizetype i = 0; i < spec.categories.size(); ++i) {
                h += u"<tr>"_s + td(esc(spec.categories.at(i)));
                for (const ChartSeries &s : spec.series)
                    h += td(QString::number(s.values.value(i), 'f', 2), u"class=\"num\""_s);
                h += u"</tr>\n"_s;
            }
            h += u"</table>\n"_s;
        } else {
            h +=
                u"<p><i>chart not rendered; the percentiles above carry the distribution</i></p>\n"_s;
        }
    }
    return h;
}

// A session workload's view (docs/sessions.md): sessions, think time, tokens, TTFT by turn.
QString sessionsTable(const ReportRun &r)
{
    const SessionSummary &ss = r.derived.sessions;
    if (!ss.present)
        return {};
    const LoadProfile &p = r.input.plan.profile;
    const auto row = [](const QString &k, const QString &v) {
        return u"<tr>"_s + th(esc(k)) + td(esc(v)) + u"</tr>\n"_s;
    };
    const auto f2 = [](double v) {
        return QString::number(v, 'f', 2);
    };
    const auto pct = [](double rate) {
        return rate >= 0 ? QString::number(rate * 100, 'f', 2) + u" %"_s : u"not reported"_s;
    };
    QString h = u"<h3>Sessions</h3>\n"_s + tableOpen();
    h +=
        row(u"sessions (completed / failed / incomplete)"_s, u"%1 (%2 / %3 / %4)"_s.arg(ss.sessions)
                                                                 .arg(ss.completed)
                                                                 .arg(ss.failed)
                                                                 .arg(ss.incomplete));
    h += row(u"turns (sent / failed / not sent)"_s,
             u"%1 / %2 / %3"_s.arg(ss.turnsSent).arg(ss.turnsFailed).arg(ss.turnsNotSent));
    h += row(u"history"_s, QString::fromLatin1(historyModeName(p.history)));
    h += row(u"think time (model; configured / measured mean, ms)"_s,
             u"%1; %2 / %3"_s.arg(QString::fromLatin1(thinkTimeModelName(p.thinkTime)),
                                  f2(ss.thinkConfigured.mean), f2(ss.thinkMeasured.mean)));
    h += row(u"mean session duration (s)"_s, f2(ss.sessionDurationS.mean));
    h +=
        row(u"input tokens (new / history / cached)"_s,
            u"%1 (%2 / %3 / %4)"_s.arg(ss.inputTokens)
                .arg(ss.newInputTokens)
                .arg(ss.historyTokens)
                .arg(ss.cachedReported > 0 ? QString::number(ss.cachedTokens) : u"not reported"_s));
    h += row(u"prefix-cache hit rate"_s, pct(ss.cacheHitRate));
    h += row(u"active sessions (peak / mean)"_s,
             u"%1 / %2"_s.arg(ss.peakActiveSessions).arg(f2(ss.meanActiveSessions)));
    h += u"</table>\n"_s + tableOpen() + u"<tr>"_s;
    for (const char *c : {"turn", "ok / sent", "mean TTFT (ms)", "p99 TTFT (ms)", "mean ITL (ms)",
                          "mean E2EL (ms)", "mean input", "mean history", "hit rate"})
        h += th(esc(QString::fromLatin1(c)));
    h += u"</tr>\n"_s;
    for (const TurnSummary &t : ss.turns) {
        h += u"<tr>"_s + td(QString::number(t.turn), u"class=\"num\""_s) +
             td(u"%1 / %2"_s.arg(t.completed).arg(t.requests), u"class=\"num\""_s);
        for (const double v : {t.ttft.mean, t.ttft.percentile(99), t.itl.mean, t.e2el.mean,
                               t.meanInputTokens, t.meanHistoryTokens})
            h += td(f2(v), u"class=\"num\""_s);
        h += td(esc(pct(t.cacheHitRate)), u"class=\"num\""_s) + u"</tr>\n"_s;
    }
    return h + u"</table>\n"_s;
}

QString runSection(const ReportRun &r, bool pageBreak)
{
    QString h = section(u"run-%1"_s.arg(r.id),
                        u"Run %1: configuration and SUT manifest"_s.arg(r.label), pageBreak);
    const RunPlan &p = r.input.plan;
    const auto row = [](const QString &k, const QString &v) {
        return u"<tr>"_s + th(esc(k)) + td(esc(v)) + u"</tr>\n"_s;
    };
    h += tableOpen();
    h += row(u"run id"_s, QString::number(r.id));
    h += row(u"name"_s, r.info.name);
    h += row(u"status"_s,
             r.input.status +
                 (r.info.statusMessage.isEmpty() ? QString() : u" — "_s + r.info.statusMessage));
    h += row(u"started (UTC)"_s, r.info.startedUtc.toString(Qt::ISODateWithMs));
    h += row(u"ended (UTC)"_s, r.info.endedUtc.toString(Qt::ISODateWithMs));
    h += row(u"host"_s, r.info.host);
    h += row(u"tool version"_s, r.info.toolVersion);
    h += row(u"metric definitions version"_s, r.info.metricDefinitionsVersion);
    h += row(u"transport"_s, r.input.transport);
    h += row(u"records"_s, QString::number(r.info.requestCount));
    h += row(u"dataset hash"_s, r.input.datasetHash.isEmpty() ? u"unknown"_s : r.input.datasetHash);
    h += row(u"dataset version"_s, r.input.datasetInfo.value(u"version_label"_s).toString());
    // Stored redacted at run time; scrubbed again because a report travels further than a project.
    const QString command = scrubCommandLine(r.info.snapshot.value(u"command"_s).toString());
    h += row(u"command"_s, command.isEmpty() ? u"not recorded"_s : command);
    h += u"</table>\n"_s;

    h += sessionsTable(r);

    h += u"<h3>SUT manifest</h3>\n"_s + tableOpen();
    const SutConfig &s = p.sut;
    h += row(u"name"_s, s.name);
    h += row(u"endpoint"_s, s.builtInSimulator ? u"built-in simulator"_s : s.baseUrl + s.endpoint);
    h += row(u"API flavour"_s, QString::fromLatin1(apiFlavourName(s.flavour)));
    h += row(u"model"_s, s.model);
    h += row(u"weights revision"_s, s.weightsRevision);
    h += row(u"engine"_s,
             s.engine + (s.engineVersion.isEmpty() ? QString() : u' ' + s.engineVersion));
    h += row(u"GPUs"_s, s.gpuCount > 0 ? u"%1 × %2"_s.arg(s.gpuCount).arg(s.gpuModel) : s.gpuModel);
    h += row(u"container image"_s, s.image);
    h += row(u"replicas / containers / workers per container"_s,
             u"%1 / %2 / %3"_s.arg(s.replicas).arg(s.containers).arg(s.workersPerContainer));
    h += row(u"region"_s, s.region);
    h += row(u"client location"_s, s.clientLocation);
    h += row(u"notes"_s, s.notes);
    h += row(u"API key"_s, s.apiKeyRef.isEmpty() ? u"none"_s : u"reference only: "_s + s.apiKeyRef);
    h += u"</table>\n"_s;
    h += u"<h3>Frozen snapshot</h3>\n"_s + jsonPre(r.info.snapshot);
    return h;
}

QString failuresSection(const ReportContent &c)
{
    QString h = section(u"failures"_s, u"Failures"_s, true);
    h += u"<p>%1</p>\n"_s.arg(esc(failedRequestsStatement()));
    for (const ReportRun &r : c.runs) {
        h += u"<h3>%1</h3>\n"_s.arg(esc(r.label));
        if (r.summary.failed == 0) {
            h += u"<p>No failed requests.</p>\n"_s;
            continue;
        }
        h += tableOpen() + u"<tr>"_s + th(u"error class"_s) + th(u"requests"_s) + u"</tr>\n"_s;
        for (auto it = r.summary.failedByClass.cbegin(); it != r.summary.failedByClass.cend(); ++it)
            h += u"<tr>"_s + td(esc(it.key())) +
                 td(QString::number(it.value()), u"class=\"num\""_s) + u"</tr>\n"_s;
        h += u"</table>\n"_s;
        if (!r.rawRecords) {
            h += u"<p class=\"warn\">The individual failed requests are not available (imported "
                 "summary only).</p>\n"_s;
            continue;
        }
        // Every failed request, grouped by class, with its message.
        QMap<QString, QList<const RequestRecord *>> byClass;
        for (const RequestRecord &rec : r.input.records)
            if (!rec.ok())
                byClass[QString::fromLatin1(errorClassName(rec.error))].append(&rec);
        h += tableOpen() + u"<tr>"_s + th(u"class"_s) + th(u"index"_s) + th(u"warm-up"_s) +
             th(u"HTTP"_s) + th(u"request id"_s) + th(u"message"_s) + u"</tr>\n"_s;
        for (auto it = byClass.cbegin(); it != byClass.cend(); ++it)
            for (const RequestRecord *rec : it.value())
                h += u"<tr>"_s + td(esc(it.key())) +
                     td(QString::number(rec->index), u"class=\"num\""_s) +
                     td(rec->warmup ? u"yes"_s : u"no"_s) +
                     td(rec->httpStatus > 0 ? QString::number(rec->httpStatus) : QString()) +
                     td(esc(rec->requestId)) + td(cut(rec->errorMessage)) + u"</tr>\n"_s;
        h += u"</table>\n"_s;
    }
    return h;
}

QString mlperfSection(const ReportContent &c)
{
    QString h;
    for (const ReportRun &r : c.runs) {
        const LoadProfile &p = r.input.plan.profile;
        if (p.scenario == Scenario::None)
            continue;
        if (h.isEmpty())
            h = section(u"mlperf"_s, u"MLPerf validity"_s);
        h += u"<h3>%1 — %2</h3>\n"_s.arg(esc(r.label),
                                         esc(QString::fromLatin1(scenarioName(p.scenario))));
        if (!r.rawRecords) {
            h += u"<p class=\"warn\">Not judged: no per-request results.</p>\n"_s;
            continue;
        }
        // The run pipeline's derivation: the verdict every view shows.
        if (!r.derived.hasMlperf) {
            h += u"<p class=\"warn\">Not judged: %1</p>\n"_s.arg(esc(r.derived.mlperfError));
            continue;
        }
        const MlperfJudgement &j = r.derived.mlperf;
        h += u"<p class=\"%1\">%2</p>\n"_s.arg(j.valid ? u"verdict"_s : u"bad"_s,
                                               j.valid ? u"VALID"_s : u"INVALID"_s);
        for (const QString &f : j.failedConstraints)
            h += u"<p class=\"warn\">%1</p>\n"_s.arg(esc(f));
        h += u"<pre>"_s + esc(j.formatMlperfBlock()) + u"</pre>\n"_s;
    }
    return h;
}

QString costSection(const ReportContent &c)
{
    bool any = false;
    for (const RunCost &rc : c.costs)
        any = any || rc.covered;
    QString h = section(u"cost"_s, u"Cost and bill mapping"_s, true);
    if (!any) {
        h += u"<p>No test window holds these runs: unit costs are not available (never "
             "zero).</p>\n"_s;
        return h;
    }
    QList<qint64> shown;
    for (int i = 0; i < c.costs.size(); ++i) {
        const RunCost &rc = c.costs.at(i);
        const ReportRun &r = c.runs.at(i);
        if (!rc.covered) {
            h += u"<h3>%1</h3><p>Not available: %2</p>\n"_s.arg(esc(r.label), esc(rc.reason));
            continue;
        }
        h += u"<h3>%1 — test window “%2”</h3>\n"_s.arg(esc(r.label), esc(rc.windowName));
        if (!rc.otherWindows.isEmpty())
            h += u"<p class=\"warn\">The run also lies in: %1 (not used here).</p>\n"_s.arg(
                esc(rc.otherWindows.join(u", "_s)));
        if (shown.contains(rc.windowId)) {
            h += u"<p>Same window as above.</p>\n"_s;
            continue;
        }
        shown << rc.windowId;
        h += u"<pre>"_s + esc(rc.breakdown.formatText()) + u"</pre>\n"_s;
        const auto itemRows = [&](const QList<AttributedItem> &items) {
            QString t;
            for (const AttributedItem &a : items)
                t += u"<tr>"_s + td(esc(a.item.id)) + td(esc(billCategoryLabel(a.item.category))) +
                     td(esc(a.item.provider)) + td(esc(a.item.resourceId)) +
                     td(esc(formatUtcTimestamp(a.item.start))) +
                     td(esc(formatUtcTimestamp(a.item.end))) + td(esc(a.item.pricingText())) +
                     td(esc(a.itemTotal.toString())) +
                     td(esc(QString::fromLatin1(itemAttributionName(a.attribution)))) +
                     td(esc(a.counted.toString())) + td(esc(a.why)) +
                     td(esc(QStringList{a.item.idleNotes, a.item.startStopNotes,
                                        a.item.autoscalingNotes}
                                .join(u' ')
                                .trimmed())) +
                     td(esc(QString::fromLatin1(billSourceName(a.item.source)) + u' ' +
                            a.item.reference)) +
                     u"</tr>\n"_s;
            return t;
        };
        h += tableOpen() + u"<tr>"_s + th(u"item"_s) + th(u"category"_s) + th(u"provider"_s) +
             th(u"resource"_s) + th(u"start"_s) + th(u"end"_s) + th(u"pricing"_s) +
             th(u"item total"_s) + th(u"mapping"_s) + th(u"counted"_s) + th(u"why"_s) +
             th(u"notes"_s) + th(u"source"_s) + u"</tr>\n"_s;
        h += itemRows(rc.breakdown.included) + itemRows(rc.breakdown.overlapping) +
             itemRows(rc.breakdown.undecided) + itemRows(rc.breakdown.excluded);
        h += u"</table>\n"_s;
    }
    return h;
}

QString definitionsSection()
{
    QString h = section(u"definitions"_s, u"Metric definitions"_s, true);
    h += u"<p>Definitions version %1.</p>\n"_s.arg(kMetricDefinitionsVersion);
    for (const QString &s : {timeBaseStatement(), percentileMethodStatement(),
                             failedRequestsStatement(), warmupStatement(), tokenCountStatement()})
        h += u"<p>%1</p>\n"_s.arg(esc(s));
    h += tableOpen() + u"<tr>"_s + th(u"metric"_s) + th(u"unit"_s) + th(u"definition"_s) +
         th(u"how ServeBench applies it"_s) + u"</tr>\n"_s;
    for (const MetricDefinition &d : metricDefinitions())
        h += u"<tr>"_s + td(esc(d.label)) + td(esc(d.unit)) + td(esc(d.definition)) +
             td(esc(d.detail)) + u"</tr>\n"_s;
    h += u"</table>\n"_s;
    return h;
}

} // namespace

QString renderHtmlReport(const ReportContent &c, const QMap<QString, QByteArray> &pngs)
{
    QString h;
    h += u"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"_s;
    // No script and no remote resource: the page opens offline and cannot run anything.
    h += u"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src "
         "data:; style-src 'unsafe-inline'\"/>\n"_s;
    h += u"<title>%1</title>\n<style>\n%2</style>\n</head>\n<body>\n"_s.arg(
        esc(c.title), QString::fromLatin1(kStyle));
    h += u"<h1>%1</h1>\n"_s.arg(esc(c.title));
    h += u"<p>Generated %1 by ServeBench %2 from project %3.</p>\n"_s.arg(
        esc(c.generatedUtc.toString(Qt::ISODate)), esc(QString::fromLatin1(toolVersion())),
        esc(QFileInfo(c.projectPath).fileName()));
    h += u"<p>Sections: summary verdict · comparability · results and charts · configuration "
         "and SUT manifests · failures · MLPerf validity · cost · metric definitions</p>\n"_s;
    h += summarySection(c);
    if (c.runs.size() > 1)
        h += comparabilitySection(c);
    h += resultsSection(c, pngs);
    for (int i = 0; i < c.runs.size(); ++i)
        h += runSection(c.runs.at(i), i == 0);
    h += failuresSection(c);
    h += mlperfSection(c);
    h += costSection(c);
    h += definitionsSection();
    h += u"</body>\n</html>\n"_s;
    return h;
}

QJsonObject reportJson(const ReportContent &c)
{
    QJsonArray runs;
    for (int i = 0; i < c.runs.size(); ++i) {
        const ReportRun &r = c.runs.at(i);
        QJsonObject o{{u"id"_s, r.id},
                      {u"label"_s, r.label},
                      {u"name"_s, r.info.name},
                      {u"status"_s, r.input.status},
                      {u"imported"_s, r.imported},
                      {u"raw_records"_s, r.rawRecords},
                      {u"notes"_s, QJsonArray::fromStringList(r.notes)},
                      {u"snapshot"_s, r.info.snapshot}};
        o[u"result"_s] = r.rawRecords ? runResultJson(r.input, r.derived, false) : r.info.summary;
        const RunCost rc = c.costs.value(i);
        o[u"cost"_s] = rc.covered ? rc.breakdown.toJson()
                                  : QJsonObject{{u"available"_s, false}, {u"reason"_s, rc.reason}};
        runs.append(o);
    }
    return QJsonObject{{u"title"_s, c.title},
                       {u"generated_utc"_s, c.generatedUtc.toString(Qt::ISODate)},
                       {u"tool_version"_s, QString::fromLatin1(toolVersion())},
                       {u"comparison"_s, c.comparison.toJson()},
                       {u"metric_definitions"_s, metricDefinitionsJson()},
                       {u"runs"_s, runs}};
}

QByteArray reportRequestsCsv(const ReportContent &c)
{
    // requestsCsv quotes fields holding newlines, so records are split outside quotes only.
    const auto records = [](const QByteArray &csv) {
        QList<QByteArray> out;
        bool quoted = false;
        qsizetype start = 0;
        for (qsizetype i = 0; i < csv.size(); ++i) {
            const char ch = csv.at(i);
            if (ch == '"')
                quoted = !quoted;
            else if (ch == '\n' && !quoted) {
                out.append(csv.mid(start, i - start));
                start = i + 1;
            }
        }
        if (start < csv.size())
            out.append(csv.mid(start));
        return out;
    };
    QByteArray out;
    bool header = true;
    for (const ReportRun &r : c.runs) {
        if (!r.rawRecords)
            continue;
        const QList<QByteArray> lines = records(requestsCsv(r.input));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (i == 0) {
                if (header)
                    out += "run_id," + lines.at(i) + '\n';
                header = false;
                continue;
            }
            out += QByteArray::number(r.id) + ',' + lines.at(i) + '\n';
        }
    }
    return out;
}

QByteArray failedRequestsCsv(const ReportContent &c)
{
    const auto field = [](const QString &s) {
        if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n') && !s.contains(u'\r'))
            return s;
        QString q = s;
        q.replace(u"\""_s, u"\"\""_s);
        return u'"' + q + u'"';
    };
    QString out = u"run_id,index,request_id,warmup,error_class,http_status,message\n"_s;
    for (const ReportRun &r : c.runs)
        for (const RequestRecord &rec : r.input.records)
            if (!rec.ok())
                out += QStringList{QString::number(r.id),
                                   QString::number(rec.index),
                                   field(rec.requestId),
                                   rec.warmup ? u"1"_s : u"0"_s,
                                   QString::fromLatin1(errorClassName(rec.error)),
                                   QString::number(rec.httpStatus),
                                   field(rec.errorMessage)}
                           .join(u',') +
                       u'\n';
    return out.toUtf8();
}

} // namespace sb
