#pragma once

// Every text a person can read in a widget tree: labels, buttons, group titles, tabs, text boxes,
// combo box items, item views' cells and headers with their tooltips, chart titles, axes and
// series names, widget tooltips. Shared by the tests that read views in a language.

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTextDocumentFragment>
#include <QTextEdit>

namespace viewtexts {

using namespace Qt::StringLiterals;

inline QString plain(const QString &s)
{
    return Qt::mightBeRichText(s) ? QTextDocumentFragment::fromHtml(s).toPlainText() : s;
}

inline void modelTexts(const QAbstractItemModel *m, const QModelIndex &parent, QStringList *out)
{
    for (int r = 0; r < m->rowCount(parent); ++r)
        for (int c = 0; c < m->columnCount(parent); ++c) {
            const QModelIndex i = m->index(r, c, parent);
            *out << i.data(Qt::DisplayRole).toString() << i.data(Qt::ToolTipRole).toString();
            if (c == 0 && m->hasChildren(i))
                modelTexts(m, i, out);
        }
    if (!parent.isValid()) {
        for (int c = 0; c < m->columnCount(); ++c)
            *out << m->headerData(c, Qt::Horizontal).toString()
                 << m->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
    }
}

// Every text a person can read in `root`, hidden tab pages included.
inline QStringList shownTexts(QWidget *root, const QList<QWidget *> &skip = {})
{
    QStringList out;
    QStringList converted;
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *w : std::as_const(widgets)) {
        bool skipped = false;
        for (QWidget *s : skip)
            skipped = skipped || s == w || s->isAncestorOf(w);
        if (skipped)
            continue;
        out << w->toolTip();
        if (auto *l = qobject_cast<QLabel *>(w)) {
            // A rich-text label reads as its plain text (once: a run named "<script>" stays).
            if (l->textFormat() == Qt::RichText)
                converted << QTextDocumentFragment::fromHtml(l->text()).toPlainText();
            else
                out << l->text();
        }
        if (auto *b = qobject_cast<QAbstractButton *>(w))
            out << b->text();
        if (auto *g = qobject_cast<QGroupBox *>(w))
            out << g->title();
        if (auto *t = qobject_cast<QTabWidget *>(w))
            for (int i = 0; i < t->count(); ++i)
                out << t->tabText(i) << t->tabToolTip(i);
        if (auto *e = qobject_cast<QPlainTextEdit *>(w))
            out << e->toPlainText();
        if (auto *e = qobject_cast<QTextEdit *>(w))
            out << e->toPlainText();
        if (auto *e = qobject_cast<QLineEdit *>(w))
            out << e->text() << e->placeholderText();
        if (auto *c = qobject_cast<QComboBox *>(w))
            for (int i = 0; i < c->count(); ++i)
                out << c->itemText(i);
        if (auto *v = qobject_cast<QAbstractItemView *>(w); v && v->model())
            modelTexts(v->model(), {}, &out);
        if (auto *cv = qobject_cast<QChartView *>(w); cv && cv->chart()) {
            QChart *chart = cv->chart();
            out << chart->title();
            for (QAbstractAxis *a : chart->axes())
                out << a->titleText();
            for (QAbstractSeries *s : chart->series())
                out << s->name();
        }
    }
    QStringList cleaned;
    for (const QString &s : std::as_const(out))
        if (!s.trimmed().isEmpty())
            cleaned << plain(s);
    for (const QString &s : std::as_const(converted))
        if (!s.trimmed().isEmpty())
            cleaned << s;
    return cleaned;
}

} // namespace viewtexts
