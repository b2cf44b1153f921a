#pragma once

#include "metrics/recordset.h"
#include "metrics/requestrecord.h"

#include <QList>
#include <QStringView>

namespace sb {

// The per-request samples behind a run's summary, for the confidence intervals and comparisons
// that need the samples themselves (RunSummary keeps only their statistics). Same definitions
// and the same records as summarize(): measured (non-warm-up unless includeWarmup) requests;
// latencies of successful requests, schedule lag and client queue time of every sent one; ms.

// "ttft", "tpot", "e2el", "ttft_from_sched", "e2el_from_sched", "schedule_lag",
// "client_queue_time": one value per request, in record order. Empty for an unknown key.
QList<double> requestSamples(const RecordSet &records, QStringView metric,
                             bool includeWarmup = false);

// Inter-token gaps (ms) of each successful request, one list per request with at least two
// token chunks: the clusters a request-level bootstrap resamples. perToken divides each gap by
// the tokens of the later chunk (ITL per token).
QList<QList<double>> itlByRequest(const RecordSet &records, bool perToken = false,
                                  bool includeWarmup = false);
// One record's list, as itlByRequest() gives it; false (and *gaps untouched) for a record
// itlByRequest() leaves out. itlGapCount(): the size of that list for a record of chunkCount
// token chunks (0 when left out), without the chunks.
bool itlOfRequest(const RequestRecord &r, QList<double> *gaps, bool perToken = false,
                  bool includeWarmup = false);
qint64 itlGapCount(const RequestRecord &r, qsizetype chunkCount, bool includeWarmup = false);

// When a request stopped occupying the server, as the summary's duration window reads it:
// t_end, else the last token chunk, else t_send.
qint64 completionTimeNs(const RequestRecord &r);

// Requests in flight over time: each sent record counts over [t_send, completion) (an end at t
// frees its slot before a start at t, as the summary's peak concurrency). Steps in time order;
// the count holds from tNs until the next step.
struct InFlightStep
{
    qint64 tNs = 0;
    qint64 inFlight = 0;
};
QList<InFlightStep> inFlightSteps(const RecordSet &records, bool includeWarmup = true);
// The count at time t (0 before the first step).
qint64 inFlightAt(const QList<InFlightStep> &steps, qint64 tNs);

} // namespace sb
