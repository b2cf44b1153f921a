#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QtGlobal>

namespace sb {

// The metric types of the Prometheus text format 0.0.4 (untyped, counter, gauge, histogram,
// summary) and of OpenMetrics text 1.0 (unknown, gaugehistogram, stateset, info besides).
enum class PromType : quint8 {
    Untyped = 0, // no TYPE line, "untyped" (0.0.4) or "unknown" (OpenMetrics)
    Counter,
    Gauge,
    Histogram,
    Summary,
    GaugeHistogram,
    StateSet,
    Info,
};
const char *promTypeName(PromType type);

// One sample line. Labels are sorted by name (the order the server wrote them in carries no
// meaning), names and values are UTF-8 with the exposition escapes resolved.
struct PromSample
{
    QByteArray name;
    QList<QPair<QByteArray, QByteArray>> labels;
    double value = 0;
    bool hasTimestamp = false;
    qint64 timestampMs = 0; // 0.0.4: milliseconds as written; OpenMetrics: seconds x 1000

    QByteArray label(const QByteArray &name) const;
    bool hasLabel(const QByteArray &name) const;
};

// A metric family: the samples that share a TYPE/HELP. A sample whose name no TYPE line
// announced forms an untyped family of its own name.
struct PromFamily
{
    QByteArray name;
    PromType type = PromType::Untyped;
    QString help;
    QByteArray unit; // OpenMetrics # UNIT, empty otherwise
    QList<PromSample> samples;
};

// One line the parser could not use. The parser skips it and goes on with the next line.
struct PromParseError
{
    int line = 0; // 1-based line number in the payload
    QString message;
};

enum class PromFormat : quint8 {
    Auto,        // OpenMetrics when the payload ends with "# EOF", the 0.0.4 text format otherwise
    Text004,     // text/plain; version=0.0.4
    OpenMetrics, // application/openmetrics-text; version=1.0.0
};

struct PromParseResult
{
    QList<PromFamily> families; // in the order each family first appeared
    QList<PromParseError> errors;
    bool openMetrics = false; // which grammar was applied
    int lines = 0;            // lines in the payload (a final line without '\n' counts)
    int samples = 0;          // sample lines accepted

    const PromFamily *family(const QByteArray &name) const;
    // The first sample of that exact sample name whose labels include every pair of `match`.
    const PromSample *sample(const QByteArray &name,
                             const QList<QPair<QByteArray, QByteArray>> &match = {}) const;
};

// A parser for the Prometheus text exposition format 0.0.4 and OpenMetrics text 1.0:
// comments, # HELP / # TYPE / # UNIT, label escapes (\\, \", \n), NaN and +-Inf values,
// optional timestamps, exemplars (parsed past and dropped), the OpenMetrics "# EOF" terminator,
// and the quoted UTF-8 metric names of Prometheus 3 ({"my.metric", label="v"}).
//
// It never stops at a bad line: every line it cannot use is reported with its number and the
// rest is parsed. The caller bounds the payload size (the scraper caps it before parsing).
class PromParser
{
public:
    static PromParseResult parse(const QByteArray &payload, PromFormat format = PromFormat::Auto);

    // A value as both grammars write it: a decimal or exponent float, NaN, +Inf, -Inf (and the
    // spellings Go's ParseFloat accepts: Inf, inf, nan, +infinity ...).
    static bool parseValue(QByteArrayView text, double *out);
    // Whether a Content-Type header announces OpenMetrics.
    static bool isOpenMetricsContentType(const QByteArray &contentType);
    // The canonical key of a series: name{a="x",b="y"} with sorted labels and the exposition
    // escapes, so that equal series give equal keys whatever order the server wrote.
    static QByteArray seriesKey(const QByteArray &name,
                                const QList<QPair<QByteArray, QByteArray>> &labels);
    // Inverse of seriesKey(); false for a string seriesKey() cannot have produced.
    static bool splitSeriesKey(const QByteArray &key, QByteArray *name,
                               QList<QPair<QByteArray, QByteArray>> *labels);
};

} // namespace sb
