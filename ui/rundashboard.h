#pragma once

#include "config/runplan.h"
#include "metrics/requestrecord.h"
#include "servermetrics/metricsscraper.h"

#include <QMap>
#include <QPointF>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <array>
#include <functional>
#include <limits>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QThread;

namespace sb {

class ChartView;
class RunController;
class SessionTurnsView;
struct ClientLoadTick;
struct SessionSummary;
enum class RunStatus;

// The live view of a running benchmark: TTFT and ITL over time, request and output-token
// throughput per second, requests in flight and errors, a live latency CDF, counters, progress
// with ETA, and a Stop button.
//
// The engine delivers thousands of records a second into the GUI thread. Each one costs O(1)
// there: a few counters and an append to a pending list. A GUI timer (5 Hz by default) hands the
// pending records as one batch to a worker thread, which reduces them with core's per-request
// definitions (RequestRow, i.e. summarize() of each record — the dashboard plots, it never
// defines a metric) and posts back plain vectors of values. The timer then turns the vectors into
// thinned series — about one min/max pair per pixel column — and hands them to the charts with
// replace(), so the chart work per refresh is bounded by the screen, not by the run. A batch
// carries the attach generation; one that comes back after a re-attach is dropped.
//
// The controller must live in the GUI thread (it does in the workbench); its signals then arrive
// as direct calls.
class RunDashboard : public QWidget
{
    Q_OBJECT
public:
    struct Counters
    {
        qint64 sent = 0;                     // RunController::issued()
        qint64 received = 0;                 // records received (RunController::completed())
        qint64 succeeded = 0;                // received and ok, warm-up included
        qint64 failed = 0;                   // received and failed, warm-up included
        qint64 warmup = 0;                   // received warm-up records
        QMap<QString, qint64> failedByClass; // errorClassName() -> count
        // p99 of t_send - t_sched over the measured (non-warm-up) requests so far, by core's
        // percentile (linear); NaN before the first one.
        double scheduleLagP99Ms = std::numeric_limits<double>::quiet_NaN();
        qint64 inFlight() const { return sent - received; }
    };

    explicit RunDashboard(QWidget *parent = nullptr);
    ~RunDashboard() override;

    // Starts following a controller (before or after its start(); records it already holds are
    // taken over). Attaching again detaches from the previous one first.
    void attach(sb::RunController *controller, const sb::RunPlan &plan);
    // Stops following; what has been drawn stays.
    void detach();
    bool isAttached() const { return !m_controller.isNull(); }

    Counters counters() const;
    // How often charts are refreshed while running, clamped to 100..250 ms (4-10 Hz).
    void setRefreshInterval(int ms);
    int refreshInterval() const { return m_timer.interval(); }
    // TTFT, ITL, latency CDF, requests/s, output tok/s, in flight + errors: in that order.
    QList<ChartView *> charts() const;
    // The server's side, live (docs/server-metrics.md), on the same time axis: the engine's
    // queue (running, waiting), its KV-cache usage (%) and the GPU power (W), as scraped. Shown
    // only while the attached run scrapes; each scrape's gauges arrive from the scraper's thread
    // as a queued signal (O(1) in the GUI thread) and are drawn at the next refresh.
    QList<ChartView *> serverCharts() const { return {m_queueChart, m_kvChart, m_powerChart}; }
    bool showsServer() const { return m_serverShown; }
    // Scrapes whose gauges arrived so far.
    int serverSamples() const { return m_serverSamples; }
    // Refreshes done so far; tests use it to see the timer work.
    int refreshCount() const { return m_refreshes; }
    // Records received but not yet reduced by the worker and drawn.
    bool hasPendingWork() const
    {
        return !m_pending.isEmpty() || m_batchesInFlight > 0 || m_sessionJob;
    }
    // A session workload's turns, live (docs/sessions.md); hidden for single-request runs.
    SessionTurnsView *sessionsView() const { return m_sessions; }

public slots:
    // Moves what arrived since the last refresh into the charts and counters.
    void refresh();

protected:
    void changeEvent(QEvent *event) override;

signals:
    void stopRequested();
    // A batch of records was reduced and is in the charts' data (drawn at the next refresh,
    // or at once after the run finished).
    void batchApplied();

private:
    struct Batch;
    // Every text of the dashboard in the current language; the texts rendered from data (title,
    // ETA) are rendered again from what the dashboard holds.
    void retranslateUi();
    void updateTitle();
    void dispatchPending();
    void applyBatch(quint64 generation, const Batch &batch);
    void dispatchSessions(bool force);
    void applySessions(quint64 generation, const SessionSummary &summary);
    void redraw();
    // Runs the first step now and the rest one per turn of the event loop, while `drawing` is
    // still the newest refresh.
    void drawSteps(quint64 drawing, QList<std::function<void()>> steps);
    void reset();
    void onRecord(const sb::RequestRecord &record);
    void onGaugeSample(int target, const sb::ServerGaugeSample &sample);
    void onFinished(sb::RunStatus status);
    // A second of the client's own thread samples (docs/performance.md, "The client checks
    // itself"): a thread above 90 % of a core shows the warning for the rest of the run.
    void onClientLoad(const sb::ClientLoadTick &tick);
    void onStopClicked();
    void readZero();
    double elapsedS() const;
    qint64 plannedRequests() const;
    void updateCounterLabels(double elapsed);
    void updateProgress(double elapsed);
    static void mergeSorted(std::vector<double> &into, const std::vector<double> &sortedBatch);

    QPointer<RunController> m_controller;
    QList<QMetaObject::Connection> m_connections;
    RunPlan m_plan;
    QTimer m_timer;
    QThread *m_thread;
    QObject *m_worker; // lives in m_thread; batches are functors posted to it
    quint64 m_generation = 0;
    QList<RequestRecord> m_pending; // received, not yet handed to the worker
    int m_batchesInFlight = 0;
    int m_refreshes = 0;
    quint64 m_drawing = 0; // the newest refresh's number (drawSteps)
    bool m_running = false;
    bool m_dirty = false;
    bool m_hasPlan = false; // attach() was called: m_plan is what the title shows
    QString m_finalStatus;
    qint64 m_zeroNs = 0; // the controller's runStartNs(): the time axis' zero
    qint64 m_endNs = 0;  // set when the run finished: elapsed stops there

    // Counters (O(1) per record).
    qint64 m_received = 0;
    qint64 m_succeeded = 0;
    qint64 m_failed = 0;
    qint64 m_warmup = 0;
    std::array<qint64, 32> m_failedByClass{}; // by ErrorClass value

    // Plot data, appended per batch.
    std::vector<double> m_ttftX, m_ttftY; // t_send (s), TTFT (ms)
    std::vector<double> m_itlX, m_itlY;   // completion (s), mean ITL of the request (ms)
    std::vector<double> m_okPerS, m_errPerS, m_tokPerS; // per 1-second bucket
    std::vector<double> m_flightX, m_flightY;           // sampled at each refresh
    // Latency samples of the measured requests, kept sorted for the CDF and the lag p99: the
    // worker sorts each batch, the GUI thread merges it in, O(n) instead of O(n log n).
    std::vector<double> m_ttftSorted, m_e2elSorted, m_lagSorted;
    // The server's gauges per quantity (ServerGaugeSample::Gauge): scrape time (ns, the run's
    // clock) and value, from the first target that exported the quantity.
    struct GaugeTrack
    {
        int target = -1;
        std::vector<double> tNs, value;
    };
    std::array<GaugeTrack, 5> m_gauges;
    bool m_serverShown = false;
    int m_serverSamples = 0;
    // A session workload's records, summarized by turn in the worker about once a second.
    QList<RequestRecord> m_sessionRecords;
    bool m_sessionsDirty = false;
    bool m_sessionJob = false;
    qint64 m_sessionsAtNs = 0;

    // Widgets.
    QLabel *m_title;
    std::array<QLabel *, 7> m_captions{}; // above the counters, in the order of the values
    QLabel *m_sentLabel;
    QLabel *m_receivedLabel;
    QLabel *m_succeededLabel;
    QLabel *m_failedLabel;
    QLabel *m_inFlightLabel;
    QLabel *m_lagLabel;
    QLabel *m_elapsedLabel;
    QLabel *m_etaLabel;
    QLabel *m_clientWarning;
    QProgressBar *m_progress;
    QPushButton *m_stop;
    ChartView *m_ttftChart;
    ChartView *m_itlChart;
    ChartView *m_cdfChart;
    ChartView *m_requestsChart;
    ChartView *m_tokensChart;
    ChartView *m_flightChart;
    QWidget *m_serverRow;
    ChartView *m_queueChart;
    ChartView *m_kvChart;
    ChartView *m_powerChart;
    SessionTurnsView *m_sessions;
};

} // namespace sb
