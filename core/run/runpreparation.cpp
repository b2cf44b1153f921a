#include "runpreparation.h"

#include "client/endpointprobe.h"
#include "common/version.h"
#include "data/mooncaketrace.h"
#include "data/syntheticprompt.h"
#include "load/tracereplay.h"
#include "run/cachecontrol.h"
#include "run/managedserver.h"
#include "sim/simulator.h"

#include "data/filehasher.h"
#include "data/seededrng.h"
#include "data/syntheticvocabulary.h"
#include "tokenizer/tokenizer.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

PlanIssue issue(const char *field, const char *id, const QStringList &args = {})
{
    return {QString::fromLatin1(field), Message(id, args)};
}

int probeTimeoutMs(const LoadProfile &p)
{
    // The run's own timeout: a server that takes longer to list its models would time out the
    // run's requests too. Capped so a 10-minute generation timeout does not make a dead host
    // hang the start for 10 minutes.
    return int(std::clamp(p.timeoutS, 0.001, 60.0) * 1000);
}

// The slope of the server's token count over word count between two prompt lengths, so a BOS
// token or chat template does not bias it. 0 when the server has no /tokenize.
double measureTokensPerWord(EndpointProbe &probe, const QString &model, QString *note)
{
    constexpr int kShort = 100, kLong = 400;
    QString why;
    const int a = probe.tokenizeCount(model, syntheticPrompt(kShort, 1), &why);
    if (a < 0) {
        *note = u"the server offers no POST /tokenize (%1): synthetic prompt lengths are "
                "approximate (one token per word)"_s.arg(why);
        return 0;
    }
    const int b = probe.tokenizeCount(model, syntheticPrompt(kLong, 1), &why);
    if (b <= a) {
        *note = u"POST /tokenize gave inconsistent counts (%1, %2): not calibrated"_s.arg(a).arg(b);
        return 0;
    }
    const double ratio = double(b - a) / double(kLong - kShort);
    *note = u"calibrated synthetic prompts against POST /tokenize: %1 tokens per word"_s.arg(
        ratio, 0, 'f', 3);
    return ratio;
}

bool loadMooncakeDataset(const RunPlan &plan, int cacheGranularity, PreparedRun *out,
                         PlanIssue *error)
{
    const QString &path = plan.profile.tracePath;
    const int block = plan.profile.traceBlockSize;
    QList<MooncakeRow> rows;
    QString why;
    if (!loadMooncakeTrace(path, block, &rows, &why)) {
        *error = issue("trace", "prepare.detail", {why});
        return false;
    }
    if (rows.isEmpty()) {
        *error = issue("trace", "prepare.trace.empty", {path});
        return false;
    }
    const double spanS = (rows.constLast().timestampMs - rows.constFirst().timestampMs) / 1000 *
                         plan.profile.traceTimeScale;
    if (!(spanS <= limits::kMaxSpanS)) {
        *error = issue("trace", "prepare.trace.span",
                       {QString::number(spanS / 86400, 'f', 1),
                        QString::number(limits::kMaxSpanS / 86400, 'f', 0)});
        return false;
    }
    QString fileHash;
    if (!FileHasher::sha256(path, &fileHash, &why)) {
        *error = issue("trace", "prepare.detail", {why});
        return false;
    }
    LoadedDataset &ds = out->dataset;
    ds.items.reserve(rows.size());
    QList<qint32> in, outLens;
    const double origin = rows.constFirst().timestampMs;
    for (const MooncakeRow &row : std::as_const(rows)) {
        PromptItem item;
        item.hashIds = row.hashIds;
        item.hashBlockTokens = block;
        item.inputTokens = row.inputLength;
        item.outputTokens = row.outputLength;
        item.sourceIndex = row.line;
        ds.items.append(item);
        in.append(row.inputLength);
        outLens.append(row.outputLength);
        out->traceSchedule.append(
            qint64(std::llround((row.timestampMs - origin) * plan.profile.traceTimeScale * 1e6)));
    }
    DatasetInfo &info = ds.info;
    info.kind = plan.dataset.kind;
    info.path = path;
    info.sourceSha256 = fileHash;
    info.parameters = QJsonObject{
        {u"format"_s, u"mooncake"_s},
        {u"block_tokens"_s, block},
        {u"word_list"_s, QString::fromLatin1(SyntheticPromptBuilder::kWordListVersion)}};
    info.sha256 = datasetIdentityHash(fileHash, info.parameters);
    info.itemCount = rows.size();
    info.sourceItems = rows.size();
    info.sampled = rows.size();
    info.inputStats = LengthStats::of(in);
    info.outputStats = LengthStats::of(outLens);
    const TracePrefixReuse reuse = mooncakePrefixReuse(rows, block, cacheGranularity);
    info.traceReuse = QJsonObject{{u"block_tokens"_s, block},
                                  {u"granularity_tokens"_s, cacheGranularity},
                                  {u"input_tokens"_s, reuse.inputTokens},
                                  {u"reusable_tokens"_s, reuse.cachedTokens},
                                  {u"hit_rate"_s, reuse.hitRate}};
    out->notes.append(u"Mooncake trace %1: %2 requests; its hash ids reuse %3 % of the input "
                      "tokens (an unbounded cache of %4-token blocks)."_s.arg(path)
                          .arg(rows.size())
                          .arg(reuse.hitRate * 100, 0, 'f', 2)
                          .arg(cacheGranularity));
    return true;
}

// What the user should know about the counts of an exact dataset: how synthetic prompts were
// checked, and where the server's count will differ from the tokenizer's (docs/tokenizers.md).
QString tokenizerNote(const Tokenizer &tokenizer, const RunPlan &plan, const DatasetInfo &info)
{
    QStringList parts;
    parts << u"Tokenizer %1."_s.arg(tokenizer.describe());
    const qsizetype added = tokenizer.count(u"x", true) - tokenizer.count(u"x", false);
    const QString special =
        added > 0 ? u"its post-processor adds %1 special token(s) to a prompt"_s.arg(added)
        : tokenizer.addBosToken()
            ? u"its tokenizer_config.json says a BOS token is added (add_bos_token)"_s
            : u"it adds no special token to a prompt"_s;
    if (plan.dataset.kind == DatasetKind::Random && plan.profile.tracePath.isEmpty())
        parts << u"Synthetic prompts hold exactly their drawn length in tokens under it, counted "
                 "as vLLM counts a prompt, with the special tokens the tokenizer adds (%3); the "
                 "text holds that many fewer, as in vLLM's random dataset (%1 of 256 words are "
                 "one token each; %2 prompts were fitted by adding or removing words). For chat "
                 "requests the server adds the chat template's tokens on top."_s
                     .arg(info.syntheticWords)
                     .arg(info.fittedPrompts)
                     .arg(special);
    else if (plan.profile.tracePath.isEmpty())
        parts << u"Dataset lengths are its counts, special tokens included as vLLM counts them "
                 "(%1)."_s.arg(special);
    if (plan.profile.cacheBust)
        parts << u"--cache-bust puts a unique prefix before every prompt: its tokens come on top "
                 "of the dataset's lengths."_s;
    parts << u"Output tokens are counted from the streamed text when the server sends no "
             "usage, and beside the server's count when it does."_s;
    return parts.join(u' ');
}

bool loadTraceDataset(const RunPlan &plan, const Tokenizer *tokenizer, PreparedRun *out,
                      PlanIssue *error)
{
    const QString &path = plan.profile.tracePath;
    QList<TraceRow> rows;
    QString why;
    if (!loadTrace(path, &rows, &why)) {
        *error = issue("trace", "prepare.detail", {why});
        return false;
    }
    if (rows.isEmpty()) {
        *error = issue("trace", "prepare.trace.empty", {path});
        return false;
    }
    const double spanS =
        (rows.constLast().timestampS - rows.constFirst().timestampS) * plan.profile.traceTimeScale;
    if (!(spanS <= limits::kMaxSpanS)) {
        *error = issue("trace", "prepare.trace.span",
                       {QString::number(spanS / 86400, 'f', 1),
                        QString::number(limits::kMaxSpanS / 86400, 'f', 0)});
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = issue("trace", "prepare.detail", {u"%1: %2"_s.arg(path, f.errorString())});
        return false;
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    SyntheticVocabulary vocab;
    if (tokenizer && !vocab.build(tokenizer, &why)) {
        *error = issue("tokenizer", "prepare.detail", {why});
        return false;
    }
    LoadedDataset &ds = out->dataset;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        PromptItem item;
        if (rows[i].prompt.isEmpty()) {
            // A row without a prompt gets a synthetic one of its length, exact under a tokenizer.
            SeededRng rng(plan.profile.seed + quint64(i));
            // As loadDataset: the row's length counts the tokenizer's special tokens.
            const int text = std::max(0, rows[i].inputTokens - vocab.specialTokens());
            vocab.appendWords(&item.prompt, text, rng);
            if (vocab.fitToTokens(&item.prompt, text, rng) < 0) {
                *error = issue("trace", "prepare.detail",
                               {u"%1:%2: no prompt of exactly %3 tokens could be made under the "
                                "tokenizer %4"_s.arg(path)
                                    .arg(rows[i].line)
                                    .arg(rows[i].inputTokens)
                                    .arg(tokenizer->path())});
                return false;
            }
        } else {
            item.prompt = rows[i].prompt;
        }
        item.inputTokens = rows[i].inputTokens;
        item.outputTokens =
            rows[i].outputTokens > 0 ? rows[i].outputTokens : plan.dataset.randomOutputLen;
        item.sourceIndex = rows[i].line;
        ds.items.append(item);
    }
    ds.info.kind = plan.dataset.kind;
    ds.info.sha256 = QString::fromLatin1(hash.result().toHex());
    if (tokenizer) {
        // The synthetic prompts of rows without one depend on the tokenizer's words.
        QCryptographicHash withTokenizer(QCryptographicHash::Sha256);
        withTokenizer.addData(ds.info.sha256.toLatin1());
        withTokenizer.addData("\ntokenizer ");
        withTokenizer.addData(tokenizer->sha256().toLatin1());
        ds.info.sha256 = QString::fromLatin1(withTokenizer.result().toHex());
        ds.info.tokenizer = tokenizer->describe();
        ds.info.tokenizerSha256 = tokenizer->sha256();
        ds.info.tokenCounter = u"tokenizer"_s;
        ds.info.approximateTokens = false;
    }
    ds.info.sourceSha256 = ds.info.sha256;
    ds.info.path = path;
    ds.info.itemCount = rows.size();
    ds.info.sampled = rows.size();
    out->traceSchedule = buildTraceSchedule(rows, plan.profile.traceTimeScale);
    return true;
}

} // namespace

bool prepareRun(const RunRequest &request, const PrepareContext &context, PreparedRun *out,
                PlanIssue *error)
{
    const QList<PlanIssue> issues = validateRunRequest(request);
    if (!issues.isEmpty()) {
        *error = issues.first();
        return false;
    }
    const auto step = [&](const QString &what) {
        if (context.progress)
            context.progress(what);
        return !(context.cancelled && context.cancelled->load());
    };
    const auto cancelled = [&] {
        *error = issue("run", "prepare.cancelled");
        return false;
    };

    PreparedRun p;
    p.request = request;
    p.apiKey = context.apiKey;
    RunPlan &plan = p.request.plan;
    SutConfig &sut = plan.sut;

    // --- the model's tokenizer: first, so a bad file stops the run before anything starts ---
    if (!sut.tokenizer.isEmpty()) {
        if (!step(u"Loading the tokenizer %1 …"_s.arg(sut.tokenizer)))
            return cancelled();
        QString why;
        std::unique_ptr<Tokenizer> loaded = Tokenizer::load(sut.tokenizer, &why);
        if (!loaded) {
            // vLLM takes a Hugging Face model id here and downloads it; ServeBench reads files.
            if (!QFileInfo::exists(sut.tokenizer))
                why += u" (--tokenizer reads a local tokenizer.json, a folder holding one, or a "
                       "*.tiktoken file; a Hugging Face model id is not downloaded)"_s;
            *error = issue("tokenizer", "prepare.detail", {why});
            return false;
        }
        p.tokenizer = std::move(loaded);
        if (plan.dataset.tokensPerWord != 1.0) {
            p.notes.append(u"--tokens-per-word %1 is not used: with --tokenizer synthetic prompts "
                           "are sized by the tokenizer itself."_s.arg(plan.dataset.tokensPerWord));
            plan.dataset.tokensPerWord = 1.0;
        }
    }

    // --- the SUT ---
    if (sut.builtInSimulator) {
        p.simulator = context.simulator;
        if (!p.simulator) {
            if (!step(u"Starting the built-in simulator …"_s))
                return cancelled();
            auto sim = std::make_shared<Simulator>();
            if (!sim->start()) {
                *error = issue("base-url", "prepare.simulator.start", {sim->errorString()});
                return false;
            }
            p.simulator = sim;
        }
        SimConfig cfg = p.simulator->config();
        // The engine model is the plan's (docs/sessions.md): prefix reuse is what session
        // workloads and Mooncake traces measure, so their prompts pay for what is not cached.
        const bool reuse =
            plan.isSessionWorkload() || (!plan.profile.tracePath.isEmpty() &&
                                         plan.profile.traceFormat == TraceFormat::Mooncake);
        const SimConfig defaults;
        cfg.prefixCache = reuse || sut.simPrefixCacheBlocks >= 0 || sut.simPrefillMsPerToken >= 0;
        cfg.prefixCacheBlocks =
            sut.simPrefixCacheBlocks >= 0 ? sut.simPrefixCacheBlocks : defaults.prefixCacheBlocks;
        cfg.prefillMsPerToken = sut.simPrefillMsPerToken >= 0 ? sut.simPrefillMsPerToken
                                : reuse                       ? kSessionPrefillMsPerToken
                                                              : defaults.prefillMsPerToken;
        if (sut.simTtftMs >= 0)
            cfg.ttftMs = sut.simTtftMs;
        if (sut.simItlMs >= 0)
            cfg.itlMs = sut.simItlMs;
        p.simulator->setConfig(cfg);
        p.simulator->clearPrefixCache(); // every run starts cold: a warm cache is not the plan
        p.prefixCache = QJsonObject{
            {u"where"_s, u"built-in simulator"_s},
            {u"enabled"_s, cfg.prefixCache},
            {u"block_tokens"_s, cfg.prefixBlockTokens},
            {u"capacity_blocks"_s, cfg.prefixCacheBlocks},
            {u"prefill_ms_per_token"_s, cfg.prefillMsPerToken},
            {u"state_at_start"_s, u"empty"_s},
        };
        sut.baseUrl = p.simulator->baseUrl().toString();
        if (sut.name.isEmpty())
            sut.name = u"built-in simulator"_s;
        if (sut.model.isEmpty())
            sut.model = cfg.modelName;
        sut.engine = u"servebench-sim"_s;
        sut.engineVersion = QString::fromLatin1(toolVersion());
        p.notes.append(u"No endpoint given: running against the built-in simulator at %1 (TTFT "
                       "%2 ms, %3 ms per token)."_s.arg(sut.baseUrl)
                           .arg(cfg.ttftMs)
                           .arg(cfg.itlMs));
        if (cfg.prefixCache)
            p.notes.append(u"The simulator's prefix cache holds %1 blocks of %2 tokens and starts "
                           "empty; each prompt token it does not hold adds %3 ms to TTFT."_s
                               .arg(cfg.prefixCacheBlocks)
                               .arg(cfg.prefixBlockTokens)
                               .arg(cfg.prefillMsPerToken));
    } else {
        p.prefixCache = QJsonObject{
            {u"where"_s, u"server"_s},
            {u"state_at_start"_s,
             plan.profile.cacheBust ? u"not relied on: every request (session) has its own prefix"_s
                                    : u"as earlier traffic left it (not controlled)"_s},
        };
    }
    if (sut.name.isEmpty())
        sut.name = sut.baseUrl;

    QString why;
    if (!resolveTransportOptions(sut, context.environment, &p.transportOptions, &why)) {
        *error = issue(sut.caFile.isEmpty() ? "proxy" : "ca-file", "prepare.detail", {why});
        return false;
    }
    applyProfileToTransport(plan.profile, &p.transportOptions);
    p.route = connectionRoute(sut, p.transportOptions);
    // Every response is counted in the worker that reads it (StreamAccumulator).
    p.transportOptions.tokenizer = p.tokenizer;

    // --- a managed server: started here, before anything asks it a question ---
    if (sut.managed.enabled()) {
        if (context.managedServer && context.managedServer->alive()) {
            p.managedServer = context.managedServer; // kept up by the caller (a study candidate)
        } else {
            if (!step(u"Starting the managed server: %1"_s.arg(sut.managed.startCommand)))
                return cancelled();
            auto server =
                std::make_shared<ManagedServer>(sut.managed, sut, p.apiKey, p.transportOptions);
            if (!server->start(context.cancelled, context.progress)) {
                out->managedServer = server; // stopped; its output is the caller's to store
                *error = issue("server-start-cmd", "prepare.detail", {server->error()});
                return false;
            }
            p.managedServer = server;
            p.ownsManagedServer = true;
            // A later step that fails leaves the server to the caller too (its log, its stop).
            out->managedServer = server;
            p.notes.append(u"Managed server healthy at %1 after %2 ms (instance %3)."_s.arg(
                server->healthUrl().toString(), QString::number(server->startupMs()),
                server->instanceId()));
        }
    }

    // --- the endpoint answers, and says which models it serves ---
    EndpointProbe probe(sut, p.apiKey, p.transportOptions, probeTimeoutMs(plan.profile));
    if (!step(u"Checking %1 …"_s.arg(probe.url(u"/v1/models"_s).toDisplayString())))
        return cancelled();
    const ModelList models = probe.models();
    if (!models.reachable) {
        const QString route = probe.route(probe.url(u"/v1/models"_s));
        *error = route.startsWith("direct"_L1)
                     ? issue("base-url", "prepare.unreachable", {sut.baseUrl, models.error})
                     : issue("base-url", "prepare.unreachable.proxy",
                             {sut.baseUrl, route, models.error});
        return false;
    }
    if (sut.model.isEmpty()) {
        if (models.models.isEmpty()) {
            *error = issue("model", "prepare.model.none", {models.error});
            return false;
        }
        sut.model = models.models.first();
        p.notes.append(
            u"No model given: using %1, the first model %2 lists."_s.arg(sut.model, sut.baseUrl));
    }

    // --- the server's prefix cache: reset by its engine, when the plan says so ---
    if (plan.profile.cacheReset) {
        if (!step(u"Resetting the server's prefix cache …"_s))
            return cancelled();
        const CacheResetOutcome reset = resetPrefixCache(probe, sut);
        QJsonObject block = p.prefixCache;
        block[u"policy"_s] = u"reset"_s;
        block[u"fallback"_s] = plan.profile.cacheResetFallback;
        block[u"reset"_s] = reset.toJson();
        if (reset.done) {
            block[u"state_at_start"_s] = u"reset by the engine (POST %1)"_s.arg(reset.endpoint);
            p.cacheBaseline = reset.atReset;
            p.verifyCacheReset = true;
            p.notes.append(u"Prefix cache reset: POST %1 answered HTTP %2 in %3 ms."_s.arg(
                reset.endpoint, QString::number(reset.httpStatus),
                QString::number(reset.ms, 'f', 1)));
        } else if (plan.profile.cacheResetFallback == "bust"_L1) {
            plan.profile.cacheBust = true;
            block[u"state_at_start"_s] =
                u"not reset (%1); fallback: every request has its own prefix"_s.arg(reset.detail);
            p.notes.append(u"Prefix cache not reset: %1. Fallback: cache bust (every request "
                           "gets its own random prefix)."_s.arg(reset.detail));
        } else {
            *error = issue("cache-policy", "prepare.detail",
                           {u"%1; the run does not start (--cache-reset-fallback refuse). Use "
                            "--cache-reset-fallback bust to run with unique prefixes instead."_s
                                .arg(reset.detail)});
            return false;
        }
        p.prefixCache = block;
    } else if (!p.prefixCache.contains(u"policy"_s)) {
        p.prefixCache[u"policy"_s] = plan.profile.cacheBust ? u"bust"_s : u"keep"_s;
    }

    // --- the dataset ---
    if (!plan.profile.tracePath.isEmpty()) {
        if (!step(u"Reading the trace %1 …"_s.arg(plan.profile.tracePath)))
            return cancelled();
        // The reuse a trace implies is computed at the cache's granularity when it is known.
        const int granularity = p.simulator ? p.simulator->config().prefixBlockTokens : 1;
        if (plan.profile.traceFormat == TraceFormat::Mooncake
                ? !loadMooncakeDataset(plan, granularity, &p, error)
                : !loadTraceDataset(plan, p.tokenizer.get(), &p, error))
            return false;
    } else {
        if (plan.dataset.kind == DatasetKind::Random && request.calibrateTokens && !p.tokenizer) {
            if (!step(u"Calibrating synthetic prompts against POST /tokenize …"_s))
                return cancelled();
            QString note;
            const double ratio = measureTokensPerWord(probe, sut.model, &note);
            plan.dataset.tokensPerWord = ratio > 0 ? ratio : 1.0;
            p.notes.append(note);
        }
        if (!step(u"Loading the dataset …"_s))
            return cancelled();
        // Duration-bound runs cycle through the list; 1000 distinct prompts keep them varied.
        // A session workload samples sessions, numSessions of them.
        const int wanted = plan.isSessionWorkload()      ? (plan.profile.durationS > 0
                                                                ? std::max(plan.profile.numSessions, 100)
                                                                : plan.profile.numSessions)
                           : (plan.profile.numPrompts > 0 ? plan.profile.numPrompts
                                                          : 1000) *
                                 plan.itemsPerRequest();
        if (!loadDataset(plan.dataset, wanted, plan.profile.seed, &p.dataset, &why,
                         p.tokenizer.get())) {
            // The tokenizer's own words failing the check is the tokenizer's fault.
            const char *field = p.tokenizer && why.startsWith(p.tokenizer->path()) ? "tokenizer"
                                : plan.dataset.kind == DatasetKind::Random         ? "dataset-name"
                                                                                   : "dataset-path";
            *error = issue(field, "prepare.detail", {why});
            return false;
        }
    }
    if (p.tokenizer)
        p.notes.append(tokenizerNote(*p.tokenizer, plan, p.dataset.info));
    p.fullPlan = plan;
    p.scrape =
        buildScrapePlan(plan, p.apiKey, p.transportOptions, context.environment, context.secrets);
    p.notes.append(p.scrape.notes);

    // --- this agent's share ---
    if (request.isSharded()) {
        if (!step(u"Measuring the clock offset …"_s))
            return cancelled();
        if (!prepareShard(request.shard, request.startAtMs, &plan, &p.dataset, &p.traceSchedule,
                          probe, &p.shard, &p.notes, &why)) {
            *error = issue("shard", "prepare.detail", {why});
            return false;
        }
    }
    *out = std::move(p);
    return true;
}

void applyProfileToTransport(const LoadProfile &profile, TransportOptions *options)
{
    ConnectionMode mode = ConnectionMode::Warm;
    if (connectionModeFromName(profile.connectionMode, &mode))
        options->connectionMode = mode;
    options->idleTimeoutNs = qint64(profile.idleTimeoutS * 1e9);
    if (profile.maxHeadBytes >= 0)
        options->limits.maxHeadBytes = profile.maxHeadBytes;
    if (profile.maxEventBytes >= 0)
        options->limits.maxEventBytes = profile.maxEventBytes;
    if (profile.maxBodyBytes >= 0)
        options->limits.maxBodyBytes = profile.maxBodyBytes;
}

} // namespace sb
