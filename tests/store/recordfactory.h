#pragma once

// Deterministic request records shared by the store tests and the crash helper: the helper and
// the test compute the same record for an index, so the test can check every stored field.

#include "metrics/requestrecord.h"

#include <QString>

#include <algorithm>

namespace sb::testing {

inline RequestRecord makeRecord(qint64 i)
{
    using namespace Qt::StringLiterals;
    RequestRecord r;
    r.index = i;
    r.datasetItem = qint32(i % 997);
    r.warmup = i < 3;
    r.requestId = u"req-%1"_s.arg(i);
    r.tSched = 1'000'000'000 + i * 10'000'017;
    r.tQueued = r.tSched + (i % 5) * 1000;
    r.tDispatch = r.tQueued + (i % 3) * 7'000;
    r.tSend = r.tDispatch + 20'011;
    // Connection phases: a new connection every fourth request (https every eighth), the others
    // reused or pre-opened, so every column holds zeros and values.
    switch (i % 4) {
    case 0:
        r.connection = ConnectionUse::New;
        r.tConnectStart = r.tSend + 3'001;
        r.tConnected = r.tConnectStart + 41'017;
        r.tTlsDone = i % 8 == 0 ? r.tConnected + 900'003 : 0;
        break;
    case 1:
        r.connection = ConnectionUse::Reused;
        break;
    case 2:
        r.connection = ConnectionUse::Prewarmed;
        break;
    default:
        r.connection = ConnectionUse::Unknown;
        break;
    }
    r.tRequestWritten = r.connection == ConnectionUse::Unknown
                            ? 0
                            : std::max({r.tSend, r.tConnected, r.tTlsDone}) + 5'003;
    r.tHeadReceived = r.tRequestWritten > 0 ? r.tRequestWritten + 1'000'007 : 0;
    const int kind = int(i % 10);
    if (kind == 9) { // a failed request: no tokens
        r.error = i % 20 == 9 ? ErrorClass::Http5xx : ErrorClass::StreamError;
        r.errorMessage = u"boom \"%1\" — ünïcode"_s.arg(i);
        r.httpStatus = r.error == ErrorClass::Http5xx ? 503 : 200;
        r.tEnd = r.tSend + 3'000'000;
        r.finishReason = QString();
        r.outputSource = TokenSource::Unknown;
        return r;
    }
    const int chunks = 1 + int(i % 37);
    qint64 t = r.tSend + 50'000'000 + (i % 7) * 1'234'567;
    for (int c = 0; c < chunks; ++c) {
        r.chunkTimes.append(t);
        r.chunkTokens.append(kind == 3 ? 1 + (c % 4) : 1); // some speculative chunks
        t += 9'000'000 + ((i * 31 + c * 17) % 5'000'000);
    }
    r.tFirst = r.chunkTimes.first();
    r.tLast = r.chunkTimes.last();
    r.tEnd = r.tLast + 150'000;
    int out = 0;
    for (qint32 k : r.chunkTokens)
        out += k;
    r.outputTokens = out;
    r.inputTokens = 100 + qint32(i % 400);
    r.cachedTokens = kind == 2 ? 64 : -1;
    r.inputSource = kind == 4 ? TokenSource::Dataset : TokenSource::ServerUsage;
    r.outputSource = kind == 4 ? TokenSource::ChunkCount : TokenSource::ServerUsage;
    r.expectedInputTokens = r.inputTokens;
    r.expectedOutputTokens = 128;
    r.httpStatus = 200;
    r.finishReason = kind == 5 ? u"stop"_s : u"length"_s;
    r.outputChars = out * 4;
    // Reasoning: some requests reasoned over their first half of chunks, with the count from the
    // server or from the tokenizer; others were counted by the client beside the server.
    r.tFirstContent = r.tFirst;
    if (kind == 6 && chunks > 1) {
        r.tFirstReasoning = r.tFirst;
        r.tFirstContent = r.chunkTimes.at(chunks / 2);
        r.reasoningTokens = chunks / 2;
        r.reasoningSource = i % 2 ? TokenSource::Tokenizer : TokenSource::ServerUsage;
    }
    if (kind == 7)
        r.clientOutputTokens = out + qint32(i % 3);
    return r;
}

// The record as a file written before ProjectSchema::reasoningColumnsVersion holds it.
inline RequestRecord withoutReasoning(RequestRecord r)
{
    r.tFirstReasoning = r.tFirstContent = 0;
    r.reasoningTokens = -1;
    r.reasoningSource = TokenSource::Unknown;
    r.clientOutputTokens = -1;
    return r;
}

// The record as a file written before ProjectSchema::connectionPhasesVersion holds it (such a
// file predates the reasoning columns too).
inline RequestRecord withoutConnectionPhases(RequestRecord r)
{
    r = withoutReasoning(r);
    r.tConnectStart = r.tConnected = r.tTlsDone = r.tRequestWritten = r.tHeadReceived = 0;
    r.connection = ConnectionUse::Unknown;
    return r;
}

// Empty when equal, else the first differing field (a QCOMPARE of a struct says nothing).
inline QString recordDifference(const RequestRecord &a, const RequestRecord &b)
{
    using namespace Qt::StringLiterals;
#define SB_CMP(f)                                                                                  \
    if (!(a.f == b.f))                                                                             \
        return u"record %1: field " #f " differs"_s.arg(a.index);
    SB_CMP(index)
    SB_CMP(datasetItem)
    SB_CMP(warmup)
    SB_CMP(requestId)
    SB_CMP(tSched)
    SB_CMP(tQueued)
    SB_CMP(tDispatch)
    SB_CMP(tSend)
    SB_CMP(tFirst)
    SB_CMP(tLast)
    SB_CMP(tEnd)
    SB_CMP(chunkTimes)
    SB_CMP(chunkTokens)
    SB_CMP(inputTokens)
    SB_CMP(outputTokens)
    SB_CMP(cachedTokens)
    SB_CMP(inputSource)
    SB_CMP(outputSource)
    SB_CMP(expectedInputTokens)
    SB_CMP(expectedOutputTokens)
    SB_CMP(httpStatus)
    SB_CMP(finishReason)
    SB_CMP(error)
    SB_CMP(errorMessage)
    SB_CMP(outputChars)
    SB_CMP(tConnectStart)
    SB_CMP(tConnected)
    SB_CMP(tTlsDone)
    SB_CMP(tRequestWritten)
    SB_CMP(tHeadReceived)
    SB_CMP(connection)
    SB_CMP(tFirstReasoning)
    SB_CMP(tFirstContent)
    SB_CMP(reasoningTokens)
    SB_CMP(reasoningSource)
    SB_CMP(clientOutputTokens)
#undef SB_CMP
    return {};
}

} // namespace sb::testing
