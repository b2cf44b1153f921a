#pragma once

#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

class QFormLayout;
class QLabel;
class QScrollArea;
class QWidget;

namespace sb {

// The pieces the SUT, dataset and load-profile editors build their forms from, so the three
// look and behave alike.

// A frameless scroll area whose page (scroll->widget()) reflows to the width it gets: a sideways
// scroll bar would hide the error lines under the fields. Having none, it asks its layout (a
// splitter, the editor) for at least the page's minimum width and prefers the page's preferred
// width, so no field, combo box or label is ever cut at its right edge, in any language.
QScrollArea *makeFormScrollArea(QWidget *parent);

// A form's rows: a field that does not fit beside its label goes under it (a label twice as wide
// in another language, a long combo box item), and fields take the width the form has.
void setUpFormLayout(QFormLayout *form);

// Every combo box of the page as wide as its longest item, asked again after each retranslation:
// a combo box caches its size from before its items had texts (they are set in retranslateUi), so
// a form would give it less than its text and cut it ("Trace format", "Run as").
// The spin boxes likewise, their "special value" text included ("Bound percentile").
void holdComboWidths(QWidget *page);

void holdSpinBoxWidths(QWidget *page);

// A line edit that holds a file path: room for a typical one (a dataset such as
// ~/data/ShareGPT_V3_unfiltered_cleaned_split.json) before it scrolls.
void reservePathWidth(QWidget *edit);

// An editor just filled with another entity opens at the top of its form. Without this, it kept
// the previous entity's scroll position, and typing went into the wrong fields.
void scrollFormToTop(QScrollArea *scroll);
// A new entity's editor also gives its first field the focus: now if the editor shows, otherwise
// as soon as it is shown (the main window shows the editor after filling it). Only for a new
// entity: an editor filled because the user moved through the project tree leaves the focus in
// the tree.
void focusFormField(QScrollArea *scroll, QWidget *firstField);

// The editor's heading: the default font, 1.3 times larger, bold.
QLabel *makeEditorTitle(QWidget *parent);

// Row labels by field key: made once with their buddy, their texts set (and reset on a language
// switch) from one list in the editor's retranslateUi().
class FormLabels
{
public:
    QLabel *add(const QString &key, QWidget *buddy, QWidget *parent);
    // Keys without a label are skipped (an editor may show fewer rows than another lists).
    void setTexts(const QList<QPair<QString, QString>> &texts);

private:
    QHash<QString, QLabel *> m_labels;
};

} // namespace sb
