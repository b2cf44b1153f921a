#include "args.h"
#include "commands.h"

#include "run/cacheauditrun.h"

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

    CacheAuditRequest request;
    SutConfig &sut = request.sut;
    if (a.has(u"backend"_s) && !apiFlavourFromName(a.value(u"backend"_s), &sut.flavour))
        return fail(
            u"--backend must be openai, openai-chat, openai-responses, anthropic-messages or "
            "vllm, got '%1'"_s.arg(a.value(u"backend"_s)),
            2);
    const bool endpointGiven = a.has(u"base-url"_s) || a.has(u"host"_s) || a.has(u"port"_s);
    sut.builtInSimulator = !endpointGiven;
    QString e;
    if (a.has(u"base-url"_s)) {
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
    request.numPrompts = a.intValue(u"num-prompts"_s, 32, &e);
    request.inputLen = a.intValue(u"random-input-len"_s, 512, &e);
    request.outputLen = a.intValue(u"random-output-len"_s, 1, &e);
    request.maxConcurrency = a.intValue(u"max-concurrency"_s, 1, &e);
    request.timeoutS = a.doubleValue(u"timeout"_s, 600, &e);
    if (a.has(u"seed"_s)) {
        bool ok = false;
        request.seed = a.value(u"seed"_s).toULongLong(&ok);
        if (!ok)
            return fail(
                u"--seed expects a non-negative integer, got '%1'"_s.arg(a.value(u"seed"_s)), 2);
    }
    if (!e.isEmpty())
        return fail(e, 2);
    const QList<PlanIssue> issues = validateCacheAudit(request);
    if (!issues.isEmpty())
        return fail(u"--"_s + issues.first().field + u' ' + issues.first().message.translated(), 2);
    const QString jsonPath = a.value(u"json"_s);

    PreparedCacheAudit prepared;
    PlanIssue issue;
    if (!prepareCacheAudit(request, qgetenv("OPENAI_API_KEY"), &prepared, &issue))
        return fail(u"--"_s + issue.field + u' ' + issue.message.translated());
    if (!prepared.note.isEmpty())
        err << prepared.note << "\n";
    err.flush();
    const SutConfig &target = prepared.request.sut;
    out << "Prefix-cache audit of " << target.baseUrl << " (model " << target.model
        << "): " << request.numPrompts << " prompts of about " << request.inputLen
        << " tokens per pass, max_tokens " << request.outputLen << ", max concurrency "
        << request.maxConcurrency << "\n";
    out.flush();

    CacheAuditRun audit(std::move(prepared));
    QObject::connect(&audit, &CacheAuditRun::passStarted, &audit, [&](int, const QString &label) {
        err << "Pass " << label << "...\n";
        err.flush();
    });
    g_auditInterrupts = 0;
    std::signal(SIGINT, onAuditSignal);
    std::signal(SIGTERM, onAuditSignal);
    QEventLoop loop;
    bool ok = false;
    error.clear();
    QObject::connect(&audit, &CacheAuditRun::finished, &loop, [&](bool done, const QString &why) {
        ok = done;
        error = why;
        loop.quit();
    });
    QTimer signalPoll;
    QObject::connect(&signalPoll, &QTimer::timeout, &loop, [&] {
        if (g_auditInterrupts.load() > 0 && audit.isRunning()) {
            err << "Interrupted: cancelling the requests in flight...\n";
            err.flush();
            audit.stop();
        }
    });
    signalPoll.start(100);
    if (!audit.start(&error))
        return fail(error);
    loop.exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (!ok && error.isEmpty())
        return fail(u"interrupted before the audit finished"_s, 130);
    if (!ok)
        return fail(error);

    out << audit.result().formatText();
    out.flush();
    if (!jsonPath.isEmpty()) {
        QDir().mkpath(QFileInfo(jsonPath).absolutePath());
        QSaveFile f(jsonPath);
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(QJsonDocument(audit.resultJson()).toJson(QJsonDocument::Indented)) < 0 ||
            !f.commit())
            return fail(u"cannot write %1: %2"_s.arg(jsonPath, f.errorString()));
        err << "Audit saved to " << jsonPath << "\n";
    }
    return 0;
}

} // namespace sb::cli
