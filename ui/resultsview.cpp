#include "resultsview.h"

#include "charts/chartview.h"
#include "common/message.h"
#include "metrics/definitions.h"
#include "models/requestfilterproxy.h"
#include "models/requesttablemodel.h"
#include "models/resultsdata.h"
#include "models/runtotalsmodel.h"
#include "models/selectiontsv.h"
#include "models/storedrunrows.h"
#include "models/summarytablemodel.h"
#include "report/runreport.h"
#include "serverevidenceview.h"
#include "sessionturnsview.h"
#include "store/projectstore.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QCheckBox>
#include <QClipboard>
#include <QEvent>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>
#include <QXYSeries>

#include <map>

#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr int kSessionsTab = 4; // after Summary, Requests, Distributions, Over time
constexpr int kServerTab = 5;

QTableView *makeTable(QWidget *parent)
{
    auto *t = new QTableView(parent);
    t->setSelectionBehavior(QAbstractItemView::SelectItems);
    t->setSelectionMode(QAbstractItemView::ExtendedSelection);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->verticalHeader()->setVisible(false);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->horizontalHeader()->setHighlightSections(false);
    return t;
}

QString metricLabel(const QString &key)
{
    const MetricDefinition *d = metricDefinition(key);
    return d ? d->labelMessage.translated() : key;
}

const QStringList &distributionKeys()
{
    static const QStringList keys = {u"ttft"_s, u"tpot"_s, u"itl"_s, u"e2el"_s};
    return keys;
}

void setChartTitle(ChartView *chart, const QString &title, const QString &subtitle = {})
{
    chart->setTitle(title);
    chart->setSubtitle(subtitle);
}

// Reads a paged table's rows in a thread of its own, so a screenful arrives while the worker is
// still summarizing the run. Its project connection is opened, used and closed in that thread.
class PagedRowReader : public QObject
{
public:
    const ProjectStore *storeFor(const QString &path, QString *error)
    {
        if (m_store && m_path == path)
            return m_store.get();
        m_store = std::make_unique<ProjectStore>();
        if (!m_store->open(path, ProjectStore::OpenMode::ReadOnly)) {
            *error = m_store->lastError();
            m_store.reset();
            return nullptr;
        }
        m_path = path;
        return m_store.get();
    }

private:
    QString m_path;
    std::unique_ptr<ProjectStore> m_store;
};

} // namespace

ResultsView::ResultsView(QWidget *parent)
    : QWidget(parent), m_thread(new QThread(this)), m_worker(new QObject()),
      m_latest(std::make_shared<std::atomic<quint64>>(0)),
      m_summaryModel(new SummaryTableModel(this)), m_totalsModel(new RunTotalsModel(this)),
      m_requestModel(new RequestTableModel(this)), m_requestProxy(new RequestFilterProxy(this))
{
    m_thread->setObjectName(u"ResultsWorker"_s);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start(QThread::LowPriority);
    // The notes of the first run shown recognise catalogue texts in the GUI thread: their
    // patterns compile here instead.
    QMetaObject::invokeMethod(m_worker, [] { Message::prepareRecognition(); });
    m_rowThread = new QThread(this);
    m_rowThread->setObjectName(u"ResultsRows"_s);
    m_rowReader = new PagedRowReader();
    m_rowReader->moveToThread(m_rowThread);
    connect(m_rowThread, &QThread::finished, m_rowReader, &QObject::deleteLater);
    m_rowThread->start();
    m_latestOrder = std::make_shared<std::atomic<quint64>>(0);
    // A paged run's text filter reads the whole file: wait until the typing stops.
    m_filterDelay = new QTimer(this);
    m_filterDelay->setSingleShot(true);
    m_filterDelay->setInterval(300);
    connect(m_filterDelay, &QTimer::timeout, this, &ResultsView::requestPagedOrder);
    connect(m_requestModel, &RequestTableModel::rowsWanted, this, &ResultsView::fetchPagedRows);
    connect(m_requestModel, &RequestTableModel::sortRequested, this,
            &ResultsView::requestPagedOrder);

    m_requestProxy->setSourceModel(m_requestModel);

    m_header = new QLabel(this);
    m_header->setObjectName(u"header"_s);
    m_header->setTextFormat(Qt::RichText);
    m_status = new QLabel(this);
    m_status->setStyleSheet(u"color: palette(mid);"_s);

    m_mlperfBox = new QGroupBox(this);
    m_mlperfBox->setObjectName(u"mlperfBox"_s);
    m_mlperfVerdict = new QLabel(m_mlperfBox);
    m_mlperfVerdict->setObjectName(u"mlperfVerdict"_s);
    m_mlperfText = new QPlainTextEdit(m_mlperfBox);
    m_mlperfText->setObjectName(u"mlperfText"_s);
    m_mlperfText->setReadOnly(true);
    m_mlperfText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_mlperfText->setFixedHeight(m_mlperfText->fontMetrics().lineSpacing() * 15);
    auto *ml = new QHBoxLayout(m_mlperfBox);
    ml->addWidget(m_mlperfVerdict, 0, Qt::AlignTop);
    ml->addWidget(m_mlperfText, 1);
    m_mlperfBox->setVisible(false);

    m_tabs = new QTabWidget(this);
    m_tabs->addTab(buildSummaryTab(), QString());
    m_tabs->addTab(buildRequestsTab(), QString());
    m_tabs->addTab(buildDistributionsTab(), QString());
    m_tabs->addTab(buildTimeTab(), QString());
    m_sessions = new SessionTurnsView(m_tabs);
    m_sessions->setObjectName(u"sessionsView"_s);
    m_tabs->addTab(m_sessions, QString());
    m_tabs->setTabVisible(kSessionsTab, false);
    m_server = new ServerEvidenceView(m_tabs);
    m_server->setObjectName(u"serverView"_s);
    m_tabs->addTab(m_server, QString());
    m_tabs->setTabVisible(kServerTab, false);

    // The client's own lateness, when it limited the run (deriveRun's client health).
    m_health = new QLabel(this);
    m_health->setObjectName(u"clientHealth"_s);
    m_health->setTextFormat(Qt::RichText);
    m_health->setWordWrap(true);
    m_health->setStyleSheet(u"color: #b00020;"_s);
    m_health->setVisible(false);

    // The server's state the run had: its managed server, its cache policy and verification.
    m_serverState = new QLabel(this);
    m_serverState->setObjectName(u"serverState"_s);
    m_serverState->setWordWrap(true);
    m_serverState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_serverState->setVisible(false);

    auto *top = new QHBoxLayout();
    top->addWidget(m_header, 1);
    top->addWidget(m_status);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_health);
    layout->addWidget(m_serverState);
    layout->addWidget(m_tabs, 1);
    retranslateUi();
    clear();
}

ResultsView::~ResultsView()
{
    // Abandon whatever runs, then wait: the worker posts to this object until it returns.
    m_latest->store(0);
    m_latestOrder->store(0);
    m_thread->quit();
    m_rowThread->quit();
    m_thread->wait();
    m_rowThread->wait();
}

QWidget *ResultsView::buildSummaryTab()
{
    auto *w = new QWidget();
    auto *split = new QSplitter(Qt::Horizontal, w);
    m_summarySplit = split;
    split->setObjectName(u"summarySplit"_s);
    split->setChildrenCollapsible(false);
    m_totalsTable = makeTable(split);
    m_totalsTable->setObjectName(u"totalsTable"_s);
    m_totalsTable->setModel(m_totalsModel);
    // Widths come from fitSummaryPanes(), which measures every line.
    m_totalsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_totalsTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_summaryTable = makeTable(split);
    m_summaryTable->setObjectName(u"summaryTable"_s);
    m_summaryTable->setModel(m_summaryModel);
    m_summaryTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_totalsTable->installEventFilter(this);
    m_summaryTable->installEventFilter(this);
    split->addWidget(m_totalsTable);
    split->addWidget(m_summaryTable);
    // The totals keep the width of their content (fitSummaryPanes()); the latency table takes
    // what the window has left and scrolls sideways when that is not enough.
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    m_unavailableNote = new QLabel(w);
    m_unavailableNote->setObjectName(u"unavailableNote"_s);
    m_unavailableNote->setWordWrap(true);
    m_unavailableNote->setVisible(false);
    // What the brackets in the latency table are, and which intervals were omitted and why.
    m_intervalNote = new QLabel(w);
    m_intervalNote->setObjectName(u"intervalNote"_s);
    m_intervalNote->setWordWrap(true);
    m_intervalNote->setVisible(false);
    m_showIntervals = new QCheckBox(w);
    m_showIntervals->setObjectName(u"showIntervals"_s);
    m_showIntervals->setVisible(false);
    connect(m_showIntervals, &QCheckBox::toggled, this, [this](bool on) {
        m_summaryModel->setShowIntervals(on);
        fitSummaryPanes();
    });
    auto *l = new QVBoxLayout(w);
    l->setContentsMargins(0, 4, 0, 0);
    l->addWidget(m_mlperfBox); // the verdict comes first when the plan has a scenario
    l->addWidget(split, 1);
    l->addWidget(m_showIntervals);
    l->addWidget(m_intervalNote);
    l->addWidget(m_unavailableNote);
    return w;
}

void ResultsView::fitSummaryPanes()
{
    // A number cut short is worse than none: the totals pane is as wide as its widest quantity
    // plus its widest value (or the headers), whatever the splitter or the window would give it.
    // sizeHintForColumn() measures every row of this short list, not only those in view.
    const QHeaderView *header = m_totalsTable->horizontalHeader();
    const QAbstractItemView *view = m_totalsTable; // QTableView hides sizeHintForColumn()
    int width = 2 * m_totalsTable->frameWidth() +
                m_totalsTable->verticalScrollBar()->sizeHint().width(); // when the rows overflow
    for (int c = 0; c < RunTotalsModel::ColumnCount; ++c) {
        const int column = std::max(view->sizeHintForColumn(c), header->sectionSizeHint(c));
        m_totalsTable->setColumnWidth(c, column);
        width += column;
    }
    m_totalsTable->setMinimumWidth(width);
    m_totalsTable->setMaximumWidth(width);
    m_summaryTable->resizeColumnsToContents();
}

void ResultsView::updateUnavailableNote()
{
    // Each quantity shown as "n/a" in the tables, grouped by the reason it cannot be told.
    const RunSummary &s = m_summaryModel->summary();
    QMap<QString, QStringList> byReason;
    for (auto it = s.unavailable.cbegin(); it != s.unavailable.cend(); ++it) {
        const int totalsRow = m_totalsModel->rowOfKey(it.key());
        const bool shown = totalsRow >= 0 || SummaryTableModel::metricKeys().contains(it.key());
        if (!shown)
            continue;
        byReason[it.value()] << (totalsRow >= 0
                                     ? m_totalsModel->index(totalsRow, 0).data().toString()
                                     : metricLabel(it.key()));
    }
    QStringList lines;
    for (auto it = byReason.cbegin(); it != byReason.cend(); ++it)
        lines << tr("n/a — %1: %2")
                     .arg(it.value().join(u", "_s), Message::fromEnglish(it.key()).translated());
    m_unavailableNote->setText(lines.join(u'\n'));
    m_unavailableNote->setVisible(!lines.isEmpty());
}

void ResultsView::updateIntervalNote()
{
    // The intervals are in the tooltips; the brackets in the cells on request (they double the
    // table's width, which otherwise fits a 1600 px window whole).
    QStringList lines;
    m_showIntervals->setText(tr("Show 95 % intervals in the table"));
    m_showIntervals->setToolTip(
        tr("Each statistic with its 95 % confidence interval within this run, as value [low, "
           "high] (Student t for means, order statistics for percentiles, a bootstrap over "
           "requests for ITL). The tooltips always give them."));
    m_showIntervals->setVisible(m_summaryModel->hasIntervals());
    for (const auto &[what, why] : m_summaryModel->omittedIntervals())
        lines << tr("%1: interval omitted: %2").arg(what, why);
    m_intervalNote->setText(lines.join(u'\n'));
    m_intervalNote->setVisible(!lines.isEmpty());
}

QWidget *ResultsView::buildRequestsTab()
{
    auto *w = new QWidget();
    // updateFailedCount() gives it its text with the count, in the current language.
    m_failedOnly = new QCheckBox(tr("Failed only"), w);
    m_failedOnly->setObjectName(u"failedOnly"_s);
    m_filter = new QLineEdit(w);
    m_filter->setObjectName(u"requestFilter"_s);
    m_filter->setClearButtonEnabled(true);
    m_requestCount = new QLabel(w);
    m_requestCount->setObjectName(u"requestCount"_s);
    connect(m_failedOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_requestProxy->setFailedOnly(on);
        if (m_paged)
            requestPagedOrder();
        updateFailedCount();
    });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &t) {
        m_requestProxy->setText(t);
        if (m_paged)
            m_filterDelay->start();
        updateFailedCount();
    });

    m_requestTable = makeTable(w);
    m_requestTable->setModel(m_requestProxy);
    m_requestTable->setSortingEnabled(true);
    m_requestTable->sortByColumn(RequestTableModel::IndexColumn, Qt::AscendingOrder);
    m_requestTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_requestTable->horizontalHeader()->setStretchLastSection(true);
    m_requestTable->installEventFilter(this);
    applyRequestColumnWidths();

    m_copyAction = new QAction(m_requestTable);
    m_copyAction->setShortcut(QKeySequence::Copy);
    m_copyAction->setShortcutContext(Qt::WidgetShortcut);
    connect(m_copyAction, &QAction::triggered, this, [this] { copyFrom(m_requestTable); });
    m_requestTable->addAction(m_copyAction);
    m_requestTable->setContextMenuPolicy(Qt::ActionsContextMenu);

    auto *bar = new QHBoxLayout();
    bar->addWidget(m_failedOnly);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_requestCount);
    auto *l = new QVBoxLayout(w);
    l->setContentsMargins(0, 4, 0, 0);
    l->addLayout(bar);
    l->addWidget(m_requestTable, 1);
    return w;
}

int ResultsView::requestColumnWidth(int column) const
{
    // From the header text and, where a column holds one of a few known labels, the widest of
    // them in the current language: measuring the contents of 100k rows would stall.
    const QFontMetrics fm = m_requestTable->fontMetrics();
    const QString h = m_requestModel->headerData(column, Qt::Horizontal).toString();
    int width = fm.horizontalAdvance(h) + 28;
    if (column == RequestTableModel::StatusColumn)
        width = std::max(width, fm.horizontalAdvance(u"stream_error (warm-up)"_s) + 12);
    if (column == RequestTableModel::InputSourceColumn ||
        column == RequestTableModel::OutputSourceColumn)
        for (TokenSource s :
             {TokenSource::Unknown, TokenSource::ServerUsage, TokenSource::ChunkCount,
              TokenSource::Dataset, TokenSource::Tokenizer})
            width = std::max(width, fm.horizontalAdvance(tokenSourceLabel(s).translated()) + 16);
    if (column == RequestTableModel::ErrorMessageColumn)
        width = 320;
    return width;
}

void ResultsView::applyRequestColumnWidths()
{
    for (int c = 0; c < RequestTableModel::ColumnCount; ++c)
        m_requestTable->setColumnWidth(c, requestColumnWidth(c));
}

QWidget *ResultsView::buildDistributionsTab()
{
    auto *w = new QWidget();
    auto *grid = new QGridLayout(w);
    grid->setContentsMargins(0, 0, 0, 0);
    // Titles and axis titles are set in retranslateUi(); the metric labels are core's.
    const QStringList &keys = distributionKeys();
    for (int i = 0; i < keys.size(); ++i) {
        const QString label = metricLabel(keys.at(i));
        auto *cdf = new ChartView(QString(), w);
        cdf->addSeries(label, ChartView::Kind::Line, chartcolor::blue());
        cdf->setFixedYRange(0, 1);
        auto *hist = new ChartView(QString(), w);
        hist->addSeries(label, ChartView::Kind::Line, chartcolor::purple());
        cdf->setObjectName(u"cdf_"_s + keys.at(i));
        hist->setObjectName(u"hist_"_s + keys.at(i));
        grid->addWidget(cdf, 0, i);
        grid->addWidget(hist, 1, i);
        m_cdfCharts.append(cdf);
        m_histCharts.append(hist);
    }
    return w;
}

QWidget *ResultsView::buildTimeTab()
{
    auto *w = new QWidget();
    auto *grid = new QGridLayout(w);
    grid->setContentsMargins(0, 0, 0, 0);
    // Titles, series names and axis titles are set in retranslateUi().
    m_throughputChart = new ChartView(QString(), w);
    m_throughputChart->setObjectName(u"requestsPerSecond"_s);
    m_throughputChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::blue());
    m_throughputChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::red());
    m_tokensChart = new ChartView(QString(), w);
    m_tokensChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::green());
    m_inFlightChart = new ChartView(QString(), w);
    m_inFlightChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::orange());
    m_ttftTimeChart = new ChartView(QString(), w);
    m_ttftTimeChart->addSeries(QString(), ChartView::Kind::Scatter, chartcolor::blue());
    m_itlTimeChart = new ChartView(QString(), w);
    m_itlTimeChart->addSeries(QString(), ChartView::Kind::Scatter, chartcolor::purple());
    grid->addWidget(m_throughputChart, 0, 0);
    grid->addWidget(m_tokensChart, 0, 1);
    grid->addWidget(m_inFlightChart, 0, 2);
    grid->addWidget(m_ttftTimeChart, 1, 0);
    m_lagTimeChart = new ChartView(QString(), w);
    m_lagTimeChart->addSeries(QString(), ChartView::Kind::Scatter, chartcolor::red());
    grid->addWidget(m_itlTimeChart, 1, 1);
    grid->addWidget(m_lagTimeChart, 1, 2);
    return w;
}

void ResultsView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void ResultsView::retranslateUi()
{
    updateServerState();
    m_mlperfBox->setTitle(tr("MLPerf-style validity"));
    m_tabs->setTabText(0, tr("Summary"));
    m_tabs->setTabText(1, tr("Requests"));
    m_tabs->setTabText(2, tr("Distributions"));
    m_tabs->setTabText(3, tr("Over time"));
    m_tabs->setTabText(kSessionsTab, tr("Sessions"));
    m_tabs->setTabText(kServerTab, tr("Server"));
    m_filter->setPlaceholderText(tr("Filter: error class, message, request id, …"));
    m_copyAction->setText(tr("Copy as TSV"));

    const QStringList &keys = distributionKeys();
    for (int i = 0; i < keys.size(); ++i) {
        const QString label = metricLabel(keys.at(i));
        if (const MetricDefinition *d = metricDefinition(keys.at(i)))
            m_cdfCharts.at(i)->setToolTip(metricToolTip(*d, false));
        m_cdfCharts.at(i)->setAxisTitles(tr("%1 (ms)").arg(label), tr("fraction ≤ x"));
        m_histCharts.at(i)->setAxisTitles(tr("%1 (ms)").arg(label),
                                          keys.at(i) == "itl"_L1 ? tr("gaps") : tr("requests"));
    }
    updateDistributionTitles();

    const QString t = tr("time since start (s)");
    setChartTitle(m_throughputChart, tr("Requests per second"));
    m_throughputChart->series(0)->setName(tr("successful"));
    m_throughputChart->series(1)->setName(tr("failed"));
    m_throughputChart->setAxisTitles(t, tr("req/s"));
    setChartTitle(m_tokensChart, tr("Output tokens per second"));
    m_tokensChart->series(0)->setName(tr("output tok/s"));
    m_tokensChart->setAxisTitles(t, tr("tok/s"));
    setChartTitle(m_inFlightChart, tr("Requests in flight"));
    m_inFlightChart->series(0)->setName(tr("in flight"));
    m_inFlightChart->setAxisTitles(t, tr("requests"));
    setChartTitle(m_ttftTimeChart, tr("TTFT by send time"));
    m_ttftTimeChart->series(0)->setName(tr("TTFT"));
    m_ttftTimeChart->setAxisTitles(t, tr("TTFT (ms)"));
    setChartTitle(m_itlTimeChart, tr("Mean ITL per request by completion time"));
    m_itlTimeChart->series(0)->setName(tr("ITL"));
    m_itlTimeChart->setAxisTitles(t, tr("ITL (ms)"));
    setChartTitle(m_lagTimeChart, tr("Schedule lag by send time"));
    m_lagTimeChart->series(0)->setName(tr("schedule lag"));
    m_lagTimeChart->setAxisTitles(t, tr("t_send − t_sched (ms)"));
    if (const MetricDefinition *d = metricDefinition(u"schedule_lag"_s))
        m_lagTimeChart->setToolTip(metricToolTip(*d, false));

    m_summaryModel->retranslate();
    m_totalsModel->retranslate();
    fitSummaryPanes(); // a translation changes the labels' widths
    updateUnavailableNote();
    updateIntervalNote();
    m_requestModel->retranslate();
    // Widths come from the header texts (see buildRequestsTab()); a longer translation widens
    // its column, a shorter one leaves the width the user may have chosen.
    for (int c = 0; c < RequestTableModel::ColumnCount; ++c)
        m_requestTable->setColumnWidth(
            c, std::max(m_requestTable->columnWidth(c), requestColumnWidth(c)));

    updateHeader();
    updateStatus();
    updateMlperfVerdict();
    updateHealth();
    updateFailedCount();
}

void ResultsView::updateHeader()
{
    if (!m_hasRun) {
        m_header->setText(tr("No run selected"));
        return;
    }
    // The scenario as the Compare tab's run list names it, in the reader's language ("none"
    // read as English in the Chinese header).
    QString scenario;
    switch (m_runScenario) {
    case Scenario::None:
        scenario = tr("open loop", "scenario");
        break;
    case Scenario::SingleStream:
        scenario = tr("SingleStream", "scenario");
        break;
    case Scenario::Server:
        scenario = tr("Server", "scenario");
        break;
    case Scenario::Offline:
        scenario = tr("Offline", "scenario");
        break;
    }
    m_header->setText(tr("<b>%1</b> — %2 requests, scenario %3")
                          .arg((m_runName.isEmpty() ? tr("Run") : m_runName).toHtmlEscaped())
                          .arg(m_runRecords)
                          .arg(scenario));
}

void ResultsView::updateStatus()
{
    switch (m_stage) {
    case Stage::Idle:
        if (m_ordering)
            m_status->setText(tr("Sorting and filtering the requests…"));
        else
            m_status->clear();
        break;
    case Stage::Summary:
        m_status->setText(tr("Computing summary…"));
        break;
    case Stage::Requests:
        m_status->setText(tr("Loading requests…"));
        break;
    case Stage::Charts:
        m_status->setText(tr("Drawing charts…"));
        break;
    }
}

void ResultsView::updateHealth()
{
    QStringList lines;
    for (const Message &w : std::as_const(m_healthWarnings))
        lines << w.translated().toHtmlEscaped();
    m_health->setText(lines.join(u"<br>"_s));
    m_health->setVisible(!lines.isEmpty());
}

void ResultsView::setServerState(const QJsonObject &snapshot, const QJsonObject &summary)
{
    m_stateSnapshot = snapshot;
    m_stateSummary = summary;
    updateServerState();
}

void ResultsView::updateServerState()
{
    QStringList lines;
    const QJsonObject managed = m_stateSnapshot.value(u"managed_server"_s).toObject();
    if (!managed.isEmpty())
        lines << tr("Managed server: healthy %1 ms after its start command (instance %2); its "
                    "output is stored in the project.")
                     .arg(managed.value(u"startup_ms"_s).toInteger())
                     .arg(managed.value(u"instance"_s).toString());
    const QJsonObject cache = m_stateSummary.value(u"cache_policy"_s).toObject();
    const QJsonObject reset = cache.value(u"reset"_s).toObject();
    if (!cache.isEmpty() && !reset.value(u"done"_s).toBool()) {
        lines << tr("Prefix cache not reset (%1); fallback: %2.")
                     .arg(reset.value(u"detail"_s).toString(),
                          cache.value(u"fallback"_s).toString());
    } else if (!cache.isEmpty()) {
        const QJsonObject v = cache.value(u"verification"_s).toObject();
        const QString verdict = v.value(u"verdict"_s).toString();
        QString check;
        if (v.contains(u"queries"_s))
            check = (verdict == "cold"_L1 ? tr("verified cold over the first %1 requests: %2 of "
                                               "%3 looked-up tokens hit (engine counters)")
                     : verdict == "warm"_L1
                         ? tr("NOT cold over the first %1 requests: %2 of %3 looked-up tokens hit "
                              "(engine counters)")
                         : tr("unverified over the first %1 requests: %2 of %3 looked-up tokens "
                              "hit (engine counters)"))
                        .arg(v.value(u"first_requests"_s).toInteger())
                        .arg(qint64(v.value(u"hits"_s).toDouble()))
                        .arg(qint64(v.value(u"queries"_s).toDouble()));
        else if (v.contains(u"cached_tokens_reported"_s))
            check = (verdict == "cold"_L1 ? tr("verified cold over the first %1 requests: %2 "
                                               "cached tokens in their usage")
                                          : tr("NOT cold over the first %1 requests: %2 cached "
                                               "tokens in their usage"))
                        .arg(v.value(u"first_requests"_s).toInteger())
                        .arg(v.value(u"cached_tokens_reported"_s).toInteger());
        else
            check = tr("unverified: the server exports no prefix-cache counters");
        lines << tr("Prefix cache reset by POST %1 (HTTP %2, %3 ms); %4.")
                     .arg(reset.value(u"endpoint"_s).toString())
                     .arg(reset.value(u"http_status"_s).toInt())
                     .arg(reset.value(u"ms"_s).toDouble(), 0, 'f', 1)
                     .arg(check);
    }
    m_serverState->setText(lines.join(u'\n'));
    m_serverState->setVisible(!lines.isEmpty());
}

void ResultsView::updateMlperfVerdict()
{
    if (!m_mlperfError.isEmpty())
        m_mlperfText->setPlainText(
            tr("MLPerf judgement not possible: %1").arg(m_mlperfError.translated()));
    if (!m_hasMlperf)
        return;
    QStringList failed;
    for (const Message &f : std::as_const(m_mlperfFailed))
        failed << f.translated().toHtmlEscaped();
    m_mlperfVerdict->setText(
        u"<span style='font-size:16pt; font-weight:bold; color:%1'>%2</span><br>%3"_s.arg(
            m_mlperfValid ? u"#2ca02c"_s : u"#d62728"_s,
            m_mlperfValid ? tr("VALID") : tr("INVALID"), failed.join(u"<br>"_s)));
}

void ResultsView::updateDistributionTitles()
{
    const QStringList &keys = distributionKeys();
    for (int i = 0; i < keys.size(); ++i) {
        const QString label = metricLabel(keys.at(i));
        QString cdfNote, histNote;
        if (i < m_distributionNotes.size()) {
            const DistributionNote &n = m_distributionNotes.at(i);
            cdfNote = tr("%n sample(s)", nullptr, int(n.samples));
            histNote = n.above > 0 ? tr("bin %1 ms; %2 above %3 ms not drawn")
                                         .arg(QString::number(n.binWidth, 'g', 3))
                                         .arg(n.above)
                                         .arg(QString::number(n.hi, 'f', 1))
                                   : tr("bin %1 ms").arg(QString::number(n.binWidth, 'g', 3));
        }
        setChartTitle(m_cdfCharts.at(i), tr("%1 CDF").arg(label), cdfNote);
        setChartTitle(m_histCharts.at(i), tr("%1 histogram").arg(label), histNote);
    }
}

int ResultsView::chartColumns() const
{
    int cols = 0;
    for (const ChartView *c : m_cdfCharts)
        cols = std::max(cols, c->plotColumns());
    for (const ChartView *c : {m_throughputChart, m_ttftTimeChart})
        cols = std::max(cols, c->plotColumns());
    // Hidden tabs have not been laid out yet; a screenful is the most any chart here shows.
    return std::clamp(cols, 400, 1600);
}

void ResultsView::clear()
{
    ++m_generation;
    m_latest->store(m_generation);
    m_busy = false;
    m_summaryModel->clear();
    m_totalsModel->clear();
    m_requestModel->clear();
    if (m_paged)
        usePagedTable(false);
    m_paged = false;
    m_storedRows.reset();
    m_ordering = false;
    m_filterDelay->stop();
    m_latestOrder->store(++m_orderTicket);
    m_unavailableNote->clear();
    m_unavailableNote->setVisible(false);
    m_intervalNote->clear();
    m_intervalNote->setVisible(false);
    m_showIntervals->setVisible(false);
    m_sessions->clear();
    m_tabs->setTabVisible(kSessionsTab, false);
    m_server->clear();
    m_tabs->setTabVisible(kServerTab, false);
    m_failedRows = 0;
    for (ChartView *c : std::as_const(m_cdfCharts))
        c->clearPoints();
    for (ChartView *c : std::as_const(m_histCharts))
        c->clearPoints();
    for (ChartView *c : {m_throughputChart, m_tokensChart, m_inFlightChart, m_ttftTimeChart,
                         m_itlTimeChart, m_lagTimeChart})
        c->clearPoints();
    m_mlperfBox->setVisible(false);
    m_hasRun = false;
    m_stage = Stage::Idle;
    m_hasMlperf = false;
    m_mlperfFailed.clear();
    m_mlperfError = Message();
    m_healthWarnings.clear();
    m_distributionNotes.clear();
    m_stateSnapshot = {};
    m_stateSummary = {};
    updateHealth();
    updateServerState();
    updateHeader();
    updateStatus();
    updateDistributionTitles();
    updateFailedCount();
}

void ResultsView::showRun(const RunPlan &plan, const QList<RequestRecord> &records,
                          const QList<MetricSeriesStore> &serverMetrics,
                          std::shared_ptr<const RunDerivation> derived,
                          const ClientLoadSamples &clientLoad)
{
    beginShowing(plan, records.size(), Stage::Summary);
    const quint64 gen = m_generation;
    updateHeader();
    updateStatus();

    const int columns = chartColumns();
    const std::shared_ptr<std::atomic<quint64>> latest = m_latest;
    // QList copies share the records (implicit sharing): handing them over costs nothing.
    QMetaObject::invokeMethod(
        m_worker,
        [this, latest, gen, plan, records, columns, serverMetrics, derived, clientLoad] {
            const auto cancelled = [latest, gen] {
                return latest->load() != gen;
            };
            if (cancelled())
                return;
            RunReportInput in;
            in.plan = plan;
            in.records = records;
            in.serverMetrics = serverMetrics;
            in.clientLoad = clientLoad;
            const ResultsSummaryStage summary =
                derived ? resultsSummaryFrom(in, *derived) : computeResultsSummary(in);
            if (cancelled())
                return;
            QMetaObject::invokeMethod(
                this, [this, gen, summary] { applySummary(gen, summary); }, Qt::QueuedConnection);
            const QList<RequestRow> rows = requestRows(records, runZeroNs(records), cancelled);
            if (cancelled())
                return;
            QMetaObject::invokeMethod(
                this, [this, gen, rows] { applyRows(gen, rows); }, Qt::QueuedConnection);
            const ResultsChartStage charts =
                computeResultsCharts(records, rows, columns, cancelled);
            if (cancelled())
                return;
            QMetaObject::invokeMethod(
                this, [this, gen, charts] { applyCharts(gen, charts); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void ResultsView::beginShowing(const RunPlan &plan, qsizetype records, Stage stage)
{
    clear();
    m_busy = true;
    m_hasRun = true;
    m_runName = plan.name;
    m_runRecords = records;
    m_runScenario = plan.profile.scenario;
    m_stage = stage;
}

void ResultsView::showStoredRun(const RunPlan &plan, const QString &storePath, qint64 storeRunId,
                                qint64 requestCount, const QList<MetricSeriesStore> &serverMetrics,
                                const ClientLoadSamples &clientLoad)
{
    beginShowing(plan, requestCount, Stage::Requests);
    const quint64 gen = m_generation;
    m_paged = true;
    m_storePath = storePath;
    m_storeRunId = storeRunId;
    usePagedTable(true);
    updateHeader();
    updateStatus();

    const int columns = chartColumns();
    const std::shared_ptr<std::atomic<quint64>> latest = m_latest;
    QMetaObject::invokeMethod(
        m_worker,
        [this, latest, gen, plan, storePath, storeRunId, columns, serverMetrics, clientLoad] {
            const auto cancelled = [latest, gen] {
                return latest->load() != gen;
            };
            ProjectStore store;
            if (!store.open(storePath, ProjectStore::OpenMode::ReadOnly)) {
                const QString error = store.lastError();
                QMetaObject::invokeMethod(
                    this, [this, gen, error] { failStored(gen, error); }, Qt::QueuedConnection);
                return;
            }
            // The rows' order and the time axis' zero from four columns of the index pass: the
            // table can show the run before the derivation's passes have read it.
            auto order = std::make_shared<std::vector<qint64>>();
            qint64 failed = 0;
            constexpr qint64 kNone = std::numeric_limits<qint64>::max();
            qint64 minSched = kNone;
            qint64 minSend = kNone;
            if (!store.visitRequestIndex(
                    storeRunId, [&](qint64 index, qint64 tSched, qint64 tSend, ErrorClass error) {
                        order->push_back(index);
                        failed += error == ErrorClass::None ||
                                          error == ErrorClass::CancelledByLoad
                                      ? 0
                                      : 1;
                        if (tSched > 0)
                            minSched = std::min(minSched, tSched);
                        if (tSend > 0)
                            minSend = std::min(minSend, tSend);
                        return !((order->size() & 65535) == 0 && cancelled());
                    })) {
                const QString error = store.lastError();
                QMetaObject::invokeMethod(
                    this, [this, gen, error] { failStored(gen, error); }, Qt::QueuedConnection);
                return;
            }
            if (cancelled())
                return;
            // runZeroNs() of the records: the earliest t_sched, else the earliest t_send.
            const qint64 zero = minSched != kNone ? minSched : (minSend != kNone ? minSend : 0);
            const qsizetype count = qsizetype(order->size());
            std::shared_ptr<const std::vector<qint64>> shown = std::move(order);
            QMetaObject::invokeMethod(
                this,
                [this, gen, shown, failed, zero] { applyStoredIndex(gen, shown, failed, zero); },
                Qt::QueuedConnection);

            // The derivation's passes (loadStoredRunForReport) feed the table's sort keys and
            // the charts on the way.
            RunReportInput in;
            in.plan = plan;
            in.serverMetrics = serverMetrics;
            in.clientLoad = clientLoad;
            auto rows = std::make_shared<StoredRunRows>();
            rows->reserve(count);
            auto charts = std::make_unique<ResultsChartBuilder>(zero, false);
            StoredRunPasses passes;
            passes.afterFirst = [&cancelled] {
                return !cancelled();
            };
            // The charts are done before the records are read: their series then no longer
            // share the peak with the records.
            ResultsChartStage chartStage;
            passes.afterSecond = [&] {
                chartStage = charts->finish(columns, cancelled);
                charts.reset();
            };
            passes.recordTexts = false; // the table reads its rows' texts itself
            passes.eachWithChunks = [&](const RequestRecord &r) {
                const RequestRow row = RequestRow::fromRecord(r, zero);
                rows->add(row);
                charts->add(r, row);
            };
            QString error;
            SummaryOptions options = SummaryOptions::forProfile(plan.profile);
            options.maxPooledGaps = SummaryOptions::kStreamedGapsAbove;
            if (!loadStoredRunForReport(store, storeRunId, options, &in, &error, passes)) {
                if (!cancelled())
                    QMetaObject::invokeMethod(
                        this, [this, gen, error] { failStored(gen, error); }, Qt::QueuedConnection);
                return;
            }
            if (cancelled())
                return;
            const ResultsSummaryStage summary = computeResultsSummary(in);
            in.records = {}; // the summary has them
            in.itl.reset();
            if (cancelled())
                return;
            QMetaObject::invokeMethod(
                this, [this, gen, summary] { applySummary(gen, summary); }, Qt::QueuedConnection);
            std::shared_ptr<const StoredRunRows> stored = std::move(rows);
            QMetaObject::invokeMethod(
                this,
                [this, gen, stored, chartStage] {
                    applyStoredRows(gen, stored);
                    applyCharts(gen, chartStage);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void ResultsView::usePagedTable(bool paged)
{
    // The proxy must not watch a paged model: it would ask every row for its sort and filter
    // values, and so fetch the whole run.
    QHeaderView *header = m_requestTable->horizontalHeader();
    const int section = header->sortIndicatorSection();
    const Qt::SortOrder order = header->sortIndicatorOrder();
    QItemSelectionModel *oldSelection = m_requestTable->selectionModel();
    if (paged) {
        m_requestProxy->setSourceModel(nullptr);
        m_requestTable->setModel(m_requestModel);
    } else {
        // Never in front of a paged model: it would sort its million rows through data().
        if (m_requestModel->isPaged())
            m_requestModel->clear();
        m_requestProxy->setSourceModel(m_requestModel);
        m_requestTable->setModel(m_requestProxy);
    }
    delete oldSelection;
    applyRequestColumnWidths();
    header->setSortIndicator(section, order);
}

void ResultsView::applyStoredIndex(quint64 generation,
                                   std::shared_ptr<const std::vector<qint64>> order, qint64 failed,
                                   qint64 zeroNs)
{
    if (generation != m_generation)
        return;
    m_zeroNs = zeroNs;
    m_failedRows = failed;
    m_runRecords = qsizetype(order->size());
    m_requestModel->setPagedOrder(std::move(order));
    updateHeader();
    updateFailedCount();
    m_stage = Stage::Summary;
    updateStatus();
    emit requestsShown();
}

void ResultsView::applyStoredRows(quint64 generation, std::shared_ptr<const StoredRunRows> rows)
{
    if (generation != m_generation)
        return;
    m_storedRows = std::move(rows);
    QHeaderView *header = m_requestTable->horizontalHeader();
    // Sorting and filtering asked for while the rows were being read apply now.
    if (header->sortIndicatorSection() != RequestTableModel::IndexColumn ||
        header->sortIndicatorOrder() != Qt::AscendingOrder || m_failedOnly->isChecked() ||
        !m_filter->text().isEmpty())
        requestPagedOrder();
}

void ResultsView::requestPagedOrder()
{
    if (!m_paged || !m_storedRows)
        return; // applyStoredRows() asks again once the rows are there
    m_filterDelay->stop();
    QHeaderView *header = m_requestTable->horizontalHeader();
    const int column =
        std::clamp(header->sortIndicatorSection(), 0, int(RequestTableModel::ColumnCount) - 1);
    const bool descending = header->sortIndicatorOrder() == Qt::DescendingOrder;
    const bool failedOnly = m_failedOnly->isChecked();
    const QString text = m_filter->text();
    const quint64 gen = m_generation;
    const quint64 ticket = ++m_orderTicket;
    m_latestOrder->store(ticket);
    m_ordering = true;
    updateStatus();
    const std::shared_ptr<std::atomic<quint64>> latest = m_latest;
    const std::shared_ptr<std::atomic<quint64>> latestOrder = m_latestOrder;
    QMetaObject::invokeMethod(
        m_worker,
        [this, latest, latestOrder, gen, ticket, rows = m_storedRows, path = m_storePath,
         runId = m_storeRunId, zero = m_zeroNs, column, descending, failedOnly, text] {
            const auto cancelled = [latest, latestOrder, gen, ticket] {
                return latest->load() != gen || latestOrder->load() != ticket;
            };
            if (cancelled())
                return;
            std::vector<quint8> match;
            std::vector<QString> texts;
            const bool needsTexts = StoredRunRows::needsTexts(column);
            if (!text.isEmpty() || needsTexts) {
                ProjectStore store;
                QString error;
                bool ok = store.open(path, ProjectStore::OpenMode::ReadOnly);
                if (!ok)
                    error = store.lastError();
                if (ok && !text.isEmpty())
                    ok = matchStoredRows(store, runId, zero, text, &match, &error, cancelled);
                if (ok && needsTexts)
                    ok = readStoredTexts(store, runId, column, &texts, &error, cancelled);
                if (!ok) {
                    if (!cancelled())
                        QMetaObject::invokeMethod(
                            this, [this, gen, error] { failStored(gen, error); },
                            Qt::QueuedConnection);
                    return;
                }
            }
            std::shared_ptr<const std::vector<qint64>> order =
                std::make_shared<const std::vector<qint64>>(
                    rows->order(column, descending, failedOnly, text.isEmpty() ? nullptr : &match,
                                needsTexts ? &texts : nullptr));
            QMetaObject::invokeMethod(
                this,
                [this, gen, ticket, order] {
                    if (gen != m_generation || ticket != m_orderTicket)
                        return;
                    m_ordering = false;
                    m_requestModel->setPagedOrder(order);
                    updateFailedCount();
                    updateStatus();
                    emit requestOrderShown();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void ResultsView::fetchPagedRows(const QList<qint64> &indices)
{
    if (!m_paged || indices.isEmpty())
        return;
    auto *reader = static_cast<PagedRowReader *>(m_rowReader);
    const quint64 gen = m_generation;
    const std::shared_ptr<std::atomic<quint64>> latest = m_latest;
    QMetaObject::invokeMethod(
        m_rowReader,
        [this, reader, latest, gen, indices, path = m_storePath, runId = m_storeRunId,
         zero = m_zeroNs] {
            if (latest->load() != gen)
                return;
            QString error;
            QList<RequestRecord> records;
            const ProjectStore *store = reader->storeFor(path, &error);
            if (store && !store->readRequestsAt(runId, indices, &records))
                error = store->lastError();
            if (!error.isEmpty()) {
                QMetaObject::invokeMethod(
                    this, [this, gen, error] { failStored(gen, error); }, Qt::QueuedConnection);
                return;
            }
            QList<RequestRow> rows;
            rows.reserve(records.size());
            for (const RequestRecord &r : std::as_const(records))
                rows.append(RequestRow::fromRecord(r, zero));
            QMetaObject::invokeMethod(
                this,
                [this, gen, rows] {
                    if (gen == m_generation && m_paged)
                        m_requestModel->addPagedRows(rows);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void ResultsView::failStored(quint64 generation, const QString &error)
{
    if (generation != m_generation)
        return;
    m_busy = false;
    m_ordering = false;
    m_stage = Stage::Idle;
    m_status->setText(tr("Cannot read the run from the project file: %1").arg(error));
    emit chartsShown(); // nothing more will come
}

void ResultsView::applySummary(quint64 generation, const ResultsSummaryStage &stage)
{
    if (generation != m_generation)
        return; // a newer showRun() or clear() superseded it
    m_summaryModel->setSummary(stage.summary, stage.intervals);
    m_totalsModel->setSummary(stage.summary, stage.connections);
    fitSummaryPanes();
    updateUnavailableNote();
    updateIntervalNote();
    m_mlperfBox->setVisible(stage.hasMlperf || !stage.mlperfError.isEmpty());
    m_hasMlperf = stage.hasMlperf;
    if (stage.hasMlperf) {
        m_mlperfValid = stage.mlperf.valid;
        m_mlperfFailed = stage.mlperf.failedConstraintMessages;
        updateMlperfVerdict();
        // The LoadGen-style block stays in English: it is a compatibility format.
        m_mlperfText->setPlainText(stage.mlperfText);
    } else if (!stage.mlperfError.isEmpty()) {
        // An MLPerf scenario whose constraints do not resolve: say why, as `show` does.
        m_mlperfVerdict->clear();
        m_mlperfError = Message::fromEnglish(stage.mlperfError);
        updateMlperfVerdict();
    }
    m_healthWarnings = stage.health.warningMessages;
    updateHealth();
    // A session workload's turns: their own tab, only when the run has sessions.
    if (stage.sessions.present)
        m_sessions->setSummary(stage.sessions, stage.historyMode);
    else
        m_sessions->clear();
    m_tabs->setTabVisible(kSessionsTab, stage.sessions.present);
    // The server's side, on the Over time tab's axis (the run's first scheduled request).
    if (stage.hasServer) {
        m_server->setEvidence(stage.server, stage.serverSeries, stage.zeroNs);
        m_server->setCancellationRecovery(stage.cancellation);
    }
    m_tabs->setTabVisible(kServerTab, stage.hasServer);
    // A paged run's table is already there; its charts come next.
    m_stage = m_paged ? Stage::Charts : Stage::Requests;
    updateStatus();
    emit summaryShown();
}

void ResultsView::applyRows(quint64 generation, const QList<RequestRow> &rows)
{
    if (generation != m_generation)
        return;
    m_failedRows = 0;
    for (const RequestRow &r : rows)
        m_failedRows += r.failed() ? 1 : 0;
    m_requestModel->setRows(rows);
    updateFailedCount();
    m_stage = Stage::Charts;
    updateStatus();
    emit requestsShown();
}

void ResultsView::applyCharts(quint64 generation, const ResultsChartStage &stage)
{
    if (generation != m_generation)
        return;
    // One chart per turn of the event loop: handing Qt Charts a series re-lays out its axes and
    // repaints, several milliseconds each; fourteen in one go held the GUI thread for ~90 ms.
    auto st = std::make_shared<const ResultsChartStage>(stage);
    QList<std::function<void()>> steps;
    m_distributionNotes.clear();
    for (qsizetype i = 0; i < st->distributions.size() && i < m_cdfCharts.size(); ++i) {
        steps << [this, st, i] {
            const auto &d = st->distributions.at(i);
            m_cdfCharts.at(i)->setPoints(0, d.cdf);
            m_distributionNotes.append(
                {d.samples, d.histogram.binWidth(), d.histogram.above, d.histogram.hi});
            updateDistributionTitles();
        };
        steps << [this, st, i] {
            m_histCharts.at(i)->setPoints(0, st->distributions.at(i).histogram.outline());
        };
    }
    const double span = std::max(st->spanS, 1.0);
    const QList<QPair<ChartView *, QList<QList<QPointF>>>> series = {
        {m_throughputChart, {st->requestsPerS, st->errorsPerS}},
        {m_tokensChart, {st->outputTokensPerS}},
        {m_inFlightChart, {st->inFlight}},
        {m_ttftTimeChart, {st->ttftOverTime}},
        {m_itlTimeChart, {st->itlOverTime}},
        {m_lagTimeChart, {st->lagOverTime}},
    };
    for (const auto &[chart, points] : series)
        steps << [chart, points, span] {
            chart->setFixedXRange(0, span);
            for (qsizetype k = 0; k < points.size(); ++k)
                chart->setPoints(int(k), points.at(k));
        };
    steps << [this] {
        m_busy = false;
        m_stage = Stage::Idle;
        updateStatus();
        emit chartsShown();
    };
    applyChartSteps(generation, std::move(steps));
}

void ResultsView::applyChartSteps(quint64 generation, QList<std::function<void()>> steps)
{
    if (generation != m_generation || steps.isEmpty())
        return;
    steps.takeFirst()();
    if (!steps.isEmpty())
        QTimer::singleShot(0, this, [this, generation, steps = std::move(steps)]() mutable {
            applyChartSteps(generation, std::move(steps));
        });
}

void ResultsView::updateFailedCount()
{
    const RequestTableModel *m = m_requestModel;
    m_failedOnly->setText(tr("Failed only (%1)").arg(m_failedRows));
    // A paged table is the model itself, sorted and filtered in the worker.
    const qint64 shown = m_paged ? m->rowCount() : m_requestProxy->rowCount();
    const qint64 total = m_paged ? qint64(m_runRecords) : m->rowCount();
    m_requestCount->setText(tr("%1 of %2 requests").arg(shown).arg(total));
}

void ResultsView::copyFrom(QTableView *view)
{
    if (!view || !view->selectionModel())
        return;
    if (view == m_requestTable && m_paged) {
        copyPagedSelection();
        return;
    }
    const QString tsv = selectionToTsv(view->selectionModel()->selectedIndexes(), true);
    if (!tsv.isEmpty())
        QApplication::clipboard()->setText(tsv);
}

void ResultsView::copyPagedSelection()
{
    // The selection may cover rows never read: its rows are read in the row thread, and the
    // text is made there with the same cells and layout as selectionToTsv(). Only the ranges
    // are taken here: a selection of a million rows is expanded off the GUI thread.
    struct Range
    {
        int top, bottom;
        quint32 mask; // bit per selected column
    };
    QList<Range> ranges;
    quint32 allColumns = 0;
    const QItemSelection selection = m_requestTable->selectionModel()->selection();
    for (const QItemSelectionRange &range : selection) {
        quint32 mask = 0;
        for (int c = range.left(); c <= range.right() && c < 32; ++c)
            mask |= 1u << c;
        allColumns |= mask;
        ranges.append({range.top(), range.bottom(), mask});
    }
    if (ranges.isEmpty())
        return;
    QList<int> columns;
    QStringList header;
    for (int c = 0; c < RequestTableModel::ColumnCount; ++c) {
        if (allColumns & (1u << c)) {
            columns << c;
            header << tsvCell(m_requestModel->headerData(c, Qt::Horizontal));
        }
    }
    // Rows selected: the ranges' union (ranges of a QItemSelection may overlap in rows).
    QList<Range> byTop = ranges;
    std::sort(byTop.begin(), byTop.end(),
              [](const Range &a, const Range &b) { return a.top < b.top; });
    qint64 rowCount = 0;
    int coveredTo = -1;
    for (const Range &r : std::as_const(byTop)) {
        if (r.bottom > coveredTo) {
            rowCount += r.bottom - std::max(r.top, coveredTo + 1) + 1;
            coveredTo = r.bottom;
        }
    }
    m_status->setText(tr("Copying %n request(s)…", nullptr, int(rowCount)));
    auto *reader = static_cast<PagedRowReader *>(m_rowReader);
    const quint64 gen = m_generation;
    QMetaObject::invokeMethod(
        m_rowReader,
        [this, reader, gen, ranges, columns, header, order = m_requestModel->pagedOrder(),
         path = m_storePath, runId = m_storeRunId, zero = m_zeroNs] {
            std::map<int, quint32> columnsOfRow; // view row -> its selected columns
            for (const Range &r : ranges)
                for (int row = r.top; row <= r.bottom; ++row)
                    columnsOfRow[row] |= r.mask;
            QList<qint64> indices;
            QList<quint32> masks;
            indices.reserve(qsizetype(columnsOfRow.size()));
            masks.reserve(qsizetype(columnsOfRow.size()));
            for (const auto &[row, mask] : columnsOfRow) {
                if (!order || size_t(row) >= order->size())
                    continue;
                indices << (*order)[size_t(row)];
                masks << mask;
            }
            QString error;
            const ProjectStore *store = reader->storeFor(path, &error);
            QString out = header.join(u'\t') + u'\n';
            constexpr qsizetype kBatch = 4096;
            for (qsizetype from = 0; store && from < indices.size(); from += kBatch) {
                QList<RequestRecord> records;
                if (!store->readRequestsAt(runId, indices.mid(from, kBatch), &records)) {
                    error = store->lastError();
                    break;
                }
                for (qsizetype k = 0; k < records.size(); ++k) {
                    const RequestRow row = RequestRow::fromRecord(records.at(k), zero);
                    const quint32 mask = masks.at(from + k);
                    QStringList line;
                    for (int c : columns)
                        line << ((mask & (1u << c))
                                     ? tsvCell(RequestTableModel::cell(row, c, Qt::DisplayRole))
                                     : QString());
                    out += line.join(u'\t') + u'\n';
                }
            }
            QMetaObject::invokeMethod(
                this,
                [this, gen, out, error, rows = indices.size()] {
                    if (!error.isEmpty()) {
                        failStored(gen, error);
                        return;
                    }
                    QApplication::clipboard()->setText(out);
                    if (gen == m_generation)
                        updateStatus();
                    emit selectionCopied(rows);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void ResultsView::copySelection()
{
    QWidget *f = QApplication::focusWidget();
    for (QTableView *t : {m_totalsTable, m_summaryTable, m_requestTable}) {
        if (f && (f == t || t->isAncestorOf(f))) {
            copyFrom(t);
            return;
        }
    }
    copyFrom(m_requestTable);
}

bool ResultsView::eventFilter(QObject *watched, QEvent *event)
{
    // QTableView's own Ctrl+C copies only the current cell; a selection is what people want.
    if (event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent *>(event)->matches(QKeySequence::Copy)) {
        if (auto *t = qobject_cast<QTableView *>(watched)) {
            copyFrom(t);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace sb
