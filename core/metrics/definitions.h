#pragma once

#include "common/message.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sb {

// Bumped whenever a definition below changes meaning; stored with every run (runs table, result
// JSON) so a report can tell whether two runs were measured by the same rules.
inline constexpr int kMetricDefinitionsVersion = 1;

// One metric's definition as printed in reports and stored with runs. `definition` is the
// sentence from docs/metrics.md verbatim (ttft_from_sched/e2el_from_sched quote its MLPerf rule;
// achieved_request_rate is ServeBench's own); `detail` says how ServeBench applies it to its
// records where §5 leaves a choice (which requests count, which timestamps bound the window).
struct MetricDefinition
{
    QString key;        // stable id, also the JSON key stem: "ttft", "tpot", "itl", ...
    QString label;      // short name: "TTFT"
    QString unit;       // "ms", "s", "req/s", "tok/s"
    QString definition; // docs/metrics.md sentence
    QString detail;     // ServeBench's precise application of it
    // label, definition and detail for display in the reader's language (the strings above are
    // their English text, what is stored with runs; "metric.<key>.label" and so on).
    Message labelMessage;
    Message definitionMessage;
    Message detailMessage;
};

// Every metric ServeBench reports, in report order.
const QList<MetricDefinition> &metricDefinitions();
// nullptr when the key is unknown.
const MetricDefinition *metricDefinition(const QString &key);

// General statements that hold for every metric (clock, percentile method, failures, warm-up).
QString timeBaseStatement();
QString percentileMethodStatement();
QString failedRequestsStatement();
QString warmupStatement();
QString tokenCountStatement();
// The same statements for display in the reader's language.
Message timeBaseMessage();
Message percentileMethodMessage();
Message failedRequestsMessage();
Message warmupMessage();
Message tokenCountMessage();
// "TTFT = t_first − t_send", and the detail after a blank line when `withDetail`: the tooltip
// the workbench shows for a metric, translated.
QString metricToolTip(const MetricDefinition &d, bool withDetail = true);

// {"version": 1, "percentile_method": ..., "time_base": ..., "failed_requests": ...,
//  "warmup": ..., "token_counts": ..., "metrics": {key: {label, unit, definition, detail}}}
QJsonObject metricDefinitionsJson();
// Plain-text rendering for reports and `servebench-cli --definitions`: one paragraph per metric.
QString metricDefinitionsText();

} // namespace sb
