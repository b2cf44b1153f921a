#pragma once

#include <QString>

namespace sb {

// The core's message catalogue (sb::Message) for one language, compiled into the core. The
// workbench installs it beside its own catalogue when the user picks a language; servebench-cli
// installs it when the locale asks for Chinese. Needs a QCoreApplication. "en" or "" removes it:
// English is the catalogue's source language.
bool installCoreTranslation(const QString &language);
void removeCoreTranslation();
QString coreTranslationLanguage(); // "en" when none is installed

// The core languages shipped besides English ("zh_CN").
QStringList coreTranslationLanguages();

// The language the environment asks for, read as gettext does: LC_ALL, else LC_MESSAGES, else
// LANG; LANGUAGE (a colon list) takes precedence unless the locale is C/POSIX. "zh_CN" for any
// zh_* or zh, else "en".
QString languageFromEnvironment();

} // namespace sb
