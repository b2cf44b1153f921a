// The Compare tab's statistics end to end: runs of two simulator configurations made with
// servebench-cli (simcomparison.h) — 50 vs 55 ms TTFT is "worse" with the true 5 ms inside its
// interval and coloured; one configuration run twice is "no detectable difference", neutral,
// with a tied rank; and the runs of two series picked together compare as two candidates over
// runs, where a single run's throughput could not be tested.

#include "../report/reportfixture.h"
#include "simcomparison.h"

#include "charts/chartview.h"
#include "compare/comparisontablemodel.h"
#include "compare/comparisonview.h"
#include "compare/significancemodel.h"
#include "report/comparison.h"

#include <QChart>
#include <QColor>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QXYSeries>

using namespace Qt::StringLiterals;
using namespace sb;

class TestCompareSignificance : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void knownDifferenceIsWorse();
    void sameConfigurationIsNeutralAndTied();
    void seriesCompareAsGroups();
    void saturatedStepsDrawnApart();

private:
    void open(const QString &path);
    void select(const QList<qint64> &ids);

    QTemporaryDir m_dir;
    QString m_sims;
    QString m_series;
    QList<qint64> m_seriesRuns;
    QList<qint64> m_sweepRuns; // a rate sweep whose last step stopped early, over-saturated
    ComparisonView *m_view = nullptr;
};

void TestCompareSignificance::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_sims = m_dir.filePath(u"sims.sbproj"_s);
    const QString error = test::buildSimulatorComparison(m_sims);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    // Two series of three runs (sweep rows of kind "series"): B's runs are twice as fast per
    // token, so its latencies are half of A's in every run.
    m_series = m_dir.filePath(u"series.sbproj"_s);
    qint64 sweepA = 0, sweepB = 0;
    {
        ProjectStore s;
        QVERIFY(s.open(m_series));
        const QJsonObject cache{{u"cache_state"_s,
                                 u"cache-busted: every request of every run has a new random "
                                 "prefix"_s}};
        sweepA = s.saveSweep({0, u"A x3"_s, u"series"_s, cache, {}});
        sweepB = s.saveSweep({0, u"B x3"_s, u"series"_s, cache, {}});
        QVERIFY(sweepA > 0 && sweepB > 0);
    }
    RunWriter w;
    QString error2;
    QVERIFY2(w.open(m_series, &error2), qPrintable(error2));
    const QDateTime start(QDate(2024, 5, 2), QTime(9, 0), Qt::UTC);
    for (int i = 0; i < 6; ++i) {
        const bool b = i >= 3;
        RunInfo links;
        links.sweepId = b ? sweepB : sweepA;
        links.sweepPosition = i % 3;
        const qint64 id = fixture::writeRun(w, fixture::plan(u"sim"_s, u"vllm"_s, u"A100"_s),
                                            fixture::records(40 + (i % 3), b ? 0.5 : 1.0, {}),
                                            u"%1 run-%2"_s.arg(b ? u"B"_s : u"A"_s).arg(i % 3 + 1),
                                            start.addSecs(60 * i), links);
        QVERIFY(id > 0);
        m_seriesRuns << id;
    }
    // A rate sweep of three steps in the same project; the third stopped early as
    // over-saturated, with the detector's evidence in its stored summary.
    qint64 sweep = 0;
    {
        ProjectStore s;
        QVERIFY(s.open(m_series));
        sweep = s.saveSweep({0, u"rate sweep"_s, u"sweep"_s, {}, {}});
    }
    const QString reason = u"over-saturated: in flight +1.50/s and median TTFT +20.0 ms/s over "
                           "30 s while throughput did not grow"_s;
    for (int k = 0; k < 3; ++k) {
        RunInfo links;
        links.sweepId = sweep;
        links.sweepPosition = k;
        sb::RunPlan p = fixture::plan(u"sweep-sut"_s, u"vllm"_s, u"A100"_s);
        p.profile.requestRate = 5 * (k + 1);
        QJsonObject summary;
        if (k == 2)
            summary[u"stopped_early"_s] = QJsonObject{
                {u"reason"_s, u"stopped early: over-saturated ("_s + reason + u')'},
                {u"saturation"_s, QJsonObject{{u"saturated"_s, true}, {u"reason"_s, reason}}}};
        m_sweepRuns << fixture::writeRun(w, p, fixture::records(40, 1.0 + k, {}),
                                         u"step %1"_s.arg(k + 1), start.addSecs(3600 + 60 * k),
                                         links, summary);
        QVERIFY(m_sweepRuns.last() > 0);
    }
    w.close();
}

void TestCompareSignificance::init()
{
    m_view = new ComparisonView;
    m_view->resize(1300, 850);
    m_view->show();
}

void TestCompareSignificance::cleanup()
{
    delete m_view;
    m_view = nullptr;
}

void TestCompareSignificance::open(const QString &path)
{
    QSignalSpy listed(m_view, &ComparisonView::runsListed);
    m_view->setProject(path);
    QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isBusy(), 30000);
}

void TestCompareSignificance::select(const QList<qint64> &ids)
{
    QSignalSpy shown(m_view, &ComparisonView::comparisonShown);
    m_view->setSelectedRuns(ids);
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isBusy(), 60000);
    QVERIFY(m_view->comparison());
}

void TestCompareSignificance::knownDifferenceIsWorse()
{
    open(m_sims);
    select({1, 2});
    QVERIFY(m_view->setRankBy(u"ttft:mean"_s));
    QTRY_VERIFY_WITH_TIMEOUT(m_view->comparison()->rankBy.rowKey() == "ttft.mean"_L1, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isBusy(), 30000);
    SignificanceModel *sig = m_view->significanceModel();
    for (const QString &key : {u"ttft.mean"_s, u"ttft.median"_s, u"ttft.p90"_s}) {
        const int r = sig->rowOf(key, 1);
        QVERIFY2(r >= 0, qPrintable(key));
        const QModelIndex verdict = sig->index(r, SignificanceModel::VerdictColumn);
        QCOMPARE(verdict.data(SignificanceModel::VerdictRole).toString(), u"worse"_s);
        QCOMPARE(verdict.data().toString(), u"worse"_s);
        QCOMPARE(verdict.data(Qt::ForegroundRole).value<QColor>(), QColor(0xb0, 0x00, 0x20));
        const double lo = verdict.data(SignificanceModel::LowRole).toDouble();
        const double hi = verdict.data(SignificanceModel::HighRole).toDouble();
        qInfo("%s: [%.2f, %.2f] ms", qPrintable(key), lo, hi);
        QVERIFY2(lo <= 5 && 5 <= hi, qPrintable(key));
        QVERIFY(
            sig->index(r, SignificanceModel::DifferenceColumn).data().toString().contains(u'['));
        // The main table colours the run's cell the same way.
        ComparisonTableModel *table = m_view->tableModel();
        QCOMPARE(table->index(table->rowOf(key), 2).data(Qt::ForegroundRole).value<QColor>(),
                 QColor(0xb0, 0x00, 0x20));
    }
    // The 50 ms run ranks alone in first place.
    ComparisonTableModel *table = m_view->tableModel();
    QCOMPARE(table->index(0, 1).data().toString(), u"1"_s);
    QCOMPARE(table->index(0, 2).data().toString(), u"2"_s);
    // A single run's throughput: shown, not judged, and said so.
    const int tput = sig->rowOf(u"request_throughput"_s, 1);
    QCOMPARE(sig->index(tput, SignificanceModel::VerdictColumn)
                 .data(SignificanceModel::VerdictRole)
                 .toString(),
             u"not-available"_s);
    QVERIFY(sig->index(tput, SignificanceModel::NoteColumn)
                .data()
                .toString()
                .startsWith(u"not testable from one run"_s));
    QVERIFY(
        !table->index(table->rowOf(u"request_throughput"_s), 2).data(Qt::ForegroundRole).isValid());
}

void TestCompareSignificance::sameConfigurationIsNeutralAndTied()
{
    open(m_sims);
    select({1, 3});
    SignificanceModel *sig = m_view->significanceModel();
    ComparisonTableModel *table = m_view->tableModel();
    for (const QString &key : {u"ttft.mean"_s, u"ttft.median"_s, u"ttft.p90"_s, u"ttft.p99"_s}) {
        const int r = sig->rowOf(key, 1);
        QVERIFY2(r >= 0, qPrintable(key));
        const QModelIndex verdict = sig->index(r, SignificanceModel::VerdictColumn);
        QCOMPARE(verdict.data(SignificanceModel::VerdictRole).toString(),
                 u"no-detectable-difference"_s);
        QVERIFY(!verdict.data(Qt::ForegroundRole).isValid());
        // The hint says what would detect a 5 % difference.
        QVERIFY(sig->index(r, SignificanceModel::NoteColumn)
                    .data()
                    .toString()
                    .contains(u"would detect a 5 % difference"_s));
        // No colour in the main table, whatever the sign of the raw difference.
        QVERIFY(
            table->index(table->rowOf(key), 2).data(ComparisonTableModel::AbsDiffRole).isValid());
        QVERIFY(!table->index(table->rowOf(key), 2).data(Qt::ForegroundRole).isValid());
    }
    // Ranked by p99 TTFT (the default): a tie the data cannot separate.
    QCOMPARE(table->index(0, 1).data().toString(), u"1="_s);
    QCOMPARE(table->index(0, 2).data().toString(), u"1="_s);
    QVERIFY(table->index(0, 1).data(ComparisonTableModel::TiedRole).toBool());
    QVERIFY(m_view->notesText().contains(u"Tied: the data cannot separate"_s));
}

void TestCompareSignificance::seriesCompareAsGroups()
{
    open(m_series);
    select(m_seriesRuns);
    const Comparison *c = m_view->comparison();
    QCOMPARE(c->columns.size(), 6); // every run shown on its own
    QCOMPARE(c->candidates.size(), 2);
    QCOMPARE(c->candidates.at(1).label, u"series B x3 (3 runs)"_s);
    SignificanceModel *sig = m_view->significanceModel();
    const int r = sig->rowOf(u"request_throughput"_s, 1);
    QVERIFY(r >= 0);
    const QModelIndex verdict = sig->index(r, SignificanceModel::VerdictColumn);
    // Over runs the throughput is testable.
    QVERIFY2(verdict.data(SignificanceModel::VerdictRole).toString() != "not-available"_L1,
             qPrintable(sig->index(r, SignificanceModel::NoteColumn).data().toString()));
    QVERIFY(sig->index(r, SignificanceModel::ValueColumn).data().toString().contains(u"CV"_s));
    QCOMPARE(sig->index(r, SignificanceModel::CandidateColumn).data().toString(),
             u"series B x3 (3 runs)"_s);
    // The cache state between runs is stated.
    QVERIFY2(m_view->notesText().contains(u"cache-busted"_s), qPrintable(m_view->notesText()));
    // Mean TTFT of B's runs is half of A's in every run: better over runs.
    const int ttft = sig->rowOf(u"ttft.mean"_s, 1);
    QCOMPARE(sig->index(ttft, SignificanceModel::VerdictColumn)
                 .data(SignificanceModel::VerdictRole)
                 .toString(),
             u"better"_s);
    // Each run's cell in the main table takes its series' colour.
    ComparisonTableModel *table = m_view->tableModel();
    QCOMPARE(table->index(table->rowOf(u"ttft.mean"_s), 5).data(Qt::ForegroundRole).value<QColor>(),
             QColor(0x1b, 0x7f, 0x3b));
}

void TestCompareSignificance::saturatedStepsDrawnApart()
{
    open(m_series);
    select({m_sweepRuns.at(0), m_seriesRuns.at(0)});
    const LatencyCurves *curves = m_view->latencyCurves();
    QVERIFY(curves);
    const LatencyCurve *sweep = nullptr;
    for (const LatencyCurve &c : curves->curves)
        if (c.sut == "sweep-sut"_L1)
            sweep = &c;
    QVERIFY(sweep);
    QCOMPARE(sweep->points.size(), 3); // the saturated step keeps its point
    int saturated = 0;
    double saturatedLatency = 0;
    for (const LatencyCurvePoint &p : sweep->points)
        if (p.saturated) {
            ++saturated;
            saturatedLatency = p.latency;
            QCOMPARE(p.runId, m_sweepRuns.at(2));
        }
    QCOMPARE(saturated, 1);
    // Drawn apart: a series of hollow rings named as over-saturated, over that one point.
    ChartView *chart = m_view->curveChart();
    int rings = -1;
    for (int i = 0; i < chart->chart()->series().size(); ++i)
        if (chart->chart()->series().at(i)->name() == u"sweep-sut — over-saturated"_s)
            rings = i;
    QVERIFY(rings >= 0);
    QCOMPARE(chart->series(rings)->points().size(), 1);
    QCOMPARE(chart->series(rings)->points().first().y(), saturatedLatency);
    // And said so in the notes under the chart.
    auto *notes = m_view->findChild<QLabel *>(u"curveNotes"_s);
    QVERIFY(notes->text().contains(u"Hollow points"_s));
    QVERIFY(notes->text().contains(u"stopped early as over-saturated"_s));
}

QTEST_MAIN(TestCompareSignificance)
#include "tst_comparesignificance.moc"
