#include "selectiontsv.h"

#include <QAbstractItemModel>
#include <QMap>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace sb {

QString tsvCell(const QVariant &v)
{
    QString s = v.toString();
    s.replace(u'\t', u' ');
    s.replace(u'\n', u' ');
    s.replace(u'\r', u' ');
    return s;
}

QString selectionToTsv(const QModelIndexList &indexes, bool withHeader)
{
    if (indexes.isEmpty())
        return {};
    const QAbstractItemModel *model = indexes.constFirst().model();
    QMap<int, QMap<int, QString>> grid; // row -> column -> text, both ascending
    QSet<int> columnSet;
    for (const QModelIndex &i : indexes) {
        if (!i.isValid() || i.model() != model)
            continue;
        grid[i.row()][i.column()] = tsvCell(i.data(Qt::DisplayRole));
        columnSet.insert(i.column());
    }
    QList<int> columns(columnSet.cbegin(), columnSet.cend());
    std::sort(columns.begin(), columns.end());

    QString out;
    if (withHeader) {
        QStringList h;
        for (int c : std::as_const(columns))
            h.append(tsvCell(model->headerData(c, Qt::Horizontal, Qt::DisplayRole)));
        out += h.join(u'\t') + u'\n';
    }
    for (auto r = grid.cbegin(); r != grid.cend(); ++r) {
        QStringList line;
        for (int c : std::as_const(columns))
            line.append(r.value().value(c));
        out += line.join(u'\t') + u'\n';
    }
    return out;
}

} // namespace sb
