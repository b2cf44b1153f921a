#pragma once

#include "metricseriesstore.h"
#include "scraperecord.h"

#include <QByteArray>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QPair>
#include <QString>
#include <QUrl>
#include <array>
#include <functional>
#include <limits>
#include <memory>

class QNetworkAccessManager;
class QNetworkRequest;
class QThread;

namespace sb {

class ScrapeWorker;

// The built-in simulator's simulated GPU exporter (/dcgm/metrics) as a target: the name says it is
// simulated wherever it is shown, and reports mark the evidence taken from it
// (docs/server-metrics.md).
inline constexpr const char kSimulatedGpuTargetName[] = "dcgm-simulated";

// One Prometheus-format endpoint to scrape during a run.
struct ScrapeTarget
{
    QString name; // shown and stored: "sut", "dcgm", ...
    QUrl url;
    // Extra request headers, e.g. {"Authorization", "Bearer ..."}. Held in memory for the run
    // only: never stored, never logged, never part of a ScrapeRecord or a series store.
    QList<QPair<QByteArray, QByteArray>> headers;
    // The SUT's default /metrics: when the first scrape fails the target is switched off for
    // the run, with a one-line note, instead of failing every 0.5 s.
    bool optional = false;
};

struct ScraperOptions
{
    int intervalMs = 500;
    // A scrape that has not completed by then is abandoned (Timeout). Kept below the interval
    // so that scrapes of one target never overlap and a slow target never delays the next.
    int timeoutMs = 300;
    qint64 maxPayloadBytes = 8 * 1024 * 1024; // beyond it the body is dropped (Oversize)
    // The route to the targets: called in the scraper's thread, once on its network manager and
    // on every request (the run's proxy and extra CA certificates). Unset: direct, system CAs.
    std::function<void(QNetworkAccessManager *)> setupManager;
    std::function<void(QNetworkRequest *)> setupRequest;
};

// The gauges a person watches while a run goes on, read from one successful scrape of one
// target in the units of ServerEvidence (requests, fraction 0..1, %, W); NaN where the target
// exports no such quantity. The dashboard draws them on the run's time axis.
struct ServerGaugeSample
{
    enum Gauge { Running = 0, Waiting, KvCacheUsage, GpuUtil, PowerW, Count };
    qint64 tNs = 0; // the scrape's time (the run's clock)
    std::array<double, Count> values{
        std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(),
        std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(),
        std::numeric_limits<double>::quiet_NaN()};
};

// How a target fared so far.
struct ScrapeTargetStatus
{
    bool enabled = true; // false once an optional target was switched off
    int scrapes = 0;
    int ok = 0;
    int malformedLines = 0;
    ScrapeOutcome lastOutcome = ScrapeOutcome::Ok;
    QString lastDetail;
    bool available() const { return enabled && ok > 0 && lastOutcome == ScrapeOutcome::Ok; }
};

// Scrapes Prometheus /metrics endpoints beside a run, on a thread and connections of its own
// (its own QNetworkAccessManager, never the run's transport): one round over every target at
// start(), one every interval, one at stop(). Each round's samples are stored per target with
// the monotonic time the request was sent (the run's clock).
//
// Every scrape ends in a ScrapeRecord; a failure (unreachable, HTTP status, not Prometheus,
// oversize, timeout) never stops the scraper or the run. Malformed lines are counted and the
// rest of the payload is kept.
//
// The public methods are called from one thread (the owner's); stores() and status() may be
// called from any thread.
class MetricsScraper : public QObject
{
    Q_OBJECT
public:
    explicit MetricsScraper(QObject *parent = nullptr);
    ~MetricsScraper() override; // stops without a final round if still running

    void setTargets(const QList<ScrapeTarget> &targets);
    void setOptions(const ScraperOptions &options);
    ScraperOptions options() const { return m_options; }
    // Checks the options and targets (interval > 0, 0 < timeout < interval, http(s) URLs).
    bool validate(QString *error) const;

    // Starts the scraper's thread and its first round, and returns when that round is over
    // (at most the timeout later): the caller starts its run after the "before" scrape.
    bool start(QString *error = nullptr);
    // Stops the cadence, runs the final round, returns when it is over, and ends the thread.
    void stop();
    bool isRunning() const { return m_thread != nullptr; }

    int targetCount() const { return int(m_targets.size()); }
    // Copies, safe from any thread while the scraper runs.
    MetricSeriesStore store(int target) const;
    QList<MetricSeriesStore> stores() const;
    ScrapeTargetStatus status(int target) const;
    // One line per target switched off, e.g. "server metrics off for 'sut'
    // (http://h:8000/metrics): HTTP 404 Not Found at the first scrape".
    QStringList notes() const;

signals:
    // Delivered in the owner's thread after each scrape (any outcome).
    void scraped(int target, const sb::ScrapeRecord &record);
    // Delivered in the owner's thread after each successful scrape.
    void gaugesSampled(int target, const sb::ServerGaugeSample &sample);

private:
    friend class ScrapeWorker;
    // From the worker's thread. switchedOff: an optional target failed its first scrape.
    void record(int target, const ScrapeRecord &rec, const PromParseResult *parsed,
                bool switchedOff);

    QList<ScrapeTarget> m_targets;
    ScraperOptions m_options;
    QThread *m_thread = nullptr;
    ScrapeWorker *m_worker = nullptr;

    mutable QMutex m_mutex; // guards what follows
    QList<MetricSeriesStore> m_stores;
    QList<ScrapeTargetStatus> m_status;
    QStringList m_notes;
};

} // namespace sb

Q_DECLARE_METATYPE(sb::ScrapeRecord)
Q_DECLARE_METATYPE(sb::ServerGaugeSample)
