// A session plan as text and as a checked request: its flags survive the round trip, the
// combinations that cannot run are refused with the flag to blame, and a turn's request holds
// the conversation so far in either history mode.

#include "config/runplan.h"
#include "data/sessiondataset.h"
#include "run/planvalidation.h"
#include "run/runflags.h"
#include "run/runrequest.h"
#include "run/sessioncontroller.h"
#include "run/sessionturn.h"

#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {
RunRequest parse(const QStringList &args, QString *error = nullptr)
{
    RunRequest r;
    RunFlagOptions o;
    QString e;
    if (!parseRunFlags(args, &r, &o, &e) && error)
        *error = e;
    return r;
}

QStringList issueFields(const RunRequest &r)
{
    QStringList fields;
    for (const PlanIssue &i : validateRunRequest(r))
        fields << i.field + u'=' + QString::fromLatin1(i.message.id());
    return fields;
}

SessionItem conversation()
{
    SessionItem s;
    s.system = u"Be brief."_s;
    s.systemTokens = 2;
    for (int k = 0; k < 3; ++k) {
        SessionTurn t;
        t.user = u"question %1"_s.arg(k);
        t.userTokens = 2;
        t.reference = u"reference answer %1"_s.arg(k);
        t.referenceTokens = 3;
        t.outputTokens = 5;
        s.turns.append(t);
    }
    return s;
}
} // namespace

class TestSessionPlan : public QObject
{
    Q_OBJECT
private slots:
    void flagsRoundTrip_data();
    void flagsRoundTrip();
    void jsonRoundTrip();
    void refusals_data();
    void refusals();
    void validSessionPlans_data();
    void validSessionPlans();
    void historyHoldsTheGivenAnswers();
    void thinkTimesAreReproducible();
};

void TestSessionPlan::flagsRoundTrip_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("synthetic open loop") << QStringList{u"--multi-turn"_s,
                                                        u"--num-sessions"_s,
                                                        u"12"_s,
                                                        u"--session-turns"_s,
                                                        u"6"_s,
                                                        u"--session-prefix-len"_s,
                                                        u"300"_s,
                                                        u"--random-prefix-len"_s,
                                                        u"64"_s,
                                                        u"--session-rate"_s,
                                                        u"2.5"_s,
                                                        u"--burstiness"_s,
                                                        u"0.5"_s,
                                                        u"--think-time"_s,
                                                        u"exponential"_s,
                                                        u"--think-time-ms"_s,
                                                        u"1500"_s,
                                                        u"--history"_s,
                                                        u"reference"_s,
                                                        u"--session-header"_s,
                                                        u"X-Session-ID"_s,
                                                        u"--sim-prefill-ms-per-token"_s,
                                                        u"0.2"_s,
                                                        u"--sim-prefix-cache-blocks"_s,
                                                        u"64"_s};
    QTest::newRow("sharegpt closed loop") << QStringList{u"--multi-turn"_s,
                                                         u"--dataset-name"_s,
                                                         u"sharegpt"_s,
                                                         u"--dataset-path"_s,
                                                         u"/data/sg.json"_s,
                                                         u"--users"_s,
                                                         u"8"_s,
                                                         u"--max-turns"_s,
                                                         u"5"_s,
                                                         u"--max-concurrency"_s,
                                                         u"4"_s,
                                                         u"--think-time-ms"_s,
                                                         u"250"_s,
                                                         u"--cache-bust"_s};
    QTest::newRow("custom, think from the dataset, for a duration")
        << QStringList{u"--multi-turn"_s,
                       u"--dataset-name"_s,
                       u"custom"_s,
                       u"--dataset-path"_s,
                       u"/data/s.jsonl"_s,
                       u"--users"_s,
                       u"3"_s,
                       u"--duration"_s,
                       u"30"_s,
                       u"--think-time"_s,
                       u"dataset"_s};
    QTest::newRow("mooncake trace") << QStringList{u"--trace"_s,
                                                   u"/t/m.jsonl"_s,
                                                   u"--trace-format"_s,
                                                   u"mooncake"_s,
                                                   u"--trace-block-size"_s,
                                                   u"256"_s,
                                                   u"--trace-time-scale"_s,
                                                   u"0.01"_s};
}

void TestSessionPlan::flagsRoundTrip()
{
    QFETCH(QStringList, args);
    QString error;
    const RunRequest first = parse(args, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(validateRunRequest(first).isEmpty(), qPrintable(issueFields(first).join(u", "_s)));
    const QStringList flags = runFlags(first);
    const RunRequest second = parse(flags, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(second.plan.toJson(), first.plan.toJson());
    QCOMPARE(runFlags(second), flags);
}

void TestSessionPlan::jsonRoundTrip()
{
    RunPlan p;
    p.dataset.multiTurn = true;
    p.dataset.sessionTurns = 7;
    p.dataset.sessionPrefixLen = 99;
    p.dataset.maxTurns = 3;
    p.profile.sessionRate = 0.25;
    p.profile.numSessions = 42;
    p.profile.history = HistoryMode::Reference;
    p.profile.thinkTime = ThinkTimeModel::Exponential;
    p.profile.thinkTimeMs = 800;
    p.profile.sessionHeader = u"X-Session-ID"_s;
    p.profile.traceFormat = TraceFormat::Mooncake;
    p.profile.traceBlockSize = 128;
    p.sut.simPrefillMsPerToken = 0.1;
    p.sut.simPrefixCacheBlocks = 10;
    const RunPlan q = RunPlan::fromJson(p.toJson());
    QCOMPARE(q.toJson(), p.toJson());
    QCOMPARE(q.profile.sessionRate, 0.25);
    QCOMPARE(q.profile.history, HistoryMode::Reference);
    QCOMPARE(q.profile.thinkTime, ThinkTimeModel::Exponential);
    QCOMPARE(q.dataset.sessionPrefixLen, 99);
    QCOMPARE(q.sut.simPrefixCacheBlocks, 10);
    QVERIFY(q.isSessionWorkload());
    // An older plan without these keys reads as a single-request plan.
    QJsonObject old = p.toJson();
    QJsonObject ds = old.value(u"dataset"_s).toObject();
    ds.remove(u"multi_turn"_s);
    old[u"dataset"_s] = ds;
    QVERIFY(!RunPlan::fromJson(old).isSessionWorkload());
}

void TestSessionPlan::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    const QStringList s = {u"--multi-turn"_s};
    QTest::newRow("MLPerf server")
        << s + QStringList{u"--scenario"_s, u"server"_s} << u"scenario=plan.sessions.mlperf"_s;
    QTest::newRow("MLPerf single-stream") << s + QStringList{u"--scenario"_s, u"single-stream"_s}
                                          << u"scenario=plan.sessions.mlperf"_s;
    QTest::newRow("MLPerf offline")
        << s + QStringList{u"--scenario"_s, u"offline"_s} << u"scenario=plan.sessions.mlperf"_s;
    QTest::newRow("sweep") << s + QStringList{u"--sweep"_s, u"3"_s}
                           << u"sweep=plan.sessions.search"_s;
    QTest::newRow("trace") << s + QStringList{u"--trace"_s, u"/t.jsonl"_s}
                           << u"trace=plan.sessions.trace"_s;
    QTest::newRow("request rate") << s + QStringList{u"--request-rate"_s, u"5"_s}
                                  << u"request-rate=plan.sessions.request_rate"_s;
    QTest::newRow("concurrency") << s + QStringList{u"--concurrency"_s, u"5"_s}
                                 << u"concurrency=plan.sessions.concurrency"_s;
    QTest::newRow("warm-up") << s + QStringList{u"--warmup-requests"_s, u"5"_s}
                             << u"warmup-requests=plan.sessions.warmup"_s;
    QTest::newRow("users and rate")
        << s + QStringList{u"--users"_s, u"4"_s, u"--session-rate"_s, u"2"_s}
        << u"users=plan.sessions.users_and_rate"_s;
    QTest::newRow("exponential without mean")
        << s + QStringList{u"--think-time"_s, u"exponential"_s}
        << u"think-time-ms=plan.think_time.mean"_s;
    QTest::newRow("think from sharegpt")
        << s + QStringList{u"--dataset-name"_s, u"sharegpt"_s,     u"--dataset-path"_s,
                           u"/x.json"_s,        u"--think-time"_s, u"dataset"_s}
        << u"think-time=plan.think_time.dataset"_s;
    QTest::newRow("bad header") << s + QStringList{u"--session-header"_s, u"X Session"_s}
                                << u"session-header=plan.header.bad_name"_s;
    QTest::newRow("zero turns") << s + QStringList{u"--session-turns"_s, u"0"_s}
                                << u"session-turns=plan.sessions.turns"_s;
    QTest::newRow("users without sessions")
        << QStringList{u"--users"_s, u"3"_s} << u"users=plan.sessions.not_sessions"_s;
    QTest::newRow("think time without sessions")
        << QStringList{u"--think-time-ms"_s, u"3"_s} << u"think-time=plan.sessions.not_sessions"_s;
    QTest::newRow("simulator option with an endpoint")
        << QStringList{u"--base-url"_s, u"http://127.0.0.1:9"_s, u"--sim-prefill-ms-per-token"_s,
                       u"1"_s}
        << u"sim-prefill-ms-per-token=plan.sim.not_builtin"_s;
    QTest::newRow("sessions all at once for a duration")
        << s + QStringList{u"--duration"_s, u"10"_s} << u"duration=plan.sessions.duration"_s;
}

void TestSessionPlan::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    QString error;
    const RunRequest r = parse(args, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList fields = issueFields(r);
    QVERIFY2(fields.contains(expected), qPrintable(fields.join(u", "_s)));
}

void TestSessionPlan::validSessionPlans_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("defaults") << QStringList{u"--multi-turn"_s};
    QTest::newRow("users") << QStringList{u"--multi-turn"_s, u"--users"_s, u"10"_s,
                                          u"--think-time-ms"_s, u"2000"_s};
    QTest::newRow("rate") << QStringList{
        u"--multi-turn"_s, u"--session-rate"_s, u"0.5"_s, u"--arrival"_s,
        u"gamma"_s,        u"--burstiness"_s,   u"2"_s};
}

void TestSessionPlan::validSessionPlans()
{
    QFETCH(QStringList, args);
    const RunRequest r = parse(args);
    QVERIFY2(validateRunRequest(r).isEmpty(), qPrintable(issueFields(r).join(u", "_s)));
}

void TestSessionPlan::historyHoldsTheGivenAnswers()
{
    const SessionItem s = conversation();
    // Turn 3 (index 2) in the reproducible mode: the dataset's answers.
    const QStringList reference = {s.turns.at(0).reference, s.turns.at(1).reference};
    const TurnInput ref = buildTurnInput(s, 2, reference, {3, 3});
    QCOMPARE(ref.messages.size(), 1 + 2 * 2 + 1);
    QCOMPARE(ref.messages.at(0).toObject().value(u"role"_s).toString(), u"system"_s);
    QCOMPARE(ref.messages.at(2).toObject().value(u"content"_s).toString(), u"reference answer 0"_s);
    QCOMPARE(ref.messages.at(4).toObject().value(u"role"_s).toString(), u"assistant"_s);
    QCOMPARE(ref.messages.at(5).toObject().value(u"content"_s).toString(), u"question 2"_s);
    QCOMPARE(ref.historyTokens, 2 + (2 + 3) * 2);
    QCOMPARE(ref.inputTokens, ref.historyTokens + 2);
    QCOMPARE(ref.prompt, u"Be brief.\n\nquestion 0\n\nreference answer 0\n\nquestion 1\n\n"
                         "reference answer 1\n\nquestion 2"_s);
    // The realistic mode: what the server streamed, counted by its usage.
    const TurnInput served = buildTurnInput(s, 2, {u" alpha beta"_s, u" gamma"_s}, {2, 1});
    QCOMPARE(served.messages.at(2).toObject().value(u"content"_s).toString(), u" alpha beta"_s);
    QCOMPARE(served.messages.at(4).toObject().value(u"content"_s).toString(), u" gamma"_s);
    QCOMPARE(served.historyTokens, 2 + 2 + 2 + 2 + 1);
    QVERIFY(!served.prompt.contains(u"reference"_s));
    // The first turn has no history beyond the system prompt; a bust prefix leads every turn.
    const TurnInput first = buildTurnInput(s, 0, {}, {}, u"[x] "_s);
    QCOMPARE(first.messages.size(), 2);
    QCOMPARE(first.historyTokens, 2);
    QVERIFY(first.prompt.startsWith(u"[x] Be brief."_s));
    QVERIFY(buildTurnInput(s, 1, {u"a"_s}, {1}, u"[x] "_s).prompt.startsWith(u"[x] Be brief."_s));
}

void TestSessionPlan::thinkTimesAreReproducible()
{
    LoadProfile p;
    p.seed = 7;
    p.thinkTime = ThinkTimeModel::Exponential;
    p.thinkTimeMs = 1000;
    const SessionItem s = conversation();
    QCOMPARE(SessionController::thinkTimeNs(p, s, 0, 0), 0); // a session's first turn
    double sum = 0;
    const int n = 2000;
    for (int i = 0; i < n; ++i) {
        const qint64 a = SessionController::thinkTimeNs(p, s, i, 1);
        QCOMPARE(SessionController::thinkTimeNs(p, s, i, 1), a);
        QVERIFY(a >= 0);
        sum += double(a) / 1e6;
    }
    // The mean of 2000 exponential draws is within 10 % of 1000 ms with overwhelming odds.
    QVERIFY2(std::abs(sum / n - 1000) < 100, qPrintable(QString::number(sum / n)));
    p.seed = 8;
    QVERIFY(SessionController::thinkTimeNs(p, s, 0, 1) != ([&] {
                p.seed = 7;
                return SessionController::thinkTimeNs(p, s, 0, 1);
            })());
    p.thinkTime = ThinkTimeModel::Fixed;
    p.thinkTimeMs = 250;
    QCOMPARE(SessionController::thinkTimeNs(p, s, 3, 2), 250'000'000);
    p.thinkTime = ThinkTimeModel::Dataset;
    SessionItem withThink = s;
    withThink.turns[1].thinkTimeMs = 1200;
    QCOMPARE(SessionController::thinkTimeNs(p, withThink, 0, 1), 1'200'000'000);
    QCOMPARE(SessionController::thinkTimeNs(p, withThink, 0, 2), 0); // none given
}

QTEST_GUILESS_MAIN(TestSessionPlan)
#include "tst_sessionplan.moc"
