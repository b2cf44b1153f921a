#include "settings.h"

#include <QCryptographicHash>
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
constexpr auto kLastProject = "projects/last"_L1;
constexpr auto kCurrentTab = "window/currentTab"_L1;
constexpr auto kCompareLayout = "compare/layout"_L1;
// compare/projects: the projects with a stored state, most recent first; each state lives in the
// group compare/<key>, where <key> is compareKey(path): a path's slashes would nest groups.
constexpr auto kCompareProjects = "compare/projects"_L1;
constexpr auto kComparePath = "path"_L1;
constexpr auto kCompareRuns = "runs"_L1;
constexpr auto kCompareBaseline = "baseline"_L1;
constexpr auto kCompareRankBy = "rankBy"_L1;

QString compareKey(const QString &projectPath)
{
    return u"compare/p"_s +
           QString::fromLatin1(
               QCryptographicHash::hash(projectPath.toUtf8(), QCryptographicHash::Sha1).toHex());
}
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
    // On by default: a restart comes back to the project the user left (the issue's "views
    // follow the project"); the status bar says when that file is gone.
    return m_settings->value(kReopenLast, true).toBool();
}
void Settings::setReopenLastProject(bool reopen)
{
    m_settings->setValue(kReopenLast, reopen);
}

QString Settings::lastProject() const
{
    return m_settings->value(kLastProject).toString();
}
void Settings::setLastProject(const QString &path)
{
    m_settings->setValue(kLastProject, path);
}

Settings::CompareState Settings::compareState(const QString &projectPath) const
{
    CompareState state;
    if (projectPath.isEmpty())
        return state;
    m_settings->beginGroup(compareKey(projectPath));
    // A hash collision would hand over another project's ids: the stored path must match.
    if (m_settings->value(kComparePath).toString() == projectPath) {
        for (const QString &id : m_settings->value(kCompareRuns).toStringList())
            if (const qint64 run = id.toLongLong(); run > 0)
                state.runs.append(run);
        state.baseline = m_settings->value(kCompareBaseline, 0).toLongLong();
        state.rankBy = m_settings->value(kCompareRankBy).toString();
    }
    m_settings->endGroup();
    return state;
}

void Settings::setCompareState(const QString &projectPath, const CompareState &state)
{
    if (projectPath.isEmpty())
        return;
    QStringList runs;
    for (qint64 id : state.runs)
        runs << QString::number(id);
    m_settings->beginGroup(compareKey(projectPath));
    m_settings->setValue(kComparePath, projectPath);
    m_settings->setValue(kCompareRuns, runs);
    m_settings->setValue(kCompareBaseline, state.baseline);
    m_settings->setValue(kCompareRankBy, state.rankBy);
    m_settings->endGroup();
    // Bounded: the states of projects not used for a long time are dropped.
    QStringList order = m_settings->value(kCompareProjects).toStringList();
    order.removeAll(projectPath);
    order.prepend(projectPath);
    while (order.size() > kMaxCompareProjects)
        m_settings->remove(compareKey(order.takeLast()));
    m_settings->setValue(kCompareProjects, order);
}

QByteArray Settings::compareLayout() const
{
    return m_settings->value(kCompareLayout).toByteArray();
}
void Settings::setCompareLayout(const QByteArray &layout)
{
    m_settings->setValue(kCompareLayout, layout);
}

int Settings::currentTab() const
{
    return m_settings->value(kCurrentTab, -1).toInt();
}
void Settings::setCurrentTab(int index)
{
    m_settings->setValue(kCurrentTab, index);
}

void Settings::sync()
{
    m_settings->sync();
}

} // namespace sb
