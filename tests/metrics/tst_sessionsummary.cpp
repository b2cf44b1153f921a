// The session summary computed by hand on a few records: per turn, per session, think time,
// tokens, cache hits, active sessions.

#include "metrics/requestrecord.h"
#include "metrics/sessionsummary.h"
#include "metrics/summary.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

constexpr qint64 kMs = 1'000'000;
constexpr qint64 kOriginMs = 1000; // times are offsets from here (0 means "did not happen")

// One successful turn: sent at sendMs, first token ttftMs later, `chunks` chunks 10 ms apart.
RequestRecord turn(qint64 session, int index, int planned, qint64 schedMs, qint64 sendMs,
                   qint64 ttftMs, int chunks, int input, int history, int expectedInput, int cached,
                   qint64 thinkMs)
{
    RequestRecord r;
    static qint64 next = 0;
    r.index = next++;
    r.sessionId = session;
    r.turnIndex = index;
    r.sessionTurns = planned;
    schedMs += kOriginMs;
    sendMs += kOriginMs;
    r.tSched = schedMs * kMs;
    r.tQueued = r.tSched;
    r.tDispatch = sendMs * kMs;
    r.tSend = sendMs * kMs;
    r.tFirst = (sendMs + ttftMs) * kMs;
    for (int c = 0; c < chunks; ++c) {
        r.chunkTimes.append(r.tFirst + c * 10 * kMs);
        r.chunkTokens.append(1);
    }
    r.tLast = r.chunkTimes.constLast();
    r.tEnd = r.tLast + kMs;
    r.inputTokens = input;
    r.inputSource = TokenSource::ServerUsage;
    r.outputTokens = chunks;
    r.outputSource = TokenSource::ServerUsage;
    r.cachedTokens = cached;
    r.expectedInputTokens = expectedInput;
    r.expectedOutputTokens = chunks;
    r.historyTokens = history;
    r.thinkNs = thinkMs * kMs;
    r.httpStatus = 200;
    return r;
}

} // namespace

class TestSessionSummary : public QObject
{
    Q_OBJECT
private slots:
    void byHand();
    void singleRequestsHaveNoSessionView();
    void stopMakesASessionIncompleteNotFailed();
};

void TestSessionSummary::byHand()
{
    // Session 0: three turns, all fine. Turn ends are send + ttft + 10 ms x (chunks - 1) + 1.
    //   t0: sent 0, ttft 100, 3 chunks -> end 0+100+20+1 = 121
    //   t1: think 50 configured, sent 175 (measured 54), ttft 40, 3 chunks -> end 236
    //   t2: think 50, sent 290 (measured 54), ttft 30, 2 chunks -> end 331
    // Session 1: turn 0 fine, turn 1 fails, turn 2 never sent.
    //   t0: scheduled 100, sent 100, ttft 120, 2 chunks -> end 231
    //   t1: think 20, sent 260 (measured 29), HTTP 500
    QList<RequestRecord> rs;
    rs << turn(0, 0, 3, 0, 0, 100, 3, 500, 0, 500, 0, 0)
       << turn(0, 1, 3, 171, 175, 40, 3, 560, 504, 530, 480, 50)
       << turn(0, 2, 3, 286, 290, 30, 2, 620, 563, 590, 560, 50)
       << turn(1, 0, 3, 100, 100, 120, 2, 400, 0, 400, 100, 0);
    RequestRecord failed = turn(1, 1, 3, 251, 260, 0, 1, 0, 402, 430, -1, 20);
    failed.error = ErrorClass::Http5xx;
    failed.httpStatus = 500;
    failed.chunkTimes.clear();
    failed.chunkTokens.clear();
    failed.tFirst = failed.tLast = 0;
    failed.tEnd = (kOriginMs + 265) * kMs;
    failed.inputTokens = -1;
    failed.outputTokens = -1;
    rs << failed;

    SummaryOptions opts;
    const SessionSummary s = summarizeSessions(rs, opts);
    QVERIFY(s.present);
    QCOMPARE(s.sessions, 2);
    QCOMPARE(s.completed, 1);
    QCOMPARE(s.failed, 1);
    QCOMPARE(s.incomplete, 0);
    QCOMPARE(s.turnsPlanned, 6);
    QCOMPARE(s.turnsSent, 5);
    QCOMPARE(s.turnsCompleted, 4);
    QCOMPARE(s.turnsFailed, 1);
    QCOMPARE(s.turnsNotSent, 1);
    QCOMPARE(s.meanTurnsPerSession, 2.5);

    // Duration of the completed session: first send 0 to last end 331 ms.
    QCOMPARE(s.sessionDurationS.count, 1);
    QCOMPARE(s.sessionDurationS.mean, 0.331);

    // Think time: (50, 54), (50, 54), (20, 29).
    QCOMPARE(s.thinkConfigured.count, 3);
    QCOMPARE(s.thinkConfigured.mean, 40.0);
    QCOMPARE(s.thinkMeasured.mean, (54.0 + 54.0 + 29.0) / 3);
    QCOMPARE(s.thinkExcess.max, 9.0);

    // Tokens over the four successful turns: input 500+560+620+400; new = expected - history:
    // 500, 26, 27, 400; history = input - new.
    QCOMPARE(s.inputTokens, 2080);
    QCOMPARE(s.newInputTokens, 953);
    QCOMPARE(s.historyTokens, 2080 - 953);
    QCOMPARE(s.cachedTokens, 0 + 480 + 560 + 100);
    QCOMPARE(s.cachedReported, 4);
    QCOMPARE(s.cacheHitRate, 1140.0 / 2080.0);

    // Active sessions: [0, 331] and [100, 265] overlap: peak 2; mean = (331 + 165) / 331.
    QCOMPARE(s.peakActiveSessions, 2);
    QCOMPARE(s.meanActiveSessions, (331.0 + 165.0) / 331.0);

    // Per turn.
    QCOMPARE(s.turns.size(), 3);
    const TurnSummary &t1 = s.turns.at(0);
    QCOMPARE(t1.turn, 1);
    QCOMPARE(t1.requests, 2);
    QCOMPARE(t1.completed, 2);
    QCOMPARE(t1.ttft.mean, 110.0);
    QCOMPARE(t1.meanInputTokens, 450.0);
    QCOMPARE(t1.cacheHitRate, 100.0 / 900.0);
    QCOMPARE(t1.thinkConfigured.count, 0);
    const TurnSummary &t2 = s.turns.at(1);
    QCOMPARE(t2.requests, 2);
    QCOMPARE(t2.completed, 1);
    QCOMPARE(t2.failed, 1);
    QCOMPARE(t2.ttft.mean, 40.0); // the failed request has no TTFT
    QCOMPARE(t2.meanNewTokens, 26.0);
    QCOMPARE(t2.meanHistoryTokens, 534.0);
    QCOMPARE(t2.cacheHitRate, 480.0 / 560.0);
    QCOMPARE(t2.thinkMeasured.count, 2);
    QCOMPARE(t2.thinkMeasured.mean, (54.0 + 29.0) / 2);
    const TurnSummary &t3 = s.turns.at(2);
    QCOMPARE(t3.ttft.mean, 30.0);
    QCOMPARE(t3.itl.mean, 10.0);
    QCOMPARE(t3.e2el.mean, 40.0);

    // JSON keys.
    const QJsonObject j = s.toJson();
    QCOMPARE(j.value(u"failed"_s).toInt(), 1);
    QCOMPARE(j.value(u"turns"_s).toObject().value(u"not_sent"_s).toInt(), 1);
    QCOMPARE(j.value(u"per_turn"_s).toArray().size(), 3);
    QCOMPARE(j.value(u"per_turn"_s).toArray().at(0).toObject().value(u"turn"_s).toInt(), 1);
    QVERIFY(j.value(u"definitions"_s).toObject().contains(u"cache_hit_rate"_s));
    const QString text = formatSessionBlock(s, u"served"_s);
    QVERIFY2(text.contains(u"Completed / failed / incomplete:         1 / 1 / 0"_s),
             qPrintable(text));
    QVERIFY(text.contains(u"TTFT by turn"_s));
}

void TestSessionSummary::singleRequestsHaveNoSessionView()
{
    QList<RequestRecord> rs;
    RequestRecord r = turn(0, 0, 1, 0, 0, 10, 2, 10, 0, 10, -1, 0);
    r.sessionId = -1;
    r.turnIndex = -1;
    rs << r;
    const SessionSummary s = summarizeSessions(rs, SummaryOptions());
    QVERIFY(!s.present);
    QVERIFY(formatSessionBlock(s, u"served"_s).isEmpty());
}

void TestSessionSummary::stopMakesASessionIncompleteNotFailed()
{
    QList<RequestRecord> rs;
    rs << turn(3, 0, 2, 0, 0, 10, 2, 10, 0, 10, -1, 0);
    RequestRecord cancelled = turn(3, 1, 2, 40, 40, 10, 1, 10, 10, 12, -1, 5);
    cancelled.error = ErrorClass::Cancelled;
    rs << cancelled;
    const SessionSummary s = summarizeSessions(rs, SummaryOptions());
    QCOMPARE(s.failed, 0);
    QCOMPARE(s.incomplete, 1);
    QCOMPARE(s.completed, 0);
    QCOMPARE(s.cacheHitRate, -1.0); // nothing reported cached tokens
    QVERIFY(s.toJson().value(u"input_tokens"_s).toObject().value(u"cache_hit_rate"_s).isNull());
}

QTEST_GUILESS_MAIN(TestSessionSummary)
#include "tst_sessionsummary.moc"
