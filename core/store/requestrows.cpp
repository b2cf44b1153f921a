#include "requestrows.h"

#include "chunkcodec.h"
#include "metrics/requestrecord.h"

#include <QSqlQuery>
#include <QVariant>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// Order matters: bind() and read() walk it by position.
constexpr const char *kColumns =
    "idx, dataset_item, warmup, request_id, t_sched, t_queued, t_dispatch, t_send, t_first, "
    "t_last, t_end, "
    "chunk_count, chunks, input_tokens, output_tokens, cached_tokens, input_source, "
    "output_source, expected_input_tokens, expected_output_tokens, http_status, finish_reason, "
    "error_class, error_message, output_chars";
constexpr int kColumnCount = 25;

// Chunk times are relative to tSend: that keeps the first delta (TTFT) small. Records that were
// never sent have no chunks.
qint64 chunkBase(const RequestRecord &r)
{
    return r.tSend;
}
} // namespace

QString RequestRows::insertSql()
{
    QString marks = u"?"_s;
    for (int i = 0; i < kColumnCount; ++i)
        marks += u", ?"_s;
    return u"INSERT INTO requests (run_id, %1) VALUES (%2)"_s.arg(QLatin1StringView(kColumns),
                                                                  marks);
}

void RequestRows::bind(QSqlQuery &q, qint64 runId, const RequestRecord &r)
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
}

QString RequestRows::selectColumns()
{
    return QString::fromLatin1(kColumns);
}

bool RequestRows::read(const QSqlQuery &q, RequestRecord *r, QString *error)
{
    int i = 0;
    r->index = q.value(i++).toLongLong();
    r->datasetItem = q.value(i++).toInt();
    r->warmup = q.value(i++).toInt() != 0;
    r->requestId = q.value(i++).toString();
    r->tSched = q.value(i++).toLongLong();
    r->tQueued = q.value(i++).toLongLong();
    r->tDispatch = q.value(i++).toLongLong();
    r->tSend = q.value(i++).toLongLong();
    r->tFirst = q.value(i++).toLongLong();
    r->tLast = q.value(i++).toLongLong();
    r->tEnd = q.value(i++).toLongLong();
    const qint64 chunkCount = q.value(i++).toLongLong();
    const QByteArray blob = q.value(i++).toByteArray();
    QString why;
    if (!decodeChunks(blob, chunkBase(*r), &r->chunkTimes, &r->chunkTokens, &why) ||
        r->chunkTimes.size() != chunkCount) {
        if (error)
            *error = u"request %1: %2"_s.arg(r->index).arg(
                why.isEmpty() ? u"chunk count does not match its blob"_s : why);
        return false;
    }
    r->inputTokens = q.value(i++).toInt();
    r->outputTokens = q.value(i++).toInt();
    r->cachedTokens = q.value(i++).toInt();
    r->inputSource = tokenSourceFromName(q.value(i++).toString());
    r->outputSource = tokenSourceFromName(q.value(i++).toString());
    r->expectedInputTokens = q.value(i++).toInt();
    r->expectedOutputTokens = q.value(i++).toInt();
    r->httpStatus = q.value(i++).toInt();
    r->finishReason = q.value(i++).toString();
    r->error = errorClassFromName(q.value(i++).toString());
    r->errorMessage = q.value(i++).toString();
    r->outputChars = q.value(i++).toLongLong();
    return true;
}

} // namespace sb
