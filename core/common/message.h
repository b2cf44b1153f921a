#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace sb {

// A text the core hands to a person: a stable identifier plus its arguments. The core never
// decides the language. text() is the English wording (what files, JSON and logs store, so they
// read the same on every machine); translated() is the wording in the language the application
// installed (the workbench's choice, or the CLI's locale), looked up in the translation catalogue
// under the context "sb::Message" with the identifier as disambiguation. Every identifier and its
// English template live in the catalogue (message.cpp, messagecatalogue.cpp), so a missing
// translation is a test failure, not a surprise in front of a reader.
//
// Arguments may themselves be messages (a verdict holding refusals, a warning naming a field),
// so a sentence is translated as a whole, parts included. A literal is a text that is never
// translated: a run's name, a number, a value read from a file.
class Message
{
public:
    Message() = default;
    // id must be in the catalogue; args replace %1, %2, … in order.
    explicit Message(const char *id, const QStringList &args = {});
    Message(const char *id, const QList<Message> &args);
    ~Message();
    Message(const Message &);
    Message(Message &&) noexcept;
    Message &operator=(const Message &);
    Message &operator=(Message &&) noexcept;

    // A text shown as it is in every language.
    static Message literal(const QString &text);
    // The parts one after the other with `separator` between them (untranslated, like ", ").
    static Message join(const QList<Message> &parts, const QString &separator);
    static QList<Message> literals(const QStringList &texts);
    // The catalogue message whose English text `english` is, arguments recovered (themselves
    // recognised where they are catalogue texts); a literal when none matches. For English
    // texts that were stored before they had an identifier (notes in project files, a reason
    // handed over as a string).
    static Message fromEnglish(const QString &english);
    // Compiles fromEnglish()'s patterns now (PCRE JIT, about 20 ms for the catalogue): a view
    // calls it from a worker thread so that the GUI thread's first recognition does not pay it.
    // Thread-safe: each pattern compiles under its own lock, once.
    static void prepareRecognition();

    const char *id() const { return m_id; }
    QStringList args() const; // each argument's English text
    const QList<Message> &argMessages() const { return m_args; }
    bool isEmpty() const { return m_kind == Kind::None; }
    bool isLiteral() const { return m_kind == Kind::Literal; }

    QString text() const;       // English
    QString translated() const; // the installed language, English where no translation exists
    // text() or translated(): for producers that write either language (reports).
    QString text(bool translate) const { return translate ? translated() : text(); }

    bool operator==(const Message &o) const;
    bool operator!=(const Message &o) const { return !(*this == o); }

    // Every identifier of the catalogue, with its English template (for tests and tools).
    static QList<QPair<const char *, const char *>> catalogue();
    static bool known(const char *id);
    static constexpr const char *kContext = "sb::Message";

private:
    enum class Kind : quint8 { None, Catalogue, Literal, Join };
    Kind m_kind = Kind::None;
    const char *m_id = nullptr;
    QString m_literal; // Literal: the text; Join: the separator
    QList<Message> m_args;
};

// Each message's English text / translation, in order.
QStringList messageTexts(const QList<Message> &messages);
QStringList translatedTexts(const QList<Message> &messages);

} // namespace sb

Q_DECLARE_METATYPE(sb::Message)
