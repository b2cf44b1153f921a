#include "requestrow.h"

#include "metrics/summary.h"

namespace sb {

namespace {

double meanOrNone(const MetricStats &s)
{
    return s.count > 0 ? s.mean : RequestRow::kNone;
}

double relS(qint64 ns, qint64 zeroNs)
{
    return ns > 0 && zeroNs > 0 ? double(ns - zeroNs) / 1e9 : RequestRow::kNone;
}

} // namespace

RequestRow RequestRow::fromRecord(const RequestRecord &record, qint64 runStartNs)
{
    RequestRow row;
    row.index = record.index;
    row.datasetItem = record.datasetItem;
    row.warmup = record.warmup;
    row.error = record.error;
    row.requestId = record.requestId;
    row.errorMessage = record.errorMessage;
    row.finishReason = record.finishReason;
    row.httpStatus = record.httpStatus;
    row.chunks = qint32(record.chunkTimes.size());
    row.inputTokens = effectiveInputTokens(record, &row.inputSource);
    row.outputTokens = effectiveOutputTokens(record, &row.outputSource);

    // The summary of a one-request run *is* that request's metrics: the definitions live in
    // core only. No percentiles are asked for, which keeps this a few microseconds.
    static const SummaryOptions opts = [] {
        SummaryOptions o;
        o.percentiles.clear();
        o.includeWarmup = true;
        return o;
    }();
    const RunSummary s = summarize(QList<RequestRecord>{record}, opts);
    row.ttftMs = meanOrNone(s.ttft);
    row.tpotMs = meanOrNone(s.tpot);
    row.e2elMs = meanOrNone(s.e2el);
    row.itlMeanMs = meanOrNone(s.itl);
    row.itlMaxMs = s.itl.count > 0 ? s.itl.max : kNone;
    row.scheduleLagMs = meanOrNone(s.scheduleLag);
    row.queueMs = meanOrNone(s.clientQueueTime);
    row.sendS = relS(record.tSend, runStartNs);
    row.endS = relS(s.sent > 0 ? s.windowEndNs : record.tEnd, runStartNs);
    return row;
}

QList<RequestRow> requestRows(const QList<RequestRecord> &records, qint64 runStartNs,
                              const std::function<bool()> &cancelled)
{
    QList<RequestRow> rows;
    rows.reserve(records.size());
    for (qsizetype i = 0; i < records.size(); ++i) {
        if ((i & 255) == 0 && cancelled && cancelled())
            break;
        rows.append(RequestRow::fromRecord(records.at(i), runStartNs));
    }
    return rows;
}

} // namespace sb
