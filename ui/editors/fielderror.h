#pragma once

#include <QHash>
#include <QLabel>
#include <QStringList>

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

// The error lines of one editor, by field key: every editor shows, lists and looks up its
// messages the same way.
class FieldErrors
{
public:
    void insert(const QString &key, FieldError *line) { m_lines.insert(key, line); }
    // A new error line for key (object name "error_<key>", as the tests find it) under field,
    // wrapped for a QFormLayout row.
    QWidget *wrap(const QString &key, QWidget *field, QWidget *parent);
    // Shows each field's message (a field without one is cleared); QHash or QMap of key → text.
    template <typename Messages> void show(const Messages &messages)
    {
        for (auto it = m_lines.begin(); it != m_lines.end(); ++it)
            it.value()->setError(messages.value(it.key()));
    }
    bool allClear() const;
    QStringList errors() const;
    QString errorFor(const QString &field) const;

private:
    QHash<QString, FieldError *> m_lines;
};

} // namespace sb
