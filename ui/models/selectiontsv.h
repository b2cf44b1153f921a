#pragma once

#include <QModelIndexList>
#include <QString>

namespace sb {

// Tab-separated text of a table selection, for the clipboard: rows and columns in the view's
// order (the indexes' own model, i.e. the proxy, so sorting and filtering are what is copied),
// a header line of the selected columns when withHeader, empty cells for unselected ones inside
// the bounding rectangle. Tabs and newlines inside a cell become spaces so a spreadsheet paste
// keeps its shape.
QString selectionToTsv(const QModelIndexList &indexes, bool withHeader);
// A cell's text as selectionToTsv() writes it (tabs and newlines become spaces).
QString tsvCell(const QVariant &value);

} // namespace sb
