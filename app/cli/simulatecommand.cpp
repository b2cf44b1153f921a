#include "simulatecommand.h"

#include "sim/simulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>
#include <QTextStream>
#include <QTimer>

#ifdef Q_OS_UNIX
#include <csignal>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace {

#ifdef Q_OS_UNIX
int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    // Only async-signal-safe work here: the event loop reads the pipe and quits.
    const char c = 1;
    [[maybe_unused]] const ssize_t n = ::write(g_signalPipe[1], &c, 1);
}

// A thousand concurrent streams need more descriptors than the usual soft limit of 1024.
void raiseDescriptorLimit()
{
    rlimit rl{};
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}
#endif

bool parseDouble(const QCommandLineParser &p, const QString &name, double min, double *out,
                 QString *error)
{
    if (!p.isSet(name))
        return true;
    bool ok = false;
    const double v = p.value(name).toDouble(&ok);
    if (!ok || v < min) {
        *error = u"--%1: expected a number >= %2, got '%3'"_s.arg(name).arg(min).arg(p.value(name));
        return false;
    }
    *out = v;
    return true;
}

bool parseInt(const QCommandLineParser &p, const QString &name, int min, int max, int *out,
              QString *error)
{
    if (!p.isSet(name))
        return true;
    bool ok = false;
    const int v = p.value(name).toInt(&ok);
    if (!ok || v < min || v > max) {
        *error =
            u"--%1: expected an integer in [%2, %3], got '%4'"_s.arg(name).arg(min).arg(max).arg(
                p.value(name));
        return false;
    }
    *out = v;
    return true;
}

} // namespace

int simulateCommand(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    sb::SimConfig c;
    // A long-running server has nobody reading its request log.
    c.recordLog = false;

    QCommandLineParser p;
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    p.setApplicationDescription(
        u"Serve the built-in streaming simulator (/v1/completions, /v1/chat/completions, "
        "/v1/responses as OpenAI's Responses API, /v1/messages as Anthropic's Messages API, "
        "/v1/embeddings, /v1/rerank and /rerank (not streamed), /v1/models, /tokenize), with Prometheus metrics in vLLM's names at /metrics and a "
        "simulated DCGM exporter at /dcgm/metrics."_s);
    const QCommandLineOption help(QStringList{u"h"_s, u"help"_s}, u"Show this help."_s);
    p.addOption(help);
    p.addOptions({
        {u"host"_s, u"Listen address (default 127.0.0.1)."_s, u"ADDR"_s},
        {u"port"_s, u"Listen port; 0 picks a free one (default 8000)."_s, u"PORT"_s},
        {u"ttft-ms"_s, u"Time to first token in ms (default %1)."_s.arg(c.ttftMs), u"MS"_s},
        {u"itl-ms"_s, u"Gap between token chunks in ms (default %1)."_s.arg(c.itlMs), u"MS"_s},
        {u"jitter-ms"_s, u"Jitter added to TTFT and every gap in ms (default 0)."_s, u"MS"_s},
        {u"jitter-dist"_s, u"Jitter distribution: uniform (+-jitter) or gaussian (sigma)."_s,
         u"DIST"_s},
        {u"tokens-per-chunk"_s, u"Tokens per chunk, as with speculative decoding (default 1)."_s,
         u"K"_s},
        {u"capacity"_s,
         u"Concurrent sequences; more requests queue FIFO (default 0 = unlimited)."_s, u"N"_s},
        {u"prefill-ms-per-token"_s,
         u"Extra TTFT per prompt token not served from the prefix cache, "
         "in ms (default 0)."_s,
         u"MS"_s},
        {u"prefix-cache"_s,
         u"Model vLLM's automatic prefix caching: repeated leading blocks of a "
         "prompt skip prefill, and usage reports prompt_tokens_details.cached_tokens. "
         "Changes TTFT only with --prefill-ms-per-token > 0."_s},
        {u"no-cache-reset"_s,
         u"Answer 404 at POST /reset_prefix_cache and POST /flush_cache, as a server without a "
         "prefix-cache reset does (by default both empty the prefix cache)."_s},
        {u"prefix-block-tokens"_s,
         u"Prefix-cache block size in tokens (words) (default %1)."_s.arg(c.prefixBlockTokens),
         u"N"_s},
        {u"prefix-cache-blocks"_s,
         u"Prefix-cache capacity in blocks, least recently used evicted "
         "(default %1)."_s.arg(c.prefixCacheBlocks),
         u"N"_s},
        {u"kv-cache-tokens"_s,
         u"KV-cache capacity in tokens behind vllm:kv_cache_usage_perc at /metrics "
         "(default %1)."_s.arg(c.kvCacheTokens),
         u"N"_s},
        {u"default-max-tokens"_s,
         u"Tokens when a request gives no max_tokens (default %1)."_s.arg(c.defaultMaxTokens),
         u"N"_s},
        {u"max-model-len"_s,
         u"Context length; longer requests get a 400 (default %1)."_s.arg(c.maxModelLen), u"N"_s},
        {u"model"_s, u"Model name served (default %1)."_s.arg(c.modelName), u"NAME"_s},
        {u"unpaced"_s, u"Write each whole response at once (client parse-ceiling tests)."_s},
        {u"reasoning-tokens"_s,
         u"Reasoning mode: the first N tokens of a streamed chat or Responses answer are "
         "reasoning deltas, and of a Messages answer whose request enables thinking a thinking "
         "block (at most its budget_tokens) (counted in max_tokens and the output tokens; at "
         "most max_tokens - 1) (default 0)."_s,
         u"N"_s},
        {u"reasoning-field"_s,
         u"The delta field of reasoning text: reasoning_content (default) or reasoning."_s,
         u"NAME"_s},
        {u"reasoning-usage"_s,
         u"Report usage.completion_tokens_details.reasoning_tokens (chat) and "
         "usage.output_tokens_details.thinking_tokens (Messages) (reasoning mode)."_s},
        {u"no-usage"_s,
         u"Never send a usage object, even when the request asks for one (a server without "
         "token counts)."_s},
        {u"fault-rate"_s,
         u"Fraction of requests given a fault; KIND is http429, http500, reset, "
         "malformed, error-event or stall. Repeatable."_s,
         u"KIND=RATE"_s},
        {u"fault-after"_s, u"Tokens before a mid-stream fault (default: half of max_tokens)."_s,
         u"N"_s},
        {u"pooling-ms"_s,
         u"Embeddings and rerank: time from admission to the answer in ms, besides "
         "--pooling-ms-per-token (default %1)."_s.arg(c.poolingMs),
         u"MS"_s},
        {u"pooling-ms-per-token"_s,
         u"Embeddings and rerank: extra time per prompt token in ms (default %1)."_s.arg(
             c.poolingMsPerToken),
         u"MS"_s},
        {u"embedding-dim"_s,
         u"Floats per embedding vector (default %1)."_s.arg(c.embeddingDimensions), u"N"_s},
        {u"seed"_s, u"Seed for jitter and fault draws (default 0)."_s, u"SEED"_s},
        {u"duration"_s, u"Serve this many seconds; 0 = until SIGINT/SIGTERM (default 0)."_s,
         u"S"_s},
        {u"request-log"_s,
         u"Append one JSON line per finished request to FILE: request_id, path, status, "
         "t_accept_ns, t_admit_ns, t_end_ns (CLOCK_MONOTONIC), chunk_times_ns, "
         "completion_tokens (tokens written), prompt_tokens, cancelled (the client closed the "
         "connection before the response ended), input_items (embeddings inputs, rerank "
         "documents), images and image_bytes (a prompt's images, bytes after base64 "
         "decoding)."_s,
         u"FILE"_s},
    });

    auto fail = [&err](const QString &message) {
        err << "servebench-cli simulate: " << message << "\n";
        err.flush();
        return 2;
    };
    if (!p.parse(QStringList{u"simulate"_s} + args))
        return fail(p.errorText());
    if (p.isSet(help)) {
        // The parser names the executable's path; the user typed a subcommand.
        QString text = p.helpText();
        text.replace(0, text.indexOf(u'\n'), u"Usage: servebench-cli simulate [options]"_s);
        out << text;
        return 0;
    }
    if (!p.positionalArguments().isEmpty())
        return fail(u"unexpected argument '%1'"_s.arg(p.positionalArguments().first()));

    QString error;
    c.port = 8000;
    int port = c.port;
    double duration = 0;
    if (p.isSet(u"host"_s))
        c.host = p.value(u"host"_s);
    if (p.isSet(u"model"_s)) {
        c.modelName = p.value(u"model"_s);
        if (c.modelName.isEmpty())
            return fail(u"--model: the name must not be empty"_s);
    }
    c.unpaced = p.isSet(u"unpaced"_s);
    c.prefixCache = p.isSet(u"prefix-cache"_s);
    c.cacheResetEndpoints = !p.isSet(u"no-cache-reset"_s);
    if (!c.prefixCache && (p.isSet(u"prefix-block-tokens"_s) || p.isSet(u"prefix-cache-blocks"_s)))
        return fail(u"--prefix-block-tokens and --prefix-cache-blocks need --prefix-cache"_s);
    if (!parseInt(p, u"port"_s, 0, 65535, &port, &error) ||
        !parseDouble(p, u"ttft-ms"_s, 0, &c.ttftMs, &error) ||
        !parseDouble(p, u"itl-ms"_s, 0, &c.itlMs, &error) ||
        !parseDouble(p, u"jitter-ms"_s, 0, &c.jitterMs, &error) ||
        !parseInt(p, u"tokens-per-chunk"_s, 1, 1 << 20, &c.tokensPerChunk, &error) ||
        !parseInt(p, u"capacity"_s, 0, 1 << 24, &c.capacity, &error) ||
        !parseDouble(p, u"prefill-ms-per-token"_s, 0, &c.prefillMsPerToken, &error) ||
        !parseInt(p, u"default-max-tokens"_s, 1, 1 << 24, &c.defaultMaxTokens, &error) ||
        !parseInt(p, u"kv-cache-tokens"_s, 1, 1 << 30, &c.kvCacheTokens, &error) ||
        !parseInt(p, u"max-model-len"_s, 0, 1 << 30, &c.maxModelLen, &error) ||
        !parseInt(p, u"fault-after"_s, 0, 1 << 24, &c.faultAfterTokens, &error) ||
        !parseInt(p, u"prefix-block-tokens"_s, 1, 1 << 20, &c.prefixBlockTokens, &error) ||
        !parseInt(p, u"prefix-cache-blocks"_s, 0, 1 << 30, &c.prefixCacheBlocks, &error) ||
        !parseInt(p, u"reasoning-tokens"_s, 0, 1 << 24, &c.reasoningTokens, &error) ||
        !parseDouble(p, u"pooling-ms"_s, 0, &c.poolingMs, &error) ||
        !parseDouble(p, u"pooling-ms-per-token"_s, 0, &c.poolingMsPerToken, &error) ||
        !parseInt(p, u"embedding-dim"_s, 1, 1 << 16, &c.embeddingDimensions, &error) ||
        !parseDouble(p, u"duration"_s, 0, &duration, &error))
        return fail(error);
    c.port = quint16(port);
    c.usage = !p.isSet(u"no-usage"_s);
    c.reasoningUsageDetails = p.isSet(u"reasoning-usage"_s);
    if (p.isSet(u"reasoning-field"_s)) {
        c.reasoningField = p.value(u"reasoning-field"_s);
        if (c.reasoningField != "reasoning_content"_L1 && c.reasoningField != "reasoning"_L1)
            return fail(
                u"--reasoning-field: expected reasoning_content or reasoning, got '%1'"_s.arg(
                    c.reasoningField));
    }
    if (c.reasoningTokens == 0 && (p.isSet(u"reasoning-usage"_s) || p.isSet(u"reasoning-field"_s)))
        return fail(u"--reasoning-usage and --reasoning-field need --reasoning-tokens"_s);
    if (p.isSet(u"jitter-dist"_s)) {
        const QString d = p.value(u"jitter-dist"_s).toLower();
        if (d == "uniform"_L1)
            c.jitter = sb::SimJitter::Uniform;
        else if (d == "gaussian"_L1 || d == "normal"_L1)
            c.jitter = sb::SimJitter::Gaussian;
        else
            return fail(u"--jitter-dist: expected uniform or gaussian, got '%1'"_s.arg(d));
    }
    if (p.isSet(u"seed"_s)) {
        bool ok = false;
        c.seed = p.value(u"seed"_s).toULongLong(&ok);
        if (!ok)
            return fail(
                u"--seed: expected a non-negative integer, got '%1'"_s.arg(p.value(u"seed"_s)));
    }
    const QStringList faults = p.values(u"fault-rate"_s);
    for (const QString &spec : faults) {
        if (!c.setFaultRateFromSpec(spec, &error))
            return fail(u"--fault-rate: "_s + error);
    }
    double total = 0;
    for (sb::SimFault f : sb::allSimFaults())
        total += c.faultRate(f);
    if (total > 1.0 + 1e-9)
        return fail(u"--fault-rate: the rates add up to %1, more than 1"_s.arg(total));

#ifdef Q_OS_UNIX
    raiseDescriptorLimit();
#endif
    // The request log, written by the simulator's thread as each request finishes: a test in
    // another process reads what the server did (cancellations included) beside its client.
    // Declared first: it outlives the simulator that writes it.
    QFile requestLog;
    sb::Simulator sim(c);
    if (p.isSet(u"request-log"_s)) {
        requestLog.setFileName(p.value(u"request-log"_s));
        if (!requestLog.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text))
            return fail(u"--request-log: cannot open %1: %2"_s.arg(requestLog.fileName(),
                                                                    requestLog.errorString()));
        sim.setRequestLogSink([&requestLog](const sb::SimLogEntry &e) {
            QJsonArray chunks;
            for (const qint64 t : e.chunkWriteNs)
                chunks.append(t);
            const QJsonObject o{{u"request_id"_s, e.requestId},
                                {u"seq"_s, qint64(e.seq)},
                                {u"path"_s, e.path},
                                {u"status"_s, e.httpStatus},
                                {u"stream"_s, e.stream},
                                {u"t_accept_ns"_s, e.tAccept},
                                {u"t_admit_ns"_s, e.tAdmit},
                                {u"t_end_ns"_s, e.tEnd},
                                {u"chunk_times_ns"_s, chunks},
                                {u"completion_tokens"_s, e.completionTokens},
                                {u"prompt_tokens"_s, e.promptTokens},
                                {u"cancelled"_s, e.clientClosed},
                                {u"input_items"_s, e.inputItems},
                                {u"images"_s, e.images},
                                {u"image_bytes"_s, e.imageBytes}};
            requestLog.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
            requestLog.flush();
        });
    }
    if (!sim.start()) {
        err << "servebench-cli simulate: " << sim.errorString() << "\n";
        return 1;
    }
    out << "Simulator listening on " << sim.baseUrl().toString() << " (model " << c.modelName;
    if (c.reasoningTokens > 0)
        out << ", reasoning: " << c.reasoningTokens << " tokens of delta." << c.reasoningField
            << " before each chat answer";
    if (!c.usage)
        out << ", no usage";
    if (c.prefixCache) {
        out << ", prefix cache: blocks of " << c.prefixBlockTokens << " tokens, at most "
            << c.prefixCacheBlocks << " blocks";
        if (c.prefillMsPerToken <= 0)
            out << "; no effect on TTFT without --prefill-ms-per-token";
    }
    out << ")\n";
    out.flush();

#ifdef Q_OS_UNIX
    QSocketNotifier *notifier = nullptr;
    if (::pipe(g_signalPipe) == 0) {
        ::fcntl(g_signalPipe[1], F_SETFL, O_NONBLOCK);
        notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read,
                                       QCoreApplication::instance());
        QObject::connect(notifier, &QSocketNotifier::activated, QCoreApplication::instance(),
                         [] { QCoreApplication::quit(); });
        struct sigaction sa
        {};
        sa.sa_handler = onSignal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, nullptr);
        sigaction(SIGTERM, &sa, nullptr);
    }
#endif
    if (duration > 0)
        QTimer::singleShot(qint64(duration * 1000), QCoreApplication::instance(),
                           [] { QCoreApplication::quit(); });

    QCoreApplication::exec();

#ifdef Q_OS_UNIX
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    delete notifier;
    if (g_signalPipe[0] >= 0) {
        ::close(g_signalPipe[0]);
        ::close(g_signalPipe[1]);
        g_signalPipe[0] = g_signalPipe[1] = -1;
    }
#endif
    const sb::SimCounters counters = sim.counters();
    sim.stop();
    err << "Simulator stopped: " << counters.totalRequests << " requests on "
        << counters.totalConnections << " connections (at most " << counters.maxOpenConnections
        << " open at once)\n";
    return 0;
}
