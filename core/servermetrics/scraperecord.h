#pragma once

#include <QString>
#include <QtGlobal>

namespace sb {

// How one scrape of one target ended. Only Ok carries samples; malformed lines alone do not
// fail a scrape (the lines that parse are kept and the rest are counted).
enum class ScrapeOutcome : quint8 {
    Ok = 0,
    Unreachable,   // connection refused, host not found, TLS failure, reset before a response
    HttpStatus,    // an HTTP status other than 2xx
    NotPrometheus, // a body in which no line is a metric (an HTML page, JSON, ...)
    Oversize,      // the body exceeded the payload cap; nothing of it is kept
    Timeout,       // no complete response within the per-scrape timeout
};
constexpr int ScrapeOutcomeCount = 6;
const char *scrapeOutcomeName(ScrapeOutcome outcome); // "ok", "unreachable", "http-status", ...
bool scrapeOutcomeFromName(const QString &name, ScrapeOutcome *out);

// What one scrape was, whatever its outcome. Times are CLOCK_MONOTONIC ns, the run's clock.
struct ScrapeRecord
{
    qint64 tNs = 0;        // when the request was sent: the time its samples are stored at
    qint64 durationNs = 0; // until the body was complete, or until the failure
    ScrapeOutcome outcome = ScrapeOutcome::Ok;
    int httpStatus = 0;     // 0 when no response head arrived
    qint64 bytes = 0;       // body bytes read (up to the cap)
    int samples = 0;        // sample lines kept
    int malformedLines = 0; // lines the parser reported
    QString detail;         // the reason in words; for malformed lines the first few, by number

    bool ok() const { return outcome == ScrapeOutcome::Ok; }
    bool operator==(const ScrapeRecord &o) const = default;
};

} // namespace sb
