#include "runflags.h"

#include "client/connectionmode.h"
#include "common/args.h"
#include "common/message.h"
#include "run/metricsplan.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrl>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// The SUT's descriptive fields settable with --sut KEY=VALUE (SutConfig's JSON keys): they do
// not change what is sent, but they are what a comparison compares, so a reproduced run must
// carry them.
const char *const kSutTextKeys[] = {"weights_revision", "engine", "engine_version",
                                    "gpu_model",        "image",  "region",
                                    "client_location",  "notes"};
const char *const kSutIntKeys[] = {"gpu_count", "replicas", "containers", "workers_per_container"};

QList<OptionSpec> runSpecs()
{
    using K = OptionSpec::Kind;
    const QString unused = u"is accepted for compatibility with vllm bench serve and not used"_s;
    auto compat = [&](const char *name, K kind, const QString &why) {
        return OptionSpec{QString::fromLatin1(name),
                          kind,
                          {},
                          u"note: --%1 %2"_s.arg(QString::fromLatin1(name), why)};
    };
    return {
        {u"help"_s, K::Flag, u"show this help"_s, {}},
        {u"base-url"_s, K::Value, u"server base URL, e.g. http://127.0.0.1:8000"_s, {}},
        {u"host"_s, K::Value, u"server host (with --port; default 127.0.0.1)"_s, {}},
        {u"port"_s, K::Value, u"server port (default 8000)"_s, {}},
        {u"endpoint"_s,
         K::Value,
         u"API path (default by backend: /v1/completions, /v1/chat/completions, /v1/responses, "
         "/v1/messages, /v1/embeddings, /v1/rerank; an engine's /rerank works too)"_s,
         {}},
        {u"backend"_s,
         K::Value,
         u"openai | openai-chat | openai-responses | anthropic-messages | openai-embeddings | "
         "vllm-rerank (vllm = openai, infinity-embeddings = openai-embeddings; AIPerf's "
         "completions, chat, responses, messages, embeddings, rerank)"_s,
         {}},
        {u"model"_s, K::Value, u"model id (default: first of /v1/models)"_s, {}},
        {u"dataset-name"_s, K::Value, u"random | sharegpt | custom"_s, {}},
        {u"dataset-path"_s,
         K::Value,
         u"dataset file (sharegpt JSON, custom JSONL); without --dataset-name the kind is read "
         "from the file"_s,
         {}},
        {u"random-input-len"_s, K::Value, u"synthetic input tokens (default 1024)"_s, {}},
        {u"random-output-len"_s, K::Value, u"synthetic output tokens (default 128)"_s, {}},
        {u"random-range-ratio"_s, K::Value, u"uniform length range ratio (default 0)"_s, {}},
        {u"random-prefix-len"_s, K::Value, u"shared prefix tokens (default 0)"_s, {}},
        {u"random-distribution"_s,
         K::Value,
         u"uniform (vLLM's range ratio) | normal (mean, stdev, min, max)"_s,
         {}},
        {u"random-input-stdev"_s, K::Value, u"normal: input length standard deviation"_s, {}},
        {u"random-output-stdev"_s, K::Value, u"normal: output length standard deviation"_s, {}},
        {u"random-input-min"_s, K::Value, u"normal: shortest input (default 1)"_s, {}},
        {u"random-input-max"_s, K::Value, u"normal: longest input (0 = no bound)"_s, {}},
        {u"random-output-min"_s, K::Value, u"normal: shortest output (default 1)"_s, {}},
        {u"random-output-max"_s, K::Value, u"normal: longest output (0 = no bound)"_s, {}},
        {u"random-batch-size"_s,
         K::Value,
         u"embeddings and rerank: dataset items per request (vLLM's name; any dataset): the "
         "inputs of an embeddings request, the documents of a rerank request (default 1)"_s,
         {}},
        {u"embedding-batch-size"_s, K::Value, u"the same as --random-batch-size"_s, {}},
        {u"image-count"_s,
         K::Value,
         u"chat and responses: synthetic images per request, sent as data URLs after the "
         "prompt (docs/datasets.md, images in prompts; default 0)"_s,
         {}},
        {u"random-mm-base-items-per-request"_s,
         K::Value,
         u"vLLM's name for --image-count"_s,
         {}},
        {u"image-width"_s, K::Value, u"synthetic image width in pixels (default 512)"_s, {}},
        {u"image-height"_s, K::Value, u"synthetic image height in pixels (default 512)"_s, {}},
        {u"random-mm-bucket-config"_s,
         K::Value,
         u"vLLM's resolution, one bucket only: '{(HEIGHT, WIDTH, 1): 1.0}'"_s,
         {}},
        {u"image-format"_s, K::Value, u"png (the only format; default png)"_s, {}},
        {u"image-seed"_s,
         K::Value,
         u"seed of the synthetic images (default: --seed); part of the dataset's hash"_s,
         {}},
        {u"tokens-per-word"_s,
         K::Value,
         u"synthetic prompt calibration (tokens per word); default: measured with the "
         "server's POST /tokenize"_s,
         {}},
        {u"sharegpt-output-len"_s, K::Value, u"fixed output length for sharegpt"_s, {}},
        {u"num-prompts"_s, K::Value, u"number of measured requests (default 1000)"_s, {}},
        {u"request-rate"_s, K::Value, u"requests per second, or inf (default inf)"_s, {}},
        {u"burstiness"_s, K::Value, u"gamma shape; 1 = Poisson (default 1)"_s, {}},
        {u"arrival"_s, K::Value, u"poisson | gamma | constant (default poisson)"_s, {}},
        {u"max-concurrency"_s,
         K::Value,
         u"cap on requests in flight (leave it out for no cap)"_s,
         {}},
        {u"concurrency"_s, K::Value, u"closed loop: keep exactly C requests in flight"_s, {}},
        {u"duration"_s, K::Value, u"stop issuing after S seconds"_s, {}},
        {u"warmup-requests"_s, K::Value, u"requests issued first and excluded from metrics"_s, {}},
        {u"warmup-seconds"_s, K::Value, u"seconds of warm-up excluded from metrics"_s, {}},
        {u"scenario"_s, K::Value, u"none | single-stream | server | offline"_s, {}},
        {u"seed"_s, K::Value, u"random seed (default 0)"_s, {}},
        {u"ignore-eos"_s, K::Flag, u"ask the server to ignore EOS"_s, {}},
        {u"temperature"_s, K::Value, u"sampling temperature"_s, {}},
        {u"request-seed"_s, K::Value, u"sampling seed sent with every request"_s, {}},
        {u"thinking-budget"_s,
         K::Value,
         u"anthropic-messages: send thinking {type: enabled, budget_tokens: N}"_s,
         {}},
        {u"top-p"_s, K::Value, u"sent as top_p"_s, {}},
        {u"top-k"_s, K::Value, u"sent as top_k"_s, {}},
        {u"min-p"_s, K::Value, u"sent as min_p"_s, {}},
        {u"extra-body"_s, K::Value, u"JSON object merged into every request body"_s, {}},
        {u"header"_s, K::Repeated, u"extra header K:V or K=V (repeatable)"_s, {}},
        {u"timeout"_s, K::Value, u"per-request timeout in seconds (default 600)"_s, {}},
        {u"connection-mode"_s,
         K::Value,
         u"warm (open the connections before the clock; default) | per-request (a new "
         "connection each, as vLLM's client) | lazy (open on demand, keep alive)"_s,
         {}},
        {u"idle-timeout"_s,
         K::Value,
         u"fail a response that sends nothing for this many seconds (default: none)"_s,
         {}},
        {u"max-head-bytes"_s, K::Value, u"cap on a response head (default 65536; 0 = none)"_s, {}},
        {u"max-event-bytes"_s,
         K::Value,
         u"cap on one SSE line or event (default 8388608; 0 = none)"_s,
         {}},
        {u"max-body-bytes"_s,
         K::Value,
         u"cap on one response body (default 134217728; 0 = none)"_s,
         {}},
        {u"max-error-rate"_s,
         K::Value,
         u"stop a run once more than this fraction of its last 50 requests failed (e.g. 0.1)"_s,
         {}},
        {u"request-cancellation-rate"_s,
         K::Value,
         u"percent of the requests (0-100) the client cancels, chosen from --seed by request "
         "(AIPerf's name; docs/metrics.md, cancelled by the load)"_s,
         {}},
        {u"request-cancellation-delay"_s,
         K::Value,
         u"cancel a chosen request this many seconds after it was fully written (default 0)"_s,
         {}},
        {u"request-cancellation-after-tokens"_s,
         K::Value,
         u"cancel a chosen request once this many token chunks arrived (instead of a delay)"_s,
         {}},
        {u"stop-when-saturated"_s,
         K::Flag,
         u"stop an open-loop run early once it over-saturates the server (always on for sweeps)"_s,
         {}},
        {u"saturation-window"_s,
         K::Value,
         u"seconds of recent load the saturation test looks at (default 60)"_s,
         {}},
        {u"num-runs"_s,
         K::Value,
         u"run the plan N times as a series; reports the mean, 95 % interval and CV over runs"_s,
         {}},
        {u"transport"_s,
         K::Value,
         u"HTTP client: socket (default; epoll, kernel receive times) | qnam (Qt's manager "
         "pool)"_s,
         {}},
        {u"ca-file"_s,
         K::Value,
         u"PEM file of CA certificates to trust for an https endpoint, besides the system's"_s,
         {}},
        {u"proxy"_s,
         K::Value,
         u"HTTP proxy URL, or none; default: http_proxy / https_proxy / no_proxy from the "
         "environment (proxy passwords only there: they are never stored)"_s,
         {}},
        {u"metrics"_s,
         K::Value,
         u"the SUT's Prometheus metrics scraped during the run: auto (default: the base URL's "
         "/metrics when it answers), off, or a URL"_s,
         {}},
        {u"metrics-target"_s,
         K::Repeated,
         u"another Prometheus target, NAME=URL[,token-env=VARIABLE|,token-keychain=ENTRY] (a "
         "DCGM or node exporter; repeatable; the token is sent as a bearer token, never stored; "
         "the CLI reads no keychain: a token-keychain target is scraped without it, with a "
         "note)"_s,
         {}},
        {u"metrics-interval"_s,
         K::Value,
         u"seconds between scrapes (default 0.5), besides one before the first request and one "
         "after the last"_s,
         {}},
        {u"goodput"_s, K::MultiValue, u"SLOs, e.g. ttft:200 tpot:50 e2el:1000 (ms)"_s, {}},
        {u"percentile-metrics"_s, K::Value, u"comma list of ttft,tpot,itl,e2el"_s, {}},
        {u"metric-percentiles"_s, K::Value, u"comma list of percentiles (default 99)"_s, {}},
        {u"cache-bust"_s, K::Flag, u"unique random prefix per request"_s, {}},
        {u"cache-policy"_s,
         K::Value,
         u"the server's prefix cache before the run: keep (as earlier traffic left it), bust "
         "(= --cache-bust) or reset (the engine's own reset, vLLM POST /reset_prefix_cache or "
         "SGLang POST /flush_cache, verified from its prefix-cache counters; "
         "docs/cache-audit.md)"_s,
         {}},
        {u"cache-reset-fallback"_s,
         K::Value,
         u"when --cache-policy reset finds no reset or is refused: refuse (the run does not "
         "start; default) or bust"_s,
         {}},
        {u"server-start-cmd"_s,
         K::Value,
         u"a managed server: the shell command that starts it; ServeBench starts it, waits until "
         "it is healthy, runs, stops it (docs/managed-servers.md; no secrets: write $VARIABLE)"_s,
         {}},
        {u"server-stop-cmd"_s,
         K::Value,
         u"a managed server's stop command (default: SIGTERM to its process group, SIGKILL "
         "after 10 s)"_s,
         {}},
        {u"server-health-url"_s,
         K::Value,
         u"a managed server is healthy when this URL answers 2xx (default: the base URL's "
         "/health)"_s,
         {}},
        {u"server-start-timeout"_s,
         K::Value,
         u"seconds a managed server may take to become healthy (default 600)"_s,
         {}},
        {u"server-workdir"_s, K::Value, u"a managed server's working directory"_s, {}},
        {u"server-lifetime"_s,
         K::Value,
         u"when a managed server is (re)started: session (once for the command; default) or "
         "run (around every run of a sweep or series)"_s,
         {}},
        {u"save-result"_s, K::Flag, u"write the result JSON"_s, {}},
        {u"save-detailed"_s, K::Flag, u"include per-request arrays in the JSON"_s, {}},
        {u"result-dir"_s, K::Value, u"folder for the result JSON"_s, {}},
        {u"result-filename"_s, K::Value, u"file name of the result JSON"_s, {}},
        {u"name"_s, K::Value, u"a name for this run"_s, {}},
        {u"project"_s,
         K::Value,
         u"record the run into this project file (created when missing)"_s,
         {}},
        {u"dataset-version"_s, K::Value, u"a version label for the dataset"_s, {}},
        {u"with-replacement"_s,
         K::Flag,
         u"sample prompts with replacement when more are needed"_s,
         {}},
        {u"ramp-up-strategy"_s, K::Value, u"linear | exponential request-rate ramp-up"_s, {}},
        {u"ramp-up-start-rps"_s, K::Value, u"ramp-up start rate"_s, {}},
        {u"ramp-up-end-rps"_s, K::Value, u"ramp-up end rate"_s, {}},
        {u"trace"_s,
         K::Value,
         u"replay arrivals from a JSONL trace {timestamp, input_tokens, output_tokens | prompt}"_s,
         {}},
        {u"trace-time-scale"_s, K::Value, u"multiply trace times (0.5 = twice as fast)"_s, {}},
        {u"trace-format"_s,
         K::Value,
         u"servebench (default) | mooncake: {timestamp ms, input_length, output_length, "
         "hash_ids} (docs/sessions.md)"_s,
         {}},
        {u"trace-block-size"_s,
         K::Value,
         u"mooncake: tokens per hash id (default 512, as the published traces)"_s,
         {}},
        {u"multi-turn"_s,
         K::Flag,
         u"sessions: every turn of each conversation (sharegpt, custom), or synthetic sessions "
         "(random); without it sharegpt contributes its first turn, as vLLM"_s,
         {}},
        {u"num-sessions"_s, K::Value, u"sessions to run (default 100)"_s, {}},
        {u"session-turns"_s, K::Value, u"random --multi-turn: turns per session (default 4)"_s, {}},
        {u"session-prefix-len"_s,
         K::Value,
         u"random --multi-turn: tokens of a session's own context in its first message"_s,
         {}},
        {u"max-turns"_s, K::Value, u"at most this many turns per session (default: all)"_s, {}},
        {u"session-rate"_s,
         K::Value,
         u"sessions per second (open loop; --arrival, --burstiness apply), or inf"_s,
         {}},
        {u"users"_s,
         K::Value,
         u"closed loop: N users, each running one session after another"_s,
         {}},
        {u"history"_s,
         K::Value,
         u"served (default: the answers the server streamed) | reference (the dataset's)"_s,
         {}},
        {u"think-time"_s,
         K::Value,
         u"none | fixed | exponential | dataset (default fixed with --think-time-ms, else none)"_s,
         {}},
        {u"think-time-ms"_s, K::Value, u"think time between turns (fixed) or its mean"_s, {}},
        {u"session-header"_s,
         K::Value,
         u"send the session's id in this header (e.g. X-Session-ID) for routers that pin "
         "sessions"_s,
         {}},
        {u"sim-prefill-ms-per-token"_s,
         K::Value,
         u"built-in simulator: TTFT added per prompt token not in its prefix cache (default 0; "
         "0.05 for sessions and mooncake traces)"_s,
         {}},
        {u"sim-prefix-cache-blocks"_s,
         K::Value,
         u"built-in simulator: prefix-cache capacity in blocks of 16 tokens (default 100000)"_s,
         {}},
        {u"sim-ttft-ms"_s, K::Value, u"built-in simulator: time to first token (default 50)"_s, {}},
        {u"sim-itl-ms"_s,
         K::Value,
         u"built-in simulator: gap between token chunks (default 10)"_s,
         {}},
        {u"mlperf-preset"_s, K::Value, u"MLPerf latency limits, e.g. llama2-70b-server"_s, {}},
        {u"ttft-slo-ms"_s, K::Value, u"scenario TTFT bound (ms) at --slo-percentile"_s, {}},
        {u"tpot-slo-ms"_s, K::Value, u"scenario TPOT bound (ms) at --slo-percentile"_s, {}},
        {u"slo-percentile"_s,
         K::Value,
         u"percentile of the scenario bounds (default 99; single-stream 90)"_s,
         {}},
        {u"min-query-count"_s, K::Value, u"scenario minimum query count"_s, {}},
        {u"min-duration"_s, K::Value, u"scenario minimum duration in seconds"_s, {}},
        {u"sweep"_s,
         K::Value,
         u"N: synchronous baseline, max throughput, then N rates between"_s,
         {}},
        {u"find-max-valid-rate"_s,
         K::Flag,
         u"search the highest Server rate that stays VALID"_s,
         {}},
        {u"rate-tolerance"_s,
         K::Value,
         u"bisection stops when the bracket is below this fraction (default 0.05)"_s,
         {}},
        {u"tokenizer"_s,
         K::Value,
         u"the model's tokenizer: a tokenizer.json, a folder holding one, or a *.tiktoken file "
         "(docs/tokenizers.md); synthetic prompts get exact token lengths, dataset lengths are "
         "real counts, and output tokens are counted from the text when the server sends no "
         "usage"_s,
         {}},
        {u"sut-name"_s, K::Value, u"a name for the system under test"_s, {}},
        {u"sut"_s,
         K::Repeated,
         u"describe the SUT, KEY=VALUE (repeatable): engine, engine_version, gpu_model, "
         "gpu_count, image, replicas, containers, workers_per_container, region, "
         "client_location, weights_revision, notes"_s,
         {}},
        {u"shard"_s,
         K::Value,
         u"I/N: issue agent I's share of the plan (0-based; see docs/distributed.md)"_s,
         {}},
        {u"start-at"_s,
         K::Value,
         u"EPOCH_MS: start the schedule at this UTC time (agents start together)"_s,
         {}},
        compat("tokenizer-mode", K::Value, unused),
        compat("trust-remote-code", K::Flag, unused),
        compat("disable-tqdm", K::Flag, unused),
        compat("profile", K::Flag, unused),
        compat("served-model-name", K::Value, unused),
        compat("label", K::Value, unused),
        compat("metadata", K::MultiValue, unused),
        compat("append-result", K::Flag, unused),
        compat("ready-check-timeout-sec", K::Value, unused),
        compat("logprobs", K::Value, unused),
        compat("use-beam-search", K::Flag, unused),
        compat("disable-shuffle", K::Flag, unused),
        compat("request-id-prefix", K::Value,
               u"is not used: ServeBench sets x-request-id to sb-<run>-<index>"_s),
    };
}

// The kind of a dataset file from its first non-blank byte: a ShareGPT file is one JSON array,
// a custom dataset one JSON object per line.
bool inferDatasetKind(const QString &path, DatasetKind *kind, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = u"--dataset-path %1: %2"_s.arg(path, f.errorString());
        return false;
    }
    char c = 0;
    while (f.getChar(&c))
        if (!QChar::fromLatin1(c).isSpace())
            break;
    if (c == '[') {
        *kind = DatasetKind::ShareGpt;
        return true;
    }
    if (c == '{') {
        *kind = DatasetKind::Custom;
        return true;
    }
    *error = u"--dataset-path %1 is neither a ShareGPT JSON array nor JSONL objects (it starts "
             "with neither '[' nor '{'); give --dataset-name"_s.arg(path);
    return false;
}

bool parseSutField(const QString &text, SutConfig *sut, QString *error)
{
    const int eq = text.indexOf(u'=');
    const QString key = eq > 0 ? text.left(eq).trimmed().replace(u'-', u'_') : QString();
    const QString value = eq > 0 ? text.mid(eq + 1) : QString();
    QJsonObject o = sut->toJson();
    for (const char *k : kSutTextKeys)
        if (key == QLatin1StringView(k)) {
            o[key] = value;
            *sut = SutConfig::fromJson(o);
            return true;
        }
    for (const char *k : kSutIntKeys)
        if (key == QLatin1StringView(k)) {
            bool ok = false;
            const int n = value.toInt(&ok);
            if (!ok || n < 0) {
                *error = u"--sut %1 expects a whole number, got '%2'"_s.arg(key, value);
                return false;
            }
            o[key] = n;
            *sut = SutConfig::fromJson(o);
            return true;
        }
    QStringList known;
    for (const char *k : kSutTextKeys)
        known.append(QString::fromLatin1(k));
    for (const char *k : kSutIntKeys)
        known.append(QString::fromLatin1(k));
    *error =
        u"--sut expects KEY=VALUE with KEY one of %1, got '%2'"_s.arg(known.join(u", "_s), text);
    return false;
}

} // namespace

bool parseRunFlags(const QStringList &argv, RunRequest *request, RunFlagOptions *opts,
                   QString *error)
{
    Args a(runSpecs());
    if (!a.parse(argv, error))
        return false;
    opts->notes = a.notes();
    opts->helpText = a.helpText();
    if (a.has(u"help"_s)) {
        opts->help = true;
        return true;
    }
    if (!a.positional().isEmpty()) {
        *error = u"unexpected argument '%1'"_s.arg(a.positional().first());
        return false;
    }
    QString e;
    RunPlan *plan = &request->plan;
    SutConfig &sut = plan->sut;
    LoadProfile &p = plan->profile;
    DatasetSpec &d = plan->dataset;
    request->frontEnd = u"cli"_s;

    if (a.has(u"backend"_s) && !apiFlavourFromName(a.value(u"backend"_s), &sut.flavour)) {
        *error = u"--backend must be openai, openai-chat, openai-responses, anthropic-messages, "
                 "openai-embeddings, vllm-rerank or vllm, got '%1'"_s.arg(a.value(u"backend"_s));
        return false;
    }
    opts->endpointGiven = a.has(u"base-url"_s) || a.has(u"host"_s) || a.has(u"port"_s);
    if (a.has(u"base-url"_s)) {
        sut.baseUrl = a.value(u"base-url"_s);
        while (sut.baseUrl.endsWith(u'/'))
            sut.baseUrl.chop(1);
    } else if (opts->endpointGiven) {
        const int port = a.intValue(u"port"_s, 8000, &e);
        if (!e.isEmpty() || port <= 0 || port > 65535) {
            *error = e.isEmpty() ? u"--port must be between 1 and 65535"_s : e;
            return false;
        }
        sut.baseUrl = u"http://%1:%2"_s.arg(a.value(u"host"_s, u"127.0.0.1"_s)).arg(port);
    }
    sut.builtInSimulator = !opts->endpointGiven;
    sut.endpoint = a.value(u"endpoint"_s);
    if (!sut.endpoint.isEmpty() && !sut.endpoint.startsWith(u'/') &&
        !sut.endpoint.startsWith("http://"_L1) && !sut.endpoint.startsWith("https://"_L1))
        sut.endpoint.prepend(u'/');
    if (!a.has(u"backend"_s)) {
        // The endpoint says which flavour it speaks.
        QString path = sut.endpoint;
        while (path.endsWith(u'/'))
            path.chop(1);
        if (path.contains("chat/completions"_L1))
            sut.flavour = ApiFlavour::Chat;
        else if (path.endsWith("/responses"_L1))
            sut.flavour = ApiFlavour::Responses;
        else if (path.endsWith("/messages"_L1))
            sut.flavour = ApiFlavour::Messages;
        else if (path.endsWith("/embeddings"_L1))
            sut.flavour = ApiFlavour::Embeddings;
        else if (path.endsWith("/rerank"_L1))
            sut.flavour = ApiFlavour::Rerank;
    }
    sut.model = a.value(u"model"_s);
    sut.name = a.value(u"sut-name"_s);
    for (const QString &f : a.values(u"sut"_s))
        if (!parseSutField(f, &sut, error))
            return false;
    for (const QString &h : a.values(u"header"_s)) {
        QPair<QString, QString> kv;
        if (!parseHeaderArg(h, &kv)) {
            *error = u"--header expects NAME:VALUE or NAME=VALUE, got '%1'"_s.arg(h);
            return false;
        }
        sut.extraHeaders.append(kv);
    }
    sut.caFile = a.value(u"ca-file"_s);
    if (!sut.caFile.isEmpty() && !QFileInfo(sut.caFile).isReadable()) {
        *error = u"--ca-file %1: no such readable file"_s.arg(sut.caFile);
        return false;
    }
    sut.proxy = a.value(u"proxy"_s);
    sut.tokenizer = a.value(u"tokenizer"_s);
    if (a.has(u"tokenizer"_s) && sut.tokenizer.isEmpty()) {
        *error = u"--tokenizer expects a tokenizer.json, a folder holding one, or a *.tiktoken "
                 "file"_s;
        return false;
    }
    if (a.has(u"metrics"_s)) {
        const QString m = a.value(u"metrics"_s).trimmed();
        sut.serverMetrics.sut = m.compare("auto"_L1, Qt::CaseInsensitive) == 0  ? u"auto"_s
                                : m.compare("off"_L1, Qt::CaseInsensitive) == 0 ? u"off"_s
                                                                                : m;
    }
    for (const QString &t : a.values(u"metrics-target"_s)) {
        MetricsTarget target;
        if (!parseMetricsTargetFlag(t, &target, error))
            return false;
        sut.serverMetrics.targets.append(target);
    }
    // Anthropic's SDKs read ANTHROPIC_API_KEY; a Messages SUT takes it when it is set.
    if (sut.flavour == ApiFlavour::Messages && qEnvironmentVariableIsSet("ANTHROPIC_API_KEY"))
        sut.apiKeyRef = u"env:ANTHROPIC_API_KEY"_s;
    else if (qEnvironmentVariableIsSet("OPENAI_API_KEY"))
        sut.apiKeyRef = u"env:OPENAI_API_KEY"_s;

    if (a.has(u"dataset-name"_s) && !datasetKindFromName(a.value(u"dataset-name"_s), &d.kind)) {
        *error = u"--dataset-name must be random, sharegpt or custom, got '%1'"_s.arg(
            a.value(u"dataset-name"_s));
        return false;
    }
    d.path = a.value(u"dataset-path"_s);
    if (!d.path.isEmpty() && !a.has(u"dataset-name"_s)) {
        // vLLM would silently run a random dataset here; a file given is a file meant.
        if (!inferDatasetKind(d.path, &d.kind, error))
            return false;
        opts->notes.append(
            u"note: --dataset-path without --dataset-name: %1 reads as a %2 dataset"_s.arg(
                d.path, QString::fromLatin1(datasetKindName(d.kind))));
    }
    if (!d.path.isEmpty() && d.kind == DatasetKind::Random) {
        *error = u"--dataset-path is not used by --dataset-name random; leave one out"_s;
        return false;
    }
    d.randomInputLen = a.intValue(u"random-input-len"_s, d.randomInputLen, &e);
    d.randomOutputLen = a.intValue(u"random-output-len"_s, d.randomOutputLen, &e);
    d.randomRangeRatio = a.doubleValue(u"random-range-ratio"_s, 0.0, &e);
    d.randomPrefixLen = a.intValue(u"random-prefix-len"_s, 0, &e);
    d.sharegptOutputLen = a.intValue(u"sharegpt-output-len"_s, -1, &e);
    if (a.has(u"random-distribution"_s) &&
        !lengthDistributionFromName(a.value(u"random-distribution"_s), &d.randomDistribution)) {
        *error = u"--random-distribution must be uniform or normal, got '%1'"_s.arg(
            a.value(u"random-distribution"_s));
        return false;
    }
    d.randomInputStdev = a.intValue(u"random-input-stdev"_s, d.randomInputStdev, &e);
    d.randomOutputStdev = a.intValue(u"random-output-stdev"_s, d.randomOutputStdev, &e);
    d.randomInputMin = a.intValue(u"random-input-min"_s, d.randomInputMin, &e);
    d.randomInputMax = a.intValue(u"random-input-max"_s, d.randomInputMax, &e);
    d.randomOutputMin = a.intValue(u"random-output-min"_s, d.randomOutputMin, &e);
    d.randomOutputMax = a.intValue(u"random-output-max"_s, d.randomOutputMax, &e);
    // Embeddings and rerank batches; images in prompts. Ranges and combinations are
    // validateRunRequest()'s.
    if (a.has(u"random-batch-size"_s) && a.has(u"embedding-batch-size"_s)) {
        *error = u"--random-batch-size and --embedding-batch-size are the same setting: give one"_s;
        return false;
    }
    p.batchSize = a.intValue(a.has(u"embedding-batch-size"_s) ? u"embedding-batch-size"_s
                                                              : u"random-batch-size"_s,
                             1, &e);
    if (a.has(u"image-count"_s) && a.has(u"random-mm-base-items-per-request"_s)) {
        *error = u"--image-count and --random-mm-base-items-per-request are the same setting: "
                 "give one"_s;
        return false;
    }
    d.imageCount = a.intValue(a.has(u"random-mm-base-items-per-request"_s)
                                  ? u"random-mm-base-items-per-request"_s
                                  : u"image-count"_s,
                              0, &e);
    d.imageWidth = a.intValue(u"image-width"_s, d.imageWidth, &e);
    d.imageHeight = a.intValue(u"image-height"_s, d.imageHeight, &e);
    if (a.has(u"random-mm-bucket-config"_s)) {
        // vLLM's {(height, width, frames): probability}; one still-image bucket is one size.
        static const QRegularExpression one(
            u"^\\s*\\{\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,\\s*1\\s*\\)\\s*:\\s*1(\\.0*)?\\s*\\}\\s*$"_s);
        const auto m = one.match(a.value(u"random-mm-bucket-config"_s));
        if (!m.hasMatch() || a.has(u"image-width"_s) || a.has(u"image-height"_s)) {
            *error = u"--random-mm-bucket-config: ServeBench draws images of one size; give one "
                     "bucket '{(HEIGHT, WIDTH, 1): 1.0}' (or --image-width and --image-height), "
                     "got '%1'"_s.arg(a.value(u"random-mm-bucket-config"_s));
            return false;
        }
        d.imageHeight = m.captured(1).toInt();
        d.imageWidth = m.captured(2).toInt();
    }
    d.imageFormat = a.value(u"image-format"_s, d.imageFormat).toLower();
    if (a.has(u"image-seed"_s)) {
        bool ok = false;
        d.imageSeed = a.value(u"image-seed"_s).toLongLong(&ok);
        if (!ok || d.imageSeed < 0) {
            *error = u"--image-seed expects a non-negative integer, got '%1'"_s.arg(
                a.value(u"image-seed"_s));
            return false;
        }
    }
    if (a.has(u"tokens-per-word"_s)) {
        d.tokensPerWord = a.doubleValue(u"tokens-per-word"_s, 1.0, &e);
        if (e.isEmpty() && !(d.tokensPerWord > 0 && d.tokensPerWord < 100)) {
            *error = u"--tokens-per-word must be above 0 and below 100"_s;
            return false;
        }
        request->calibrateTokens = false;
    }

    p.numPrompts = a.intValue(u"num-prompts"_s, 1000, &e);
    p.requestRate = a.doubleValue(u"request-rate"_s, std::numeric_limits<double>::infinity(), &e);
    if (e.isEmpty() && !(p.requestRate > 0)) {
        *error =
            u"--request-rate must be positive or inf, got '%1'"_s.arg(a.value(u"request-rate"_s));
        return false;
    }
    p.burstiness = a.doubleValue(u"burstiness"_s, 1.0, &e);
    p.maxConcurrency = a.intValue(u"max-concurrency"_s, 0, &e);
    if (e.isEmpty() && a.has(u"max-concurrency"_s) && p.maxConcurrency < 1) {
        // vLLM reads 0 as "no cap"; a cap of 0 given on purpose is more likely a mistake.
        *error = u"--max-concurrency must be at least 1 (leave it out for no cap)"_s;
        return false;
    }
    p.closedLoopConcurrency = a.intValue(u"concurrency"_s, 0, &e);
    if (e.isEmpty() && a.has(u"concurrency"_s) && p.closedLoopConcurrency < 1) {
        *error = u"--concurrency must be at least 1"_s;
        return false;
    }
    p.durationS = a.doubleValue(u"duration"_s, 0, &e);
    p.warmupRequests = a.intValue(u"warmup-requests"_s, 0, &e);
    p.warmupSeconds = a.doubleValue(u"warmup-seconds"_s, 0, &e);
    p.timeoutS = a.doubleValue(u"timeout"_s, 600, &e);
    if (a.has(u"connection-mode"_s)) {
        // Stored under its canonical name ("per_request" → "per-request"); an unknown one is
        // kept as given for validateRunRequest to name.
        p.connectionMode = a.value(u"connection-mode"_s);
        if (ConnectionMode mode; connectionModeFromName(p.connectionMode, &mode))
            p.connectionMode = QString::fromLatin1(connectionModeName(mode));
    }
    p.idleTimeoutS = a.doubleValue(u"idle-timeout"_s, 0, &e);
    // Whole numbers of bytes: a double holds every one up to 2^53 exactly.
    const auto bytes = [&](const char *flag, qint64 *out) {
        const QString name = QString::fromLatin1(flag);
        if (!a.has(name))
            return;
        bool ok = false;
        const qint64 v = a.value(name).toLongLong(&ok);
        if (!ok || v < 0)
            e = u"--%1 expects a whole number of bytes (0 = no cap), got '%2'"_s.arg(name,
                                                                                     a.value(name));
        else
            *out = v;
    };
    bytes("max-head-bytes", &p.maxHeadBytes);
    bytes("max-event-bytes", &p.maxEventBytes);
    bytes("max-body-bytes", &p.maxBodyBytes);
    p.maxErrorRate = a.doubleValue(u"max-error-rate"_s, -1, &e);
    // The cancellation load; its ranges and combinations are validateRunRequest()'s.
    p.cancelRatePct = a.doubleValue(u"request-cancellation-rate"_s, 0, &e);
    p.cancelDelayS = a.doubleValue(u"request-cancellation-delay"_s, 0, &e);
    p.cancelAfterTokens = a.intValue(u"request-cancellation-after-tokens"_s, 0, &e);
    if (a.has(u"request-cancellation-delay"_s) && a.has(u"request-cancellation-after-tokens"_s)) {
        *error = u"--request-cancellation-delay and --request-cancellation-after-tokens exclude "
                 "each other: a request is cancelled after a delay or after tokens"_s;
        return false;
    }
    request->numRuns = a.intValue(u"num-runs"_s, 1, &e);
    request->stopWhenSaturated = a.has(u"stop-when-saturated"_s);
    request->saturationWindowS = a.doubleValue(u"saturation-window"_s, 60, &e);
    p.cacheBust = a.has(u"cache-bust"_s);
    if (a.has(u"cache-policy"_s)) {
        const QString policy = a.value(u"cache-policy"_s);
        if (policy == "bust"_L1)
            p.cacheBust = true;
        else if (policy == "reset"_L1)
            p.cacheReset = true;
        else if (policy != "keep"_L1) {
            *error = u"--cache-policy must be keep, bust or reset, got '%1'"_s.arg(policy);
            return false;
        }
        if (policy != "bust"_L1 && a.has(u"cache-bust"_s)) {
            *error = u"--cache-bust contradicts --cache-policy %1"_s.arg(policy);
            return false;
        }
    }
    if (a.has(u"cache-reset-fallback"_s)) {
        p.cacheResetFallback = a.value(u"cache-reset-fallback"_s);
        if (p.cacheResetFallback != "refuse"_L1 && p.cacheResetFallback != "bust"_L1) {
            *error = u"--cache-reset-fallback must be refuse or bust, got '%1'"_s.arg(
                p.cacheResetFallback);
            return false;
        }
        if (!p.cacheReset) {
            *error = u"--cache-reset-fallback needs --cache-policy reset"_s;
            return false;
        }
    }
    p.metricsIntervalS = a.doubleValue(u"metrics-interval"_s, p.metricsIntervalS, &e);
    if (a.has(u"seed"_s)) {
        bool ok = false;
        p.seed = a.value(u"seed"_s).toULongLong(&ok);
        if (!ok) {
            *error = u"--seed expects a non-negative integer, got '%1'"_s.arg(a.value(u"seed"_s));
            return false;
        }
    }
    if (!e.isEmpty()) {
        *error = e;
        return false;
    }
    if (a.has(u"arrival"_s) && !arrivalFromName(a.value(u"arrival"_s), &p.arrival)) {
        *error =
            u"--arrival must be poisson, gamma or constant, got '%1'"_s.arg(a.value(u"arrival"_s));
        return false;
    }
    if (!a.has(u"arrival"_s) && p.burstiness != 1.0)
        p.arrival = ArrivalProcess::Gamma; // vLLM: burstiness != 1 means a gamma process
    if (a.has(u"scenario"_s) && !scenarioFromName(a.value(u"scenario"_s), &p.scenario)) {
        *error = u"--scenario must be single-stream, server, offline or none, got '%1'"_s.arg(
            a.value(u"scenario"_s));
        return false;
    }

    for (const QString &g : a.values(u"goodput"_s)) {
        const int colon = g.indexOf(u':');
        bool ok = false;
        const double v = colon > 0 ? g.mid(colon + 1).toDouble(&ok) : 0;
        const QString key = g.left(colon).toLower();
        if (!ok || v < 0) {
            *error = u"--goodput expects NAME:MILLISECONDS, got '%1'"_s.arg(g);
            return false;
        }
        if (key == "ttft"_L1)
            p.goodput.ttftMs = v;
        else if (key == "tpot"_L1)
            p.goodput.tpotMs = v;
        else if (key == "e2el"_L1)
            p.goodput.e2elMs = v;
        else {
            *error = u"--goodput knows ttft, tpot and e2el, got '%1'"_s.arg(key);
            return false;
        }
    }
    if (a.has(u"percentile-metrics"_s)) {
        p.percentileMetrics.clear();
        for (const QString &m : a.value(u"percentile-metrics"_s).split(u',', Qt::SkipEmptyParts))
            p.percentileMetrics.append(m.trimmed().toLower());
    }
    if (a.has(u"metric-percentiles"_s)) {
        p.metricPercentiles.clear();
        for (const QString &m : a.value(u"metric-percentiles"_s).split(u',', Qt::SkipEmptyParts)) {
            bool ok = false;
            const double v = m.trimmed().toDouble(&ok);
            if (!ok) {
                *error = u"--metric-percentiles expects numbers in [0, 100], got '%1'"_s.arg(m);
                return false;
            }
            p.metricPercentiles.append(v);
        }
    }

    RequestParams &rp = plan->params;
    rp.ignoreEos = a.has(u"ignore-eos"_s);
    rp.temperature = a.doubleValue(u"temperature"_s, -1, &e);
    if (a.has(u"request-seed"_s)) {
        bool ok = false;
        rp.seed = a.value(u"request-seed"_s).toLongLong(&ok);
        if (!ok || rp.seed < 0) {
            *error = u"--request-seed expects a non-negative integer, got '%1'"_s.arg(
                a.value(u"request-seed"_s));
            return false;
        }
    }
    if (a.has(u"thinking-budget"_s)) {
        bool ok = false;
        rp.thinkingBudgetTokens = a.value(u"thinking-budget"_s).toInt(&ok);
        if (!ok || rp.thinkingBudgetTokens < 1) {
            *error = u"--thinking-budget expects a positive number of tokens, got '%1'"_s.arg(
                a.value(u"thinking-budget"_s));
            return false;
        }
    }
    if (a.has(u"extra-body"_s)) {
        QJsonParseError pe;
        const auto doc = QJsonDocument::fromJson(a.value(u"extra-body"_s).toUtf8(), &pe);
        if (!doc.isObject()) {
            *error = u"--extra-body must be a JSON object (%1)"_s.arg(
                pe.error == QJsonParseError::NoError ? u"got another JSON value"_s
                                                     : pe.errorString());
            return false;
        }
        rp.extraBody = doc.object();
    }
    for (const char *name : {"top-p", "top-k", "min-p"}) {
        const QString flag = QString::fromLatin1(name);
        if (!a.has(flag))
            continue;
        const double v = a.doubleValue(flag, 0, &e);
        QString key = flag;
        key.replace(u'-', u'_');
        if (!rp.extraBody.contains(key))
            rp.extraBody[key] = flag == "top-k"_L1 ? QJsonValue(int(v)) : QJsonValue(v);
    }
    if (!e.isEmpty()) {
        *error = e;
        return false;
    }

    d.versionLabel = a.value(u"dataset-version"_s);
    d.withReplacement = a.has(u"with-replacement"_s);
    if (a.has(u"ramp-up-strategy"_s)) {
        if (!rampUpStrategyFromName(a.value(u"ramp-up-strategy"_s), &p.rampUpStrategy)) {
            *error = u"--ramp-up-strategy must be linear or exponential, got '%1'"_s.arg(
                a.value(u"ramp-up-strategy"_s));
            return false;
        }
        if (!a.has(u"ramp-up-start-rps"_s) || !a.has(u"ramp-up-end-rps"_s)) {
            *error = u"--ramp-up-strategy needs --ramp-up-start-rps and --ramp-up-end-rps"_s;
            return false;
        }
    }
    p.rampUpStartRps = a.doubleValue(u"ramp-up-start-rps"_s, 0, &e);
    p.rampUpEndRps = a.doubleValue(u"ramp-up-end-rps"_s, 0, &e);
    p.tracePath = a.value(u"trace"_s);
    p.traceTimeScale = a.doubleValue(u"trace-time-scale"_s, 1.0, &e);
    if (a.has(u"trace-format"_s) &&
        !traceFormatFromName(a.value(u"trace-format"_s), &p.traceFormat)) {
        *error = u"--trace-format must be servebench or mooncake, got '%1'"_s.arg(
            a.value(u"trace-format"_s));
        return false;
    }
    p.traceBlockSize = a.intValue(u"trace-block-size"_s, p.traceBlockSize, &e);

    // --- sessions (docs/sessions.md) ---
    d.multiTurn = a.has(u"multi-turn"_s);
    // A session workload counts sessions (docs/sessions.md): a request count given with it would
    // be silently ignored. Refused here, where "given" is known (the plan keeps a default).
    if (d.multiTurn && a.has(u"num-prompts"_s)) {
        *error = u"--num-prompts "_s + Message("plan.sessions.num_prompts").translated();
        return false;
    }
    d.sessionTurns = a.intValue(u"session-turns"_s, d.sessionTurns, &e);
    d.maxTurns = a.intValue(u"max-turns"_s, 0, &e);
    d.sessionPrefixLen = a.intValue(u"session-prefix-len"_s, 0, &e);
    p.numSessions = a.intValue(u"num-sessions"_s, p.numSessions, &e);
    p.sessionRate = a.doubleValue(u"session-rate"_s, std::numeric_limits<double>::infinity(), &e);
    if (e.isEmpty() && !(p.sessionRate > 0)) {
        *error =
            u"--session-rate must be positive or inf, got '%1'"_s.arg(a.value(u"session-rate"_s));
        return false;
    }
    p.sessionUsers = a.intValue(u"users"_s, 0, &e);
    if (e.isEmpty() && a.has(u"users"_s) && p.sessionUsers < 1) {
        *error = u"--users must be at least 1"_s;
        return false;
    }
    if (a.has(u"history"_s) && !historyModeFromName(a.value(u"history"_s), &p.history)) {
        *error = u"--history must be served or reference, got '%1'"_s.arg(a.value(u"history"_s));
        return false;
    }
    p.thinkTimeMs = a.doubleValue(u"think-time-ms"_s, 0, &e);
    if (a.has(u"think-time"_s)) {
        if (!thinkTimeModelFromName(a.value(u"think-time"_s), &p.thinkTime)) {
            *error = u"--think-time must be none, fixed, exponential or dataset, got '%1'"_s.arg(
                a.value(u"think-time"_s));
            return false;
        }
    } else if (a.has(u"think-time-ms"_s)) {
        p.thinkTime = ThinkTimeModel::Fixed;
    }
    p.sessionHeader = a.value(u"session-header"_s);
    sut.managed.startCommand = a.value(u"server-start-cmd"_s);
    sut.managed.stopCommand = a.value(u"server-stop-cmd"_s);
    sut.managed.healthUrl = a.value(u"server-health-url"_s);
    sut.managed.startTimeoutS =
        a.doubleValue(u"server-start-timeout"_s, sut.managed.startTimeoutS, &e);
    sut.managed.workingDirectory = a.value(u"server-workdir"_s);
    if (a.has(u"server-lifetime"_s))
        sut.managed.lifetime = a.value(u"server-lifetime"_s);
    if (a.has(u"server-start-cmd"_s) && !sut.managed.enabled()) {
        *error = u"--server-start-cmd must not be empty"_s;
        return false;
    }
    for (const char *dependent : {"server-stop-cmd", "server-health-url", "server-start-timeout",
                                  "server-workdir", "server-lifetime"})
        if (a.has(QString::fromLatin1(dependent)) && !sut.managed.enabled()) {
            *error = u"--%1 needs --server-start-cmd"_s.arg(QLatin1StringView(dependent));
            return false;
        }
    if (sut.managed.lifetime != "session"_L1 && sut.managed.lifetime != "run"_L1 &&
        sut.managed.lifetime != "candidate"_L1) {
        *error = u"--server-lifetime must be session or run, got '%1'"_s.arg(sut.managed.lifetime);
        return false;
    }
    if (e.isEmpty() && !(sut.managed.startTimeoutS > 0)) {
        *error = u"--server-start-timeout must be above 0"_s;
        return false;
    }
    sut.simPrefillMsPerToken = a.doubleValue(u"sim-prefill-ms-per-token"_s, -1, &e);
    sut.simPrefixCacheBlocks = a.intValue(u"sim-prefix-cache-blocks"_s, -1, &e);
    sut.simTtftMs = a.doubleValue(u"sim-ttft-ms"_s, -1, &e);
    sut.simItlMs = a.doubleValue(u"sim-itl-ms"_s, -1, &e);
    if (e.isEmpty() && ((a.has(u"sim-ttft-ms"_s) && !(sut.simTtftMs >= 0)) ||
                        (a.has(u"sim-itl-ms"_s) && !(sut.simItlMs >= 0)))) {
        *error = u"--sim-ttft-ms and --sim-itl-ms must not be negative"_s;
        return false;
    }
    if (e.isEmpty() && ((a.has(u"sim-prefill-ms-per-token"_s) && sut.simPrefillMsPerToken < 0) ||
                        (a.has(u"sim-prefix-cache-blocks"_s) && sut.simPrefixCacheBlocks < 0))) {
        *error = u"--sim-prefill-ms-per-token and --sim-prefix-cache-blocks must not be "
                 "negative"_s;
        return false;
    }
    p.mlperfPreset = a.value(u"mlperf-preset"_s);
    p.ttftSloMs = a.doubleValue(u"ttft-slo-ms"_s, -1, &e);
    p.tpotSloMs = a.doubleValue(u"tpot-slo-ms"_s, -1, &e);
    p.sloPercentile = a.doubleValue(u"slo-percentile"_s, -1, &e);
    p.minQueryCount = a.intValue(u"min-query-count"_s, 0, &e);
    p.minDurationS = a.doubleValue(u"min-duration"_s, 0, &e);
    if (a.has(u"sweep"_s)) {
        request->mode = RunMode::Sweep;
        request->sweepRates = a.intValue(u"sweep"_s, 0, &e);
    }
    if (a.has(u"find-max-valid-rate"_s)) {
        if (a.has(u"sweep"_s)) {
            *error = u"--find-max-valid-rate and --sweep are separate searches; give one"_s;
            return false;
        }
        request->mode = RunMode::MaxValidRate;
        if (p.scenario == Scenario::None)
            p.scenario = Scenario::Server;
    }
    request->rateTolerance = a.doubleValue(u"rate-tolerance"_s, 0.05, &e);
    opts->project = a.value(u"project"_s);
    if (a.has(u"shard"_s) && !ShardSpec::parse(a.value(u"shard"_s), &request->shard, error))
        return false;
    if (a.has(u"start-at"_s)) {
        bool ok = false;
        request->startAtMs = a.value(u"start-at"_s).toLongLong(&ok);
        if (!ok || request->startAtMs <= 0) {
            *error = u"--start-at expects milliseconds since the Unix epoch (date +%s%3N), "
                     "got '%1'"_s.arg(a.value(u"start-at"_s));
            return false;
        }
    }
    if (!e.isEmpty()) {
        *error = e;
        return false;
    }

    opts->saveResult = a.has(u"save-result"_s);
    opts->saveDetailed = a.has(u"save-detailed"_s);
    if (opts->saveDetailed)
        opts->saveResult = true;
    if (a.has(u"transport"_s) &&
        !transportKindFromName(a.value(u"transport"_s), &request->transport)) {
        *error = u"--transport must be socket or qnam, got '%1'"_s.arg(a.value(u"transport"_s));
        return false;
    }
    opts->resultDir = a.value(u"result-dir"_s);
    opts->resultFilename = a.value(u"result-filename"_s);
    plan->name = a.value(u"name"_s);
    return true;
}

QString shellQuote(const QString &word)
{
    static const QRegularExpression plain(u"^[A-Za-z0-9_./:=,@%+-]+$"_s);
    if (!word.isEmpty() && plain.match(word).hasMatch())
        return word;
    QString w = word;
    return u'\'' + w.replace(u"'"_s, u"'\\''"_s) + u'\'';
}

namespace {

QString number(double v)
{
    if (std::isinf(v))
        return u"inf"_s;
    return QString::number(v, 'g', QLocale::FloatingPointShortest); // round-trips exactly
}

} // namespace

QStringList runFlags(const RunRequest &request)
{
    const RunPlan &plan = request.plan;
    const SutConfig &sut = plan.sut;
    const DatasetSpec &d = plan.dataset;
    const LoadProfile &p = plan.profile;
    const RequestParams &rp = plan.params;
    // The defaults are what parseRunFlags() gives for no flags at all.
    RunRequest defaults;
    RunFlagOptions ignored;
    QString error;
    parseRunFlags({}, &defaults, &ignored, &error);
    const RunPlan &dp = defaults.plan;
    QStringList f;
    const auto add = [&](const char *flag, const QString &value) {
        f << u"--"_s + QLatin1StringView(flag) << value;
    };
    const auto flag = [&](const char *name) {
        f << u"--"_s + QLatin1StringView(name);
    };

    // --- SUT ---
    if (!sut.builtInSimulator)
        add("base-url", sut.baseUrl);
    if (sut.flavour != dp.sut.flavour)
        add("backend", QString::fromLatin1(apiFlavourName(sut.flavour)));
    if (!sut.endpoint.isEmpty())
        add("endpoint", sut.endpoint);
    if (!sut.model.isEmpty())
        add("model", sut.model);
    if (!sut.name.isEmpty())
        add("sut-name", sut.name);
    const QJsonObject sj = sut.toJson();
    const QJsonObject dj = dp.sut.toJson();
    for (const char *k : kSutTextKeys) {
        const QString key = QString::fromLatin1(k);
        if (sj.value(key) != dj.value(key))
            add("sut", key + u'=' + sj.value(key).toString());
    }
    for (const char *k : kSutIntKeys) {
        const QString key = QString::fromLatin1(k);
        if (sj.value(key) != dj.value(key))
            add("sut", key + u'=' + QString::number(sj.value(key).toInt()));
    }
    for (const auto &[name, value] : sut.extraHeaders)
        add("header",
            name + u':' +
                (looksLikeSecretHeader(name) && !isApiKeyReference(value) ? u"<redacted>"_s
                                                                          : value));
    if (!sut.caFile.isEmpty())
        add("ca-file", sut.caFile);
    if (!sut.proxy.isEmpty())
        add("proxy", sut.proxy);
    if (!sut.tokenizer.isEmpty())
        add("tokenizer", sut.tokenizer);
    if (sut.serverMetrics.sut != dp.sut.serverMetrics.sut)
        add("metrics", sut.serverMetrics.sut);
    for (const MetricsTarget &t : sut.serverMetrics.targets)
        add("metrics-target", metricsTargetFlag(t));
    if (p.metricsIntervalS != dp.profile.metricsIntervalS)
        add("metrics-interval", number(p.metricsIntervalS));
    if (request.transport != defaults.transport)
        add("transport", QString::fromLatin1(transportKindName(request.transport)));
    if (sut.managed.enabled()) {
        const ManagedServerConfig dm;
        add("server-start-cmd", sut.managed.startCommand);
        if (!sut.managed.stopCommand.isEmpty())
            add("server-stop-cmd", sut.managed.stopCommand);
        if (!sut.managed.healthUrl.isEmpty())
            add("server-health-url", sut.managed.healthUrl);
        if (sut.managed.startTimeoutS != dm.startTimeoutS)
            add("server-start-timeout", number(sut.managed.startTimeoutS));
        if (!sut.managed.workingDirectory.isEmpty())
            add("server-workdir", sut.managed.workingDirectory);
        if (sut.managed.lifetime != dm.lifetime)
            add("server-lifetime", sut.managed.lifetime);
    }
    if (sut.simPrefillMsPerToken >= 0)
        add("sim-prefill-ms-per-token", number(sut.simPrefillMsPerToken));
    if (sut.simPrefixCacheBlocks >= 0)
        add("sim-prefix-cache-blocks", QString::number(sut.simPrefixCacheBlocks));
    if (sut.simTtftMs >= 0)
        add("sim-ttft-ms", number(sut.simTtftMs));
    if (sut.simItlMs >= 0)
        add("sim-itl-ms", number(sut.simItlMs));

    // --- dataset ---
    add("dataset-name", QString::fromLatin1(datasetKindName(d.kind)));
    if (!d.path.isEmpty())
        add("dataset-path", d.path);
    if (!d.versionLabel.isEmpty())
        add("dataset-version", d.versionLabel);
    if (d.kind == DatasetKind::Random) {
        add("random-input-len", QString::number(d.randomInputLen));
        add("random-output-len", QString::number(d.randomOutputLen));
        if (d.randomRangeRatio != dp.dataset.randomRangeRatio)
            add("random-range-ratio", number(d.randomRangeRatio));
        if (d.randomPrefixLen != dp.dataset.randomPrefixLen)
            add("random-prefix-len", QString::number(d.randomPrefixLen));
        if (d.randomDistribution != dp.dataset.randomDistribution)
            add("random-distribution",
                QString::fromLatin1(lengthDistributionName(d.randomDistribution)));
        const QList<std::pair<const char *, std::pair<int, int>>> ints = {
            {"random-input-stdev", {d.randomInputStdev, dp.dataset.randomInputStdev}},
            {"random-output-stdev", {d.randomOutputStdev, dp.dataset.randomOutputStdev}},
            {"random-input-min", {d.randomInputMin, dp.dataset.randomInputMin}},
            {"random-input-max", {d.randomInputMax, dp.dataset.randomInputMax}},
            {"random-output-min", {d.randomOutputMin, dp.dataset.randomOutputMin}},
            {"random-output-max", {d.randomOutputMax, dp.dataset.randomOutputMax}},
        };
        for (const auto &[name, values] : ints)
            if (values.first != values.second)
                add(name, QString::number(values.first));
        // The calibration the run used: a new measurement could pick other words (with a
        // tokenizer it is 1 and unused).
        add("tokens-per-word", number(d.tokensPerWord));
    }
    if (d.sharegptOutputLen != dp.dataset.sharegptOutputLen)
        add("sharegpt-output-len", QString::number(d.sharegptOutputLen));
    if (d.withReplacement)
        flag("with-replacement");
    if (d.imageCount > 0) {
        add("image-count", QString::number(d.imageCount));
        add("image-width", QString::number(d.imageWidth));
        add("image-height", QString::number(d.imageHeight));
        if (d.imageFormat != dp.dataset.imageFormat)
            add("image-format", d.imageFormat);
        if (d.imageSeed >= 0)
            add("image-seed", QString::number(d.imageSeed));
    }
    const bool sessions = plan.isSessionWorkload();
    if (sessions) {
        flag("multi-turn");
        if (d.kind == DatasetKind::Random)
            add("session-turns", QString::number(d.sessionTurns));
        if (d.sessionPrefixLen != dp.dataset.sessionPrefixLen)
            add("session-prefix-len", QString::number(d.sessionPrefixLen));
        if (d.maxTurns > 0)
            add("max-turns", QString::number(d.maxTurns));
    }

    // --- load profile ---
    if (p.scenario != Scenario::None &&
        !(request.mode == RunMode::MaxValidRate && p.scenario == Scenario::Server))
        add("scenario", QString::fromLatin1(scenarioName(p.scenario)));
    if (p.durationS > 0)
        add("duration", number(p.durationS));
    if (sessions) {
        // A session workload counts sessions; --num-prompts and --request-rate do not apply.
        if (p.durationS <= 0 || p.numSessions != dp.profile.numSessions)
            add("num-sessions", QString::number(p.numSessions));
        if (p.sessionUsers > 0)
            add("users", QString::number(p.sessionUsers));
        else
            add("session-rate", number(p.sessionRate));
        if (p.history != dp.profile.history)
            add("history", QString::fromLatin1(historyModeName(p.history)));
        if (p.thinkTime != ThinkTimeModel::None || p.thinkTimeMs != dp.profile.thinkTimeMs)
            add("think-time", QString::fromLatin1(thinkTimeModelName(p.thinkTime)));
        if (p.thinkTimeMs != dp.profile.thinkTimeMs)
            add("think-time-ms", number(p.thinkTimeMs));
        if (!p.sessionHeader.isEmpty())
            add("session-header", p.sessionHeader);
    } else {
        if (p.durationS <= 0 || p.numPrompts != dp.profile.numPrompts)
            add("num-prompts", QString::number(p.numPrompts));
        if (request.mode != RunMode::MaxValidRate || !p.unlimitedRate())
            add("request-rate", number(p.requestRate));
    }
    const bool gammaByBurstiness = p.arrival == ArrivalProcess::Gamma && p.burstiness != 1.0;
    if (p.arrival != dp.profile.arrival && !gammaByBurstiness)
        add("arrival", QString::fromLatin1(arrivalName(p.arrival)));
    if (p.burstiness != dp.profile.burstiness)
        add("burstiness", number(p.burstiness));
    if (p.rampUpStrategy != RampUpStrategy::None) {
        add("ramp-up-strategy", QString::fromLatin1(rampUpStrategyName(p.rampUpStrategy)));
        add("ramp-up-start-rps", number(p.rampUpStartRps));
        add("ramp-up-end-rps", number(p.rampUpEndRps));
    }
    if (!p.tracePath.isEmpty())
        add("trace", p.tracePath);
    if (p.traceTimeScale != dp.profile.traceTimeScale)
        add("trace-time-scale", number(p.traceTimeScale));
    if (p.traceFormat != dp.profile.traceFormat)
        add("trace-format", QString::fromLatin1(traceFormatName(p.traceFormat)));
    if (p.traceBlockSize != dp.profile.traceBlockSize)
        add("trace-block-size", QString::number(p.traceBlockSize));
    if (p.batchSize != dp.profile.batchSize)
        add("random-batch-size", QString::number(p.batchSize));
    if (p.maxConcurrency > 0)
        add("max-concurrency", QString::number(p.maxConcurrency));
    if (p.closedLoopConcurrency > 0)
        add("concurrency", QString::number(p.closedLoopConcurrency));
    if (p.warmupRequests > 0)
        add("warmup-requests", QString::number(p.warmupRequests));
    if (p.warmupSeconds > 0)
        add("warmup-seconds", number(p.warmupSeconds));
    add("seed", QString::number(p.seed));
    if (p.timeoutS != dp.profile.timeoutS)
        add("timeout", number(p.timeoutS));
    if (p.connectionMode != dp.profile.connectionMode)
        add("connection-mode", p.connectionMode);
    if (p.idleTimeoutS != dp.profile.idleTimeoutS)
        add("idle-timeout", number(p.idleTimeoutS));
    if (p.maxHeadBytes >= 0)
        add("max-head-bytes", QString::number(p.maxHeadBytes));
    if (p.maxEventBytes >= 0)
        add("max-event-bytes", QString::number(p.maxEventBytes));
    if (p.maxBodyBytes >= 0)
        add("max-body-bytes", QString::number(p.maxBodyBytes));
    if (p.maxErrorRate >= 0)
        add("max-error-rate", number(p.maxErrorRate));
    if (p.cancels()) {
        add("request-cancellation-rate", number(p.cancelRatePct));
        if (p.cancelAfterTokens > 0)
            add("request-cancellation-after-tokens", QString::number(p.cancelAfterTokens));
        else if (p.cancelDelayS > 0)
            add("request-cancellation-delay", number(p.cancelDelayS));
    }
    if (p.cacheReset) {
        add("cache-policy", u"reset"_s);
        if (p.cacheResetFallback != "refuse"_L1)
            add("cache-reset-fallback", p.cacheResetFallback);
    } else if (p.cacheBust) {
        flag("cache-bust");
    }
    if (p.goodput.any()) {
        f << u"--goodput"_s;
        if (p.goodput.ttftMs >= 0)
            f << u"ttft:"_s + number(p.goodput.ttftMs);
        if (p.goodput.tpotMs >= 0)
            f << u"tpot:"_s + number(p.goodput.tpotMs);
        if (p.goodput.e2elMs >= 0)
            f << u"e2el:"_s + number(p.goodput.e2elMs);
    }
    if (p.percentileMetrics != dp.profile.percentileMetrics)
        add("percentile-metrics", p.percentileMetrics.join(u','));
    if (p.metricPercentiles != dp.profile.metricPercentiles) {
        QStringList ps;
        for (double v : p.metricPercentiles)
            ps << number(v);
        add("metric-percentiles", ps.join(u','));
    }
    if (!p.mlperfPreset.isEmpty())
        add("mlperf-preset", p.mlperfPreset);
    if (p.ttftSloMs >= 0)
        add("ttft-slo-ms", number(p.ttftSloMs));
    if (p.tpotSloMs >= 0)
        add("tpot-slo-ms", number(p.tpotSloMs));
    if (p.sloPercentile > 0)
        add("slo-percentile", number(p.sloPercentile));
    if (p.minQueryCount > 0)
        add("min-query-count", QString::number(p.minQueryCount));
    if (p.minDurationS > 0)
        add("min-duration", number(p.minDurationS));

    // --- request parameters ---
    if (rp.ignoreEos)
        flag("ignore-eos");
    if (rp.temperature >= 0)
        add("temperature", number(rp.temperature));
    if (rp.seed >= 0)
        add("request-seed", QString::number(rp.seed));
    if (rp.thinkingBudgetTokens > 0)
        add("thinking-budget", QString::number(rp.thinkingBudgetTokens));
    if (!rp.extraBody.isEmpty())
        add("extra-body",
            QString::fromUtf8(
                QJsonDocument(scrubSecrets(rp.extraBody)).toJson(QJsonDocument::Compact)));

    // --- execution ---
    if (request.numRuns > 1)
        add("num-runs", QString::number(request.numRuns));
    if (request.stopWhenSaturated)
        flag("stop-when-saturated");
    if (request.saturationWindowS != defaults.saturationWindowS)
        add("saturation-window", number(request.saturationWindowS));
    if (request.mode == RunMode::Sweep)
        add("sweep", QString::number(request.sweepRates));
    if (request.mode == RunMode::MaxValidRate) {
        flag("find-max-valid-rate");
        if (request.rateTolerance != defaults.rateTolerance)
            add("rate-tolerance", number(request.rateTolerance));
    }
    if (request.shard.count > 1)
        add("shard", request.shard.text());
    if (request.startAtMs > 0)
        add("start-at", QString::number(request.startAtMs));
    if (!plan.name.isEmpty())
        add("name", plan.name);
    return f;
}

QString reproduceCommand(const RunRequest &request)
{
    QStringList words = {u"servebench-cli"_s, u"run"_s};
    for (const QString &w : runFlags(request))
        words << shellQuote(w);
    return words.join(u' ');
}

} // namespace sb
