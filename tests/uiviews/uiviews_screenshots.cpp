// Renders the run dashboard during and after a run against the built-in simulator, and the
// results view of that run, to PNG files for the documentation:
//
//   QT_QPA_PLATFORM=offscreen uiviews_screenshots docs/screenshots
//   (or under xvfb-run -s "-screen 0 1400x900x24" for the platform's own style)
//
// Writes dashboard-running.png, dashboard-finished.png, results-summary.png,
// results-requests.png, results-distributions.png, results-overtime.png.
#include "uiviewstestutil.h"

#include "resultsview.h"
#include "rundashboard.h"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QTabWidget>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

void settle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool save(QWidget *w, const QDir &dir, const QString &name)
{
    const QString path = dir.filePath(name);
    if (!w->grab().save(path)) {
        qWarning("could not write %s", qPrintable(path));
        return false;
    }
    qInfo("wrote %s", qPrintable(path));
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QDir dir(argc > 1 ? QString::fromLocal8Bit(argv[1]) : u"."_s);
    if (!QDir().mkpath(dir.path()))
        return 1;

    SimConfig cfg;
    cfg.ttftMs = 60;
    cfg.itlMs = 12;
    cfg.jitterMs = 4;
    cfg.capacity = 24; // queueing raises TTFT once the rate exceeds what 24 sequences serve
    cfg.seed = 3;
    cfg.setFaultRate(SimFault::Http500, 0.02);
    cfg.setFaultRate(SimFault::ResetMidStream, 0.01);
    Simulator sim(cfg);
    if (!sim.start())
        return 1;

    RunPlan plan = uitest::simPlan(sim, 700, 48, 45);
    plan.name = u"sim-server-45rps"_s;
    plan.profile.scenario = Scenario::Server;
    plan.profile.warmupRequests = 10;
    plan.profile.goodput.ttftMs = 400;
    plan.profile.goodput.tpotMs = 20;
    plan.profile.timeoutS = 10;
    RunController controller;
    controller.configure(plan, uitest::promptItems(50, 48), {});

    RunDashboard dash;
    dash.resize(1400, 900);
    dash.show();
    dash.attach(&controller, plan);
    QString error;
    if (!controller.start(&error)) {
        qWarning("%s", qPrintable(error));
        return 1;
    }
    settle(9000);
    bool ok = save(&dash, dir, u"dashboard-running.png"_s);
    QEventLoop done;
    QObject::connect(&controller, &RunController::finished, &done, &QEventLoop::quit);
    if (controller.status() == RunStatus::Running)
        done.exec();
    settle(300);
    ok = save(&dash, dir, u"dashboard-finished.png"_s) && ok;
    dash.hide();

    ResultsView results;
    results.resize(1400, 900);
    results.show();
    settle(100);
    QEventLoop shown;
    QObject::connect(&results, &ResultsView::chartsShown, &shown, &QEventLoop::quit);
    results.showRun(plan, controller.records());
    shown.exec();
    const QStringList names = {u"results-summary.png"_s, u"results-requests.png"_s,
                               u"results-distributions.png"_s, u"results-overtime.png"_s};
    for (int i = 0; i < names.size(); ++i) {
        results.tabs()->setCurrentIndex(i);
        settle(300);
        ok = save(&results, dir, names.at(i)) && ok;
    }
    return ok ? 0 : 1;
}
