#pragma once

#include "common/message.h"
#include "servermetrics/metricseriesstore.h"
#include "servermetrics/serverevidence.h"
#include "store/storetypes.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

namespace sb {

class ProjectStore;
struct ChartSpec;
struct ComparisonRow;
struct ReportContent;
struct ReportRun;
struct RunSummary;

// A run's server-side evidence as every view shows it (docs/metrics.md, "Server-side
// evidence"): derived once in deriveRun() from the run's scraped targets and the client's
// summary over the same measured window, then printed by the CLI, stored in the result JSON,
// shown in the Results and Compare tabs and written in reports.

// The evidence over the summary's measured window [windowStartNs, windowEndNs], with the
// client's successful requests, output tokens and TTFT / E2EL statistics beside the server's.
ServerEvidence deriveServerEvidence(const QList<MetricSeriesStore> &stores,
                                    const RunSummary &summary);

// How a figure is shown: its label, the unit and scale it is shown in (a KV-cache usage of
// 0.42 reads "42 %"), its decimals, and whether a comparison lists it.
struct ServerFigure
{
    const char *name; // ServerEvidence's name ("running_peak")
    const char *unit; // shown unit ("requests", "%", "ms", ...)
    double scale;     // shown value = evidence value × scale
    int decimals;
    bool lowerIsBetter;
    bool compared; // a row of the Compare table and the report's results
};
const QList<ServerFigure> &serverFigures();
const ServerFigure *serverFigure(const QString &name);
// "Running requests (peak)" and the figure's definition (ServerEvidence::definition), as
// catalogue messages (server.label.*, server.def.*).
Message serverFigureLabel(const QString &name);
Message serverFigureDefinition(const QString &name);
// Why a figure or target is not available, found in the catalogue (server.reason.*) when the
// evidence's English reason is one of its texts; the text itself otherwise.
Message serverReasonMessage(const QString &english);
// One target of ServerEvidence::toJson()'s "targets", its name quoted as a name:
// "Target 'sut' (URL): vllm, 19 scrapes, 19 successful", or "…: not available: reason".
Message serverTargetMessage(const QJsonObject &target);
// Where a value came from (EvidenceItem::source, "target: series"): "target 'sut', series
// vllm:num_requests_running"; the text itself when it is not of that form.
Message serverSourceMessage(const QString &source);
// Why a chart of a figure's quantity over the run has no point, from that figure's item (null:
// none): no scraped target exports it, or the scrapes carried none (the item's reason says why).
Message serverChartEmptyNote(const EvidenceItem *item);
// "12.5 %" / "n/a (reason)" for one item, English or translated.
QString formatServerValue(const EvidenceItem &item, bool translate = false);

// The CLI's "Server metrics" block under the run summary: each target's fate, then every figure
// with the client's counterpart where there is one, or n/a with the reason.
QString formatServerMetricsBlock(const ServerEvidence &evidence);

// Storage: one row per target (blob = encodeSeriesStore) and back. A blob that does not decode
// is an error naming the run and the target.
QList<StoredRunMetrics> encodeServerMetrics(const QList<MetricSeriesStore> &stores);
bool loadServerMetrics(const ProjectStore &store, qint64 runId, QList<MetricSeriesStore> *out,
                       QString *error);

// The acceptance bundle's file of one target: its identity and engine, every scrape (time in
// ns on the run's clock and in s from the run's start, duration, outcome, detail) and every
// series with its points; NaN and infinities as the strings "NaN", "+Inf", "-Inf".
QJsonObject serverMetricsFileJson(const MetricSeriesStore &store, qint64 runStartNs);

// The Compare table's "Server" group: one row per compared figure (ServerFigure::compared), its
// cells in the shown unit, n/a with the reason; none when no run has server metrics.
QList<ComparisonRow> serverComparisonRows(const QList<ReportRun> &runs);

// A run's server charts for the report: the engine's queue (running, waiting), its KV-cache
// usage and the GPU power over the run, each on a right-hand axis over the client's TTFT by send
// time, in seconds from the run's start. Only the charts some target has data for.
QList<ChartSpec> serverChartSpecs(const ReportRun &run);

// The report's "Server-side and GPU evidence" section: per run its targets, every figure with
// its value or why it is not available and its definition, and its server charts (PNGs by
// ChartSpec::key, their numbers' absence said when not rendered). Empty when no run has server
// metrics. English unless `translate`.
QString serverReportSection(const ReportContent &content, const QMap<QString, QByteArray> &pngs,
                            bool translate);

} // namespace sb
