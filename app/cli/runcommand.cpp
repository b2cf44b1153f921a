// `servebench-cli run`: parses the flags into a run request and hands it to the run pipeline
// (core/run), which validates, prepares, snapshots, executes, derives and records it exactly as
// it does for the workbench. What is left here is wording and printing.
#include "args.h"
#include "commands.h"
#include "runreport.h"

#include "run/managedserver.h"
#include "run/planvalidation.h"
#include "run/runflags.h"
#include "run/runpreparation.h"
#include "run/runsession.h"
#include "shard/shardagent.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTextStream>
#include <QTimer>

#include <atomic>
#include <cmath>
#include <csignal>

using namespace Qt::StringLiterals;

namespace sb::cli {

namespace {

std::atomic<int> g_interrupts{0};
// Set by the first Ctrl+C or SIGTERM: preparation (a managed server's start above all, which runs
// in a session of its own and would not see the terminal's Ctrl+C) gives up and cleans up.
std::atomic<bool> g_cancelPrepare{false};
extern "C" void onSignal(int)
{
    g_cancelPrepare.store(true);
    g_interrupts.fetch_add(1);
}

int fail(const QString &message, int code = 1)
{
    return sb::cli::fail(u"run"_s, message, code);
}

// A validation or preparation issue as one line that names the flag: "--request-rate must …".
// A detail that names its flags itself (the shard planner's "--shard 0/3: …", "--start-at …") is
// printed as it is, not as "--shard --shard 0/3: …".
QString flagLine(const PlanIssue &issue)
{
    const QString text = issue.message.translated();
    if (issue.field == "run"_L1 || text.startsWith("--"_L1))
        return text;
    return u"--"_s + issue.field + u' ' + text;
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

QString resultPath(const RunFlagOptions &o, const RunPlan &plan, const QDateTime &start,
                   const QString &suffix)
{
    QString name = o.resultFilename;
    if (name.isEmpty()) {
        // vLLM's default: {backend}-{rate}qps-{model}-{date}.json
        const QString model = plan.sut.model.section(u'/', -1);
        const QString rate =
            plan.profile.unlimitedRate() ? u"inf"_s : QString::number(plan.profile.requestRate);
        name = u"%1-%2qps-%3-%4%5.json"_s.arg(QString::fromLatin1(apiFlavourName(plan.sut.flavour)),
                                              rate, model, start.toString(u"yyyyMMdd-HHmmss"_s),
                                              suffix);
    } else if (!suffix.isEmpty()) {
        name = QFileInfo(name).completeBaseName() + suffix + u".json"_s;
    }
    return o.resultDir.isEmpty() ? name : QDir(o.resultDir).filePath(name);
}

bool saveResult(const RunFlagOptions &opts, const RunOutcome &o, const QString &suffix,
                QString *path, QString *error)
{
    *path = resultPath(opts, o.input.plan, o.input.wallStart, suffix);
    if (!opts.resultDir.isEmpty())
        QDir().mkpath(opts.resultDir);
    QJsonObject json = runResultJson(o.input, o.derived, opts.saveDetailed);
    if (opts.saveDetailed)
        addRawRecords(&json, o.input); // sharded runs: the records merge needs
    QSaveFile f(*path);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(QJsonDocument(json).toJson(QJsonDocument::Indented)) < 0 || !f.commit()) {
        *error = u"cannot write the result file %1: %2"_s.arg(*path, f.errorString());
        return false;
    }
    return true;
}

QString sweepTable(const QList<RunOutcome> &points)
{
    QString out = u"\n=================== Sweep: latency versus throughput ===================\n"_s;
    out += u"%1 %2 %3 %4 %5 %6 %7 %8 %9\n"_s.arg(u"run"_s, -14)
               .arg(u"target/s"_s, 9)
               .arg(u"req/s"_s, 8)
               .arg(u"tok/s"_s, 9)
               .arg(u"TTFT p50"_s, 9)
               .arg(u"TTFT p99"_s, 9)
               .arg(u"TPOT p50"_s, 9)
               .arg(u"TPOT p99"_s, 9)
               .arg(u"failed"_s, 7);
    for (const RunOutcome &p : points) {
        const RunSummary &s = p.derived.summary;
        out += u"%1 %2 %3 %4 %5 %6 %7 %8 %9"_s.arg(p.label, -14)
                   .arg(p.targetRate > 0 ? QString::number(p.targetRate, 'f', 2) : u"-"_s, 9)
                   .arg(s.requestThroughput, 8, 'f', 2)
                   .arg(s.outputThroughput, 9, 'f', 1)
                   .arg(s.ttft.percentile(50), 9, 'f', 2)
                   .arg(s.ttft.percentile(99), 9, 'f', 2)
                   .arg(s.tpot.percentile(50), 9, 'f', 2)
                   .arg(s.tpot.percentile(99), 9, 'f', 2)
                   .arg(s.failed, 7);
        if (!p.validity.isEmpty())
            out += u' ' + p.validity;
        if (p.saturated)
            out += u" SATURATED (stopped early)"_s;
        out += u'\n';
    }
    out += u"(latencies in ms; percentiles by linear interpolation)\n"_s;
    return out;
}

// A series (--num-runs): per metric, the mean over runs with its 95 % interval and the
// coefficient of variation (docs/statistics.md).
QString seriesTable(const SessionResult &result)
{
    QString out =
        u"\n================ Series of %1 runs ================\n"_s.arg(result.points.size());
    out += u"Cache between runs: %1\n"_s.arg(result.cacheState);
    out += u"%1 %2 %3 %4\n"_s.arg(u"metric"_s, -30)
               .arg(u"mean"_s, 10)
               .arg(u"95 % interval"_s, 24)
               .arg(u"CV"_s, 8);
    for (const SeriesMetric &m : result.series) {
        const SeriesStats &s = m.stats;
        const QString interval =
            s.meanInterval.available
                ? u"[%1, %2]"_s.arg(s.meanInterval.lo, 0, 'f', 2).arg(s.meanInterval.hi, 0, 'f', 2)
                : u"n/a"_s;
        out += u"%1 %2 %3 %4\n"_s.arg(m.key, -30)
                   .arg(s.runs > 0 ? QString::number(s.mean, 'f', 2) : u"n/a"_s, 10)
                   .arg(interval, 24)
                   .arg(std::isnan(s.cv) ? u"n/a"_s : u"%1 %"_s.arg(s.cv * 100, 0, 'f', 1), 8);
    }
    out += u"(interval: Student's t over the runs; CV: standard deviation / mean)\n"_s;
    return out;
}

} // namespace

int runCommand(const QStringList &argv)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    RunRequest request;
    RunFlagOptions opts;
    QString error;
    if (!parseRunFlags(argv, &request, &opts, &error))
        return fail(error, 2);
    if (opts.help) {
        out << "usage: servebench-cli run [options]\n\n" << opts.helpText;
        return 0;
    }
    const QList<PlanIssue> issues = validateRunRequest(request);
    if (!issues.isEmpty())
        return fail(flagLine(issues.first()), 2);
    for (const QString &n : std::as_const(opts.notes))
        err << n << "\n";
    err.flush();

    PrepareContext context;
    // The variable the plan's key reference names (runflags: OPENAI_API_KEY, or
    // ANTHROPIC_API_KEY for a Messages SUT); the key itself is never part of the plan.
    const QString keyRef = request.plan.sut.apiKeyRef;
    context.apiKey = qgetenv(keyRef.startsWith("env:"_L1) ? keyRef.mid(4).toLocal8Bit().constData()
                                                          : "OPENAI_API_KEY");
    // Ctrl+C while preparing cancels it: a managed server being started is stopped, not left.
    g_cancelPrepare = false;
    g_interrupts = 0;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    context.cancelled = &g_cancelPrepare;
    PreparedRun prepared;
    PlanIssue issue;
    if (!prepareRun(request, context, &prepared, &issue)) {
        // A managed server that never became healthy, or one a later step failed after: stopped
        // first (so its log says how it ended), and its output goes into the project too.
        if (prepared.managedServer)
            prepared.managedServer->stop();
        QString note;
        if (prepared.managedServer && !opts.project.isEmpty() &&
            saveManagedServerLog(opts.project, *prepared.managedServer,
                                 request.plan.sut.name.isEmpty() ? request.plan.sut.baseUrl
                                                                 : request.plan.sut.name,
                                 &note))
            err << "The managed server's output is stored in " << opts.project << " (instance "
                << prepared.managedServer->instanceId() << ")\n";
        else if (!note.isEmpty())
            err << note << "\n";
        err.flush();
        return fail(flagLine(issue), issue.field == "shard"_L1 ? 2 : 1);
    }
    for (const QString &n : std::as_const(prepared.notes))
        err << n << "\n";
    err.flush();

    const LoadProfile &profile = prepared.request.plan.profile;
    if (prepared.request.plan.isSessionWorkload()) {
        // Sessions (docs/sessions.md) arrive at a session rate or run as users.
        out << "Sessions: "
            << (profile.durationS > 0 ? u"until the duration ends"_s
                                      : QString::number(profile.numSessions))
            << ", "
            << (profile.sessionUsers > 0
                    ? u"closed loop of %1 users"_s.arg(profile.sessionUsers)
                    : u"arriving at %1 per second"_s.arg(profile.sessionRate > 0 &&
                                                                 profile.sessionRate < 1e300
                                                             ? pythonFloat(profile.sessionRate)
                                                             : u"inf"_s))
            << ", history: " << historyModeName(profile.history)
            << ", think time: " << thinkTimeModelName(profile.thinkTime);
        if (profile.thinkTime == ThinkTimeModel::Fixed ||
            profile.thinkTime == ThinkTimeModel::Exponential)
            out << " " << pythonFloat(profile.thinkTimeMs) << " ms";
        out << "\n";
    }
    out << "Traffic request rate: "
        << (profile.unlimitedRate() ? u"inf"_s : pythonFloat(profile.requestRate)) << "\n";
    out << "Burstiness factor: " << pythonFloat(profile.burstiness)
        << (profile.burstiness == 1.0 ? " (Poisson process)" : " (Gamma distribution)") << "\n";
    out << "Maximum request concurrency: "
        << (profile.maxConcurrency > 0 ? QString::number(profile.maxConcurrency) : u"None"_s)
        << "\n";
    out.flush();

    RunSession session(std::move(prepared));
    if (!opts.project.isEmpty() && !session.openProject(opts.project, &error))
        return fail(u"--project %1: %2"_s.arg(opts.project, error));
    const bool single = request.mode == RunMode::Single && request.numRuns <= 1;
    int saveError = 0;
    QObject::connect(&session, &RunSession::runStarted, &session,
                     [&](RunController *, const RunPlan &, const QString &label, int) {
                         if (!label.isEmpty()) {
                             err << "--- " << label << "\n";
                             err.flush();
                         }
                     });
    QObject::connect(&session, &RunSession::runFinished, &session, [&](const RunOutcome &o) {
        if (single) {
            out << formatRunReport(o.input, o.derived);
            out.flush();
            if (!opts.project.isEmpty())
                err << "Recorded in " << opts.project << "\n";
        }
        if (opts.saveResult) {
            QString path, why;
            if (saveResult(opts, o, o.label.isEmpty() ? QString() : u"-"_s + o.label, &path, &why))
                err << "Result saved to " << path << "\n";
            else {
                err << "servebench-cli run: error: " << why << "\n";
                saveError = 1;
            }
        }
        err.flush();
    });

    g_interrupts = 0;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    QEventLoop loop;
    QObject::connect(&session, &RunSession::finished, &loop, &QEventLoop::quit);
    QTimer signalPoll;
    bool interrupted = false;
    QObject::connect(&signalPoll, &QTimer::timeout, &loop, [&] {
        if (g_interrupts.load() > 0 && session.isRunning() && !interrupted) {
            interrupted = true;
            err << "Interrupted: cancelling the requests in flight...\n";
            err.flush();
            session.stop();
        }
    });
    signalPoll.start(100);
    if (!session.start(&error))
        return fail(error);
    if (session.isRunning())
        loop.exec();
    signalPoll.stop();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    const SessionResult &result = session.result();
    if (!single && request.mode == RunMode::Single && !result.points.isEmpty()) {
        out << seriesTable(result);
        out.flush();
    } else if (!single && !result.points.isEmpty()) {
        out << sweepTable(result.points);
        if (request.mode == RunMode::MaxValidRate && result.ok) {
            if (result.validRate > 0)
                out << "Highest VALID Server rate: " << QString::number(result.validRate, 'f', 2)
                    << " req/s (bisection to within " << request.rateTolerance * 100
                    << " % of the maximum throughput "
                    << QString::number(result.maxThroughput, 'f', 2) << " req/s)\n";
            else
                out << "No Server rate tried was VALID (lowest tried: "
                    << QString::number(result.lowestTried, 'f', 2) << " req/s)\n";
        }
        out.flush();
    }
    if (!result.error.isEmpty())
        return fail(result.error);
    if (result.stopped)
        return 130;
    return saveError;
}

} // namespace sb::cli
