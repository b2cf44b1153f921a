// Session datasets and Mooncake traces: what loads, what is refused (file, line and field), and
// the prefix reuse a trace's hash ids imply.

#include "config/runplan.h"
#include "data/dataset.h"
#include "data/mooncaketrace.h"
#include "data/sessiondataset.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {
QString dataFile(const QString &name)
{
    return QStringLiteral(SB_TEST_DATA_DIR) + u'/' + name;
}

DatasetSpec sessionSpec(DatasetKind kind, const QString &path)
{
    DatasetSpec d;
    d.kind = kind;
    d.path = path;
    d.multiTurn = true;
    return d;
}
} // namespace

class TestSessionDataset : public QObject
{
    Q_OBJECT
private slots:
    void customSessionsLoad();
    void customBadInputNamesLineAndField_data();
    void customBadInputNamesLineAndField();
    void shareGptSkipsAndCounts();
    void shareGptTrailingQuestionNeedsFixedLength();
    void syntheticSessionsShareTheSystemPrompt();
    void multiTurnChangesTheIdentityOnlyForSessions();
    void mooncakeSampleParses();
    void mooncakeBadInput_data();
    void mooncakeBadInput();
    void mooncakePromptsShareBlocksByHashId();
    void mooncakeReuseByHand();
};

void TestSessionDataset::customSessionsLoad()
{
    LoadedDataset ds;
    QString error;
    QVERIFY2(
        loadDataset(sessionSpec(DatasetKind::Custom, dataFile(u"sessions/custom_sessions.jsonl"_s)),
                    0, 1, &ds, &error),
        qPrintable(error));
    QCOMPARE(ds.sessions.size(), 3);
    QVERIFY(ds.items.isEmpty());
    QVERIFY(ds.info.sessions);
    QCOMPARE(ds.info.turns, 2 + 3 + 1);
    QCOMPARE(ds.info.sampled, 3);
    // Sampling shuffles: find each session by its line.
    QMap<int, SessionItem> byLine;
    for (const SessionItem &s : std::as_const(ds.sessions))
        byLine.insert(s.sourceIndex, s);
    QCOMPARE(byLine.keys(), (QList<int>{1, 2, 4}));
    const SessionItem &rivers = byLine.value(1);
    QCOMPARE(rivers.system, u"You are a terse assistant."_s);
    QCOMPARE(rivers.turns.size(), 2);
    QCOMPARE(rivers.turns.at(1).user, u"Which is the longest?"_s);
    QCOMPARE(rivers.turns.at(1).reference, u"The Danube."_s);
    QCOMPARE(rivers.turns.at(1).thinkTimeMs, 250.0);
    QCOMPARE(rivers.turns.at(0).thinkTimeMs, -1.0);
    // Output length: the reference answer's count.
    QCOMPARE(rivers.turns.at(0).outputTokens, rivers.turns.at(0).referenceTokens);
    const SessionItem &haiku = byLine.value(2);
    QCOMPARE(haiku.turns.size(), 3);
    QVERIFY(haiku.turns.at(2).reference.isEmpty()); // the last question has no answer
    QCOMPARE(haiku.turns.at(2).thinkTimeMs, 400.0);
    QCOMPARE(haiku.turns.at(2).outputTokens, qint32(kCustomDefaultOutputLen));
    // A line's output_tokens is for a trailing question only: the reference answer decides.
    QCOMPARE(byLine.value(4).turns.at(0).outputTokens, byLine.value(4).turns.at(0).referenceTokens);
    QVERIFY(byLine.value(4).turns.at(0).outputTokens != 8);

    // max turns cuts sessions short.
    DatasetSpec capped =
        sessionSpec(DatasetKind::Custom, dataFile(u"sessions/custom_sessions.jsonl"_s));
    capped.maxTurns = 1;
    QVERIFY(loadDataset(capped, 0, 1, &ds, &error));
    for (const SessionItem &s : std::as_const(ds.sessions))
        QCOMPARE(s.turns.size(), 1);
}

void TestSessionDataset::customBadInputNamesLineAndField_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("what");
    QTest::newRow("no user") << u"custom_no_user.jsonl"_s << u"custom_no_user.jsonl:2"_s
                             << u"no user message"_s;
    QTest::newRow("two users") << u"custom_roles_order.jsonl"_s << u"custom_roles_order.jsonl:1"_s
                               << u"messages[1].role"_s;
    QTest::newRow("assistant first")
        << u"custom_assistant_first.jsonl"_s << u"custom_assistant_first.jsonl:1"_s
        << u"messages[0].role"_s;
    QTest::newRow("empty message") << u"custom_empty_message.jsonl"_s
                                   << u"custom_empty_message.jsonl:2"_s << u"messages[1].content"_s;
    QTest::newRow("unknown role") << u"custom_unknown_role.jsonl"_s
                                  << u"custom_unknown_role.jsonl:1"_s << u"\"tool\""_s;
    QTest::newRow("prompt only") << u"custom_prompt_only.jsonl"_s << u"custom_prompt_only.jsonl:1"_s
                                 << u"\"messages\""_s;
    QTest::newRow("bad think time") << u"custom_bad_think.jsonl"_s << u"custom_bad_think.jsonl:1"_s
                                    << u"messages[2].think_time_ms"_s;
}

void TestSessionDataset::customBadInputNamesLineAndField()
{
    QFETCH(QString, file);
    QFETCH(QString, where);
    QFETCH(QString, what);
    LoadedDataset ds;
    ds.info.itemCount = 77; // untouched on failure
    QString error;
    QVERIFY(!loadDataset(sessionSpec(DatasetKind::Custom, dataFile(u"sessions/"_s + file)), 0, 1,
                         &ds, &error));
    QVERIFY2(error.contains(where), qPrintable(error));
    QVERIFY2(error.contains(what), qPrintable(error));
    QCOMPARE(ds.info.itemCount, 77);
    QVERIFY(ds.sessions.isEmpty());
}

void TestSessionDataset::shareGptSkipsAndCounts()
{
    LoadedDataset ds;
    QString error;
    QVERIFY2(loadDataset(
                 sessionSpec(DatasetKind::ShareGpt, dataFile(u"sessions/sharegpt_sessions.json"_s)),
                 0, 3, &ds, &error),
             qPrintable(error));
    QCOMPARE(ds.info.sourceItems, 8);
    QCOMPARE(ds.info.itemCount, 3);
    QCOMPARE(ds.info.skipped, 5);
    QCOMPARE(ds.info.skipReasons.value(u"roles_out_of_order"_s), 2);
    QCOMPARE(ds.info.skipReasons.value(u"empty_message"_s), 1);
    QCOMPARE(ds.info.skipReasons.value(u"no_user_turn"_s), 1);
    QCOMPARE(ds.info.skipReasons.value(u"no_assistant_reply"_s), 1);
    QMap<int, SessionItem> byIndex;
    for (const SessionItem &s : std::as_const(ds.sessions))
        byIndex.insert(s.sourceIndex, s);
    QCOMPARE(byIndex.keys(), (QList<int>{0, 1, 2}));
    QCOMPARE(byIndex.value(0).turns.size(), 2); // every turn, not the first only
    QCOMPARE(byIndex.value(0).turns.at(1).user, u"Why does it help chat?"_s);
    QCOMPARE(byIndex.value(1).system, u"Answer in one sentence."_s);
    QCOMPARE(byIndex.value(2).turns.size(), 1); // the unanswered question is dropped
}

void TestSessionDataset::shareGptTrailingQuestionNeedsFixedLength()
{
    DatasetSpec d =
        sessionSpec(DatasetKind::ShareGpt, dataFile(u"sessions/sharegpt_sessions.json"_s));
    d.sharegptOutputLen = 12;
    LoadedDataset ds;
    QString error;
    QVERIFY2(loadDataset(d, 0, 3, &ds, &error), qPrintable(error));
    QCOMPARE(ds.info.itemCount, 4); // "only_question" is usable now
    for (const SessionItem &s : std::as_const(ds.sessions)) {
        if (s.sourceIndex == 2)
            QCOMPARE(s.turns.size(), 2);
        for (const SessionTurn &t : s.turns)
            QCOMPARE(t.outputTokens, 12);
    }
}

void TestSessionDataset::syntheticSessionsShareTheSystemPrompt()
{
    DatasetSpec d;
    d.multiTurn = true;
    d.sessionTurns = 3;
    d.randomInputLen = 20;
    d.randomOutputLen = 7;
    d.randomPrefixLen = 30;
    d.sessionPrefixLen = 50;
    LoadedDataset a, b;
    QString error;
    QVERIFY2(loadDataset(d, 5, 9, &a, &error), qPrintable(error));
    QVERIFY(loadDataset(d, 5, 9, &b, &error));
    QCOMPARE(a.sessions.size(), 5);
    QCOMPARE(a.info.turns, 15);
    for (qsizetype i = 0; i < a.sessions.size(); ++i) {
        const SessionItem &s = a.sessions.at(i);
        QCOMPARE(s.system, a.sessions.first().system); // one system prompt for all
        QCOMPARE(s.system.split(u' ').size(), 30);
        QCOMPARE(s.systemTokens, 30);
        QCOMPARE(s.turns.size(), 3);
        QCOMPARE(s.turns.at(0).userTokens, 20 + 50); // the session's own context
        QCOMPARE(s.turns.at(0).user.split(u' ').size(), 70);
        QCOMPARE(s.turns.at(1).userTokens, 20);
        QCOMPARE(s.turns.at(1).reference.split(u' ').size(), 7);
        QCOMPARE(s.turns.at(1).outputTokens, 7);
        // Reproducible from the seed.
        QCOMPARE(s.turns.at(2).user, b.sessions.at(i).turns.at(2).user);
    }
    QVERIFY(a.sessions.at(0).turns.at(0).user != a.sessions.at(1).turns.at(0).user);
    QCOMPARE(a.info.sha256, b.info.sha256);
}

void TestSessionDataset::multiTurnChangesTheIdentityOnlyForSessions()
{
    DatasetSpec single;
    const QJsonObject before = canonicalDatasetParameters(single, 10, 1);
    QVERIFY(!before.contains(u"multi_turn"_s)); // single-request datasets keep their hash
    DatasetSpec multi = single;
    multi.multiTurn = true;
    QVERIFY(datasetIdentityHash(QString(), canonicalDatasetParameters(multi, 10, 1)) !=
            datasetIdentityHash(QString(), before));
}

void TestSessionDataset::mooncakeSampleParses()
{
    QList<MooncakeRow> rows;
    QString error;
    QVERIFY2(loadMooncakeTrace(dataFile(u"traces/mooncake_conversation_sample.jsonl"_s), 512, &rows,
                               &error),
             qPrintable(error));
    QCOMPARE(rows.size(), 124);
    QCOMPARE(rows.first().timestampMs, 864000.0);
    QCOMPARE(rows.last().timestampMs, 927000.0);
    qint64 input = 0;
    for (const MooncakeRow &r : std::as_const(rows)) {
        QCOMPARE(r.hashIds.size(), (r.inputLength + 511) / 512);
        input += r.inputLength;
    }
    QCOMPARE(input, 633090);
    // The rate its provenance file states, from the hash ids (whole blocks, granularity 1).
    const TracePrefixReuse reuse = mooncakePrefixReuse(rows, 512, 1);
    QCOMPARE(reuse.inputTokens, 633090);
    QCOMPARE(QString::number(reuse.hitRate * 100, 'f', 2), u"14.07"_s);
}

void TestSessionDataset::mooncakeBadInput_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("what");
    const QByteArray ok =
        R"({"timestamp": 0, "input_length": 600, "output_length": 5, "hash_ids": [1, 2]})";
    QTest::newRow("no hash_ids") << ok + "\n" +
                                        R"({"timestamp": 1, "input_length": 5, "output_length": 5})"
                                 << u"t.jsonl:2"_s << u"'hash_ids'"_s;
    QTest::newRow("backwards")
        << QByteArray(
               R"({"timestamp": 9, "input_length": 5, "output_length": 5, "hash_ids": [1]})") +
               "\n\n" +
               R"({"timestamp": 3, "input_length": 5, "output_length": 5, "hash_ids": [1]})"
        << u"t.jsonl:3"_s << u"backwards"_s;
    QTest::newRow("count")
        << QByteArray(
               R"({"timestamp": 0, "input_length": 1100, "output_length": 5, "hash_ids": [1, 2]})")
        << u"t.jsonl:1"_s << u"needs 3"_s;
    QTest::newRow("id not integer")
        << QByteArray(
               R"({"timestamp": 0, "input_length": 5, "output_length": 5, "hash_ids": ["a"]})")
        << u"t.jsonl:1"_s << u"'hash_ids[0]'"_s;
    QTest::newRow("no timestamp")
        << QByteArray(R"({"input_length": 5, "output_length": 5, "hash_ids": [1]})")
        << u"t.jsonl:1"_s << u"'timestamp'"_s;
    QTest::newRow("zero output")
        << QByteArray(R"({"timestamp": 0, "input_length": 5, "output_length": 0, "hash_ids": [1]})")
        << u"t.jsonl:1"_s << u"'output_length'"_s;
    QTest::newRow("not json") << ok + "\n{oops" << u"t.jsonl:2"_s << u"invalid JSON"_s;
}

void TestSessionDataset::mooncakeBadInput()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, where);
    QFETCH(QString, what);
    QList<MooncakeRow> rows;
    QString error;
    QVERIFY(!parseMooncakeTrace(text, u"t.jsonl"_s, 512, &rows, &error));
    QVERIFY2(error.startsWith(where + u':'), qPrintable(error));
    QVERIFY2(error.contains(what), qPrintable(error));
    QVERIFY(rows.isEmpty()); // nothing half-loaded
}

void TestSessionDataset::mooncakePromptsShareBlocksByHashId()
{
    const QString a = mooncakePrompt({7, 8, 9}, 1100, 512);
    const QString b = mooncakePrompt({7, 8, 4}, 1030, 512);
    const QString c = mooncakePrompt({5, 8}, 600, 512);
    const QStringList wa = a.split(u' '), wb = b.split(u' '), wc = c.split(u' ');
    QCOMPARE(wa.size(), 1100);
    QCOMPARE(wb.size(), 1030);
    QCOMPARE(wa.mid(0, 1024), wb.mid(0, 1024)); // ids 7, 8: the same two blocks
    QVERIFY(wa.mid(1024) != wb.mid(1024, 76));  // 9 and 4 differ
    QVERIFY(wa.mid(0, 512) != wc.mid(0, 512));  // 7 and 5 differ
    QCOMPARE(wa.mid(512, 88), wc.mid(512, 88)); // a short last block is a prefix of its id's block
}

void TestSessionDataset::mooncakeReuseByHand()
{
    // Blocks of 4 tokens, cache granularity 2.
    QList<MooncakeRow> rows(4);
    rows[0].inputLength = 10;
    rows[0].hashIds = {1, 2, 3}; // nothing seen: 0 cached
    rows[1].inputLength = 9;
    rows[1].hashIds = {1, 2, 4}; // 1, 2 seen: 8 cached
    rows[2].inputLength = 10;
    rows[2].hashIds = {1, 2, 3}; // 1, 2 full, 3 seen with 2 tokens: 8 + 2
    rows[3].inputLength = 3;
    rows[3].hashIds = {1}; // 3 of id 1's 4 tokens, rounded down to 2
    const TracePrefixReuse r = mooncakePrefixReuse(rows, 4, 2);
    QCOMPARE(r.inputTokens, 32);
    QCOMPARE(r.cachedTokens, 0 + 8 + 10 + 2);
    QCOMPARE(r.hitRate, 20.0 / 32.0);
    QCOMPARE(mooncakePrefixReuse(rows, 4, 1).cachedTokens, 0 + 8 + 10 + 3);
}

QTEST_GUILESS_MAIN(TestSessionDataset)
#include "tst_sessiondataset.moc"
