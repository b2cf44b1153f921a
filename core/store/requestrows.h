#pragma once

#include <QString>

class QSqlQuery;

namespace sb {

struct RequestRecord;

// The mapping between a RequestRecord and a row of the requests table, shared by the writer
// thread (insert) and ProjectStore (select) so the two cannot drift apart.
class RequestRows
{
public:
    static QString insertSql(); // positional placeholders, run id first
    static void bind(QSqlQuery &q, qint64 runId, const RequestRecord &r);

    static QString selectColumns(); // the columns read() expects, in order
    static bool read(const QSqlQuery &q, RequestRecord *r, QString *error);
};

} // namespace sb
