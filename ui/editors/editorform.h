#pragma once

#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

class QLabel;
class QScrollArea;
class QWidget;

namespace sb {

// The pieces the SUT, dataset and load-profile editors build their forms from, so the three
// look and behave alike.

// A frameless scroll area whose page (scroll->widget()) reflows to the width it gets: a sideways
// scroll bar would hide the error lines under the fields.
QScrollArea *makeFormScrollArea(QWidget *parent);

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
