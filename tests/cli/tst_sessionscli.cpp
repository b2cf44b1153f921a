// Session workloads from the command line, as a new user runs them against the built-in
// simulator: synthetic sessions, ShareGPT with every turn, a Mooncake trace; what is printed,
// saved and stored, and what is refused.
#include "clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
using Result = sb::test::CliResult;
using sb::test::runCli;

QString data(const QString &name)
{
    return QStringLiteral(SB_TEST_DATA_DIR) + u'/' + name;
}

// Mean TTFT per turn from the "TTFT by turn" table of the session block.
QList<double> ttftByTurn(const QString &out)
{
    QList<double> v;
    const qsizetype at = out.indexOf(u"TTFT by turn"_s);
    if (at < 0)
        return v;
    const QStringList lines = out.mid(at).split(u'\n');
    static const QRegularExpression row(u"^(\\d+)\\s+\\d+/\\d+\\s+([0-9.]+)\\s"_s);
    for (const QString &l : lines) {
        const auto m = row.match(l);
        if (m.hasMatch())
            v.append(m.captured(2).toDouble());
    }
    return v;
}
} // namespace

class TestSessionsCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void syntheticSessionsEndToEnd();
    void shareGptEveryTurn();
    void firstTurnStaysTheDefault();
    void mooncakeTraceReplaysItsReuse();
    void refusedCombinationsNameTheFlag_data();
    void refusedCombinationsNameTheFlag();
    void badFilesNameLineAndField_data();
    void badFilesNameLineAndField();
};

void TestSessionsCli::syntheticSessionsEndToEnd()
{
    const QString project = m_dir.filePath(u"synthetic.sbproj"_s);
    const Result r = runCli({u"run"_s,
                             u"--multi-turn"_s,
                             u"--num-sessions"_s,
                             u"12"_s,
                             u"--session-turns"_s,
                             u"4"_s,
                             u"--session-prefix-len"_s,
                             u"1500"_s,
                             u"--random-prefix-len"_s,
                             u"64"_s,
                             u"--random-input-len"_s,
                             u"40"_s,
                             u"--random-output-len"_s,
                             u"6"_s,
                             u"--users"_s,
                             u"4"_s,
                             u"--think-time-ms"_s,
                             u"80"_s,
                             u"--project"_s,
                             project,
                             u"--save-result"_s,
                             u"--save-detailed"_s,
                             u"--result-dir"_s,
                             m_dir.path(),
                             u"--result-filename"_s,
                             u"synthetic.json"_s});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QVERIFY(r.out.contains(u"Sessions: 12, closed loop of 4 users, history: served, think time: "
                           "fixed 80.0 ms"_s));
    QVERIFY(r.err.contains(u"prefix cache"_s));
    QVERIFY(r.out.contains(QRegularExpression(u"Successful requests:\\s+48\\s"_s)));
    QVERIFY2(r.out.contains(u"Completed / failed / incomplete:         12 / 0 / 0"_s),
             qPrintable(r.out));
    // The prefix cache shows: turns 2+ are much faster than turn 1.
    const QList<double> ttft = ttftByTurn(r.out);
    QCOMPARE(ttft.size(), 4);
    for (int t = 1; t < 4; ++t)
        QVERIFY2(ttft.at(t) < 0.6 * ttft.at(0), qPrintable(r.out));
    const auto think =
        QRegularExpression(u"Think time measured \\(ms, mean\\):\\s+([0-9.]+)"_s).match(r.out);
    QVERIFY(think.hasMatch());
    QVERIFY(think.captured(1).toDouble() >= 80.0);

    // The result JSON: vLLM's flat keys, ServeBench's session view.
    QFile f(m_dir.filePath(u"synthetic.json"_s));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(o.value(u"completed"_s).toInt(), 48);
    QVERIFY(o.contains(u"mean_ttft_ms"_s));
    QCOMPARE(o.value(u"ttfts"_s).toArray().size(), 48);
    QCOMPARE(o.value(u"session_ids"_s).toArray().size(), 48);
    QCOMPARE(o.value(u"turn_indices"_s).toArray().size(), 48);
    const QJsonObject s = o.value(u"sessions"_s).toObject();
    QCOMPARE(s.value(u"sessions"_s).toInt(), 12);
    QCOMPARE(s.value(u"history"_s).toString(), u"served"_s);
    QCOMPARE(s.value(u"think_time_model"_s).toString(), u"fixed"_s);
    QCOMPARE(s.value(u"per_turn"_s).toArray().size(), 4);
    QVERIFY(s.value(u"input_tokens"_s).toObject().value(u"cache_hit_rate"_s).toDouble() > 0.5);

    // The project file holds the sessions; show recomputes the same block.
    const Result show = runCli({u"show"_s, u"--project"_s, project, u"--run"_s, u"1"_s});
    QCOMPARE(show.code, 0);
    const QString block = r.out.mid(r.out.indexOf(u"==================== Sessions"_s));
    QVERIFY(block.size() > 100);
    QVERIFY2(show.out.contains(block.left(block.indexOf(u"Recorded in"_s))), qPrintable(show.out));
    const Result csv =
        runCli({u"export"_s, u"--project"_s, project, u"--run"_s, u"1"_s, u"--format"_s, u"csv"_s});
    QCOMPARE(csv.code, 0);
    const QStringList lines = csv.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 49);
    QVERIFY(
        lines.first().endsWith(u",session_id,turn,session_turns,history_tokens,think_time_ms"_s));
}

void TestSessionsCli::shareGptEveryTurn()
{
    const Result r = runCli({u"run"_s, u"--multi-turn"_s, u"--dataset-name"_s, u"sharegpt"_s,
                             u"--dataset-path"_s, data(u"sessions/sharegpt_sessions.json"_s),
                             u"--num-sessions"_s, u"3"_s, u"--sharegpt-output-len"_s, u"4"_s,
                             u"--backend"_s, u"openai-chat"_s, u"--history"_s, u"reference"_s});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    // 4 usable conversations with a fixed output length; 3 sampled, 1 + 2 + 1 or 2 turns each.
    QVERIFY2(r.out.contains(QRegularExpression(u"\nSessions:\\s+3\n"_s)), qPrintable(r.out));
    QVERIFY(r.out.contains(QRegularExpression(u"History:\\s+reference\n"_s)));
    QVERIFY(ttftByTurn(r.out).size() >= 2);
}

void TestSessionsCli::firstTurnStaysTheDefault()
{
    const Result r = runCli({u"run"_s, u"--dataset-name"_s, u"sharegpt"_s, u"--dataset-path"_s,
                             data(u"sessions/sharegpt_sessions.json"_s), u"--num-prompts"_s, u"2"_s,
                             u"--sharegpt-output-len"_s, u"4"_s});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QVERIFY(!r.out.contains(u"Sessions"_s));
    QVERIFY(r.out.contains(QRegularExpression(u"Successful requests:\\s+2\\s"_s)));
}

void TestSessionsCli::mooncakeTraceReplaysItsReuse()
{
    const Result r =
        runCli({u"run"_s, u"--trace"_s, data(u"traces/mooncake_conversation_sample.jsonl"_s),
                u"--trace-format"_s, u"mooncake"_s, u"--trace-time-scale"_s, u"0.01"_s},
               300000);
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QVERIFY(r.out.contains(QRegularExpression(u"Successful requests:\\s+124\\s"_s)));
    QVERIFY(r.out.contains(QRegularExpression(u"Total input tokens:\\s+633090\\s"_s)));
    // The hash ids imply 89,088 reusable tokens at the simulator's 16-token blocks; the
    // simulator's usage reports exactly those as cached.
    QVERIFY2(r.err.contains(u"reuse 14.07 % of the input tokens"_s), qPrintable(r.err));
    QVERIFY2(r.out.contains(QRegularExpression(u"Cached prompt tokens:\\s+89088\\s"_s)),
             qPrintable(r.out));
}

void TestSessionsCli::refusedCombinationsNameTheFlag_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::newRow("MLPerf") << QStringList{u"--multi-turn"_s, u"--scenario"_s, u"server"_s,
                                           u"--request-rate"_s, u"1"_s}
                            << u"--scenario must be none for a session workload: MLPerf "
                               "scenarios are single-request"_s;
    QTest::newRow("request rate") << QStringList{u"--multi-turn"_s, u"--request-rate"_s, u"3"_s}
                                  << u"--request-rate applies to single requests"_s;
    // docs/sessions.md: refused, naming the flag (it used to be ignored and the run went on).
    QTest::newRow("num prompts") << QStringList{u"--multi-turn"_s, u"--num-prompts"_s, u"5"_s,
                                                u"--num-sessions"_s, u"2"_s}
                                 << u"--num-prompts counts single requests"_s;
    QTest::newRow("users without sessions")
        << QStringList{u"--users"_s, u"3"_s} << u"--users applies only to session workloads"_s;
    QTest::newRow("bad history") << QStringList{u"--multi-turn"_s, u"--history"_s, u"both"_s}
                                 << u"--history must be served or reference"_s;
}

void TestSessionsCli::refusedCombinationsNameTheFlag()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const Result r = runCli(QStringList{u"run"_s} + args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
}

void TestSessionsCli::badFilesNameLineAndField_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::newRow("custom roles") << QStringList{u"--multi-turn"_s, u"--dataset-name"_s,
                                                 u"custom"_s, u"--dataset-path"_s,
                                                 data(u"sessions/custom_roles_order.jsonl"_s)}
                                  << u"custom_roles_order.jsonl:1: field \"messages[1].role\""_s;
    QTest::newRow("custom empty") << QStringList{u"--multi-turn"_s, u"--dataset-name"_s,
                                                 u"custom"_s, u"--dataset-path"_s,
                                                 data(u"sessions/custom_empty_message.jsonl"_s)}
                                  << u"custom_empty_message.jsonl:2: field "
                                     "\"messages[1].content\" is empty"_s;
    QTest::newRow("mooncake without hash ids")
        << QStringList{u"--trace"_s, data(u"traces/mooncake_bad_no_hash_ids.jsonl"_s),
                       u"--trace-format"_s, u"mooncake"_s}
        << u"mooncake_bad_no_hash_ids.jsonl:2: field 'hash_ids' is missing"_s;
    QTest::newRow("mooncake backwards")
        << QStringList{u"--trace"_s, data(u"traces/mooncake_bad_backwards.jsonl"_s),
                       u"--trace-format"_s, u"mooncake"_s}
        << u"mooncake_bad_backwards.jsonl:3: field 'timestamp' 150 is earlier than line 2's 200"_s;
    QTest::newRow("mooncake count")
        << QStringList{u"--trace"_s, data(u"traces/mooncake_bad_count.jsonl"_s),
                       u"--trace-format"_s, u"mooncake"_s}
        << u"mooncake_bad_count.jsonl:1: field 'hash_ids' has 2 ids"_s;
}

void TestSessionsCli::badFilesNameLineAndField()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const Result r = runCli(QStringList{u"run"_s} + args);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    QVERIFY(!r.out.contains(u"Serving Benchmark Result"_s)); // nothing ran
}

QTEST_GUILESS_MAIN(TestSessionsCli)
#include "tst_sessionscli.moc"
