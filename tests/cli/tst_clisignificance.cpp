// `servebench-cli compare` on real runs of two simulator configurations (simcomparison.h): TTFT
// 50 ms against 55 ms comes out as a significant difference whose interval holds the true 5 ms;
// one configuration run twice comes out as no detectable difference; and the report JSON carries
// the same verdicts.
#include "simcomparison.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

struct TestLine
{
    bool found = false;
    double diff = 0, lo = 0, hi = 0;
    QString verdict;
};

// "Mean TTFT (ms)   #2 <label>: +5.02 [+3.90, +6.11] ms (+9.8 % [...]): worse"
TestLine testLine(const QString &text, const QString &label, int run)
{
    const QRegularExpression re(
        u"^"_s + QRegularExpression::escape(label) +
            u"\\s+#%1 [^\\n]*?: ([+-]?[0-9.]+) \\[([+-]?[0-9.]+), ([+-]?[0-9.]+)\\] ms .*: "
            "(better|worse|no detectable difference at 95 %)$"_s.arg(run),
        QRegularExpression::MultilineOption);
    const auto m = re.match(text);
    TestLine t;
    if (!m.hasMatch())
        return t;
    t.found = true;
    t.diff = m.captured(1).toDouble();
    t.lo = m.captured(2).toDouble();
    t.hi = m.captured(3).toDouble();
    t.verdict = m.captured(4);
    return t;
}

const QStringList kTtftRows = {u"Mean TTFT (ms)"_s, u"Median TTFT (ms)"_s, u"P90 TTFT (ms)"_s,
                               u"P99 TTFT (ms)"_s};

} // namespace

class TestCliSignificance : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_project;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_project = m_dir.filePath(u"sims.sbproj"_s);
        const QString error = test::buildSimulatorComparison(m_project);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void knownDifferenceIsSignificant()
    {
        const test::CliResult r =
            test::runCli({u"compare"_s, u"--project"_s, m_project, u"--runs"_s, u"1,2"_s,
                          u"--rank-by"_s, u"ttft:mean"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        for (const QString &row : kTtftRows) {
            const TestLine t = testLine(r.out, row, 2);
            QVERIFY2(t.found, qPrintable(row + u"\n"_s + r.out));
            qInfo("%s: %+.2f [%+.2f, %+.2f] ms, %s", qPrintable(row), t.diff, t.lo, t.hi,
                  qPrintable(t.verdict));
            // The truth, 5 ms, lies inside every interval.
            QVERIFY2(t.lo <= 5 && 5 <= t.hi, qPrintable(row));
            // Mean, median and p90 have the power to see it; p99 only needs to contain it.
            if (row != "P99 TTFT (ms)"_L1)
                QCOMPARE(t.verdict, u"worse"_s);
        }
        // Ranked by mean TTFT the 50 ms run is first and alone.
        QVERIFY2(
            QRegularExpression(u"Ranking by Mean TTFT with ties \\(95 %\\):\\n  1\\. #1 [^\\n]*"
                               "\\n  2\\. #2 "_s)
                .match(r.out)
                .hasMatch(),
            qPrintable(r.out));
        // A single run's throughput is shown, not judged.
        QVERIFY(r.out.contains(u"not testable from one run"_s));
    }

    void sameConfigurationIsNoDifference()
    {
        const test::CliResult r =
            test::runCli({u"compare"_s, u"--project"_s, m_project, u"--runs"_s, u"1,3"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        for (const QString &row : kTtftRows) {
            const TestLine t = testLine(r.out, row, 3);
            QVERIFY2(t.found, qPrintable(row + u"\n"_s + r.out));
            qInfo("%s: %+.2f [%+.2f, %+.2f] ms, %s", qPrintable(row), t.diff, t.lo, t.hi,
                  qPrintable(t.verdict));
            QCOMPARE(t.verdict, u"no detectable difference at 95 %"_s);
        }
        QVERIFY2(r.out.contains(u"hint: about "_s), qPrintable(r.out));
        QVERIFY(r.out.contains(u"(tied with #1 "_s));
    }

    void reportJsonCarriesTheVerdicts()
    {
        const QString json = m_dir.filePath(u"cmp.json"_s);
        const test::CliResult r = test::runCli(
            {u"report"_s, u"--project"_s, m_project, u"--runs"_s, u"1,2,3"_s, u"--json"_s, json});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject cmp =
            QJsonDocument::fromJson(f.readAll()).object()[u"comparison"_s].toObject();
        QCOMPARE(cmp[u"candidates"_s].toArray().size(), 3);
        bool seen = false;
        for (const QJsonValue &row : cmp[u"rows"_s].toArray()) {
            if (row[u"key"_s].toString() != "ttft.median"_L1)
                continue;
            seen = true;
            const QJsonArray tests = row[u"tests"_s].toArray();
            QCOMPARE(tests.size(), 3);
            QVERIFY(tests.at(0)[u"baseline"_s].toBool());
            QCOMPARE(tests.at(1)[u"verdict"_s].toString(), u"worse"_s);
            QCOMPARE(tests.at(2)[u"verdict"_s].toString(), u"no-detectable-difference"_s);
            const QJsonObject d = tests.at(1)[u"test"_s][u"difference"_s].toObject();
            QVERIFY(d[u"lo"_s].toDouble() <= 5 && 5 <= d[u"hi"_s].toDouble());
        }
        QVERIFY(seen);
    }
};

QTEST_GUILESS_MAIN(TestCliSignificance)
#include "tst_clisignificance.moc"
