#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace sb {

// RFC 4180 records: comma-separated, fields optionally in double quotes with "" for a quote,
// quoted fields may hold commas and line breaks. CRLF and LF both end a record. Strict where
// the RFC is: a quote inside an unquoted field, text after a closing quote and an unterminated
// quote are errors, because guessing there would shift columns silently.
class CsvReader
{
public:
    struct Record
    {
        QStringList fields;
        int line = 0; // 1-based line on which the record starts
    };

    // Parses the whole text; blank lines are skipped. On failure returns false and sets
    // *error / *errorLine.
    static bool parse(QStringView text, QList<Record> *records, QString *error, int *errorLine);
};

} // namespace sb
