#include "args.h"
#include "commands.h"
#include "endpointcheck.h"
#include "runoptions.h"

#include "common/clock.h"
#include "common/version.h"
#include "data/dataset.h"
#include "data/syntheticprompt.h"
#include "load/tracereplay.h"
#include "metrics/summary.h"
#include "run/runcontroller.h"
#include "run/runrecorder.h"
#include "runreport.h"
#include "shardagent.h"
#include "sim/simulator.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QHostInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
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
extern "C" void onSignal(int)
{
    g_interrupts.fetch_add(1);
}

int fail(const QString &message, int code = 1)
{
    return sb::cli::fail(u"run"_s, message, code);
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
        const QString rate =
            plan.profile.unlimitedRate() ? u"inf"_s : QString::number(plan.profile.requestRate);
        name = u"%1-%2qps-%3-%4.json"_s.arg(QString::fromLatin1(apiFlavourName(plan.sut.flavour)),
                                            rate, model, start.toString(u"yyyyMMdd-HHmmss"_s));
    }
    return o.resultDir.isEmpty() ? name : QDir(o.resultDir).filePath(name);
}

// The arguments as a shell command line, with credentials redacted: stored with every run so
// it can be reproduced, and shown in reports.
QString reproduceCommand(const QStringList &argv)
{
    QStringList words = {u"servebench-cli"_s, u"run"_s};
    for (int i = 0; i < argv.size(); ++i) {
        QString w = argv.at(i);
        // The header's own parser decides where the name ends, so a value holding ':' or '='
        // is never half shown; both `--header V` and `--header=V` are covered.
        const bool inlineHeader = w.startsWith("--header="_L1);
        if (inlineHeader || (i > 0 && argv.at(i - 1) == "--header"_L1)) {
            const QString prefix = inlineHeader ? u"--header="_s : QString();
            QPair<QString, QString> kv;
            if (parseHeaderArg(w.mid(prefix.size()), &kv) && looksLikeSecretKey(kv.first))
                w = prefix + kv.first + u":<redacted>"_s;
        }
        if (w.contains(QRegularExpression(u"[^A-Za-z0-9_./:=,@%+-]"_s)))
            w = u'\'' + w.replace(u"'"_s, u"'\\''"_s) + u'\'';
        words.append(w);
    }
    return words.join(u' ');
}

struct Session
{
    QByteArray apiKey;
    LoadedDataset dataset;
    QList<qint64> traceSchedule;
    std::unique_ptr<RunRecorder> recorder;
    QString command;
    QString transport;
    TransportKind transportKind = TransportKind::Socket; // --transport
    ShardSetup shard;                                    // --shard / --start-at
};

// One run of one plan, recorded into the project when one is open. Returns the report input.
bool executeRun(Session &s, RunPlan plan, qint64 sweepId, int sweepPosition, RunReportInput *out,
                QString *error)
{
    RunController controller;
    controller.setTransportKind(s.transportKind);
    controller.configure(plan, s.dataset.items, s.apiKey);
    if (!s.traceSchedule.isEmpty())
        controller.setScheduleOverride(s.traceSchedule);

    // Resolved here, so the stored snapshot says how the SUT was reached.
    TransportOptions route;
    if (!resolveTransportOptions(plan.sut, QProcessEnvironment::systemEnvironment(), &route, error))
        return false;

    controller.setTransportOptions(route);

    QJsonObject snapshot = plan.toJson();
    snapshot[u"connection"_s] = connectionRoute(plan.sut, route);
    snapshot[u"dataset_info"_s] = s.dataset.info.toJson();
    snapshot[u"command"_s] = s.command;
    snapshot[u"tool_version"_s] = QString::fromLatin1(toolVersion());

    // The schedule's zero point is stored with the run, so stored t_sched values can be
    // checked against the seed's schedule.
    const qint64 startAt =
        s.shard.startAtMono > 0 ? s.shard.startAtMono : monotonicNs() + 100'000'000;
    if (s.shard.active)
        snapshot[u"shard"_s] = shardBlockAt(s.shard, startAt);
    controller.setStartAt(startAt);
    if (s.recorder) {
        if (!s.recorder->beginRun(plan, snapshot, s.dataset.info, sweepId, sweepPosition, startAt,
                                  error))
            return false;
        s.recorder->attach(&controller);
    }
    if (!controller.start(error)) {
        if (s.recorder) {
            QString ignored;
            s.recorder->finishRun(RunStatus::Failed, QJsonObject{{u"error"_s, *error}}, &ignored);
        }
        return false;
    }

    g_interrupts = 0;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    QEventLoop loop;
    QObject::connect(&controller, &RunController::finished, &loop, &QEventLoop::quit);
    QTimer signalPoll;
    QObject::connect(&signalPoll, &QTimer::timeout, &loop, [&] {
        if (g_interrupts.load() > 0 && controller.status() == RunStatus::Running) {
            QTextStream(stderr) << "Interrupted: cancelling the requests in flight...\n";
            controller.stop();
        }
    });
    signalPoll.start(100);
    if (controller.status() == RunStatus::Running)
        loop.exec();
    signalPoll.stop();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    out->plan = plan;
    out->records = controller.records();
    out->datasetHash = s.dataset.info.sha256;
    out->datasetInfo = s.dataset.info.toJson();
    out->status = QString::fromLatin1(runStatusName(controller.status()));
    out->transport = controller.transportName();
    out->runStartNs = controller.runStartNs();
    out->wallStart = controller.wallStart();
    out->snapshot = snapshot;
    s.transport = out->transport;

    if (s.recorder) {
        const QJsonObject summary = runResultJson(*out, false);
        QString storeError;
        if (!s.recorder->finishRun(controller.status(), summary, &storeError)) {
            *error = u"the run could not be stored in %1: %2"_s.arg(s.recorder->path(), storeError);
            return false;
        }
        if (!s.recorder->writeError().isEmpty()) {
            *error =
                u"the project file stopped accepting records: %1"_s.arg(s.recorder->writeError());
            return false;
        }
    }
    return true;
}

bool saveResult(const RunCliOptions &opts, const RunReportInput &in, const QString &suffix,
                QString *path, QString *error)
{
    RunCliOptions o = opts;
    if (!suffix.isEmpty() && !o.resultFilename.isEmpty())
        o.resultFilename = QFileInfo(o.resultFilename).completeBaseName() + suffix + u".json"_s;
    *path = resultPath(o, in.plan, in.wallStart);
    if (o.resultFilename.isEmpty() && !suffix.isEmpty())
        *path = path->left(path->size() - 5) + suffix + u".json"_s;
    if (!opts.resultDir.isEmpty())
        QDir().mkpath(opts.resultDir);
    QJsonObject resultJson = runResultJson(in, opts.saveDetailed);
    if (opts.saveDetailed)
        addRawRecords(&resultJson, in); // sharded runs: the records merge needs
    QSaveFile f(*path);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(QJsonDocument(resultJson).toJson(QJsonDocument::Indented)) < 0 || !f.commit()) {
        *error = u"cannot write the result file %1: %2"_s.arg(*path, f.errorString());
        return false;
    }
    return true;
}

struct SweepPoint
{
    QString label;
    double targetRate = 0; // 0 = closed loop / unlimited
    RunSummary summary;
    QString status;
    QString validity; // Server searches: VALID / INVALID
};

QString sweepTable(const QList<SweepPoint> &points)
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
    for (const SweepPoint &p : points) {
        const auto &s = p.summary;
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
        out += u'\n';
    }
    out += u"(latencies in ms; percentiles by linear interpolation)\n"_s;
    return out;
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
    err.flush();

    Session session;
    session.command = reproduceCommand(argv);
    transportKindFromName(opts.transport, &session.transportKind);
    if (!opts.project.isEmpty()) {
        session.recorder = std::make_unique<RunRecorder>();
        if (!session.recorder->open(opts.project, &error))
            return fail(u"--project %1: %2"_s.arg(opts.project, error));
    }

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

    session.apiKey = qgetenv("OPENAI_API_KEY");
    const EndpointCheck check = checkEndpoint(plan.sut, session.apiKey, 10000);
    if (check.settingsError)
        return fail(check.error);
    if (!check.reachable) {
        const QString via =
            check.route.startsWith("direct"_L1) ? QString() : u" through proxy "_s + check.route;
        return fail(
            u"cannot reach %1 (--base-url)%2: %3"_s.arg(plan.sut.baseUrl, via, check.error));
    }
    if (plan.sut.model.isEmpty()) {
        if (check.models.isEmpty())
            return fail(u"--model is required: %1/v1/models lists no model (%2)"_s.arg(
                plan.sut.baseUrl, check.error.isEmpty() ? u"empty list"_s : check.error));
        plan.sut.model = check.models.first();
    }

    if (!plan.profile.tracePath.isEmpty()) {
        // The trace gives both the arrival times and each request's lengths (or prompt).
        QList<TraceRow> rows;
        if (!loadTrace(plan.profile.tracePath, &rows, &error))
            return fail(error);
        if (rows.isEmpty())
            return fail(u"--trace %1 has no rows"_s.arg(plan.profile.tracePath));
        for (int i = 0; i < rows.size(); ++i) {
            PromptItem item;
            item.prompt = rows[i].prompt.isEmpty()
                              ? syntheticPrompt(rows[i].inputTokens, plan.profile.seed + quint64(i))
                              : rows[i].prompt;
            item.inputTokens = rows[i].inputTokens;
            item.outputTokens =
                rows[i].outputTokens > 0 ? rows[i].outputTokens : plan.dataset.randomOutputLen;
            item.sourceIndex = rows[i].line;
            session.dataset.items.append(item);
        }
        session.traceSchedule = buildTraceSchedule(rows, plan.profile.traceTimeScale);
        QFile f(plan.profile.tracePath);
        f.open(QIODevice::ReadOnly);
        session.dataset.info.sha256 = QString::fromLatin1(
            QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex());
        session.dataset.info.path = plan.profile.tracePath;
        session.dataset.info.itemCount = rows.size();
    } else {
        if (plan.dataset.kind == DatasetKind::Random) {
            QString note;
            const double ratio = measureTokensPerWord(plan.sut, session.apiKey, 10000, &note);
            if (ratio > 0)
                plan.dataset.tokensPerWord = ratio;
            err << note << "\n";
            err.flush();
        }
        const int wanted = plan.profile.numPrompts > 0 ? plan.profile.numPrompts : 1000;
        if (!loadDataset(plan.dataset, wanted, plan.profile.seed, &session.dataset, &error))
            return fail(error);
    }

    if (opts.shardCount > 1 || opts.startAtMs > 0) {
        if (!prepareShard(opts, &plan, &session.dataset, &session.traceSchedule, session.apiKey,
                          &session.shard, &error))
            return fail(error, 2);
    }

    out << "Traffic request rate: " << rateText(plan.profile) << "\n";
    out << "Burstiness factor: " << pythonFloat(plan.profile.burstiness)
        << (plan.profile.burstiness == 1.0 ? " (Poisson process)" : " (Gamma distribution)")
        << "\n";
    out << "Maximum request concurrency: "
        << (plan.profile.maxConcurrency > 0 ? QString::number(plan.profile.maxConcurrency)
                                            : u"None"_s)
        << "\n";
    out.flush();

    if (opts.sweep > 0 || opts.findMaxValidRate) {
        const bool search = opts.findMaxValidRate;
        qint64 sweepId = 0;
        if (session.recorder) {
            sweepId = session.recorder->createSweep(
                plan.name.isEmpty() ? (search ? u"max valid rate"_s : u"sweep"_s) : plan.name,
                search ? u"find-max-valid-rate"_s : u"sweep"_s,
                QJsonObject{{u"rates"_s, opts.sweep}, {u"tolerance"_s, opts.rateTolerance}},
                &error);
            if (sweepId <= 0)
                return fail(error);
        }
        QList<SweepPoint> points;
        int position = 0;
        auto runPoint = [&](const QString &label, RunPlan p, double target, SweepPoint *pt) {
            p.name = (plan.name.isEmpty() ? QString() : plan.name + u' ') + label;
            err << "--- " << label << "\n";
            err.flush();
            RunReportInput in;
            if (!executeRun(session, p, sweepId, position++, &in, &error))
                return false;
            pt->label = label;
            pt->targetRate = target;
            pt->summary = summarize(in.records, SummaryOptions::forProfile(p.profile));
            pt->status = in.status;
            if (p.profile.scenario == Scenario::Server) {
                const QJsonObject j = runResultJson(in, false);
                pt->validity = j.value(u"mlperf"_s).toObject().value(u"result"_s).toString();
            }
            if (opts.saveResult) {
                QString path;
                if (!saveResult(opts, in, u"-"_s + label, &path, &error))
                    return false;
                err << "Result saved to " << path << "\n";
            }
            points.append(*pt);
            return in.status == "completed"_L1;
        };

        // Synchronous baseline (one request at a time), then the client's maximum throughput.
        RunPlan base = plan;
        base.profile.scenario = Scenario::None;
        base.profile.closedLoopConcurrency = 1;
        base.profile.maxConcurrency = 0;
        SweepPoint baseline, maxTp;
        if (!runPoint(u"synchronous"_s, base, 0, &baseline))
            return error.isEmpty() ? 130 : fail(error);
        RunPlan top = plan;
        top.profile.scenario = Scenario::None;
        top.profile.requestRate = std::numeric_limits<double>::infinity();
        if (!runPoint(u"throughput"_s, top, 0, &maxTp))
            return error.isEmpty() ? 130 : fail(error);
        const double lo = baseline.summary.requestThroughput;
        const double hi = maxTp.summary.requestThroughput;
        if (!(hi > 0))
            return fail(u"the max-throughput run completed no request; nothing to sweep"_s);

        if (!search) {
            for (int i = 1; i <= opts.sweep; ++i) {
                RunPlan p = plan;
                p.profile.requestRate = lo + (hi - lo) * i / (opts.sweep + 1);
                SweepPoint pt;
                if (!runPoint(u"rate-%1"_s.arg(p.profile.requestRate, 0, 'f', 2), p,
                              p.profile.requestRate, &pt))
                    return error.isEmpty() ? 130 : fail(error);
            }
            out << sweepTable(points);
        } else {
            // Bisection on the Server rate between 0 and the measured maximum throughput.
            double good = 0, bad = hi * 1.05;
            while (bad - good > opts.rateTolerance * hi) {
                RunPlan p = plan;
                p.profile.requestRate = (good + bad) / 2;
                SweepPoint pt;
                if (!runPoint(u"server-%1"_s.arg(p.profile.requestRate, 0, 'f', 2), p,
                              p.profile.requestRate, &pt) &&
                    !error.isEmpty())
                    return fail(error);
                if (pt.validity == "VALID"_L1)
                    good = p.profile.requestRate;
                else
                    bad = p.profile.requestRate;
            }
            out << sweepTable(points);
            if (good > 0)
                out << "Highest VALID Server rate: " << QString::number(good, 'f', 2)
                    << " req/s (bisection to within " << opts.rateTolerance * 100
                    << " % of the maximum throughput " << QString::number(hi, 'f', 2)
                    << " req/s)\n";
            else
                out << "No Server rate tried was VALID (lowest tried: "
                    << QString::number(bad, 'f', 2) << " req/s)\n";
        }
        return 0;
    }

    RunReportInput in;
    if (!executeRun(session, plan, 0, -1, &in, &error))
        return fail(error);
    out << formatRunReport(in);
    out.flush();
    if (session.recorder)
        err << "Recorded in " << opts.project << "\n";
    if (opts.saveResult) {
        QString path;
        if (!saveResult(opts, in, {}, &path, &error))
            return fail(error);
        err << "Result saved to " << path << "\n";
    }
    return in.status == "completed"_L1 ? 0 : 130;
}

} // namespace sb::cli
