#pragma once

#include "compare/comparisondata.h"
#include "report/reportoutputs.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;
class QMenu;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace sb {

class BackgroundJobs;
class BarChartView;
class ChartView;
class ComparisonTableModel;
class CopyableTableView;
class SignificanceModel;

// The Compare tab: pick two or more of the project's runs, see whether they may be compared at
// all (the comparability verdict, docs/design.md, comparison and acceptance), the side-by-side
// table with differences against a baseline and a ranking by the chosen metric, overlaid latency
// CDFs, throughput bars and latency-versus-throughput curves per SUT across the sweeps the runs
// belong to.
//
// The runs are read from the project file, never from memory, by worker threads with their own
// read-only connection; the comparison is core's buildComparison() as `servebench-cli compare`
// builds it. A changed baseline, ranking or curve axis rebuilds from the runs already loaded,
// also in a worker. Every job carries a generation number; a result older than the newest
// request is dropped.
class ComparisonView : public QWidget
{
    Q_OBJECT
public:
    explicit ComparisonView(QWidget *parent = nullptr);
    ~ComparisonView() override;

    // Reads the project's runs again (coalesced: several calls in one event-loop turn read once).
    // An empty path clears the view: only a saved project has runs to compare.
    void setProject(const QString &projectPath);
    QString projectPath() const { return m_path; }
    // The project file changed on disk (ProjectDocument::changedOnDisk: the CLI imported bills,
    // created a window, recorded a run): reads the run list and the shown comparison again,
    // keeping the ticked runs, the baseline and the ranking. Visible: now, or after the read
    // under way (never abandoning it, so a file written every few hundred ms still shows);
    // hidden: when next shown, as CostPage::reloadFromDisk.
    void reloadFromDisk();

    // Ticks `runs`, makes `baseline` the baseline and ranks by `rankBy` (empty: keep the
    // ranking), as a restarted workbench restores them. Works before the run list is read: runs
    // the project no longer has are dropped when it arrives. Does not emit selectionEdited().
    void restoreSelection(const QList<qint64> &runs, qint64 baseline, const QString &rankBy);
    // The splitters' positions, for the settings; restoreLayout() applies them (at the first
    // show when the view has not been shown yet). False: not a layout saveLayout() wrote.
    QByteArray saveLayout() const;
    bool restoreLayout(const QByteArray &layout);

    // The picker: every run of the project, and the ticked ones in picker order.
    QList<qint64> listedRuns() const;
    QList<qint64> selectedRuns() const;
    void setSelectedRuns(const QList<qint64> &runIds);
    qint64 baselineRun() const;
    bool setBaselineRun(qint64 runId);
    // `servebench-cli compare --rank-by` syntax, limited to the choices the view offers.
    bool setRankBy(const QString &text);
    QString rankBy() const;
    void setCurveThroughput(CurveThroughput x);

    // What is shown; nullptr while nothing is.
    const Comparison *comparison() const;
    const LatencyCurves *latencyCurves() const;
    bool isBusy() const { return m_pendingList || m_pendingCompare; }
    QString verdictText() const;
    QString notesText() const;
    ComparisonTableModel *tableModel() const { return m_model; }
    // The statistical tests: per metric and candidate the difference with its 95 % interval and
    // the verdict (the "Significance" tab).
    SignificanceModel *significanceModel() const { return m_significance; }
    CopyableTableView *significanceView() const { return m_significanceTable; }
    CopyableTableView *tableView() const { return m_table; }
    // metric: "ttft", "tpot", "itl", "e2el".
    ChartView *cdfChart(const QString &metric) const;
    ChartView *curveChart() const { return m_curveChart; }

    // Writes the shown comparison (its baseline and ranking) as `servebench-cli report` does:
    // HTML, PDF, CSV, JSON and the acceptance bundle, rendered in a worker thread. False when
    // nothing is shown or an export is still running; reportExported() tells the outcome.
    bool exportReport(const ReportOutputs &outputs);
    bool isExporting() const { return m_exporting; }
    BarChartView *requestBars() const { return m_requestBars; }
    BarChartView *tokenBars() const { return m_tokenBars; }

signals:
    void runsListed();
    // The ticked runs, the baseline or the ranking changed through the widgets or the setters
    // (not through restoreSelection() or a reload): what the settings remember per project.
    void selectionEdited();
    // After each comparison is applied, and when the view is cleared.
    void comparisonShown();
    void reportExported(bool ok, const QStringList &written, const QString &error);

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    QWidget *buildPicker();
    QWidget *buildVerdict();
    QWidget *buildCharts();
    void retranslateUi();
    void fillRankCombos();
    void reload();
    void applyList(quint64 generation, const CompareRunList &list);
    void fillPickerRow(QTreeWidgetItem *item, const CompareRunEntry &e);
    void onItemChanged(QTreeWidgetItem *item, int column);
    void updateBaselineCombo();
    void requestComparison(bool reread);
    void startComparison();
    void applyOutcome(quint64 generation, const CompareOutcome &outcome);
    void showOutcome();
    void showVerdict();
    void rebuildCharts();
    void rebuildCurveChart();
    void clearComparison(const QString &hint);
    void showHint();
    ComparisonOptions options() const;
    LatencyCurveOptions curveOptions() const;
    void setStatus(const QString &text, bool error = false);
    // Called when a read (list and comparison) has ended: starts a reload the file asked for
    // meanwhile.
    void readSettled();
    bool applyLayout(const QByteArray &layout);
    enum class ExportKind { Html, Pdf, Csv, Json, Bundle };
    void chooseExport(ExportKind kind);
    void updateExportEnabled();
    // The table and the charts when a comparison is shown; otherwise, in their place, what to do
    // to see them (or why there is nothing), never an empty grid or empty 0–1 axes.
    void showPanes();

    QString m_path;
    BackgroundJobs *m_jobs;
    QTimer *m_reloadTimer;
    QTimer *m_compareTimer;
    quint64 m_listGeneration = 0;
    quint64 m_compareGeneration = 0;
    bool m_pendingList = false;
    bool m_pendingCompare = false;
    bool m_reread = true; // the next comparison reads the runs again (else: rebuild only)
    CompareRunList m_list;
    QSet<qint64> m_checked;
    qint64 m_baseline = 0;
    std::unique_ptr<CompareOutcome> m_outcome; // what is shown
    QString m_hint;                            // shown instead of a comparison

    bool m_stale = false;         // the file changed while the view was hidden
    bool m_reloadAfter = false;   // the file changed while a read was under way
    bool m_sized = false;         // the splitters got their first proportions
    QByteArray m_savedLayout;     // restoreLayout()'s, applied at the first show
    QSplitter *m_split = nullptr; // picker and verdict above, table and charts below
    QSplitter *m_upper = nullptr;
    QSplitter *m_lower = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QToolButton *m_reload = nullptr;
    QToolButton *m_export = nullptr;
    QMenu *m_exportMenu = nullptr;
    bool m_exporting = false;
    QTreeWidget *m_picker = nullptr;
    QLabel *m_baselineLabel = nullptr;
    QComboBox *m_baselineCombo = nullptr;
    QLabel *m_rankLabel = nullptr;
    QComboBox *m_rankMetric = nullptr;
    QComboBox *m_rankStat = nullptr;
    QLabel *m_verdict = nullptr;
    QLabel *m_notes = nullptr;
    ComparisonTableModel *m_model = nullptr;
    CopyableTableView *m_table = nullptr;
    QTabWidget *m_chartTabs = nullptr;
    QStackedWidget *m_tableStack = nullptr; // a note, or the table
    QStackedWidget *m_chartStack = nullptr; // a note, or the chart tabs
    QLabel *m_tableEmpty = nullptr;
    QLabel *m_chartsEmpty = nullptr;
    QTabWidget *m_cdfPage = nullptr; // one latency distribution per tab
    QList<ChartView *> m_cdfCharts;  // ttft, tpot, itl, e2el; recreated per comparison
    BarChartView *m_requestBars = nullptr;
    BarChartView *m_tokenBars = nullptr;
    QLabel *m_curveXLabel = nullptr;
    QComboBox *m_curveX = nullptr;
    QWidget *m_curvePage = nullptr;
    ChartView *m_curveChart = nullptr;
    QLabel *m_curveNotes = nullptr;
    SignificanceModel *m_significance = nullptr;
    CopyableTableView *m_significanceTable = nullptr;
    QLabel *m_significanceNote = nullptr;
};

} // namespace sb
