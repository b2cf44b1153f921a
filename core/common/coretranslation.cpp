#include "coretranslation.h"

#include <QCoreApplication>
#include <QStringList>
#include <QTranslator>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

struct State
{
    QTranslator *translator = nullptr;
    QString language = u"en"_s;
};

State &state()
{
    static State s;
    return s;
}

QString shipped(const QString &code)
{
    // "zh", "zh_CN", "zh_CN.UTF-8", "zh-Hans-CN", "zh_TW"...: the one Chinese catalogue.
    return code.startsWith("zh"_L1, Qt::CaseInsensitive) ? u"zh_CN"_s : u"en"_s;
}

} // namespace

QStringList coreTranslationLanguages()
{
    return {u"zh_CN"_s};
}

void removeCoreTranslation()
{
    State &s = state();
    if (s.translator) {
        QCoreApplication::removeTranslator(s.translator);
        delete s.translator;
        s.translator = nullptr;
    }
    s.language = u"en"_s;
}

bool installCoreTranslation(const QString &language)
{
    const QString lang = language.isEmpty() ? u"en"_s : shipped(language);
    State &s = state();
    if (lang == s.language && (lang == "en"_L1 || s.translator))
        return true;
    removeCoreTranslation();
    if (lang == "en"_L1)
        return true;
    auto *t = new QTranslator();
    if (!t->load(u":/i18n/servebench_core_%1.qm"_s.arg(lang)) ||
        !QCoreApplication::installTranslator(t)) {
        delete t;
        return false;
    }
    s.translator = t;
    s.language = lang;
    return true;
}

QString coreTranslationLanguage()
{
    return state().language;
}

QString languageFromEnvironment()
{
    QString locale;
    for (const char *var : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        locale = qEnvironmentVariable(var);
        if (!locale.isEmpty())
            break;
    }
    const bool cLocale =
        locale.isEmpty() || locale == "C"_L1 || locale.startsWith("C."_L1) || locale == "POSIX"_L1;
    if (!cLocale) {
        const QStringList preferred =
            qEnvironmentVariable("LANGUAGE").split(u':', Qt::SkipEmptyParts);
        if (!preferred.isEmpty())
            return shipped(preferred.constFirst());
    }
    return cLocale ? u"en"_s : shipped(locale);
}

} // namespace sb
