#include "editorform.h"

#include <QFrame>
#include <QLabel>
#include <QScrollArea>

namespace sb {

QScrollArea *makeFormScrollArea(QWidget *parent)
{
    auto *scroll = new QScrollArea(parent);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(new QWidget(scroll));
    return scroll;
}

QLabel *makeEditorTitle(QWidget *parent)
{
    auto *title = new QLabel(parent);
    QFont f = title->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    title->setFont(f);
    return title;
}

QLabel *FormLabels::add(const QString &key, QWidget *buddy, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setBuddy(buddy);
    m_labels.insert(key, label);
    return label;
}

void FormLabels::setTexts(const QList<QPair<QString, QString>> &texts)
{
    for (const auto &[key, text] : texts)
        if (QLabel *l = m_labels.value(key))
            l->setText(text);
}

} // namespace sb
