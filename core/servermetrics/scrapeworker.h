#pragma once

#include "metricsscraper.h"

#include <QHash>
#include <QObject>
#include <QSemaphore>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

namespace sb {

// MetricsScraper's engine, living in the scraper's own thread: owns the network manager, the
// cadence timer and one request per target at most. Only MetricsScraper talks to it.
class ScrapeWorker : public QObject
{
    Q_OBJECT
public:
    ScrapeWorker(MetricsScraper *owner, const QList<ScrapeTarget> &targets,
                 const ScraperOptions &options);
    ~ScrapeWorker() override;

    // Released once when the first round is over, and once when the final round is.
    QSemaphore firstRoundDone;
    QSemaphore finalRoundDone;

    // In the worker's thread.
    void begin();
    void finish();
    void shutdown();

private:
    enum class Round { First, Periodic, Final };
    struct Flight;

    void startRound(Round round);
    void startScrape(int target, Round round);
    void onReadyRead(QNetworkReply *reply);
    void onMetaData(QNetworkReply *reply);
    void onFinished(QNetworkReply *reply);
    void abandon(Flight *f, ScrapeOutcome outcome, const QString &detail);
    void roundScrapeDone(Round round);

    MetricsScraper *m_owner;
    QList<ScrapeTarget> m_targets;
    QList<bool> m_enabled;
    ScraperOptions m_options;
    QNetworkAccessManager *m_nam = nullptr;
    QTimer *m_cadence = nullptr;
    QHash<QNetworkReply *, Flight *> m_flights;
    QList<QNetworkReply *> m_inFlightByTarget;
    int m_firstPending = 0;
    int m_finalPending = 0;
    bool m_finishing = false;
    bool m_finalStarted = false;
};

} // namespace sb
