#include "requestrows.h"

#include "chunkcodec.h"
#include "metrics/requestrecord.h"
#include "projectschema.h"

#include <QSqlQuery>
#include <QVariant>
#include <sqlite3.h>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// Order matters: bind() and read() walk it by position.
constexpr const char *kColumns =
    "idx, dataset_item, warmup, request_id, t_sched, t_queued, t_dispatch, t_send, t_first, "
    "t_last, t_end, "
    "chunk_count, chunks, input_tokens, output_tokens, cached_tokens, input_source, "
    "output_source, expected_input_tokens, expected_output_tokens, http_status, finish_reason, "
    "error_class, error_message, output_chars, "
    "t_connect_start, t_connected, t_tls_done, t_request_written, t_head_received, connection";
constexpr int kColumnCount = 31;
constexpr int kColumnCountBeforeConnectionPhases = 25;
// What a file older than ProjectSchema::connectionPhasesVersion gives in their place.
constexpr const char *kColumnsBeforeConnectionPhases =
    "idx, dataset_item, warmup, request_id, t_sched, t_queued, t_dispatch, t_send, t_first, "
    "t_last, t_end, "
    "chunk_count, chunks, input_tokens, output_tokens, cached_tokens, input_source, "
    "output_source, expected_input_tokens, expected_output_tokens, http_status, finish_reason, "
    "error_class, error_message, output_chars, "
    "0, 0, 0, 0, 0, 'unknown'";
// Appended after kColumns, from ProjectSchema::sessionColumnsVersion() on.
constexpr const char *kSessionColumns =
    ", session_id, turn_index, session_turns, history_tokens, think_ns";
constexpr int kSessionColumnCount = 5;
// What a file without the session columns reads as: the columns' defaults.
constexpr const char *kSessionDefaults = ", -1, -1, -1, -1, -1";
// Appended after the session columns, from ProjectSchema::reasoningColumnsVersion() on.
constexpr const char *kReasoningColumns =
    ", t_first_reasoning, t_first_content, reasoning_tokens, reasoning_source, "
    "client_output_tokens";
constexpr int kReasoningColumnCount = 5;
constexpr const char *kReasoningDefaults = ", 0, 0, -1, 'unknown', -1";
// Appended after the reasoning columns, from ProjectSchema::cacheCreationVersion() on.
constexpr const char *kCacheCreationColumns = ", cache_creation_tokens";
constexpr int kCacheCreationColumnCount = 1;
constexpr const char *kCacheCreationDefaults = ", -1";
// Appended after cache_creation_tokens, from ProjectSchema::poolingColumnsVersion() on.
constexpr const char *kPoolingColumns = ", batch_items, result_items, image_bytes";
constexpr int kPoolingColumnCount = 3;
constexpr const char *kPoolingDefaults = ", 0, -1, 0";

// Chunk times are relative to tSend: that keeps the first delta (TTFT) small. Records that were
// never sent have no chunks.
qint64 chunkBase(const RequestRecord &r)
{
    return r.tSend;
}
} // namespace

int RequestRows::currentSchemaVersion()
{
    return ProjectSchema::currentVersion();
}

QString RequestRows::insertSql(int schemaVersion)
{
    const bool phases = schemaVersion >= ProjectSchema::connectionPhasesVersion;
    const bool sessions = schemaVersion >= ProjectSchema::sessionColumnsVersion();
    const bool reasoning = schemaVersion >= ProjectSchema::reasoningColumnsVersion();
    const bool cacheCreation = schemaVersion >= ProjectSchema::cacheCreationVersion();
    const bool pooling = schemaVersion >= ProjectSchema::poolingColumnsVersion();
    QString columns = QString::fromLatin1(kColumns);
    if (!phases)
        columns.truncate(columns.indexOf(u", t_connect_start"));
    if (sessions)
        columns += QLatin1StringView(kSessionColumns);
    if (reasoning)
        columns += QLatin1StringView(kReasoningColumns);
    if (cacheCreation)
        columns += QLatin1StringView(kCacheCreationColumns);
    if (pooling)
        columns += QLatin1StringView(kPoolingColumns);
    const int count = (phases ? kColumnCount : kColumnCountBeforeConnectionPhases) +
                      (sessions ? kSessionColumnCount : 0) +
                      (reasoning ? kReasoningColumnCount : 0) +
                      (cacheCreation ? kCacheCreationColumnCount : 0) +
                      (pooling ? kPoolingColumnCount : 0);
    QString marks = u"?"_s;
    for (int i = 0; i < count; ++i)
        marks += u", ?"_s;
    return u"INSERT INTO requests (run_id, %1) VALUES (%2)"_s.arg(columns, marks);
}

void RequestRows::bind(QSqlQuery &q, qint64 runId, const RequestRecord &r, int schemaVersion)
{
    int i = 0;
    q.bindValue(i++, runId);
    q.bindValue(i++, r.index);
    q.bindValue(i++, r.datasetItem);
    q.bindValue(i++, int(r.warmup));
    q.bindValue(i++, r.requestId.isNull() ? u""_s : r.requestId);
    q.bindValue(i++, r.tSched);
    q.bindValue(i++, r.tQueued);
    q.bindValue(i++, r.tDispatch);
    q.bindValue(i++, r.tSend);
    q.bindValue(i++, r.tFirst);
    q.bindValue(i++, r.tLast);
    q.bindValue(i++, r.tEnd);
    q.bindValue(i++, qint64(r.chunkTimes.size()));
    const QByteArray blob = encodeChunks(r.chunkTimes, r.chunkTokens, chunkBase(r));
    q.bindValue(i++, blob.isEmpty() ? QVariant(QMetaType(QMetaType::QByteArray)) : QVariant(blob));
    q.bindValue(i++, r.inputTokens);
    q.bindValue(i++, r.outputTokens);
    q.bindValue(i++, r.cachedTokens);
    q.bindValue(i++, QString::fromLatin1(tokenSourceName(r.inputSource)));
    q.bindValue(i++, QString::fromLatin1(tokenSourceName(r.outputSource)));
    q.bindValue(i++, r.expectedInputTokens);
    q.bindValue(i++, r.expectedOutputTokens);
    q.bindValue(i++, r.httpStatus);
    q.bindValue(i++, r.finishReason.isNull() ? u""_s : r.finishReason);
    q.bindValue(i++, QString::fromLatin1(errorClassName(r.error)));
    q.bindValue(i++, r.errorMessage.isNull() ? u""_s : r.errorMessage);
    q.bindValue(i++, r.outputChars);
    if (schemaVersion >= ProjectSchema::connectionPhasesVersion) {
        q.bindValue(i++, r.tConnectStart);
        q.bindValue(i++, r.tConnected);
        q.bindValue(i++, r.tTlsDone);
        q.bindValue(i++, r.tRequestWritten);
        q.bindValue(i++, r.tHeadReceived);
        q.bindValue(i++, QString::fromLatin1(connectionUseName(r.connection)));
    }
    if (schemaVersion < ProjectSchema::sessionColumnsVersion())
        return;
    q.bindValue(i++, r.sessionId);
    q.bindValue(i++, r.turnIndex);
    q.bindValue(i++, r.sessionTurns);
    q.bindValue(i++, r.historyTokens);
    q.bindValue(i++, r.thinkNs);
    if (schemaVersion < ProjectSchema::reasoningColumnsVersion())
        return;
    q.bindValue(i++, r.tFirstReasoning);
    q.bindValue(i++, r.tFirstContent);
    q.bindValue(i++, r.reasoningTokens);
    q.bindValue(i++, QString::fromLatin1(tokenSourceName(r.reasoningSource)));
    q.bindValue(i++, r.clientOutputTokens);
    if (schemaVersion < ProjectSchema::cacheCreationVersion())
        return;
    q.bindValue(i++, r.cacheCreationTokens);
    if (schemaVersion < ProjectSchema::poolingColumnsVersion())
        return;
    q.bindValue(i++, r.batchItems);
    q.bindValue(i++, r.resultItems);
    q.bindValue(i++, r.imageBytes);
}

QString RequestRows::selectColumns(int schemaVersion)
{
    return QString::fromLatin1(schemaVersion >= ProjectSchema::connectionPhasesVersion
                                   ? kColumns
                                   : kColumnsBeforeConnectionPhases) +
           QLatin1StringView(schemaVersion >= ProjectSchema::sessionColumnsVersion()
                                 ? kSessionColumns
                                 : kSessionDefaults) +
           QLatin1StringView(schemaVersion >= ProjectSchema::reasoningColumnsVersion()
                                 ? kReasoningColumns
                                 : kReasoningDefaults) +
           QLatin1StringView(schemaVersion >= ProjectSchema::cacheCreationVersion()
                                 ? kCacheCreationColumns
                                 : kCacheCreationDefaults) +
           QLatin1StringView(schemaVersion >= ProjectSchema::poolingColumnsVersion()
                                 ? kPoolingColumns
                                 : kPoolingDefaults);
}

namespace {
QString textColumn(sqlite3_stmt *st, int i)
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(st, i));
    return text ? QString::fromUtf8(text, sqlite3_column_bytes(st, i)) : QString();
}
QLatin1StringView nameColumn(sqlite3_stmt *st, int i)
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(st, i));
    return text ? QLatin1StringView(text, sqlite3_column_bytes(st, i)) : QLatin1StringView();
}
} // namespace

bool RequestRows::read(sqlite3_stmt *st, RequestRecord *r, QString *error, bool withChunks,
                       qint64 *chunkCount)
{
    int i = 0;
    r->index = sqlite3_column_int64(st, i++);
    r->datasetItem = sqlite3_column_int(st, i++);
    r->warmup = sqlite3_column_int(st, i++) != 0;
    r->requestId = textColumn(st, i++);
    r->tSched = sqlite3_column_int64(st, i++);
    r->tQueued = sqlite3_column_int64(st, i++);
    r->tDispatch = sqlite3_column_int64(st, i++);
    r->tSend = sqlite3_column_int64(st, i++);
    r->tFirst = sqlite3_column_int64(st, i++);
    r->tLast = sqlite3_column_int64(st, i++);
    r->tEnd = sqlite3_column_int64(st, i++);
    const qint64 storedChunks = sqlite3_column_int64(st, i++);
    if (chunkCount)
        *chunkCount = storedChunks;
    const int blobColumn = i++;
    r->inputTokens = sqlite3_column_int(st, i++);
    r->outputTokens = sqlite3_column_int(st, i++);
    if (withChunks || r->outputTokens < 0) {
        // The blob pointer stays valid until the next step; decoding copies out of it.
        const auto *blobData = static_cast<const char *>(sqlite3_column_blob(st, blobColumn));
        const QByteArray blob =
            QByteArray::fromRawData(blobData, sqlite3_column_bytes(st, blobColumn));
        QString why;
        if (!decodeChunks(blob, chunkBase(*r), &r->chunkTimes, &r->chunkTokens, &why) ||
            r->chunkTimes.size() != storedChunks) {
            if (error)
                *error = u"request %1: %2"_s.arg(r->index).arg(
                    why.isEmpty() ? u"chunk count does not match its blob"_s : why);
            return false;
        }
    } else {
        r->chunkTimes.clear();
        r->chunkTokens.clear();
    }
    r->cachedTokens = sqlite3_column_int(st, i++);
    r->inputSource = tokenSourceFromName(nameColumn(st, i++));
    r->outputSource = tokenSourceFromName(nameColumn(st, i++));
    r->expectedInputTokens = sqlite3_column_int(st, i++);
    r->expectedOutputTokens = sqlite3_column_int(st, i++);
    r->httpStatus = sqlite3_column_int(st, i++);
    r->finishReason = textColumn(st, i++);
    r->error = errorClassFromName(nameColumn(st, i++));
    r->errorMessage = textColumn(st, i++);
    r->outputChars = sqlite3_column_int64(st, i++);
    r->tConnectStart = sqlite3_column_int64(st, i++);
    r->tConnected = sqlite3_column_int64(st, i++);
    r->tTlsDone = sqlite3_column_int64(st, i++);
    r->tRequestWritten = sqlite3_column_int64(st, i++);
    r->tHeadReceived = sqlite3_column_int64(st, i++);
    r->connection = connectionUseFromName(nameColumn(st, i++));
    r->sessionId = sqlite3_column_int64(st, i++);
    r->turnIndex = sqlite3_column_int(st, i++);
    r->sessionTurns = sqlite3_column_int(st, i++);
    r->historyTokens = sqlite3_column_int(st, i++);
    r->thinkNs = sqlite3_column_int64(st, i++);
    r->tFirstReasoning = sqlite3_column_int64(st, i++);
    r->tFirstContent = sqlite3_column_int64(st, i++);
    r->reasoningTokens = sqlite3_column_int(st, i++);
    r->reasoningSource = tokenSourceFromName(nameColumn(st, i++));
    r->clientOutputTokens = sqlite3_column_int(st, i++);
    r->cacheCreationTokens = sqlite3_column_int(st, i++);
    r->batchItems = sqlite3_column_int(st, i++);
    r->resultItems = sqlite3_column_int(st, i++);
    r->imageBytes = sqlite3_column_int64(st, i++);
    return true;
}

} // namespace sb
