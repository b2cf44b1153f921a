// Session workloads through the whole pipeline (prepareRun, RunSession, SessionController)
// against the built-in simulator: history in both modes, think time, the prefix cache seen by
// turn, a Mooncake replay's reuse, sessions in the project file, failures and affinity.

#include "data/dataset.h"
#include "data/mooncaketrace.h"
#include "report/runreport.h"
#include "run/runflags.h"
#include "run/runpreparation.h"
#include "run/runsession.h"
#include "run/sessioncontroller.h"
#include "schedprobe.h"
#include "sim/simrenderer.h"
#include "sim/simulator.h"
#include "store/projectstore.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

struct Ran
{
    bool ok = false;
    QString error;
    RunOutcome outcome;
    std::shared_ptr<Simulator> simulator;
    QList<SessionItem> sessions;
    QStringList notes;
};

RunRequest sessionRequest(int sessions, int turns, int inputLen, int outputLen)
{
    RunRequest r;
    r.plan.sut.builtInSimulator = true;
    r.calibrateTokens = false;
    r.plan.dataset.multiTurn = true;
    r.plan.dataset.sessionTurns = turns;
    r.plan.dataset.randomInputLen = inputLen;
    r.plan.dataset.randomOutputLen = outputLen;
    r.plan.profile.numSessions = sessions;
    r.plan.profile.seed = 3;
    r.plan.params.ignoreEos = true;
    return r;
}

Ran run(const RunRequest &request, const QString &project = {},
        const std::function<void(PreparedRun &)> &tweak = {})
{
    Ran out;
    PrepareContext context;
    PreparedRun prepared;
    PlanIssue issue;
    if (!prepareRun(request, context, &prepared, &issue)) {
        out.error = issue.text();
        return out;
    }
    out.simulator = prepared.simulator;
    out.sessions = prepared.dataset.sessions;
    out.notes = prepared.notes;
    if (tweak)
        tweak(prepared);
    RunSession session(std::move(prepared));
    if (!project.isEmpty() && !session.openProject(project, &out.error))
        return out;
    QObject::connect(&session, &RunSession::runFinished, &session,
                     [&out](const RunOutcome &o) { out.outcome = o; });
    QSignalSpy finished(&session, &RunSession::finished);
    if (!session.start(&out.error))
        return out;
    if (!finished.wait(120000)) {
        out.error = u"the run did not finish"_s;
        session.stop();
        finished.wait(10000);
        return out;
    }
    out.ok = session.result().ok;
    if (!out.ok)
        out.error = session.result().error;
    return out;
}

const RequestRecord *findTurn(const QList<RequestRecord> &records, qint64 session, int turn)
{
    for (const RequestRecord &r : records)
        if (r.sessionId == session && r.turnIndex == turn)
            return &r;
    return nullptr;
}

const SimLogEntry *logFor(const QList<SimLogEntry> &log, const QString &requestId)
{
    for (const SimLogEntry &e : log)
        if (e.requestId == requestId)
            return &e;
    return nullptr;
}

} // namespace

class TestSessionRuns : public QObject
{
    Q_OBJECT
private slots:
    void historyServedOrReference_data();
    void historyServedOrReference();
    void thinkTimeIsRespected();
    void cacheSizeShowsInTtftByTurn();
    void mooncakeReplayReproducesTheTraceReuse();
    void sessionsAreStoredAndReadBack();
    void aFailedTurnEndsItsSession();
    void affinityHeaderNamesTheSession();
    void openLoopSessionsPileUp();
    void olderProjectFilesReadAsSingleRequests();
};

void TestSessionRuns::historyServedOrReference_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("flavour");
    QTest::newRow("served, chat") << int(HistoryMode::Served) << int(ApiFlavour::Chat);
    QTest::newRow("reference, chat") << int(HistoryMode::Reference) << int(ApiFlavour::Chat);
    QTest::newRow("served, completions")
        << int(HistoryMode::Served) << int(ApiFlavour::Completions);
}

void TestSessionRuns::historyServedOrReference()
{
    QFETCH(int, mode);
    QFETCH(int, flavour);
    // 40 new words and 40 answer tokens per turn: turn 1 resends 80 words, five full blocks of
    // the simulator's 16 — all cached when the history holds what the simulator generated
    // (and cached with its answer), only the first two when it holds the dataset's answer.
    RunRequest req = sessionRequest(2, 2, 40, 40);
    req.plan.profile.sessionUsers = 1;
    req.plan.profile.history = HistoryMode(mode);
    req.plan.sut.flavour = ApiFlavour(flavour);
    const Ran r = run(req);
    QVERIFY2(r.ok, qPrintable(r.error));
    const QList<RequestRecord> records = r.outcome.input.records.list();
    QCOMPARE(records.size(), 4);
    const QList<SimLogEntry> log = r.simulator->requestLog();
    for (qint64 s = 0; s < 2; ++s) {
        const RequestRecord *t0 = findTurn(records, s, 0);
        const RequestRecord *t1 = findTurn(records, s, 1);
        QVERIFY(t0 && t1);
        QVERIFY(t0->ok() && t1->ok());
        QVERIFY(t0->outputText.isEmpty()); // records never keep the text
        const SimLogEntry *e0 = logFor(log, t0->requestId);
        const SimLogEntry *e1 = logFor(log, t1->requestId);
        QVERIFY(e0 && e1);
        QString served;
        for (int i = 0; i < e0->completionTokens; ++i)
            served += QString::fromUtf8(SimRenderer::tokenText(e0->seq, i));
        const SessionItem &item = r.sessions.at(int(s));
        QVERIFY(e1->prompt.contains(item.turns.at(0).user));
        QVERIFY(e1->prompt.contains(item.turns.at(1).user));
        if (HistoryMode(mode) == HistoryMode::Served) {
            QVERIFY2(e1->prompt.contains(served), qPrintable(e1->prompt));
            QCOMPARE(t1->cachedTokens, 80);
        } else {
            QVERIFY(!e1->prompt.contains(served));
            QVERIFY(e1->prompt.contains(item.turns.at(0).reference));
            QCOMPARE(t1->cachedTokens, 32);
        }
        QCOMPARE(t1->historyTokens, 40 + 40);
        QCOMPARE(t1->expectedInputTokens, 120);
        QCOMPARE(t1->inputTokens, 120); // the simulator counts the same words
    }
    QCOMPARE(r.outcome.input.snapshot.value(u"load_profile"_s)
                 .toObject()
                 .value(u"sessions"_s)
                 .toObject()
                 .value(u"history"_s)
                 .toString(),
             QString::fromLatin1(historyModeName(HistoryMode(mode))));
}

void TestSessionRuns::thinkTimeIsRespected()
{
    RunRequest req = sessionRequest(4, 3, 10, 3);
    req.plan.profile.sessionUsers = 2;
    req.plan.profile.thinkTime = ThinkTimeModel::Exponential;
    req.plan.profile.thinkTimeMs = 150;
    sb::test::SchedProbe probe; // how late this machine wakes a thread during the run
    const Ran r = run(req);
    probe.stop();
    QVERIFY2(r.ok, qPrintable(r.error));
    const QList<RequestRecord> records = r.outcome.input.records.list();
    QCOMPARE(records.size(), 12);
    int gaps = 0;
    for (const RequestRecord &rec : records) {
        if (rec.turnIndex == 0) {
            QCOMPARE(rec.thinkNs, 0);
            continue;
        }
        // The think time drawn is the plan's, reproducibly.
        QCOMPARE(rec.thinkNs, SessionController::thinkTimeNs(req.plan.profile,
                                                             r.sessions.at(int(rec.sessionId % 4)),
                                                             rec.sessionId, rec.turnIndex));
        const RequestRecord *prev = findTurn(records, rec.sessionId, rec.turnIndex - 1);
        QVERIFY(prev);
        const qint64 gap = rec.tSend - prev->tEnd;
        // Never early; late by less than half a second plus the longest wake-up delay this
        // machine showed during the run (measured, not assumed).
        QVERIFY2(gap >= rec.thinkNs, qPrintable(u"%1 < %2"_s.arg(gap).arg(rec.thinkNs)));
        QVERIFY2(
            gap < rec.thinkNs + 500'000'000 + qint64(probe.maxMs() * 1e6),
            qPrintable(u"gap %1 ns, think %2 ns, longest wake-up delay measured %3 ms"_s.arg(gap)
                           .arg(rec.thinkNs)
                           .arg(probe.maxMs())));
        ++gaps;
    }
    QCOMPARE(gaps, 8);
    const SessionSummary &s = r.outcome.derived.sessions;
    QCOMPARE(s.thinkMeasured.count, 8);
    QVERIFY(s.thinkExcess.min >= 0);
}

void TestSessionRuns::cacheSizeShowsInTtftByTurn()
{
    // A long context of its own in each session's first message, short follow-ups: with room in
    // the cache, turns 2+ pay only for their new tokens; with 8 blocks, every turn pays again.
    QMap<int, QList<double>> ttftByTurn;
    QMap<int, quint64> evictions;
    // The simulator is never early, only late by how late this machine wakes its threads: the
    // bounds below allow the longest such delay measured during the runs, nothing fixed.
    sb::test::SchedProbe probe;
    for (const int blocks : {100000, 8}) {
        RunRequest req = sessionRequest(6, 4, 30, 5);
        req.plan.dataset.sessionPrefixLen = 2000;
        req.plan.profile.sessionUsers = 3;
        req.plan.sut.simPrefixCacheBlocks = blocks;
        const Ran r = run(req);
        QVERIFY2(r.ok, qPrintable(r.error));
        for (const TurnSummary &t : r.outcome.derived.sessions.turns)
            ttftByTurn[blocks].append(t.ttft.mean);
        evictions[blocks] = r.simulator->prefixCacheState().evictions;
    }
    probe.stop();
    const double late = probe.maxMs();
    const QList<double> large = ttftByTurn.value(100000), tiny = ttftByTurn.value(8);
    QCOMPARE(large.size(), 4);
    QCOMPARE(tiny.size(), 4);
    qInfo() << "TTFT by turn (ms), large cache:" << large << "tiny cache:" << tiny
            << "longest wake-up delay measured:" << late;
    for (int t = 1; t < 4; ++t) {
        QVERIFY2(large.at(t) < 0.6 * large.at(0) + late,
                 qPrintable(u"large cache, turn %1: %2 ms against turn 0's %3 ms (longest "
                            "wake-up delay measured %4 ms)"_s.arg(t)
                                .arg(large.at(t))
                                .arg(large.at(0))
                                .arg(late)));
        QVERIFY2(tiny.at(t) > 0.95 * tiny.at(0) - late,
                 qPrintable(u"tiny cache, turn %1: %2 ms against turn 0's %3 ms (longest "
                            "wake-up delay measured %4 ms)"_s.arg(t)
                                .arg(tiny.at(t))
                                .arg(tiny.at(0))
                                .arg(late)));
    }
    QCOMPARE(evictions.value(100000), 0);
    QVERIFY(evictions.value(8) > 1000);
}

void TestSessionRuns::mooncakeReplayReproducesTheTraceReuse()
{
    const QString trace =
        QStringLiteral(SB_TEST_DATA_DIR) + u"/traces/mooncake_conversation_sample.jsonl"_s;
    RunRequest req;
    req.plan.sut.builtInSimulator = true;
    req.calibrateTokens = false;
    req.plan.profile.tracePath = trace;
    req.plan.profile.traceFormat = TraceFormat::Mooncake;
    req.plan.profile.traceTimeScale = 0.01;
    req.plan.params.ignoreEos = true;
    // Replay faster than the trace's answers: 1 ms per token (the timing is not under test).
    const Ran r = run(req, {}, [](PreparedRun &p) {
        SimConfig c = p.simulator->config();
        c.itlMs = 1;
        p.simulator->setConfig(c);
    });
    QVERIFY2(r.ok, qPrintable(r.error));
    const QList<RequestRecord> records = r.outcome.input.records.list();
    QCOMPARE(records.size(), 124);
    qint64 input = 0, cached = 0;
    for (const RequestRecord &rec : records) {
        QVERIFY2(rec.ok(), qPrintable(rec.errorMessage));
        input += rec.inputTokens;
        cached += rec.cachedTokens;
    }
    QList<MooncakeRow> rows;
    QString error;
    QVERIFY(loadMooncakeTrace(trace, 512, &rows, &error));
    const TracePrefixReuse expected = mooncakePrefixReuse(rows, 512, 16);
    qInfo("Mooncake sample: simulator hit rate %.4f %% (%lld of %lld tokens), from the hash ids "
          "%.4f %%",
          100.0 * double(cached) / double(input), cached, input, 100.0 * expected.hitRate);
    QCOMPARE(input, expected.inputTokens);
    QCOMPARE(cached, expected.cachedTokens);
    // The same figure in the run's dataset identity and in its summary.
    const QJsonObject reuse = r.outcome.input.snapshot.value(u"dataset_info"_s)
                                  .toObject()
                                  .value(u"trace_prefix_reuse"_s)
                                  .toObject();
    QCOMPARE(reuse.value(u"reusable_tokens"_s).toInteger(), expected.cachedTokens);
    QCOMPARE(r.outcome.derived.summary.cachedTokens, expected.cachedTokens);
}

void TestSessionRuns::sessionsAreStoredAndReadBack()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(u"s.sbproj"_s);
    RunRequest req = sessionRequest(3, 3, 12, 4);
    req.plan.profile.sessionRate = 20;
    req.plan.profile.thinkTime = ThinkTimeModel::Fixed;
    req.plan.profile.thinkTimeMs = 30;
    const Ran r = run(req, project);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.outcome.storedRunId > 0);

    ProjectStore store;
    QVERIFY2(store.open(project, ProjectStore::OpenMode::ReadOnly), qPrintable(store.lastError()));
    const QList<RequestRecord> stored = store.loadRequests(r.outcome.storedRunId);
    QCOMPARE(stored.size(), 9);
    const QList<RequestRecord> liveRecords = r.outcome.input.records.list();
    for (const RequestRecord &s : stored) {
        const RequestRecord *live = findTurn(liveRecords, s.sessionId, s.turnIndex);
        QVERIFY(live);
        QCOMPARE(s.index, live->index);
        QCOMPARE(s.sessionTurns, 3);
        QCOMPARE(s.historyTokens, live->historyTokens);
        QCOMPARE(s.thinkNs, live->thinkNs);
        QCOMPARE(s.cachedTokens, live->cachedTokens);
    }
    // The per-turn view recomputed from the file equals the one derived at the end of the run.
    RunReportInput in;
    in.plan = req.plan;
    QString error;
    QVERIFY(loadStoredRunForReport(store, r.outcome.storedRunId,
                                   SummaryOptions::forProfile(req.plan.profile), &in, &error));
    const RunDerivation again = deriveRun(in);
    QVERIFY(again.sessions.present);
    QCOMPARE(again.sessions.toJson(), r.outcome.derived.sessions.toJson());
    // The stored command reproduces the plan.
    const QString command = r.outcome.input.snapshot.value(u"command"_s).toString();
    QVERIFY2(command.contains(u"--multi-turn"_s) && command.contains(u"--session-rate 20"_s),
             qPrintable(command));
    QCOMPARE(r.outcome.input.snapshot.value(u"prefix_cache"_s)
                 .toObject()
                 .value(u"state_at_start"_s)
                 .toString(),
             u"empty"_s);
}

void TestSessionRuns::aFailedTurnEndsItsSession()
{
    RunRequest req = sessionRequest(20, 4, 8, 2);
    req.plan.profile.sessionUsers = 4;
    const Ran r = run(req, {}, [](PreparedRun &p) {
        SimConfig c = p.simulator->config();
        c.setFaultRate(SimFault::Http500, 0.25);
        p.simulator->setConfig(c);
    });
    QVERIFY2(r.ok, qPrintable(r.error));
    const QList<RequestRecord> records = r.outcome.input.records.list();
    QMap<qint64, int> firstFailure;
    for (const RequestRecord &rec : records)
        if (!rec.ok())
            firstFailure.insert(rec.sessionId,
                                std::min(firstFailure.value(rec.sessionId, 99), rec.turnIndex));
    QVERIFY(!firstFailure.isEmpty());
    for (const RequestRecord &rec : records)
        if (firstFailure.contains(rec.sessionId))
            QVERIFY2(rec.turnIndex <= firstFailure.value(rec.sessionId),
                     "a turn was sent after its session failed");
    const SessionSummary &s = r.outcome.derived.sessions;
    QCOMPARE(s.sessions, 20);
    QCOMPARE(s.failed, firstFailure.size());
    QCOMPARE(s.completed + s.failed + s.incomplete, s.sessions);
    qint64 notSent = 0;
    for (auto it = firstFailure.cbegin(); it != firstFailure.cend(); ++it)
        notSent += 4 - 1 - it.value();
    QCOMPARE(s.turnsNotSent, notSent);
    QCOMPARE(s.turnsFailed, firstFailure.size());
}

void TestSessionRuns::affinityHeaderNamesTheSession()
{
    RunRequest req = sessionRequest(3, 2, 8, 2);
    req.plan.profile.sessionHeader = u"X-Session-ID"_s;
    const Ran r = run(req);
    QVERIFY2(r.ok, qPrintable(r.error));
    const QList<SimLogEntry> log = r.simulator->requestLog();
    QMap<qint64, QByteArray> valueOfSession;
    for (const RequestRecord &rec : r.outcome.input.records) {
        const SimLogEntry *e = logFor(log, rec.requestId);
        QVERIFY(e);
        QByteArray value;
        for (const auto &[name, v] : e->headers)
            if (name == "x-session-id")
                value = v;
        QVERIFY(!value.isEmpty());
        if (valueOfSession.contains(rec.sessionId))
            QCOMPARE(value, valueOfSession.value(rec.sessionId));
        valueOfSession.insert(rec.sessionId, value);
    }
    QCOMPARE(valueOfSession.size(), 3);
    QCOMPARE(QSet<QByteArray>(valueOfSession.cbegin(), valueOfSession.cend()).size(), 3);
}

void TestSessionRuns::openLoopSessionsPileUp()
{
    // One sequence at a time in the simulator: sessions arriving faster than it serves them pile
    // up, where a closed loop of two users never has more than two.
    const auto slow = [](PreparedRun &p) {
        SimConfig c = p.simulator->config();
        c.capacity = 1;
        p.simulator->setConfig(c);
    };
    RunRequest open = sessionRequest(12, 2, 8, 3);
    open.plan.profile.sessionRate = 100;
    const Ran a = run(open, {}, slow);
    QVERIFY2(a.ok, qPrintable(a.error));
    RunRequest closed = sessionRequest(12, 2, 8, 3);
    closed.plan.profile.sessionUsers = 2;
    const Ran b = run(closed, {}, slow);
    QVERIFY2(b.ok, qPrintable(b.error));
    qInfo() << "peak active sessions: open loop" << a.outcome.derived.sessions.peakActiveSessions
            << "closed loop" << b.outcome.derived.sessions.peakActiveSessions;
    QVERIFY(a.outcome.derived.sessions.peakActiveSessions > 4);
    QVERIFY(b.outcome.derived.sessions.peakActiveSessions <= 2);
}

void TestSessionRuns::olderProjectFilesReadAsSingleRequests()
{
    // A version-1 file (tests/store keeps a real one) has no session columns: read-only it is
    // read without them, read-write it is migrated; either way its requests are no session's.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"v1.sbproj"_s);
    QVERIFY(QFile::copy(QStringLiteral(SB_TEST_DATA_DIR) + u"/../store/data/project_v1.sbproj"_s,
                        path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    for (const auto mode : {ProjectStore::OpenMode::ReadOnly, ProjectStore::OpenMode::ReadWrite}) {
        ProjectStore store;
        QVERIFY2(store.open(path, mode), qPrintable(store.lastError()));
        const QList<RequestRecord> records = store.loadRequests(1);
        QVERIFY2(records.size() == 40, qPrintable(store.lastError()));
        for (const RequestRecord &r : records) {
            QVERIFY(!r.inSession());
            QCOMPARE(r.turnIndex, -1);
            QCOMPARE(r.thinkNs, -1);
        }
    }
}

QTEST_GUILESS_MAIN(TestSessionRuns)
#include "tst_sessionruns.moc"
