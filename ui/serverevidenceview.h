#pragma once

#include "report/cancellationrecovery.h"
#include "servermetrics/serverevidence.h"
#include "servermetrics/servertimeline.h"

#include <QList>
#include <QWidget>

class QLabel;
class QTableWidget;

namespace sb {

class ChartView;

// The Results' Server tab (docs/server-metrics.md): what the engine and the GPU reported during
// the run beside what the client measured. Each scraped target and its fate, every derived figure
// with its value (and the client's counterpart) or "not available: reason", its definition as a
// column and a tooltip, and charts of the engine's queue, its KV-cache usage and the GPU power over
// the run, on the Time tab's axis (seconds from the run's start); an empty chart says why.
class ServerEvidenceView : public QWidget
{
    Q_OBJECT
public:
    explicit ServerEvidenceView(QWidget *parent = nullptr);

    // The evidence deriveRun() gave, the gauges over the run (serverTimeline) and the run's zero
    // on the same clock (the Time tab's zero).
    void setEvidence(const ServerEvidence &evidence, const QList<ServerTimelineSeries> &series,
                     qint64 zeroNs);
    // The cancellation load's aftermath (docs/metrics.md): the server's running requests after
    // the last cancel beside the client's in flight, said under the targets; set after
    // setEvidence(), cleared by clear().
    void setCancellationRecovery(const CancellationRecovery &recovery);
    void clear();
    bool hasEvidence() const { return m_has; }

    QTableWidget *table() const { return m_table; }
    QLabel *targetsLabel() const { return m_targets; }
    // Queue (running, waiting), KV-cache usage, GPU power: in that order.
    QList<ChartView *> charts() const { return {m_queueChart, m_kvChart, m_powerChart}; }

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void retranslateUi();
    void render();
    void renderChartNotes();
    // The columns' widths for the table's current width: every column on screen.
    void fitColumns();

    bool m_has = false;
    ServerEvidence m_evidence;
    CancellationRecovery m_cancellation;
    QList<ServerTimelineSeries> m_series;
    qint64 m_zeroNs = 0;

    QLabel *m_targets;
    QTableWidget *m_table;
    ChartView *m_queueChart;
    ChartView *m_kvChart;
    ChartView *m_powerChart;
};

} // namespace sb
