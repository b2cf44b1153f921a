// The results view of a finished run: the same numbers as core's summarize(), computed off the
// GUI thread in stages, stale jobs dropped, failures visible, MLPerf block when the plan has a
// scenario, Ctrl+C copies the request table's selection.
#include "uiviewstestutil.h"

#include "charts/chartview.h"
#include "metrics/summary.h"
#include "models/requestfilterproxy.h"
#include "models/requesttablemodel.h"
#include "models/resultsdata.h"
#include "models/runtotalsmodel.h"
#include "models/summarytablemodel.h"
#include "resultsview.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QGroupBox>
#include <QPlainTextEdit>
#include <QTableView>
#include <QXYSeries>

using namespace Qt::StringLiterals;
using namespace sb;

class TestResultsView : public QObject
{
    Q_OBJECT

    RunPlan m_plan;
    QList<RequestRecord> m_records;

    static bool waitShown(ResultsView &view)
    {
        QSignalSpy shown(&view, &ResultsView::chartsShown);
        return shown.wait(60000);
    }

private slots:
    void initTestCase()
    {
        // One real run, shared by the tests below.
        auto sim = uitest::startSimulator(10, 2, 0.06);
        m_plan = uitest::simPlan(*sim, 120, 10, 400);
        m_plan.profile.warmupRequests = 4;
        m_plan.profile.metricPercentiles = {99, 80};
        m_plan.profile.goodput.ttftMs = 30;
        RunController controller;
        controller.configure(m_plan, uitest::promptItems(15, 10), {});
        QSignalSpy finished(&controller, &RunController::finished);
        QString error;
        QVERIFY2(controller.start(&error), qPrintable(error));
        QVERIFY(finished.wait(60000));
        m_records = controller.records();
        QCOMPARE(m_records.size(), 124);
    }

    void summaryModelShowsSummarize()
    {
        ResultsView view;
        QAbstractItemModelTester st(view.summaryModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester tt(view.totalsModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester rt(view.requestModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester pt(view.requestProxy(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.resize(1300, 850);
        view.show();
        QSignalSpy summaryShown(&view, &ResultsView::summaryShown);
        QSignalSpy requestsShown(&view, &ResultsView::requestsShown);
        view.showRun(m_plan, m_records);
        QVERIFY(view.isBusy());
        QVERIFY(waitShown(view));
        QVERIFY(!view.isBusy());
        QCOMPARE(summaryShown.count(), 1);
        QCOMPARE(requestsShown.count(), 1);

        const RunSummary s = summarize(m_records, SummaryOptions::forProfile(m_plan.profile));
        const SummaryTableModel *m = view.summaryModel();
        for (const QString &key : SummaryTableModel::metricKeys()) {
            const MetricStats *ms = s.stats(key);
            const int row = m->rowOf(key);
            const auto v = [&](int col) {
                return m->index(row, col).data(SummaryTableModel::ValueRole);
            };
            QCOMPARE(v(SummaryTableModel::CountColumn).toDouble(), double(ms->count));
            if (ms->count == 0)
                continue;
            QCOMPARE(v(SummaryTableModel::MeanColumn).toDouble(), ms->mean);
            QCOMPARE(v(SummaryTableModel::MedianColumn).toDouble(), ms->median);
            QCOMPARE(v(SummaryTableModel::StdColumn).toDouble(), ms->stddev);
            QCOMPARE(v(SummaryTableModel::MaxColumn).toDouble(), ms->max);
            for (double p : s.percentiles)
                QCOMPARE(v(m->columnOfPercentile(p)).toDouble(), ms->percentile(p));
        }
        QVERIFY(m->columnOfPercentile(80) > 0); // the profile's percentile is a column

        const RunTotalsModel *t = view.totalsModel();
        const auto total = [&](const QString &key) {
            return t->index(t->rowOfKey(key), RunTotalsModel::ValueColumn)
                .data(RunTotalsModel::ValueRole)
                .toDouble();
        };
        QCOMPARE(total(u"completed"_s), double(s.completed));
        QCOMPARE(total(u"failed"_s), double(s.failed));
        QCOMPARE(total(u"request_throughput"_s), s.requestThroughput);
        QCOMPARE(total(u"request_goodput"_s), s.requestGoodput);
        QVERIFY(s.failed > 0);

        // Every request is a row, failed ones included.
        QCOMPARE(view.requestModel()->rowCount(), m_records.size());
        view.requestProxy()->setFailedOnly(true);
        const auto failedRecords = std::count_if(m_records.cbegin(), m_records.cend(),
                                                 [](const RequestRecord &r) { return !r.ok(); });
        QCOMPARE(view.requestProxy()->rowCount(), int(failedRecords)); // warm-up ones included
        view.requestProxy()->setFailedOnly(false);

        // Charts: the TTFT CDF covers the measured successful requests.
        auto *ttftCdf = view.findChild<ChartView *>(u"cdf_ttft"_s);
        QVERIFY(ttftCdf);
        QVERIFY(ttftCdf->pointCount(0) > 0);
        QVERIFY(ttftCdf->pointCount(0) <= 2 * s.ttft.count);
        QCOMPARE(ttftCdf->series(0)->at(0).x(), s.ttft.min);
        QCOMPARE(ttftCdf->series(0)->at(ttftCdf->pointCount(0) - 1).x(), s.ttft.max);
        QVERIFY(!view.findChild<QGroupBox *>(u"mlperfBox"_s)
                     ->isVisible()); // scenario none: no MLPerf block
    }

    void staleJobsAreDropped()
    {
        ResultsView view;
        QSignalSpy summaryShown(&view, &ResultsView::summaryShown);
        const QList<RequestRecord> firstHalf = m_records.mid(0, 40);
        view.showRun(m_plan, m_records);
        view.showRun(m_plan, m_records);
        view.showRun(m_plan, firstHalf); // only this one may be displayed
        QVERIFY(waitShown(view));
        QCOMPARE(view.requestModel()->rowCount(), 40);
        const RunSummary s = summarize(firstHalf, SummaryOptions::forProfile(m_plan.profile));
        QCOMPARE(view.summaryModel()->summary().totalRecords, s.totalRecords);
        QCOMPARE(view.summaryModel()->summary().ttft.mean, s.ttft.mean);
        // The first two jobs were superseded while queued or running: whatever they computed
        // was dropped, so only the last run's summary was ever shown.
        QTest::qWait(300);
        QCOMPARE(summaryShown.count(), 1);
        QCOMPARE(view.requestModel()->rowCount(), 40);
        QCOMPARE(view.summaryModel()->summary().totalRecords, 40);

        view.clear();
        QCOMPARE(view.summaryModel()->rowCount(), 0);
        QCOMPARE(view.requestModel()->rowCount(), 0);
    }

    void destroyedWhileComputing()
    {
        // The worker may be mid-job or about to post a stage: neither may touch a dead view.
        for (int i = 0; i < 5; ++i) {
            auto view = std::make_unique<ResultsView>();
            view->showRun(m_plan, m_records);
            QTest::qWait(i * 3);
            view.reset();
        }
        QTest::qWait(50); // any stray queued stage would be delivered (and crash) here
    }

    void mlperfBlockForAServerRun()
    {
        RunPlan plan = m_plan;
        plan.profile.scenario = Scenario::Server;
        plan.profile.goodput.ttftMs = 2000;
        plan.profile.goodput.tpotMs = 200;
        ResultsView view;
        view.resize(1300, 850);
        view.show();
        view.showRun(plan, m_records);
        QVERIFY(waitShown(view));
        auto *box = view.findChild<QGroupBox *>(u"mlperfBox"_s);
        QVERIFY(box && box->isVisible());
        const MlperfJudgement j =
            judgeScenario(Scenario::Server, m_records, defaultMlperfConstraints(plan));
        QCOMPARE(view.findChild<QPlainTextEdit *>(u"mlperfText"_s)->toPlainText(),
                 j.formatMlperfBlock());
        QVERIFY(view.findChild<QPlainTextEdit *>(u"mlperfText"_s)
                    ->toPlainText()
                    .contains(u"Result is"_s));
    }

    void ctrlCCopiesTheSelection()
    {
        ResultsView view;
        view.resize(1300, 850);
        view.show();
        view.showRun(m_plan, m_records.mid(0, 10));
        QVERIFY(waitShown(view));
        view.tabs()->setCurrentIndex(1);
        QTableView *table = view.requestTable();
        table->setFocus();
        table->selectionModel()->select(
            QItemSelection(view.requestProxy()->index(0, RequestTableModel::IndexColumn),
                           view.requestProxy()->index(2, RequestTableModel::StatusColumn)),
            QItemSelectionModel::Select);
        QApplication::clipboard()->clear();
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        const QStringList lines =
            QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4); // header + 3 rows
        QCOMPARE(lines.at(0), u"#\tStatus"_s);
        QVERIFY(lines.at(1).startsWith(u"0\t"_s));
    }
};

QTEST_MAIN(TestResultsView)
#include "tst_resultsview.moc"
