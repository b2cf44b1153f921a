#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

class CostStore;

// What importing one bill CSV into a project did: the CLI's `bills import` and the workbench's
// Cost tab both call importBillFile(), so they store the same items and say the same things.
struct BillFileImport
{
    QList<qint64> rowIds; // the stored items' rows, in file order; empty: nothing imported
    // Every problem, each naming the file and its row (row 1 is the header) or line and the
    // column: "bills.csv: row 3, column 'amount': ..." (docs/cost.md, "CSV import").
    QStringList errors;
    // Why nothing was imported, naming the file ("bills.csv: nothing imported (2 problem(s))");
    // empty on success.
    QString failure;
    // On success: a remark that does not stop the import (the SUT is not in the project yet).
    QString note;

    bool ok() const { return !rowIds.isEmpty(); }
};

// Reads the bill CSV at `path` (BillCsv) and stores all its items for `sut` (empty: shared by
// every SUT) in one transaction (CostStore::importBillItems), or none of them. Works on the
// store the caller opened read-write, in the caller's thread.
BillFileImport importBillFile(CostStore &costs, const QString &path, const QString &sut);

// The note importBillFile() gives when `sut` is not one of the project's SUT names
// (CostStore::sutNames); empty when it is.
QString unknownSutNote(const CostStore &costs, const QString &sut);

} // namespace sb
