#include "sessionturnsview.h"

#include "charts/chartview.h"
#include "editors/copyabletableview.h"
#include "models/turntablemodel.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>
#include <QXYSeries>

#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

SessionTurnsView::SessionTurnsView(QWidget *parent)
    : QWidget(parent), m_model(new TurnTableModel(this))
{
    auto *layout = new QVBoxLayout(this);
    m_line = new QLabel(this);
    m_line->setObjectName(u"sessionsLine"_s);
    m_line->setWordWrap(true);
    m_line->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_line);
    auto *split = new QSplitter(Qt::Vertical, this);
    m_table = new CopyableTableView(split);
    m_table->setObjectName(u"turnTable"_s);
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_chart = new ChartView(QString(), split);
    m_chart->setObjectName(u"ttftByTurnChart"_s);
    m_chart->addSeries(QString(), ChartView::Kind::Line, chartcolor::blue());
    m_chart->addSeries(QString(), ChartView::Kind::Line, chartcolor::orange());
    m_chart->setFixedYRange(0, std::numeric_limits<double>::quiet_NaN());
    // The chart keeps room for its axes' titles under the explanation and the table: at an
    // even split its plot was some 50 px high at 1280×800, its y title cut.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);
    retranslateUi();
}

void SessionTurnsView::setSummary(const SessionSummary &summary, const QString &historyMode)
{
    m_history = historyMode;
    m_model->setSummary(summary);
    QList<QPointF> mean, p99;
    for (const TurnSummary &t : summary.turns) {
        if (t.ttft.count == 0)
            continue;
        mean.append({double(t.turn), t.ttft.mean});
        p99.append({double(t.turn), t.ttft.percentile(99)});
    }
    m_chart->setFixedXRange(summary.turns.isEmpty() ? 0 : 1,
                            std::max<double>(2, double(summary.turns.size())));
    m_chart->setPoints(0, mean);
    m_chart->setPoints(1, p99);
    updateSummaryLine();
}

void SessionTurnsView::clear()
{
    m_model->clear();
    m_chart->clearPoints();
    m_history.clear();
    updateSummaryLine();
}

QString SessionTurnsView::summaryText() const
{
    return m_line->text();
}

void SessionTurnsView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SessionTurnsView::retranslateUi()
{
    m_chart->setTitle(tr("TTFT by turn"));
    m_chart->setAxisTitles(tr("turn"), tr("TTFT (ms)"));
    if (auto *s = m_chart->series(0))
        s->setName(tr("mean"));
    if (auto *s = m_chart->series(1))
        s->setName(tr("p99"));
    m_chart->setToolTip(tr("Mean and 99th-percentile TTFT of each turn position: a prefix cache "
                           "shows as TTFT falling after the first turn"));
    m_model->retranslate();
    updateSummaryLine();
}

void SessionTurnsView::updateSummaryLine()
{
    const SessionSummary &s = m_model->summary();
    if (!s.present) {
        m_line->setText(tr("No sessions yet."));
        return;
    }
    const QString rate =
        s.cacheHitRate >= 0 ? tr("%1 %").arg(s.cacheHitRate * 100, 0, 'f', 1) : tr("not reported");
    m_line->setText(
        tr("Sessions: %1 (%2 completed, %3 failed, %4 incomplete) · turns: %5 sent, %6 not sent "
           "· history: %7 · think time: %8 ms configured, %9 ms measured (means)")
            .arg(s.sessions)
            .arg(s.completed)
            .arg(s.failed)
            .arg(s.incomplete)
            .arg(s.turnsSent)
            .arg(s.turnsNotSent)
            .arg(m_history)
            .arg(s.thinkConfigured.mean, 0, 'f', 1)
            .arg(s.thinkMeasured.mean, 0, 'f', 1) +
        u'\n' +
        tr("Input tokens: %1 new, %2 history · prefix-cache hit rate: %3 · active sessions: "
           "peak %4, mean %5")
            .arg(s.newInputTokens)
            .arg(s.historyTokens)
            .arg(rate)
            .arg(s.peakActiveSessions)
            .arg(s.meanActiveSessions, 0, 'f', 1));
}

} // namespace sb
