#pragma once

#include <QString>

class QSqlQuery;
struct sqlite3_stmt;

namespace sb {

struct RequestRecord;

// The mapping between a RequestRecord and a row of the requests table, shared by the writer
// thread (insert) and ProjectStore (select) so the two cannot drift apart.
class RequestRows
{
public:
    // Positional placeholders, run id first. withSessionColumns false writes a file older than
    // ProjectSchema::sessionColumnsVersion() (tests that make old files); bind() must match.
    static QString insertSql(bool withSessionColumns = true);
    static void bind(QSqlQuery &q, qint64 runId, const RequestRecord &r,
                     bool withSessionColumns = true);

    // The columns read() expects, in order. Without the session columns (a file older than
    // ProjectSchema::sessionColumnsVersion()), their defaults are selected in their place.
    static QString selectColumns(bool withSessionColumns = true);
    // Reads the current row of a statement selecting selectColumns(). Straight from SQLite's
    // column accessors: a million rows of QVariants cost seconds that a project's summary
    // should not (issue 6's scale goal).
    // withChunks false: the chunk lists stay empty (and the blob is not decoded) unless the
    // record has no output count of its own, which the summary then takes from its chunks.
    // *chunkCount (optional) receives the stored number of chunks either way.
    static bool read(sqlite3_stmt *st, RequestRecord *r, QString *error, bool withChunks = true,
                     qint64 *chunkCount = nullptr);
};

} // namespace sb
