#include "args.h"
#include "commands.h"

#include "client/endpointprobe.h"
#include "common/version.h"
#include "config/runplan.h"
#include "data/dataset.h"
#include "data/seededrng.h"
#include "data/syntheticprompt.h"
#include "metrics/cacheaudit.h"
#include "run/runcontroller.h"
#include "sim/simulator.h"

#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QTextStream>
#include <QTimer>
#include <QUrl>
#include <atomic>
#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;

namespace sb::cli {

namespace {

std::atomic<int> g_auditInterrupts{0};
extern "C" void onAuditSignal(int)
{
    g_auditInterrupts.fetch_add(1);
}

int fail(const QString &message, int code = 1)
{
    return sb::cli::fail(u"audit-cache"_s, message, code);
}

QList<OptionSpec> auditSpecs()
{
    using K = OptionSpec::Kind;
    return {
        {u"help"_s, K::Flag, u"show this help"_s, {}},
        {u"base-url"_s, K::Value, u"server base URL, e.g. http://127.0.0.1:8000"_s, {}},
        {u"host"_s, K::Value, u"server host (with --port; default 127.0.0.1)"_s, {}},
        {u"port"_s, K::Value, u"server port (default 8000)"_s, {}},
        {u"endpoint"_s, K::Value, u"API path (default by backend: /v1/completions)"_s, {}},
        {u"backend"_s, K::Value, u"openai | openai-chat (vllm = openai)"_s, {}},
        {u"model"_s, K::Value, u"model id (default: first of /v1/models)"_s, {}},
        {u"num-prompts"_s, K::Value, u"prompts per pass (default 32)"_s, {}},
        {u"random-input-len"_s,
         K::Value,
         u"prompt length in tokens (words), prefix included (default 512)"_s,
         {}},
        {u"random-output-len"_s,
         K::Value,
         u"output tokens per request (default 1: only TTFT matters)"_s,
         {}},
        {u"max-concurrency"_s,
         K::Value,
         u"requests in flight (default 1, so requests do not interfere)"_s,
         {}},
        {u"seed"_s, K::Value, u"seed of the prompt bodies (default 0)"_s, {}},
        {u"header"_s, K::Repeated, u"extra header K:V or K=V (repeatable)"_s, {}},
        {u"timeout"_s, K::Value, u"per-request timeout in seconds (default 600)"_s, {}},
        {u"json"_s, K::Value, u"also write the audit as JSON to this file"_s, {}},
    };
}

// Runs one pass to its end. Returns false only when the run could not start or was interrupted.
bool runPass(const RunPlan &plan, const QList<PromptItem> &items, const QByteArray &apiKey,
             QList<RequestRecord> *records, QString *error)
{
    RunController controller;
    controller.configure(plan, items, apiKey);
    if (!controller.start(error))
        return false;
    QEventLoop loop;
    QObject::connect(&controller, &RunController::finished, &loop, &QEventLoop::quit);
    QTimer signalPoll;
    QObject::connect(&signalPoll, &QTimer::timeout, &loop, [&] {
        if (g_auditInterrupts.load() > 0 && controller.status() == RunStatus::Running) {
            QTextStream(stderr) << "Interrupted: cancelling the requests in flight...\n";
            controller.stop();
        }
    });
    signalPoll.start(100);
    if (controller.status() == RunStatus::Running)
        loop.exec();
    *records = controller.records();
    if (controller.status() == RunStatus::Interrupted) {
        *error = u"interrupted"_s;
        return false;
    }
    return true;
}

} // namespace

int auditCacheCommand(const QStringList &argv)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    Args a(auditSpecs());
    QString error;
    if (!a.parse(argv, &error))
        return fail(error, 2);
    if (a.has(u"help"_s)) {
        out << "usage: servebench-cli audit-cache [options]\n\n"
               "Finds out whether a server caches prompt prefixes, by TTFT and by the usage field\n"
               "prompt_tokens_details.cached_tokens. Pass A sends N prompts, each behind a new\n"
               "unique prefix (cold); pass B sends exactly the same prompts again (warm if the\n"
               "server caches prefixes); pass C sends the same prompt bodies behind new unique\n"
               "prefixes (cold again: controls for drift between passes). The effect is the TTFT\n"
               "ratio B/C, paired by prompt, with a 95 % confidence interval. Without an endpoint\n"
               "it audits the built-in simulator with its prefix cache on.\n\n"
            << a.helpText();
        return 0;
    }
    if (!a.positional().isEmpty())
        return fail(u"unexpected argument '%1'"_s.arg(a.positional().first()), 2);

    RunPlan plan;
    SutConfig &sut = plan.sut;
    if (a.has(u"backend"_s) && !apiFlavourFromName(a.value(u"backend"_s), &sut.flavour))
        return fail(
            u"--backend must be openai, openai-chat or vllm, got '%1'"_s.arg(a.value(u"backend"_s)),
            2);
    const bool endpointGiven = a.has(u"base-url"_s) || a.has(u"host"_s) || a.has(u"port"_s);
    QString e;
    if (a.has(u"base-url"_s)) {
        const QUrl url(a.value(u"base-url"_s));
        if (!url.isValid() || url.host().isEmpty() ||
            (url.scheme() != "http"_L1 && url.scheme() != "https"_L1))
            return fail(u"--base-url must be an http:// or https:// URL, got '%1'"_s.arg(
                            a.value(u"base-url"_s)),
                        2);
        sut.baseUrl = a.value(u"base-url"_s);
        while (sut.baseUrl.endsWith(u'/'))
            sut.baseUrl.chop(1);
    } else if (endpointGiven) {
        const int port = a.intValue(u"port"_s, 8000, &e);
        if (!e.isEmpty() || port <= 0 || port > 65535)
            return fail(e.isEmpty() ? u"--port must be between 1 and 65535"_s : e, 2);
        sut.baseUrl = u"http://%1:%2"_s.arg(a.value(u"host"_s, u"127.0.0.1"_s)).arg(port);
    }
    sut.endpoint = a.value(u"endpoint"_s);
    if (!sut.endpoint.isEmpty() && !sut.endpoint.startsWith(u'/'))
        sut.endpoint.prepend(u'/');
    if (sut.endpoint.contains("chat/completions"_L1) && !a.has(u"backend"_s))
        sut.flavour = ApiFlavour::Chat;
    sut.model = a.value(u"model"_s);
    for (const QString &h : a.values(u"header"_s)) {
        QPair<QString, QString> kv;
        if (!parseHeaderArg(h, &kv))
            return fail(u"--header expects NAME:VALUE or NAME=VALUE, got '%1'"_s.arg(h), 2);
        sut.extraHeaders.append(kv);
    }

    const int numPrompts = a.intValue(u"num-prompts"_s, 32, &e);
    const int inputLen = a.intValue(u"random-input-len"_s, 512, &e);
    const int outputLen = a.intValue(u"random-output-len"_s, 1, &e);
    const int maxConcurrency = a.intValue(u"max-concurrency"_s, 1, &e);
    const double timeoutS = a.doubleValue(u"timeout"_s, 600, &e);
    quint64 seed = 0;
    if (a.has(u"seed"_s)) {
        bool ok = false;
        seed = a.value(u"seed"_s).toULongLong(&ok);
        if (!ok)
            return fail(
                u"--seed expects a non-negative integer, got '%1'"_s.arg(a.value(u"seed"_s)), 2);
    }
    if (!e.isEmpty())
        return fail(e, 2);
    if (numPrompts < 2)
        return fail(u"--num-prompts must be at least 2 (the interval needs two pairs)"_s, 2);
    if (inputLen < 2)
        return fail(u"--random-input-len must be at least 2 (a prefix and a body)"_s, 2);
    if (outputLen < 1)
        return fail(u"--random-output-len must be at least 1"_s, 2);
    if (maxConcurrency < 1)
        return fail(u"--max-concurrency must be at least 1"_s, 2);
    if (timeoutS <= 0)
        return fail(u"--timeout must be positive"_s, 2);
    const QString jsonPath = a.value(u"json"_s);

    // Without an endpoint the built-in simulator is audited, with a prefix cache to find: the
    // audit then demonstrates itself, and its test has a known answer.
    std::unique_ptr<Simulator> sim;
    if (!endpointGiven) {
        SimConfig cfg;
        cfg.prefixCache = true;
        cfg.prefillMsPerToken = 0.1;
        cfg.recordLog = false;
        sim = std::make_unique<Simulator>(cfg);
        if (!sim->start())
            return fail(u"could not start the built-in simulator: %1"_s.arg(sim->errorString()));
        sut.baseUrl = u"http://127.0.0.1:%1"_s.arg(sim->port());
        sut.builtInSimulator = true;
        sut.name = u"built-in simulator"_s;
        err << "No endpoint given (--base-url, --host/--port): auditing the built-in simulator at "
            << sut.baseUrl << " with its prefix cache ON (blocks of " << cfg.prefixBlockTokens
            << " tokens) and prefill " << cfg.prefillMsPerToken
            << " ms per uncached prompt token (TTFT " << cfg.ttftMs << " ms + prefill).\n";
        err.flush();
    }

    const QByteArray apiKey = qgetenv("OPENAI_API_KEY");
    TransportOptions options;
    if (!resolveTransportOptions(sut, QProcessEnvironment::systemEnvironment(), &options, &error))
        return fail(error);
    EndpointProbe probe(sut, apiKey, options, int(std::min(timeoutS, 60.0) * 1000));
    const ModelList models = probe.models();
    if (!models.reachable)
        return fail(u"cannot reach %1 (--base-url): %2"_s.arg(sut.baseUrl, models.error));
    if (sut.model.isEmpty()) {
        if (models.models.isEmpty())
            return fail(u"--model is required: %1"_s.arg(models.error));
        sut.model = models.models.first();
    }
    if (sut.name.isEmpty())
        sut.name = sut.baseUrl;

    plan.name = u"audit-cache"_s;
    plan.dataset.kind = DatasetKind::Random;
    plan.dataset.randomInputLen = inputLen;
    plan.dataset.randomOutputLen = outputLen;
    LoadProfile &p = plan.profile;
    p.numPrompts = numPrompts;
    p.requestRate = std::numeric_limits<double>::infinity();
    p.maxConcurrency = maxConcurrency;
    p.seed = seed;
    p.timeoutS = timeoutS;
    p.cacheBust = false; // the audit places its own prefixes
    plan.params.ignoreEos = true;

    // Prompt bodies from the seed; prefixes from a fresh nonce, so a second audit against the
    // same server starts cold too. One prefix word changes every block hash after it, which is
    // all a prefix cache keys on.
    SeededRng rng(seed);
    QStringList bodies;
    for (int i = 0; i < numPrompts; ++i)
        bodies.append(SyntheticPromptBuilder::build(inputLen - 1, rng));
    const QString nonce = QString::number(QRandomGenerator::system()->generate64(), 36);
    auto itemsFor = [&](QChar pass) {
        QList<PromptItem> items;
        for (int i = 0; i < numPrompts; ++i) {
            PromptItem item;
            item.prompt = u"audit-%1-%2%3: "_s.arg(nonce).arg(pass).arg(i) + bodies.at(i);
            item.inputTokens = inputLen;
            item.outputTokens = outputLen;
            item.sourceIndex = i; // the pairing key (RequestRecord::datasetItem)
            items.append(item);
        }
        return items;
    };
    const QList<PromptItem> coldItems = itemsFor(u'A');
    const QList<PromptItem> controlItems = itemsFor(u'C');

    out << "Prefix-cache audit of " << sut.baseUrl << " (model " << sut.model << "): " << numPrompts
        << " prompts of about " << inputLen << " tokens per pass, max_tokens " << outputLen
        << ", max concurrency " << maxConcurrency << "\n";
    out.flush();

    g_auditInterrupts = 0;
    std::signal(SIGINT, onAuditSignal);
    std::signal(SIGTERM, onAuditSignal);
    struct PassRun
    {
        const char *label;
        const QList<PromptItem> *items;
        QList<RequestRecord> records;
    };
    PassRun passes[] = {{"A (cold: new unique prefixes)", &coldItems, {}},
                        {"B (warm: A's prompts again)", &coldItems, {}},
                        {"C (control: new unique prefixes)", &controlItems, {}}};
    int rc = 0;
    for (PassRun &pass : passes) {
        err << "Pass " << pass.label << "...\n";
        err.flush();
        if (!runPass(plan, *pass.items, apiKey, &pass.records, &error)) {
            rc = error == "interrupted"_L1 ? 130 : 1;
            break;
        }
    }
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (rc == 130)
        return fail(u"interrupted before the audit finished"_s, 130);
    if (rc != 0)
        return fail(error);

    const CacheAuditResult result =
        auditCache(passes[0].records, passes[1].records, passes[2].records);
    out << result.formatText();
    out.flush();

    if (!jsonPath.isEmpty()) {
        QJsonObject j = result.toJson();
        j[u"tool_version"_s] = QString::fromLatin1(toolVersion());
        j[u"date"_s] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
        j[u"sut"_s] = QJsonObject{{u"base_url"_s, sut.baseUrl},
                                  {u"endpoint"_s, sut.endpoint},
                                  {u"backend"_s, QString::fromLatin1(apiFlavourName(sut.flavour))},
                                  {u"model"_s, sut.model},
                                  {u"built_in_simulator"_s, sut.builtInSimulator}};
        j[u"parameters"_s] =
            QJsonObject{{u"num_prompts"_s, numPrompts},      {u"random_input_len"_s, inputLen},
                        {u"random_output_len"_s, outputLen}, {u"max_concurrency"_s, maxConcurrency},
                        {u"seed"_s, QString::number(seed)},  {u"timeout_s"_s, timeoutS}};
        const QString dir = QFileInfo(jsonPath).absolutePath();
        QDir().mkpath(dir);
        QSaveFile f(jsonPath);
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(QJsonDocument(j).toJson(QJsonDocument::Indented)) < 0 || !f.commit())
            return fail(u"cannot write %1: %2"_s.arg(jsonPath, f.errorString()));
        err << "Audit saved to " << jsonPath << "\n";
    }
    return 0;
}

} // namespace sb::cli
