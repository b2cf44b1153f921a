#pragma once

#include "report/chartspec.h"
#include "report/comparison.h"
#include "report/reportcost.h"
#include "report/reportrun.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>

namespace sb {

class ProjectStore;

// Everything a comparison report shows, loaded once and rendered as HTML, PDF (app/render, from
// the same HTML), CSV and JSON.
struct ReportContent
{
    QString title;
    QString projectPath;
    QDateTime generatedUtc;
    QList<ReportRun> runs;
    QList<RunCost> costs; // one per run
    Comparison comparison;
    QList<ChartSpec> charts;
};

// Loads the runs, their costs, the comparison and the chart data from an open project.
bool loadReportContent(ProjectStore &store, const QList<qint64> &runIds,
                       const ComparisonOptions &options, ReportContent *out, QString *error);

// Escapes & < > " ' for text and attribute values alike.
QString htmlEscape(const QString &text);

// The PDF starts a new page at each of these marks, in the orientation it names (a table too
// wide for a portrait page gets a landscape one); a browser ignores them, being comments.
inline constexpr char kPortraitPageMark[] = "<!--sb:page portrait-->";
inline constexpr char kLandscapePageMark[] = "<!--sb:page landscape-->";

// Messages longer than this are cut in the HTML/PDF (the full text is in the CSV and JSON).
inline constexpr int kReportMessageLimit = 2000;

// A self-contained HTML page, opening with the decision page (decisionpage.h) and the details
// as appendices: no script, no external resource; the charts are PNGs passed by
// key (ChartSpec::key) and embedded as data: URIs. A chart missing from `chartPngs` is replaced
// by its numbers. Every value that comes from the project is escaped. English unless
// `translate`: then its headings, verdicts, notes and core's messages are in the installed
// language (the workbench's, or the CLI's locale); the MLPerf LoadGen-style block, the values
// from the project and the JSON report stay as they are.
QString renderHtmlReport(const ReportContent &content, const QMap<QString, QByteArray> &chartPngs,
                         bool translate = false);

// Machine forms.
QJsonObject reportJson(const ReportContent &content);
// Per-request CSV of every run: a run_id column in front of runreport's requestsCsv columns.
QByteArray reportRequestsCsv(const ReportContent &content);
// Every failed request of every run: run_id,index,request_id,error_class,http_status,message.
QByteArray failedRequestsCsv(const ReportContent &content);

} // namespace sb
