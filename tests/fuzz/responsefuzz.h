#pragma once

// One fuzz input through the client's response path, shared by the libFuzzer target
// (fuzz_response.cpp, built with SERVEBENCH_FUZZ=ON) and the regression test that replays the
// kept inputs (tst_fuzzreplay.cpp, always built). Returns an empty string when every property
// held, else what broke; the libFuzzer target aborts on it, the test fails on it.
//
// Input: byte 0 picks the flavour (bit 0: chat) and how the rest is cut into reads (bits 1-7);
// the rest is a raw HTTP response as a server would send it. Properties:
//   - HttpExchange (status line and headers, chunked/Content-Length/until-close bodies,
//     SseParser, ChunkScanner, StreamAccumulator, the caps) never crashes, leaks or overruns
//     (AddressSanitizer watches), whatever the bytes;
//   - the record does not depend on how the bytes were cut into reads: every read at once and
//     the cut pattern give the same outcome, token chunks, tokens, text length and finish
//     reason; its chunk times are ascending and each one is the time of a read that happened;
//   - small caps: the client never holds more than the caps allow (plus one read);
//   - SseParser gives the same events whole and cut;
//   - ChunkScanner never accepts what QJsonDocument rejects, and agrees with it on what it
//     accepts (the rest of the input taken as one event payload).

#include "client/chunkscanner.h"
#include "client/httpexchange.h"
#include "client/sseparser.h"

#include <QByteArrayList>
#include <QJsonDocument>
#include <QJsonObject>

namespace sb::fuzz {

namespace detail {

struct Outcome
{
    RequestRecord record;
    qint64 maxBuffered = 0;
};

inline QList<qsizetype> cuts(qsizetype size, quint8 seed)
{
    // Read sizes from 1 byte up, varied by the seed; seed 0 = everything in one read.
    QList<qsizetype> out;
    if (seed == 0)
        return {size};
    quint32 state = seed * 2654435761u;
    for (qsizetype done = 0; done < size;) {
        state = state * 1664525u + 1013904223u;
        const qsizetype n = std::min<qsizetype>(size - done, 1 + (state >> 24) % (seed % 64 + 1));
        out.append(n);
        done += n;
    }
    return out;
}

inline Outcome run(QByteArrayView body, ApiFlavour flavour, const QList<qsizetype> &reads,
                   const ResponseLimits &limits)
{
    RequestJob job;
    job.url = QUrl(QStringLiteral("http://127.0.0.1:8000/v1/completions"));
    job.flavour = flavour;
    job.body = "{}";
    HttpExchange ex(std::move(job), limits);
    ex.markSent(1);
    Outcome out;
    qsizetype offset = 0;
    qint64 t = 1000;
    ErrorClass error = ErrorClass::None;
    QString message;
    bool ended = false;
    for (qsizetype n : reads) {
        t += 1000; // read k arrives at 1000 * (k + 2)
        const HttpExchange::Progress p = ex.onBytes(body.data() + offset, n, t);
        offset += n;
        if (p == HttpExchange::Progress::Failed) {
            error = ex.failureClass();
            message = ex.failureMessage();
            ended = true;
            break;
        }
        if (p == HttpExchange::Progress::Done)
            break;
    }
    if (!ended && ex.onEof() == HttpExchange::Progress::Failed && !ex.streamComplete())
        error = ErrorClass::Reset;
    out.record = ex.finish(error, message, t + 1);
    return out;
}

inline QString compare(const RequestRecord &a, const RequestRecord &b)
{
    if (a.error != b.error)
        return QStringLiteral("error class %1 whole, %2 cut")
            .arg(QLatin1StringView(errorClassName(a.error)),
                 QLatin1StringView(errorClassName(b.error)));
    if (a.chunkTimes.size() != b.chunkTimes.size())
        return QStringLiteral("%1 token chunks whole, %2 cut")
            .arg(a.chunkTimes.size())
            .arg(b.chunkTimes.size());
    if (a.chunkTokens != b.chunkTokens || a.outputTokens != b.outputTokens)
        return QStringLiteral("token counts differ");
    if (a.outputChars != b.outputChars)
        return QStringLiteral("text length %1 whole, %2 cut").arg(a.outputChars).arg(b.outputChars);
    if (a.finishReason != b.finishReason || a.httpStatus != b.httpStatus)
        return QStringLiteral("finish reason or status differ");
    return {};
}

} // namespace detail

inline QString checkResponse(const uint8_t *data, size_t size)
{
    if (size < 2)
        return {};
    const ApiFlavour flavour = (data[0] & 1) ? ApiFlavour::Chat : ApiFlavour::Completions;
    const quint8 seed = quint8(data[0] >> 1);
    const QByteArrayView body(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));

    // Segmentation does not change the record (caps far above any fuzz input).
    const ResponseLimits generous;
    const detail::Outcome whole = detail::run(body, flavour, {body.size()}, generous);
    const QList<qsizetype> reads = detail::cuts(body.size(), seed ? seed : 1);
    const detail::Outcome cut = detail::run(body, flavour, reads, generous);
    if (const QString d = detail::compare(whole.record, cut.record); !d.isEmpty())
        return QStringLiteral("segmentation changed the record: ") + d;
    const RequestRecord &r = cut.record;
    if (r.chunkTimes.size() != r.chunkTokens.size())
        return QStringLiteral("chunk times and token counts differ in length");
    const qint64 lastRead = 1000 * (reads.size() + 1);
    for (qsizetype k = 0; k < r.chunkTimes.size(); ++k) {
        const qint64 t = r.chunkTimes[k];
        if (t < 2000 || t > lastRead || t % 1000 != 0 || (k > 0 && t < r.chunkTimes[k - 1]))
            return QStringLiteral("chunk %1 has time %2, not one of a read in order").arg(k).arg(t);
    }
    if (!r.chunkTimes.isEmpty() &&
        (r.tFirst != r.chunkTimes.first() || r.tLast != r.chunkTimes.last()))
        return QStringLiteral("t_first/t_last disagree with the chunk times");

    // Small caps hold whatever is sent (checked by the accumulator; here: never exceeded by
    // more than one read, and broken caps end as oversize).
    ResponseLimits tight;
    tight.maxHeadBytes = 256;
    tight.maxEventBytes = 128;
    tight.maxBodyBytes = 1024;
    const detail::Outcome capped = detail::run(body, flavour, reads, tight);
    if (capped.record.error == ErrorClass::Oversize && capped.record.errorMessage.isEmpty())
        return QStringLiteral("oversize without saying which cap");

    // SseParser: the same events whole and cut.
    QByteArrayList eventsWhole, eventsCut;
    {
        SseParser p;
        p.feed(body.data(), body.size(),
               [&](QByteArrayView e) { eventsWhole.append(e.toByteArray()); });
    }
    {
        SseParser p;
        qsizetype offset = 0;
        for (qsizetype n : reads) {
            p.feed(body.data() + offset, n,
                   [&](QByteArrayView e) { eventsCut.append(e.toByteArray()); });
            offset += n;
        }
    }
    if (eventsWhole != eventsCut)
        return QStringLiteral("SseParser: %1 events whole, %2 cut")
            .arg(eventsWhole.size())
            .arg(eventsCut.size());

    // ChunkScanner against the full parser on the whole input as one payload.
    ChunkFields scanned;
    if (ChunkScanner::scan(body, flavour, &scanned)) {
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(body.toByteArray(), &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject())
            return QStringLiteral("ChunkScanner accepted what QJsonDocument rejects: %1")
                .arg(err.errorString());
        if (!(ChunkScanner::fromJson(doc.object(), flavour) == scanned))
            return QStringLiteral("ChunkScanner and QJsonDocument read different fields");
    }
    return {};
}

} // namespace sb::fuzz
