#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

class QSettings;

namespace sb {

// Every persistent preference of the workbench behind typed accessors, so a key is spelled once
// (here) and a wrong type is a compile error rather than a silently empty QVariant.
//
// Window state is versioned: restoreState() refuses a layout saved by a build whose docks and
// toolbars differ, instead of restoring a half-matching layout.
class Settings
{
public:
    // The QSettings file used when none is given: QSettings' default (organisation/application).
    Settings();
    // Tests pass their own ini file so they never touch the user's settings.
    explicit Settings(const QString &iniPath);
    ~Settings();
    Settings(const Settings &) = delete;
    Settings &operator=(const Settings &) = delete;

    // Raise when the main window's docks or toolbars change their object names or meaning.
    static constexpr int kWindowStateVersion = 2;
    static constexpr int kMaxRecentProjects = 8;

    // "" = follow the system locale; otherwise a locale name such as "en" or "zh_CN".
    QString language() const;
    void setLanguage(const QString &code);

    QStringList recentProjects() const;
    // Moves path to the front, drops duplicates and entries beyond kMaxRecentProjects.
    void addRecentProject(const QString &path);
    void removeRecentProject(const QString &path);
    void clearRecentProjects();

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    // Empty when the stored state was written for another kWindowStateVersion.
    QByteArray windowState() const;
    int windowStateVersion() const;
    void setWindowState(const QByteArray &state);

    QString lastDatasetDirectory() const;
    void setLastDatasetDirectory(const QString &dir);
    QString lastProjectDirectory() const;
    void setLastProjectDirectory(const QString &dir);

    // Open the last project on start (false: start with a new project). On unless turned off.
    bool reopenLastProject() const;
    void setReopenLastProject(bool reopen);
    // The project the window showed last (a saved file; empty: a new, unsaved project).
    QString lastProject() const;
    void setLastProject(const QString &path);

    // What the Compare tab showed for one project, kept per project file (keyed by its absolute
    // path): run ids mean nothing in another project.
    struct CompareState
    {
        QList<qint64> runs;  // the ticked runs
        qint64 baseline = 0; // 0: the first ticked run
        QString rankBy;      // `servebench-cli compare --rank-by` syntax; empty: the view's default
        bool operator==(const CompareState &) const = default;
    };
    static constexpr int kMaxCompareProjects = 32;
    // A default CompareState when nothing was stored for the project.
    CompareState compareState(const QString &projectPath) const;
    // Remembered for the kMaxCompareProjects projects used last.
    void setCompareState(const QString &projectPath, const CompareState &state);
    // The Compare tab's splitters (ComparisonView::saveLayout), the same for every project.
    QByteArray compareLayout() const;
    void setCompareLayout(const QByteArray &layout);
    // The main window's current tab (-1: none stored).
    int currentTab() const;
    void setCurrentTab(int index);

    void sync();

private:
    QSettings *m_settings;
};

} // namespace sb
