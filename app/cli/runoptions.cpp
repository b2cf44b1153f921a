#include "runoptions.h"

#include "args.h"
#include "shardspec.h"

#include "run/runcontroller.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace sb::cli {

namespace {

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
        {u"endpoint"_s, K::Value, u"API path (default by backend: /v1/completions)"_s, {}},
        {u"backend"_s, K::Value, u"openai | openai-chat (vllm = openai)"_s, {}},
        {u"model"_s, K::Value, u"model id (default: first of /v1/models)"_s, {}},
        {u"dataset-name"_s, K::Value, u"random | sharegpt | custom"_s, {}},
        {u"dataset-path"_s, K::Value, u"dataset file (sharegpt JSON, custom JSONL)"_s, {}},
        {u"random-input-len"_s, K::Value, u"synthetic input tokens (default 1024)"_s, {}},
        {u"random-output-len"_s, K::Value, u"synthetic output tokens (default 128)"_s, {}},
        {u"random-range-ratio"_s, K::Value, u"uniform length range ratio (default 0)"_s, {}},
        {u"random-prefix-len"_s, K::Value, u"shared prefix tokens (default 0)"_s, {}},
        {u"sharegpt-output-len"_s, K::Value, u"fixed output length for sharegpt"_s, {}},
        {u"num-prompts"_s, K::Value, u"number of measured requests (default 1000)"_s, {}},
        {u"request-rate"_s, K::Value, u"requests per second, or inf (default inf)"_s, {}},
        {u"burstiness"_s, K::Value, u"gamma shape; 1 = Poisson (default 1)"_s, {}},
        {u"arrival"_s, K::Value, u"poisson | gamma | constant (default poisson)"_s, {}},
        {u"max-concurrency"_s, K::Value, u"cap on requests in flight"_s, {}},
        {u"concurrency"_s, K::Value, u"closed loop: keep exactly C requests in flight"_s, {}},
        {u"duration"_s, K::Value, u"stop issuing after S seconds"_s, {}},
        {u"warmup-requests"_s, K::Value, u"requests issued first and excluded from metrics"_s, {}},
        {u"warmup-seconds"_s, K::Value, u"seconds of warm-up excluded from metrics"_s, {}},
        {u"scenario"_s, K::Value, u"none | single-stream | server | offline"_s, {}},
        {u"seed"_s, K::Value, u"random seed (default 0)"_s, {}},
        {u"ignore-eos"_s, K::Flag, u"ask the server to ignore EOS"_s, {}},
        {u"temperature"_s, K::Value, u"sampling temperature"_s, {}},
        {u"top-p"_s, K::Value, u"sent as top_p"_s, {}},
        {u"top-k"_s, K::Value, u"sent as top_k"_s, {}},
        {u"min-p"_s, K::Value, u"sent as min_p"_s, {}},
        {u"extra-body"_s, K::Value, u"JSON object merged into every request body"_s, {}},
        {u"header"_s, K::Repeated, u"extra header K:V or K=V (repeatable)"_s, {}},
        {u"timeout"_s, K::Value, u"per-request timeout in seconds (default 600)"_s, {}},
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
        {u"goodput"_s, K::MultiValue, u"SLOs, e.g. ttft:200 tpot:50 e2el:1000 (ms)"_s, {}},
        {u"percentile-metrics"_s, K::Value, u"comma list of ttft,tpot,itl,e2el"_s, {}},
        {u"metric-percentiles"_s, K::Value, u"comma list of percentiles (default 99)"_s, {}},
        {u"cache-bust"_s, K::Flag, u"unique random prefix per request"_s, {}},
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
        {u"sut-name"_s, K::Value, u"a name for the system under test"_s, {}},
        {u"shard"_s,
         K::Value,
         u"I/N: issue agent I's share of the plan (0-based; see docs/distributed.md)"_s,
         {}},
        {u"start-at"_s,
         K::Value,
         u"EPOCH_MS: start the schedule at this UTC time (agents start together)"_s,
         {}},
        compat("tokenizer", K::Value,
               u"is not used: token counts come from the server's usage (or chunk counts)"_s),
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

} // namespace

bool parseRunOptions(const QStringList &argv, RunPlan *plan, RunCliOptions *opts, QString *error)
{
    Args a(runSpecs());
    if (!a.parse(argv, error))
        return false;
    opts->commandLine = argv;
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
    SutConfig &sut = plan->sut;
    LoadProfile &p = plan->profile;
    DatasetSpec &d = plan->dataset;

    if (a.has(u"backend"_s) && !apiFlavourFromName(a.value(u"backend"_s), &sut.flavour)) {
        *error =
            u"--backend must be openai, openai-chat or vllm, got '%1'"_s.arg(a.value(u"backend"_s));
        return false;
    }
    opts->endpointGiven = a.has(u"base-url"_s) || a.has(u"host"_s) || a.has(u"port"_s);
    if (a.has(u"base-url"_s)) {
        const QUrl url(a.value(u"base-url"_s));
        if (!url.isValid() || url.host().isEmpty() ||
            (url.scheme() != "http"_L1 && url.scheme() != "https"_L1)) {
            *error = u"--base-url must be an http:// or https:// URL, got '%1'"_s.arg(
                a.value(u"base-url"_s));
            return false;
        }
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
    sut.endpoint = a.value(u"endpoint"_s);
    if (!sut.endpoint.isEmpty() && !sut.endpoint.startsWith(u'/'))
        sut.endpoint.prepend(u'/');
    if (sut.endpoint.contains("chat/completions"_L1) && !a.has(u"backend"_s))
        sut.flavour = ApiFlavour::Chat; // the endpoint says which flavour it speaks
    sut.model = a.value(u"model"_s);
    opts->modelGiven = !sut.model.isEmpty();
    sut.name = a.value(u"sut-name"_s);
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
    if (!sut.proxy.isEmpty()) {
        // The command line is stored with the run: a password in it would be stored too.
        const QString p = sut.proxy.trimmed();
        const QUrl url(p.contains("://"_L1) ? p : u"http://"_s + p);
        if (!url.password().isEmpty()) {
            *error = u"--proxy must not hold a password (it would be stored with the run and "
                     "shown in reports); put the proxy URL with its credentials in the "
                     "https_proxy / http_proxy environment variable instead"_s;
            return false;
        }
    }
    if (qEnvironmentVariableIsSet("OPENAI_API_KEY"))
        sut.apiKeyRef = u"env:OPENAI_API_KEY"_s;

    if (a.has(u"dataset-name"_s) && !datasetKindFromName(a.value(u"dataset-name"_s), &d.kind)) {
        *error = u"--dataset-name must be random, sharegpt or custom, got '%1'"_s.arg(
            a.value(u"dataset-name"_s));
        return false;
    }
    d.path = a.value(u"dataset-path"_s);
    if (d.kind != DatasetKind::Random && d.path.isEmpty()) {
        *error = u"--dataset-path is required with --dataset-name %1"_s.arg(
            QString::fromLatin1(datasetKindName(d.kind)));
        return false;
    }
    d.randomInputLen = a.intValue(u"random-input-len"_s, d.randomInputLen, &e);
    d.randomOutputLen = a.intValue(u"random-output-len"_s, d.randomOutputLen, &e);
    d.randomRangeRatio = a.doubleValue(u"random-range-ratio"_s, 0.0, &e);
    d.randomPrefixLen = a.intValue(u"random-prefix-len"_s, 0, &e);
    d.sharegptOutputLen = a.intValue(u"sharegpt-output-len"_s, -1, &e);

    p.numPrompts = a.intValue(u"num-prompts"_s, 1000, &e);
    p.requestRate = a.doubleValue(u"request-rate"_s, std::numeric_limits<double>::infinity(), &e);
    p.burstiness = a.doubleValue(u"burstiness"_s, 1.0, &e);
    p.maxConcurrency = a.intValue(u"max-concurrency"_s, 0, &e);
    p.closedLoopConcurrency = a.intValue(u"concurrency"_s, 0, &e);
    p.durationS = a.doubleValue(u"duration"_s, 0, &e);
    p.warmupRequests = a.intValue(u"warmup-requests"_s, 0, &e);
    p.warmupSeconds = a.doubleValue(u"warmup-seconds"_s, 0, &e);
    p.timeoutS = a.doubleValue(u"timeout"_s, 600, &e);
    p.cacheBust = a.has(u"cache-bust"_s);
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
    struct Check
    {
        bool bad;
        const char *msg;
    };
    const Check checks[] = {
        {p.numPrompts < 1 && p.durationS <= 0, "--num-prompts must be at least 1"},
        {p.requestRate <= 0, "--request-rate must be positive or inf"},
        {p.burstiness <= 0, "--burstiness must be positive"},
        {p.maxConcurrency < 0, "--max-concurrency must be positive"},
        {p.closedLoopConcurrency < 0, "--concurrency must be positive"},
        {p.durationS < 0, "--duration must be positive"},
        {p.warmupRequests < 0, "--warmup-requests must not be negative"},
        {p.warmupSeconds < 0, "--warmup-seconds must not be negative"},
        {p.timeoutS <= 0, "--timeout must be positive"},
        {d.randomInputLen < 1, "--random-input-len must be at least 1"},
        {d.randomOutputLen < 1, "--random-output-len must be at least 1"},
        {d.randomRangeRatio < 0 || d.randomRangeRatio >= 1,
         "--random-range-ratio must be in [0, 1)"},
        {d.randomPrefixLen < 0, "--random-prefix-len must not be negative"},
    };
    for (const auto &c : checks) {
        if (c.bad) {
            *error = QString::fromLatin1(c.msg);
            return false;
        }
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
        for (const QString &m : a.value(u"percentile-metrics"_s).split(u',', Qt::SkipEmptyParts)) {
            const QString k = m.trimmed().toLower();
            if (k != "ttft"_L1 && k != "tpot"_L1 && k != "itl"_L1 && k != "e2el"_L1) {
                *error = u"--percentile-metrics knows ttft, tpot, itl and e2el, got '%1'"_s.arg(k);
                return false;
            }
            p.percentileMetrics.append(k);
        }
    }
    if (a.has(u"metric-percentiles"_s)) {
        p.metricPercentiles.clear();
        for (const QString &m : a.value(u"metric-percentiles"_s).split(u',', Qt::SkipEmptyParts)) {
            bool ok = false;
            const double v = m.trimmed().toDouble(&ok);
            if (!ok || v < 0 || v > 100) {
                *error = u"--metric-percentiles expects numbers in [0, 100], got '%1'"_s.arg(m);
                return false;
            }
            p.metricPercentiles.append(v);
        }
    }

    RequestParams &rp = plan->params;
    rp.ignoreEos = a.has(u"ignore-eos"_s);
    rp.temperature = a.doubleValue(u"temperature"_s, -1, &e);
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
    p.mlperfPreset = a.value(u"mlperf-preset"_s);
    p.ttftSloMs = a.doubleValue(u"ttft-slo-ms"_s, -1, &e);
    p.tpotSloMs = a.doubleValue(u"tpot-slo-ms"_s, -1, &e);
    p.sloPercentile = a.doubleValue(u"slo-percentile"_s, -1, &e);
    p.minQueryCount = a.intValue(u"min-query-count"_s, 0, &e);
    p.minDurationS = a.doubleValue(u"min-duration"_s, 0, &e);
    opts->sweep = a.intValue(u"sweep"_s, 0, &e);
    opts->findMaxValidRate = a.has(u"find-max-valid-rate"_s);
    opts->rateTolerance = a.doubleValue(u"rate-tolerance"_s, 0.05, &e);
    opts->project = a.value(u"project"_s);
    if (a.has(u"shard"_s)) {
        ShardSpec shard;
        if (!ShardSpec::parse(a.value(u"shard"_s), &shard, error))
            return false;
        opts->shardIndex = shard.index;
        opts->shardCount = shard.count;
    }
    if (a.has(u"start-at"_s)) {
        bool ok = false;
        opts->startAtMs = a.value(u"start-at"_s).toLongLong(&ok);
        if (!ok || opts->startAtMs <= 0) {
            *error = u"--start-at expects milliseconds since the Unix epoch (date +%s%3N), "
                     "got '%1'"_s.arg(a.value(u"start-at"_s));
            return false;
        }
    }
    if (!e.isEmpty()) {
        *error = e;
        return false;
    }
    if (p.traceTimeScale < 0) {
        *error = u"--trace-time-scale must not be negative"_s;
        return false;
    }
    if (opts->sweep < 0) {
        *error = u"--sweep must be a positive number of rates"_s;
        return false;
    }
    if (opts->rateTolerance <= 0 || opts->rateTolerance >= 1) {
        *error = u"--rate-tolerance must be in (0, 1)"_s;
        return false;
    }
    if (opts->findMaxValidRate) {
        if (opts->sweep > 0) {
            *error = u"--find-max-valid-rate and --sweep are separate searches; give one"_s;
            return false;
        }
        if (p.scenario == Scenario::None)
            p.scenario = Scenario::Server;
        if (p.scenario != Scenario::Server) {
            *error = u"--find-max-valid-rate searches Server rates (--scenario server)"_s;
            return false;
        }
        if (p.ttftSloMs < 0 && p.tpotSloMs < 0 && p.mlperfPreset.isEmpty()) {
            *error =
                u"--find-max-valid-rate needs --ttft-slo-ms, --tpot-slo-ms or --mlperf-preset"_s;
            return false;
        }
    }
    if (p.scenario == Scenario::Server && p.unlimitedRate() && !opts->findMaxValidRate) {
        *error = u"--scenario server needs a finite --request-rate"_s;
        return false;
    }

    opts->saveResult = a.has(u"save-result"_s);
    opts->saveDetailed = a.has(u"save-detailed"_s);
    if (opts->saveDetailed)
        opts->saveResult = true;
    if (a.has(u"transport"_s)) {
        TransportKind kind;
        if (!transportKindFromName(a.value(u"transport"_s), &kind)) {
            *error = u"--transport must be socket or qnam, got '%1'"_s.arg(a.value(u"transport"_s));
            return false;
        }
        opts->transport = QString::fromLatin1(transportKindName(kind));
    }
    opts->resultDir = a.value(u"result-dir"_s);
    opts->resultFilename = a.value(u"result-filename"_s);
    plan->name = a.value(u"name"_s);
    return true;
}

} // namespace sb::cli
