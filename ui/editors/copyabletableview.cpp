#include "copyabletableview.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMap>
#include <QMenu>

using namespace Qt::StringLiterals;

namespace sb {

CopyableTableView::CopyableTableView(QWidget *parent) : QTableView(parent)
{
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->setVisible(false);
}

QString CopyableTableView::selectionAsText() const
{
    if (!model() || !selectionModel())
        return {};
    QModelIndexList indexes = selectionModel()->selectedIndexes();
    if (indexes.isEmpty())
        return {};
    std::sort(indexes.begin(), indexes.end());
    QMap<int, QMap<int, QString>> cells;
    QMap<int, bool> columns;
    for (const QModelIndex &i : std::as_const(indexes)) {
        if (isColumnHidden(i.column()))
            continue;
        QString text = i.data(Qt::DisplayRole).toString();
        text.replace(u'\t', u' ').replace(u'\n', u' ');
        cells[i.row()][i.column()] = text;
        columns[i.column()] = true;
    }
    QStringList lines;
    QStringList header;
    for (auto c = columns.cbegin(); c != columns.cend(); ++c)
        header << model()
                      ->headerData(c.key(), Qt::Horizontal)
                      .toString()
                      .replace(u'\t', u' ')
                      .replace(u'\n', u' '); // a two-line header is one TSV field
    lines << header.join(u'\t');
    for (auto r = cells.cbegin(); r != cells.cend(); ++r) {
        QStringList row;
        for (auto c = columns.cbegin(); c != columns.cend(); ++c)
            row << r.value().value(c.key());
        lines << row.join(u'\t');
    }
    return lines.join(u'\n') + u'\n';
}

void CopyableTableView::copySelection() const
{
    const QString text = selectionAsText();
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

void CopyableTableView::keyPressEvent(QKeyEvent *event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

void CopyableTableView::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    QAction *copy = menu.addAction(tr("Copy"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setEnabled(selectionModel() && selectionModel()->hasSelection());
    QAction *all = menu.addAction(tr("Select all"));
    QAction *chosen = menu.exec(event->globalPos());
    if (chosen == copy)
        copySelection();
    else if (chosen == all)
        selectAll();
}

} // namespace sb
