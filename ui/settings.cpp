#include "settings.h"

#include <QSettings>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// The one place where keys are spelled.
constexpr auto kLanguage = "ui/language"_L1;
constexpr auto kRecent = "projects/recent"_L1;
constexpr auto kReopenLast = "projects/reopenLast"_L1;
constexpr auto kGeometry = "window/geometry"_L1;
constexpr auto kState = "window/state"_L1;
constexpr auto kStateVersion = "window/stateVersion"_L1;
constexpr auto kDatasetDir = "paths/datasetDirectory"_L1;
constexpr auto kProjectDir = "paths/projectDirectory"_L1;
} // namespace

Settings::Settings() : m_settings(new QSettings) {}

Settings::Settings(const QString &iniPath)
    : m_settings(new QSettings(iniPath, QSettings::IniFormat))
{}

Settings::~Settings()
{
    m_settings->sync();
    delete m_settings;
}

QString Settings::language() const
{
    return m_settings->value(kLanguage).toString();
}
void Settings::setLanguage(const QString &code)
{
    m_settings->setValue(kLanguage, code);
}

QStringList Settings::recentProjects() const
{
    return m_settings->value(kRecent).toStringList();
}

void Settings::addRecentProject(const QString &path)
{
    if (path.isEmpty())
        return;
    QStringList list = recentProjects();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecentProjects)
        list.removeLast();
    m_settings->setValue(kRecent, list);
}

void Settings::removeRecentProject(const QString &path)
{
    QStringList list = recentProjects();
    list.removeAll(path);
    m_settings->setValue(kRecent, list);
}

void Settings::clearRecentProjects()
{
    m_settings->remove(kRecent);
}

QByteArray Settings::windowGeometry() const
{
    return m_settings->value(kGeometry).toByteArray();
}
void Settings::setWindowGeometry(const QByteArray &geometry)
{
    m_settings->setValue(kGeometry, geometry);
}

QByteArray Settings::windowState() const
{
    if (windowStateVersion() != kWindowStateVersion)
        return {};
    return m_settings->value(kState).toByteArray();
}

int Settings::windowStateVersion() const
{
    return m_settings->value(kStateVersion, 0).toInt();
}

void Settings::setWindowState(const QByteArray &state)
{
    m_settings->setValue(kState, state);
    m_settings->setValue(kStateVersion, kWindowStateVersion);
}

QString Settings::lastDatasetDirectory() const
{
    return m_settings->value(kDatasetDir).toString();
}
void Settings::setLastDatasetDirectory(const QString &dir)
{
    m_settings->setValue(kDatasetDir, dir);
}
QString Settings::lastProjectDirectory() const
{
    return m_settings->value(kProjectDir).toString();
}
void Settings::setLastProjectDirectory(const QString &dir)
{
    m_settings->setValue(kProjectDir, dir);
}

bool Settings::reopenLastProject() const
{
    return m_settings->value(kReopenLast, false).toBool();
}
void Settings::setReopenLastProject(bool reopen)
{
    m_settings->setValue(kReopenLast, reopen);
}

void Settings::sync()
{
    m_settings->sync();
}

} // namespace sb
