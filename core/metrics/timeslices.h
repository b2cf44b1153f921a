#pragma once

#include "metrics/recordset.h"
#include "metrics/requestrecord.h"
#include "metrics/stats.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sb {

// A run cut into slices of N seconds from its first send (docs/statistics.md, "Time slices").
// Each event falls into the slice containing its time:
//   sent          requests whose t_send is in the slice;
//   completed     successful requests whose completion (t_end, else last token) is in it;
//   failed        failed requests whose completion is in it;
//   output tokens tokens of the successful requests' chunks received in it (per chunk, as the
//                 summary's peak output throughput counts them);
//   TTFT          of the successful requests whose first token arrived in it;
//   ITL           the gaps whose later chunk arrived in it;
//   in flight     requests in flight at the slice's end instant, after what happens exactly then.
// Rates divide by the slice's length; the last slice is usually partial and divides by its own.
struct TimeSliceOptions
{
    double sliceSeconds = 1.0;
    QList<double> percentiles = {50, 90, 99};
    PercentileMethod method = PercentileMethod::Linear;
    bool includeWarmup = false; // as SummaryOptions: warm-up records are left out by default
};

struct TimeSlice
{
    int index = 0;
    double startS = 0; // from the origin
    double endS = 0;
    qint64 sent = 0;
    qint64 completed = 0;
    qint64 failed = 0;
    qint64 outputTokens = 0;
    double requestThroughput = 0; // completed / length
    double outputThroughput = 0;  // outputTokens / length
    MetricStats ttft;             // ms
    MetricStats itl;              // ms
    qint64 inFlightAtEnd = 0;

    double seconds() const { return endS - startS; }
    QJsonObject toJson() const;
};

struct TimeSlices
{
    qint64 originNs = 0; // first send of the included records
    double sliceSeconds = 1.0;
    QList<double> percentiles;
    QList<TimeSlice> slices;

    QJsonObject toJson() const;
    // A fixed-width text table, one line per slice: start, sent, completed, failed, req/s,
    // tok/s, TTFT and ITL at each percentile, in flight.
    QString formatTable() const;
};

// Empty slices when no record was sent or sliceSeconds is not positive.
TimeSlices timeSlices(const RecordSet &records, const TimeSliceOptions &options = {});

} // namespace sb
