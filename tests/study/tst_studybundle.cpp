// The acceptance bundle of a study (docs/study.md, "Acceptance bundle"), through servebench-cli
// as a user makes it: a tiny study of two built-in simulator candidates (one open-loop
// scenario, 2 repeats), killed once during a cell so that one run stays interrupted, then
// `study decide --json` and `study bundle`. Checked: every run the study's cells made has its
// folder with every file; cells.csv lists every cell and attempt with its state (the interrupted
// attempt too); decision.json is byte for byte what `study decide --json` wrote; the cost files
// hold the study's windows; the manifest verifies (verifyAcceptanceBundle and sha256sum -c) and
// stops verifying after one byte changes; the API key, which a candidate's header refers to as
// {api_key}, appears in no file; a non-empty target is refused; --lang zh_CN gives a
// Chinese report and the same decision JSON.
#include "clirun.h"
#include "studytestutil.h"

#include "report/bundle.h"
#include "store/projectstore.h"
#include "study/studybundle.h"
#include "study/studystore.h"

#include <QDir>
#include <QDirIterator>
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

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// The secret that must not reach the bundle: the key from the environment (the candidate's
// header refers to it as {api_key}; a key written out in the flags is refused when the study is
// defined, tst_studyplan).
constexpr char kApiKey[] = "sk-bundle-test-key-5d1e8b70c2";

QJsonObject candidate(const QString &name, double ttftMs, const QJsonArray &flags)
{
    return QJsonObject{{u"name"_s, name},
                       {u"simulator"_s, QJsonObject{{u"ttft_ms"_s, ttftMs}, {u"itl_ms"_s, 5}}},
                       {u"flags"_s, flags},
                       {u"cost"_s, QJsonObject{{u"source"_s, u"price_per_hour"_s},
                                               {u"price_per_hour"_s, u"2.50"_s},
                                               {u"currency"_s, u"USD"_s}}}};
}

QJsonObject definition()
{
    return QJsonObject{
        {u"name"_s, u"tiny"_s},
        {u"question"_s, u"Which simulator answers first?"_s},
        {u"boundary"_s,
         QJsonObject{{u"model"_s, u"servebench-sim"_s},
                     {u"dataset"_s,
                      QJsonObject{{u"flags"_s, QJsonArray{u"--dataset-name"_s, u"random"_s,
                                                          u"--random-input-len"_s, u"16"_s,
                                                          u"--random-output-len"_s, u"8"_s}}}},
                     {u"request"_s, QJsonObject{{u"flags"_s, QJsonArray{u"--ignore-eos"_s}}}}}},
        {u"scenarios"_s,
         QJsonArray{QJsonObject{
             {u"name"_s, u"poisson"_s},
             {u"kind"_s, u"open-loop"_s},
             {u"flags"_s, QJsonArray{u"--request-rate"_s, u"20"_s, u"--num-prompts"_s, u"20"_s}}}}},
        {u"repeats"_s, 2},
        {u"seed"_s, 3},
        {u"candidates"_s,
         QJsonArray{candidate(u"A"_s, 20, {u"--header"_s, u"X-Gateway-Key: {api_key}"_s}),
                    candidate(u"B"_s, 30, {})}}};
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QProcessEnvironment cliEnv(const QString &lang = u"C"_s)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"OPENAI_API_KEY"_s, QString::fromLatin1(kApiKey));
    env.remove(u"LANGUAGE"_s);
    env.remove(u"LC_MESSAGES"_s);
    env.insert(u"LC_ALL"_s, lang);
    env.insert(u"LANG"_s, lang);
    return env;
}

// cells.csv rows as column -> value (no field of this study needs quoting).
QList<QHash<QString, QString>> readCsv(const QString &path)
{
    QList<QHash<QString, QString>> rows;
    const QList<QByteArray> lines = readAll(path).split('\n');
    if (lines.isEmpty())
        return rows;
    const QStringList header = QString::fromUtf8(lines.first()).split(u',');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (lines.at(i).isEmpty())
            continue;
        const QStringList fields = QString::fromUtf8(lines.at(i)).split(u',');
        QHash<QString, QString> row;
        for (qsizetype k = 0; k < header.size() && k < fields.size(); ++k)
            row.insert(header.at(k), fields.at(k));
        rows << row;
    }
    return rows;
}

} // namespace

class TestStudyBundle : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_project;
    QString m_bundle;
    QList<qint64> m_runs; // every run the study's cells made
    qint64 m_interrupted = 0;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_project = m_dir.filePath(u"tiny.sbproj"_s);
        m_bundle = m_dir.filePath(u"bundle"_s);
        const QString file = m_dir.filePath(u"tiny.json"_s);
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(definition()).toJson());
        }
        QElapsedTimer wall;
        wall.start();
        // Killed (SIGKILL) during the second cell: its run stays recorded as interrupted. 200 ms
        // is about a fifth of the run's 20 requests at 20/s.
        {
            const studytest::KilledRun k =
                studytest::killStudyRunAt(file, m_project, "cell 2/4 started", 200, cliEnv());
            QVERIFY2(k.sawMarker, (k.out + k.err).constData());
        }
        const test::CliResult resumed =
            test::runCli({u"study"_s, u"run"_s, file, u"--project"_s, m_project}, 120000, cliEnv());
        QVERIFY2(resumed.code == 0, qPrintable(resumed.describe()));
        QVERIFY2(resumed.out.contains(u"stays recorded as interrupted"_s), qPrintable(resumed.out));

        ProjectStore store;
        QVERIFY(store.open(m_project, ProjectStore::OpenMode::ReadOnly));
        StudyStore studies(&store);
        const auto v = studies.latestVersion(studies.studyId(u"tiny"_s));
        QVERIFY(v);
        for (const StoredStudyCell &c : studies.cells(v->id))
            for (qint64 id : studies.cellRuns(c.id)) {
                m_runs << id;
                const auto run = store.loadRun(id);
                QVERIFY(run);
                if (run->status == StoredRunStatus::Interrupted)
                    m_interrupted = id;
            }
        QCOMPARE(m_runs.size(), 5);
        QVERIFY(m_interrupted > 0);
        qInfo("study of 4 cells, killed and resumed: %.1f s", wall.elapsed() / 1000.0);
    }

    void bundleMatchesDecide()
    {
        const QString decision = m_dir.filePath(u"decision.json"_s);
        const test::CliResult decide = test::runCli(
            {u"study"_s, u"decide"_s, u"--project"_s, m_project, u"--json"_s, decision}, 60000,
            cliEnv());
        QVERIFY2(decide.code == 0, qPrintable(decide.describe()));
        const test::CliResult bundle = test::runCli(
            {u"study"_s, u"bundle"_s, u"tiny"_s, u"--project"_s, m_project, u"--out"_s, m_bundle},
            60000, cliEnv());
        QVERIFY2(bundle.code == 0, qPrintable(bundle.describe()));
        QVERIFY2(bundle.out.contains(u"cd %1 && sha256sum -c MANIFEST.sha256"_s.arg(m_bundle)),
                 qPrintable(bundle.out));
        QVERIFY2(bundle.out.contains(u"study/decision.json"_s), qPrintable(bundle.out));
        // The same bytes as `study decide --json`, not a second derivation.
        const QByteArray expected = readAll(decision);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(readAll(m_bundle + u"/study/decision.json"_s), expected);
        for (const QString &f :
             {u"README.txt"_s, u"study/definition.json"_s, u"study/report.html"_s,
              u"study/report.pdf"_s, u"manifest.json"_s, u"MANIFEST.sha256"_s})
            QVERIFY2(!readAll(m_bundle + u'/' + f).isEmpty(), qPrintable(f));
        QVERIFY(readAll(m_bundle + u"/study/report.pdf"_s).startsWith("%PDF"));
        const QJsonObject def =
            QJsonDocument::fromJson(readAll(m_bundle + u"/study/definition.json"_s)).object();
        QCOMPARE(def[u"name"_s].toString(), u"tiny"_s);
        QCOMPARE(def[u"candidates"_s].toArray().size(), 2);
    }

    void everyRunHasItsFolder()
    {
        QSet<QString> dirs;
        for (const QString &d :
             QDir(m_bundle + u"/runs"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            dirs.insert(d);
        QSet<QString> want;
        for (qint64 id : std::as_const(m_runs))
            want.insert(QString::number(id));
        QCOMPARE(dirs, want);
        for (qint64 id : std::as_const(m_runs))
            for (const QString &f :
                 {u"sut.json"_s, u"dataset.json"_s, u"command.txt"_s, u"snapshot.json"_s,
                  u"result.json"_s, u"requests.csv"_s, u"failed-requests.json"_s}) {
                const QString path = u"%1/runs/%2/%3"_s.arg(m_bundle).arg(id).arg(f);
                QVERIFY2(!readAll(path).isEmpty(), qPrintable(path));
            }
        // The command reproduces the run: a servebench-cli line.
        QVERIFY(readAll(u"%1/runs/%2/command.txt"_s.arg(m_bundle).arg(m_runs.first()))
                    .contains("servebench-cli"));
        const QJsonObject manifest =
            QJsonDocument::fromJson(readAll(m_bundle + u"/manifest.json"_s)).object();
        QCOMPARE(manifest[u"kind"_s].toString(), u"study"_s);
        QCOMPARE(manifest[u"runs"_s].toArray().size(), m_runs.size());
    }

    void cellsListEveryAttempt()
    {
        const auto rows = readCsv(m_bundle + u"/study/cells.csv"_s);
        QCOMPARE(rows.size(), 5); // 4 cells, one of them with an interrupted attempt
        QSet<QString> positions;
        QSet<QString> runIds;
        for (const auto &r : rows) {
            positions.insert(r.value(u"position"_s));
            runIds.insert(r.value(u"run_id"_s));
            QVERIFY(r.value(u"candidate"_s) == "A"_L1 || r.value(u"candidate"_s) == "B"_L1);
            QCOMPARE(r.value(u"scenario"_s), u"poisson"_s);
            QCOMPARE(r.value(u"cell_state"_s), u"completed"_s);
            if (r.value(u"run_id"_s) == QString::number(m_interrupted)) {
                QCOMPARE(r.value(u"run_status"_s), u"interrupted"_s);
                QCOMPARE(r.value(u"attempt"_s), u"1"_s);
                QCOMPARE(r.value(u"pooled"_s), u"no"_s);
                QVERIFY(!r.value(u"reason"_s).isEmpty());
            } else {
                QCOMPARE(r.value(u"run_status"_s), u"completed"_s);
                QCOMPARE(r.value(u"pooled"_s), u"yes"_s);
            }
        }
        QCOMPARE(positions, (QSet<QString>{u"1"_s, u"2"_s, u"3"_s, u"4"_s}));
        QCOMPARE(runIds.size(), 5);
    }

    void costFilesHoldTheStudyWindows()
    {
        const QJsonArray windows =
            QJsonDocument::fromJson(readAll(m_bundle + u"/cost/windows.json"_s))
                .object()[u"windows"_s]
                .toArray();
        QCOMPARE(windows.size(), 2); // A x poisson, B x poisson
        const QJsonArray items =
            QJsonDocument::fromJson(readAll(m_bundle + u"/cost/bill-items.json"_s))
                .object()[u"items"_s]
                .toArray();
        QCOMPARE(items.size(), 2); // each candidate's price per hour
        // A mapping row per completed run (the interrupted one is in no window).
        const auto rows = readCsv(m_bundle + u"/cost/bill-mapping.csv"_s);
        QSet<QString> mapped;
        for (const auto &r : rows) {
            mapped.insert(r.value(u"run_id"_s));
            QVERIFY2(r.value(u"window"_s).startsWith("study tiny v1"_L1),
                     qPrintable(r.value(u"window"_s)));
        }
        QCOMPARE(mapped.size(), 4);
        QVERIFY(!mapped.contains(QString::number(m_interrupted)));
    }

    void manifestVerifiesAndCatchesAChange()
    {
        QStringList problems;
        QVERIFY2(verifyAcceptanceBundle(m_bundle, &problems), qPrintable(problems.join(u'\n')));
        QProcess sha;
        sha.setWorkingDirectory(m_bundle);
        sha.start(u"sha256sum"_s, {u"-c"_s, u"--quiet"_s, u"MANIFEST.sha256"_s});
        QVERIFY(sha.waitForFinished(30000));
        QVERIFY2(sha.exitCode() == 0, sha.readAllStandardOutput().constData());

        // One byte of one run's raw records changed: both checks name it.
        const QString copy = m_dir.filePath(u"changed"_s);
        QVERIFY(QDir().mkpath(copy));
        QDirIterator it(m_bundle, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString from = it.next();
            const QString to = copy + u'/' + QDir(m_bundle).relativeFilePath(from);
            QVERIFY(QDir().mkpath(QFileInfo(to).absolutePath()));
            QVERIFY(QFile::copy(from, to));
        }
        const QString rel = u"runs/%1/requests.csv"_s.arg(m_runs.last());
        QFile f(copy + u'/' + rel);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray data = f.readAll();
        data[data.size() / 2] = data.at(data.size() / 2) == '1' ? '2' : '1';
        QVERIFY(f.seek(0));
        QCOMPARE(f.write(data), data.size());
        f.close();
        QVERIFY(!verifyAcceptanceBundle(copy, &problems));
        QCOMPARE(problems, QStringList{rel + u": checksum differs"_s});
        QProcess changed;
        changed.setWorkingDirectory(copy);
        changed.start(u"sha256sum"_s, {u"-c"_s, u"--quiet"_s, u"MANIFEST.sha256"_s});
        QVERIFY(changed.waitForFinished(30000));
        QVERIFY(changed.exitCode() != 0);
        QVERIFY(changed.readAllStandardOutput().contains(rel.toUtf8() + ": FAILED"));
    }

    void noSecretInAnyFile()
    {
        int files = 0;
        bool reference = false;
        QDirIterator it(m_bundle, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QByteArray data = readAll(path);
            ++files;
            QVERIFY2(!data.contains(kApiKey), qPrintable(path));
            reference = reference || data.contains("{api_key}");
        }
        QVERIFY(files > 40);
        // The header is there as a reference: the key was looked for where it would be.
        QVERIFY(reference);
    }

    void refusesANonEmptyTarget()
    {
        const test::CliResult again =
            test::runCli({u"study"_s, u"bundle"_s, u"--project"_s, m_project, u"--out"_s, m_bundle},
                         60000, cliEnv());
        QCOMPARE(again.code, 1);
        QVERIFY2(again.err.contains(u"exists and is not empty"_s), qPrintable(again.describe()));
        // In-process, without a renderer: the same refusal; into a new folder, no PDF.
        ProjectStore store;
        QVERIFY(store.open(m_project, ProjectStore::OpenMode::ReadWrite));
        QString error;
        QStringList files;
        QVERIFY(!writeStudyBundle(&store, {}, 0, m_bundle, false, nullptr, &files, &error));
        QVERIFY2(error.contains(u"exists and is not empty"_s), qPrintable(error));
        const QString plain = m_dir.filePath(u"no-pdf"_s);
        QVERIFY2(writeStudyBundle(&store, {}, 0, plain, false, nullptr, &files, &error),
                 qPrintable(error));
        QVERIFY(files.contains(u"study/cells.csv"_s));
        QVERIFY(!files.contains(u"study/report.pdf"_s));
        QStringList problems;
        QVERIFY2(verifyAcceptanceBundle(plain, &problems), qPrintable(problems.join(u'\n')));
    }

    void chineseReportSameDecision()
    {
        const QString zh = m_dir.filePath(u"bundle-zh"_s);
        const test::CliResult bundle =
            test::runCli({u"study"_s, u"bundle"_s, u"--project"_s, m_project, u"--out"_s, zh,
                          u"--lang"_s, u"zh_CN"_s},
                         60000, cliEnv());
        QVERIFY2(bundle.code == 0, qPrintable(bundle.describe()));
        static const QRegularExpression han(u"[\\x{4e00}-\\x{9fff}]"_s);
        QVERIFY(QString::fromUtf8(readAll(zh + u"/study/report.html"_s)).contains(han));
        QVERIFY(!QString::fromUtf8(readAll(m_bundle + u"/study/report.html"_s)).contains(han));
        // The machine-read forms stay English: the decision JSON is the same bytes.
        QCOMPARE(readAll(zh + u"/study/decision.json"_s),
                 readAll(m_dir.filePath(u"decision.json"_s)));
        const test::CliResult bad =
            test::runCli({u"study"_s, u"bundle"_s, u"--project"_s, m_project, u"--out"_s,
                          m_dir.filePath(u"bundle-fr"_s), u"--lang"_s, u"fr"_s},
                         60000, cliEnv());
        QCOMPARE(bad.code, 2);
    }
};

QTEST_GUILESS_MAIN(TestStudyBundle)
#include "tst_studybundle.moc"
