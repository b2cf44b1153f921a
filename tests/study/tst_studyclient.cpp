// A study cell whose stored run says its client was the bottleneck (docs/study.md, "Decision";
// docs/performance.md, "The client checks itself") is left out of the decision with the
// reason, in the decision's text, its JSON and the study report; the same cell whose client
// threads stayed under 50 % is pooled. The runs are written through RunWriter as a real study's
// would be, the thread samples in their stored summary as the run pipeline stores them.
#include "../report/reportfixture.h"

#include "metrics/clientload.h"
#include "store/projectstore.h"
#include "study/studydecision.h"
#include "study/studydefinition.h"
#include "study/studyplan.h"
#include "study/studyreport.h"
#include "study/studystore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QJsonObject definitionJson()
{
    return QJsonDocument::fromJson(R"({
      "name": "client", "question": "which is faster?",
      "boundary": {"model": "servebench-sim",
                   "dataset": {"flags": ["--dataset-name", "random", "--random-input-len", "8",
                                         "--random-output-len", "4"]}},
      "scenarios": [{"name": "poisson", "kind": "open-loop",
                     "flags": ["--request-rate", "10", "--num-prompts", "40"]}],
      "repeats": 2, "seed": 3,
      "candidates": [{"name": "A", "simulator": {"ttft_ms": 50},
                      "cost": {"source": "price_per_hour", "price_per_hour": "1.5",
                               "currency": "USD"}},
                     {"name": "B", "simulator": {"ttft_ms": 50},
                      "cost": {"source": "price_per_hour", "price_per_hour": "1.5",
                               "currency": "USD"}}]
    })")
        .object();
}

// Four one-second windows; socket-worker-0 at `share` in the third (on a CPU half of it, the
// rest waiting for one), the dispatcher at 5 %.
QJsonObject clientLoad(double share)
{
    ClientLoadSamples s;
    s.intervalMs = 1000;
    for (int i = 0; i < 4; ++i)
        s.windows.append({double(i + 1), 1.0, 10, 0.1, 0.5});
    ClientThreadSeries worker{
        u"socket-worker-0"_s, 11, 0, {200, 200, 500, 200}, {10, 10, (share - 0.5) * 1000, 10},
        u"schedstat"_s};
    ClientThreadSeries dispatcher{u"dispatcher"_s,  12,           0,
                                  {50, 50, 50, 50}, {0, 0, 0, 0}, u"schedstat"_s};
    s.threads = {worker, dispatcher};
    return s.toJson();
}

} // namespace

class TestStudyClient : public QObject
{
    Q_OBJECT
private slots:
    void bottleneckCellLeftOut_data()
    {
        QTest::addColumn<QJsonObject>("samples");
        QTest::addColumn<bool>("leftOut");
        QTest::newRow("a thread at 97 %") << clientLoad(0.97) << true;
        QTest::newRow("threads under 50 %") << clientLoad(0.45) << false;
        QTest::newRow("no samples (a run stored before sampling)") << QJsonObject() << false;
    }
    void bottleneckCellLeftOut()
    {
        QFETCH(QJsonObject, samples);
        QFETCH(bool, leftOut);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"p.sbproj"_s);
        std::optional<StoredStudyVersion> version;
        QList<StoredStudyCell> cells;
        {
            ProjectStore store;
            QVERIFY(store.open(path));
            StudyStore studies(&store);
            QList<StudyIssue> issues;
            const StudyDefinition d = StudyDefinition::fromJson(definitionJson(), &issues);
            QVERIFY2(issues.isEmpty(),
                     qPrintable(issues.isEmpty() ? QString() : issues.constFirst().text()));
            QString what;
            version = studies.ensureVersion(d, StudyPlan::build(d), &what);
            QVERIFY2(version, qPrintable(studies.lastError()));
            cells = studies.cells(version->id);
            QCOMPARE(cells.size(), 4);
        }
        // One run per cell; the first cell of A carries the samples under test.
        int marked = -1;
        QHash<qint64, qint64> runOf; // cell id -> run id
        {
            RunWriter w;
            QString error;
            QVERIFY2(w.open(path, &error), qPrintable(error));
            QDateTime start(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC);
            for (const StoredStudyCell &c : std::as_const(cells)) {
                RunPlan p = fixture::plan(c.candidate, u"vllm"_s, u"A100"_s);
                p.profile.cacheBust = true;
                QJsonObject summary;
                if (marked < 0 && c.candidate == "A"_L1) {
                    marked = c.position + 1;
                    if (!samples.isEmpty())
                        summary[u"client_load"_s] = samples;
                }
                const double speed = c.candidate == "A"_L1 ? 1.0 : 1.5;
                const qint64 id = fixture::writeRun(w, p, fixture::records(40, speed, {}),
                                                    c.candidate, start, {}, summary);
                QVERIFY(id > 0);
                runOf.insert(c.id, id);
                start = start.addSecs(600);
            }
            w.close();
        }
        ProjectStore store;
        QVERIFY(store.open(path));
        {
            StudyStore studies(&store);
            for (const StoredStudyCell &c : std::as_const(cells)) {
                QVERIFY(studies.beginAttempt(c, version->studyId, runOf.value(c.id)));
                QVERIFY(studies.finishCell(c.id, u"completed"_s, {}, runOf.value(c.id)));
            }
        }
        StudyDecision dec;
        QString error;
        QVERIFY2(buildStudyDecision(&store, u"client"_s, 0, &dec, &error), qPrintable(error));
        const QString reason =
            u"client saturated: the client was the bottleneck: its thread socket-worker-0 "
            "wanted the CPU 97 % of the window ending at 3.0 s (on a CPU 50 %, waiting for one "
            "47 %; limit 90 %)"_s;
        const StoredStudyCell &markedCell = cells.at(marked - 1);
        const qint64 markedRun = runOf.value(markedCell.id);
        QList<qint64> pooledA;
        for (const StudyCandidateResult &r : dec.scenarios.constFirst().candidates)
            if (r.candidate == "A"_L1)
                pooledA = r.runIds;
        if (!leftOut) {
            QVERIFY2(dec.leftOut.isEmpty(), qPrintable(dec.formatText()));
            QCOMPARE(dec.completedCells, 4);
            QVERIFY(pooledA.contains(markedRun));
            return;
        }
        QCOMPARE(dec.leftOut.size(), 1);
        const StudyLeftOut &l = dec.leftOut.constFirst();
        QCOMPARE(l.position, marked);
        QCOMPARE(l.candidate, u"A"_s);
        QCOMPARE(l.state, u"client-saturated"_s);
        QVERIFY2(l.reason.startsWith(reason), qPrintable(l.reason));
        QCOMPARE(dec.completedCells, 3);
        QCOMPARE(pooledA.size(), 1);
        QVERIFY(!pooledA.contains(markedRun));
        // Every front end shows the reason: the text (`study decide`), the JSON, the report.
        QVERIFY2(dec.formatText().contains(reason), qPrintable(dec.formatText()));
        const QJsonArray left = dec.toJson().value(u"left_out"_s).toArray();
        QCOMPARE(left.size(), 1);
        QVERIFY(left.at(0).toObject().value(u"reason"_s).toString().startsWith(reason));
        QString html = studyReportHtml(dec, false);
        QVERIFY2(html.contains(u"wanted the CPU 97 %"_s), qPrintable(html));
    }
};

QTEST_GUILESS_MAIN(TestStudyClient)
#include "tst_studyclient.moc"
