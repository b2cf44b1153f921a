#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QTranslator;

namespace sb {

// Installs the translation for the chosen language. Installing a translator makes Qt send
// QEvent::LanguageChange to every widget, and each of ours retranslates itself there, so a
// switch takes effect at once without a restart.
class LanguageSwitcher : public QObject
{
    Q_OBJECT
public:
    explicit LanguageSwitcher(QObject *parent = nullptr);
    ~LanguageSwitcher() override;

    // Locale names we ship, the source language first.
    static QStringList availableLanguages();
    // In the language itself ("简体中文"), so a user who cannot read the current one finds theirs.
    static QString nativeName(const QString &code);
    // "" (follow the system) -> the shipped language that best matches the system locale.
    static QString resolve(const QString &code);

    // Returns false (and keeps English) when the catalogue is missing from the resources.
    bool apply(const QString &code);
    QString current() const { return m_current; }

signals:
    void languageChanged(const QString &code);

private:
    QTranslator *m_app = nullptr;
    QTranslator *m_qt = nullptr;
    QString m_current = QStringLiteral("en");
};

} // namespace sb
