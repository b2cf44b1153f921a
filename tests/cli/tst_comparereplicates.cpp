// `servebench-cli compare` on repeats of one plan (issue 26): two runs of one series are
// replicates of one candidate, not competitors. compare pools them — the mean of each key metric
// with its interval over the runs — and ranks nothing (docs/statistics.md, "Repeats are
// replicates"). Before the fix it printed "Ranked by P99 TTFT (lower is better)" and ordered
// the two repeats by their noise, with no interval and no ties.
#include "clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestCompareReplicates : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_project;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_project = m_dir.filePath(u"repeats.sbproj"_s);
        // One plan, three repeats, against the built-in simulator (no server needed).
        const test::CliResult r = test::runCli(
            {u"run"_s, u"--project"_s, m_project, u"--num-runs"_s, u"3"_s, u"--num-prompts"_s,
             u"40"_s, u"--request-rate"_s, u"100"_s, u"--random-input-len"_s, u"8"_s,
             u"--random-output-len"_s, u"4"_s, u"--ignore-eos"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
    }

    void repeatsAreNotRanked()
    {
        const test::CliResult r =
            test::runCli({u"compare"_s, u"--project"_s, m_project, u"--runs"_s, u"1,2"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        // No ranking of noise: neither the plain ranking nor a ranking with ties.
        QVERIFY2(!r.out.contains(u"Ranked by"_s), qPrintable(r.out));
        QVERIFY2(!r.out.contains(u"Ranking by"_s), qPrintable(r.out));
        QVERIFY2(!QRegularExpression(u"^  1\\. #"_s, QRegularExpression::MultilineOption)
                      .match(r.out)
                      .hasMatch(),
                 qPrintable(r.out));
        // It says why, and gives the pooled figure with its interval over the runs.
        QVERIFY2(r.out.contains(u"are repeats of one candidate"_s), qPrintable(r.out));
        QVERIFY2(r.out.contains(u"replicates, not competitors"_s), qPrintable(r.out));
        const auto pooled =
            QRegularExpression(u"^  P99 TTFT \\(ms\\)\\s+([0-9.]+) \\[([0-9.]+), ([0-9.]+)\\]  "
                               "\\(2 runs\\)$"_s,
                               QRegularExpression::MultilineOption)
                .match(r.out);
        QVERIFY2(pooled.hasMatch(), qPrintable(r.out));
        const double mean = pooled.captured(1).toDouble();
        QVERIFY(pooled.captured(2).toDouble() <= mean && mean <= pooled.captured(3).toDouble());
    }

    void reportJsonHasNoRanking()
    {
        const QString json = m_dir.filePath(u"repeats.json"_s);
        const test::CliResult r = test::runCli(
            {u"report"_s, u"--project"_s, m_project, u"--runs"_s, u"1,2,3"_s, u"--json"_s, json});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject cmp =
            QJsonDocument::fromJson(f.readAll()).object()[u"comparison"_s].toObject();
        QCOMPARE(cmp[u"ranking_run_ids"_s].toArray().size(), 0);
        QVERIFY(cmp[u"ranking_with_ties"_s].toObject().isEmpty());
        QCOMPARE(cmp[u"candidates"_s].toArray().size(), 1);
        QVERIFY(cmp[u"rank_note"_s].toString().contains(u"replicates, not competitors"_s));
    }

    void twoSeriesAreStillRanked()
    {
        // A second series of another rate: two candidates again, each pooled over its runs,
        // tested against each other and ranked with ties.
        const test::CliResult run = test::runCli(
            {u"run"_s, u"--project"_s, m_project, u"--num-runs"_s, u"2"_s, u"--num-prompts"_s,
             u"40"_s, u"--request-rate"_s, u"50"_s, u"--random-input-len"_s, u"8"_s,
             u"--random-output-len"_s, u"4"_s, u"--ignore-eos"_s});
        QVERIFY2(run.code == 0, qPrintable(run.describe()));
        const test::CliResult r =
            test::runCli({u"compare"_s, u"--project"_s, m_project, u"--runs"_s, u"1,2,4,5"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY2(r.out.contains(u"Ranking by P99 TTFT with ties"_s), qPrintable(r.out));
        QVERIFY2(!r.out.contains(u"replicates, not competitors"_s), qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TestCompareReplicates)
#include "tst_comparereplicates.moc"
