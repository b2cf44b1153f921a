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
#include <QTableWidget>

#include <QVBoxLayout>
#include <QXYSeries>
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
    m_table->setWordWrap(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
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

void ServerEvidenceView::clear()
{
    m_has = false;
    m_evidence = ServerEvidence();
    m_series.clear();
    for (ChartView *c : charts())
        c->clearPoints();
    render();
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
    const QString chartNote = tr("As the engine and the GPU exporter reported it at each scrape");
    for (ChartView *c : charts())
        c->setToolTip(chartNote);
    render();
}

void ServerEvidenceView::render()
{
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
        const int ok = t.value("ok"_L1).toInt();
        const QString name = t.value("name"_L1).toString();
        const QString url = t.value("url"_L1).toString();
        if (ok == 0)
            lines << tr("Target %1 (%2): not available: %3")
                         .arg(name, url,
                              serverReasonMessage(t.value("reason"_L1).toString()).translated());
        else
            lines << tr("Target %1 (%2): %3, %4 scrapes, %5 successful")
                         .arg(name, url, t.value("engine"_L1).toString())
                         .arg(t.value("scrapes"_L1).toInt())
                         .arg(ok);
    }
    if (lines.isEmpty())
        lines << tr("No server metrics target.");
    lines << tr("Window: the measured requests' first send to last completion. Counters use the "
                "scrapes just before and just after it; gauges the scrapes inside it.");
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
            value->setToolTip(item.source);
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
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
}

} // namespace sb
