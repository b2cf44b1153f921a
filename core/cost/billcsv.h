#pragma once

#include "cost/billitem.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

// One problem in a bill CSV, located by record: row 1 is the header, row 2 the first bill
// line (the row numbers a spreadsheet shows, unless a quoted field spans lines; `line` is the
// text line on which the record starts).
struct BillCsvError
{
    int row = 0; // 0 when the CSV itself cannot be read (quoting, encoding)
    int line = 0;
    QString column; // empty when the problem is not one column's
    QString message;

    // "row 3, column 'start': ...", or "line 7: ..." when broken quoting hides the row.
    QString toString() const;
};

struct BillCsvResult
{
    QList<BillItem> items;      // all rows, or nothing when any row is wrong
    QList<BillCsvError> errors; // every problem found, in row order

    bool ok() const { return errors.isEmpty(); }
};

// Imports bill lines from CSV (docs/cost.md lists the columns). A header row is required and
// columns are found by name (case-insensitive, any order); unknown and duplicate columns are
// errors so that a misspelt optional column cannot silently fall back to its default. The
// import is all or nothing: one bad row means an error list and no items.
class BillCsv
{
public:
    static QStringList columns();         // every accepted column, in documented order
    static QStringList requiredColumns(); // category, start, end, amount, currency

    static BillCsvResult parse(const QByteArray &utf8);
    static BillCsvResult readFile(const QString &path);
};

} // namespace sb
