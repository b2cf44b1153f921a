// One run pipeline for both front ends. A plan is run by the workbench's runner into a project
// file; the command stored with that run is then executed by servebench-cli into the same file.
// The two runs must be twins: snapshots with the same keys and values (but for the run's name,
// the simulator's port and the front end), summaries with the same keys, the same dataset hash,
// request list and schedule, and — computed from the same records — the same MLPerf verdict,
// goodput and comparability in the Results tab, the Compare tab, `show`, `compare` and
// `report`; the acceptance bundle of the workbench run holds the dataset hash and the command.

#include "clirun.h"

#include "compare/comparisonview.h"
#include "models/resultsdata.h"
#include "projectdocument.h"
#include "projectrunner.h"
#include "report/comparison.h"
#include "store/projectstore.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;
using sb::test::runCli;

namespace {

// The words of a POSIX shell command line as runFlags()/shellQuote() write it: plain words and
// single-quoted words with '\'' for a quote inside.
QStringList shellWords(const QString &line)
{
    QStringList words;
    QString cur;
    bool inWord = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (c == u'\'') {
            inWord = true;
            const qsizetype end = line.indexOf(u'\'', i + 1);
            cur += line.mid(i + 1, end - i - 1);
            i = end;
        } else if (c == u'\\' && i + 1 < line.size()) {
            inWord = true;
            cur += line.at(++i);
        } else if (c == u' ') {
            if (inWord)
                words << cur;
            cur.clear();
            inWord = false;
        } else {
            inWord = true;
            cur += c;
        }
    }
    if (inWord)
        words << cur;
    return words;
}

// Leaves whose values differ, by dotted path ("sut.base_url"); a key present on one side only
// is a difference too.
void diffJson(const QJsonValue &a, const QJsonValue &b, const QString &path, QStringList *out)
{
    if (a.isObject() && b.isObject()) {
        const QJsonObject oa = a.toObject(), ob = b.toObject();
        QStringList keys = oa.keys();
        for (const QString &k : ob.keys())
            if (!keys.contains(k))
                keys << k;
        for (const QString &k : keys) {
            const QString p = path.isEmpty() ? k : path + u'.' + k;
            if (!oa.contains(k) || !ob.contains(k))
                out->append(p + u" (missing on one side)"_s);
            else
                diffJson(oa.value(k), ob.value(k), p, out);
        }
        return;
    }
    if (a != b)
        out->append(path);
}

QStringList keysOf(const QJsonObject &o)
{
    QStringList k = o.keys();
    k.sort();
    return k;
}

QString showLine(const QString &out, const QString &label)
{
    for (const QString &line : out.split(u'\n'))
        if (line.startsWith(label))
            return line.mid(label.size()).trimmed();
    return {};
}

} // namespace

class TestPipelineParity : public QObject
{
    Q_OBJECT
private slots:
    void workbenchAndCliRunsAreTwins();
};

void TestPipelineParity::workbenchAndCliRunsAreTwins()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = dir.filePath(u"p.sbproj"_s);

    // The workbench's own default plan, made a short Server run with bounds and a goodput SLO,
    // so that verdict and goodput are there to agree on.
    ProjectDocument doc;
    doc.newProject();
    const DocSut sut = doc.suts().first();
    const DocDataset dataset = doc.datasets().first();
    DocProfile profile = doc.profiles().first();
    profile.profile.scenario = Scenario::Server;
    profile.profile.requestRate = 40;
    profile.profile.numPrompts = 60;
    profile.profile.ttftSloMs = 2000;
    profile.profile.tpotSloMs = 200;
    profile.profile.goodput.ttftMs = 60;
    doc.updateProfile(profile.id, profile.name, profile.profile, profile.params);
    QString error;
    QVERIFY2(doc.saveAs(project, &error), qPrintable(error));
    RunInfo links;
    QVERIFY2(doc.storeRunEntities(sut.id, dataset.id, profile.id, &links, &error),
             qPrintable(error));

    RunRequest request;
    request.plan.sut = sut.config;
    request.plan.dataset = dataset.spec;
    request.plan.profile = profile.profile;
    request.plan.params = profile.params;
    request.plan.name = u"twin"_s;
    ProjectRunner runner(nullptr);
    QSignalSpy finished(&runner, &ProjectRunner::runFinished);
    QVERIFY2(runner.start(request, project, links, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QTRY_COMPARE_WITH_TIMEOUT(runner.state(), ProjectRunner::State::Idle, 20000);
    const FinishedRun wb = finished.first().first().value<FinishedRun>();
    QVERIFY(wb.info.id > 0);
    QCOMPARE(wb.status, RunStatus::Completed);

    // The command the workbench stored, executed by the CLI into the same project.
    ProjectStore store;
    QVERIFY2(store.open(project, ProjectStore::OpenMode::ReadOnly), qPrintable(store.lastError()));
    const QJsonObject wbSnapshot = store.loadRun(wb.info.id)->snapshot;
    const QString command = wbSnapshot.value(u"command"_s).toString();
    QVERIFY2(command.startsWith("servebench-cli run "_L1), qPrintable(command));
    QStringList args = shellWords(command).mid(1); // without "servebench-cli"
    args << u"--project"_s << project;
    const auto cli = runCli(args);
    QVERIFY2(cli.code == 0, qPrintable(cli.describe()));
    store.close();
    QVERIFY2(store.open(project, ProjectStore::OpenMode::ReadOnly), qPrintable(store.lastError()));
    const QList<RunInfo> runs = store.listRuns();
    QCOMPARE(runs.size(), 2);
    const qint64 wbId = wb.info.id;
    const qint64 cliId = runs.at(0).id == wbId ? runs.at(1).id : runs.at(0).id;
    const RunInfo wbRun = *store.loadRun(wbId);
    const RunInfo cliRun = *store.loadRun(cliId);

    // --- snapshots: same keys, same values but for what names the run and where it ran ---
    QStringList diffs;
    diffJson(wbRun.snapshot, cliRun.snapshot, {}, &diffs);
    const QStringList allowed = {
        u"sut.base_url"_s,        // each front end started its own simulator on a free port
        u"execution.front_end"_s, // "workbench" / "cli"
    };
    for (const QString &d : std::as_const(diffs))
        QVERIFY2(allowed.contains(d), qPrintable(u"snapshots differ at %1"_s.arg(d)));
    QCOMPARE(cliRun.snapshot.value(u"execution"_s).toObject().value(u"front_end"_s).toString(),
             u"cli"_s);
    QCOMPARE(wbRun.snapshot.value(u"execution"_s).toObject().value(u"front_end"_s).toString(),
             u"workbench"_s);
    // The CLI run's own command reproduces it the same way: the plan made the round trip.
    QCOMPARE(cliRun.snapshot.value(u"command"_s).toString(), command);
    const QString hash =
        wbRun.snapshot.value(u"dataset_info"_s).toObject().value(u"sha256"_s).toString();
    QVERIFY(!hash.isEmpty());
    QVERIFY(!wbRun.snapshot.value(u"tool_version"_s).toString().isEmpty());

    // --- summaries: the same keys, from the one derivation ---
    QCOMPARE(keysOf(wbRun.summary), keysOf(cliRun.summary));
    for (const char *key : {"client_health", "status", "transport", "mlperf"})
        QVERIFY2(wbRun.summary.contains(QLatin1StringView(key)), key);

    // --- the same request list and schedule ---
    const QList<RequestRecord> wbRecords = store.loadRequests(wbId);
    const QList<RequestRecord> cliRecords = store.loadRequests(cliId);
    QCOMPARE(wbRecords.size(), 60);
    QCOMPARE(cliRecords.size(), wbRecords.size());
    for (qsizetype i = 0; i < wbRecords.size(); ++i) {
        const RequestRecord &a = wbRecords.at(i), &b = cliRecords.at(i);
        QCOMPARE(a.datasetItem, b.datasetItem);
        QCOMPARE(a.expectedInputTokens, b.expectedInputTokens);
        QCOMPARE(a.expectedOutputTokens, b.expectedOutputTokens);
        QCOMPARE(a.tSched - wbRun.startedMonoNs, b.tSched - cliRun.startedMonoNs);
    }

    // --- verdict, goodput, comparability agree everywhere ---
    struct Seen
    {
        QString verdict;
        QString goodput;
    };
    QMap<qint64, QMap<QString, Seen>> seen; // run id -> view -> what it shows
    for (const qint64 id : {wbId, cliId}) {
        const RunPlan plan = RunPlan::fromJson(store.loadRun(id)->snapshot);
        const QList<RequestRecord> recs = store.loadRequests(id);
        const ResultsSummaryStage st = computeResultsSummary(plan, recs);
        QVERIFY(st.hasMlperf);
        seen[id][u"results tab"_s] = {st.mlperf.valid ? u"VALID"_s : u"INVALID"_s,
                                      QString::number(st.summary.requestGoodput, 'f', 2)};
        const auto show =
            runCli({u"show"_s, u"--project"_s, project, u"--run"_s, QString::number(id)});
        QVERIFY2(show.code == 0, qPrintable(show.describe()));
        seen[id][u"show"_s] = {showLine(show.out, u"Result is :"_s),
                               showLine(show.out, u"Request goodput (req/s):"_s)};
    }
    ComparisonView view;
    view.setProject(project);
    QTRY_COMPARE_WITH_TIMEOUT(view.listedRuns().size(), 2, 20000);
    view.setSelectedRuns({wbId, cliId});
    QTRY_VERIFY_WITH_TIMEOUT(view.comparison() && !view.isBusy(), 30000);
    const Comparison *cmp = view.comparison();
    const auto rowOf = [](const Comparison *c, const QString &key) -> const ComparisonRow * {
        for (const ComparisonRow &r : c->rows)
            if (r.key == key)
                return &r;
        return nullptr;
    };
    QVERIFY(rowOf(cmp, u"mlperf.valid"_s) && rowOf(cmp, u"request_goodput"_s));
    for (int i = 0; i < cmp->runIds.size(); ++i)
        seen[cmp->runIds.at(i)][u"compare tab"_s] = {
            formatCell(*rowOf(cmp, u"mlperf.valid"_s), rowOf(cmp, u"mlperf.valid"_s)->cells.at(i)),
            formatCell(*rowOf(cmp, u"request_goodput"_s),
                       rowOf(cmp, u"request_goodput"_s)->cells.at(i))};
    const QString runIds = u"%1,%2"_s.arg(wbId).arg(cliId);
    const QString json = dir.filePath(u"report.json"_s);
    const QString bundle = dir.filePath(u"bundle"_s);
    const auto report = runCli({u"report"_s, u"--project"_s, project, u"--runs"_s, runIds,
                                u"--json"_s, json, u"--bundle"_s, bundle});
    QVERIFY2(report.code == 0, qPrintable(report.describe()));
    QFile jf(json);
    QVERIFY(jf.open(QIODevice::ReadOnly));
    const QJsonObject rj = QJsonDocument::fromJson(jf.readAll()).object();
    const QJsonObject rc = rj.value(u"comparison"_s).toObject();
    for (const QJsonValue &row : rc.value(u"rows"_s).toArray()) {
        const QJsonObject r = row.toObject();
        const QString key = r.value(u"key"_s).toString();
        if (key != "mlperf.valid"_L1 && key != "request_goodput"_L1)
            continue;
        const QJsonArray cells = r.value(u"cells"_s).toArray();
        const QJsonArray ids = rc.value(u"run_ids"_s).toArray();
        QCOMPARE(cells.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const double v = cells.at(i).toObject().value(u"value"_s).toDouble();
            Seen &s = seen[qint64(ids.at(i).toInteger())][u"report"_s];
            if (key == "mlperf.valid"_L1)
                s.verdict = v > 0 ? u"VALID"_s : u"INVALID"_s;
            else
                s.goodput = QString::number(v, 'f', 2);
        }
    }
    const auto compare = runCli({u"compare"_s, u"--project"_s, project, u"--runs"_s, runIds});
    QVERIFY2(compare.code == 0, qPrintable(compare.describe()));
    for (const QString &line : compare.out.split(u'\n')) {
        const QStringList cols = line.split(QRegularExpression(u"\\s{2,}"_s), Qt::SkipEmptyParts);
        if (cols.size() >= 3 && cols.first() == "MLPerf result"_L1) {
            seen[wbId][u"compare"_s].verdict = cols.at(1).section(u' ', 0, 0);
            seen[cliId][u"compare"_s].verdict = cols.at(2).section(u' ', 0, 0);
        }
        if (cols.size() >= 3 && cols.first().startsWith("Request goodput"_L1)) {
            seen[wbId][u"compare"_s].goodput = cols.at(1).section(u' ', 0, 0);
            seen[cliId][u"compare"_s].goodput = cols.at(2).section(u' ', 0, 0);
        }
    }
    for (const qint64 id : {wbId, cliId}) {
        const Seen ref = seen[id][u"results tab"_s];
        QVERIFY(ref.verdict == "VALID"_L1 || ref.verdict == "INVALID"_L1);
        QVERIFY(!ref.goodput.isEmpty());
        for (const QString &where : {u"show"_s, u"compare tab"_s, u"report"_s, u"compare"_s}) {
            QVERIFY2(seen[id].contains(where), qPrintable(where));
            QCOMPARE(seen[id][where].verdict, ref.verdict);
            QCOMPARE(seen[id][where].goodput, ref.goodput);
        }
    }
    // Comparability: one verdict in the tab, the CLI and the report.
    QVERIFY2(cmp->comparability.rankable(), qPrintable(cmp->comparability.verdict()));
    QVERIFY2(compare.out.contains(cmp->comparability.verdict()), qPrintable(compare.out));
    QCOMPARE(rc.value(u"comparability"_s).toObject().value(u"verdict"_s).toString(),
             cmp->comparability.verdict());

    // --- the acceptance bundle of the workbench run: its dataset hash and its command ---
    const QDir b(bundle);
    QStringList datasetFiles, commandFiles;
    QDirIterator it(bundle, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        if (f.endsWith("dataset.json"_L1))
            datasetFiles << f;
        if (f.endsWith("command.txt"_L1))
            commandFiles << f;
    }
    QVERIFY2(!datasetFiles.isEmpty() && !commandFiles.isEmpty(),
             qPrintable(b.entryList().join(u", "_s)));
    bool hashFound = false, commandFound = false;
    for (const QString &f : std::as_const(datasetFiles)) {
        QFile file(f);
        QVERIFY(file.open(QIODevice::ReadOnly));
        hashFound = hashFound || file.readAll().contains(hash.toLatin1());
    }
    for (const QString &f : std::as_const(commandFiles)) {
        QFile file(f);
        QVERIFY(file.open(QIODevice::ReadOnly));
        commandFound = commandFound || file.readAll().contains(command.toUtf8());
    }
    QVERIFY2(hashFound, "the bundle's dataset.json lacks the dataset hash");
    QVERIFY2(commandFound, "the bundle's command.txt lacks the reproducing command");
}

QTEST_MAIN(TestPipelineParity)
#include "tst_pipelineparity.moc"
