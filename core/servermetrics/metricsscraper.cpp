#include "metricsscraper.h"

#include "scrapeworker.h"
#include "servertimeline.h"

#include <QMutexLocker>
#include <QThread>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
// How long start() and stop() wait beyond the scrape timeout before giving up on a round (a
// worker thread that is starved of CPU still finishes; the caller is not held forever).
constexpr int kRoundSlackMs = 2000;
} // namespace

MetricsScraper::MetricsScraper(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<sb::ScrapeRecord>();
    qRegisterMetaType<sb::ServerGaugeSample>();
}

MetricsScraper::~MetricsScraper()
{
    if (!m_thread)
        return;
    ScrapeWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker] { worker->shutdown(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
    delete m_thread;
}

void MetricsScraper::setTargets(const QList<ScrapeTarget> &targets)
{
    Q_ASSERT(!m_thread);
    m_targets = targets;
}

void MetricsScraper::setOptions(const ScraperOptions &options)
{
    Q_ASSERT(!m_thread);
    m_options = options;
}

bool MetricsScraper::validate(QString *error) const
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (m_options.intervalMs <= 0)
        return fail(u"scrape interval must be positive, got %1 ms"_s.arg(m_options.intervalMs));
    if (m_options.timeoutMs <= 0 || m_options.timeoutMs >= m_options.intervalMs)
        return fail(u"scrape timeout (%1 ms) must be positive and below the interval (%2 ms)"_s
                        .arg(m_options.timeoutMs)
                        .arg(m_options.intervalMs));
    if (m_options.maxPayloadBytes <= 0)
        return fail(u"payload cap must be positive"_s);
    for (const ScrapeTarget &t : m_targets) {
        const QString scheme = t.url.scheme();
        if (!t.url.isValid() || (scheme != "http"_L1 && scheme != "https"_L1) ||
            t.url.host().isEmpty())
            return fail(u"metrics target '%1': '%2' is not an http(s) URL"_s.arg(
                t.name, t.url.toString(QUrl::RemoveUserInfo)));
    }
    return true;
}

bool MetricsScraper::start(QString *error)
{
    if (m_thread)
        return true;
    if (!validate(error))
        return false;
    {
        QMutexLocker lock(&m_mutex);
        m_stores.clear();
        m_status.clear();
        m_notes.clear();
        for (const ScrapeTarget &t : std::as_const(m_targets)) {
            MetricSeriesStore s;
            s.setIdentity(t.name, t.url.toString());
            m_stores.append(s);
            m_status.append(ScrapeTargetStatus());
        }
    }
    m_thread = new QThread;
    m_thread->setObjectName(u"sb-scraper"_s);
    m_worker = new ScrapeWorker(this, m_targets, m_options);
    m_worker->moveToThread(m_thread);
    m_thread->start();
    ScrapeWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker] { worker->begin(); }, Qt::QueuedConnection);
    if (!m_worker->firstRoundDone.tryAcquire(1, m_options.timeoutMs + kRoundSlackMs)) {
        // Not an error: the run may start; the late answers are still stored.
        qWarning("metrics scraper: the first round did not finish within %d ms",
                 m_options.timeoutMs + kRoundSlackMs);
    }
    return true;
}

void MetricsScraper::stop()
{
    if (!m_thread)
        return;
    ScrapeWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker] { worker->finish(); }, Qt::QueuedConnection);
    // A periodic scrape may still be in flight: the final round follows it.
    if (!m_worker->finalRoundDone.tryAcquire(1, 2 * m_options.timeoutMs + kRoundSlackMs))
        qWarning("metrics scraper: the final round did not finish in time");
    QMetaObject::invokeMethod(
        worker, [worker] { worker->shutdown(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
    delete m_thread;
    m_worker = nullptr;
    m_thread = nullptr;
}

void MetricsScraper::record(int target, const ScrapeRecord &rec, const PromParseResult *parsed,
                            bool switchedOff)
{
    ServerGaugeSample gauges;
    {
        QMutexLocker lock(&m_mutex);
        if (target < 0 || target >= m_stores.size())
            return;
        m_stores[target].addScrape(rec, parsed);
        if (rec.ok())
            gauges = gaugeSample(m_stores[target], rec.tNs);
        ScrapeTargetStatus &st = m_status[target];
        ++st.scrapes;
        if (rec.ok())
            ++st.ok;
        st.malformedLines += rec.malformedLines;
        st.lastOutcome = rec.outcome;
        st.lastDetail = rec.detail;
        if (switchedOff) {
            st.enabled = false;
            const ScrapeTarget &t = m_targets[target];
            m_notes.append(u"server metrics off for '%1' (%2): %3 at the first scrape"_s.arg(
                t.name, t.url.toString(QUrl::RemoveUserInfo), rec.detail));
        }
    }
    emit scraped(target, rec);
    if (rec.ok())
        emit gaugesSampled(target, gauges);
}

MetricSeriesStore MetricsScraper::store(int target) const
{
    QMutexLocker lock(&m_mutex);
    return m_stores.value(target);
}

QList<MetricSeriesStore> MetricsScraper::stores() const
{
    QMutexLocker lock(&m_mutex);
    return m_stores;
}

ScrapeTargetStatus MetricsScraper::status(int target) const
{
    QMutexLocker lock(&m_mutex);
    return m_status.value(target);
}

QStringList MetricsScraper::notes() const
{
    QMutexLocker lock(&m_mutex);
    return m_notes;
}

} // namespace sb
