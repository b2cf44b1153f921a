#include "rundashboard.h"

#include "charts/chartview.h"
#include "charts/thinning.h"
#include "common/clock.h"
#include "metrics/sessionsummary.h"
#include "metrics/stats.h"
#include "metrics/summary.h"
#include "models/requestrow.h"
#include "run/runcontroller.h"
#include "sessionturnsview.h"

#include <QChart>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QProgressBar>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>
#include <QXYSeries>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QString clockText(double s)
{
    if (!std::isfinite(s) || s < 0)
        return u"–"_s;
    const qint64 t = qint64(std::llround(s));
    const QLatin1Char zero('0');
    if (t >= 3600)
        return u"%1:%2:%3"_s.arg(t / 3600).arg((t / 60) % 60, 2, 10, zero).arg(t % 60, 2, 10, zero);
    return u"%1:%2"_s.arg(t / 60).arg(t % 60, 2, 10, zero);
}

void addTo(std::vector<double> &buckets, double s, double amount)
{
    if (!(s >= 0))
        s = 0;
    const size_t b = size_t(s);
    if (b >= buckets.size())
        buckets.resize(b + 1, 0.0);
    buckets[b] += amount;
}

// A rate per second from 1-second buckets, points at the bucket centres, for buckets < upTo.
QList<QPointF> rateSeries(const std::vector<double> &buckets, size_t upTo, double xMax, int cols)
{
    const size_t n = std::min(upTo, buckets.size());
    std::vector<double> xs(n), ys(n);
    for (size_t b = 0; b < n; ++b) {
        xs[b] = double(b) + 0.5;
        ys[b] = buckets[b];
    }
    return thinMinMax(xs, ys, 0, xMax, cols);
}

QLabel *valueLabel(QWidget *parent)
{
    auto *l = new QLabel(u"0"_s, parent);
    QFont f = l->font();
    f.setPointSizeF(f.pointSizeF() * 1.25);
    f.setBold(true);
    l->setFont(f);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

} // namespace

// One batch of records reduced by the worker: the values each chart needs, nothing else.
struct RunDashboard::Batch
{
    std::vector<double> ttftX, ttftY, itlX, itlY;
    std::vector<double> ttftSorted, e2elSorted, lagSorted;     // measured requests only
    std::vector<std::pair<size_t, double>> ok, errors, tokens; // (1-second bucket, amount)

    static Batch reduce(const QList<RequestRecord> &records, qint64 zeroNs);
};

RunDashboard::Batch RunDashboard::Batch::reduce(const QList<RequestRecord> &records, qint64 zeroNs)
{
    Batch b;
    const auto bucket = [](double s) {
        return s > 0 ? size_t(s) : size_t(0);
    };
    std::vector<double> tokens; // dense over this batch's seconds, folded into pairs at the end
    for (const RequestRecord &record : records) {
        const RequestRow row = RequestRow::fromRecord(record, zeroNs);
        if (row.ok() && !std::isnan(row.ttftMs)) {
            b.ttftX.push_back(row.sendS);
            b.ttftY.push_back(row.ttftMs);
        }
        if (row.ok() && !std::isnan(row.itlMeanMs)) {
            b.itlX.push_back(row.endS);
            b.itlY.push_back(row.itlMeanMs);
        }
        if (!std::isnan(row.endS) && !row.cancelledByLoad())
            (row.ok() ? b.ok : b.errors).emplace_back(bucket(row.endS), 1.0);
        if (row.ok() && zeroNs > 0) {
            const qint64 *ct = record.chunkTimes.constData();
            const qint32 *tok = record.chunkTokens.constData();
            const qsizetype nTok = record.chunkTokens.size();
            for (qsizetype k = 0; k < record.chunkTimes.size(); ++k) {
                const size_t s = bucket(double(ct[k] - zeroNs) / 1e9);
                if (s >= tokens.size())
                    tokens.resize(s + 1, 0.0);
                tokens[s] += k < nTok && tok[k] > 0 ? tok[k] : 1;
            }
        }
        if (row.warmup)
            continue;
        if (!std::isnan(row.scheduleLagMs))
            b.lagSorted.push_back(row.scheduleLagMs);
        if (row.ok() && !std::isnan(row.ttftMs))
            b.ttftSorted.push_back(row.ttftMs);
        if (row.ok() && !std::isnan(row.e2elMs))
            b.e2elSorted.push_back(row.e2elMs);
    }
    for (size_t s = 0; s < tokens.size(); ++s)
        if (tokens[s] > 0)
            b.tokens.emplace_back(s, tokens[s]);
    std::sort(b.ttftSorted.begin(), b.ttftSorted.end());
    std::sort(b.e2elSorted.begin(), b.e2elSorted.end());
    std::sort(b.lagSorted.begin(), b.lagSorted.end());
    return b;
}

RunDashboard::RunDashboard(QWidget *parent)
    : QWidget(parent), m_thread(new QThread(this)), m_worker(new QObject())
{
    m_thread->setObjectName(u"DashboardWorker"_s);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();

    m_timer.setInterval(200);
    connect(&m_timer, &QTimer::timeout, this, &RunDashboard::refresh);

    m_title = new QLabel(this);
    m_title->setObjectName(u"title"_s);
    m_title->setTextFormat(Qt::RichText);

    auto *counters = new QGridLayout();
    counters->setHorizontalSpacing(18);
    std::array<QLabel *, 7> values{};
    for (int col = 0; col < int(m_captions.size()); ++col) {
        m_captions[size_t(col)] = new QLabel(this);
        values[size_t(col)] = valueLabel(this);
        counters->addWidget(m_captions[size_t(col)], 0, col);
        counters->addWidget(values[size_t(col)], 1, col);
    }
    m_sentLabel = values[0];
    m_receivedLabel = values[1];
    m_succeededLabel = values[2];
    m_failedLabel = values[3];
    m_inFlightLabel = values[4];
    m_lagLabel = values[5];
    m_elapsedLabel = values[6];
    counters->setColumnStretch(int(m_captions.size()), 1);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    m_etaLabel = new QLabel(this);
    m_etaLabel->setObjectName(u"eta"_s);
    m_stop = new QPushButton(this);
    m_stop->setObjectName(u"stopButton"_s);
    m_stop->setEnabled(false);
    connect(m_stop, &QPushButton::clicked, this, &RunDashboard::onStopClicked);

    m_clientWarning = new QLabel(this);
    m_clientWarning->setObjectName(u"clientBottleneck"_s);
    m_clientWarning->setWordWrap(true);
    m_clientWarning->setStyleSheet(u"color: #b00020;"_s);
    m_clientWarning->hide();

    auto *progressRow = new QHBoxLayout();
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_etaLabel);
    progressRow->addWidget(m_stop);

    // Titles, series names and axis titles are set in retranslateUi().
    m_ttftChart = new ChartView(QString(), this);
    m_ttftChart->addSeries(QString(), ChartView::Kind::Scatter, chartcolor::blue());
    m_itlChart = new ChartView(QString(), this);
    m_itlChart->addSeries(QString(), ChartView::Kind::Scatter, chartcolor::purple());
    m_cdfChart = new ChartView(QString(), this);
    m_cdfChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::blue());
    m_cdfChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::orange());
    m_cdfChart->setFixedYRange(0, 1);
    // Its two entries beside the plot, not under it: the plot keeps the height its y title
    // ("fraction ≤ x") needs in a dashboard row at 1280×800.
    m_cdfChart->chart()->legend()->setAlignment(Qt::AlignRight);
    m_requestsChart = new ChartView(QString(), this);
    m_requestsChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::blue());
    m_tokensChart = new ChartView(QString(), this);
    m_tokensChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::green());
    m_flightChart = new ChartView(QString(), this);
    m_flightChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::orange());
    m_flightChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::red());

    auto *charts = new QGridLayout();
    charts->addWidget(m_ttftChart, 0, 0);
    charts->addWidget(m_itlChart, 0, 1);
    charts->addWidget(m_cdfChart, 0, 2);
    charts->addWidget(m_requestsChart, 1, 0);
    charts->addWidget(m_tokensChart, 1, 1);
    charts->addWidget(m_flightChart, 1, 2);

    // The server's side, beside the client's charts on the same time axis.
    m_serverRow = new QWidget(this);
    m_serverRow->setObjectName(u"liveServer"_s);
    auto *serverCharts = new QHBoxLayout(m_serverRow);
    serverCharts->setContentsMargins(0, 0, 0, 0);
    m_queueChart = new ChartView(QString(), m_serverRow);
    m_queueChart->setObjectName(u"liveServerQueue"_s);
    m_queueChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::blue());
    m_queueChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::orange());
    m_kvChart = new ChartView(QString(), m_serverRow);
    m_kvChart->setObjectName(u"liveKvCache"_s);
    m_kvChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::green());
    m_kvChart->setFixedYRange(0, 100);
    m_powerChart = new ChartView(QString(), m_serverRow);
    m_powerChart->setObjectName(u"liveGpuPower"_s);
    m_powerChart->addSeries(QString(), ChartView::Kind::Line, chartcolor::red());
    serverCharts->addWidget(m_queueChart);
    serverCharts->addWidget(m_kvChart);
    serverCharts->addWidget(m_powerChart);
    m_serverRow->hide();
    charts->addWidget(m_serverRow, 2, 0, 1, 3);

    m_sessions = new SessionTurnsView(this);
    m_sessions->setObjectName(u"liveSessions"_s);
    m_sessions->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(counters);
    layout->addLayout(progressRow);
    layout->addWidget(m_clientWarning);
    layout->addLayout(charts, 1);
    layout->addWidget(m_sessions, 1);
    retranslateUi();
    reset();
}

void RunDashboard::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void RunDashboard::retranslateUi()
{
    const auto counter = [this](int col, QLabel *value, const QString &name, const QString &tip) {
        m_captions[size_t(col)]->setText(name);
        m_captions[size_t(col)]->setToolTip(tip);
        value->setToolTip(tip);
    };
    counter(0, m_sentLabel, tr("Sent"), tr("Requests handed to the transport"));
    counter(1, m_receivedLabel, tr("Completed"), tr("Requests finished, successful or not"));
    counter(2, m_succeededLabel, tr("Successful"), tr("Completed without an error"));
    counter(3, m_failedLabel, tr("Failed"), tr("Failed requests by error class"));
    counter(4, m_inFlightLabel, tr("In flight"), tr("Sent and not yet completed"));
    counter(5, m_lagLabel, tr("Schedule lag p99"),
            tr("p99 of t_send − t_sched over the measured requests so far. Large "
               "lag means the client, not the server, limited the run."));
    counter(6, m_elapsedLabel, tr("Elapsed"), tr("Since the run's start"));

    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop issuing requests and cancel those in flight; what was recorded "
                          "is kept and the run is marked interrupted"));

    // ChartView keeps the title it was constructed with for setSubtitle(), which the dashboard
    // never calls; the chart's own title is what is drawn, so that is the one set here.
    const QString t = tr("time since start (s)");
    m_ttftChart->setTitle(tr("TTFT by send time"));
    m_ttftChart->series(0)->setName(tr("TTFT"));
    m_ttftChart->setAxisTitles(t, tr("ms"));
    m_itlChart->setTitle(tr("Mean ITL per request"));
    m_itlChart->series(0)->setName(tr("ITL"));
    m_itlChart->setAxisTitles(t, tr("ms"));
    m_cdfChart->setTitle(tr("Latency CDF (measured requests)"));
    m_cdfChart->series(0)->setName(tr("TTFT"));
    m_cdfChart->series(1)->setName(tr("E2EL"));
    m_cdfChart->setAxisTitles(tr("ms"), tr("fraction ≤ x"));
    m_requestsChart->setTitle(tr("Completed requests per second"));
    m_requestsChart->series(0)->setName(tr("successful"));
    m_requestsChart->setAxisTitles(t, tr("req/s"));
    m_tokensChart->setTitle(tr("Output tokens per second"));
    m_tokensChart->series(0)->setName(tr("output tok/s"));
    m_tokensChart->setAxisTitles(t, tr("tok/s"));
    m_tokensChart->setToolTip(tr("Tokens by chunk arrival time. A request's tokens are known when "
                                 "it completes, so the latest seconds fill in as streams end."));
    m_flightChart->setTitle(tr("In flight and errors"));
    m_flightChart->series(0)->setName(tr("in flight"));
    m_flightChart->series(1)->setName(tr("errors/s"));
    m_flightChart->setAxisTitles(t, tr("requests"));
    m_queueChart->setTitle(tr("Engine queue (scraped)"));
    m_queueChart->series(0)->setName(tr("running"));
    m_queueChart->series(1)->setName(tr("waiting"));
    m_queueChart->setAxisTitles(t, tr("requests"));
    m_queueChart->setToolTip(tr("Requests the engine reported running and waiting in its queue, "
                                "at each scrape of its /metrics"));
    m_kvChart->setTitle(tr("KV-cache usage (scraped)"));
    m_kvChart->series(0)->setName(tr("KV cache"));
    m_kvChart->setAxisTitles(t, tr("%"));
    m_kvChart->setToolTip(tr("Share of the engine's KV cache in use, as it reported it"));
    m_powerChart->setTitle(tr("GPU power (scraped)"));
    m_powerChart->series(0)->setName(tr("power"));
    m_powerChart->setAxisTitles(t, tr("W"));
    m_powerChart->setToolTip(tr("Power draw of the GPUs, summed, as the GPU exporter reported it"));

    if (m_hasPlan) {
        updateTitle();
        updateProgress(elapsedS());
    }
}

void RunDashboard::updateTitle()
{
    m_title->setText(tr("<b>%1</b> — %2")
                         .arg((m_plan.name.isEmpty() ? tr("Run") : m_plan.name).toHtmlEscaped(),
                              (m_plan.sut.name.isEmpty() ? m_plan.sut.baseUrl : m_plan.sut.name)
                                  .toHtmlEscaped()));
}

RunDashboard::~RunDashboard()
{
    detach();
    ++m_generation; // whatever the worker still posts is dropped
    m_thread->quit();
    m_thread->wait();
}

QList<ChartView *> RunDashboard::charts() const
{
    return {m_ttftChart, m_itlChart, m_cdfChart, m_requestsChart, m_tokensChart, m_flightChart};
}

void RunDashboard::setRefreshInterval(int ms)
{
    m_timer.setInterval(std::clamp(ms, 100, 250));
}

void RunDashboard::reset()
{
    ++m_generation;
    m_pending.clear();
    m_batchesInFlight = 0;
    m_refreshes = 0;
    m_running = false;
    m_dirty = false;
    m_finalStatus.clear();
    m_zeroNs = 0;
    m_endNs = 0;
    m_received = m_succeeded = m_failed = m_warmup = 0;
    m_failedByClass.fill(0);
    m_clientWarning->clear();
    m_clientWarning->hide();
    for (auto *v : {&m_ttftX, &m_ttftY, &m_itlX, &m_itlY, &m_okPerS, &m_errPerS, &m_tokPerS,
                    &m_flightX, &m_flightY, &m_ttftSorted, &m_e2elSorted, &m_lagSorted})
        v->clear();
    for (ChartView *c :
         {m_ttftChart, m_itlChart, m_cdfChart, m_requestsChart, m_tokensChart, m_flightChart})
        c->clearPoints();
    for (GaugeTrack &g : m_gauges)
        g = GaugeTrack();
    m_serverSamples = 0;
    m_serverShown = false;
    m_serverRow->hide();
    for (ChartView *c : {m_queueChart, m_kvChart, m_powerChart})
        c->clearPoints();
    m_sessionRecords.clear();
    m_sessionsDirty = false;
    m_sessionJob = false;
    m_sessionsAtNs = 0;
    m_sessions->clear();
    m_progress->setValue(0);
    m_progress->setFormat(u"%p%"_s);
    m_etaLabel->clear();
    m_stop->setEnabled(false);
    updateCounterLabels(0);
}

void RunDashboard::attach(RunController *controller, const RunPlan &plan)
{
    detach();
    reset();
    m_plan = plan;
    m_hasPlan = true;
    m_sessions->setVisible(plan.isSessionWorkload());
    m_controller = controller;
    updateTitle();
    if (!controller)
        return;
    m_connections << connect(controller, &RunController::requestCompleted, this,
                             &RunDashboard::onRecord);
    m_connections << connect(controller, &RunController::finished, this, &RunDashboard::onFinished);
    m_connections << connect(controller, &RunController::clientLoadSampled, this,
                             &RunDashboard::onClientLoad);
    // The scraper posts from its own thread: the connection queues, the GUI never waits on it.
    if (MetricsScraper *scraper = controller->metricsScraper()) {
        m_serverShown = true;
        m_serverRow->show();
        m_connections << connect(scraper, &MetricsScraper::gaugesSampled, this,
                                 &RunDashboard::onGaugeSample, Qt::QueuedConnection);
    }
    m_connections << connect(controller, &QObject::destroyed, this, [this] {
        m_timer.stop();
        m_stop->setEnabled(false);
    });
    // Attached mid-run (or after it): take over what the controller already holds.
    if (controller->status() != RunStatus::Idle) {
        readZero();
        for (const RequestRecord &r : controller->records())
            onRecord(r);
    }
    if (controller->status() == RunStatus::Running || controller->status() == RunStatus::Idle) {
        m_running = true;
        m_stop->setEnabled(true);
        m_timer.start();
    } else {
        onFinished(controller->status());
    }
    refresh();
}

void RunDashboard::onClientLoad(const ClientLoadTick &tick)
{
    if (!(tick.share > kMaxThreadBusyShare))
        return;
    m_clientWarning->setText(
        tr("The client is the bottleneck: its thread %1 wanted the CPU %2 % of the second "
           "ending at %3 s (waiting for one %4 %). This run measures the client, not the server.")
            .arg(tick.thread)
            .arg(qRound(tick.share * 100))
            .arg(tick.endS, 0, 'f', 1)
            .arg(qRound(tick.waitShare * 100)));
    m_clientWarning->show();
}

void RunDashboard::detach()
{
    dispatchPending(); // what arrived is drawn once reduced
    for (const auto &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_controller.clear();
    m_timer.stop();
    m_stop->setEnabled(false);
    m_running = false;
}

void RunDashboard::readZero()
{
    if (m_zeroNs == 0 && m_controller && m_controller->status() != RunStatus::Idle)
        m_zeroNs = m_controller->runStartNs();
}

double RunDashboard::elapsedS() const
{
    if (m_zeroNs == 0)
        return 0;
    const qint64 now = m_endNs > 0 ? m_endNs : monotonicNs();
    return std::max(0.0, double(now - m_zeroNs) / 1e9);
}

qint64 RunDashboard::plannedRequests() const
{
    if (m_controller && m_controller->plannedRequests() > 0)
        return m_controller->plannedRequests();
    const LoadProfile &p = m_plan.profile;
    if (p.durationS > 0 || p.warmupSeconds > 0)
        return 0; // time-bound: progress is by time
    return qint64(std::max(0, p.warmupRequests)) + std::max(0, p.numPrompts);
}

void RunDashboard::onRecord(const RequestRecord &record)
{
    // O(1): counts and an append; the reduction happens in the worker, per batch.
    if (m_zeroNs == 0)
        readZero();
    if (m_zeroNs == 0) // records fed without a started controller (replays, tests)
        m_zeroNs = record.tSched > 0 ? record.tSched : record.tSend;
    ++m_received;
    if (record.warmup)
        ++m_warmup;
    if (record.ok()) {
        ++m_succeeded;
    } else if (record.cancelledByLoad()) {
        // Not a failure (docs/metrics.md): kept by class, shown beside the received count.
        ++m_failedByClass[size_t(ErrorClass::CancelledByLoad)];
    } else {
        ++m_failed;
        ++m_failedByClass[std::min<size_t>(size_t(record.error), m_failedByClass.size() - 1)];
    }
    m_pending.append(record);
    if (record.inSession()) {
        m_sessionRecords.append(record);
        m_sessionsDirty = true;
    }
}

void RunDashboard::dispatchPending()
{
    if (m_pending.isEmpty())
        return;
    QList<RequestRecord> batch;
    batch.swap(m_pending);
    ++m_batchesInFlight;
    const quint64 gen = m_generation;
    const qint64 zero = m_zeroNs;
    QMetaObject::invokeMethod(
        m_worker,
        [this, gen, zero, batch] {
            const Batch reduced = Batch::reduce(batch, zero);
            QMetaObject::invokeMethod(
                this, [this, gen, reduced] { applyBatch(gen, reduced); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void RunDashboard::dispatchSessions(bool force)
{
    // Summarized again from every session record so far (per-turn percentiles need them all),
    // at most once a second while running and never two at a time.
    const qint64 now = monotonicNs();
    if (!m_sessionsDirty || m_sessionJob || (!force && now - m_sessionsAtNs < 1'000'000'000))
        return;
    m_sessionsDirty = false;
    m_sessionJob = true;
    m_sessionsAtNs = now;
    const quint64 gen = m_generation;
    const QList<RequestRecord> records = m_sessionRecords; // shared, not copied
    const SummaryOptions options = SummaryOptions::forProfile(m_plan.profile);
    QMetaObject::invokeMethod(
        m_worker,
        [this, gen, records, options] {
            const SessionSummary summary = summarizeSessions(records, options);
            QMetaObject::invokeMethod(
                this, [this, gen, summary] { applySessions(gen, summary); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void RunDashboard::applySessions(quint64 generation, const SessionSummary &summary)
{
    if (generation != m_generation)
        return;
    m_sessionJob = false;
    m_sessions->setSummary(summary, QString::fromLatin1(historyModeName(m_plan.profile.history)));
    if (m_sessionsDirty && !m_running)
        dispatchSessions(true); // records that came in while this one was computed
    emit batchApplied();
}

void RunDashboard::applyBatch(quint64 generation, const Batch &b)
{
    if (generation != m_generation)
        return; // reduced for a previous attach
    --m_batchesInFlight;
    m_ttftX.insert(m_ttftX.end(), b.ttftX.begin(), b.ttftX.end());
    m_ttftY.insert(m_ttftY.end(), b.ttftY.begin(), b.ttftY.end());
    m_itlX.insert(m_itlX.end(), b.itlX.begin(), b.itlX.end());
    m_itlY.insert(m_itlY.end(), b.itlY.begin(), b.itlY.end());
    for (const auto &[s, v] : b.ok)
        addTo(m_okPerS, double(s), v);
    for (const auto &[s, v] : b.errors)
        addTo(m_errPerS, double(s), v);
    for (const auto &[s, v] : b.tokens)
        addTo(m_tokPerS, double(s), v);
    mergeSorted(m_ttftSorted, b.ttftSorted);
    mergeSorted(m_e2elSorted, b.e2elSorted);
    mergeSorted(m_lagSorted, b.lagSorted);
    m_dirty = true;
    if (!m_running) // the timer has stopped: draw the late data now
        redraw();
    emit batchApplied();
}

void RunDashboard::onGaugeSample(int target, const ServerGaugeSample &sample)
{
    ++m_serverSamples;
    for (size_t q = 0; q < m_gauges.size(); ++q) {
        const double v = sample.values[q];
        GaugeTrack &g = m_gauges[q];
        if (!std::isfinite(v) || (g.target >= 0 && g.target != target))
            continue;
        g.target = target;
        g.tNs.push_back(double(sample.tNs));
        g.value.push_back(q == ServerGaugeSample::KvCacheUsage ? v * 100 : v);
    }
    m_dirty = true;
    // The "after" scrape arrives once the run is over and the refresh timer has stopped.
    if (!m_running)
        redraw();
}

void RunDashboard::onFinished(RunStatus status)
{
    m_running = false;
    m_timer.stop();
    m_stop->setEnabled(false);
    if (m_controller && m_controller->runEndNs() > 0)
        m_endNs = m_controller->runEndNs();
    else
        m_endNs = monotonicNs();
    m_finalStatus = QString::fromLatin1(runStatusName(status));
    if (m_controller) {
        m_flightX.push_back(elapsedS());
        m_flightY.push_back(double(std::max<qint64>(0, m_controller->issued() - m_received)));
    }
    m_dirty = true;
    refresh();
}

void RunDashboard::onStopClicked()
{
    m_stop->setEnabled(false);
    emit stopRequested();
    if (m_controller)
        m_controller->stop();
}

void RunDashboard::mergeSorted(std::vector<double> &into, const std::vector<double> &batch)
{
    if (batch.empty())
        return;
    const auto mid = into.insert(into.end(), batch.begin(), batch.end());
    std::inplace_merge(into.begin(), mid, into.end());
}

RunDashboard::Counters RunDashboard::counters() const
{
    Counters c;
    c.sent = m_controller ? m_controller->issued() : m_received;
    c.sent = std::max(c.sent, m_received);
    c.received = m_received;
    c.succeeded = m_succeeded;
    c.failed = m_failed;
    c.warmup = m_warmup;
    for (size_t i = 0; i < m_failedByClass.size(); ++i)
        if (m_failedByClass[i] > 0 && ErrorClass(i) != ErrorClass::CancelledByLoad)
            c.failedByClass.insert(QString::fromLatin1(errorClassName(ErrorClass(i))),
                                   m_failedByClass[i]);
    if (!m_lagSorted.empty())
        c.scheduleLagP99Ms = percentileLinear(m_lagSorted, 99);
    return c;
}

void RunDashboard::updateCounterLabels(double elapsed)
{
    const Counters c = counters();
    m_sentLabel->setText(QString::number(c.sent));
    QString received = QString::number(c.received);
    if (const qint64 cancelled = m_failedByClass[size_t(ErrorClass::CancelledByLoad)]; cancelled > 0)
        received += u"  <span style='font-size:small; font-weight:normal'>(%1)</span>"_s.arg(
            tr("%n cancelled by the load", nullptr, int(cancelled)));
    m_receivedLabel->setText(received);
    m_succeededLabel->setText(QString::number(c.succeeded));
    QString failed = QString::number(c.failed);
    QStringList byClass;
    for (auto it = c.failedByClass.cbegin(); it != c.failedByClass.cend(); ++it)
        byClass << u"%1 %2"_s.arg(it.key()).arg(it.value());
    if (!byClass.isEmpty())
        failed += u"  <span style='font-size:small; font-weight:normal'>(%1)</span>"_s.arg(
            byClass.join(u", "_s));
    m_failedLabel->setText(failed);
    m_failedLabel->setStyleSheet(c.failed > 0 ? u"color: #b01c1c;"_s : QString());
    m_inFlightLabel->setText(QString::number(c.inFlight()));
    m_lagLabel->setText(std::isnan(c.scheduleLagP99Ms)
                            ? u"–"_s
                            : tr("%1 ms").arg(QString::number(c.scheduleLagP99Ms, 'f', 2)));
    m_elapsedLabel->setText(clockText(elapsed));
}

void RunDashboard::updateProgress(double elapsed)
{
    const qint64 planned = plannedRequests();
    double fraction = 0;
    double eta = std::numeric_limits<double>::quiet_NaN();
    if (planned > 0) {
        fraction = std::min(1.0, double(m_received) / double(planned));
        if (m_received > 0 && elapsed > 0)
            eta = elapsed * double(planned - m_received) / double(m_received);
        m_progress->setFormat(u"%1 / %2"_s.arg(m_received).arg(planned));
    } else {
        const double total = m_plan.profile.durationS + m_plan.profile.warmupSeconds;
        if (total > 0) {
            fraction = std::min(1.0, elapsed / total);
            eta = std::max(0.0, total - elapsed);
        }
        m_progress->setFormat(u"%p%"_s);
    }
    if (!m_running && m_finalStatus == "completed"_L1)
        fraction = 1.0;
    m_progress->setValue(int(std::lround(fraction * 1000)));
    if (!m_running && !m_finalStatus.isEmpty()) {
        // The run's end in the reader's words ("completed" read as English in Chinese).
        QString said = m_finalStatus;
        if (m_finalStatus == "completed"_L1)
            said = tr("completed");
        else if (m_finalStatus == "interrupted"_L1)
            said = tr("interrupted");
        else if (m_finalStatus == "failed"_L1)
            said = tr("failed");
        m_etaLabel->setText(said);
    } else
        m_etaLabel->setText(tr("ETA %1").arg(clockText(eta)));
}

void RunDashboard::refresh()
{
    ++m_refreshes;
    dispatchPending();
    dispatchSessions(!m_running);
    readZero();
    const double elapsed = elapsedS();
    if (m_controller && m_running) {
        m_flightX.push_back(elapsed);
        m_flightY.push_back(double(std::max<qint64>(0, m_controller->issued() - m_received)));
    }
    redraw();
}

void RunDashboard::redraw()
{
    const double elapsed = elapsedS();
    updateCounterLabels(elapsed);
    updateProgress(elapsed);
    if (!m_dirty && !m_running)
        return;
    // While running, one chart per turn of the event loop: each hands Qt Charts a series and
    // re-lays out its axes (3–15 ms), and all of them in one go held the GUI thread past a frame
    // (16 ms) at 1,000 streams. A refresh that finds the last one still drawing replaces the
    // rest of it (its steps read the data as it is then). A finished run is drawn at once, whole.
    m_dirty = false;

    // The time axis grows in steps so the charts do not rescale on every refresh.
    const double xMax = m_running ? std::max(10.0, std::ceil(elapsed * 1.1 / 10.0) * 10.0)
                                  : std::max(1.0, std::ceil(elapsed));
    // While running, the current second is still filling up: drawing it would show a dip.
    const size_t fullSeconds =
        m_running ? size_t(std::max(0.0, std::floor(elapsed))) : std::numeric_limits<size_t>::max();
    QList<std::function<void()>> steps;
    steps << [this, xMax] {
        m_ttftChart->setFixedXRange(0, xMax);
        m_ttftChart->setPoints(0,
                               thinMinMax(m_ttftX, m_ttftY, 0, xMax, m_ttftChart->plotColumns()));
    };
    steps << [this, xMax] {
        m_itlChart->setFixedXRange(0, xMax);
        m_itlChart->setPoints(0, thinMinMax(m_itlX, m_itlY, 0, xMax, m_itlChart->plotColumns()));
    };
    steps << [this, xMax, fullSeconds] {
        m_requestsChart->setFixedXRange(0, xMax);
        m_requestsChart->setPoints(
            0, rateSeries(m_okPerS, fullSeconds, xMax, m_requestsChart->plotColumns()));
    };
    steps << [this, xMax, fullSeconds] {
        m_tokensChart->setFixedXRange(0, xMax);
        m_tokensChart->setPoints(
            0, rateSeries(m_tokPerS, fullSeconds, xMax, m_tokensChart->plotColumns()));
    };
    steps << [this, xMax, fullSeconds] {
        m_flightChart->setFixedXRange(0, xMax);
        const int fc = m_flightChart->plotColumns();
        m_flightChart->setPoints(0, thinMinMax(m_flightX, m_flightY, 0, xMax, fc));
        m_flightChart->setPoints(1, rateSeries(m_errPerS, fullSeconds, xMax, fc));
    };
    steps << [this] {
        const int cc = m_cdfChart->plotColumns();
        m_cdfChart->setPoints(0, cdfPoints(m_ttftSorted, cc));
        m_cdfChart->setPoints(1, cdfPoints(m_e2elSorted, cc));
    };
    if (m_serverShown) {
        steps << [this, xMax] {
            // Scrape times on the client's zero: a scrape is a point every interval, few
            // enough to draw as they are.
            const auto track = [this](ServerGaugeSample::Gauge q) {
                const GaugeTrack &g = m_gauges[size_t(q)];
                QList<QPointF> out;
                out.reserve(qsizetype(g.tNs.size()));
                for (size_t i = 0; i < g.tNs.size(); ++i)
                    out.append({(g.tNs[i] - double(m_zeroNs)) / 1e9, g.value[i]});
                return out;
            };
            for (ChartView *c : {m_queueChart, m_kvChart, m_powerChart})
                c->setFixedXRange(0, xMax);
            if (m_zeroNs > 0) {
                m_queueChart->setPoints(0, track(ServerGaugeSample::Running));
                m_queueChart->setPoints(1, track(ServerGaugeSample::Waiting));
                m_kvChart->setPoints(0, track(ServerGaugeSample::KvCacheUsage));
                m_powerChart->setPoints(0, track(ServerGaugeSample::PowerW));
            }
            // An empty chart says why it is empty: the scrapes so far carried no such value.
            const bool scraped = m_serverSamples > 0;
            const auto note = [&](ChartView *c, std::initializer_list<ServerGaugeSample::Gauge> g) {
                bool any = false;
                for (ServerGaugeSample::Gauge q : g)
                    any = any || !m_gauges[size_t(q)].tNs.empty();
                c->setSubtitle(any || !scraped
                                   ? QString()
                                   : tr("no value in %n scrape(s): the server does not export it",
                                        nullptr, int(m_serverSamples)));
            };
            note(m_queueChart, {ServerGaugeSample::Running, ServerGaugeSample::Waiting});
            note(m_kvChart, {ServerGaugeSample::KvCacheUsage});
            note(m_powerChart, {ServerGaugeSample::PowerW});
        };
    }
    if (!m_running) {
        ++m_drawing; // a chain still running from the last refresh stops
        for (const auto &step : std::as_const(steps))
            step();
        return;
    }
    drawSteps(++m_drawing, std::move(steps));
}

void RunDashboard::drawSteps(quint64 drawing, QList<std::function<void()>> steps)
{
    if (drawing != m_drawing || steps.isEmpty())
        return; // a newer refresh took over
    steps.takeFirst()();
    if (!steps.isEmpty())
        QTimer::singleShot(0, this, [this, drawing, steps = std::move(steps)]() mutable {
            drawSteps(drawing, std::move(steps));
        });
}

} // namespace sb
