// The results view of a finished run: the same numbers as core's summarize(), computed off the
// GUI thread in stages, stale jobs dropped, failures visible, MLPerf block when the plan has a
// scenario, Ctrl+C copies the request table's selection.
#include "uiviewstestutil.h"

#include "charts/chartview.h"
#include "load/mlperfprofile.h"
#include "metrics/clientload.h"
#include "metrics/definitions.h"
#include "metrics/summary.h"
#include "models/requestfilterproxy.h"
#include "models/requesttablemodel.h"
#include "models/resultsdata.h"
#include "models/runtotalsmodel.h"
#include "models/summarytablemodel.h"
#include "report/runreport.h"
#include "report/serverreport.h"
#include "resultsview.h"
#include "serverevidenceview.h"
#include "settingslanguage.h"

#include <QAbstractAxis>
#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QCheckBox>
#include <QClipboard>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTcpServer>
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

    void intervalsShownAndOmitted()
    {
        // The Results view shows deriveRun's 95 % intervals beside the statistics and names
        // each omitted one with its reason (120 measured requests: too few for a p99 interval).
        ResultsView view;
        view.resize(1300, 850);
        view.show();
        view.showRun(m_plan, m_records);
        QVERIFY(waitShown(view));
        RunReportInput in;
        in.plan = m_plan;
        in.records = m_records;
        const RunDerivation d = deriveRun(in);
        const Interval *mean = nullptr;
        const Interval *p99 = nullptr;
        for (const auto &[metric, stats] : d.intervals) {
            if (metric != "ttft"_L1)
                continue;
            for (const auto &[stat, interval] : stats) {
                if (stat == "mean"_L1)
                    mean = &interval;
                else if (stat == "p99"_L1)
                    p99 = &interval;
            }
        }
        QVERIFY(mean && mean->available);
        QVERIFY(p99 && !p99->available);
        const SummaryTableModel *m = view.summaryModel();
        const int ttft = m->rowOf(u"ttft"_s);
        // The tooltip always gives the interval; the cell on request.
        const QString interval =
            u"[%1, %2]"_s.arg(QString::number(mean->lo, 'f', 2), QString::number(mean->hi, 'f', 2));
        QVERIFY(m->index(ttft, SummaryTableModel::MeanColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(interval));
        QCOMPARE(m->index(ttft, SummaryTableModel::MeanColumn).data().toString(),
                 QString::number(d.summary.ttft.mean, 'f', 2));
        auto *show = view.findChild<QCheckBox *>(u"showIntervals"_s);
        QVERIFY(show && show->isVisibleTo(&view) && !show->isChecked());
        show->setChecked(true);
        QCOMPARE(m->index(ttft, SummaryTableModel::MeanColumn).data().toString(),
                 u"%1 [%2, %3]"_s.arg(QString::number(d.summary.ttft.mean, 'f', 2),
                                      QString::number(mean->lo, 'f', 2),
                                      QString::number(mean->hi, 'f', 2)));
        const QString omitted = m->index(ttft, m->columnOfPercentile(99))
                                    .data(SummaryTableModel::IntervalRole)
                                    .toString();
        QVERIFY2(omitted.startsWith(u"omitted: "_s) && omitted.contains(u"299"_s),
                 qPrintable(omitted));
        auto *note = view.findChild<QLabel *>(u"intervalNote"_s);
        QVERIFY(note);
        QVERIFY(note->isVisibleTo(&view));
        QVERIFY2(note->text().contains(u"interval omitted: p99 needs at least 299"_s),
                 qPrintable(note->text()));
        QVERIFY(note->text().contains(u"TTFT"_s));
        view.clear();
        QVERIFY(!note->isVisibleTo(&view));
        QVERIFY(!show->isVisibleTo(&view));
    }

    void clientBottleneckInTheSummary()
    {
        // A run's thread samples (a stored run's summary "client_load", docs/performance.md "The
        // client checks itself") are judged with its records: a client thread that wanted the
        // CPU 98 % of a window is named above the summary; without samples it is not.
        ClientLoadSamples busy;
        busy.intervalMs = 1000;
        busy.windows.append({1.0, 1.0, 0, 0, 0});
        busy.threads.append({u"socket-worker-0"_s, 1, 0, {300}, {680}, u"schedstat"_s});
        for (const bool withSamples : {false, true}) {
            ResultsView view;
            view.resize(1300, 850);
            view.show();
            view.showRun(m_plan, m_records, {}, {}, withSamples ? busy : ClientLoadSamples());
            QVERIFY(waitShown(view));
            const auto *label = view.findChild<QLabel *>(u"clientHealth"_s);
            QVERIFY(label);
            const bool says =
                label->isVisible() &&
                label->text().contains(u"its thread socket-worker-0 wanted the CPU 98 %"_s);
            QVERIFY2(says == withSamples, qPrintable(label->text()));
        }
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

    // The Server tab: the evidence from the scraped targets with definitions, the reason where a
    // figure is missing, charts over the run; hidden for a run that scraped nothing.
    void serverTab()
    {
        SimConfig cfg;
        cfg.capacity = 4;
        Simulator sim(cfg);
        QVERIFY(sim.start());
        RunPlan plan = uitest::simPlan(sim, 60, 8, 0);
        RunController controller;
        controller.configure(plan, uitest::promptItems(10, 12), {});
        MetricsScraper scraper;
        uitest::setUpScraper(&scraper, sim.baseUrl().toString(), 100);
        QString error;
        QVERIFY2(scraper.start(&error), qPrintable(error));
        QSignalSpy finished(&controller, &RunController::finished);
        QVERIFY2(controller.start(&error), qPrintable(error));
        QVERIFY(finished.wait(60000));
        scraper.stop();
        const QList<RequestRecord> records = controller.records();

        ResultsView view;
        view.resize(1300, 850);
        view.show();
        view.showRun(plan, records, scraper.stores());
        QVERIFY(waitShown(view));
        QVERIFY(view.tabs()->isTabVisible(5));
        const QTableWidget *table = view.serverView()->table();
        QCOMPARE(table->rowCount(), int(ServerEvidence::names().size()));
        const auto row = [&](const QString &name) {
            const QString label = serverFigureLabel(name).translated();
            for (int r = 0; r < table->rowCount(); ++r)
                if (table->item(r, 0)->text() == label)
                    return r;
            return -1;
        };
        // The simulator's counters agree with the client's count, side by side.
        const RunSummary s = summarize(records, SummaryOptions::forProfile(plan.profile));
        const int requests = row(u"server_requests"_s);
        QVERIFY(requests >= 0);
        QVERIFY2(table->item(requests, 1)->text().startsWith(QString::number(s.completed) + u' '),
                 qPrintable(table->item(requests, 1)->text()));
        QVERIFY(table->item(requests, 2)->text().startsWith(QString::number(s.completed)));
        const int tokens = row(u"server_generation_tokens"_s);
        QVERIFY(table->item(tokens, 1)->text().startsWith(QString::number(s.totalOutputTokens)));
        // Every row has its definition.
        for (int r = 0; r < table->rowCount(); ++r)
            QVERIFY(!table->item(r, 3)->text().isEmpty());
        for (ChartView *c : view.serverView()->charts())
            QVERIFY2(c->pointCount(0) > 0, qPrintable(c->objectName()));

        // A target that never answered: every figure says why.
        MetricsScraper dead;
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
        const QString deadUrl = u"http://127.0.0.1:%1"_s.arg(closed.serverPort());
        closed.close();
        uitest::setUpScraper(&dead, deadUrl, 100);
        QVERIFY(dead.start(&error));
        dead.stop();
        view.showRun(plan, records, dead.stores());
        QVERIFY(waitShown(view));
        QVERIFY(view.tabs()->isTabVisible(5));
        for (int r = 0; r < table->rowCount(); ++r)
            QVERIFY2(table->item(r, 1)->text().contains(u"unreachable"_s),
                     qPrintable(table->item(r, 1)->text()));
        QVERIFY(view.serverView()->targetsLabel()->text().contains(u"not available"_s));

        // Nothing scraped: no Server tab.
        view.showRun(plan, records);
        QVERIFY(waitShown(view));
        QVERIFY(!view.tabs()->isTabVisible(5));
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
        // The view's end joins its worker (finished when the view is destroyed), and no stage
        // reaches the view afterwards.
        int lateStages = 0, joined = 0;
        QObject guard;
        for (int i = 0; i < 5; ++i) {
            auto view = std::make_unique<ResultsView>();
            QPointer<QThread> worker = view->findChild<QThread *>(u"ResultsWorker"_s);
            QVERIFY(worker && worker->isRunning());
            auto gone = std::make_shared<bool>(false);
            const auto late = [gone, &lateStages] {
                lateStages += *gone ? 1 : 0;
            };
            connect(view.get(), &ResultsView::summaryShown, &guard, late);
            connect(view.get(), &ResultsView::requestsShown, &guard, late);
            connect(view.get(), &ResultsView::chartsShown, &guard, late);
            connect(view.get(), &QObject::destroyed, &guard, [gone, worker, &joined] {
                *gone = true;
                joined += worker && worker->isFinished() ? 1 : 0;
            });
            view->showRun(m_plan, m_records);
            QTest::qWait(i * 3);
            view.reset();
            QVERIFY(worker.isNull());
        }
        QTest::qWait(50); // any stray queued stage would be delivered (and crash) here
        QCOMPARE(joined, 5);
        QCOMPARE(lateStages, 0);
    }

    void mlperfBlockForAServerRun()
    {
        RunPlan plan = m_plan;
        plan.profile.scenario = Scenario::Server;
        // The scenario's bounds, not the goodput SLOs: one source of constraints for every view.
        plan.profile.ttftSloMs = 2000;
        plan.profile.tpotSloMs = 200;
        ResultsView view;
        view.resize(1300, 850);
        view.show();
        view.showRun(plan, m_records);
        QVERIFY(waitShown(view));
        auto *box = view.findChild<QGroupBox *>(u"mlperfBox"_s);
        QVERIFY(box && box->isVisible());
        MlperfConstraints c;
        QString why;
        QVERIFY(mlperfConstraintsForProfile(plan.profile, &c, &why));
        QCOMPARE(c.ttftBoundMs, 2000.0);
        const MlperfJudgement j = judgeScenario(Scenario::Server, m_records, c);
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

    void languageSwitchRetranslates()
    {
        RunPlan plan = m_plan;
        plan.profile.scenario = Scenario::Server; // the MLPerf verdict is shown too
        // The scenario's bounds, not the goodput SLOs: one source of constraints for every view.
        plan.profile.ttftSloMs = 2000;
        plan.profile.tpotSloMs = 200;
        ResultsView view;
        QAbstractItemModelTester tt(view.totalsModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.resize(1300, 850);
        view.show();
        view.showRun(plan, m_records);
        QVERIFY(waitShown(view));

        const RunSummary s = summarize(m_records, SummaryOptions::forProfile(plan.profile));
        const QString ttftLabel = metricDefinition(u"ttft"_s)->label;
        auto *header = view.findChild<QLabel *>(u"header"_s);
        auto *failedOnly = view.findChild<QCheckBox *>(u"failedOnly"_s);
        auto *filter = view.findChild<QLineEdit *>(u"requestFilter"_s);
        auto *count = view.findChild<QLabel *>(u"requestCount"_s);
        auto *box = view.findChild<QGroupBox *>(u"mlperfBox"_s);
        auto *cdf = view.findChild<ChartView *>(u"cdf_ttft"_s);
        auto *perSecond = view.findChild<ChartView *>(u"requestsPerSecond"_s);
        QVERIFY(header && failedOnly && filter && count && box && cdf && perSecond);
        QVERIFY(box->isVisible());
        const QAction *copy = view.requestTable()->actions().value(0);
        QVERIFY(copy);
        const QHeaderView *requestHeader = view.requestTable()->horizontalHeader();
        const RunTotalsModel *totals = view.totalsModel();
        const int completedRow = totals->rowOfKey(u"completed"_s);
        const qint64 failed = std::count_if(m_records.cbegin(), m_records.cend(),
                                            [](const RequestRecord &r) { return !r.ok(); });
        const auto texts = [&] {
            return QStringList{
                view.tabs()->tabText(0),
                requestHeader->model()
                    ->headerData(RequestTableModel::StatusColumn, Qt::Horizontal)
                    .toString(),
                view.summaryModel()
                    ->headerData(SummaryTableModel::MeanColumn, Qt::Horizontal)
                    .toString(),
                totals->index(completedRow, RunTotalsModel::QuantityColumn).data().toString(),
                totals->headerData(RunTotalsModel::ValueColumn, Qt::Horizontal).toString(),
                header->text(),
                failedOnly->text(),
                count->text(),
                filter->placeholderText(),
                copy->text(),
                box->title(),
                cdf->chart()->title(),
                perSecond->chart()->title(),
                perSecond->series(0)->name(),
                perSecond->chart()->axes(Qt::Vertical).constFirst()->titleText(),
            };
        };
        const int n = int(m_records.size());
        const QStringList english = {
            u"Summary"_s,
            u"Status"_s,
            u"Mean"_s,
            u"Successful requests"_s,
            u"Value"_s,
            u"<b>ui views test</b> — %1 requests, scenario Server"_s.arg(n),
            u"Failed only (%1)"_s.arg(failed),
            u"%1 of %1 requests"_s.arg(n),
            u"Filter: error class, message, request id, …"_s,
            u"Copy as TSV"_s,
            u"MLPerf-style validity"_s,
            u"%1 CDF<br><small>%2 sample(s)</small>"_s.arg(ttftLabel).arg(s.ttft.count),
            u"Requests per second"_s,
            u"successful"_s,
            u"req/s"_s,
        };
        QCOMPARE(texts(), english);
        const QString verdict = view.findChild<QLabel *>(u"mlperfVerdict"_s)->text();
        QVERIFY(verdict.contains(u">VALID<"_s) || verdict.contains(u">INVALID<"_s));
        const bool valid = verdict.contains(u">VALID<"_s);
        const QString histTitle = view.findChild<ChartView *>(u"hist_ttft"_s)->chart()->title();
        QVERIFY2(histTitle.startsWith(u"%1 histogram<br><small>bin "_s.arg(ttftLabel)),
                 qPrintable(histTitle));
        const double mean = view.summaryModel()
                                ->index(0, SummaryTableModel::MeanColumn)
                                .data(SummaryTableModel::ValueRole)
                                .toDouble();

        LanguageSwitcher lang;
        QVERIFY(lang.apply(u"zh_CN"_s));
        // LanguageChange is delivered through the event queue.
        QTRY_COMPARE(view.tabs()->tabText(0), u"汇总"_s);
        QCOMPARE(texts(),
                 (QStringList{
                     u"汇总"_s,
                     u"状态"_s,
                     u"均值"_s,
                     u"成功请求数"_s,
                     u"数值"_s,
                     u"<b>ui views test</b> — %1 个请求，场景 Server"_s.arg(n),
                     u"仅失败请求（%1）"_s.arg(failed),
                     u"%1 个请求中的 %1 个"_s.arg(n),
                     u"筛选：错误类别、信息、请求 ID…"_s,
                     u"复制为 TSV"_s,
                     u"MLPerf 式有效性"_s,
                     u"%1 CDF<br><small>%2 个样本</small>"_s.arg(ttftLabel).arg(s.ttft.count),
                     u"每秒请求数"_s,
                     u"成功"_s,
                     u"请求/秒"_s,
                 }));
        QCOMPARE(view.tabs()->tabText(3), u"随时间变化"_s);
        QVERIFY(view.findChild<QLabel *>(u"mlperfVerdict"_s)
                    ->text()
                    .contains(valid ? u">VALID（有效）<"_s : u">INVALID（无效）<"_s));
        QVERIFY(view.findChild<ChartView *>(u"hist_ttft"_s)
                    ->chart()
                    ->title()
                    .startsWith(u"%1 直方图<br><small>区间宽 "_s.arg(ttftLabel)));
        // Re-rendered from what the view holds: the numbers are the same, nothing recomputed.
        QVERIFY(!view.isBusy());
        QCOMPARE(view.requestModel()->rowCount(), n);
        QCOMPARE(view.summaryModel()
                     ->index(0, SummaryTableModel::MeanColumn)
                     .data(SummaryTableModel::ValueRole)
                     .toDouble(),
                 mean);

        QVERIFY(lang.apply(u"en"_s));
        QTRY_COMPARE(view.tabs()->tabText(0), u"Summary"_s);
        QCOMPARE(texts(), english);
        QCOMPARE(view.findChild<ChartView *>(u"hist_ttft"_s)->chart()->title(), histTitle);
        QCOMPARE(view.findChild<QLabel *>(u"mlperfVerdict"_s)->text(), verdict);

        // A view cleared while in Chinese says so in Chinese.
        QVERIFY(lang.apply(u"zh_CN"_s));
        QTRY_COMPARE(view.tabs()->tabText(0), u"汇总"_s);
        view.clear();
        QCOMPARE(header->text(), u"未选择运行"_s);
        QCOMPARE(cdf->chart()->title(), u"%1 CDF"_s.arg(ttftLabel));
        QVERIFY(lang.apply(u"en"_s));
        QTRY_COMPARE(header->text(), u"No run selected"_s);
    }
};

QTEST_MAIN(TestResultsView)
#include "tst_resultsview.moc"
