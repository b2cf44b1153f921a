// The Compare tab over a fixture project: it lists the project's runs; two comparable runs show
// the verdict naming the single variable and a table whose every cell is buildComparison's
// number (n/a where core has none, never 0); the baseline and the ranking follow the choices;
// Server-style runs against an Offline run are refused with the reason and no ranking; the CDF
// charts draw one line per run and the latency-versus-throughput chart one curve per SUT over
// the runs' sweeps; Ctrl+C copies TSV; a language switch retranslates the view.

#include "comparefixture.h"

#include "charts/chartview.h"
#include "compare/barchartview.h"
#include "compare/comparisontablemodel.h"
#include "compare/comparisonview.h"
#include "editors/copyabletableview.h"
#include "report/chartspec.h"
#include "report/comparison.h"
#include "report/latencycurve.h"
#include "report/reportcost.h"
#include "report/reportrun.h"
#include "settingslanguage.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// What `servebench-cli compare` computes for the same runs and options.
Comparison expected(const QString &path, const QList<qint64> &ids, const ComparisonOptions &o)
{
    ProjectStore store;
    if (!store.open(path, ProjectStore::OpenMode::ReadOnly))
        return {};
    QList<ReportRun> runs;
    QString error;
    if (!loadReportRuns(store, ids, &runs, &error))
        return {};
    return buildComparison(runs, costsForRuns(store, runs), o);
}

bool same(const QVariant &shown, const std::optional<double> &core)
{
    if (!core)
        return !shown.isValid();
    return shown.isValid() && shown.toDouble() == *core;
}

} // namespace

class TestComparisonView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void listsRuns();
    void comparableRunsMatchCore();
    void baselineSwitchChangesDiffs();
    void rankByFollowsChoice();
    void serverVersusOfflineRefused();
    void cdfOneSeriesPerRun();
    void latencyThroughputOneCurvePerSut();
    void copiesTsv();
    void fewerThanTwoRunsClears();
    void retranslates();
    void exportsWhatIsShown();

private:
    void select(const QList<qint64> &ids);
    void waitIdle();

    QTemporaryDir m_dir;
    comparefixture::Project m_project;
    ComparisonView *m_view = nullptr;
    QAbstractItemModelTester *m_tester = nullptr;
};

void TestComparisonView::initTestCase()
{
    QString error;
    QVERIFY2(comparefixture::build(m_dir.filePath(u"compare.sbproj"_s), &m_project, &error),
             qPrintable(error));
}

void TestComparisonView::init()
{
    m_view = new ComparisonView;
    m_tester = new QAbstractItemModelTester(m_view->tableModel(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_view->resize(1300, 850);
    m_view->show();
    QSignalSpy listed(m_view, &ComparisonView::runsListed);
    m_view->setProject(m_project.path);
    QVERIFY(m_view->isBusy());
    QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
    waitIdle();
}

void TestComparisonView::cleanup()
{
    delete m_tester;
    delete m_view;
}

void TestComparisonView::waitIdle()
{
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->isBusy(), 30000);
}

void TestComparisonView::select(const QList<qint64> &ids)
{
    QSignalSpy shown(m_view, &ComparisonView::comparisonShown);
    m_view->setSelectedRuns(ids);
    QVERIFY(m_view->isBusy());
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 30000);
    waitIdle();
    QCOMPARE(m_view->selectedRuns(), ids);
}

void TestComparisonView::listsRuns()
{
    const comparefixture::Project &p = m_project;
    // Oldest first: A at 10:00, the Offline run at 10:05, A's sweep from 10:10, B at 11:00 and
    // B's sweep from 11:10.
    const QList<qint64> all = {p.runA, p.offline,   p.sweepA[0], p.sweepA[1], p.sweepA[2],
                               p.runB, p.sweepB[0], p.sweepB[1], p.sweepB[2]};
    QCOMPARE(m_view->listedRuns(), all);
    auto *picker = m_view->findChild<QTreeWidget *>(u"runPicker"_s);
    QVERIFY(picker);
    QCOMPARE(picker->topLevelItemCount(), all.size());
    // id, name, SUT, scenario, status, started, sweep
    const QTreeWidgetItem *offline = picker->topLevelItem(1);
    QCOMPARE(offline->text(0), u"#%1"_s.arg(p.offline));
    QCOMPARE(offline->text(1), u"Offline A"_s);
    QCOMPARE(offline->text(2), u"vllm-a100"_s);
    QCOMPARE(offline->text(3), u"Offline"_s);
    QCOMPARE(offline->text(4), u"completed"_s);
    QVERIFY(!offline->text(5).isEmpty());
    QCOMPARE(offline->text(6), QString());
    QCOMPARE(picker->topLevelItem(5)->text(2), u"sglang-h100"_s);
    QCOMPARE(picker->topLevelItem(2)->text(6), u"rate sweep vllm-a100"_s);
    QCOMPARE(offline->checkState(0), Qt::Unchecked);
    // Nothing ticked: no comparison, a hint instead.
    QVERIFY(!m_view->comparison());
    QVERIFY(m_view->verdictText().contains(u"Tick two or more runs"_s));
    QCOMPARE(m_view->tableModel()->rowCount(), 0);

    // Ticking in the picker is what a user does: two ticks compare.
    picker->topLevelItem(0)->setCheckState(0, Qt::Checked);
    picker->topLevelItem(5)->setCheckState(0, Qt::Checked);
    QTRY_VERIFY_WITH_TIMEOUT(m_view->comparison() != nullptr, 30000);
    waitIdle();
    QCOMPARE(m_view->comparison()->runIds, (QList<qint64>{p.runA, p.runB}));
    auto *baseline = m_view->findChild<QComboBox *>(u"baselineCombo"_s);
    QCOMPARE(baseline->count(), 2);
    QCOMPARE(baseline->currentData().toLongLong(), p.runA);
}

void TestComparisonView::comparableRunsMatchCore()
{
    const QList<qint64> ids = {m_project.runA, m_project.runB};
    select(ids);
    const Comparison *shown = m_view->comparison();
    QVERIFY(shown);
    const Comparison core = expected(m_project.path, ids, {});
    QCOMPARE(core.rows.size(), shown->rows.size());

    // The verdict: comparable, one variable, the SUT and what of it differs.
    const QString verdict = m_view->verdictText();
    QVERIFY2(verdict.contains(u"Comparable: exactly one variable differs"_s), qPrintable(verdict));
    QVERIFY2(verdict.contains(u"SUT ("_s) && verdict.contains(u"engine"_s), qPrintable(verdict));
    QVERIFY(m_view->notesText().contains(u"Ranked by P99 TTFT (lower is better)"_s));

    // Every cell is core's number; n/a is empty, never 0.
    ComparisonTableModel *model = m_view->tableModel();
    QCOMPARE(model->columnCount(), 3);
    for (const ComparisonRow &row : core.rows) {
        const int r = model->rowOf(row.key);
        QVERIFY2(r >= 0, qPrintable(row.key));
        for (int i = 0; i < row.cells.size(); ++i) {
            const ComparisonCell &cell = row.cells.at(i);
            const QModelIndex index = model->index(r, i + 1);
            QVERIFY2(same(index.data(ComparisonTableModel::ValueRole), cell.value),
                     qPrintable(row.key));
            const QString text = index.data().toString();
            if (cell.value) {
                QVERIFY2(text.startsWith(formatCell(row, cell)), qPrintable(text));
            } else {
                QCOMPARE(text, u"n/a"_s);
                QVERIFY(index.data(Qt::ToolTipRole).toString().contains(cell.note));
            }
            if (row.diffs) {
                QVERIFY(same(index.data(ComparisonTableModel::AbsDiffRole), cell.absDiff));
                QVERIFY(same(index.data(ComparisonTableModel::RelDiffRole), cell.relDiff));
            }
        }
    }

    // Column 2 (run B) against the baseline A: P99 TTFT shows value, difference and percent.
    const ComparisonRow *p99 = core.row(u"ttft.p99"_s);
    QVERIFY(p99 && p99->cells.at(1).relDiff);
    const QString bText = model->index(model->rowOf(u"ttft.p99"_s), 2).data().toString();
    QVERIFY2(bText.contains(QString::number(*p99->cells.at(1).absDiff, 'f', 2)), qPrintable(bText));
    QVERIFY2(bText.contains(QString::number(*p99->cells.at(1).relDiff * 100, 'f', 1) + u'%'),
             qPrintable(bText));
    // B is 30 % faster: on the mean TTFT the test separates that from noise, so the cell is
    // better (green) on a lower-is-better row.
    const QModelIndex meanB = model->index(model->rowOf(u"ttft.mean"_s), 2);
    QCOMPARE(meanB.data(ComparisonTableModel::VerdictRole).toString(), u"better"_s);
    QCOMPARE(meanB.data(Qt::ForegroundRole).value<QColor>(), QColor(0x1b, 0x7f, 0x3b));
    QVERIFY2(meanB.data(Qt::ToolTipRole).toString().contains(u"Test at 95 %: "_s),
             qPrintable(meanB.data(Qt::ToolTipRole).toString()));
    // P99 of 38 requests has no interval (299 needed): shown with its difference but not
    // coloured, and the tooltip says why.
    const QModelIndex p99B = model->index(model->rowOf(u"ttft.p99"_s), 2);
    QCOMPARE(p99B.data(ComparisonTableModel::VerdictRole).toString(), u"not-available"_s);
    QVERIFY(!p99B.data(Qt::ForegroundRole).isValid());
    QVERIFY2(p99B.data(Qt::ToolTipRole).toString().contains(u"needs at least 299 requests"_s),
             qPrintable(p99B.data(Qt::ToolTipRole).toString()));

    // Goodput under the plan's SLO, and the cost of each run's test window, are rows.
    for (const QString &key :
         {u"request_goodput"_s, u"cost_per_request"_s, u"cost_per_1m_output_tokens"_s}) {
        const int r = model->rowOf(key);
        QVERIFY2(r >= 0, qPrintable(key));
        QVERIFY2(model->index(r, 1).data(ComparisonTableModel::ValueRole).toDouble() > 0,
                 qPrintable(key));
        QVERIFY2(model->index(r, 2).data(ComparisonTableModel::ValueRole).toDouble() > 0,
                 qPrintable(key));
    }
    QCOMPARE(model->index(model->rowOf(u"cost_per_request"_s), 0).data().toString(),
             u"Cost per successful request (USD)"_s);

    // The ranking: the rank row and the header mark agree with core.
    QCOMPARE(shown->ranking, core.ranking);
    QVERIFY(!core.ranking.isEmpty());
    QCOMPARE(model->rowKind(0), ComparisonTableModel::RowKind::Rank);
    for (int k = 0; k < core.ranking.size(); ++k)
        QCOMPARE(model->index(0, core.ranking.at(k) + 1).data(ComparisonTableModel::RankRole),
                 QVariant(k + 1));
    const int best = core.ranking.first() + 1;
    QVERIFY(model->headerData(best, Qt::Horizontal).toString().startsWith(u"★"_s));
    // The header's first line is the run's code with its marks; the name follows on the second.
    QVERIFY(model->headerData(1, Qt::Horizontal)
                .toString()
                .section(u'\n', 0, 0)
                .endsWith(u"(baseline)"_s));
    // Groups head their rows and span the table.
    QCOMPARE(model->rowKind(1), ComparisonTableModel::RowKind::Group);
    QCOMPARE(model->index(1, 0).data().toString(), u"TTFT"_s);
    QCOMPARE(m_view->tableView()->columnSpan(1, 0), 3);
}

void TestComparisonView::baselineSwitchChangesDiffs()
{
    const QList<qint64> ids = {m_project.runA, m_project.runB};
    select(ids);
    ComparisonTableModel *model = m_view->tableModel();
    const int r = model->rowOf(u"e2el.mean"_s);
    const double a = model->index(r, 1).data(ComparisonTableModel::ValueRole).toDouble();
    const double b = model->index(r, 2).data(ComparisonTableModel::ValueRole).toDouble();
    QVERIFY(a > b);
    QCOMPARE(model->index(r, 2).data(ComparisonTableModel::AbsDiffRole).toDouble(), b - a);
    QCOMPARE(model->index(r, 1).data(ComparisonTableModel::AbsDiffRole), QVariant(0.0));

    QSignalSpy shown(m_view, &ComparisonView::comparisonShown);
    QVERIFY(m_view->setBaselineRun(m_project.runB));
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 30000);
    waitIdle();
    QCOMPARE(m_view->comparison()->baseline, 1);
    QCOMPARE(model->index(r, 1).data(ComparisonTableModel::AbsDiffRole).toDouble(), a - b);
    QCOMPARE(model->index(r, 1).data(ComparisonTableModel::RelDiffRole).toDouble(), (a - b) / b);
    QCOMPARE(model->index(r, 2).data(ComparisonTableModel::AbsDiffRole), QVariant(0.0));
    // The baseline's own cell shows its value only.
    QCOMPARE(model->index(r, 2).data().toString(),
             formatCell(*m_view->comparison()->row(u"e2el.mean"_s),
                        m_view->comparison()->row(u"e2el.mean"_s)->cells.at(1)));
    // A is now worse than the baseline.
    QCOMPARE(model->index(r, 1).data(Qt::ForegroundRole).value<QColor>(), QColor(0xb0, 0x00, 0x20));
    QVERIFY(model->headerData(2, Qt::Horizontal)
                .toString()
                .section(u'\n', 0, 0)
                .endsWith(u"(baseline)"_s));
    QVERIFY(!model->headerData(1, Qt::Horizontal).toString().contains(u"(baseline)"_s));

    ComparisonOptions o;
    o.baseline = 1;
    const Comparison core = expected(m_project.path, ids, o);
    for (const ComparisonRow &row : core.rows)
        for (int i = 0; i < row.cells.size(); ++i)
            if (row.diffs)
                QVERIFY2(same(model->index(model->rowOf(row.key), i + 1)
                                  .data(ComparisonTableModel::AbsDiffRole),
                              row.cells.at(i).absDiff),
                         qPrintable(row.key));
    // A run that is not compared cannot be the baseline.
    QVERIFY(!m_view->setBaselineRun(m_project.offline));
}

void TestComparisonView::rankByFollowsChoice()
{
    select({m_project.sweepA[0], m_project.sweepA[1], m_project.sweepA[2]});
    QVERIFY(m_view->setRankBy(u"output_throughput"_s));
    QCOMPARE(m_view->rankBy(), u"output_throughput"_s);
    QTRY_COMPARE_WITH_TIMEOUT(m_view->comparison()->rankBy.rowKey(), u"output_throughput"_s, 30000);
    waitIdle();
    ComparisonOptions o;
    QVERIFY(RankBy::parse(u"output_throughput"_s, &o.rankBy, nullptr));
    const Comparison core = expected(
        m_project.path, {m_project.sweepA[0], m_project.sweepA[1], m_project.sweepA[2]}, o);
    // Higher rate, more tokens per second: 20 req/s first, then 10, then 5.
    QCOMPARE(m_view->comparison()->ranking, core.ranking);
    QCOMPARE(core.ranking, (QList<int>{2, 1, 0}));
    ComparisonTableModel *model = m_view->tableModel();
    QCOMPARE(model->index(0, 0).data().toString(), u"Rank by Output token throughput (tok/s)"_s);
    QCOMPARE(model->index(0, 3).data(ComparisonTableModel::RankRole), QVariant(1));
    // A rate does not change the curves' latency: they stay on P99 TTFT.
    QCOMPARE(m_view->latencyCurves()->options.metric, u"ttft"_s);

    QVERIFY(m_view->setRankBy(u"tpot:mean"_s));
    QTRY_COMPARE_WITH_TIMEOUT(m_view->comparison()->rankBy.rowKey(), u"tpot.mean"_s, 30000);
    waitIdle();
    QCOMPARE(m_view->latencyCurves()->options.metric, u"tpot"_s);
    QCOMPARE(m_view->latencyCurves()->options.stat, u"mean"_s);
    QCOMPARE(m_view->comparison()->ranking, (QList<int>{0, 1, 2}));
    // The statistic combo offers mean, median, p90, p99 only.
    QVERIFY(!m_view->setRankBy(u"ttft:p95"_s));
    QVERIFY(!m_view->setRankBy(u"nonsense"_s));
}

void TestComparisonView::serverVersusOfflineRefused()
{
    select({m_project.runA, m_project.offline});
    const Comparison *c = m_view->comparison();
    QVERIFY(c);
    QVERIFY(!c->comparability.rankable());
    QVERIFY(c->ranking.isEmpty());
    const QString verdict = m_view->verdictText();
    QVERIFY2(verdict.startsWith(u"Not comparable: ranking refused."_s), qPrintable(verdict));
    QVERIFY2(verdict.contains(u"different scenarios"_s) && verdict.contains(u"offline"_s),
             qPrintable(verdict));
    QVERIFY(m_view->notesText().contains(u"No ranking"_s));
    ComparisonTableModel *model = m_view->tableModel();
    QCOMPARE(model->index(0, 0).data().toString(), u"Rank: none"_s);
    for (int col = 1; col <= 2; ++col) {
        QVERIFY(!model->index(0, col).data(ComparisonTableModel::RankRole).isValid());
        QCOMPARE(model->index(0, col).data().toString(), u"—"_s);
        QVERIFY(!model->headerData(col, Qt::Horizontal).toString().startsWith(u"★"_s));
    }
    // The Offline run lies in no test window: its cost is n/a with the reason, not 0.
    const int cost = model->rowOf(u"cost_per_request"_s);
    QVERIFY(cost >= 0);
    QVERIFY(!model->index(cost, 2).data(ComparisonTableModel::ValueRole).isValid());
    QCOMPARE(model->index(cost, 2).data().toString(), u"n/a"_s);
    QVERIFY2(model->index(cost, 2).data(Qt::ToolTipRole).toString().contains(u"no test window"_s),
             qPrintable(model->index(cost, 2).data(Qt::ToolTipRole).toString()));
}

void TestComparisonView::cdfOneSeriesPerRun()
{
    const QList<qint64> ids = {m_project.runA, m_project.runB, m_project.sweepB[2]};
    select(ids);
    ProjectStore store;
    QVERIFY(store.open(m_project.path, ProjectStore::OpenMode::ReadOnly));
    QList<ReportRun> runs;
    QString error;
    QVERIFY(loadReportRuns(store, ids, &runs, &error));
    const QList<ChartSpec> specs = reportChartSpecs(runs);
    for (const QString &metric : {u"ttft"_s, u"tpot"_s, u"itl"_s, u"e2el"_s}) {
        ChartView *chart = m_view->cdfChart(metric);
        QVERIFY(chart);
        const auto series = chart->chart()->series();
        QCOMPARE(series.size(), 3);
        const ChartSpec *spec = nullptr;
        for (const ChartSpec &s : specs)
            if (s.key == u"cdf_"_s + metric)
                spec = &s;
        QVERIFY(spec);
        for (int i = 0; i < 3; ++i) {
            // Named by the run's code, the first word of its label ("#1").
            QCOMPARE(series.at(i)->name(), runs.at(i).label.section(u' ', 0, 0));
            QCOMPARE(chart->pointCount(i), spec->series.at(i).points.size());
            const QPointF last = chart->series(i)->points().constLast();
            QCOMPARE(last.x(), spec->series.at(i).points.constLast().first);
            QCOMPARE(last.y(), 1.0);
        }
    }
    // Throughput bars: one bar per run in each set.
    QCOMPARE(m_view->requestBars()->setCount(), 2); // request throughput and goodput
    QCOMPARE(m_view->tokenBars()->setCount(), 2);   // output, input + output tokens
}

void TestComparisonView::latencyThroughputOneCurvePerSut()
{
    // One 10 req/s run of each sweep: the curves take in both sweeps, three rates per SUT.
    select({m_project.sweepA[1], m_project.sweepB[1]});
    const LatencyCurves *curves = m_view->latencyCurves();
    QVERIFY(curves);
    QCOMPARE(curves->curves.size(), 2);
    ChartView *chart = m_view->curveChart();
    QCOMPARE(chart->chart()->series().size(), 2);
    const QList<QList<qint64>> sweeps = {m_project.sweepA, m_project.sweepB};
    const QStringList suts = {u"vllm-a100"_s, u"sglang-h100"_s};
    for (int i = 0; i < 2; ++i) {
        QCOMPARE(chart->chart()->series().at(i)->name(), suts.at(i));
        const LatencyCurve &c = curves->curves.at(i);
        QCOMPARE(c.sut, suts.at(i));
        QList<qint64> ids;
        for (const LatencyCurvePoint &p : c.points)
            ids << p.runId;
        QCOMPARE(ids, sweeps.at(i)); // ascending rate is ascending throughput
        QCOMPARE(chart->pointCount(i), 3);
        for (int k = 0; k < 3; ++k) {
            const QPointF pt = chart->series(i)->points().at(k);
            QCOMPARE(pt.x(), c.points.at(k).throughput);
            QCOMPARE(pt.y(), c.points.at(k).latency);
        }
        // P99 TTFT rises with the load.
        QVERIFY(c.points.at(2).latency > c.points.at(0).latency);
    }
    QVERIFY(chart->chart()->axes(Qt::Vertical).first()->titleText().contains(u"P99 TTFT"_s));
    auto *notes = m_view->findChild<QLabel *>(u"curveNotes"_s);
    QVERIFY(notes->text().contains(u"rate sweep vllm-a100"_s));

    // Runs outside any sweep: one point per SUT, and request throughput on x when chosen.
    select({m_project.runA, m_project.runB});
    m_view->setCurveThroughput(CurveThroughput::Request);
    QTRY_COMPARE_WITH_TIMEOUT(m_view->latencyCurves()->options.throughput, CurveThroughput::Request,
                              30000);
    waitIdle();
    chart = m_view->curveChart();
    QCOMPARE(chart->chart()->series().size(), 2);
    QCOMPARE(chart->pointCount(0), 1);
    QCOMPARE(chart->pointCount(1), 1);
    const ComparisonRow *rt = m_view->comparison()->row(u"request_throughput"_s);
    QCOMPARE(chart->series(0)->points().first().x(), *rt->cells.at(0).value);
    QVERIFY(chart->chart()->axes(Qt::Horizontal).first()->titleText().contains(u"req/s"_s));
}

void TestComparisonView::copiesTsv()
{
    select({m_project.runA, m_project.runB});
    CopyableTableView *table = m_view->tableView();
    ComparisonTableModel *model = m_view->tableModel();
    const int r = model->rowOf(u"ttft.mean"_s);
    table->selectionModel()->select(model->index(r, 0), QItemSelectionModel::ClearAndSelect |
                                                            QItemSelectionModel::Rows);
    table->setFocus();
    QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
    const QString tsv = QApplication::clipboard()->text();
    const QStringList lines = tsv.trimmed().split(u'\n');
    QCOMPARE(lines.size(), 2);
    // A two-line header is one field, its lines joined by a space.
    QCOMPARE(lines.at(0).split(u'\t'),
             (QStringList{u"Metric"_s,
                          model->headerData(1, Qt::Horizontal).toString().replace(u'\n', u' '),
                          model->headerData(2, Qt::Horizontal).toString().replace(u'\n', u' ')}));
    const QStringList cells = lines.at(1).split(u'\t');
    QCOMPARE(cells.size(), 3);
    QCOMPARE(cells.at(0), u"Mean TTFT (ms)"_s);
    QCOMPARE(cells.at(1), model->index(r, 1).data().toString());
    QCOMPARE(cells.at(2), model->index(r, 2).data().toString());
}

void TestComparisonView::fewerThanTwoRunsClears()
{
    select({m_project.runA, m_project.runB});
    QVERIFY(m_view->comparison());
    select({m_project.runA});
    QVERIFY(!m_view->comparison());
    QCOMPARE(m_view->tableModel()->rowCount(), 0);
    QVERIFY(m_view->verdictText().contains(u"Tick two or more runs"_s));
    QCOMPARE(m_view->cdfChart(u"ttft"_s)->chart()->series().size(), 0);
    // Neither an empty grey table nor empty 0–1 axes: each pane says what to do instead.
    const auto panesSay = [this](const QString &text) {
        auto *table = m_view->findChild<QLabel *>(u"tableEmptyNote"_s);
        auto *charts = m_view->findChild<QLabel *>(u"chartsEmptyNote"_s);
        if (!table || !charts)
            return u"no note in place of the table or the charts"_s;
        QStringList wrong;
        if (m_view->tableView()->isVisible() || !table->isVisible() ||
            !table->text().contains(text))
            wrong << u"table pane: '%1'"_s.arg(table->text());
        if (m_view->findChild<QTabWidget *>(u"chartTabs"_s)->isVisible() ||
            m_view->cdfChart(u"ttft"_s)->isVisible() || !charts->isVisible() ||
            !charts->text().contains(text))
            wrong << u"charts pane: '%1'"_s.arg(charts->text());
        return wrong.join(u"; "_s);
    };
    QString wrong = panesSay(u"Tick two or more runs"_s);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    // Two ticked again: the table and the charts come back, the notes go.
    select({m_project.runA, m_project.runB});
    QVERIFY(m_view->comparison());
    QVERIFY(m_view->tableView()->isVisible());
    QVERIFY(m_view->cdfChart(u"ttft"_s)->isVisible());
    QVERIFY(!m_view->findChild<QLabel *>(u"tableEmptyNote"_s)->isVisible());
    QVERIFY(!m_view->findChild<QLabel *>(u"chartsEmptyNote"_s)->isVisible());
    select({});
    wrong = panesSay(u"Tick two or more runs"_s);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));

    // A project without a file has nothing to compare; the picker empties.
    QSignalSpy listed(m_view, &ComparisonView::runsListed);
    m_view->setProject(QString());
    QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
    waitIdle();
    QVERIFY(m_view->listedRuns().isEmpty());
    QVERIFY(m_view->verdictText().contains(u"Save the project"_s));
    wrong = panesSay(u"Save the project"_s);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
}

void TestComparisonView::retranslates()
{
    select({m_project.runA, m_project.runB});
    auto *tabs = m_view->findChild<QTabWidget *>(u"chartTabs"_s);
    QCOMPARE(tabs->tabText(0), u"Distributions"_s);
    LanguageSwitcher lang;
    QVERIFY(lang.apply(u"zh_CN"_s));
    QTRY_VERIFY(tabs->tabText(0) != u"Distributions"_s);
    const QString verdict = m_view->verdictText();
    QVERIFY2(!verdict.startsWith(u"Comparable"_s), qPrintable(verdict));
    const int cost = m_view->tableModel()->rowOf(u"cost_per_request"_s);
    QVERIFY(m_view->tableModel()->index(cost, 0).data().toString() !=
            u"Cost per successful request (USD)"_s);
    QVERIFY(lang.apply(u"en"_s));
    QTRY_COMPARE(tabs->tabText(0), u"Distributions"_s);
    QVERIFY(m_view->verdictText().startsWith(u"Comparable"_s));
}

void TestComparisonView::exportsWhatIsShown()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ReportOutputs out;
    out.html = dir.filePath(u"cmp.html"_s);
    out.pdf = dir.filePath(u"cmp.pdf"_s);
    out.csv = dir.filePath(u"cmp.csv"_s);
    out.json = dir.filePath(u"cmp.json"_s);
    out.bundle = dir.filePath(u"bundle"_s);
    QVERIFY(!m_view->exportReport(out)); // nothing shown yet

    const QList<qint64> ids = {m_project.runA, m_project.runB};
    select(ids);
    QSignalSpy shown(m_view, &ComparisonView::comparisonShown);
    QVERIFY(m_view->setBaselineRun(m_project.runB));
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 30000);
    waitIdle();

    QSignalSpy exported(m_view, &ComparisonView::reportExported);
    QVERIFY(m_view->exportReport(out));
    QVERIFY(m_view->isExporting());
    QVERIFY(!m_view->exportReport(out)); // one at a time
    QTRY_VERIFY_WITH_TIMEOUT(!exported.isEmpty(), 120000);
    QVERIFY2(exported.first().at(0).toBool(), qPrintable(exported.first().at(2).toString()));
    const QStringList written = exported.first().at(1).toStringList();
    QVERIFY(written.contains(out.html) && written.contains(out.pdf) &&
            written.contains(out.bundle));
    QVERIFY(written.contains(dir.filePath(u"cmp-requests.csv"_s)));
    QVERIFY(!m_view->isExporting());

    QFile pdf(out.pdf);
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QVERIFY(pdf.read(5) == "%PDF-");
    QFile html(out.html);
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QString page = QString::fromUtf8(html.readAll());
    for (const QString &label : m_view->comparison()->columns)
        QVERIFY2(page.contains(htmlEscape(label)), qPrintable(label));
    // The report holds the comparison on screen: run B as the baseline.
    QFile json(out.json);
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject report = QJsonDocument::fromJson(json.readAll()).object();
    QCOMPARE(report.value(u"comparison"_s).toObject().value(u"baseline_run_id"_s).toInteger(),
             m_project.runB);
    QVERIFY(QFile::exists(QDir(out.bundle).filePath(u"MANIFEST.sha256"_s)));
}

QTEST_MAIN(TestComparisonView)
#include "tst_comparisonview.moc"
