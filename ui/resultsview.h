#pragma once

#include "common/message.h"
#include "config/runplan.h"
#include "load/mlperf.h"
#include "metrics/clientload.h"
#include "metrics/requestrecord.h"

#include <QJsonObject>
#include <QList>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

class QAction;
class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSplitter;
class QTabWidget;
class QTableView;
class QThread;
class QTimer;
class QGroupBox;

namespace sb {

class ChartView;
class RequestFilterProxy;
class RequestTableModel;
class RunTotalsModel;
class ServerEvidenceView;
class SessionTurnsView;
class MetricSeriesStore;
class SummaryTableModel;
struct ResultsChartStage;
struct ResultsSummaryStage;
struct RequestRow;
struct RunDerivation;
class StoredRunRows;

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

    // serverMetrics: the targets scraped beside the run (the Server tab), empty when none were.
    // derived: the run pipeline's derivation of these records when it has one (a run that just
    // finished), so the view does not derive them a second time. clientLoad: the client's thread
    // samples stored with the run (clientLoadOfSummary), judged with the records.
    void showRun(const sb::RunPlan &plan, const QList<sb::RequestRecord> &records,
                 const QList<sb::MetricSeriesStore> &serverMetrics = {},
                 std::shared_ptr<const sb::RunDerivation> derived = {},
                 const sb::ClientLoadSamples &clientLoad = {});
    // A stored run too large to hold (docs/uiviews.md, "Large runs"): the summary and the charts
    // are computed from the project file in two streamed passes, and the request table is paged
    // (its rows read on demand, sorted and filtered in the worker). requestCount: the stored
    // count, for the header until the file has been read.
    void showStoredRun(const sb::RunPlan &plan, const QString &storePath, qint64 storeRunId,
                       qint64 requestCount, const QList<sb::MetricSeriesStore> &serverMetrics = {},
                       const sb::ClientLoadSamples &clientLoad = {});
    void clear();
    // The server's state the shown run had (docs/managed-servers.md, docs/cache-audit.md): the
    // managed server from its snapshot, the cache policy and its verification from its summary.
    // Call after showRun()/showStoredRun(), which clear it.
    void setServerState(const QJsonObject &snapshot, const QJsonObject &summary);
    // Whether the shown run's request table is paged (showStoredRun()).
    bool isPaged() const { return m_paged; }

    // True from showRun() until the last stage of that run has been applied.
    bool isBusy() const { return m_busy; }
    quint64 generation() const { return m_generation; }

    SummaryTableModel *summaryModel() const { return m_summaryModel; }
    RunTotalsModel *totalsModel() const { return m_totalsModel; }
    RequestTableModel *requestModel() const { return m_requestModel; }
    RequestFilterProxy *requestProxy() const { return m_requestProxy; }
    QTableView *requestTable() const { return m_requestTable; }
    QTabWidget *tabs() const { return m_tabs; }
    // A session workload's turns (docs/sessions.md); its tab is shown only for such runs.
    SessionTurnsView *sessionsView() const { return m_sessions; }
    // The server-side evidence (docs/server-metrics.md); its tab is shown only for runs with
    // scraped targets.
    ServerEvidenceView *serverView() const { return m_server; }

public slots:
    // Copies the selection of the focused table (the request table when none has focus).
    void copySelection();

signals:
    void summaryShown();
    void requestsShown();
    void chartsShown(); // the last stage: the run is fully displayed
    // A paged table's new order (sorted or filtered in the worker) is shown.
    void requestOrderShown();
    // A paged table's selection is on the clipboard (its rows read from the project file).
    void selectionCopied(qsizetype rows);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    // Where the shown run is: the status line says it, in the current language.
    enum class Stage { Idle, Summary, Requests, Charts };
    // What the distribution charts' subtitles are rendered from.
    struct DistributionNote
    {
        qint64 samples = 0;
        double binWidth = 0;
        qint64 above = 0;
        double hi = 0;
    };

    // Every text of the view in the current language; the texts rendered from data (header,
    // status, verdict, counts, chart subtitles) are rendered again from what the view holds.
    void retranslateUi();
    void updateHeader();
    void updateStatus();
    void updateMlperfVerdict();
    void updateHealth();
    void updateServerState();
    void updateDistributionTitles();
    QWidget *buildSummaryTab();
    QWidget *buildRequestsTab();
    QWidget *buildDistributionsTab();
    QWidget *buildTimeTab();
    // clear(), then the shown run's name, size and scenario, busy at `stage`.
    void beginShowing(const sb::RunPlan &plan, qsizetype records, Stage stage);
    void applySummary(quint64 generation, const ResultsSummaryStage &stage);
    void applyRows(quint64 generation, const QList<RequestRow> &rows);
    void applyCharts(quint64 generation, const ResultsChartStage &stage);
    // Runs the first step now and the rest one per turn of the event loop, while the shown run
    // is still `generation`.
    void applyChartSteps(quint64 generation, QList<std::function<void()>> steps);
    void updateFailedCount();
    // Sizes the totals pane to its content and lists what the run cannot tell, with why.
    void fitSummaryPanes();
    void updateUnavailableNote();
    void updateIntervalNote();
    void copyFrom(QTableView *view);
    void copyPagedSelection();
    int chartColumns() const;
    void applyRequestColumnWidths();
    int requestColumnWidth(int column) const;
    // Paged runs (showStoredRun()).
    void usePagedTable(bool paged);
    void applyStoredIndex(quint64 generation, std::shared_ptr<const std::vector<qint64>> order,
                          qint64 failed, qint64 zeroNs);
    void applyStoredRows(quint64 generation, std::shared_ptr<const StoredRunRows> rows);
    void requestPagedOrder();
    void fetchPagedRows(const QList<qint64> &indices);
    void failStored(quint64 generation, const QString &error);

    // Worker side.
    QThread *m_thread;
    QObject *m_worker; // lives in m_thread; jobs are functors posted to it
    std::shared_ptr<std::atomic<quint64>> m_latest;
    quint64 m_generation = 0;
    bool m_busy = false;
    qint64 m_failedRows = 0;

    // The paged run: where it is, its time zero, and (after the second pass) its compact rows.
    bool m_paged = false;
    QString m_storePath;
    qint64 m_storeRunId = 0;
    qint64 m_zeroNs = 0;
    std::shared_ptr<const StoredRunRows> m_storedRows;
    QThread *m_rowThread;
    QObject *m_rowReader; // lives in m_rowThread: reads a paged table's rows on demand
    QTimer *m_filterDelay;
    quint64 m_orderTicket = 0;
    std::shared_ptr<std::atomic<quint64>> m_latestOrder;
    bool m_ordering = false;

    // The shown run's texts, kept so a language switch renders them again without recomputing.
    bool m_hasRun = false;
    QString m_runName;
    qsizetype m_runRecords = 0;
    Scenario m_runScenario = Scenario::None;
    Stage m_stage = Stage::Idle;
    bool m_hasMlperf = false;
    bool m_mlperfValid = false;
    QList<Message> m_mlperfFailed;
    Message m_mlperfError; // why an MLPerf scenario could not be judged
    QList<Message> m_healthWarnings;
    QList<DistributionNote> m_distributionNotes; // empty until the charts are drawn

    // Models.
    SummaryTableModel *m_summaryModel;
    RunTotalsModel *m_totalsModel;
    RequestTableModel *m_requestModel;
    RequestFilterProxy *m_requestProxy;

    // Widgets.
    QLabel *m_header;
    QLabel *m_status;
    QLabel *m_health = nullptr;
    QLabel *m_serverState = nullptr; // managed server and cache policy of the shown run
    QJsonObject m_stateSnapshot, m_stateSummary;
    QGroupBox *m_mlperfBox;
    QLabel *m_mlperfVerdict;
    QPlainTextEdit *m_mlperfText;
    QTabWidget *m_tabs;
    QTableView *m_totalsTable;
    QTableView *m_summaryTable;
    QSplitter *m_summarySplit;
    QLabel *m_unavailableNote;
    QLabel *m_intervalNote;
    QCheckBox *m_showIntervals;
    QTableView *m_requestTable;
    QCheckBox *m_failedOnly;
    QLineEdit *m_filter;
    QLabel *m_requestCount;
    QAction *m_copyAction;
    QList<ChartView *> m_cdfCharts;  // ttft, tpot, itl, e2el
    QList<ChartView *> m_histCharts; // same order
    ChartView *m_throughputChart;
    ChartView *m_tokensChart;
    ChartView *m_inFlightChart;
    ChartView *m_ttftTimeChart;
    ChartView *m_itlTimeChart;
    ChartView *m_lagTimeChart;
    SessionTurnsView *m_sessions;
    ServerEvidenceView *m_server;
};

} // namespace sb
