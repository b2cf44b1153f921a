#include "commands.h"
#include "endpointcheck.h"
#include "runoptions.h"

#include "common/version.h"
#include "data/dataset.h"
#include "metrics/resultjson.h"
#include "metrics/summary.h"
#include "metrics/summarytext.h"
#include "run/runcontroller.h"
#include "sim/simulator.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QHostInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTextStream>
#include <QTimer>
#include <atomic>
#include <cmath>
#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;

namespace sb::cli {

namespace {

std::atomic<int> g_interrupts{0};
extern "C" void onSignal(int) { g_interrupts.fetch_add(1); }

int fail(const QString &message, int code = 1)
{
    QTextStream(stderr) << "servebench-cli run: error: " << message << "\n";
    return code;
}

// Python's str(float), as vLLM prints its settings: 1.0, 0.5, inf.
QString pythonFloat(double v)
{
    if (std::isinf(v))
        return u"inf"_s;
    QString s = QString::number(v); // shortest form that round-trips for ordinary settings
    if (!s.contains(u'.') && !s.contains(u'e'))
        s += u".0"_s;
    return s;
}

QString rateText(const LoadProfile &p)
{
    return p.unlimitedRate() ? u"inf"_s : pythonFloat(p.requestRate);
}

QString resultPath(const RunCliOptions &o, const RunPlan &plan, const QDateTime &start)
{
    QString name = o.resultFilename;
    if (name.isEmpty()) {
        // vLLM's default: {backend}-{rate}qps-{model}-{date}.json
        QString model = plan.sut.model.section(u'/', -1);
        const QString rate = plan.profile.unlimitedRate()
                                 ? u"inf"_s
                                 : QString::number(plan.profile.requestRate);
        name = u"%1-%2qps-%3-%4.json"_s.arg(QString::fromLatin1(apiFlavourName(plan.sut.flavour)),
                                             rate, model,
                                             start.toString(u"yyyyMMdd-HHmmss"_s));
    }
    return o.resultDir.isEmpty() ? name : QDir(o.resultDir).filePath(name);
}

} // namespace

int runCommand(const QStringList &argv)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    RunPlan plan;
    RunCliOptions opts;
    QString error;
    if (!parseRunOptions(argv, &plan, &opts, &error))
        return fail(error, 2);
    if (opts.help) {
        out << "usage: servebench-cli run [options]\n\n" << opts.helpText;
        return 0;
    }
    for (const QString &n : std::as_const(opts.notes))
        err << n << "\n";

    // Without an endpoint the built-in simulator is the SUT, so a first run needs no server.
    std::unique_ptr<Simulator> sim;
    if (!opts.endpointGiven) {
        SimConfig cfg;
        sim = std::make_unique<Simulator>(cfg);
        if (!sim->start())
            return fail(u"could not start the built-in simulator: %1"_s.arg(sim->errorString()));
        plan.sut.baseUrl = u"http://127.0.0.1:%1"_s.arg(sim->port());
        plan.sut.builtInSimulator = true;
        if (plan.sut.name.isEmpty())
            plan.sut.name = u"built-in simulator"_s;
        plan.sut.engine = u"servebench-sim"_s;
        plan.sut.engineVersion = QString::fromLatin1(toolVersion());
        err << "No endpoint given (--base-url, --host/--port): running against the built-in "
               "simulator at "
            << plan.sut.baseUrl << " (TTFT " << cfg.ttftMs << " ms, " << cfg.itlMs
            << " ms per token).\n";
        err.flush();
    }
    if (plan.sut.name.isEmpty())
        plan.sut.name = plan.sut.baseUrl;

    const QByteArray apiKey = qgetenv("OPENAI_API_KEY");
    EndpointCheck check = checkEndpoint(plan.sut, apiKey, 10000);
    if (!check.reachable)
        return fail(u"cannot reach %1 (--base-url): %2"_s.arg(plan.sut.baseUrl, check.error));
    if (plan.sut.model.isEmpty()) {
        if (check.models.isEmpty())
            return fail(u"--model is required: %1/v1/models lists no model (%2)"_s.arg(
                plan.sut.baseUrl, check.error.isEmpty() ? u"empty list"_s : check.error));
        plan.sut.model = check.models.first();
    }

    LoadedDataset dataset;
    const int wanted = plan.profile.numPrompts > 0 ? plan.profile.numPrompts : 1000;
    if (!loadDataset(plan.dataset, wanted, plan.profile.seed, &dataset, &error))
        return fail(error);

    out << "Traffic request rate: " << rateText(plan.profile) << "\n";
    out << "Burstiness factor: " << pythonFloat(plan.profile.burstiness)
        << (plan.profile.burstiness == 1.0 ? " (Poisson process)" : " (Gamma distribution)")
        << "\n";
    out << "Maximum request concurrency: "
        << (plan.profile.maxConcurrency > 0 ? QString::number(plan.profile.maxConcurrency)
                                            : u"None"_s)
        << "\n";
    out.flush();

    RunController controller;
    controller.configure(plan, dataset.items, apiKey);
    if (!controller.start(&error))
        return fail(error, 2);

    g_interrupts = 0;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    QEventLoop loop;
    QObject::connect(&controller, &RunController::finished, &loop, &QEventLoop::quit);
    QTimer signalPoll;
    QObject::connect(&signalPoll, &QTimer::timeout, &loop, [&] {
        if (g_interrupts.load() > 0 && controller.status() == RunStatus::Running) {
            err << "Interrupted: cancelling the requests in flight...\n";
            err.flush();
            controller.stop();
        }
    });
    signalPoll.start(100);
    if (controller.status() == RunStatus::Running)
        loop.exec();
    signalPoll.stop();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    const QList<RequestRecord> &records = controller.records();
    const RunSummary summary = summarize(records, SummaryOptions::forProfile(plan.profile));
    SummaryTextOptions to = SummaryTextOptions::forProfile(plan.profile);
    to.datasetHash = dataset.info.sha256;
    if (controller.status() != RunStatus::Completed)
        to.clientHealthWarnings.append(
            u"the run was %1: only the requests that finished are counted"_s.arg(
                QString::fromLatin1(runStatusName(controller.status()))));
    out << formatVllmSummary(summary, to);
    out.flush();

    if (opts.saveResult) {
        ResultJsonOptions jo = ResultJsonOptions::forProfile(plan.profile);
        jo.detailed = opts.saveDetailed;
        jo.backend = QString::fromLatin1(apiFlavourName(plan.sut.flavour));
        jo.modelId = plan.sut.model;
        jo.numPrompts = plan.profile.numPrompts;
        jo.date = controller.wallStart().toLocalTime();
        jo.runStartNs = controller.runStartNs();
        jo.configSnapshot = plan.toJson();
        jo.dataset = dataset.info.toJson();
        const QJsonObject result = vllmResultJson(summary, records, jo);
        const QString path = resultPath(opts, plan, controller.wallStart());
        if (!opts.resultDir.isEmpty())
            QDir().mkpath(opts.resultDir);
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(QJsonDocument(result).toJson(QJsonDocument::Indented)) < 0 || !f.commit())
            return fail(u"cannot write the result file %1: %2"_s.arg(path, f.errorString()));
        err << "Result saved to " << path << "\n";
    }
    return controller.status() == RunStatus::Completed ? 0 : 130;
}

} // namespace sb::cli
