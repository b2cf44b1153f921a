// Typed settings: recent projects stay unique and bounded; a window state written for another
// layout version is not restored.

#include "settings.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestSettings : public QObject
{
    Q_OBJECT
private slots:
    void recentProjects();
    void windowStateVersioned();
    void roundTrips();
    void compareStatePerProject();
};

void TestSettings::recentProjects()
{
    QTemporaryDir dir;
    Settings s(dir.filePath(u"s.ini"_s));
    for (int i = 0; i < Settings::kMaxRecentProjects + 3; ++i)
        s.addRecentProject(u"/p/%1.sbproj"_s.arg(i));
    QCOMPARE(s.recentProjects().size(), Settings::kMaxRecentProjects);
    QCOMPARE(s.recentProjects().first(), u"/p/%1.sbproj"_s.arg(Settings::kMaxRecentProjects + 2));
    s.addRecentProject(u"/p/5.sbproj"_s);
    QCOMPARE(s.recentProjects().first(), u"/p/5.sbproj"_s);
    QCOMPARE(s.recentProjects().count(u"/p/5.sbproj"_s), 1);
    s.removeRecentProject(u"/p/5.sbproj"_s);
    QVERIFY(!s.recentProjects().contains(u"/p/5.sbproj"_s));
    s.clearRecentProjects();
    QVERIFY(s.recentProjects().isEmpty());
}

void TestSettings::windowStateVersioned()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"s.ini"_s);
    {
        Settings s(path);
        s.setWindowState("state-bytes");
        QCOMPARE(s.windowState(), QByteArray("state-bytes"));
        QCOMPARE(s.windowStateVersion(), Settings::kWindowStateVersion);
    }
    {
        // A layout saved by an older build.
        QSettings raw(path, QSettings::IniFormat);
        raw.setValue(u"window/stateVersion"_s, Settings::kWindowStateVersion - 1);
    }
    Settings s(path);
    QVERIFY(s.windowState().isEmpty());
}

void TestSettings::roundTrips()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"s.ini"_s);
    {
        Settings s(path);
        QCOMPARE(s.language(), QString()); // follow the system by default
        s.setLanguage(u"zh_CN"_s);
        s.setLastDatasetDirectory(u"/data"_s);
        s.setLastProjectDirectory(u"/projects"_s);
        s.setReopenLastProject(true);
        s.setWindowGeometry("geo");
    }
    Settings s(path);
    QCOMPARE(s.language(), u"zh_CN"_s);
    QCOMPARE(s.lastDatasetDirectory(), u"/data"_s);
    QCOMPARE(s.lastProjectDirectory(), u"/projects"_s);
    QVERIFY(s.reopenLastProject());
    QCOMPARE(s.windowGeometry(), QByteArray("geo"));
}

void TestSettings::compareStatePerProject()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"s.ini"_s);
    const QString a = u"/projects/a.sbproj"_s;
    const QString b = u"/projects/b.sbproj"_s;
    Settings::CompareState state;
    state.runs = {4, 2, 9};
    state.baseline = 2;
    state.rankBy = u"tpot:mean"_s;
    {
        Settings s(path);
        QVERIFY(s.reopenLastProject()); // on unless turned off
        QCOMPARE(s.compareState(a), Settings::CompareState());
        s.setCompareState(a, state);
        s.setLastProject(a);
        s.setCompareLayout("layout");
        s.setCurrentTab(4);
    }
    Settings s(path);
    QCOMPARE(s.compareState(a), state);
    QCOMPARE(s.compareState(b), Settings::CompareState()); // run ids belong to one project
    QCOMPARE(s.lastProject(), a);
    QCOMPARE(s.compareLayout(), QByteArray("layout"));
    QCOMPARE(s.currentTab(), 4);
    // Bounded: the project used longest ago is forgotten.
    for (int i = 0; i < Settings::kMaxCompareProjects; ++i)
        s.setCompareState(u"/p/%1.sbproj"_s.arg(i), state);
    QCOMPARE(s.compareState(a), Settings::CompareState());
    QCOMPARE(s.compareState(u"/p/0.sbproj"_s), state);
}

QTEST_MAIN(TestSettings)
#include "tst_settings.moc"
