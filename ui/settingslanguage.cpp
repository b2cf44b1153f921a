#include "settingslanguage.h"

#include "common/coretranslation.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

using namespace Qt::StringLiterals;

namespace sb {

LanguageSwitcher::LanguageSwitcher(QObject *parent) : QObject(parent) {}

LanguageSwitcher::~LanguageSwitcher()
{
    if (m_app)
        QCoreApplication::removeTranslator(m_app);
    if (m_qt)
        QCoreApplication::removeTranslator(m_qt);
    removeCoreTranslation();
}

QStringList LanguageSwitcher::availableLanguages()
{
    return {u"en"_s, u"zh_CN"_s};
}

QString LanguageSwitcher::nativeName(const QString &code)
{
    if (code == "zh_CN"_L1)
        return u"简体中文"_s;
    if (code == "en"_L1)
        return u"English"_s;
    return code;
}

QString LanguageSwitcher::resolve(const QString &code)
{
    if (availableLanguages().contains(code))
        return code;
    // uiLanguages() lists the user's preferences in order ("zh-Hans-CN", "zh-CN", "en-US" ...).
    const QStringList preferred = QLocale::system().uiLanguages();
    for (const QString &lang : preferred) {
        if (lang.startsWith("zh"_L1, Qt::CaseInsensitive))
            return u"zh_CN"_s;
        if (lang.startsWith("en"_L1, Qt::CaseInsensitive))
            return u"en"_s;
    }
    return u"en"_s;
}

bool LanguageSwitcher::apply(const QString &code)
{
    const QString lang = resolve(code);
    if (m_app) {
        QCoreApplication::removeTranslator(m_app);
        delete m_app;
        m_app = nullptr;
    }
    if (m_qt) {
        QCoreApplication::removeTranslator(m_qt);
        delete m_qt;
        m_qt = nullptr;
    }
    bool ok = true;
    // The core's texts (verdicts, notes, metric definitions, MLPerf reasons) follow the same
    // language; English removes its catalogue.
    if (!installCoreTranslation(lang))
        ok = false;
    if (lang != "en"_L1 && ok) {
        m_app = new QTranslator(this);
        if (m_app->load(u":/i18n/servebench_%1.qm"_s.arg(lang))) {
            QCoreApplication::installTranslator(m_app);
            // Qt's own strings (standard buttons, file dialogs); optional, shipped by the distro.
            m_qt = new QTranslator(this);
            if (m_qt->load(QLocale(lang), u"qtbase"_s, u"_"_s,
                           QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
                QCoreApplication::installTranslator(m_qt);
            else {
                delete m_qt;
                m_qt = nullptr;
            }
        } else {
            delete m_app;
            m_app = nullptr;
            ok = false;
        }
    }
    if (!ok)
        removeCoreTranslation();
    const QString now = ok ? lang : u"en"_s;
    // Installing or removing a translator already posts LanguageChange; the signal is for
    // non-widget listeners (menus marking the checked language).
    if (now != m_current) {
        m_current = now;
        emit languageChanged(now);
    } else {
        m_current = now;
    }
    return ok;
}

} // namespace sb
