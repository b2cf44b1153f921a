#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace sb {

// A text the core hands to a person: a stable identifier plus its arguments. The core never
// decides the language. text() is the English wording (what files, JSON and logs store, so they
// read the same on every machine); translated() is the wording in the language the application
// installed (the workbench's choice, or the CLI's locale), looked up in the translation catalogue
// under the context "sb::Message" with the identifier as disambiguation. Every identifier and its
// English template live in one catalogue (message.cpp), so a missing translation is a test
// failure, not a surprise in front of a reader.
class Message
{
public:
    Message() = default;
    // id must be in the catalogue; args replace %1, %2, … in order.
    explicit Message(const char *id, const QStringList &args = {});

    const char *id() const { return m_id; }
    const QStringList &args() const { return m_args; }
    bool isEmpty() const { return m_id == nullptr; }

    QString text() const;       // English
    QString translated() const; // the installed language, English where no translation exists

    // Every identifier of the catalogue, with its English template (for tests and tools).
    static QList<QPair<const char *, const char *>> catalogue();
    static bool known(const char *id);
    static constexpr const char *kContext = "sb::Message";

private:
    const char *m_id = nullptr;
    QStringList m_args;
};

} // namespace sb

Q_DECLARE_METATYPE(sb::Message)
