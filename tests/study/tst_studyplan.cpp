// A study's definition, plan and storage (docs/study.md): validation errors name their field;
// the order interleaves the candidates of each repeat block in a seeded Latin-square rotation;
// the project keeps versions — the same definition resumes, an edit before any cell ran replaces
// the version, an edit after cells ran makes a new one.
#include "store/projectstore.h"
#include "study/studydefinition.h"
#include "study/studyplan.h"
#include "study/studystore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QJsonObject definitionJson()
{
    return QJsonDocument::fromJson(R"({
      "name": "three", "question": "which is fastest?",
      "boundary": {"model": "servebench-sim",
                   "dataset": {"flags": ["--dataset-name", "random", "--random-input-len", "8",
                                         "--random-output-len", "4"]}},
      "scenarios": [{"name": "poisson", "kind": "open-loop",
                     "flags": ["--request-rate", "40", "--num-prompts", "20"]},
                    {"name": "offline", "kind": "offline",
                     "flags": ["--scenario", "offline", "--num-prompts", "20"]}],
      "repeats": 3, "seed": 11,
      "candidates": [{"name": "A", "simulator": {"ttft_ms": 50}, "cost": {"source": "bills"}},
                     {"name": "B", "simulator": {"ttft_ms": 50}, "cost": {"source": "bills"}},
                     {"name": "C", "simulator": {"ttft_ms": 60},
                      "cost": {"source": "price_per_hour", "price_per_hour": "1.5",
                               "currency": "USD"}}]
    })")
        .object();
}

QStringList fields(const QList<StudyIssue> &issues)
{
    QStringList out;
    for (const StudyIssue &i : issues)
        out << i.field;
    return out;
}

} // namespace

class TestStudyPlan : public QObject
{
    Q_OBJECT
private slots:
    void validDefinitionRoundTrips()
    {
        QList<StudyIssue> issues;
        const StudyDefinition d = StudyDefinition::fromJson(definitionJson(), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(issues.value(0).text()));
        QCOMPARE(d.candidates.size(), 3);
        QCOMPARE(d.repeats, 3);
        QVERIFY(d.candidates.at(0).simulator);
        QList<StudyIssue> again;
        const StudyDefinition e = StudyDefinition::fromJson(d.toJson(), &again);
        QVERIFY(again.isEmpty());
        QCOMPARE(e.sha256(), d.sha256());
        // A cell is an ordinary run request: the boundary, the load, the SUT, the seed.
        const QStringList flags = d.cellFlags(2, 1, 0);
        QVERIFY(flags.contains(u"--sim-ttft-ms"_s));
        QVERIFY(flags.contains(u"--cache-bust"_s));
        QCOMPARE(flags.at(flags.indexOf(u"--sut-name"_s) + 1), u"C"_s);
        QCOMPARE(flags.at(flags.indexOf(u"--seed"_s) + 1), u"11"_s);
    }

    void errorsNameTheirField()
    {
        QJsonObject o = definitionJson();
        QJsonArray cands = o[u"candidates"_s].toArray();
        QJsonObject c = cands[2].toObject();
        c[u"cost"_s] = QJsonObject{{u"source"_s, u"price_per_hour"_s},
                                   {u"price_per_hour"_s, u"-3"_s},
                                   {u"currency"_s, u"dollars"_s}};
        cands[2] = c;
        QJsonObject b = cands[1].toObject();
        b[u"name"_s] = u"A"_s; // duplicate
        cands[1] = b;
        o[u"candidates"_s] = cands;
        o[u"repeats"_s] = 0;
        QJsonArray scs = o[u"scenarios"_s].toArray();
        QJsonObject s = scs[0].toObject();
        s[u"kind"_s] = u"burst"_s;
        s[u"flags"_s] = QJsonArray{u"--project"_s, u"x"_s};
        scs[0] = s;
        o[u"scenarios"_s] = scs;
        QList<StudyIssue> issues;
        StudyDefinition::fromJson(o, &issues);
        const QStringList f = fields(issues);
        for (const char *expected :
             {"repeats", "scenarios[0].kind", "scenarios[0].flags", "candidates[1].name",
              "candidates[2].cost.price_per_hour", "candidates[2].cost.currency"})
            QVERIFY2(f.contains(QString::fromLatin1(expected)),
                     qPrintable(QString::fromLatin1(expected) + u" not in "_s + f.join(u", "_s)));
        // Type errors name the field too.
        QJsonObject t = definitionJson();
        t[u"repeats"_s] = u"three"_s;
        t.remove(u"question"_s);
        QList<StudyIssue> typeIssues;
        StudyDefinition::fromJson(t, &typeIssues);
        QVERIFY(fields(typeIssues).contains(u"repeats"_s));
        QVERIFY(fields(typeIssues).contains(u"question"_s));
        // Flags that make no valid run are refused before anything runs.
        QJsonObject bad = definitionJson();
        QJsonArray sc2 = bad[u"scenarios"_s].toArray();
        QJsonObject s2 = sc2[1].toObject();
        s2[u"flags"_s] = QJsonArray{u"--request-rate"_s, u"fast"_s};
        sc2[1] = s2;
        bad[u"scenarios"_s] = sc2;
        QList<StudyIssue> flagIssues;
        StudyDefinition::fromJson(bad, &flagIssues);
        QVERIFY(!flagIssues.isEmpty());
        QVERIFY2(flagIssues.first().field.contains(u"scenarios[1]"_s),
                 qPrintable(flagIssues.first().text()));
        // A credential written out in a candidate's flags would be stored in the project file:
        // refused, naming the field; a header that refers to the key as {api_key} is not.
        QJsonObject secret = definitionJson();
        QJsonArray sc3 = secret[u"candidates"_s].toArray();
        QJsonObject c3 = sc3[0].toObject();
        c3[u"flags"_s] = QJsonArray{u"--header"_s, u"X-Gateway-Key: {api_key}"_s, u"--header"_s,
                                    u"Authorization: Bearer sk-literal-123"_s};
        sc3[0] = c3;
        secret[u"candidates"_s] = sc3;
        QList<StudyIssue> secretIssues;
        StudyDefinition::fromJson(secret, &secretIssues);
        QCOMPARE(secretIssues.size(), 1);
        QCOMPARE(secretIssues.first().field, u"candidates[0].flags"_s);
        QVERIFY2(secretIssues.first().text().contains(u"Authorization carries a credential"_s),
                 qPrintable(secretIssues.first().text()));
    }

    void orderIsASeededLatinSquare()
    {
        QList<StudyIssue> issues;
        const StudyDefinition d = StudyDefinition::fromJson(definitionJson(), &issues);
        const StudyPlan p = StudyPlan::build(d);
        QCOMPARE(p.cells.size(), 3 * 2 * 3);
        QCOMPARE(p.blockOrders.size(), 3);
        // Block r is block 0 rotated by r: A B C, C A B, B C A (of the seeded permutation).
        for (int r = 1; r < 3; ++r)
            for (int i = 0; i < 3; ++i)
                QCOMPARE(p.blockOrders.at(r).at(i), p.blockOrders.at(0).at((i - r + 3) % 3));
        // Each candidate takes each place once over the three repeats.
        for (int place = 0; place < 3; ++place) {
            QSet<int> seen;
            for (int r = 0; r < 3; ++r)
                seen.insert(p.blockOrders.at(r).at(place));
            QCOMPARE(seen.size(), 3);
        }
        // Within a block every scenario runs on every candidate, candidates interleaved.
        for (int i = 0; i < p.cells.size(); i += 3) {
            QSet<int> cands;
            for (int j = i; j < i + 3; ++j) {
                cands.insert(p.cells.at(j).candidate);
                QCOMPARE(p.cells.at(j).position, j);
                QCOMPARE(p.cells.at(j).scenario, p.cells.at(i).scenario);
            }
            QCOMPARE(cands.size(), 3);
        }
        // Seeded: the same seed gives the same order, and the plan says how it was made.
        QCOMPARE(StudyPlan::build(d).blockOrders, p.blockOrders);
        QVERIFY(p.orderNote.text().contains(u"Latin-square rotation seeded with 11"_s));
    }

    void versionsAreNeverPooled()
    {
        QTemporaryDir dir;
        ProjectStore store;
        QVERIFY(store.open(dir.filePath(u"p.sbproj"_s)));
        StudyStore studies(&store);
        QVERIFY(studies.available());
        QList<StudyIssue> issues;
        StudyDefinition d = StudyDefinition::fromJson(definitionJson(), &issues);
        QString what;
        auto v1 = studies.ensureVersion(d, StudyPlan::build(d), &what);
        QVERIFY2(v1, qPrintable(studies.lastError()));
        QCOMPARE(what, u"created"_s);
        QCOMPARE(studies.cells(v1->id).size(), 18);
        // The same definition: resumed.
        QCOMPARE(studies.ensureVersion(d, StudyPlan::build(d), &what)->id, v1->id);
        QCOMPARE(what, u"resumed"_s);
        // An edit before any cell ran replaces the version.
        d.question = u"which is cheapest?"_s;
        auto v1b = studies.ensureVersion(d, StudyPlan::build(d), &what);
        QCOMPARE(what, u"replaced"_s);
        QCOMPARE(v1b->version, 1);
        // A cell ran: an edit now makes version 2 with cells of its own.
        const StoredStudyCell first = studies.cells(v1b->id).constFirst();
        QVERIFY(studies.beginAttempt(first, v1b->studyId, 0));
        QVERIFY(studies.finishCell(first.id, u"failed"_s, u"unreachable"_s));
        d.repeats = 2;
        auto v2 = studies.ensureVersion(d, StudyPlan::build(d), &what);
        QCOMPARE(what, u"new-version"_s);
        QCOMPARE(v2->version, 2);
        QCOMPARE(studies.cells(v2->id).size(), 12);
        QCOMPARE(studies.cells(v1b->id).size(), 18); // the old version keeps its cells
        QCOMPARE(studies.cells(v1b->id).constFirst().state, u"failed"_s);
        // A cell left running by a dead process goes back to pending.
        const StoredStudyCell c = studies.cells(v2->id).at(3);
        QVERIFY(studies.beginAttempt(c, v2->studyId, 0));
        QCOMPARE(studies.resetRunningCells(v2->id).size(), 1);
        QCOMPARE(studies.cells(v2->id).at(3).state, u"pending"_s);
        QCOMPARE(studies.cells(v2->id).at(3).attempts, 1);
    }
};

QTEST_GUILESS_MAIN(TestStudyPlan)
#include "tst_studyplan.moc"
