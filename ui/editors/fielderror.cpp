#include "fielderror.h"

#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sb {

FieldError::FieldError(QWidget *parent) : QLabel(parent)
{
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The palette's "negative" colour is not in Qt 6.4 styles; a fixed red reads on light and dark.
    setStyleSheet(u"color: #c62828;"_s);
    setVisible(false);
}

void FieldError::setError(const QString &message)
{
    m_error = message;
    setText(message);
    setVisible(!message.isEmpty());
}

QWidget *FieldError::wrap(QWidget *field, FieldError *error, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(field);
    layout->addWidget(error);
    return box;
}

QWidget *FieldErrors::wrap(const QString &key, QWidget *field, QWidget *parent)
{
    auto *line = new FieldError(parent);
    line->setObjectName(u"error_"_s + key);
    insert(key, line);
    return FieldError::wrap(field, line, parent);
}

bool FieldErrors::allClear() const
{
    for (const FieldError *line : m_lines)
        if (line->hasError())
            return false;
    return true;
}

QStringList FieldErrors::errors() const
{
    QStringList out;
    for (auto it = m_lines.cbegin(); it != m_lines.cend(); ++it)
        if (it.value()->hasError())
            out << it.value()->error();
    return out;
}

QString FieldErrors::errorFor(const QString &field) const
{
    const FieldError *line = m_lines.value(field);
    return line ? line->error() : QString();
}

} // namespace sb
