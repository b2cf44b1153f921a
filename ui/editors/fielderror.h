#pragma once

#include <QLabel>

namespace sb {

// The message shown right under an invalid field; hidden while the field is fine. Editors keep
// one per field so a test (and a user) sees which field is wrong, not a list at the bottom.
class FieldError : public QLabel
{
    Q_OBJECT
public:
    explicit FieldError(QWidget *parent = nullptr);

    void setError(const QString &message);
    QString error() const { return m_error; }
    bool hasError() const { return !m_error.isEmpty(); }

    // A widget holding field above its error line, for a QFormLayout row.
    static QWidget *wrap(QWidget *field, FieldError *error, QWidget *parent);

private:
    QString m_error;
};

} // namespace sb
