#include "billfileimport.h"

#include "cost/billcsv.h"
#include "costproject/coststore.h"

using namespace Qt::StringLiterals;

namespace sb {

QString unknownSutNote(const CostStore &costs, const QString &sut)
{
    const QStringList known = costs.sutNames();
    if (sut.isEmpty() || known.contains(sut))
        return {};
    QStringList names;
    for (const QString &n : known)
        names << u"'%1'"_s.arg(n);
    return u"no SUT named '%1' in the project yet (known: %2); the items are kept for it"_s.arg(
        sut, names.isEmpty() ? u"none"_s : names.join(u", "_s));
}

BillFileImport importBillFile(CostStore &costs, const QString &path, const QString &sut)
{
    BillFileImport out;
    const BillCsvResult parsed = BillCsv::readFile(path);
    if (!parsed.ok()) {
        for (const BillCsvError &e : parsed.errors)
            out.errors << u"%1: %2"_s.arg(path, e.toString());
        out.failure = u"%1: nothing imported (%2 problem(s))"_s.arg(path).arg(parsed.errors.size());
        return out;
    }
    if (parsed.items.isEmpty()) {
        out.failure = u"%1: no bill lines after the header"_s.arg(path);
        return out;
    }
    QList<BillImportProblem> problems;
    out.rowIds = costs.importBillItems(parsed.items, sut, &problems);
    if (out.rowIds.isEmpty()) {
        for (const BillImportProblem &p : problems) {
            QString where = path;
            if (p.index >= 0) // item i is on row i + 2: row 1 is the header
                where += u": row %1"_s.arg(p.index + 2);
            if (!p.column.isEmpty())
                where += u", column '%1'"_s.arg(p.column);
            out.errors << where + u": "_s + p.message;
        }
        out.failure = u"%1: nothing imported"_s.arg(path);
        return out;
    }
    out.note = unknownSutNote(costs, sut);
    return out;
}

} // namespace sb
