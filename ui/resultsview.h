#pragma once

#include "config/runplan.h"
#include "load/mlperf.h"
#include "metrics/requestrecord.h"

#include <QList>
#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTabWidget;
class QTableView;
class QThread;
class QGroupBox;

namespace sb {

class ChartView;
class RequestFilterProxy;
class RequestTableModel;
class RunTotalsModel;
class SummaryTableModel;
struct ResultsChartStage;
struct ResultsSummaryStage;
struct RequestRow;

// The finished run: run totals and the latency statistics of core's summarize() (definitions
// as tooltips), the MLPerf validity block when the plan has a scenario, every request (failed
// ones first-class: a "failed only" switch, a text filter, sorting, Ctrl+C copies the selection
// as TSV), and charts — CDFs and histograms of TTFT/TPOT/ITL/E2EL and the run over time.
//
// Everything is computed in a worker thread and published in stages (summary, then rows, then
// charts). Each showRun() bumps a generation number; a stage from an older generation is
// dropped, and the worker abandons a superseded job at its next check, so clicking through runs
// never shows one run's charts under another's numbers.
class ResultsView : public QWidget
{
    Q_OBJECT
public:
    explicit ResultsView(QWidget *parent = nullptr);
    ~ResultsView() override;

    void showRun(const sb::RunPlan &plan, const QList<sb::RequestRecord> &records);
    void clear();
    // Used by the next showRun(); without it defaultMlperfConstraints(plan) applies.
    void setMlperfConstraints(const sb::MlperfConstraints &constraints);
    void resetMlperfConstraints();

    // True from showRun() until the last stage of that run has been applied.
    bool isBusy() const { return m_busy; }
    quint64 generation() const { return m_generation; }

    SummaryTableModel *summaryModel() const { return m_summaryModel; }
    RunTotalsModel *totalsModel() const { return m_totalsModel; }
    RequestTableModel *requestModel() const { return m_requestModel; }
    RequestFilterProxy *requestProxy() const { return m_requestProxy; }
    QTableView *requestTable() const { return m_requestTable; }
    QTabWidget *tabs() const { return m_tabs; }

public slots:
    // Copies the selection of the focused table (the request table when none has focus).
    void copySelection();

signals:
    void summaryShown();
    void requestsShown();
    void chartsShown(); // the last stage: the run is fully displayed

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *buildSummaryTab();
    QWidget *buildRequestsTab();
    QWidget *buildDistributionsTab();
    QWidget *buildTimeTab();
    void applySummary(quint64 generation, const ResultsSummaryStage &stage);
    void applyRows(quint64 generation, const QList<RequestRow> &rows);
    void applyCharts(quint64 generation, const ResultsChartStage &stage);
    void updateFailedCount();
    void copyFrom(QTableView *view);
    int chartColumns() const;

    // Worker side.
    QThread *m_thread;
    QObject *m_worker; // lives in m_thread; jobs are functors posted to it
    std::shared_ptr<std::atomic<quint64>> m_latest;
    quint64 m_generation = 0;
    bool m_busy = false;
    qint64 m_failedRows = 0;
    bool m_hasConstraints = false;
    MlperfConstraints m_constraints;

    // Models.
    SummaryTableModel *m_summaryModel;
    RunTotalsModel *m_totalsModel;
    RequestTableModel *m_requestModel;
    RequestFilterProxy *m_requestProxy;

    // Widgets.
    QLabel *m_header;
    QLabel *m_status;
    QGroupBox *m_mlperfBox;
    QLabel *m_mlperfVerdict;
    QPlainTextEdit *m_mlperfText;
    QTabWidget *m_tabs;
    QTableView *m_totalsTable;
    QTableView *m_summaryTable;
    QTableView *m_requestTable;
    QCheckBox *m_failedOnly;
    QLineEdit *m_filter;
    QLabel *m_requestCount;
    QList<ChartView *> m_cdfCharts;  // ttft, tpot, itl, e2el
    QList<ChartView *> m_histCharts; // same order
    ChartView *m_throughputChart;
    ChartView *m_tokensChart;
    ChartView *m_inFlightChart;
    ChartView *m_ttftTimeChart;
    ChartView *m_itlTimeChart;
    ChartView *m_lagTimeChart;
};

} // namespace sb
