#pragma once

#include "metrics/requestrecord.h"

#include <QList>
#include <QString>

#include <functional>
#include <limits>

namespace sb {

// One request reduced to what the per-request table and the charts show. Value type, built off
// the GUI thread for finished runs.
//
// Every latency here comes from core's summarize() run over the single record (warm-up
// included), so the table can never drift from the definitions the summary, the CLI and the
// reports use. NaN means "this request has no such value" (a failed request has no TTFT; a
// request with one output token has no TPOT), which the table shows as an empty cell.
struct RequestRow
{
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

    qint64 index = -1;
    qint32 datasetItem = -1;
    bool warmup = false;
    ErrorClass error = ErrorClass::None;
    QString requestId;
    QString errorMessage;
    QString finishReason;
    qint32 httpStatus = 0;

    double sendS = kNone; // t_send relative to the run's start, seconds
    double endS = kNone;  // completion (t_end, else t_last, else t_send) relative, seconds
    double ttftMs = kNone;
    double tpotMs = kNone;
    double e2elMs = kNone;
    double itlMeanMs = kNone;
    double itlMaxMs = kNone;
    double scheduleLagMs = kNone;
    double queueMs = kNone;
    qint32 chunks = 0;

    qint32 inputTokens = 0;
    qint32 outputTokens = 0;
    TokenSource inputSource = TokenSource::Unknown;
    TokenSource outputSource = TokenSource::Unknown;

    bool ok() const { return error == ErrorClass::None; }
    // Closed by the cancellation load: neither ok nor failed (docs/metrics.md).
    bool cancelledByLoad() const { return error == ErrorClass::CancelledByLoad; }
    bool failed() const { return !ok() && !cancelledByLoad(); }

    // runStartNs: zero point of sendS/endS (0 = leave them NaN).
    static RequestRow fromRecord(const RequestRecord &record, qint64 runStartNs);
};

// Rows for many records, in the records' order. Polls cancelled() every few hundred rows and
// stops early (returning what it has) once it says so, so a superseded job ends quickly.
QList<RequestRow> requestRows(const QList<RequestRecord> &records, qint64 runStartNs,
                              const std::function<bool()> &cancelled = {});

} // namespace sb
