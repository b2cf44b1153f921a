#pragma once

#include "simconfig.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QtGlobal>

namespace sb {

// What the simulator did for one request. Times are CLOCK_MONOTONIC nanoseconds
// (sb::monotonicNs(), the client's clock too); 0 means "did not happen".
// An entry is logged when the simulator is done with the request: right before its final write
// (so a client that saw [DONE] finds it logged), at the fault (reset, stall, error status), or when
// the client went away first (clientClosed).
struct SimLogEntry
{
    quint64 seq = 0;          // arrival order over the simulator's life (0-based)
    quint64 connectionId = 0; // which accepted connection carried it (1-based)
    QString requestId;        // the x-request-id header, empty when absent
    // Every request header (names lower-cased), so a test sees what a client sent, e.g. a
    // session's affinity header.
    QList<QPair<QByteArray, QByteArray>> headers;
    QString method;
    QString path; // without the query string
    int httpStatus = 0;
    bool stream = false;
    SimFault fault = SimFault::None;
    QString faultName() const { return QString::fromLatin1(simFaultName(fault)); }

    qint64 tAccept = 0;     // request headers fully read
    qint64 tAdmit = 0;      // got a capacity slot (after the FIFO queue); == tAccept when unlimited
    qint64 tFirstWrite = 0; // first token chunk written (for other responses: the response body)
    qint64 tEnd = 0;        // the simulator finished with it

    // Every token chunk: its write time (taken right before the one write call) and its tokens.
    // The role-only first chat chunk travels in the same write as the first token chunk and is
    // not listed separately.
    QList<qint64> chunkWriteNs;
    QList<int> chunkTokens;

    QString prompt;       // prompt text (completions) or joined message contents (chat), bounded
    int promptTokens = 0; // whitespace-separated words, as the usage chunk reports
    int cachedTokens = 0; // prompt tokens served from the prefix cache (0 with the cache off)
    int maxTokens = 0;    // what the request asked for (or the default)
    int completionTokens = 0;  // tokens actually written
    int inputItems = 0;        // embeddings inputs / rerank documents (0 for generation)
    // Images in a chat or Responses prompt (docs/datasets.md, "Images in prompts"): the bytes of
    // the data URLs' images after base64 decoding, and how many there were.
    qint64 imageBytes = 0;
    int images = 0;
    bool clientClosed = false; // the client closed the connection before the response ended
};

} // namespace sb
