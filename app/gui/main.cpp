#include "mainwindow.h"
#include "projectrunner.h"
#include "settings.h"
#include "settingslanguage.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>

using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(u"ServeBench"_s);
    QApplication::setOrganizationName(u"ServeBench"_s);
    QApplication::setApplicationVersion(QString::fromLatin1(SERVEBENCH_VERSION));
    // The .desktop id of packaging/linux, which the AppStream launchable names.
    QApplication::setDesktopFileName(u"io.servebench.ServeBench"_s);

    QCommandLineParser parser;
    parser.setApplicationDescription(u"ServeBench workbench"_s);
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(u"project"_s, u"Project file to open."_s, u"[project]"_s);
    QCommandLineOption lang(
        u"lang"_s,
        u"User interface language (en, zh_CN; empty: the system's); saved in the settings."_s,
        u"code"_s);
    QCommandLineOption run(u"run"_s, u"Start the selected run plan at once (F5)."_s);
    // Documentation screenshots: grab the window after a delay, save a PNG and quit.
    QCommandLineOption screenshot(u"screenshot"_s, u"Save a PNG of the window and quit."_s,
                                  u"file"_s);
    QCommandLineOption afterMs(u"after-ms"_s, u"Delay before --screenshot (ms)."_s, u"ms"_s,
                               u"1500"_s);
    QCommandLineOption tab(
        u"tab"_s,
        u"Tab to show before --screenshot: editor, run, results, server, cost, compare, study."_s,
        u"name"_s);
    QCommandLineOption edit(
        u"edit"_s, u"Open an editor before --screenshot: sut, dataset, profile."_s, u"kind"_s);
    for (QCommandLineOption *o : {&screenshot, &afterMs, &tab, &edit})
        o->setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({lang, run, screenshot, afterMs, tab, edit});
    parser.process(app);

    sb::Settings settings;
    if (parser.isSet(lang))
        settings.setLanguage(parser.value(lang)); // remembered, like the Language menu
    // The window reopens the last project itself (Settings::reopenLastProject), unless one is
    // named here.
    sb::MainWindow w(&settings);
    if (!parser.positionalArguments().isEmpty())
        w.openProject(QFileInfo(parser.positionalArguments().first()).absoluteFilePath());
    w.show();

    if (parser.isSet(edit)) {
        const QString kind = parser.value(edit);
        const sb::ProjectDocument *doc = w.document();
        if (kind == "sut"_L1 && !doc->suts().isEmpty())
            w.editEntity(sb::EntityKind::Sut, doc->suts().first().id);
        else if (kind == "dataset"_L1 && !doc->datasets().isEmpty())
            w.editEntity(sb::EntityKind::Dataset, doc->datasets().first().id);
        else if (kind == "profile"_L1 && !doc->profiles().isEmpty())
            w.editEntity(sb::EntityKind::Profile, doc->profiles().first().id);
    }
    if (parser.isSet(run))
        QTimer::singleShot(0, &w, &sb::MainWindow::startRun);

    if (parser.isSet(screenshot)) {
        const QString file = parser.value(screenshot);
        const QString tabName = parser.value(tab);
        QTimer::singleShot(parser.value(afterMs).toInt(), &w, [&w, &app, file, tabName] {
            const QStringList names = {u"editor"_s, u"run"_s,     u"results"_s,
                                       u"cost"_s,   u"compare"_s, u"study"_s};
            if (names.contains(tabName))
                w.tabs()->setCurrentIndex(int(names.indexOf(tabName)));
            // "server": the Results tab on its Server page (docs/server-metrics.md).
            if (tabName == "server"_L1) {
                w.tabs()->setCurrentIndex(2);
                if (auto *server = w.findChild<QWidget *>(u"serverView"_s))
                    for (QWidget *p = server->parentWidget(); p; p = p->parentWidget())
                        if (auto *pages = qobject_cast<QTabWidget *>(p)) {
                            pages->setCurrentWidget(server);
                            break;
                        }
            }
            // Let the tab switch lay out and paint before grabbing.
            QTimer::singleShot(300, &w, [&w, &app, file] {
                QDir().mkpath(QFileInfo(file).absolutePath());
                const bool ok = w.grab().save(file, "PNG");
                QTextStream(stderr) << (ok ? "saved " : "could not save ") << file << "\n";
                app.exit(ok ? 0 : 1);
            });
        });
    }
    return app.exec();
}
