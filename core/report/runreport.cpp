#include "runreport.h"

#include "report/serverstatetext.h"

#include "load/mlperfprofile.h"
#include "metrics/clienthealth.h"
#include "metrics/resultjson.h"
#include "metrics/samples.h"
#include "metrics/summary.h"
#include "metrics/summarytext.h"
#include "report/serverreport.h"
#include "report/vllmimport.h"
#include "store/projectstore.h"

#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// The clustered ITL bootstrap's limit (see deriveStatistics); loadStoredRunForReport keeps only
// the counts of a run above it.
constexpr qint64 kMaxBootstrapGaps = 2'000'000;

// Intervals for the latency metrics a user reads first. ITL gaps of one request are not
// independent samples, so ITL gets a bootstrap over requests (clusters), not over gaps.
void deriveStatistics(const RunReportInput &in, RunDerivation *d)
{
    if (in.records.isEmpty())
        return;
    const SummaryOptions opts = SummaryOptions::forProfile(in.plan.profile);
    // Embeddings and rerank have no TTFT or TPOT to give an interval for (docs/metrics.md).
    const bool nonStreamed = d->summary.nonStreamed;
    for (const char *metric : {"ttft", "tpot", "e2el"}) {
        const QString key = QString::fromLatin1(metric);
        if (nonStreamed && key != "e2el"_L1)
            continue;
        const QList<double> samples = requestSamples(in.records, key);
        QList<QPair<QString, Interval>> stats;
        stats.append({u"mean"_s, meanInterval(samples)});
        for (double p : opts.percentiles)
            stats.append({u"p"_s + percentileWord(p), percentileInterval(samples, p)});
        d->intervals.append({key, stats});
    }
    // The clustered bootstrap copies every gap of the run once per replicate and percentile, so
    // its cost is B × gaps: B steps down as the run grows (2,000 → 1,000 → 500 → 200, stated in
    // the method) so the summary takes seconds, not minutes (B = 2,000 over 256,000 gaps took
    // 37 s of CPU in the Results view); beyond kMaxBootstrapGaps the interval is omitted with
    // that reason.
    RunReportInput::ItlClusters itl;
    if (in.itl) {
        itl = *in.itl;
    } else {
        itl.clusters = itlByRequest(in.records);
        itl.requests = itl.clusters.size();
        for (const QList<double> &c : std::as_const(itl.clusters))
            itl.gaps += c.size();
    }
    const qint64 gaps = itl.gaps;
    constexpr double kGapCopies = 1e8; // per percentile
    if (itl.requests > 0) {
        QList<QPair<QString, Interval>> stats;
        BootstrapOptions bo;
        // Round steps, so the method reads "B = 500", not an arbitrary count.
        for (int b : {2000, 1000, 500, 200}) {
            bo.resamples = b;
            if (double(b) * double(gaps) <= kGapCopies)
                break;
        }
        for (double p : {50.0, 99.0}) {
            Interval i;
            if (gaps > kMaxBootstrapGaps) {
                i = Interval::unavailable(
                    u"bootstrap-percentile (clustered)"_s,
                    u"the run has %1 inter-token gaps; the clustered bootstrap is computed up to "
                    "%2"_s.arg(gaps)
                        .arg(kMaxBootstrapGaps),
                    itl.requests, kDefaultConfidence);
            } else {
                i = bootstrapPercentileIntervalClustered(itl.clusters, p, kDefaultConfidence, bo);
                if (i.available && bo.resamples < BootstrapOptions().resamples)
                    i.method += u", B = %1"_s.arg(bo.resamples);
            }
            stats.append({u"p"_s + percentileWord(p), i});
        }
        d->intervals.append({u"itl"_s, stats});
    }
    d->steady = detectSteadyState(in.records);
    if (d->steady.available)
        d->steadySummary = summarizeSteadyState(in.records, d->steady, opts);
    d->slices = timeSlices(in.records);
    d->saturation = detectSaturation(in.records);
    d->statisticsComputed = true;
}

QJsonObject intervalsJson(const RunDerivation &d)
{
    QJsonObject o;
    for (const auto &[metric, stats] : d.intervals) {
        QJsonObject m;
        for (const auto &[stat, interval] : stats)
            m[stat] = interval.toJson();
        o[metric] = m;
    }
    return o;
}

} // namespace

ClientLoadSamples clientLoadOfSummary(const QJsonObject &storedSummary)
{
    return ClientLoadSamples::fromJson(storedSummary.value(u"client_load"_s).toObject());
}

QString formatIntervals(const RunDerivation &d)
{
    // TTFT and E2EL only: they need no per-chunk data, so `show` (which streams a stored run
    // without its chunk lists) prints exactly what the run printed. The JSON has every metric.
    QString out;
    for (const auto &[metric, stats] : d.intervals)
        for (const auto &[stat, interval] : stats)
            if (metric == "ttft"_L1 || metric == "e2el"_L1)
                out += u"%1 %2"_s.arg(u"%1 %2 (ms):"_s.arg(metric.toUpper(), stat), -40)
                           .arg(interval.format(2)) +
                       (interval.available ? u" (%1, n = %2)"_s.arg(interval.method).arg(interval.n)
                                           : QString()) +
                       u'\n';
    return out;
}

RunDerivation deriveRun(const RunReportInput &in)
{
    RunDerivation d;
    d.summary = in.summary ? *in.summary
                           : summarize(in.records, SummaryOptions::forProfile(in.plan.profile));
    // An imported run's records cannot tell what the import lost (send times, queueing).
    markImportedUnavailable(in.snapshot, &d.summary);
    d.health = assessClientHealth(in.records, in.plan.profile, in.clientLoad);
    deriveStatistics(in, &d);
    d.sessions = summarizeSessions(in.records, SummaryOptions::forProfile(in.plan.profile));
    d.connections = connectionStats(in.records);
    if (!in.serverMetrics.isEmpty()) {
        d.hasServerMetrics = true;
        d.server = deriveServerEvidence(in.serverMetrics, d.summary);
    }
    d.cancellation = cancellationRecovery(in.plan.profile, in.records, in.serverMetrics);
    if (in.plan.profile.scenario != Scenario::None) {
        MlperfConstraints c;
        if (mlperfConstraintsForProfile(in.plan.profile, &c, &d.mlperfError)) {
            d.mlperf = judgeScenario(in.plan.profile.scenario, in.records, c);
            d.hasMlperf = true;
        }
    }
    return d;
}

namespace {

QString csvField(const QString &s)
{
    if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n') && !s.contains(u'\r'))
        return s;
    QString q = s;
    q.replace(u"\""_s, u"\"\""_s);
    return u'"' + q + u'"';
}

QString msOrEmpty(qint64 ns, bool valid)
{
    return valid ? QString::number(double(ns) / 1e6, 'f', 3) : QString();
}

} // namespace

QString formatRunReport(const RunReportInput &in)
{
    return formatRunReport(in, deriveRun(in));
}

QString formatRunReport(const RunReportInput &in, const RunDerivation &d)
{
    SummaryTextOptions to = SummaryTextOptions::forProfile(in.plan.profile);
    to.datasetHash = in.datasetHash;
    to.tokenizer = in.snapshot.value(u"tokenizer"_s).toObject().value(u"description"_s).toString();
    to.clientHealthWarnings = d.health.warnings;
    if (in.status == "running"_L1)
        to.clientHealthWarnings.append(
            u"the run is in progress (its writer is still running): only the %1 requests "
            "recorded so far are counted"_s.arg(in.records.size()));
    else if (in.status != "completed"_L1 && !in.status.isEmpty())
        to.clientHealthWarnings.append(
            u"the run was %1%2: only the requests that finished are counted"_s.arg(
                in.status,
                in.statusMessage.isEmpty() ? QString() : u" ("_s + in.statusMessage + u')'));
    QString out = formatVllmSummary(d.summary, to);
    // Requested versus measured input length: synthetic prompts are built from a local token
    // estimate, the server's usage says what the model really saw.
    double requested = 0, measured = 0;
    qint64 nReq = 0, nMeas = 0;
    for (const RequestRecord &r : in.records) {
        if (r.warmup || !r.ok())
            continue;
        if (r.expectedInputTokens >= 0) {
            requested += r.expectedInputTokens;
            ++nReq;
        }
        if (r.inputSource == TokenSource::ServerUsage) {
            measured += r.inputTokens;
            ++nMeas;
        }
    }
    if (nReq > 0)
        out += u"%1 %2\n"_s.arg(u"Input tokens requested (mean):"_s, -40)
                   .arg(requested / double(nReq), 0, 'f', 2);
    out +=
        u"%1 %2\n"_s.arg(u"Input tokens measured by server (mean):"_s, -40)
            .arg(nMeas > 0 ? QString::number(measured / double(nMeas), 'f', 2) : u"not reported"_s);
    if (d.connections.requests > 0)
        out += d.connections.text(in.plan.profile.connectionMode);
    // Reads whose bytes waited over 1 ms in the socket: Linux may have merged a chunk with the
    // next one and kept only the later receive time (docs/performance.md, "Receive times when
    // the client reads late").
    if (const qint64 late = in.transportCounters.value(u"late_reads"_s).toInteger(); late > 0) {
        const qint64 stamped = in.transportCounters.value(u"kernel_stamped_reads"_s).toInteger();
        out += u"%1 %2\n"_s.arg(u"Reads late by > 1 ms:"_s, -40)
                   .arg(u"%1 of %2 (a chunk read late may carry the next one's receive time)"_s
                            .arg(late)
                            .arg(stamped));
    }
    if (d.hasMlperf)
        out += d.mlperf.formatMlperfBlock();
    else if (!d.mlperfError.isEmpty())
        out += u"MLPerf judgement not possible: %1\n"_s.arg(d.mlperfError);
    out += formatSessionBlock(d.sessions,
                              QString::fromLatin1(historyModeName(in.plan.profile.history)));
    if (d.hasServerMetrics)
        out += formatServerMetricsBlock(d.server);
    if (const QString recovery = d.cancellation.text(); !recovery.isEmpty())
        out += recovery + u'\n';
    if (const QString line = managedServerLine(in.snapshot.value(u"managed_server"_s).toObject());
        !line.isEmpty())
        out += line + u'\n';
    if (const QString line = cachePolicyLine(in.cachePolicy); !line.isEmpty())
        out += line + u'\n';
    if (d.statisticsComputed) {
        out += u"------95 % confidence intervals [low, high]-------\n"_s;
        out += formatIntervals(d);
        // A non-streamed run's steady state reads its E2EL: it has no TTFT.
        const bool e2el = d.summary.nonStreamed;
        if (d.steady.available)
            out += u"%1 %2\n"_s.arg(u"Steady state (s from first send):"_s, -40)
                       .arg(u"%1 to %2 (warm-up %3 s, drain %4 s); %5 req/s, p99 %6 %7 ms"_s
                                .arg(d.steady.warmupSeconds(), 0, 'f', 2)
                                .arg(d.steady.warmupSeconds() + d.steady.seconds(), 0, 'f', 2)
                                .arg(d.steady.warmupSeconds(), 0, 'f', 2)
                                .arg(d.steady.drainSeconds(), 0, 'f', 2)
                                .arg(d.steadySummary.requestThroughput, 0, 'f', 2)
                                .arg(e2el ? u"E2EL"_s : u"TTFT"_s)
                                .arg((e2el ? d.steadySummary.e2el : d.steadySummary.ttft)
                                         .percentile(99),
                                     0, 'f', 2));
        else
            out += u"%1 n/a (%2)\n"_s.arg(u"Steady state:"_s, -40).arg(d.steady.reason);
        if (d.saturation.evaluated && d.saturation.saturated)
            out += u"WARNING: the server was over-saturated: %1\n"_s.arg(d.saturation.reason);
    }
    return out;
}

QJsonObject runResultJson(const RunReportInput &in, bool detailed)
{
    return runResultJson(in, deriveRun(in), detailed);
}

QJsonObject runResultJson(const RunReportInput &in, const RunDerivation &d, bool detailed)
{
    ResultJsonOptions jo = ResultJsonOptions::forProfile(in.plan.profile);
    jo.detailed = detailed;
    jo.backend = QString::fromLatin1(apiFlavourName(in.plan.sut.flavour));
    jo.modelId = in.plan.sut.model;
    jo.tokenizerId = in.plan.sut.tokenizer; // vLLM's tokenizer_id: the --tokenizer given
    jo.numPrompts = in.plan.profile.numPrompts;
    jo.date = in.wallStart.toLocalTime();
    jo.runStartNs = in.runStartNs;
    jo.configSnapshot = in.snapshot.isEmpty() ? in.plan.toJson() : in.snapshot;
    jo.dataset = in.datasetInfo;
    QJsonObject o = vllmResultJson(d.summary, in.records, jo);
    o[u"client_health"_s] = d.health.toJson();
    // The samples the health's thread verdict was judged on, so a stored run judges the same.
    o[u"client_load"_s] = in.clientLoad.toJson();
    o[u"status"_s] = in.status;
    if (!in.statusMessage.isEmpty())
        o[u"status_message"_s] = in.statusMessage;
    o[u"transport"_s] = in.transport;
    if (!in.transportCounters.isEmpty())
        o[u"transport_counters"_s] = in.transportCounters;
    QJsonObject connections = d.connections.toJson();
    connections[u"mode"_s] = in.plan.profile.connectionMode;
    o[u"connections"_s] = connections;
    if (d.hasMlperf)
        o[u"mlperf"_s] = d.mlperf.toJson();
    if (d.statisticsComputed) {
        // Uncertainty, steady state, time slices and saturation (docs/statistics.md).
        o[u"confidence_intervals"_s] = intervalsJson(d);
        QJsonObject steady = d.steady.toJson();
        if (d.steady.available) {
            const RunSummary &s = d.steadySummary;
            steady[u"summary"_s] = QJsonObject{
                {u"completed"_s, s.completed},
                {u"request_throughput"_s, s.requestThroughput},
                {u"output_throughput"_s, s.outputThroughput},
                {u"mean_ttft_ms"_s, s.ttft.mean},
                {u"p99_ttft_ms"_s, s.ttft.percentile(99)},
                {u"mean_tpot_ms"_s, s.tpot.mean},
                {u"p99_tpot_ms"_s, s.tpot.percentile(99)},
            };
        }
        o[u"steady_state"_s] = steady;
        o[u"time_slices"_s] = d.slices.toJson();
        o[u"saturation"_s] = d.saturation.toJson();
    }
    if (d.hasServerMetrics)
        o[u"server_metrics"_s] = d.server.toJson();
    // The cancellation load's requests, their own class (docs/metrics.md), and the server's
    // recovery after them.
    if (in.plan.profile.cancels() || d.summary.cancelledByLoad > 0) {
        QJsonObject c = cancelledByLoadJson(in.plan.profile, in.records, d.summary.measured,
                                            in.runStartNs);
        c[u"server_recovery"_s] = d.cancellation.toJson();
        o[u"cancelled_by_load"_s] = c;
    }
    if (d.sessions.present) {
        // ServeBench's own keys for the session view; the flat per-request view above keeps
        // vLLM's keys (its totals count every turn's input, history included).
        QJsonObject sessions = d.sessions.toJson();
        const LoadProfile &p = in.plan.profile;
        sessions[u"history"_s] = QString::fromLatin1(historyModeName(p.history));
        sessions[u"think_time_model"_s] = QString::fromLatin1(thinkTimeModelName(p.thinkTime));
        sessions[u"think_time_ms"_s] = p.thinkTimeMs;
        o[u"sessions"_s] = sessions;
    }
    return o;
}

QByteArray requestsCsv(const RunReportInput &in)
{
    QString out = u"index,request_id,dataset_item,warmup,status,error_class,error_message,"
                  "http_status,finish_reason,scheduled_s,sent_s,ttft_ms,tpot_ms,e2el_ms,"
                  "itl_mean_ms,chunks,input_tokens,input_source,output_tokens,output_source,"
                  "cached_tokens,schedule_lag_ms,client_queue_ms,ttfct_ms,reasoning_ms,"
                  "reasoning_tokens,reasoning_source,client_output_tokens,connection,setup_ms,"
                  "ttft_without_setup_ms,cache_creation_tokens,output_chars,batch_items,"
                  "result_items,image_bytes"_s;
    // A session workload's requests also say where they belong (docs/sessions.md).
    const bool sessions = std::any_of(in.records.cbegin(), in.records.cend(),
                                      [](const RequestRecord &r) { return r.inSession(); });
    if (sessions)
        out += u",session_id,turn,session_turns,history_tokens,think_time_ms"_s;
    out += u'\n';
    const qint64 t0 = in.runStartNs;
    for (const RequestRecord &r : in.records) {
        TokenSource outSrc = TokenSource::Unknown, inSrc = TokenSource::Unknown;
        const qint32 nOut = effectiveOutputTokens(r, &outSrc);
        const qint32 nIn = effectiveInputTokens(r, &inSrc);
        const bool hasFirst = r.tFirst > 0 && r.tSend > 0;
        const bool hasTpot = r.ok() && hasFirst && nOut > 1;
        QString itlMean;
        if (r.chunkTimes.size() > 1)
            itlMean = QString::number(double(r.chunkTimes.constLast() - r.chunkTimes.constFirst()) /
                                          1e6 / double(r.chunkTimes.size() - 1),
                                      'f', 3);
        const qint64 queue =
            r.tQueued > 0 && r.tDispatch >= r.tQueued ? r.tDispatch - r.tQueued : 0;
        const qint64 setupNs = connectionSetupNs(r);
        const QStringList row = {
            QString::number(r.index),
            csvField(r.requestId),
            QString::number(r.datasetItem),
            r.warmup ? u"1"_s : u"0"_s,
            r.ok() ? u"ok"_s : r.cancelledByLoad() ? u"cancelled_by_load"_s : u"failed"_s,
            r.ok() ? QString() : QString::fromLatin1(errorClassName(r.error)),
            csvField(r.errorMessage),
            QString::number(r.httpStatus),
            csvField(r.finishReason),
            r.tSched > 0 ? QString::number(double(r.tSched - t0) / 1e9, 'f', 6) : QString(),
            r.tSend > 0 ? QString::number(double(r.tSend - t0) / 1e9, 'f', 6) : QString(),
            msOrEmpty(r.tFirst - r.tSend, hasFirst),
            hasTpot ? QString::number(double(r.tLast - r.tFirst) / 1e6 / (nOut - 1), 'f', 3)
                    : QString(),
            // A non-streamed answer ends with its body (docs/metrics.md, "Embeddings and rerank").
            r.batchItems > 0 ? msOrEmpty(r.tEnd - r.tSend, r.ok() && r.tEnd > 0 && r.tSend > 0)
                             : msOrEmpty(r.tLast - r.tSend, r.ok() && r.tLast > 0 && r.tSend > 0),
            itlMean,
            QString::number(r.chunkTimes.size()),
            QString::number(nIn),
            QString::fromLatin1(tokenSourceName(inSrc)),
            QString::number(nOut),
            QString::fromLatin1(tokenSourceName(outSrc)),
            r.cachedTokens >= 0 ? QString::number(r.cachedTokens) : QString(),
            msOrEmpty(r.tSend - r.tSched, r.tSend > 0 && r.tSched > 0),
            msOrEmpty(queue, r.tQueued > 0),
            msOrEmpty(r.tFirstContent - r.tSend, r.tFirstContent > 0 && r.tSend > 0),
            msOrEmpty(r.tFirstContent - r.tFirstReasoning,
                      r.tFirstReasoning > 0 && r.tFirstContent >= r.tFirstReasoning),
            r.reasoningTokens >= 0 ? QString::number(r.reasoningTokens) : QString(),
            r.reasoningTokens >= 0 ? QString::fromLatin1(tokenSourceName(r.reasoningSource))
                                   : QString(),
            r.clientOutputTokens >= 0 ? QString::number(r.clientOutputTokens) : QString(),
            QString::fromLatin1(connectionUseName(r.connection)),
            msOrEmpty(setupNs, setupNs > 0),
            msOrEmpty(hasFirst ? ttftWithoutSetupNs(r) : 0, hasFirst),
            r.cacheCreationTokens >= 0 ? QString::number(r.cacheCreationTokens) : QString(),
            QString::number(r.outputChars),
            QString::number(r.batchItems),
            r.resultItems >= 0 ? QString::number(r.resultItems) : QString(),
            QString::number(r.imageBytes),
        };
        out += row.join(u',');
        if (sessions && r.inSession())
            out += u",%1,%2,%3,%4,%5"_s.arg(r.sessionId)
                       .arg(r.turnIndex + 1)
                       .arg(r.sessionTurns)
                       .arg(r.historyTokens)
                       .arg(msOrEmpty(r.thinkNs, r.thinkNs >= 0));
        else if (sessions)
            out += u",,,,,"_s;
        out += u'\n';
    }
    return out.toUtf8();
}

bool loadStoredRunForReport(const ProjectStore &store, qint64 runId, const SummaryOptions &options,
                            RunReportInput *in, QString *error, const StoredRunPasses &also)
{
    QList<RequestRecord> records;
    bool sessions = false;
    qsizetype count = 0;
    // The ITL intervals' clusters, which the chunkless records of the last pass cannot give:
    // counted in pass 1, gathered in pass 2 when the bootstrap will use them.
    RunReportInput::ItlClusters itl;
    {
        SummaryBuilder builder(options);
        // Pass 1: the builder's counts, chunks not decoded.
        if (!store.visitRequestRows(runId, false, [&](const RequestRecord &r, qint64 chunkCount) {
                builder.scan(r, chunkCount);
                ++count;
                sessions = sessions || r.inSession();
                if (const qint64 gaps = also.itlIntervals ? itlGapCount(r, chunkCount) : 0;
                    gaps > 0) {
                    ++itl.requests;
                    itl.gaps += gaps;
                }
                return true;
            })) {
            *error = store.lastError();
            return false;
        }
        if (also.afterFirst && !also.afterFirst()) {
            error->clear();
            return false;
        }
        // A million 100-chunk requests would pool 99M gaps, 396 MB of floats: above
        // maxPooledGaps the ITL statistics cost one more pass over the rows instead.
        if (builder.gapCount() > options.maxPooledGaps)
            builder.streamGaps();
        // Pass 2: the rows with their chunks, streamed through the summary and dropped —
        // except a session run's, whose per-turn view needs every record's chunks (ITL by turn).
        // Reserved: a growing list would copy itself at every doubling, both copies resident.
        if (sessions)
            records.reserve(count);
        const bool gatherItl = !sessions && also.itlIntervals && itl.gaps <= kMaxBootstrapGaps;
        if (gatherItl)
            itl.clusters.reserve(itl.requests);
        QList<double> gaps;
        if (!store.visitRequestRows(runId, true, [&](const RequestRecord &r, qint64) {
                builder.add(r);
                if (also.eachWithChunks)
                    also.eachWithChunks(r);
                if (sessions)
                    records.append(r);
                else if (gatherItl && itlOfRequest(r, &gaps))
                    itl.clusters.append(std::exchange(gaps, {}));
                return true;
            })) {
            *error = store.lastError();
            return false;
        }
        if (!sessions && also.itlIntervals)
            in->itl = std::move(itl);
        if (also.afterSecond)
            also.afterSecond();
        // Pass 3, large runs only: the streamed ITL statistics' second look at the gaps, in pass
        // 2's order (both read by idx).
        if (builder.needsGapPass() &&
            !store.visitRequestRows(runId, true, [&](const RequestRecord &r, qint64) {
                builder.addGaps(r);
                return true;
            })) {
            *error = store.lastError();
            return false;
        }
        in->summary = builder.finish();
    }
    // Last pass: the records without chunks for the rest of the derivation and the report, read
    // once the builder has released its samples: a million 100-token requests are about 470 MB of
    // records and, unless the gaps were streamed, 480 MB of samples, and the two do not share the
    // peak.
    // Packed (PackedRecords): ~57 bytes a record instead of a 368-byte RequestRecord, which
    // took a million-request run's derivation from ~370 MB of records to ~57 (56.6 MB measured).
    if (sessions) {
        in->records = std::move(records);
        return true;
    }
    PackedRecords packed;
    RequestRecord textless;
    if (!store.visitRequestRows(runId, false, [&](const RequestRecord &r, qint64) {
            if (also.recordTexts) {
                packed.append(r);
                return true;
            }
            textless = r;
            textless.requestId = QString();
            textless.finishReason = QString();
            textless.errorMessage = QString();
            packed.append(textless);
            return true;
        })) {
        *error = store.lastError();
        return false;
    }
    in->records = RecordSet::packed(std::move(packed));
    return true;
}

} // namespace sb
