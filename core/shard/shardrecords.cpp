#include "shardrecords.h"

#include "store/chunkcodec.h"
#include "store/projectstore.h"

#include <QFile>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

struct TimeField
{
    const char *key;
    qint64 RequestRecord::*member;
};
constexpr TimeField kTimes[] = {
    {"t_sched", &RequestRecord::tSched},
    {"t_queued", &RequestRecord::tQueued},
    {"t_dispatch", &RequestRecord::tDispatch},
    {"t_send", &RequestRecord::tSend},
    {"t_first", &RequestRecord::tFirst},
    {"t_last", &RequestRecord::tLast},
    {"t_end", &RequestRecord::tEnd},
    {"t_first_reasoning", &RequestRecord::tFirstReasoning},
    {"t_first_content", &RequestRecord::tFirstContent},
};

struct IntField
{
    const char *key;
    qint32 RequestRecord::*member;
};
constexpr IntField kInts[] = {
    {"dataset_item", &RequestRecord::datasetItem},
    {"input_tokens", &RequestRecord::inputTokens},
    {"output_tokens", &RequestRecord::outputTokens},
    {"cached_tokens", &RequestRecord::cachedTokens},
    {"expected_input_tokens", &RequestRecord::expectedInputTokens},
    {"expected_output_tokens", &RequestRecord::expectedOutputTokens},
    {"http_status", &RequestRecord::httpStatus},
    {"reasoning_tokens", &RequestRecord::reasoningTokens},
    {"client_output_tokens", &RequestRecord::clientOutputTokens},
    {"cache_creation_tokens", &RequestRecord::cacheCreationTokens},
    {"batch_items", &RequestRecord::batchItems},
    {"result_items", &RequestRecord::resultItems},
};

} // namespace

QJsonArray rawRecordsJson(const QList<RequestRecord> &records, qint64 baseNs)
{
    QJsonArray out;
    for (const RequestRecord &r : records) {
        QJsonObject o{{u"index"_s, r.index}, {u"warmup"_s, r.warmup}};
        for (const auto &f : kTimes) {
            // 0 means "did not happen"; it is left out so a time equal to the base survives.
            if (r.*f.member != 0)
                o[QLatin1StringView(f.key)] = r.*f.member - baseNs;
        }
        for (const auto &f : kInts)
            o[QLatin1StringView(f.key)] = r.*f.member;
        if (!r.chunkTimes.isEmpty() || !r.chunkTokens.isEmpty())
            o[u"chunks"_s] =
                QString::fromLatin1(encodeChunks(r.chunkTimes, r.chunkTokens, r.tSend).toBase64());
        o[u"request_id"_s] = r.requestId;
        o[u"input_source"_s] = QString::fromLatin1(tokenSourceName(r.inputSource));
        o[u"output_source"_s] = QString::fromLatin1(tokenSourceName(r.outputSource));
        o[u"reasoning_source"_s] = QString::fromLatin1(tokenSourceName(r.reasoningSource));
        o[u"finish_reason"_s] = r.finishReason;
        o[u"error_class"_s] = QString::fromLatin1(errorClassName(r.error));
        o[u"error_message"_s] = r.errorMessage;
        o[u"output_chars"_s] = r.outputChars;
        if (r.imageBytes > 0)
            o[u"image_bytes"_s] = r.imageBytes;
        out.append(o);
    }
    return out;
}

bool rawRecordsFromJson(const QJsonArray &array, qint64 baseNs, QList<RequestRecord> *out,
                        QString *error)
{
    out->clear();
    out->reserve(array.size());
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonObject o = array.at(i).toObject();
        if (!o.contains(u"index"_s)) {
            *error = u"raw_records[%1] has no index"_s.arg(i);
            return false;
        }
        RequestRecord r;
        r.index = o.value(u"index"_s).toInteger();
        r.warmup = o.value(u"warmup"_s).toBool();
        for (const auto &f : kTimes) {
            const QJsonValue v = o.value(QLatin1StringView(f.key));
            r.*f.member = v.isDouble() ? v.toInteger() + baseNs : 0;
        }
        for (const auto &f : kInts)
            r.*f.member = qint32(o.value(QLatin1StringView(f.key)).toInt(r.*f.member));
        const QByteArray blob = QByteArray::fromBase64(o.value(u"chunks"_s).toString().toLatin1());
        QString codecError;
        if (!decodeChunks(blob, r.tSend, &r.chunkTimes, &r.chunkTokens, &codecError)) {
            *error = u"raw_records[%1]: bad chunk data (%2)"_s.arg(i).arg(codecError);
            return false;
        }
        r.requestId = o.value(u"request_id"_s).toString();
        r.inputSource = tokenSourceFromName(o.value(u"input_source"_s).toString());
        r.outputSource = tokenSourceFromName(o.value(u"output_source"_s).toString());
        r.reasoningSource = tokenSourceFromName(o.value(u"reasoning_source"_s).toString());
        r.finishReason = o.value(u"finish_reason"_s).toString();
        r.error = errorClassFromName(o.value(u"error_class"_s).toString());
        r.errorMessage = o.value(u"error_message"_s).toString();
        r.outputChars = o.value(u"output_chars"_s).toInteger();
        r.imageBytes = o.value(u"image_bytes"_s).toInteger();
        out->append(r);
    }
    return true;
}

QJsonObject ShardRun::shard() const
{
    return snapshot.value(u"shard"_s).toObject();
}

namespace {

bool loadJson(const QString &path, const QByteArray &bytes, QList<ShardRun> *out, QString *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (!doc.isObject()) {
        *error =
            u"%1 is neither a project file nor a result JSON (%2)"_s.arg(path, pe.errorString());
        return false;
    }
    const QJsonObject o = doc.object();
    ShardRun run;
    run.source = path;
    run.snapshot = o.value(u"config_snapshot"_s).toObject();
    const QJsonObject shard = run.shard();
    if (shard.isEmpty()) {
        *error = u"%1 is not the result of a sharded run (no shard block): run the agents with "
                 "--shard I/N"_s.arg(path);
        return false;
    }
    if (!o.value(u"raw_records"_s).isArray()) {
        *error = u"%1 has no raw records: run the agents with --save-result --save-detailed "
                 "(or --project)"_s.arg(path);
        return false;
    }
    bool ok = false;
    const qint64 base =
        shard.value(u"clock"_s).toObject().value(u"monotonic_ns"_s).toString().toLongLong(&ok);
    if (!ok) {
        *error = u"%1: the shard block has no clock anchor"_s.arg(path);
        return false;
    }
    if (!rawRecordsFromJson(o.value(u"raw_records"_s).toArray(), base, &run.records, error)) {
        *error = path + u": "_s + *error;
        return false;
    }
    run.status = o.value(u"status"_s).toString(u"completed"_s);
    run.host = shard.value(u"host"_s).toString();
    out->append(run);
    return true;
}

bool loadProject(const QString &path, QList<ShardRun> *out, QString *error)
{
    ProjectStore store;
    if (!store.open(path, ProjectStore::OpenMode::ReadOnly)) {
        *error = u"%1: %2"_s.arg(path, store.lastError());
        return false;
    }
    int found = 0;
    for (const RunInfo &info : store.listRuns()) {
        const auto full = store.loadRun(info.id);
        if (!full || !full->snapshot.contains(u"shard"_s))
            continue;
        ShardRun run;
        run.source = u"%1#run %2"_s.arg(path).arg(info.id);
        run.snapshot = full->snapshot;
        run.records = store.loadRequests(info.id);
        if (!store.lastError().isEmpty() && run.records.isEmpty() && full->requestCount > 0) {
            *error = u"%1: %2"_s.arg(run.source, store.lastError());
            return false;
        }
        run.status = QString::fromLatin1(storedRunStatusName(full->status));
        run.host = run.shard().value(u"host"_s).toString(full->host);
        out->append(run);
        ++found;
    }
    if (found == 0) {
        *error = u"%1 holds no sharded run: record the agents with run --shard I/N --project"_s.arg(
            path);
        return false;
    }
    return true;
}

} // namespace

bool loadShardRuns(const QString &path, QList<ShardRun> *out, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = u"cannot read %1: %2"_s.arg(path, f.errorString());
        return false;
    }
    const QByteArray head = f.peek(16);
    if (head == QByteArray("SQLite format 3\0", 16)) {
        f.close();
        return loadProject(path, out, error);
    }
    return loadJson(path, f.readAll(), out, error);
}

} // namespace sb
