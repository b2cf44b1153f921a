#pragma once

#include "config/runplan.h"
#include "metrics/requestrecord.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace sb {

// Everything printed and saved about one run, derived from its plan and raw records only, so
// `servebench-cli show` recomputes exactly what `run` printed at the end of the run, and the
// comparison reports reuse the same derivation.
struct RunReportInput
{
    RunPlan plan;
    QList<RequestRecord> records;
    QString datasetHash;
    QJsonObject datasetInfo;
    QString status; // runStatusName
    QString transport;
    qint64 runStartNs = 0;
    QDateTime wallStart;
    QJsonObject snapshot; // the stored snapshot (plan + run details)
};

QString formatRunReport(const RunReportInput &in);
// vLLM's result JSON plus ServeBench's keys (client health, MLPerf judgement, snapshot).
QJsonObject runResultJson(const RunReportInput &in, bool detailed);
// Per-request CSV with a header row; times in ms, absolute times in s from run start.
QByteArray requestsCsv(const RunReportInput &in);

} // namespace sb
