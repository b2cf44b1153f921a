#include "vllmimport.h"

#include "metrics/resultjson.h"
#include "metrics/stats.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sb {

using namespace Qt::StringLiterals;

namespace {

// Zero point of the synthetic time base: 1 s, so no timestamp is 0 ("did not happen").
constexpr qint64 kT0 = 1'000'000'000;

const QStringList &latencyMetrics()
{
    static const QStringList m = {u"ttft"_s, u"tpot"_s, u"itl"_s, u"e2el"_s};
    return m;
}

qint64 secondsToNs(double s)
{
    return qint64(std::llround(s * 1e9));
}

void fail(QString *error, const QString &why)
{
    if (error)
        *error = why;
}

// The percentiles the file reports, from its p<word>_<metric>_ms keys, ascending.
QList<double> filePercentiles(const QJsonObject &o)
{
    static const QRegularExpression re(u"^p(\\d+(?:\\.\\d+)?)_(ttft|tpot|itl|e2el)_ms$"_s);
    QList<double> out;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const auto m = re.match(it.key());
        if (!m.hasMatch())
            continue;
        const double p = m.captured(1).toDouble();
        if (!out.contains(p))
            out.append(p);
    }
    std::sort(out.begin(), out.end());
    return out;
}

MetricStats statsFromFile(const QJsonObject &o, const QString &metric, qint64 count,
                          const QList<double> &percentiles)
{
    MetricStats st;
    if (!o.contains(u"mean_"_s + metric + u"_ms"_s))
        return st; // count 0: the file does not report this metric
    st.count = count;
    st.mean = o.value(u"mean_"_s + metric + u"_ms"_s).toDouble();
    st.median = o.value(u"median_"_s + metric + u"_ms"_s).toDouble();
    st.stddev = o.value(u"std_"_s + metric + u"_ms"_s).toDouble();
    st.min = std::numeric_limits<double>::quiet_NaN(); // vLLM saves neither min nor max
    st.max = std::numeric_limits<double>::quiet_NaN();
    for (double p : percentiles) {
        const QString key = u'p' + percentileWord(p) + u'_' + metric + u"_ms"_s;
        if (o.contains(key))
            st.percentiles.append({p, o.value(key).toDouble()});
    }
    return st;
}

bool within(double a, double b, double absTol)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    return std::abs(a - b) <= absTol;
}

bool closeRelative(double a, double b)
{
    return std::abs(a - b) <= 1e-6 * std::max({1.0, std::abs(a), std::abs(b)});
}

} // namespace

ErrorClass classifyVllmError(const QString &message)
{
    const QString m = message.toLower();
    static const QRegularExpression status(u"\\b([1-5]\\d\\d)\\b"_s);
    if (m.contains("too many requests"_L1) || m.contains("429"_L1))
        return ErrorClass::Http429;
    if (m.contains("timeout"_L1) || m.contains("timed out"_L1))
        return ErrorClass::Timeout;
    if (m.contains("cannot connect"_L1) || m.contains("connection refused"_L1) ||
        m.contains("connectorerror"_L1) || m.contains("name or service not known"_L1))
        return ErrorClass::Connect;
    if (m.contains("disconnected"_L1) || m.contains("reset"_L1) ||
        m.contains("payload is not completed"_L1))
        return ErrorClass::Reset;
    if (m.contains("internal server error"_L1) || m.contains("bad gateway"_L1) ||
        m.contains("service unavailable"_L1) || m.contains("gateway timeout"_L1))
        return ErrorClass::Http5xx;
    if (m.contains("bad request"_L1) || m.contains("not found"_L1) ||
        m.contains("unauthorized"_L1) || m.contains("forbidden"_L1) ||
        m.contains("unprocessable"_L1))
        return ErrorClass::Http4xx;
    if (m.contains("http"_L1) || m.contains("status"_L1)) {
        const auto match = status.match(m);
        if (match.hasMatch()) {
            const int code = match.captured(1).toInt();
            return code >= 500   ? ErrorClass::Http5xx
                   : code >= 400 ? ErrorClass::Http4xx
                                 : ErrorClass::HttpOther;
        }
    }
    if (m.contains("json"_L1))
        return ErrorClass::InvalidJson;
    return ErrorClass::Transport;
}

RunSummary runSummaryFromVllmJson(const QJsonObject &o)
{
    RunSummary s;
    s.completed = o.value(u"completed"_s).toInteger();
    s.failed = o.value(u"failed"_s).toInteger();
    s.measured = s.completed + s.failed;
    s.sent = s.measured;
    s.totalRecords = s.measured;
    s.durationS = o.value(u"duration"_s).toDouble();
    s.totalInputTokens = o.value(u"total_input_tokens"_s).toInteger();
    s.totalOutputTokens = o.value(u"total_output_tokens"_s).toInteger();
    s.requestThroughput = o.value(u"request_throughput"_s).toDouble();
    s.outputThroughput = o.value(u"output_throughput"_s).toDouble();
    s.totalTokenThroughput = o.value(u"total_token_throughput"_s).toDouble();
    s.peakOutputTokensPerS = o.value(u"max_output_tokens_per_s"_s).toDouble();
    s.peakConcurrentRequests = o.value(u"max_concurrent_requests"_s).toInteger();
    const QJsonValue goodput = o.value(u"request_goodput"_s);
    s.goodputSet = goodput.isDouble();
    s.requestGoodput = goodput.toDouble();
    const QJsonObject byClass = o.value(u"failed_by_class"_s).toObject();
    for (auto it = byClass.begin(); it != byClass.end(); ++it)
        s.failedByClass.insert(it.key(), it.value().toInteger());
    if (s.failed > 0 && s.failedByClass.isEmpty())
        s.failedByClass.insert(u"unknown"_s, s.failed);
    s.percentiles = filePercentiles(o);
    s.ttft = statsFromFile(o, u"ttft"_s, s.completed, s.percentiles);
    s.tpot = statsFromFile(o, u"tpot"_s, s.completed, s.percentiles);
    s.itl = statsFromFile(o, u"itl"_s, s.completed, s.percentiles);
    s.e2el = statsFromFile(o, u"e2el"_s, s.completed, s.percentiles);

    // What the file does not hold is unknown, never 0.
    const QString notInFile = u"the imported file does not report it"_s;
    for (const char *k :
         {"duration", "total_input_tokens", "request_throughput", "output_throughput",
          "total_token_throughput", "max_output_tokens_per_s", "max_concurrent_requests"})
        if (!o.value(QLatin1StringView(k)).isDouble())
            s.markUnavailable(QString::fromLatin1(k), notInFile);
    for (const char *k : {"ttft", "tpot", "itl", "e2el"})
        if (!o.value(u"mean_"_s + QLatin1StringView(k) + u"_ms"_s).isDouble())
            s.markUnavailable(QString::fromLatin1(k), notInFile);
    if (!s.goodputSet)
        s.markUnavailable(u"request_goodput"_s, u"the imported file reports no goodput"_s);
    markImportedUnavailable(&s, false);
    return s;
}

void markImportedUnavailable(RunSummary *s, bool detailedWithoutSendTimes)
{
    const QString why = detailedWithoutSendTimes
                            ? u"imported from vLLM, whose file has no send times"_s
                            : u"imported from vLLM's summary, which does not record it"_s;
    // The import's reason replaces the generic one summarize() derived from the records.
    QStringList keys = {u"achieved_request_rate"_s, u"schedule_lag"_s, u"client_queue_time"_s,
                        u"ttft_from_sched"_s, u"e2el_from_sched"_s};
    s->unavailable.insert(u"cached_tokens"_s,
                          u"vLLM's result file does not record cached prompt tokens"_s);
    if (detailedWithoutSendTimes)
        keys << u"max_output_tokens_per_s"_s << u"max_concurrent_requests"_s;
    else
        keys << u"itl_per_token"_s;
    for (const QString &k : std::as_const(keys))
        s->unavailable.insert(k, why);
}

bool importedFileSummary(const QJsonObject &snapshot, const QJsonObject &storedSummary,
                         RunSummary *out)
{
    const QJsonObject imported = snapshot.value(u"imported"_s).toObject();
    if (imported.isEmpty() || imported.value(u"raw_records"_s).toBool(true))
        return false;
    *out = runSummaryFromVllmJson(
        storedSummary.value(u"imported_file_summary"_s).toObject(storedSummary));
    return true;
}

bool markImportedUnavailable(const QJsonObject &snapshot, RunSummary *s)
{
    const QJsonObject imported = snapshot.value(u"imported"_s).toObject();
    if (imported.isEmpty())
        return false;
    const bool raw = imported.value(u"raw_records"_s).toBool(true);
    // Files before "send_times" was recorded came from vLLM, which never saves them.
    const bool sendTimes = imported.value(u"send_times"_s).toBool(false);
    if (!raw || !sendTimes)
        markImportedUnavailable(s, raw);
    return true;
}

QStringList compareWithVllmFile(const RunSummary &r, const QJsonObject &o, double toleranceMs)
{
    QStringList out;
    const auto count = [&](const char *key, qint64 v) {
        const QString k = QString::fromLatin1(key);
        if (o.contains(k) && o.value(k).toInteger() != v)
            out << u"%1: file %2, recomputed %3"_s.arg(k).arg(o.value(k).toInteger()).arg(v);
    };
    const auto rate = [&](const char *key, double v) {
        const QString k = QString::fromLatin1(key);
        if (o.value(k).isDouble() && !closeRelative(o.value(k).toDouble(), v))
            out << u"%1: file %2, recomputed %3"_s.arg(k)
                       .arg(o.value(k).toDouble(), 0, 'g', 12)
                       .arg(v, 0, 'g', 12);
    };
    count("completed", r.completed);
    count("failed", r.failed);
    count("total_input_tokens", r.totalInputTokens);
    count("total_output_tokens", r.totalOutputTokens);
    rate("duration", r.durationS);
    rate("request_throughput", r.requestThroughput);
    rate("output_throughput", r.outputThroughput);
    rate("total_token_throughput", r.totalTokenThroughput);
    for (const QString &metric : latencyMetrics()) {
        const MetricStats *st = r.stats(metric);
        const auto check = [&](const QString &key, double v) {
            if (o.value(key).isDouble() && !within(o.value(key).toDouble(), v, toleranceMs))
                out << u"%1: file %2, recomputed %3"_s.arg(key)
                           .arg(o.value(key).toDouble(), 0, 'g', 12)
                           .arg(v, 0, 'g', 12);
        };
        check(u"mean_"_s + metric + u"_ms"_s, st->mean);
        check(u"median_"_s + metric + u"_ms"_s, st->median);
        check(u"std_"_s + metric + u"_ms"_s, st->stddev);
        for (double p : filePercentiles(o)) {
            const QString key = u'p' + percentileWord(p) + u'_' + metric + u"_ms"_s;
            if (o.contains(key))
                check(key, st->percentile(p));
        }
    }
    return out;
}

bool parseVllmResult(const QByteArray &data, const QString &path, VllmImport *out, QString *error,
                     int entry, int *entries)
{
    // --append-result writes one JSON object per line; a plain file is a single object.
    QList<QJsonObject> objects;
    QJsonParseError pe;
    const QJsonDocument whole = QJsonDocument::fromJson(data, &pe);
    if (pe.error == QJsonParseError::NoError && whole.isObject()) {
        objects.append(whole.object());
    } else {
        const QList<QByteArray> lines = data.split('\n');
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            if (line.isEmpty())
                continue;
            const QJsonDocument d = QJsonDocument::fromJson(line, &pe);
            if (pe.error != QJsonParseError::NoError || !d.isObject()) {
                fail(error, u"%1: not a vLLM result JSON (line %2: %3)"_s.arg(path).arg(i + 1).arg(
                                pe.error == QJsonParseError::NoError ? u"not an object"_s
                                                                     : pe.errorString()));
                return false;
            }
            objects.append(d.object());
        }
    }
    if (entries)
        *entries = int(objects.size());
    if (objects.isEmpty()) {
        fail(error, u"%1: empty file"_s.arg(path));
        return false;
    }
    if (entry < 0 || entry >= objects.size()) {
        fail(error,
             u"%1: holds %2 result(s), no entry %3"_s.arg(path).arg(objects.size()).arg(entry));
        return false;
    }
    const QJsonObject o = objects.at(entry);
    for (const char *key : {"completed", "duration", "request_throughput", "total_input_tokens"}) {
        if (!o.value(QLatin1StringView(key)).isDouble()) {
            fail(error,
                 u"%1: not a `vllm bench serve` result: key '%2' missing or not a number"_s.arg(
                     path, QLatin1StringView(key)));
            return false;
        }
    }

    VllmImport imp;
    imp.path = path;
    imp.sha256 =
        QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
    imp.file = o;
    imp.fileSummary = runSummaryFromVllmJson(o);
    imp.detailed = o.value(u"ttfts"_s).isArray() && o.value(u"itls"_s).isArray() &&
                   o.value(u"output_lens"_s).isArray() && o.value(u"input_lens"_s).isArray();

    // --- the plan the file states ---
    RunPlan &plan = imp.plan;
    const QString label = o.value(u"label"_s).toString();
    const QString model = o.value(u"model_id"_s).toString();
    plan.name = label.isEmpty() ? u"vllm bench serve: %1"_s.arg(model) : label;
    plan.sut.name = label.isEmpty() ? u"imported (vllm bench serve)"_s : label;
    plan.sut.model = model;
    const QString backend = o.value(u"backend"_s).toString(o.value(u"endpoint_type"_s).toString());
    if (!apiFlavourFromName(backend, &plan.sut.flavour) && !backend.isEmpty())
        imp.notes << u"backend '%1' is not an OpenAI flavour ServeBench knows"_s.arg(backend);
    const QJsonValue rate = o.value(u"request_rate"_s);
    plan.profile.requestRate =
        rate.isDouble() ? rate.toDouble() : std::numeric_limits<double>::infinity();
    plan.profile.burstiness = o.value(u"burstiness"_s).toDouble(1.0);
    plan.profile.arrival =
        plan.profile.burstiness == 1.0 ? ArrivalProcess::Poisson : ArrivalProcess::Gamma;
    plan.profile.maxConcurrency = o.value(u"max_concurrency"_s).toInt(0);
    plan.profile.numPrompts = o.value(u"num_prompts"_s).toInt(int(imp.fileSummary.measured));
    rampUpStrategyFromName(o.value(u"ramp_up_strategy"_s).toString(u"none"_s),
                           &plan.profile.rampUpStrategy);
    plan.profile.rampUpStartRps = o.value(u"ramp_up_start_rps"_s).toDouble();
    plan.profile.rampUpEndRps = o.value(u"ramp_up_end_rps"_s).toDouble();
    const QList<double> pcts = filePercentiles(o);
    if (!pcts.isEmpty())
        plan.profile.metricPercentiles = pcts;
    QStringList metrics;
    for (const QString &m : latencyMetrics())
        if (o.contains(u"mean_"_s + m + u"_ms"_s))
            metrics << m;
    plan.profile.percentileMetrics = metrics;

    // Keys vLLM writes that are not statistics: what --metadata added.
    static const QRegularExpression statKey(
        u"^(mean|median|std|p\\d+(\\.\\d+)?)_(ttft|tpot|itl|e2el)_ms$"_s);
    static const QStringList known = {u"date"_s,
                                      u"endpoint_type"_s,
                                      u"backend"_s,
                                      u"label"_s,
                                      u"model_id"_s,
                                      u"tokenizer_id"_s,
                                      u"num_prompts"_s,
                                      u"request_rate"_s,
                                      u"burstiness"_s,
                                      u"max_concurrency"_s,
                                      u"ramp_up_strategy"_s,
                                      u"ramp_up_start_rps"_s,
                                      u"ramp_up_end_rps"_s,
                                      u"duration"_s,
                                      u"completed"_s,
                                      u"failed"_s,
                                      u"total_input_tokens"_s,
                                      u"total_output_tokens"_s,
                                      u"request_throughput"_s,
                                      u"request_goodput"_s,
                                      u"output_throughput"_s,
                                      u"total_token_throughput"_s,
                                      u"input_lens"_s,
                                      u"output_lens"_s,
                                      u"ttfts"_s,
                                      u"itls"_s,
                                      u"generated_texts"_s,
                                      u"errors"_s,
                                      u"max_output_tokens_per_s"_s,
                                      u"max_concurrent_requests"_s,
                                      u"rps_change_events"_s};
    QJsonObject metadata;
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key()) && !statKey.match(it.key()).hasMatch() &&
            it.value().isString())
            metadata.insert(it.key(), it.value());

    // --- per-request records ---
    bool sendTimes = false;
    if (imp.detailed) {
        const QJsonArray inLens = o.value(u"input_lens"_s).toArray();
        const QJsonArray outLens = o.value(u"output_lens"_s).toArray();
        const QJsonArray ttfts = o.value(u"ttfts"_s).toArray();
        const QJsonArray itls = o.value(u"itls"_s).toArray();
        const QJsonArray errors = o.value(u"errors"_s).toArray();
        const QJsonArray starts = o.value(u"start_times"_s).toArray(); // ServeBench's own export
        const qsizetype n = ttfts.size();
        if (inLens.size() != n || outLens.size() != n || itls.size() != n ||
            (!errors.isEmpty() && errors.size() != n)) {
            fail(error, u"%1: per-request arrays differ in length (ttfts %2, itls %3, input_lens "
                        "%4, output_lens %5, errors %6)"_s.arg(path)
                            .arg(n)
                            .arg(itls.size())
                            .arg(inLens.size())
                            .arg(outLens.size())
                            .arg(errors.size()));
            return false;
        }
        const bool haveStarts = starts.size() == n;
        // ServeBench's own export also carries the schedule.
        const QJsonArray scheds = o.value(u"scheduled_times"_s).toArray();
        const bool haveScheds = haveStarts && scheds.size() == n;
        sendTimes = haveStarts;
        qint64 latestEnd = 0;
        qsizetype latestIndex = -1;
        for (qsizetype i = 0; i < n; ++i) {
            RequestRecord r;
            r.index = i;
            r.datasetItem = qint32(i);
            r.requestId = u"imported-%1"_s.arg(i);
            const qint64 send = kT0 + (haveStarts ? secondsToNs(starts.at(i).toDouble()) : 0);
            // The send time anchors TTFT and E2EL; when and how long the request waited before
            // it was sent is not in the file, so those stay 0 ("did not happen / unknown") and
            // schedule lag and client queue time read as unavailable, not as 0.
            r.tSend = send;
            r.tSched = haveScheds ? kT0 + secondsToNs(scheds.at(i).toDouble()) : 0;
            r.tQueued = r.tDispatch = 0;
            const QString err = errors.at(i).toString();
            const double ttft = ttfts.at(i).toDouble();
            const QJsonArray gaps = itls.at(i).toArray();
            const int outLen = outLens.at(i).toInt();
            // vLLM may leave `error` empty for a non-200 reply whose reason was empty; such a
            // request has neither a first token nor output.
            const bool failed = !err.isEmpty() || (outLen == 0 && ttft <= 0 && gaps.isEmpty());
            if (ttft > 0) {
                qint64 t = send + secondsToNs(ttft);
                r.chunkTimes.append(t);
                r.chunkTokens.append(1);
                for (const QJsonValue &g : gaps) {
                    t += secondsToNs(g.toDouble());
                    r.chunkTimes.append(t);
                    r.chunkTokens.append(1);
                }
                r.tFirst = r.chunkTimes.constFirst();
                r.tLast = r.chunkTimes.constLast();
            }
            r.tEnd = r.tLast > 0 ? r.tLast : send;
            r.inputTokens = inLens.at(i).toInt();
            r.inputSource = TokenSource::Dataset; // vLLM's prompt_len: its tokenizer on the prompt
            if (failed) {
                r.error = classifyVllmError(err);
                r.errorMessage = err.isEmpty() ? u"failed (vLLM recorded no error text)"_s : err;
            } else {
                r.outputTokens = outLen;
                r.outputSource = TokenSource::Unknown; // server usage or vLLM's tokenizer
                r.finishReason = QString();
            }
            if (r.tEnd >= latestEnd) {
                latestEnd = r.tEnd;
                latestIndex = i;
            }
            imp.records.append(r);
        }
        // vLLM's duration runs from before the first send to after the last response; stretch
        // the last stream's end to it so duration and throughputs match the file.
        const qint64 firstSend =
            haveStarts
                ? std::min_element(imp.records.cbegin(), imp.records.cend(),
                                   [](const auto &a, const auto &b) { return a.tSend < b.tSend; })
                      ->tSend
                : kT0;
        const qint64 wantedEnd = firstSend + secondsToNs(imp.fileSummary.durationS);
        if (latestIndex >= 0) {
            if (wantedEnd >= latestEnd)
                imp.records[latestIndex].tEnd = wantedEnd;
            else
                imp.notes << u"the file's duration (%1 s) is shorter than its longest request; "
                             "throughputs are recomputed over the longer span"_s.arg(
                                 imp.fileSummary.durationS);
        }
        if (!haveStarts)
            imp.notes << u"vLLM's file has no send times: every request is placed at one instant, "
                         "so schedule lag, client queue time, achieved rate and peak concurrency "
                         "are not available"_s;
        if (o.value(u"request_goodput"_s).isDouble())
            imp.notes << u"vLLM does not save its --goodput SLOs: the file's goodput is shown as "
                         "stated, not recomputed"_s;
    } else {
        imp.notes << u"the file was saved without --save-detailed: per-request results are not "
                     "available, only the file's summary"_s;
    }

    // --- snapshot ---
    QJsonObject snap = plan.toJson();
    // What the file cannot tell; comparability reports these as unknown instead of "equal".
    const QJsonArray unknown = {u"dataset_hash"_s, u"dataset"_s,     u"max_tokens"_s,
                                u"ignore_eos"_s,   u"temperature"_s, u"request_seed"_s,
                                u"extra_body"_s,   u"slo"_s,         u"cache_policy"_s,
                                u"warmup"_s,       u"timeout"_s,     u"sut"_s};
    snap[u"unknown_fields"_s] = unknown;
    snap[u"dataset_info"_s] = QJsonObject();
    snap[u"command"_s] = QString(); // vLLM does not save its command line
    snap[u"tool_version"_s] = u"vllm bench serve (imported)"_s;
    snap[u"imported"_s] = QJsonObject{
        {u"tool"_s, u"vllm bench serve"_s},
        {u"file"_s, QFileInfo(path).fileName()},
        {u"path"_s, path},
        {u"sha256"_s, imp.sha256},
        {u"detailed"_s, imp.detailed},
        {u"raw_records"_s, imp.detailed},
        {u"send_times"_s, imp.detailed && sendTimes},
        {u"date"_s, o.value(u"date"_s).toString()},
        {u"tokenizer_id"_s, o.value(u"tokenizer_id"_s).toString()},
        {u"metadata"_s, metadata},
        {u"notes"_s, QJsonArray::fromStringList(imp.notes)},
    };
    imp.snapshot = snap;
    *out = imp;
    return true;
}

bool readVllmResultFile(const QString &path, VllmImport *out, QString *error, int entry)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        fail(error, u"%1: %2"_s.arg(path, f.errorString()));
        return false;
    }
    return parseVllmResult(f.readAll(), path, out, error, entry);
}

qint64 storeVllmImport(const VllmImport &imp, const QString &projectPath, const QString &name,
                       QString *error)
{
    {
        // Creates or migrates the file; RunWriter needs the current schema.
        ProjectStore store;
        if (!store.open(projectPath)) {
            fail(error, store.lastError());
            return 0;
        }
    }
    RunWriter writer;
    if (!writer.open(projectPath, error))
        return 0;
    RunInfo meta;
    meta.name = name.isEmpty() ? imp.plan.name : name;
    meta.toolVersion = imp.snapshot.value(u"tool_version"_s).toString();
    meta.host = u"imported"_s;
    QDateTime started =
        QDateTime::fromString(imp.file.value(u"date"_s).toString(), u"yyyyMMdd-HHmmss"_s);
    if (started.isValid())
        meta.startedUtc = started.toUTC();
    meta.startedMonoNs = kT0;
    const qint64 id = writer.beginRun(imp.snapshot, meta, error);
    if (id == 0)
        return 0;
    QJsonObject summary;
    if (imp.detailed) {
        for (const RequestRecord &r : imp.records)
            writer.append(r);
        const RunSummary recomputed =
            summarize(imp.records, SummaryOptions::forProfile(imp.plan.profile));
        ResultJsonOptions jo = ResultJsonOptions::forProfile(imp.plan.profile);
        jo.backend = QString::fromLatin1(apiFlavourName(imp.plan.sut.flavour));
        jo.modelId = imp.plan.sut.model;
        jo.configSnapshot = imp.snapshot;
        jo.toolVersion = meta.toolVersion;
        summary = vllmResultJson(recomputed, imp.records, jo);
        summary[u"reproduction_mismatches"_s] =
            QJsonArray::fromStringList(compareWithVllmFile(recomputed, imp.file));
    } else {
        summary = imp.file;
    }
    QJsonObject fileStats = imp.file;
    for (const char *k :
         {"input_lens", "output_lens", "ttfts", "itls", "generated_texts", "errors"})
        fileStats.remove(QLatin1StringView(k));
    summary[u"imported_file_summary"_s] = fileStats;
    summary[u"raw_records"_s] = imp.detailed;
    summary[u"transport"_s] = u"imported"_s;
    qint64 endNs = kT0 + secondsToNs(imp.fileSummary.durationS);
    for (const RequestRecord &r : imp.records)
        endNs = std::max(endNs, r.tEnd);
    const QDateTime ended = meta.startedUtc.isValid()
                                ? meta.startedUtc.addMSecs((endNs - kT0) / 1'000'000)
                                : QDateTime();
    if (!writer.finishRun(StoredRunStatus::Completed, summary, QString(), ended, endNs, error))
        return 0;
    writer.close();
    return id;
}

} // namespace sb
