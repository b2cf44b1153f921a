#include "comparisonview.h"

#include "charts/chartview.h"
#include "common/backgroundjobs.h"
#include "common/coretranslation.h"
#include "compare/barchartview.h"
#include "compare/comparisontablemodel.h"
#include "compare/significancemodel.h"
#include "editors/copyabletableview.h"
#include "metrics/confidence.h"
#include "metrics/definitions.h"
#include "qtreportrenderer.h"

#include <QComboBox>
#include <QCursor>
#include <QDataStream>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QTextDocumentFragment>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// "#4" of "#4 vllm-a100 @ 5 req/s": the short name a run has throughout the view.
QString runCode(const QString &label)
{
    const qsizetype space = label.indexOf(u' ');
    return label.startsWith(u'#') && space > 0 ? label.left(space) : label;
}

const QStringList &latencyMetrics()
{
    static const QStringList m = {u"ttft"_s, u"tpot"_s, u"itl"_s, u"e2el"_s};
    return m;
}

// One colour per run, the same in every chart of the tab.
QColor runColor(int i)
{
    return chartColor(i);
}

enum PickerColumn {
    IdColumn,
    NameColumn,
    SutColumn,
    ScenarioColumn,
    StatusColumn,
    StartedColumn,
    SweepColumn,
    PickerColumns
};

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

} // namespace

ComparisonView::ComparisonView(QWidget *parent)
    : QWidget(parent), m_jobs(new BackgroundJobs(this)), m_reloadTimer(new QTimer(this)),
      m_compareTimer(new QTimer(this)), m_model(new ComparisonTableModel(this))
{
    // Save, reopen and a finished run can all ask for a reload in one turn of the event loop;
    // the timers make that one read, and a burst of ticks one comparison.
    m_reloadTimer->setSingleShot(true);
    m_reloadTimer->setInterval(0);
    connect(m_reloadTimer, &QTimer::timeout, this, &ComparisonView::reload);
    m_compareTimer->setSingleShot(true);
    m_compareTimer->setInterval(0);
    connect(m_compareTimer, &QTimer::timeout, this, &ComparisonView::startComparison);

    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_status = new QLabel(this);
    m_status->setObjectName(u"statusLabel"_s);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reload = new QToolButton(this);
    m_reload->setObjectName(u"reloadButton"_s);
    m_reload->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    connect(m_reload, &QToolButton::clicked, this, [this] { setProject(m_path); });
    // The review-meeting outputs of `servebench-cli report`, for the comparison on screen.
    m_export = new QToolButton(this);
    m_export->setObjectName(u"exportButton"_s);
    m_export->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_export->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_exportMenu = new QMenu(m_export);
    for (ExportKind kind : {ExportKind::Html, ExportKind::Pdf, ExportKind::Csv, ExportKind::Json,
                            ExportKind::Bundle}) {
        QAction *a = m_exportMenu->addAction(QString());
        a->setData(int(kind));
        connect(a, &QAction::triggered, this, [this, kind] { chooseExport(kind); });
    }
    m_export->setMenu(m_exportMenu);
    auto *top = new QHBoxLayout;
    top->addWidget(m_title);
    top->addWidget(m_status, 1);
    top->addWidget(m_export);
    top->addWidget(m_reload);

    m_table = new CopyableTableView(this);
    m_table->setObjectName(u"comparisonTable"_s);
    m_table->setModel(m_model);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(false);
    // Run labels are long ("#12 vllm-a100 @ 10 req/s (baseline)"): they wrap onto two lines
    // rather than widen every column past its numbers.
    m_table->horizontalHeader()->setDefaultAlignment(
        Qt::Alignment(int(Qt::AlignCenter) | int(Qt::TextWordWrap)));
    m_table->horizontalHeader()->setMinimumHeight(2 * m_table->fontMetrics().lineSpacing() + 8);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);

    auto *upper = m_upper = new QSplitter(Qt::Horizontal, this);
    upper->addWidget(buildPicker());
    upper->addWidget(buildVerdict());
    upper->setStretchFactor(0, 3);
    upper->setStretchFactor(1, 2);
    // Until two runs are ticked there is no table and no chart to show: an empty grid and four
    // empty 0–1 plots told a new user nothing. Each pane then says what to do (showPanes()).
    const auto notePane = [this](QLabel **label, const QString &name) {
        *label = new QLabel(this);
        (*label)->setObjectName(name);
        (*label)->setWordWrap(true);
        (*label)->setAlignment(Qt::AlignCenter);
        (*label)->setMargin(24);
        (*label)->setFrameShape(QFrame::StyledPanel);
        return *label;
    };
    m_tableStack = new QStackedWidget(this);
    m_tableStack->setObjectName(u"tableStack"_s);
    m_tableStack->addWidget(notePane(&m_tableEmpty, u"tableEmptyNote"_s));
    m_tableStack->addWidget(m_table);
    m_chartStack = new QStackedWidget(this);
    m_chartStack->setObjectName(u"chartStack"_s);
    m_chartStack->addWidget(notePane(&m_chartsEmpty, u"chartsEmptyNote"_s));
    m_chartStack->addWidget(buildCharts());
    auto *lower = m_lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(m_tableStack);
    lower->addWidget(m_chartStack);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    m_upper->setObjectName(u"upperSplitter"_s);
    m_lower->setObjectName(u"lowerSplitter"_s);
    auto *split = m_split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(u"mainSplitter"_s);
    split->addWidget(upper);
    split->addWidget(lower);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({230, 600});

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    retranslateUi();
    updateExportEnabled();
}

ComparisonView::~ComparisonView()
{
    // Join the workers while the members their results would reach still exist.
    delete m_jobs;
    m_jobs = nullptr;
}

QWidget *ComparisonView::buildPicker()
{
    auto *box = new QWidget(this);
    m_picker = new QTreeWidget(box);
    m_picker->setObjectName(u"runPicker"_s);
    m_picker->setColumnCount(PickerColumns);
    m_picker->setRootIsDecorated(false);
    m_picker->setUniformRowHeights(true);
    m_picker->setAlternatingRowColors(true);
    m_picker->setSelectionMode(QAbstractItemView::SingleSelection);
    m_picker->header()->setStretchLastSection(true);
    m_picker->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // A stretched last column ends at the pane's edge, narrower than its text ("rate sweep
    // vllm-…"); the pane scrolls instead.
    m_picker->header()->setStretchLastSection(false);
    connect(m_picker, &QTreeWidget::itemChanged, this, &ComparisonView::onItemChanged);

    m_baselineLabel = new QLabel(box);
    m_baselineCombo = new QComboBox(box);
    m_baselineCombo->setObjectName(u"baselineCombo"_s);
    m_baselineCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_baselineCombo->setMinimumContentsLength(12);
    m_baselineLabel->setBuddy(m_baselineCombo);
    connect(m_baselineCombo, &QComboBox::activated, this, [this](int i) {
        m_baseline = m_baselineCombo->itemData(i).toLongLong();
        requestComparison(false);
        emit selectionEdited();
    });
    m_rankLabel = new QLabel(box);
    m_rankMetric = new QComboBox(box);
    m_rankMetric->setObjectName(u"rankMetricCombo"_s);
    m_rankStat = new QComboBox(box);
    m_rankStat->setObjectName(u"rankStatCombo"_s);
    m_rankLabel->setBuddy(m_rankMetric);
    connect(m_rankMetric, &QComboBox::activated, this, [this] {
        m_rankStat->setEnabled(latencyMetrics().contains(m_rankMetric->currentData().toString()));
        requestComparison(false);
        emit selectionEdited();
    });
    connect(m_rankStat, &QComboBox::activated, this, [this] {
        requestComparison(false);
        emit selectionEdited();
    });

    auto *row = new QHBoxLayout;
    row->addWidget(m_baselineLabel);
    row->addWidget(m_baselineCombo);
    row->addSpacing(12);
    row->addWidget(m_rankLabel);
    row->addWidget(m_rankMetric);
    row->addWidget(m_rankStat);
    row->addStretch(1);
    auto *l = new QVBoxLayout(box);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_picker, 1);
    l->addLayout(row);
    return box;
}

QWidget *ComparisonView::buildVerdict()
{
    auto *frame = new QFrame(this);
    frame->setObjectName(u"verdictFrame"_s);
    m_verdict = new QLabel(frame);
    m_verdict->setObjectName(u"verdict"_s);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->setMargin(6);
    m_notes = new QLabel;
    m_notes->setObjectName(u"notes"_s);
    m_notes->setTextFormat(Qt::RichText);
    m_notes->setWordWrap(true);
    m_notes->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *scroll = new QScrollArea(frame);
    scroll->setWidget(m_notes);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *l = new QVBoxLayout(frame);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_verdict);
    l->addWidget(scroll, 1);
    return frame;
}

QWidget *ComparisonView::buildCharts()
{
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->setObjectName(u"chartTabs"_s);
    // One distribution per tab, each with the whole pane: four to a pane beside the table left
    // each plot some 60 px high, its axis titles and legend cut to nothing at 1280×800.
    m_cdfPage = new QTabWidget(m_chartTabs);
    m_cdfPage->setObjectName(u"cdfTabs"_s);
    m_cdfPage->setDocumentMode(true);

    auto *bars = new QWidget(m_chartTabs);
    m_requestBars = new BarChartView(QString(), bars);
    m_requestBars->setObjectName(u"requestBars"_s);
    m_tokenBars = new BarChartView(QString(), bars);
    m_tokenBars->setObjectName(u"tokenBars"_s);
    auto *bl = new QVBoxLayout(bars);
    bl->setContentsMargins(0, 0, 0, 0);
    bl->addWidget(m_requestBars);
    bl->addWidget(m_tokenBars);

    m_curvePage = new QWidget(m_chartTabs);
    m_curveXLabel = new QLabel(m_curvePage);
    m_curveX = new QComboBox(m_curvePage);
    m_curveX->setObjectName(u"curveXCombo"_s);
    m_curveX->addItem(QString(), int(CurveThroughput::Output));
    m_curveX->addItem(QString(), int(CurveThroughput::Request));
    m_curveXLabel->setBuddy(m_curveX);
    connect(m_curveX, &QComboBox::activated, this, [this] { requestComparison(false); });
    m_curveNotes = new QLabel(m_curvePage);
    m_curveNotes->setObjectName(u"curveNotes"_s);
    m_curveNotes->setWordWrap(true);
    m_curveNotes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *xRow = new QHBoxLayout;
    xRow->addWidget(m_curveXLabel);
    xRow->addWidget(m_curveX);
    xRow->addStretch(1);
    auto *cl = new QVBoxLayout(m_curvePage);
    cl->setContentsMargins(0, 4, 0, 0);
    cl->addLayout(xRow);
    // The chart goes at index 1, between the axis choice and the notes (rebuildCurveChart).
    cl->addWidget(m_curveNotes);

    // The tests: which differences the data separate from noise, and which they cannot.
    auto *tests = new QWidget(m_chartTabs);
    m_significance = new SignificanceModel(this);
    m_significanceTable = new CopyableTableView(tests);
    m_significanceTable->setObjectName(u"significanceTable"_s);
    m_significanceTable->setModel(m_significance);
    m_significanceTable->setWordWrap(false);
    m_significanceTable->verticalHeader()->setVisible(false);
    m_significanceTable->horizontalHeader()->setStretchLastSection(true);
    m_significanceNote = new QLabel(tests);
    m_significanceNote->setObjectName(u"significanceNote"_s);
    m_significanceNote->setWordWrap(true);
    m_significanceNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *tl = new QVBoxLayout(tests);
    tl->setContentsMargins(0, 4, 0, 0);
    tl->addWidget(m_significanceNote);
    tl->addWidget(m_significanceTable, 1);

    m_chartTabs->addTab(m_cdfPage, QString());
    m_chartTabs->addTab(bars, QString());
    m_chartTabs->addTab(m_curvePage, QString());
    m_chartTabs->addTab(tests, QString());
    return m_chartTabs;
}

void ComparisonView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (std::exchange(m_stale, false))
        reloadFromDisk();
    if (m_sized || width() < 400)
        return;
    m_sized = true;
    // Where the user left them in an earlier session, scaled to this width by QSplitter.
    if (applyLayout(m_savedLayout))
        return;
    // Proportions of the real width: before the first show the splitters only know size hints,
    // which would leave the table (small hint) narrower than the charts. The table needs the
    // metric names and a value with its differences per run; the charts read well narrower.
    m_upper->setSizes({width() * 3 / 5, width() * 2 / 5});
    m_lower->setSizes({width() * 11 / 20, width() * 9 / 20});
}

namespace {
// saveLayout()'s format: a tag, then each splitter's QSplitter::saveState().
constexpr quint32 kLayoutTag = 0x5342'4301; // "SB" C 1
} // namespace

QByteArray ComparisonView::saveLayout() const
{
    // Never shown this session: the splitters hold size hints, not a choice of the user's.
    if (!m_sized)
        return m_savedLayout;
    QByteArray out;
    QDataStream stream(&out, QIODevice::WriteOnly);
    stream << kLayoutTag << m_split->saveState() << m_upper->saveState() << m_lower->saveState();
    return out;
}

bool ComparisonView::restoreLayout(const QByteArray &layout)
{
    QDataStream stream(layout);
    quint32 tag = 0;
    stream >> tag;
    if (tag != kLayoutTag)
        return false;
    m_savedLayout = layout;
    if (m_sized)
        applyLayout(layout);
    return true;
}

bool ComparisonView::applyLayout(const QByteArray &layout)
{
    QDataStream stream(layout);
    quint32 tag = 0;
    QByteArray split, upper, lower;
    stream >> tag >> split >> upper >> lower;
    if (tag != kLayoutTag || stream.status() != QDataStream::Ok)
        return false;
    return m_split->restoreState(split) && m_upper->restoreState(upper) &&
           m_lower->restoreState(lower);
}

void ComparisonView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void ComparisonView::retranslateUi()
{
    m_title->setText(tr("Compare runs"));
    m_reload->setToolTip(tr("Read the project's runs again"));
    m_export->setText(tr("&Export"));
    m_export->setToolTip(tr("Write the comparison shown as a report for a review: the same "
                            "files as servebench-cli report"));
    for (QAction *a : m_exportMenu->actions()) {
        switch (ExportKind(a->data().toInt())) {
        case ExportKind::Html:
            a->setText(tr("HTML report…"));
            break;
        case ExportKind::Pdf:
            a->setText(tr("PDF report…"));
            break;
        case ExportKind::Csv:
            a->setText(tr("CSV (summary and per-request)…"));
            break;
        case ExportKind::Json:
            a->setText(tr("JSON…"));
            break;
        case ExportKind::Bundle:
            a->setText(tr("Acceptance bundle (folder with a sha256 manifest)…"));
            break;
        }
    }
    m_picker->setHeaderLabels({tr("Run"), tr("Name"), tr("SUT"), tr("Scenario"), tr("Status"),
                               tr("Started"), tr("Sweep")});
    m_picker->setToolTip(tr("Tick two or more runs to compare them; the columns of the table "
                            "follow this order."));
    for (int i = 0; i < m_picker->topLevelItemCount() && i < m_list.runs.size(); ++i)
        fillPickerRow(m_picker->topLevelItem(i), m_list.runs.at(i));
    m_baselineLabel->setText(tr("&Baseline:"));
    m_baselineCombo->setToolTip(tr("The run the differences are taken against"));
    m_rankLabel->setText(tr("Rank &by:"));
    m_rankMetric->setToolTip(tr("The metric the runs are ranked by, as servebench-cli compare "
                                "--rank-by; its latency statistic is also the y axis of the "
                                "latency-versus-throughput curves"));
    fillRankCombos();
    m_chartTabs->setTabText(0, tr("Distributions"));
    m_chartTabs->setTabText(1, tr("Throughput"));
    m_chartTabs->setTabText(2, tr("Latency vs throughput"));
    m_chartTabs->setTabText(3, tr("Significance"));
    m_chartTabs->setTabToolTip(3, tr("Per metric and candidate: the difference from the baseline "
                                     "with its 95 % interval and whether the data separate it "
                                     "from noise"));
    m_significance->retranslate();
    m_chartTabs->setTabToolTip(0, tr("Cumulative distributions of TTFT, TPOT, ITL and E2EL, "
                                     "one line per run, as in the report"));
    m_chartTabs->setTabToolTip(2, tr("One curve per SUT over the chosen runs and every run of "
                                     "the sweeps they belong to"));
    m_requestBars->setTitle(tr("Request throughput and goodput"));
    m_requestBars->setValueAxisTitle(tr("req/s"));
    m_tokenBars->setTitle(tr("Token throughput"));
    m_tokenBars->setValueAxisTitle(tr("tok/s"));
    m_curveXLabel->setText(tr("&X axis:"));
    m_curveX->setItemText(0, tr("Achieved output throughput (tok/s)"));
    m_curveX->setItemText(1, tr("Achieved request throughput (req/s)"));
    m_model->retranslate();
    if (m_outcome) {
        showVerdict();
        setStatus(tr("%n run(s) compared", nullptr, int(m_outcome->comparison.columns.size())));
    } else {
        showHint();
    }
    showPanes();
    rebuildCharts();
}

void ComparisonView::fillRankCombos()
{
    const QString metric =
        m_rankMetric->count() ? m_rankMetric->currentData().toString() : u"ttft"_s;
    const QString stat = m_rankStat->count() ? m_rankStat->currentData().toString() : u"p99"_s;
    const QSignalBlocker b1(m_rankMetric);
    const QSignalBlocker b2(m_rankStat);
    m_rankMetric->clear();
    for (const QString &m : latencyMetrics())
        m_rankMetric->addItem(m.toUpper(), m);
    m_rankMetric->addItem(tr("Request throughput"), u"request_throughput"_s);
    m_rankMetric->addItem(tr("Output throughput"), u"output_throughput"_s);
    m_rankMetric->addItem(tr("Goodput"), u"request_goodput"_s);
    m_rankMetric->addItem(tr("Cost per request"), u"cost_per_request"_s);
    m_rankMetric->addItem(tr("Cost per 1M output tokens"), u"cost_per_1m_output_tokens"_s);
    m_rankStat->clear();
    m_rankStat->addItem(tr("mean"), u"mean"_s);
    m_rankStat->addItem(tr("median"), u"median"_s);
    m_rankStat->addItem(u"p90"_s, u"p90"_s);
    m_rankStat->addItem(u"p99"_s, u"p99"_s);
    m_rankMetric->setCurrentIndex(std::max(0, m_rankMetric->findData(metric)));
    m_rankStat->setCurrentIndex(std::max(0, m_rankStat->findData(stat)));
    m_rankStat->setEnabled(latencyMetrics().contains(m_rankMetric->currentData().toString()));
}

// --- the run list ---------------------------------------------------------------------------

void ComparisonView::setProject(const QString &projectPath)
{
    m_path = projectPath;
    m_pendingList = true; // from now until the list is applied, so isBusy() covers the wait
    m_reloadTimer->start();
}

void ComparisonView::reloadFromDisk()
{
    if (m_path.isEmpty())
        return;
    if (!isVisible())
        m_stale = true;
    else if (isBusy())
        m_reloadAfter = true; // readSettled() starts it
    else
        setProject(m_path); // the list, then the comparison with reread = true
}

void ComparisonView::readSettled()
{
    if (m_reloadAfter && !isBusy()) {
        m_reloadAfter = false;
        reloadFromDisk();
    }
}

void ComparisonView::restoreSelection(const QList<qint64> &runs, qint64 baseline,
                                      const QString &rankBy)
{
    m_checked = QSet<qint64>(runs.cbegin(), runs.cend());
    m_baseline = m_checked.contains(baseline) ? baseline : 0;
    RankBy r;
    if (!rankBy.isEmpty() && RankBy::parse(rankBy, &r, nullptr)) {
        const int m = m_rankMetric->findData(r.metric);
        const int s = r.stat.isEmpty() ? m_rankStat->currentIndex() : m_rankStat->findData(r.stat);
        if (m >= 0 && s >= 0) {
            m_rankMetric->setCurrentIndex(m);
            m_rankStat->setCurrentIndex(s);
            m_rankStat->setEnabled(!r.stat.isEmpty());
        }
    }
    {
        const QSignalBlocker block(m_picker);
        for (int i = 0; i < m_picker->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = m_picker->topLevelItem(i);
            const qint64 id = item->data(IdColumn, Qt::UserRole).toLongLong();
            item->setCheckState(IdColumn, m_checked.contains(id) ? Qt::Checked : Qt::Unchecked);
        }
    }
    // While the project's list is on its way, the picker still lists the previous project's
    // runs: the baseline is kept for applyList() to check against the new list.
    if (!m_pendingList)
        updateBaselineCombo();
    requestComparison(true);
}

void ComparisonView::reload()
{
    const quint64 generation = ++m_listGeneration;
    if (m_path.isEmpty()) {
        applyList(generation, CompareRunList());
        return;
    }
    m_pendingList = true;
    setStatus(tr("Reading %1 …").arg(m_path));
    const QString path = m_path;
    m_jobs->run([path] { return listCompareRuns(path); },
                [this, generation](CompareRunList list) { applyList(generation, list); });
}

void ComparisonView::applyList(quint64 generation, const CompareRunList &list)
{
    if (generation != m_listGeneration)
        return; // a newer project or reload superseded this one
    m_pendingList = false;
    m_list = list;
    QSet<qint64> present;
    for (const CompareRunEntry &e : list.runs)
        present.insert(e.id);
    m_checked.intersect(present);
    {
        const QSignalBlocker block(m_picker);
        m_picker->clear();
        for (const CompareRunEntry &e : list.runs) {
            auto *item = new QTreeWidgetItem(m_picker);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
            item->setData(IdColumn, Qt::UserRole, e.id);
            item->setCheckState(IdColumn, m_checked.contains(e.id) ? Qt::Checked : Qt::Unchecked);
            fillPickerRow(item, e);
        }
    }
    if (!list.error.isEmpty())
        setStatus(tr("Cannot read the project: %1").arg(list.error), true);
    else if (!m_path.isEmpty())
        setStatus(tr("%n run(s) in the project", nullptr, int(list.runs.size())));
    else
        setStatus(QString());
    updateBaselineCombo();
    emit runsListed();
    // The runs may have changed on disk (a new cost window, a deleted run): read them again.
    requestComparison(true);
}

void ComparisonView::fillPickerRow(QTreeWidgetItem *item, const CompareRunEntry &e)
{
    item->setText(IdColumn, u"#%1"_s.arg(e.id));
    item->setText(NameColumn, e.name);
    item->setToolTip(NameColumn, e.name);
    item->setText(SutColumn, e.sut);
    QString scenario;
    switch (e.scenario) {
    case Scenario::None:
        scenario = tr("open loop");
        break;
    case Scenario::SingleStream:
        scenario = tr("SingleStream");
        break;
    case Scenario::Server:
        scenario = tr("Server");
        break;
    case Scenario::Offline:
        scenario = tr("Offline");
        break;
    }
    item->setText(ScenarioColumn, scenario);
    QString status;
    switch (e.status) {
    case StoredRunStatus::Running:
        status = tr("running");
        break;
    case StoredRunStatus::Completed:
        status = tr("completed");
        break;
    case StoredRunStatus::Interrupted:
        status = tr("interrupted");
        break;
    case StoredRunStatus::Failed:
        status = tr("failed");
        break;
    }
    if (e.imported)
        status = tr("%1, imported").arg(status);
    item->setText(StatusColumn, status);
    item->setText(StartedColumn, e.startedUtc.isValid()
                                     ? e.startedUtc.toLocalTime().toString(u"yyyy-MM-dd HH:mm"_s)
                                     : QString());
    item->setText(SweepColumn, e.sweep);
}

QList<qint64> ComparisonView::listedRuns() const
{
    QList<qint64> out;
    for (const CompareRunEntry &e : m_list.runs)
        out << e.id;
    return out;
}

QList<qint64> ComparisonView::selectedRuns() const
{
    QList<qint64> out;
    for (const CompareRunEntry &e : m_list.runs)
        if (m_checked.contains(e.id))
            out << e.id;
    return out;
}

void ComparisonView::setSelectedRuns(const QList<qint64> &runIds)
{
    m_checked = QSet<qint64>(runIds.cbegin(), runIds.cend());
    {
        const QSignalBlocker block(m_picker);
        for (int i = 0; i < m_picker->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = m_picker->topLevelItem(i);
            const qint64 id = item->data(IdColumn, Qt::UserRole).toLongLong();
            item->setCheckState(IdColumn, m_checked.contains(id) ? Qt::Checked : Qt::Unchecked);
        }
    }
    updateBaselineCombo();
    requestComparison(true);
    emit selectionEdited();
}

void ComparisonView::onItemChanged(QTreeWidgetItem *item, int column)
{
    if (column != IdColumn)
        return;
    const qint64 id = item->data(IdColumn, Qt::UserRole).toLongLong();
    const bool on = item->checkState(IdColumn) == Qt::Checked;
    if (on == m_checked.contains(id))
        return;
    if (on)
        m_checked.insert(id);
    else
        m_checked.remove(id);
    updateBaselineCombo();
    requestComparison(true);
    emit selectionEdited();
}

void ComparisonView::updateBaselineCombo()
{
    const QList<qint64> ids = selectedRuns();
    if (!ids.contains(m_baseline))
        m_baseline = ids.value(0);
    const QSignalBlocker block(m_baselineCombo);
    m_baselineCombo->clear();
    for (const CompareRunEntry &e : std::as_const(m_list.runs))
        if (m_checked.contains(e.id))
            m_baselineCombo->addItem(
                e.name.isEmpty() ? u"#%1"_s.arg(e.id) : u"#%1 %2"_s.arg(e.id).arg(e.name), e.id);
    m_baselineCombo->setCurrentIndex(m_baselineCombo->findData(m_baseline));
    m_baselineCombo->setEnabled(ids.size() >= 2);
}

qint64 ComparisonView::baselineRun() const
{
    return m_baseline;
}

bool ComparisonView::setBaselineRun(qint64 runId)
{
    if (!selectedRuns().contains(runId))
        return false;
    m_baseline = runId;
    m_baselineCombo->setCurrentIndex(m_baselineCombo->findData(runId));
    requestComparison(false);
    emit selectionEdited();
    return true;
}

QString ComparisonView::rankBy() const
{
    const QString metric = m_rankMetric->currentData().toString();
    return latencyMetrics().contains(metric) ? metric + u':' + m_rankStat->currentData().toString()
                                             : metric;
}

bool ComparisonView::setRankBy(const QString &text)
{
    RankBy r;
    if (!RankBy::parse(text, &r, nullptr))
        return false;
    const int m = m_rankMetric->findData(r.metric);
    const int s = r.stat.isEmpty() ? m_rankStat->currentIndex() : m_rankStat->findData(r.stat);
    if (m < 0 || s < 0)
        return false;
    m_rankMetric->setCurrentIndex(m);
    m_rankStat->setCurrentIndex(s);
    m_rankStat->setEnabled(!r.stat.isEmpty());
    requestComparison(false);
    emit selectionEdited();
    return true;
}

void ComparisonView::setCurveThroughput(CurveThroughput x)
{
    m_curveX->setCurrentIndex(m_curveX->findData(int(x)));
    requestComparison(false);
}

ComparisonOptions ComparisonView::options() const
{
    ComparisonOptions o;
    o.baseline = std::max(0, int(selectedRuns().indexOf(m_baseline)));
    // The combos offer only what RankBy::parse accepts, so this cannot fail.
    RankBy::parse(rankBy(), &o.rankBy, nullptr);
    return o;
}

LatencyCurveOptions ComparisonView::curveOptions() const
{
    LatencyCurveOptions o;
    const RankBy r = options().rankBy;
    // Ranking by a rate or a cost leaves the curves on the default, P99 TTFT.
    if (latencyMetrics().contains(r.metric)) {
        o.metric = r.metric;
        o.stat = r.stat;
    }
    o.throughput = CurveThroughput(m_curveX->currentData().toInt());
    return o;
}

// --- the comparison -------------------------------------------------------------------------

void ComparisonView::requestComparison(bool reread)
{
    m_reread = m_reread || reread;
    m_pendingCompare = true;
    m_compareTimer->start();
}

void ComparisonView::startComparison()
{
    const QList<qint64> ids = selectedRuns();
    const quint64 generation = ++m_compareGeneration;
    if (m_path.isEmpty() || ids.size() < 2 || m_pendingList) {
        m_pendingCompare = m_pendingList; // the list's arrival asks again
        if (!m_pendingList) {
            clearComparison(QString());
            emit comparisonShown();
            readSettled();
        }
        return;
    }
    m_pendingCompare = true;
    setStatus(tr("Comparing %n run(s) …", nullptr, int(ids.size())));
    showPanes();
    const ComparisonOptions opts = options();
    const LatencyCurveOptions curve = curveOptions();
    const auto done = [this, generation](CompareOutcome outcome) {
        applyOutcome(generation, outcome);
    };
    if (!m_reread && m_outcome && m_outcome->runs && m_outcome->runs->runIds == ids) {
        const std::shared_ptr<const CompareRuns> runs = m_outcome->runs;
        m_jobs->run([runs, opts, curve] { return rebuildComparison(runs, opts, curve); }, done);
    } else {
        const QString path = m_path;
        m_jobs->run([path, ids, opts, curve] { return loadComparison(path, ids, opts, curve); },
                    done);
    }
    m_reread = false;
}

void ComparisonView::applyOutcome(quint64 generation, const CompareOutcome &outcome)
{
    if (generation != m_compareGeneration)
        return;
    m_pendingCompare = false;
    if (!outcome.error.isEmpty()) {
        clearComparison(outcome.error);
        setStatus(tr("Cannot compare: %1").arg(outcome.error), true);
        emit comparisonShown();
        readSettled();
        return;
    }
    m_outcome = std::make_unique<CompareOutcome>(outcome);
    updateExportEnabled();
    m_hint.clear();
    showOutcome();
    showPanes();
    emit comparisonShown();
    readSettled();
}

void ComparisonView::showOutcome()
{
    const Comparison &c = m_outcome->comparison;
    m_model->setComparison(c);
    m_table->clearSpans();
    for (int row = 0; row < m_model->rowCount(); ++row)
        if (m_model->rowKind(row) == ComparisonTableModel::RowKind::Group)
            m_table->setSpan(row, 0, 1, m_model->columnCount());
    m_table->resizeColumnToContents(0);
    // Run columns as wide as their cells (about 60 short texts each) and each line of their
    // header (code, then name): a cut header lost the run number that names the column.
    const QFontMetrics fm(m_table->font());
    const QFontMetrics hfm(m_table->horizontalHeader()->font());
    const int headerMargin = 2 * m_table->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr,
                                                               m_table->horizontalHeader()) +
                             8;
    for (int col = 1; col < m_model->columnCount(); ++col) {
        int width = 120;
        for (int row = 0; row < m_model->rowCount(); ++row)
            width = std::max(width,
                             fm.horizontalAdvance(m_model->index(row, col).data().toString()) + 20);
        const QString header = m_model->headerData(col, Qt::Horizontal).toString();
        for (const QString &line : header.split(u'\n'))
            width = std::max(width, hfm.horizontalAdvance(line) + headerMargin);
        m_table->setColumnWidth(col, width);
    }
    m_significance->setComparison(c);
    m_significanceTable->resizeColumnsToContents();
    showVerdict();
    rebuildCharts();
    setStatus(tr("%n run(s) compared", nullptr, int(c.columns.size())));
}

void ComparisonView::clearComparison(const QString &hint)
{
    m_outcome.reset();
    updateExportEnabled();
    m_hint = hint;
    m_model->clear();
    m_significance->clear();
    m_significanceNote->clear();
    m_table->clearSpans();
    showHint();
    showPanes();
    rebuildCharts();
}

void ComparisonView::showPanes()
{
    const bool shown = m_outcome != nullptr;
    m_tableStack->setCurrentIndex(shown ? 1 : 0);
    m_chartStack->setCurrentIndex(shown ? 1 : 0);
    if (shown) {
        // Hidden, and holding nothing a language switch could leave stale.
        m_tableEmpty->clear();
        m_chartsEmpty->clear();
        return;
    }
    QString table, charts;
    if (m_path.isEmpty()) {
        table = charts = tr("Save the project to compare its runs: the comparison reads them from "
                            "the project file.");
    } else if (!m_hint.isEmpty()) {
        // Core's reason (a run that cannot be read), as the verdict box shows it.
        table = charts = tr("Nothing to compare: %1").arg(m_hint);
    } else if (selectedRuns().size() < 2) {
        table = tr("Tick two or more runs to compare them: this table then lists every metric "
                   "of each run and its difference from the baseline.");
        charts = tr("Tick two or more runs to compare them: their latency distributions, "
                    "throughput and latency-versus-throughput curves then show here.");
    } else {
        table = charts = tr("Comparing %n run(s) …", nullptr, int(selectedRuns().size()));
    }
    m_tableEmpty->setText(table);
    m_chartsEmpty->setText(charts);
}

void ComparisonView::showHint()
{
    // An error is core's text and stays as it came; the two hints follow the language.
    QString text = m_hint;
    if (text.isEmpty())
        text = m_path.isEmpty() ? tr("Save the project to compare its runs: the comparison reads "
                                     "them from the project file.")
                                : tr("Tick two or more runs to compare them.");
    m_verdict->setText(esc(text));
    m_verdict->setStyleSheet(QString());
    m_notes->clear();
}

void ComparisonView::showVerdict()
{
    const Comparison &c = m_outcome->comparison;
    const Comparability &cp = c.comparability;
    QString headline;
    QString colour; // background of the verdict box: green, amber or red
    if (!cp.rankable()) {
        headline = u"<b>%1</b><br>%2"_s.arg(esc(tr("Not comparable: ranking refused.")),
                                            esc(translatedTexts(cp.refusalMessages).join(u" "_s)));
        colour = u"#f8d7da"_s;
    } else if (cp.variableCount() == 0) {
        headline = u"<b>%1</b>"_s.arg(
            esc(tr("Comparable: the runs share the workload and the SUT (repeat runs).")));
        colour = u"#d4edda"_s;
    } else if (cp.variableCount() == 1) {
        headline = u"<b>%1</b>"_s.arg(esc(tr("Comparable: exactly one variable differs — %1.")
                                              .arg(cp.singleVariableMessage().translated())));
        colour = u"#d4edda"_s;
    } else {
        QStringList names;
        for (const FieldComparison &f : cp.workloadDifferences())
            names << f.labelMessage.translated();
        if (!cp.sutDifferences().isEmpty())
            names << Message("cmp.sut").translated();
        headline = u"<b>%1</b>"_s.arg(
            esc(tr("Confounded: %1 variables differ (%2); a difference in the results cannot be "
                   "attributed to one of them.")
                    .arg(cp.variableCount())
                    .arg(names.join(u", "_s))));
        colour = u"#fff3cd"_s;
    }
    const auto unknowns = cp.unknowns();
    if (!unknowns.isEmpty()) {
        QStringList names;
        for (const FieldComparison &f : unknowns)
            names << f.labelMessage.translated();
        headline +=
            u"<br>"_s +
            esc(tr("Not confirmed: %1 unknown for at least one run.").arg(names.join(u", "_s)));
        if (cp.rankable())
            colour = u"#fff3cd"_s;
    }
    // What the tests can say: the verdicts' rule and the hint's size, above their table.
    m_significanceNote->setText(
        tr("Each candidate against the baseline %1 at %2: better or worse only when the "
           "interval of the difference excludes 0. A single run's throughput has no spread to "
           "test; repeat runs (a series) make it testable. The hints say how many requests (or "
           "runs) per side would detect a %3 % difference.")
            .arg(c.candidates.value(c.baselineCandidate).labelMessage.translated(),
                 confidenceText(c.confidence))
            .arg(c.hintRelativeDifference * 100, 0, 'g', 3));
    m_verdict->setText(headline);
    // Fixed dark text on the light tint, so the verdict reads the same under a dark palette.
    m_verdict->setStyleSheet(
        u"QLabel { background: %1; color: #1a1a1a; border-radius: 4px; }"_s.arg(colour));

    QString notes;
    const auto section = [&notes](const QString &title, const QStringList &lines) {
        if (lines.isEmpty())
            return;
        notes +=
            u"<p style='margin:2px 0'><b>%1</b></p><ul style='margin:0 0 4px 0'>"_s.arg(esc(title));
        for (const QString &l : lines)
            notes += u"<li>%1</li>"_s.arg(l);
        notes += u"</ul>"_s;
    };
    QStringList diffs;
    for (const FieldComparison &f : cp.fields) {
        if (!f.differs && !f.unknown)
            continue;
        // Values in column order, as the table's columns; the run labels are in the tooltip of
        // each column header and would repeat here for every field.
        QStringList values;
        for (const Message &v : f.valueMessages)
            values << esc(v.translated());
        const QString role = f.role == FieldRole::Sut           ? tr("compared (SUT)")
                             : f.role == FieldRole::Measurement ? tr("measurement")
                             : f.blocker                        ? tr("blocks ranking")
                                                                : tr("workload");
        diffs << u"<i>%1</i>: %2 <span style='color:gray'>(%3)</span>"_s.arg(
            esc(f.labelMessage.translated()), values.join(u" | "_s), esc(role));
    }
    section(tr("Differences (%1)").arg(cp.runLabels.join(u" | "_s)), diffs);
    QStringList ranking = {esc(c.rankNoteMessage.translated())};
    if (!c.tieNoteMessage.isEmpty())
        ranking << esc(c.tieNoteMessage.translated());
    section(tr("Ranking"), ranking);
    QStringList series;
    for (const ComparisonCandidate &cand : c.candidates)
        if (cand.isSeries())
            series << esc(tr("%1: compared over its runs; %2")
                              .arg(cand.labelMessage.translated(),
                                   cand.cacheState.isEmpty()
                                       ? Message("sig.cache.unknown").translated()
                                       : Message::fromEnglish(cand.cacheState).translated()));
    section(tr("Series"), series);
    QStringList warnings;
    for (const Message &w : cp.warningMessages)
        warnings << esc(w.translated());
    section(tr("Warnings"), warnings);
    QStringList imported;
    for (const ReportRun &r : m_outcome->runs->content.runs)
        for (const Message &n : r.noteMessages)
            imported << u"%1: %2"_s.arg(esc(r.label), esc(n.translated()));
    section(tr("Imported runs"), imported);
    QStringList cost;
    for (const Message &n : c.costNoteMessages)
        cost << esc(n.translated());
    section(tr("Cost"), cost);
    m_notes->setText(notes);
}

QString ComparisonView::verdictText() const
{
    return QTextDocumentFragment::fromHtml(m_verdict->text()).toPlainText();
}

QString ComparisonView::notesText() const
{
    return QTextDocumentFragment::fromHtml(m_notes->text()).toPlainText();
}

const Comparison *ComparisonView::comparison() const
{
    return m_outcome ? &m_outcome->comparison : nullptr;
}

const LatencyCurves *ComparisonView::latencyCurves() const
{
    return m_outcome ? &m_outcome->curves : nullptr;
}

ChartView *ComparisonView::cdfChart(const QString &metric) const
{
    const qsizetype i = latencyMetrics().indexOf(metric);
    return i < 0 ? nullptr : m_cdfCharts.value(i);
}

// --- charts ---------------------------------------------------------------------------------

void ComparisonView::rebuildCharts()
{
    // ChartView cannot drop series, and the number of runs changes: the charts are made anew.
    const int shownCdf = m_cdfPage->currentIndex();
    qDeleteAll(m_cdfCharts); // a deleted page leaves its tab
    m_cdfCharts.clear();
    const QList<ChartSpec> specs = m_outcome ? m_outcome->runs->content.charts : QList<ChartSpec>();
    for (int i = 0; i < latencyMetrics().size(); ++i) {
        const QString &metric = latencyMetrics().at(i);
        const QString label = metric.toUpper();
        auto *chart = new ChartView(tr("%1 CDF").arg(label), m_cdfPage);
        chart->setObjectName(u"cdf_"_s + metric);
        // Beside the table: ChartView's own minimum would make the pane wider than the table.
        chart->setMinimumSize(180, 150);
        chart->setAxisTitles(tr("%1 (ms)").arg(label), tr("fraction of samples ≤ x"));
        chart->setFixedYRange(0, 1);
        if (const MetricDefinition *d = metricDefinition(metric))
            chart->setToolTip(metricToolTip(*d, false));
        for (const ChartSpec &s : specs) {
            if (s.key != u"cdf_"_s + metric)
                continue;
            for (int k = 0; k < s.series.size(); ++k) {
                // The legend names each line by its run's code (#1, #4 …), as the picker and
                // the table's headers do: six full names do not fit under a chart.
                const int index =
                    chart->addSeries(runCode(s.series.at(k).labelMessage.translated()),
                                     ChartView::Kind::Line, runColor(k));
                QList<QPointF> points;
                points.reserve(s.series.at(k).points.size());
                for (const auto &p : s.series.at(k).points)
                    points.append(QPointF(p.first, p.second));
                chart->setPoints(index, points);
            }
            chart->setSubtitle(s.emptyNoteMessage.translated());
        }
        m_cdfPage->addTab(chart, label);
        m_cdfCharts.append(chart);
    }
    if (shownCdf >= 0)
        m_cdfPage->setCurrentIndex(shownCdf);

    const auto barSets = [](const ChartSpec &s) {
        QList<QPair<QString, QList<double>>> sets;
        for (const ChartSeries &series : s.series) {
            sets.append({series.labelMessage.translated(), series.values});
        }
        return sets;
    };
    const QList<QColor> barColours = {runColor(0), runColor(2)};
    m_requestBars->setData({}, {}, {});
    m_tokenBars->setData({}, {}, {});
    m_requestBars->setSubtitle(QString());
    for (const ChartSpec &s : specs) {
        // Bars are grouped under each run's code: full names were cut to "#1 Run…" under six.
        QStringList codes;
        for (const QString &c : s.categories)
            codes << runCode(c);
        if (s.key == "throughput_requests"_L1)
            m_requestBars->setData(codes, barSets(s), barColours);
        else if (s.key == "throughput_tokens"_L1)
            m_tokenBars->setData(codes, barSets(s), barColours);
    }
    // A bar cannot say "not available"; the subtitle does, so a missing goodput is not read as 0.
    if (m_outcome) {
        if (const ComparisonRow *g = m_outcome->comparison.row(u"request_goodput"_s)) {
            QStringList missing;
            for (int i = 0; i < g->cells.size(); ++i)
                if (!g->cells.at(i).value)
                    missing << u"%1 (%2)"_s.arg(m_outcome->comparison.columns.value(i),
                                                g->cells.at(i).noteMessage.translated());
            if (!missing.isEmpty())
                m_requestBars->setSubtitle(
                    tr("goodput not available for %1").arg(missing.join(u", "_s)));
        }
    }
    rebuildCurveChart();
}

void ComparisonView::rebuildCurveChart()
{
    delete m_curveChart;
    m_curveChart = new ChartView(tr("Latency versus throughput, one curve per SUT"), m_curvePage);
    m_curveChart->setObjectName(u"latencyThroughputChart"_s);
    static_cast<QVBoxLayout *>(m_curvePage->layout())->insertWidget(1, m_curveChart, 1);
    const LatencyCurveOptions o = m_outcome ? m_outcome->curves.options : curveOptions();
    const QString stat = o.stat == "mean"_L1     ? tr("Mean %1").arg(o.metric.toUpper())
                         : o.stat == "median"_L1 ? tr("Median %1").arg(o.metric.toUpper())
                                                 : o.stat.toUpper() + u' ' + o.metric.toUpper();
    m_curveChart->setAxisTitles(o.throughput == CurveThroughput::Output
                                    ? tr("achieved output throughput (tok/s)")
                                    : tr("achieved request throughput (req/s)"),
                                tr("%1 (ms)").arg(stat));
    m_curveNotes->clear();
    if (!m_outcome)
        return;
    const LatencyCurves &curves = m_outcome->curves;
    for (int i = 0; i < curves.curves.size(); ++i) {
        const LatencyCurve &curve = curves.curves.at(i);
        const int index = m_curveChart->addSeries(curve.sutLabel.translated(),
                                                  ChartView::Kind::Line, runColor(i));
        auto *line = static_cast<QLineSeries *>(m_curveChart->series(index));
        line->setPointsVisible(true);
        QList<QPointF> points;
        for (const LatencyCurvePoint &p : curve.points)
            points.append(QPointF(p.throughput, p.latency));
        m_curveChart->setPoints(index, points);
        // Saturated steps measure the queue, not the server: hollow rings over their points.
        QList<QPointF> saturated;
        for (const LatencyCurvePoint &p : curve.points)
            if (p.saturated)
                saturated.append(QPointF(p.throughput, p.latency));
        if (!saturated.isEmpty()) {
            const int ring =
                m_curveChart->addSeries(tr("%1 — over-saturated").arg(curve.sutLabel.translated()),
                                        ChartView::Kind::Scatter, runColor(i));
            if (auto *scatter = qobject_cast<QScatterSeries *>(m_curveChart->series(ring))) {
                scatter->setMarkerShape(QScatterSeries::MarkerShapeCircle);
                scatter->setMarkerSize(15);
                scatter->setBrush(m_curveChart->chart()->backgroundBrush());
                scatter->setBorderColor(runColor(i));
                QPen pen(runColor(i));
                pen.setWidthF(2.5);
                scatter->setPen(pen);
            }
            m_curveChart->setPoints(ring, saturated);
        }
        // Which run a point is: the chart shows numbers only, the tooltip names the run.
        connect(line, &QXYSeries::hovered, m_curveChart, [curve](const QPointF &at, bool state) {
            if (!state)
                return;
            const LatencyCurvePoint *best = nullptr;
            double bestDistance = std::numeric_limits<double>::max();
            for (const LatencyCurvePoint &p : curve.points) {
                const double d =
                    std::hypot((p.throughput - at.x()) / std::max(1e-9, std::abs(at.x())),
                               (p.latency - at.y()) / std::max(1e-9, std::abs(at.y())));
                if (d < bestDistance) {
                    bestDistance = d;
                    best = &p;
                }
            }
            if (best)
                QToolTip::showText(
                    QCursor::pos(),
                    u"%1\n%2: %3, %4 ms"_s.arg(curve.sutLabel.translated(), best->runLabel)
                            .arg(best->throughput, 0, 'f', 2)
                            .arg(best->latency, 0, 'f', 2) +
                        (best->saturated ? u"\n"_s + best->saturationNote.translated()
                                         : QString()));
        });
    }
    QStringList notes;
    if (!m_outcome->runs->sweeps.isEmpty())
        notes << tr("The curves include every run of the sweeps %1.")
                     .arg(m_outcome->runs->sweeps.join(u", "_s));
    if (curves.curves.isEmpty())
        notes << tr("No run gives a point.");
    if (!curves.notes.isEmpty())
        notes << tr("Left out: %1").arg(translatedTexts(curves.noteMessages).join(u"; "_s));
    if (!curves.saturationMessages.isEmpty())
        notes << Message("curve.saturated.legend").translated() + u' ' +
                     translatedTexts(curves.saturationMessages).join(u"; "_s);
    m_curveNotes->setText(notes.join(u'\n'));
}

void ComparisonView::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? u"color: #b00020;"_s : QString());
}

void ComparisonView::updateExportEnabled()
{
    m_export->setEnabled(m_outcome && m_outcome->runs && !m_exporting);
}

void ComparisonView::chooseExport(ExportKind kind)
{
    if (!m_outcome || !m_outcome->runs)
        return;
    const QString dir = QFileInfo(m_path).absolutePath();
    const QString base =
        QDir(dir).filePath(QFileInfo(m_path).completeBaseName() + u"-comparison"_s);
    ReportOutputs out;
    // The HTML and PDF in the workbench's current language (core's catalogue follows it).
    out.translated = coreTranslationLanguage() != "en"_L1;
    switch (kind) {
    case ExportKind::Html:
        out.html = QFileDialog::getSaveFileName(this, tr("Export the HTML report"),
                                                base + u".html"_s, tr("HTML (*.html)"));
        break;
    case ExportKind::Pdf:
        out.pdf = QFileDialog::getSaveFileName(this, tr("Export the PDF report"), base + u".pdf"_s,
                                               tr("PDF (*.pdf)"));
        break;
    case ExportKind::Csv:
        out.csv = QFileDialog::getSaveFileName(this, tr("Export CSV"), base + u".csv"_s,
                                               tr("CSV (*.csv)"));
        break;
    case ExportKind::Json:
        out.json = QFileDialog::getSaveFileName(this, tr("Export JSON"), base + u".json"_s,
                                                tr("JSON (*.json)"));
        break;
    case ExportKind::Bundle:
        // A new folder: the bundle never mixes with files already there.
        out.bundle = QFileDialog::getSaveFileName(
            this, tr("Export the acceptance bundle into a new folder"), base + u"-bundle"_s);
        break;
    }
    if (out.any())
        exportReport(out);
}

bool ComparisonView::exportReport(const ReportOutputs &outputs)
{
    if (!m_outcome || !m_outcome->runs || m_exporting || !outputs.any())
        return false;
    // What is on screen: the loaded runs with the comparison for the current baseline and rank.
    auto content = std::make_shared<ReportContent>(m_outcome->runs->content);
    content->comparison = m_outcome->comparison;
    m_exporting = true;
    updateExportEnabled();
    setStatus(tr("Writing the report …"));
    struct Exported
    {
        bool ok = false;
        QStringList written;
        QString error;
    };
    m_jobs->run(
        [content, outputs] {
            Exported e;
            // QTextDocument's layout starts timers, which need a thread QThread started (with
            // an event dispatcher); the job's plain thread has none.
            std::unique_ptr<QThread> t(QThread::create([&] {
                const QtReportRenderer renderer;
                e.ok = writeReportOutputs(*content, outputs, &renderer, &e.written, &e.error);
            }));
            t->start();
            t->wait();
            return e;
        },
        [this](Exported e) {
            m_exporting = false;
            updateExportEnabled();
            if (e.ok)
                setStatus(tr("Wrote %1").arg(e.written.join(u", "_s)));
            else
                setStatus(tr("The report could not be written: %1").arg(e.error), true);
            emit reportExported(e.ok, e.written, e.error);
        });
    return true;
}

} // namespace sb
