#include "editorform.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QFrame>
#include <QLabel>
#include <QPointer>
#include <QScrollArea>
#include <QScrollBar>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

class FormScrollArea : public QScrollArea
{
public:
    using QScrollArea::QScrollArea;

    QSize minimumSizeHint() const override
    {
        return withPage(QScrollArea::minimumSizeHint(), true);
    }
    QSize sizeHint() const override { return withPage(QScrollArea::sizeHint(), false); }

protected:
    bool eventFilter(QObject *o, QEvent *e) override
    {
        // The page's size hints change with its texts (a language switch, a longer message):
        // the splitter or layout holding the area must ask again.
        if (o == widget() && e->type() == QEvent::LayoutRequest)
            updateGeometry();
        return QScrollArea::eventFilter(o, e);
    }

private:
    QSize withPage(QSize own, bool minimum) const
    {
        if (!widget())
            return own;
        const int page =
            minimum ? widget()->minimumSizeHint().width() : widget()->sizeHint().width();
        own.setWidth(std::max(own.width(),
                              page + verticalScrollBar()->sizeHint().width() + 2 * frameWidth()));
        return own;
    }
};

// Gives the field the focus when the scroll area is next shown (once).
class FocusOnShow : public QObject
{
public:
    using QObject::QObject;
    QPointer<QWidget> target;

protected:
    bool eventFilter(QObject *, QEvent *e) override
    {
        if (e->type() == QEvent::Show && target) {
            target->setFocus(Qt::OtherFocusReason);
            target = nullptr;
        }
        return false;
    }
};

} // namespace

QScrollArea *makeFormScrollArea(QWidget *parent)
{
    auto *scroll = new FormScrollArea(parent);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(new QWidget(scroll));
    scroll->widget()->installEventFilter(scroll);
    return scroll;
}

void setUpFormLayout(QFormLayout *form)
{
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

void holdComboWidths(QWidget *page)
{
    for (QComboBox *c : page->findChildren<QComboBox *>()) {
        // AdjustToContents: a new item text drops the cached size hint.
        c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        c->setMinimumWidth(0);
        c->setMinimumWidth(c->sizeHint().width());
    }
    holdSpinBoxWidths(page);
}

void holdSpinBoxWidths(QWidget *page)
{
    for (QAbstractSpinBox *s : page->findChildren<QAbstractSpinBox *>()) {
        // Its size hint keeps 2 px for the cursor, its line edit 2 px on either side of the text:
        // at that width a "special value" text loses its first letters.
        s->setMinimumWidth(0);
        s->setMinimumWidth(s->sizeHint().width() + 4);
    }
}

void reservePathWidth(QWidget *edit)
{
    edit->setMinimumWidth(edit->fontMetrics().horizontalAdvance(u'x') * 56);
}

void scrollFormToTop(QScrollArea *scroll)
{
    scroll->verticalScrollBar()->setValue(0);
    scroll->horizontalScrollBar()->setValue(0);
}

void focusFormField(QScrollArea *scroll, QWidget *firstField)
{
    scrollFormToTop(scroll);
    // setFocus() on a hidden widget does not take: a hidden editor focuses when it is shown.
    static const QString name = u"sb_focusOnShow"_s;
    auto *pending =
        static_cast<FocusOnShow *>(scroll->findChild<QObject *>(name, Qt::FindDirectChildrenOnly));
    if (!pending) {
        pending = new FocusOnShow(scroll);
        pending->setObjectName(name);
        scroll->installEventFilter(pending);
    }
    pending->target = scroll->isVisible() ? nullptr : firstField;
    if (scroll->isVisible())
        firstField->setFocus(Qt::OtherFocusReason);
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
