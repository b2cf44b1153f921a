#include "htmlreport.h"

#include "common/message.h"
#include "common/version.h"
#include "cost/costattribution.h"
#include "load/mlperf.h"
#include "load/mlperfprofile.h"
#include "metrics/clienthealth.h"
#include "metrics/definitions.h"
#include "metrics/summary.h"
#include "report/bundle.h"
#include "report/decisionpage.h"
#include "report/serverreport.h"
#include "store/projectstore.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

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
    for (const ReportRun &r : c.runs)
        c.charts.append(serverChartSpecs(r));
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
    "h1 { font-size: 15pt; } h2 { font-size: 13pt; margin-top: 14px; } h3 { font-size: 11pt; }\n"
    "table { border-collapse: collapse; margin: 6px 0; }\n"
    "th, td { border: 1px solid #999; padding: 3px 6px; vertical-align: top; }\n"
    "th { background-color: #e8e8e8; text-align: left; }\n"
    "td.num { text-align: right; white-space: nowrap; }\n"
    "td.name { white-space: nowrap; }\n"
    "table.wide td, table.wide th { font-size: 7.5pt; }\n"
    "table.p1 td, table.p1 th { font-size: 8pt; }\n"
    "p.note { font-size: 8pt; }\n"
    "td.diff { background-color: #fff0c0; }\n"
    "td.unknown { background-color: #e0e8ff; }\n"
    "td.base { background-color: #f2f2f2; }\n"
    "p.verdict { font-size: 12pt; font-weight: bold; }\n"
    "p.warn { color: #8a4b00; }\n"
    "p.bad { color: #a00000; font-weight: bold; }\n"
    "pre { font-family: 'DejaVu Sans Mono', monospace; font-size: 8pt; background-color: #f6f6f6; "
    "white-space: pre-wrap; }\n"
    ".better { color: #006000; } .worse { color: #a00000; }\n";

QString tableOpen(const QString &cls = {})
{
    // Attributes as well as CSS: QTextDocument (the PDF) honours these, browsers the CSS.
    return u"<table%1 border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">"_s.arg(
        cls.isEmpty() ? QString() : u" class=\"%1\""_s.arg(cls));
}

QString pageMark(bool landscape)
{
    return QString::fromLatin1(landscape ? kLandscapePageMark : kPortraitPageMark) + u'\n';
}

// Runs named by their codes in a table's header, the full names beside it: a long run label
// would otherwise take a narrow column's width and be broken.
QString codeLegend(const QStringList &codes, const QStringList &labels)
{
    QStringList parts;
    for (qsizetype i = 0; i < codes.size(); ++i)
        parts << u"<b>%1</b> = %2"_s.arg(esc(codes.at(i)), esc(labels.value(i)));
    return u"<p class=\"note\">%1</p>\n"_s.arg(parts.join(u"; "_s));
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

// The report's own words and core's messages, in English or — when the caller asks — in the
// installed language (the workbench's, the CLI's locale). Identifiers "report.*" and the
// catalogue's others (messagecatalogue.cpp).
struct Words
{
    bool translate = false;

    QString operator()(const char *id, const QStringList &args = {}) const
    {
        return Message(id, args).text(translate);
    }
    QString operator()(const Message &m) const { return m.text(translate); }
    // An English text handed over as a string, found in the catalogue when translating.
    QString english(const QString &s) const
    {
        return translate ? Message::fromEnglish(s).translated() : s;
    }
};

// --- sections ---

QString summarySection(const ReportContent &c, const Words &w)
{
    const Comparison &cmp = c.comparison;
    QString h = section(u"summary"_s, w("report.section.summary"));
    if (c.runs.size() > 1) {
        h += u"<p class=\"verdict\">%1</p>\n"_s.arg(esc(w(cmp.comparability.verdictMessage())));
        h += u"<p>%1</p>\n"_s.arg(
            esc(w.translate ? cmp.rankNoteMessage.translated() : cmp.rankNote));
        if (!cmp.ranking.isEmpty()) {
            const ComparisonRow *row = cmp.row(cmp.rankBy.rowKey());
            h += u"<ol>\n"_s;
            for (int i : cmp.ranking)
                h += u"<li>%1: %2 %3</li>\n"_s.arg(
                    esc(cmp.columns.at(i)), esc(formatCell(*row, row->cells.at(i), w.translate)),
                    esc(row->unit));
            h += u"</ol>\n"_s;
        }
    }
    const QStringList codes = runCodes(cmp);
    // Non-streamed runs (embeddings, rerank) have no output tokens, TTFT or TPOT: their glance
    // shows what they have (input tokens, E2EL) rather than three columns of n/a with the reason,
    // which also ran past the edge of a portrait page.
    const bool nonStreamed =
        !c.runs.isEmpty() && std::all_of(c.runs.cbegin(), c.runs.cend(), [](const ReportRun &r) {
            return r.summary.nonStreamed;
        });
    const QString tpsKey = nonStreamed ? u"input_throughput"_s : u"output_throughput"_s;
    const QString firstKey = nonStreamed ? u"e2el.median"_s : u"ttft.p99"_s;
    const QString secondKey = nonStreamed ? u"e2el.p99"_s : u"tpot.p99"_s;
    h += tableOpen(u"wide"_s) + u"<tr>"_s + th(esc(w("report.col.run"))) + th(esc(w("cmp.sut"))) +
         th(esc(w("report.col.status"))) + th(esc(w("report.col.successful"))) +
         th(esc(w("report.col.failed"))) + th(u"req/s"_s) +
         th(esc(w(nonStreamed ? "report.col.input_tps" : "report.col.output_tps"))) +
         th(nonStreamed ? u"P50 E2EL (ms)"_s : u"P99 TTFT (ms)"_s) +
         th(nonStreamed ? u"P99 E2EL (ms)"_s : u"P99 TPOT (ms)"_s) + u"</tr>\n"_s;
    for (int i = 0; i < c.runs.size(); ++i) {
        const ReportRun &r = c.runs.at(i);
        const auto cell = [&](const QString &key) {
            const ComparisonRow *row = cmp.row(key);
            if (!row)
                return esc(w("cmp.cell.na"));
            const ComparisonCell &c = row->cells.at(i);
            QString v = esc(formatCell(*row, c, w.translate));
            if (!c.value && !c.noteMessage.isEmpty()) // n/a says why, never a bare 0 or blank
                v += u"<br/><small>%1</small>"_s.arg(esc(c.noteMessage.text(w.translate)));
            return v;
        };
        h += u"<tr>"_s + td(u"<b>%1</b> %2"_s.arg(esc(codes.value(i)), esc(r.label))) +
             td(esc(r.sutName())) + td(esc(r.input.status)) +
             td(QString::number(r.summary.completed), u"class=\"num\""_s) +
             td(QString::number(r.summary.failed), u"class=\"num\""_s) +
             td(cell(u"request_throughput"_s), u"class=\"num\""_s) +
             td(cell(tpsKey), u"class=\"num\""_s) + td(cell(firstKey), u"class=\"num\""_s) +
             td(cell(secondKey), u"class=\"num\""_s) + u"</tr>\n"_s;
    }
    h += u"</table>\n"_s;
    for (const ReportRun &r : c.runs) {
        if (r.input.status != "completed"_L1)
            h += u"<p class=\"warn\">%1</p>\n"_s.arg(
                esc(w("report.partial", {r.label, r.input.status})));
        for (const Message &n : r.noteMessages)
            h += u"<p class=\"warn\">%1: %2</p>\n"_s.arg(esc(r.label), esc(w(n)));
    }
    return h;
}

QString comparabilitySection(const ReportContent &c, const Words &w)
{
    const Comparability &cb = c.comparison.comparability;
    QString h = section(u"comparability"_s, w("report.section.comparability"));
    h += u"<p class=\"%1\">%2</p>\n"_s.arg(cb.rankable() ? u"verdict"_s : u"bad"_s,
                                           esc(w(cb.verdictMessage())));
    for (const Message &m : cb.warningMessages)
        h += u"<p class=\"warn\">%1</p>\n"_s.arg(esc(w(m)));
    h += u"<p>%1</p>\n"_s.arg(esc(w("report.comparability.legend")));
    const QStringList codes = runCodes(c.comparison);
    h += codeLegend(codes, cb.runLabels);
    h += tableOpen(cb.runLabels.size() > 2 ? u"wide"_s : QString()) + u"<tr>"_s +
         th(esc(w("report.col.setting"))) + th(esc(w("report.col.role")));
    for (const QString &code : codes)
        h += th(esc(code));
    h += u"</tr>\n"_s;
    for (const FieldComparison &f : cb.fields) {
        const char *role = f.role == FieldRole::Sut           ? "cmp.role.sut"
                           : f.role == FieldRole::Measurement ? "cmp.role.measurement"
                           : f.blocker                        ? "report.role.blocker"
                                                              : "cmp.role.workload";
        h += u"<tr>"_s + td(esc(w(f.labelMessage))) + td(esc(w(role)));
        for (qsizetype i = 0; i < f.valueMessages.size(); ++i) {
            QString cls;
            if (!f.known.value(i, true))
                cls = u"class=\"unknown\""_s;
            else if (f.differs)
                cls = u"class=\"diff\""_s;
            h += td(esc(w(f.valueMessages.at(i))), cls);
        }
        h += u"</tr>\n"_s;
    }
    h += u"</table>\n"_s;
    return h;
}

QString resultsSection(const ReportContent &c, const QMap<QString, QByteArray> &pngs,
                       const Words &w)
{
    const Comparison &cmp = c.comparison;
    QString h = section(u"results"_s, w("report.section.results"));
    // Our own sentence, not escaped (as ever: "numpy's"); the run's label is.
    h += u"<p>%1</p>\n"_s.arg(w("report.results.legend", {esc(cmp.columns.value(cmp.baseline))}));
    const QStringList codes = runCodes(cmp);
    h += codeLegend(codes, cmp.columns);
    h += tableOpen(cmp.columns.size() > 3 ? u"wide"_s : QString()) + u"<tr>"_s +
         th(esc(w("cmp.text.metric")));
    for (int i = 0; i < cmp.columns.size(); ++i)
        h += th(i == cmp.baseline ? esc(w("report.col.baseline", {codes.value(i)}))
                                  : esc(codes.value(i)));
    h += u"</tr>\n"_s;
    QString group;
    for (const ComparisonRow &row : cmp.rows) {
        if (row.group != group) {
            group = row.group;
            h += u"<tr><th colspan=\"%1\">%2</th></tr>\n"_s.arg(cmp.columns.size() + 1)
                     .arg(esc(w.translate ? row.groupMessage.translated() : group));
        }
        const QString label = w.translate ? row.labelMessage.translated() : row.label;
        h += u"<tr>"_s + td(esc(row.unit.isEmpty() ? label : u"%1 (%2)"_s.arg(label, row.unit)));
        for (int i = 0; i < row.cells.size(); ++i) {
            const ComparisonCell &cell = row.cells.at(i);
            QString v = esc(formatCell(row, cell, w.translate));
            if (!cell.value && !cell.note.isEmpty())
                v += u"<br/><small>%1</small>"_s.arg(
                    esc(w.translate ? cell.noteMessage.translated() : cell.note));
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
    for (const Message &n : cmp.costNoteMessages)
        h += u"<p class=\"warn\">%1</p>\n"_s.arg(esc(w("cmp.text.cost", {w(n)})));

    // Client health: a run whose client fell behind measured the client, not the SUT.
    for (const ReportRun &r : c.runs) {
        if (!r.rawRecords)
            continue;
        for (const Message &m : r.derived.health.warningMessages)
            h += u"<p class=\"warn\">%1: %2</p>\n"_s.arg(esc(r.label),
                                                         esc(w("cmp.text.warning", {w(m)})));
    }

    // Charts on portrait pages at the page's full width (660 of the 680 px a 180 mm line holds at
    // 96 dpi), two to a page: on the landscape pages of a wide results table they were drawn at
    // half the width with half the page left empty and their text too small to read.
    if (!pngs.isEmpty())
        h += pageMark(false);
    h += u"<h3>%1</h3>\n"_s.arg(esc(w("report.charts")));
    for (const ChartSpec &spec : c.charts) {
        if (spec.kind == ChartSpec::Kind::Timeline)
            continue; // a run's server charts are in the server section
        const QString title = w.translate ? spec.titleMessage.translated() : spec.title;
        h += u"<p><b>%1</b></p>\n"_s.arg(esc(title));
        if (!spec.emptyNote.isEmpty())
            h += u"<p class=\"warn\">%1</p>\n"_s.arg(
                esc(w.translate ? spec.emptyNoteMessage.translated() : spec.emptyNote));
        const QByteArray png = pngs.value(spec.key);
        if (!png.isEmpty()) {
            h += u"<p><img src=\"data:image/png;base64,%1\" width=\"660\" alt=\"%2\"/></p>\n"_s.arg(
                QString::fromLatin1(png.toBase64()), esc(title));
        } else if (spec.kind == ChartSpec::Kind::Bars) {
            h += tableOpen() + u"<tr>"_s + th(esc(w("report.col.run")));
            for (const ChartSeries &s : spec.series)
                h += th(esc(w.translate ? s.labelMessage.translated() : s.label) + u" ("_s +
                        esc(spec.yLabel) + u')');
            h += u"</tr>\n"_s;
            for (qsizetype i = 0; i < spec.categories.size(); ++i) {
                h += u"<tr>"_s + td(esc(spec.categories.at(i)));
                for (const ChartSeries &s : spec.series)
                    h += td(QString::number(s.values.value(i), 'f', 2), u"class=\"num\""_s);
                h += u"</tr>\n"_s;
            }
            h += u"</table>\n"_s;
        } else {
            h += u"<p><i>%1</i></p>\n"_s.arg(esc(w("report.chart_not_rendered")));
        }
    }
    return h;
}

// A session workload's view (docs/sessions.md): sessions, think time, tokens, TTFT by turn.
QString sessionsTable(const ReportRun &r, const Words &w)
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
    const auto pct = [&w](double rate) {
        return rate >= 0 ? QString::number(rate * 100, 'f', 2) + u" %"_s
                         : w("report.sessions.not_reported");
    };
    QString h = u"<h3>%1</h3>\n"_s.arg(esc(w("report.sessions.title"))) + tableOpen();
    h += row(w("report.sessions.sessions"), u"%1 (%2 / %3 / %4)"_s.arg(ss.sessions)
                                                .arg(ss.completed)
                                                .arg(ss.failed)
                                                .arg(ss.incomplete));
    h += row(w("report.sessions.turns"),
             u"%1 / %2 / %3"_s.arg(ss.turnsSent).arg(ss.turnsFailed).arg(ss.turnsNotSent));
    h += row(w("report.sessions.history"), QString::fromLatin1(historyModeName(p.history)));
    h += row(w("report.sessions.think"),
             u"%1; %2 / %3"_s.arg(QString::fromLatin1(thinkTimeModelName(p.thinkTime)),
                                  f2(ss.thinkConfigured.mean), f2(ss.thinkMeasured.mean)));
    h += row(w("report.sessions.duration"), f2(ss.sessionDurationS.mean));
    h += row(w("report.sessions.tokens"),
             u"%1 (%2 / %3 / %4)"_s.arg(ss.inputTokens)
                 .arg(ss.newInputTokens)
                 .arg(ss.historyTokens)
                 .arg(ss.cachedReported > 0 ? QString::number(ss.cachedTokens)
                                            : w("report.sessions.not_reported")));
    h += row(w("report.sessions.hit_rate"), pct(ss.cacheHitRate));
    h += row(w("report.sessions.active"),
             u"%1 / %2"_s.arg(ss.peakActiveSessions).arg(f2(ss.meanActiveSessions)));
    h += u"</table>\n"_s + tableOpen() + u"<tr>"_s;
    for (const char *c :
         {"report.sessions.col.turn", "report.sessions.col.ok", "report.sessions.col.ttft",
          "report.sessions.col.ttft_p99", "report.sessions.col.itl", "report.sessions.col.e2el",
          "report.sessions.col.input", "report.sessions.col.history",
          "report.sessions.col.hit_rate"})
        h += th(esc(w(c)));
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

QString runSection(const ReportRun &r, bool pageBreak, const Words &w)
{
    QString h = section(u"run-%1"_s.arg(r.id), w("report.section.run", {r.label}), pageBreak);
    const RunPlan &p = r.input.plan;
    const auto row = [&w](const char *id, const QString &v) {
        return u"<tr>"_s + th(esc(w(id))) + td(esc(v)) + u"</tr>\n"_s;
    };
    h += tableOpen();
    h += row("report.row.run_id", QString::number(r.id));
    h += row("report.row.name", r.info.name);
    h += row("report.col.status",
             r.input.status +
                 (r.info.statusMessage.isEmpty() ? QString() : u" — "_s + r.info.statusMessage));
    h += row("report.row.started", r.info.startedUtc.toString(Qt::ISODateWithMs));
    h += row("report.row.ended", r.info.endedUtc.toString(Qt::ISODateWithMs));
    h += row("report.row.host", r.info.host);
    h += row("cmp.field.tool_version", r.info.toolVersion);
    h += row("report.row.definitions_version", r.info.metricDefinitionsVersion);
    h += row("report.row.transport", r.input.transport);
    h += row("report.row.records", QString::number(r.info.requestCount));
    h += row("report.row.dataset_hash",
             r.input.datasetHash.isEmpty() ? w("cmp.value.unknown") : r.input.datasetHash);
    h +=
        row("report.row.dataset_version", r.input.datasetInfo.value(u"version_label"_s).toString());
    // Stored redacted at run time; scrubbed again because a report travels further than a project.
    const QString command = scrubCommandLine(r.info.snapshot.value(u"command"_s).toString());
    h += row("report.row.command", command.isEmpty() ? w("report.not_recorded") : command);
    h += u"</table>\n"_s;

    h += sessionsTable(r, w);

    h += u"<h3>%1</h3>\n"_s.arg(esc(w("report.sut_manifest"))) + tableOpen();
    const SutConfig &s = p.sut;
    h += row("report.row.name", s.name);
    h += row("cmp.field.endpoint",
             s.builtInSimulator ? w("cmp.value.simulator") : s.baseUrl + s.endpoint);
    h += row("cmp.field.api_flavour", QString::fromLatin1(apiFlavourName(s.flavour)));
    h += row("cmp.field.model", s.model);
    h += row("cmp.field.weights_revision", s.weightsRevision);
    h += row("cmp.field.engine",
             s.engine + (s.engineVersion.isEmpty() ? QString() : u' ' + s.engineVersion));
    h += row("cmp.field.gpu",
             s.gpuCount > 0 ? u"%1 × %2"_s.arg(s.gpuCount).arg(s.gpuModel) : s.gpuModel);
    h += row("cmp.field.image", s.image);
    h += row("report.row.topology",
             u"%1 / %2 / %3"_s.arg(s.replicas).arg(s.containers).arg(s.workersPerContainer));
    h += row("cmp.field.region", s.region);
    h += row("cmp.field.client_location", s.clientLocation);
    h += row("report.row.notes", s.notes);
    h += row("report.row.api_key",
             s.apiKeyRef.isEmpty() ? w("cmp.value.none") : w("report.api_key_ref", {s.apiKeyRef}));
    h += u"</table>\n"_s;
    h += u"<h3>%1</h3>\n"_s.arg(esc(w("report.snapshot"))) + jsonPre(r.info.snapshot);
    return h;
}

QString failuresSection(const ReportContent &c, const Words &w)
{
    QString h = section(u"failures"_s, w("report.section.failures"));
    h += u"<p>%1</p>\n"_s.arg(esc(w(failedRequestsMessage())));
    // The stored class name, and in another language the reader's words beside it.
    const auto className = [&w](const QString &name) {
        return w.translate
                   ? u"%1 (%2)"_s.arg(name, errorClassLabel(errorClassFromName(name)).translated())
                   : name;
    };
    for (const ReportRun &r : c.runs) {
        h += u"<h3>%1</h3>\n"_s.arg(esc(r.label));
        if (r.summary.failed == 0) {
            h += u"<p>%1</p>\n"_s.arg(esc(w("report.no_failures")));
            continue;
        }
        h += tableOpen() + u"<tr>"_s + th(esc(w("report.col.error_class"))) +
             th(esc(w("report.col.requests"))) + u"</tr>\n"_s;
        for (auto it = r.summary.failedByClass.cbegin(); it != r.summary.failedByClass.cend(); ++it)
            h += u"<tr>"_s + td(esc(className(it.key()))) +
                 td(QString::number(it.value()), u"class=\"num\""_s) + u"</tr>\n"_s;
        h += u"</table>\n"_s;
        if (!r.rawRecords) {
            h += u"<p class=\"warn\">%1</p>\n"_s.arg(esc(w("report.failures_summary_only")));
            continue;
        }
        // Every failed request, grouped by class, with its message.
        QMap<QString, QList<const RequestRecord *>> byClass;
        for (const RequestRecord &rec : r.input.records)
            if (rec.failed())
                byClass[QString::fromLatin1(errorClassName(rec.error))].append(&rec);
        h += tableOpen(u"wide"_s) + u"<tr>"_s + th(esc(w("report.col.class"))) +
             th(esc(w("report.col.index"))) + th(esc(w("report.col.warmup"))) + th(u"HTTP"_s) +
             th(esc(w("report.col.request_id"))) + th(esc(w("report.col.message"))) + u"</tr>\n"_s;
        for (auto it = byClass.cbegin(); it != byClass.cend(); ++it)
            for (const RequestRecord *rec : it.value())
                h += u"<tr>"_s + td(esc(it.key())) +
                     td(QString::number(rec->index), u"class=\"num\""_s) +
                     td(esc(w(rec->warmup ? "report.yes" : "report.no"))) +
                     td(rec->httpStatus > 0 ? QString::number(rec->httpStatus) : QString()) +
                     td(esc(rec->requestId)) + td(cut(rec->errorMessage)) + u"</tr>\n"_s;
        h += u"</table>\n"_s;
    }
    return h;
}

QString mlperfSection(const ReportContent &c, const Words &w)
{
    QString h;
    for (const ReportRun &r : c.runs) {
        const LoadProfile &p = r.input.plan.profile;
        if (p.scenario == Scenario::None)
            continue;
        if (h.isEmpty())
            h = section(u"mlperf"_s, w("report.section.mlperf"));
        h += u"<h3>%1 — %2</h3>\n"_s.arg(esc(r.label),
                                         esc(QString::fromLatin1(scenarioName(p.scenario))));
        if (!r.rawRecords) {
            h += u"<p class=\"warn\">%1</p>\n"_s.arg(
                esc(w("report.not_judged", {w("report.no_records")})));
            continue;
        }
        // The run pipeline's derivation: the verdict every view shows.
        if (!r.derived.hasMlperf) {
            h += u"<p class=\"warn\">%1</p>\n"_s.arg(
                esc(w("report.not_judged", {w.english(r.derived.mlperfError)})));
            continue;
        }
        const MlperfJudgement &j = r.derived.mlperf;
        h += u"<p class=\"%1\">%2</p>\n"_s.arg(
            j.valid ? u"verdict"_s : u"bad"_s,
            esc(w(j.valid ? "cmp.cell.valid" : "cmp.cell.invalid")));
        for (const Message &f : j.failedConstraintMessages)
            h += u"<p class=\"warn\">%1</p>\n"_s.arg(esc(w(f)));
        // LoadGen's summary format, in English in every language (a compatibility format).
        h += u"<pre>"_s + esc(j.formatMlperfBlock()) + u"</pre>\n"_s;
    }
    return h;
}

QString costSection(const ReportContent &c, const Words &w)
{
    bool any = false;
    for (const RunCost &rc : c.costs)
        any = any || rc.covered;
    QString h = section(u"cost"_s, w("report.section.cost"));
    if (!any) {
        h += u"<p>%1</p>\n"_s.arg(esc(w("report.cost.none")));
        return h;
    }
    QList<qint64> shown;
    for (int i = 0; i < c.costs.size(); ++i) {
        const RunCost &rc = c.costs.at(i);
        const ReportRun &r = c.runs.at(i);
        if (!rc.covered) {
            h += u"<h3>%1</h3><p>%2</p>\n"_s.arg(
                esc(r.label), esc(w("report.cost.not_available", {w.english(rc.reason)})));
            continue;
        }
        h += u"<h3>%1</h3>\n"_s.arg(esc(w("report.cost.window", {r.label, rc.windowName})));
        if (!rc.otherWindows.isEmpty())
            h += u"<p class=\"warn\">%1</p>\n"_s.arg(
                esc(w("report.cost.other_windows", {rc.otherWindows.join(u", "_s)})));
        if (shown.contains(rc.windowId)) {
            h += u"<p>%1</p>\n"_s.arg(esc(w("report.cost.same_window")));
            continue;
        }
        shown << rc.windowId;
        h += u"<pre>"_s + esc(rc.breakdown.formatText(w.translate)) + u"</pre>\n"_s;
        const auto itemRows = [&](const QList<AttributedItem> &items) {
            QString t;
            for (const AttributedItem &a : items)
                t += u"<tr>"_s + td(esc(a.item.id)) + td(esc(billCategoryLabel(a.item.category))) +
                     td(esc(a.item.provider)) + td(esc(a.item.resourceId)) +
                     td(esc(formatUtcTimestamp(a.item.start))) +
                     td(esc(formatUtcTimestamp(a.item.end))) +
                     td(esc(w.english(a.item.pricingText()))) + td(esc(a.itemTotal.toString())) +
                     td(esc(QString::fromLatin1(itemAttributionName(a.attribution)))) +
                     td(esc(a.counted.toString())) + td(esc(w.english(a.why))) +
                     td(esc(QStringList{a.item.idleNotes, a.item.startStopNotes,
                                        a.item.autoscalingNotes}
                                .join(u' ')
                                .trimmed())) +
                     td(esc(QString::fromLatin1(billSourceName(a.item.source)) + u' ' +
                            a.item.reference)) +
                     u"</tr>\n"_s;
            return t;
        };
        h += tableOpen(u"wide"_s) + u"<tr>"_s;
        for (const char *id :
             {"report.col.item", "report.col.category", "report.col.provider",
              "report.col.resource", "report.col.start", "report.col.end", "report.col.pricing",
              "report.col.item_total", "report.col.mapping", "report.col.counted", "report.col.why",
              "report.row.notes", "report.col.source"})
            h += th(esc(w(id)));
        h += u"</tr>\n"_s;
        h += itemRows(rc.breakdown.included) + itemRows(rc.breakdown.overlapping) +
             itemRows(rc.breakdown.undecided) + itemRows(rc.breakdown.excluded);
        h += u"</table>\n"_s;
    }
    return h;
}

QString definitionsSection(const Words &w)
{
    QString h = section(u"definitions"_s, w("report.section.definitions"));
    h += u"<p>%1</p>\n"_s.arg(
        esc(w("report.definitions_version", {QString::number(kMetricDefinitionsVersion)})));
    for (const Message &s : {timeBaseMessage(), percentileMethodMessage(), failedRequestsMessage(),
                             warmupMessage(), tokenCountMessage()})
        h += u"<p>%1</p>\n"_s.arg(esc(w(s)));
    h += tableOpen() + u"<tr>"_s + th(esc(w("cmp.text.metric"))) + th(esc(w("report.col.unit"))) +
         th(esc(w("report.col.definition"))) + th(esc(w("report.col.applies"))) + u"</tr>\n"_s;
    for (const MetricDefinition &d : metricDefinitions())
        h += u"<tr>"_s + td(esc(w(d.labelMessage))) + td(esc(d.unit)) +
             td(esc(w(d.definitionMessage))) +
             td(esc(d.detailMessage.isEmpty() ? QString() : w(d.detailMessage))) + u"</tr>\n"_s;
    h += u"</table>\n"_s;
    return h;
}

} // namespace

QString renderHtmlReport(const ReportContent &c, const QMap<QString, QByteArray> &pngs,
                         bool translate)
{
    const Words w{translate};
    // The title as loadReportContent() wrote it, in the reader's language when translating.
    const QString title = w.english(c.title);
    QString h;
    h += u"<!DOCTYPE html>\n<html lang=\"%1\">\n<head>\n<meta charset=\"utf-8\"/>\n"_s.arg(
        translate ? w("report.html_lang") : u"en"_s);
    // No script and no remote resource: the page opens offline and cannot run anything.
    h += u"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src "
         "data:; style-src 'unsafe-inline'\"/>\n"_s;
    h += u"<title>%1</title>\n<style>\n%2</style>\n</head>\n<body>\n"_s.arg(
        esc(title), QString::fromLatin1(kStyle));
    h += u"<h1>%1</h1>\n"_s.arg(esc(title));
    h += u"<p>%1</p>\n"_s.arg(esc(w("report.generated", {c.generatedUtc.toString(Qt::ISODate),
                                                         QString::fromLatin1(toolVersion()),
                                                         QFileInfo(c.projectPath).fileName()})));
    // The first page answers the question; everything else is an appendix, each on its own
    // pages, landscape where its table is wide.
    h += decisionPageHtml(c, translate);
    h += pageMark(true);
    h += u"<h2>%1</h2>\n<p>%2</p>\n<p>%3</p>\n"_s.arg(esc(w("report.p1.appendix_runs")),
                                                      esc(w("report.p1.appendices")),
                                                      esc(w("report.sections")));
    h += summarySection(c, w);
    if (c.runs.size() > 1)
        h += pageMark(c.runs.size() > 2) + comparabilitySection(c, w);
    h += pageMark(c.runs.size() > 3) + resultsSection(c, pngs, w);
    h += pageMark(false);
    for (int i = 0; i < c.runs.size(); ++i)
        h += runSection(c.runs.at(i), false, w);
    if (const QString server = serverReportSection(c, pngs, translate); !server.isEmpty())
        h += pageMark(false) + server;
    h += pageMark(true) + failuresSection(c, w);
    const QString mlperf = mlperfSection(c, w);
    if (!mlperf.isEmpty())
        h += pageMark(false) + mlperf;
    h += pageMark(true) + costSection(c, w);
    h += pageMark(false) + definitionsSection(w);
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
            if (rec.failed())
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
