// Renders the run dashboard during and after a run against the built-in simulator, and the
// results view of that run, to PNG files for the documentation:
//
//   QT_QPA_PLATFORM=offscreen uiviews_screenshots docs/screenshots
//   (or under xvfb-run -s "-screen 0 1400x900x24" for the platform's own style)
//
// Writes dashboard-running.png, dashboard-finished.png, results-summary.png,
// results-requests.png, results-distributions.png, results-overtime.png.
//
//   uiviews_screenshots docs/screenshots compare
//
// writes only comparison.png: the main window on the Compare tab over the comparison fixture
// (two SUTs, a rate sweep each, test windows), comparing the two 10 req/s runs, with the
// latency-versus-throughput chart (a further argument 0 or 1 shows the CDFs or the bars).
//
//   uiviews_screenshots docs/screenshots editors
//
// writes sut-editor.png and load-profile-editor.png: the two editors with a private CA, a
// proxy and request parameters filled in.
#include "comparefixture.h"
#include "uiviewstestutil.h"

#include "compare/comparisonview.h"
#include "editors/loadprofileeditor.h"
#include "editors/suteditor.h"
#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "mainwindow.h"
#include "resultsview.h"
#include "rundashboard.h"
#include "settings.h"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QJsonObject>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <functional>

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

// Waits for `signal` unless `done` already holds; false after 30 s.
template <class Sender, class Signal>
bool waitFor(Sender *sender, Signal signal, const std::function<bool()> &done)
{
    if (done())
        return true;
    QEventLoop loop;
    QObject::connect(sender, signal, &loop, [&] {
        if (done())
            loop.quit();
    });
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    loop.exec();
    return done();
}

int editorScreenshots(const QDir &dir)
{
    SutEditor sut;
    SutConfig c;
    c.name = u"vllm-h100"_s;
    c.baseUrl = u"https://gpu-h100.corp.example:8443"_s;
    c.model = u"meta-llama/Llama-3.1-8B-Instruct"_s;
    c.engine = u"vLLM"_s;
    c.engineVersion = u"0.10.1"_s;
    c.gpuModel = u"H100 80GB SXM"_s;
    c.gpuCount = 8;
    c.caFile = u"/etc/ssl/corp/private-ca.pem"_s;
    c.proxy = u"http://proxy.corp.example:3128"_s;
    sut.setConfig(c);
    sut.resize(760, 1000);
    sut.show();
    settle(300);
    LoadProfileEditor profile;
    LoadProfile p;
    p.requestRate = 10;
    p.numPrompts = 500;
    RequestParams params;
    params.ignoreEos = true;
    params.temperature = 0;
    params.extraBody = QJsonObject{{u"top_p"_s, 0.9}};
    profile.setProfile(u"Poisson 10 req/s"_s, p, params);
    profile.resize(1300, 1000);
    profile.show();
    settle(300);
    return save(&sut, dir, u"sut-editor.png"_s) && save(&profile, dir, u"load-profile-editor.png"_s)
               ? 0
               : 1;
}

int compareScreenshot(const QDir &dir, int chartTab)
{
    QTemporaryDir tmp;
    const QString path = tmp.filePath(u"serving-comparison.sbproj"_s);
    comparefixture::Project project;
    QString error;
    if (!comparefixture::build(path, &project, &error)) {
        qWarning("fixture: %s", qPrintable(error));
        return 1;
    }
    Settings settings(tmp.filePath(u"settings.ini"_s));
    ApiKeyStore keys(new KeychainUnavailableBackend);
    MainWindow window(&settings, &keys);
    window.resize(1400, 900);
    window.show();
    if (!window.openProject(path))
        return 1;
    ComparisonView *view = window.comparisonView();
    window.tabs()->setCurrentWidget(view);
    if (!waitFor(view, &ComparisonView::runsListed, [view] { return !view->isBusy(); }))
        return 1;
    view->setSelectedRuns({project.sweepA.at(1), project.sweepB.at(1)});
    if (!waitFor(view, &ComparisonView::comparisonShown,
                 [view] { return !view->isBusy() && view->comparison(); }))
        return 1;
    if (auto *charts = view->findChild<QTabWidget *>(u"chartTabs"_s))
        charts->setCurrentIndex(chartTab); // 2: latency versus throughput
    settle(500);
    return save(&window, dir, u"comparison.png"_s) ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QDir dir(argc > 1 ? QString::fromLocal8Bit(argv[1]) : u"."_s);
    if (!QDir().mkpath(dir.path()))
        return 1;
    if (argc > 2 && QByteArray(argv[2]) == "editors")
        return editorScreenshots(dir);
    if (argc > 2 && QByteArray(argv[2]) == "compare")
        return compareScreenshot(dir, argc > 3 ? QByteArray(argv[3]).toInt() : 2);

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
