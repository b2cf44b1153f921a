#include "serverevidenceview.h"

#include "charts/chartview.h"
#include "report/serverreport.h"

#include <QEvent>
#include <QGridLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>

#include <QVBoxLayout>
#include <QXYSeries>
#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

enum Column { FigureColumn, ValueColumn, ClientColumn, DefinitionColumn, ColumnCount };

QList<QPointF> points(const QList<ServerTimelineSeries> &series, ServerQuantity q, qint64 zeroNs,
                      double scale)
{
    QList<QPointF> out;
    for (const ServerTimelineSeries &s : series) {
        if (s.quantity != q)
            continue;
        out.reserve(s.points.size());
        for (const auto &[t, v] : s.points)
            out.append({double(t - zeroNs) / 1e9, v * scale});
    }
    return out;
}

} // namespace

ServerEvidenceView::ServerEvidenceView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_targets = new QLabel(this);
    m_targets->setObjectName(u"serverTargets"_s);
    m_targets->setWordWrap(true);
    m_targets->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_targets);
    auto *split = new QSplitter(Qt::Vertical, this);
    layout->addWidget(split, 1);
    m_table = new QTableWidget(0, ColumnCount, split);
    m_table->setObjectName(u"serverEvidence"_s);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Every column on screen (docs/server-metrics.md, "In a run": the definition is a column and
    // a tooltip): the definition takes the room the other columns leave and wraps, the value
    // and the client's counterpart are capped and wrap too (fitColumns()), and each row is as
    // tall as its wrapped text at the current widths.
    m_table->setWordWrap(true);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(DefinitionColumn, QHeaderView::Stretch);
    // The viewport's size, not the table's: the table's own resize handler sizes the viewport
    // after an event filter on the table would have run.
    m_table->viewport()->installEventFilter(this);
    split->addWidget(m_table);
    auto *charts = new QWidget(split);
    auto *grid = new QGridLayout(charts);
    grid->setContentsMargins(0, 0, 0, 0);
    // Titles, series names and axis titles are set in retranslateUi().
    m_queueChart = new ChartView(QString(), charts);
    m_queueChart->setObjectName(u"serverQueue"_s);
    m_queueChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::blue());
    m_queueChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::orange());
    m_kvChart = new ChartView(QString(), charts);
    m_kvChart->setObjectName(u"serverKvCache"_s);
    m_kvChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::green());
    m_kvChart->setFixedYRange(0, 100);
    m_powerChart = new ChartView(QString(), charts);
    m_powerChart->setObjectName(u"serverPower"_s);
    m_powerChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::red());
    m_powerChart->setFixedYRange(0, std::numeric_limits<double>::quiet_NaN());
    grid->addWidget(m_queueChart, 0, 0);
    grid->addWidget(m_kvChart, 0, 1);
    grid->addWidget(m_powerChart, 0, 2);
    split->addWidget(charts);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    retranslateUi();
}

void ServerEvidenceView::setEvidence(const ServerEvidence &evidence,
                                     const QList<ServerTimelineSeries> &series, qint64 zeroNs)
{
    m_has = true;
    m_evidence = evidence;
    m_series = series;
    m_zeroNs = zeroNs;
    m_queueChart->setPoints(0, points(series, ServerQuantity::Running, zeroNs, 1));
    m_queueChart->setPoints(1, points(series, ServerQuantity::Waiting, zeroNs, 1));
    m_kvChart->setPoints(0, points(series, ServerQuantity::KvCacheUsage, zeroNs, 100));
    m_powerChart->setPoints(0, points(series, ServerQuantity::PowerW, zeroNs, 1));
    render();
}

void ServerEvidenceView::setCancellationRecovery(const CancellationRecovery &recovery)
{
    m_cancellation = recovery;
    render();
}

void ServerEvidenceView::clear()
{
    m_has = false;
    m_evidence = ServerEvidence();
    m_cancellation = CancellationRecovery();
    m_series.clear();
    for (ChartView *c : charts())
        c->clearPoints();
    render();
}

bool ServerEvidenceView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

void ServerEvidenceView::fitColumns()
{
    // The figure's label is short: as wide as it is. The value ("n/a (reason)") and the client's
    // figure take what they need up to a share of the table; the definition, stretched, the rest
    // (at least about a third of the table at the Results view's narrowest, 1280x800).
    const int room = m_table->viewport()->width();
    const QFontMetrics fm(m_table->font());
    // The item's text margins (QCommonStyle) and a pixel for rounding.
    const int margin =
        2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1) + 1;
    const struct
    {
        int column;
        double share;
    } capped[] = {{FigureColumn, 0.3}, {ValueColumn, 0.25}, {ClientColumn, 0.18}};
    for (const auto &c : capped) {
        // Every row, not only the ones scrolled into view (QTableView's own size hint).
        int want = m_table->horizontalHeader()->sectionSizeHint(c.column);
        for (int row = 0; row < m_table->rowCount(); ++row)
            if (const QTableWidgetItem *item = m_table->item(row, c.column))
                want = std::max(want, fm.horizontalAdvance(item->text()) + margin);
        m_table->setColumnWidth(c.column, std::min(want, int(room * c.share)));
    }
}

void ServerEvidenceView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void ServerEvidenceView::retranslateUi()
{
    m_table->setHorizontalHeaderLabels(
        {tr("Figure"), tr("Server"), tr("Client"), tr("Definition")});
    m_queueChart->setTitle(tr("Engine queue"));
    m_queueChart->series(0)->setName(tr("running"));
    m_queueChart->series(1)->setName(tr("waiting"));
    m_queueChart->setAxisTitles(tr("time since run start (s)"), tr("requests"));
    m_kvChart->setTitle(tr("KV-cache usage"));
    m_kvChart->series(0)->setName(tr("KV cache"));
    m_kvChart->setAxisTitles(tr("time since run start (s)"), tr("%"));
    m_powerChart->setTitle(tr("GPU power"));
    m_powerChart->series(0)->setName(tr("power"));
    m_powerChart->setAxisTitles(tr("time since run start (s)"), tr("W"));
    render();
}

void ServerEvidenceView::renderChartNotes()
{
    // An empty chart says why it is empty, under its title; its tooltip gives the figure's full
    // reason (a reason can be longer than a third of the view).
    const QString about = tr("As the engine and the GPU exporter reported it at each scrape");
    const struct
    {
        ChartView *chart;
        const char *figure; // the evidence figure of the chart's quantity
    } charts[] = {{m_queueChart, "running_peak"},
                  {m_kvChart, "kv_cache_usage_peak"},
                  {m_powerChart, "power_mean_w"}};
    for (const auto &c : charts) {
        qsizetype points = 0;
        for (int k = 0; c.chart->series(k); ++k)
            points += c.chart->pointCount(k);
        const EvidenceItem *item = m_has ? m_evidence.item(QString::fromLatin1(c.figure)) : nullptr;
        const bool empty = m_has && points == 0;
        c.chart->setSubtitle(empty ? serverChartEmptyNote(item).translated() : QString());
        c.chart->setToolTip(empty && item && !item->available
                                ? about + u'\n' + formatServerValue(*item, true)
                                : about);
    }
}

void ServerEvidenceView::render()
{
    renderChartNotes();
    m_table->setRowCount(0);
    if (!m_has) {
        m_targets->setText(tr("No server metrics were scraped during this run (the SUT's "
                              "scrape setting was off, or the run predates them)."));
        return;
    }
    const QJsonObject json = m_evidence.toJson();
    QStringList lines;
    for (const QJsonValue &v : json.value("targets"_L1).toArray()) {
        const QJsonObject t = v.toObject();
        lines << serverTargetMessage(t).translated();
    }
    if (lines.isEmpty())
        lines << tr("No server metrics target.");
    lines << tr("Window: the measured requests' first send to last completion. Counters use the "
                "scrapes just before and just after it; gauges the scrapes inside it.");
    // After a cancellation load: did the server free what the client closed?
    if (const CancellationRecovery &c = m_cancellation; c.configured || c.cancelled > 0) {
        if (c.available)
            lines << tr("Server running requests %1 s after the last cancellation: %2; client in "
                        "flight: %3")
                         .arg(QString::number(c.afterS(), 'f', 2),
                              QString::number(c.serverRunning, 'g', 6))
                         .arg(c.clientInFlight);
        else
            lines << tr("Server running requests after the last cancellation: %1")
                         .arg(Message::fromEnglish(c.reason).translated());
    }
    m_targets->setText(lines.join(u'\n'));

    const QList<EvidenceItem> &items = m_evidence.items();
    m_table->setRowCount(int(items.size()));
    for (int row = 0; row < items.size(); ++row) {
        const EvidenceItem &item = items.at(row);
        const QString definition = serverFigureDefinition(item.name).translated();
        auto *label = new QTableWidgetItem(serverFigureLabel(item.name).translated());
        label->setToolTip(definition);
        auto *value = new QTableWidgetItem(formatServerValue(item, true));
        if (!item.source.isEmpty())
            value->setToolTip(serverSourceMessage(item.source).translated());
        QString client;
        if (item.available) {
            const QJsonObject &d = item.detail;
            if (d.contains("client_output_tokens"_L1))
                client = tr("%1 tokens (difference %2)")
                             .arg(d.value("client_output_tokens"_L1).toDouble(), 0, 'f', 0)
                             .arg(d.value("difference"_L1).toDouble(), 0, 'f', 0);
            else if (d.contains("client_requests"_L1))
                client = tr("%1 requests").arg(d.value("client_requests"_L1).toDouble(), 0, 'f', 0);
            else if (d.contains("client_mean_ms"_L1))
                client = tr("%1 ms").arg(d.value("client_mean_ms"_L1).toDouble(), 0, 'f', 2);
        }
        auto *clientItem = new QTableWidgetItem(client);
        auto *def = new QTableWidgetItem(definition);
        def->setToolTip(definition);
        m_table->setItem(row, FigureColumn, label);
        m_table->setItem(row, ValueColumn, value);
        m_table->setItem(row, ClientColumn, clientItem);
        m_table->setItem(row, DefinitionColumn, def);
    }
    fitColumns();
}

} // namespace sb
