// A study's "server" scenario (docs/study.md, "Server scenarios"): each cell is the search for
// the highest Server rate that stays VALID, the one `run --find-max-valid-rate` makes. Two
// built-in simulators served by `servebench-cli simulate` with a capacity of two sequences —
// "fast" and "slow" (twice its TTFT and ITL) — one server scenario, 2 repeats. The simulators run
// as processes of their own because the rate at which a candidate stops being VALID is where its
// capacity fills and its queue grows; the in-process simulator of a `simulator` candidate has no
// capacity, so a search against it would find the client's limit, not the candidate's.
//
// The CLI is killed (SIGKILL) during the first cell's search and run again. Then: every cell's
// attempt linked every point of its search and points to its highest VALID point, the interrupted
// attempt's points stay recorded and are not pooled, the figure of merit of each repeat is the
// highest VALID point's rate recomputed here from the stored runs, "slow" ranks below "fast", and
// `study decide --json` holds those values.
#include "clirun.h"
#include "simprocess.h"
#include "studytestutil.h"

#include "config/runplan.h"
#include "store/projectstore.h"
#include "study/studydefinition.h"
#include "study/studystore.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <functional>

using namespace Qt::StringLiterals;
using namespace sb;
using studytest::candidateOf;
using studytest::readJson;
using studytest::writeJson;

namespace {

// `servebench-cli simulate` for this test (tests/common/simprocess.h) with its usual settings.
struct SimProcess : sb::test::SimProcess
{
    explicit SimProcess(const QStringList &args)
        : sb::test::SimProcess(QStringList{u"--duration"_s, u"600"_s} + args)
    {}
};

QJsonObject candidate(const QString &name, const QString &url)
{
    return QJsonObject{{u"name"_s, name},
                       {u"base_url"_s, url},
                       {u"cost"_s, QJsonObject{{u"source"_s, u"bills"_s}}}};
}

// Small on purpose: 60 queries per point (the fewest with which a P90 bound passes MLPerf's
// early stopping when none is over it), a 20 % bracket (three Server points after the two
// baselines).
QJsonObject definition(const QJsonArray &candidates)
{
    const QJsonArray flags{u"--num-prompts"_s,     u"60"_s, u"--rate-tolerance"_s, u"0.2"_s,
                           u"--slo-percentile"_s,  u"90"_s, u"--ttft-slo-ms"_s,    u"60"_s,
                           u"--min-query-count"_s, u"50"_s, u"--min-duration"_s,   u"0.2"_s};
    return QJsonObject{
        {u"name"_s, u"server-rate"_s},
        {u"question"_s, u"Which platform serves the highest valid Server rate?"_s},
        {u"boundary"_s,
         QJsonObject{{u"model"_s, u"servebench-sim"_s},
                     {u"dataset"_s,
                      QJsonObject{{u"flags"_s, QJsonArray{u"--dataset-name"_s, u"random"_s,
                                                          u"--random-input-len"_s, u"8"_s,
                                                          u"--random-output-len"_s, u"4"_s}}}},
                     {u"request"_s, QJsonObject{{u"flags"_s, QJsonArray{u"--ignore-eos"_s}}}}}},
        {u"scenarios"_s,
         QJsonArray{
             QJsonObject{{u"name"_s, u"server"_s}, {u"kind"_s, u"server"_s}, {u"flags"_s, flags}}}},
        {u"repeats"_s, 2},
        {u"seed"_s, 5},
        {u"baseline"_s, u"fast"_s},
        {u"candidates"_s, candidates}};
}

// One search as the project stores it, read here without the study code: its points are the
// cell's runs in the sweep row of the cell's run; a point is VALID when its run completed, the
// MLPerf verdict stored with it says VALID and it was not stopped early.
struct Search
{
    QList<qint64> points;
    double highestValid = 0;
    qint64 highestValidRun = 0;
    int serverPoints = 0;
    int invalidPoints = 0;
};

Search storedSearch(const ProjectStore &store, const QList<qint64> &cellRuns, qint64 cellRun)
{
    Search s;
    const auto last = store.loadRun(cellRun);
    if (!last || last->sweepId <= 0)
        return s;
    for (qint64 id : cellRuns) {
        const auto run = store.loadRun(id);
        if (!run || run->sweepId != last->sweepId)
            continue;
        s.points << id;
        const QJsonObject mlperf = run->summary[u"mlperf"_s].toObject();
        if (mlperf.isEmpty())
            continue; // the synchronous and max-throughput baselines judge no scenario
        ++s.serverPoints;
        const double rate = RunPlan::fromJson(run->snapshot).profile.requestRate;
        const bool valid = run->status == StoredRunStatus::Completed &&
                           mlperf[u"result"_s].toString() == "VALID"_L1 &&
                           !run->summary.contains(u"stopped_early"_s);
        if (!valid)
            ++s.invalidPoints;
        else if (rate > s.highestValid) {
            s.highestValid = rate;
            s.highestValidRun = id;
        }
    }
    return s;
}

QList<double> sorted(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

} // namespace

class TestStudyServer : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    // The definition: a server scenario's cell is `run --find-max-valid-rate` with the
    // scenario's flags, its figure of merit the highest valid rate (higher is better), and what
    // cannot make a meaningful search is refused naming the field.
    void serverScenarioDefinition()
    {
        const QJsonObject good = definition({candidate(u"fast"_s, u"http://127.0.0.1:9"_s),
                                             candidate(u"slow"_s, u"http://127.0.0.1:10"_s)});
        QList<StudyIssue> issues;
        const StudyDefinition d = StudyDefinition::fromJson(good, &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(issues.value(0).text()));
        QCOMPARE(d.scenarios.at(0).figureOfMerit(), u"max_valid_rate"_s);
        const QStringList flags = d.cellFlags(0, 0, 0);
        QVERIFY2(flags.contains(u"--find-max-valid-rate"_s), qPrintable(flags.join(u' ')));
        QVERIFY(flags.contains(u"--rate-tolerance"_s) && flags.contains(u"--ttft-slo-ms"_s));

        const auto issuesWith = [&](const std::function<void(QJsonObject *)> &edit) {
            QJsonObject o = good;
            QJsonArray scs = o[u"scenarios"_s].toArray();
            QJsonObject sc = scs[0].toObject();
            edit(&sc);
            scs[0] = sc;
            o[u"scenarios"_s] = scs;
            QList<StudyIssue> out;
            StudyDefinition::fromJson(o, &out);
            QStringList texts;
            for (const StudyIssue &i : out)
                texts << i.text();
            return texts.join(u"\n"_s);
        };
        // No latency bound: every rate up to the client's maximum would be VALID. The run's own
        // validation refuses it for every cell of the scenario.
        const QString noBound = issuesWith([](QJsonObject *sc) {
            sc->insert(u"flags"_s,
                       QJsonArray{u"--num-prompts"_s, u"60"_s, u"--min-query-count"_s, u"50"_s});
        });
        QVERIFY2(noBound.startsWith(u"candidates[0] × scenarios[0]: "_s) &&
                     noBound.contains(u"latency bounds"_s),
                 qPrintable(noBound));
        // Another MLPerf scenario: a search judges Server points only.
        const QString offline = issuesWith([](QJsonObject *sc) {
            QJsonArray f = (*sc)[u"flags"_s].toArray();
            f << u"--scenario"_s << u"offline"_s;
            sc->insert(u"flags"_s, f);
        });
        QVERIFY2(offline.startsWith(u"candidates[0] × scenarios[0]: "_s) &&
                     offline.contains(u"must be server"_s),
                 qPrintable(offline));
        // The search is the study's to ask for.
        const QString reserved = issuesWith([](QJsonObject *sc) {
            QJsonArray f = (*sc)[u"flags"_s].toArray();
            f << u"--find-max-valid-rate"_s;
            sc->insert(u"flags"_s, f);
        });
        QVERIFY2(reserved.startsWith(u"scenarios[0].flags: "_s), qPrintable(reserved));
        // The highest valid rate is a search's result: no other kind has one.
        const QString openLoop = issuesWith([](QJsonObject *sc) {
            sc->insert(u"kind"_s, u"open-loop"_s);
            sc->insert(u"flags"_s, QJsonArray{u"--request-rate"_s, u"10"_s});
            sc->insert(u"rank_by"_s, u"max_valid_rate"_s);
        });
        QVERIFY2(openLoop.startsWith(u"scenarios[0].rank_by: "_s), qPrintable(openLoop));
    }

    void rateSearchPerCellRanksByHighestValidRate()
    {
        SimProcess fast({u"--ttft-ms"_s, u"10"_s, u"--itl-ms"_s, u"2"_s, u"--capacity"_s, u"2"_s});
        SimProcess slow({u"--ttft-ms"_s, u"20"_s, u"--itl-ms"_s, u"5"_s, u"--capacity"_s, u"2"_s});
        QVERIFY(!fast.url.isEmpty() && !slow.url.isEmpty());
        const QString project = m_dir.filePath(u"server.sbproj"_s);
        const QString file = m_dir.filePath(u"server.json"_s);
        QVERIFY(writeJson(
            file, definition({candidate(u"fast"_s, fast.url), candidate(u"slow"_s, slow.url)})));
        QElapsedTimer wall;
        wall.start();
        // Killed (SIGKILL) during the first cell's search, once its second point is under way.
        {
            const studytest::KilledRun k =
                studytest::killStudyRunAt(file, project, "cell 1 search point throughput", 100);
            QVERIFY2(k.sawMarker, (k.out + k.err).constData());
            QVERIFY2(k.out.contains("cell 1/4 started"), k.out.constData());
        }
        const test::CliResult resumed =
            test::runCli({u"study"_s, u"run"_s, file, u"--project"_s, project}, 120000);
        QVERIFY2(resumed.code == 0, qPrintable(resumed.describe()));
        QVERIFY2(resumed.out.contains(u"Cell 1 ("_s) &&
                     resumed.out.contains(u"stays recorded as interrupted"_s),
                 qPrintable(resumed.out));
        // Each completed cell states its search's result.
        QCOMPARE(resumed.out.count(u"highest VALID Server rate"_s), 4);
        qInfo("server study of 4 search cells, killed and resumed: %.1f s wall",
              wall.elapsed() / 1000.0);

        // Every cell's attempt linked every point of its search, and its run is the highest
        // VALID one; the killed attempt's points stay linked to the first cell.
        QHash<QString, QList<double>> highest; // by candidate, over the repeats
        QSet<qint64> interruptedAttempt;
        {
            ProjectStore store;
            QVERIFY(store.open(project, ProjectStore::OpenMode::ReadOnly));
            StudyStore studies(&store);
            const auto v = studies.latestVersion(studies.studyId(u"server-rate"_s));
            QVERIFY(v);
            const QList<StoredStudyCell> cells = studies.cells(v->id);
            QCOMPARE(cells.size(), 4);
            const QList<StoredSweep> sweeps = store.listSweeps();
            QSet<qint64> linked;
            for (const StoredStudyCell &c : cells) {
                QCOMPARE(c.state, u"completed"_s);
                QCOMPARE(c.attempts, c.position == 0 ? 2 : 1);
                const QList<qint64> runs = studies.cellRuns(c.id);
                const Search s = storedSearch(store, runs, c.runId);
                // The two baselines and at least one Server point, all of the search's sweep.
                QVERIFY2(s.points.size() >= 3, qPrintable(c.candidate));
                QCOMPARE(s.points.size(), s.serverPoints + 2);
                const auto cellRun = store.loadRun(c.runId);
                QVERIFY(cellRun);
                QList<qint64> sweepRuns;
                for (const RunInfo &r : store.listRuns(cellRun->sweepId))
                    sweepRuns << r.id;
                QCOMPARE(sweepRuns, s.points);
                QVERIFY2(s.highestValid > 0, qPrintable(c.candidate));
                QCOMPARE(c.runId, s.highestValidRun);
                QVERIFY2(c.reason.contains(QString::number(s.highestValid, 'f', 2)),
                         qPrintable(c.reason));
                highest[c.candidate] << s.highestValid;
                for (qint64 id : runs) {
                    QVERIFY(!linked.contains(id));
                    linked.insert(id);
                    if (!s.points.contains(id))
                        interruptedAttempt.insert(id);
                }
            }
            // The first cell's killed attempt: its baseline completed, its second point
            // interrupted, in a sweep row of their own.
            QCOMPARE(interruptedAttempt.size(), 2);
            for (qint64 id : std::as_const(interruptedAttempt)) {
                const auto r = store.loadRun(id);
                QVERIFY(r);
                QCOMPARE(r->status, id == *std::max_element(interruptedAttempt.cbegin(),
                                                            interruptedAttempt.cend())
                                        ? StoredRunStatus::Interrupted
                                        : StoredRunStatus::Completed);
            }
            // Every run of the project is a study cell's.
            QCOMPARE(qsizetype(store.listRuns().size()), linked.size());
            QCOMPARE(sweeps.size(), 5);
            // The slow simulator's search met its limit: a Server point of its was INVALID.
            bool slowInvalid = false;
            for (const StoredStudyCell &c : cells)
                if (c.candidate == "slow"_L1)
                    slowInvalid =
                        slowInvalid ||
                        storedSearch(store, studies.cellRuns(c.id), c.runId).invalidPoints > 0;
            QVERIFY(slowInvalid);
        }
        QCOMPARE(highest.value(u"fast"_s).size(), 2);
        QCOMPARE(highest.value(u"slow"_s).size(), 2);

        // The decision, as `study decide --json` writes it.
        const QString json = m_dir.filePath(u"decision.json"_s);
        const test::CliResult decide =
            test::runCli({u"study"_s, u"decide"_s, u"--project"_s, project, u"--json"_s, json});
        QVERIFY2(decide.code == 0, qPrintable(decide.describe()));
        qInfo("%s", qPrintable(decide.out));
        const QJsonObject d = readJson(json);
        QCOMPARE(d[u"completed_cells"_s].toInt(), 4);
        QVERIFY(d[u"left_out"_s].toArray().isEmpty());
        const QJsonObject server = d[u"scenarios"_s].toArray().at(0).toObject();
        QCOMPARE(server[u"kind"_s].toString(), u"server"_s);
        QCOMPARE(server[u"figure_of_merit"_s].toString(), u"max_valid_rate"_s);
        QCOMPARE(server[u"unit"_s].toString(), u"req/s"_s);
        QCOMPARE(server[u"lower_is_better"_s].toBool(), false);
        for (const QString &name : {u"fast"_s, u"slow"_s}) {
            const QJsonObject c = candidateOf(server, name);
            const QJsonObject merit = c[u"figure_of_merit"_s].toObject();
            // Each repeat's value is its search's highest VALID rate, pooled with its interval.
            QList<double> values;
            for (const QJsonValue &x : merit[u"values"_s].toArray())
                values << x.toDouble();
            const QList<double> want = sorted(highest.value(name));
            QCOMPARE(values.size(), want.size());
            values = sorted(values);
            for (int i = 0; i < want.size(); ++i)
                QVERIFY2(
                    qFuzzyCompare(values.at(i), want.at(i)),
                    qPrintable(u"%1: %2 against %3"_s.arg(name).arg(values.at(i)).arg(want.at(i))));
            const double mean = (want.at(0) + want.at(1)) / 2;
            QVERIFY(qFuzzyCompare(merit[u"mean"_s].toDouble(), mean));
            const QJsonObject interval = merit[u"interval"_s].toObject();
            QVERIFY(interval[u"available"_s].toBool());
            QVERIFY(interval[u"lo"_s].toDouble() <= mean && mean <= interval[u"hi"_s].toDouble());
            QCOMPARE(merit[u"runs"_s].toInt(), 2);
            // The interrupted attempt's points are in no search the decision pooled.
            const QJsonArray searches = c[u"searches"_s].toArray();
            QCOMPARE(searches.size(), 2);
            for (const QJsonValue &sr : searches)
                for (const QJsonValue &p : sr[u"points"_s].toArray())
                    QVERIFY(!interruptedAttempt.contains(p.toInteger()));
        }
        // Higher is better: "slow"'s mean is below "fast"'s and it never ranks above. Whether the
        // two separate is the data's to say: two repeats give a Student-t interval some 13
        // standard errors wide, and beside a full test suite the searches once overlapped (the
        // decision then rightly said tied). When separated, every field says so alike.
        const QJsonObject f = candidateOf(server, u"fast"_s), s = candidateOf(server, u"slow"_s);
        const auto mean = [](const QJsonObject &c) {
            return c[u"figure_of_merit"_s][u"mean"_s].toDouble();
        };
        QVERIFY2(mean(s) < mean(f), qPrintable(decide.out));
        QCOMPARE(f[u"rank"_s].toInt(), 1);
        QVERIFY(s[u"rank"_s].toInt() >= f[u"rank"_s].toInt());
        if (s[u"rank"_s].toInt() == 2) {
            QCOMPARE(server[u"ranking"_s].toArray(), (QJsonArray{u"fast"_s, u"slow"_s}));
            QCOMPARE(s[u"verdict"_s].toString(), u"worse"_s);
            QVERIFY(s[u"figure_of_merit"_s][u"interval"_s][u"hi"_s].toDouble() <
                    f[u"figure_of_merit"_s][u"interval"_s][u"lo"_s].toDouble());
        } else {
            QVERIFY(s[u"tied"_s].toBool());
        }
        QVERIFY2(decide.out.contains(u"Highest valid Server rate (req/s)"_s),
                 qPrintable(decide.out));
    }
};

QTEST_GUILESS_MAIN(TestStudyServer)
#include "tst_studyserver.moc"
