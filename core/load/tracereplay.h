#pragma once

#include <QList>
#include <QString>

namespace sb {

// One row of an arrival trace (JSONL, one object per line):
//   {"timestamp": 12.5, "input_tokens": 812, "output_tokens": 64}
//   {"timestamp": 13.0, "prompt": "...", "output_tokens": 64}
// timestamp is in seconds (any origin: epoch seconds work, offsets are taken from the first row).
// A row needs a timestamp and either input_tokens or prompt; output_tokens is optional.
struct TraceRow
{
    double timestampS = 0;
    qint32 inputTokens = -1;  // -1: not given (the row has a prompt)
    qint32 outputTokens = -1; // -1: not given
    QString prompt;
    int line = 0; // 1-based line in the file, for messages that point back at it
};

// Reads a trace. Blank lines are skipped. Errors name the line and the field, e.g.
// "trace.jsonl:3: field 'timestamp' is missing or not a number". Timestamps must be finite,
// >= 0 and non-decreasing (a replay that went back in time would be a broken schedule).
bool loadTrace(const QString &path, QList<TraceRow> *rows, QString *error);
bool parseTrace(const QByteArray &data, const QString &sourceName, QList<TraceRow> *rows,
                QString *error);

// Send offsets (ns) for the first n rows (all rows when n <= 0 or n > rows.size()):
// (timestamp_i - timestamp_0) * timeScale. timeScale 0.5 replays twice as fast; 0 sends all at
// once. A negative or non-finite timeScale gives an empty list.
QList<qint64> buildTraceSchedule(const QList<TraceRow> &rows, double timeScale, int n = -1);

} // namespace sb
