#include "scrapeworker.h"

#include "common/clock.h"
#include "promparser.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// What Prometheus asks for, in the other order of preference: the 0.0.4 text is what every
// engine serves; OpenMetrics is accepted (and parsed) when that is all a server offers.
constexpr const char *kAccept = "text/plain;version=0.0.4;q=1,"
                                "application/openmetrics-text;version=1.0.0;q=0.5,*/*;q=0.1";

QString firstErrors(const PromParseResult &r, int max)
{
    QStringList parts;
    for (int i = 0; i < r.errors.size() && i < max; ++i)
        parts.append(u"line %1: %2"_s.arg(r.errors[i].line).arg(r.errors[i].message));
    if (r.errors.size() > max)
        parts.append(u"…"_s);
    return parts.join(u"; "_s);
}

} // namespace

struct ScrapeWorker::Flight
{
    int target = 0;
    Round round = Round::Periodic;
    qint64 tStart = 0;
    QByteArray body;
    QTimer *deadline = nullptr;
    bool forced = false; // the worker ended it: the outcome below, not the reply's
    ScrapeOutcome forcedOutcome = ScrapeOutcome::Ok;
    QString forcedDetail;
};

ScrapeWorker::ScrapeWorker(MetricsScraper *owner, const QList<ScrapeTarget> &targets,
                           const ScraperOptions &options)
    : m_owner(owner), m_targets(targets), m_options(options)
{
    m_enabled.fill(true, targets.size());
    m_inFlightByTarget.fill(nullptr, targets.size());
}

ScrapeWorker::~ScrapeWorker() = default;

void ScrapeWorker::begin()
{
    // Created here, in the scraper's thread: its replies and timers are delivered here.
    m_nam = new QNetworkAccessManager(this);
    // The run's route when the pipeline gives one (its proxy, its CA file); otherwise direct:
    // an application-wide or environment proxy is never applied unnoticed.
    if (m_options.setupManager)
        m_options.setupManager(m_nam);
    else
        m_nam->setProxy(QNetworkProxy::NoProxy);
    // prometheus_client's ASGI app, which vLLM mounts, answers /metrics with a redirect to
    // /metrics/.
    m_nam->setRedirectPolicy(QNetworkRequest::NoLessSafeRedirectPolicy);
    m_cadence = new QTimer(this);
    m_cadence->setTimerType(Qt::PreciseTimer);
    m_cadence->setInterval(m_options.intervalMs);
    connect(m_cadence, &QTimer::timeout, this, [this] { startRound(Round::Periodic); });
    m_cadence->start();
    startRound(Round::First);
}

void ScrapeWorker::finish()
{
    m_finishing = true;
    if (m_cadence)
        m_cadence->stop();
    // The final round starts once no scrape is in flight, so that it measures after the run
    // rather than completing a scrape sent during it.
    if (m_flights.isEmpty())
        startRound(Round::Final);
}

void ScrapeWorker::shutdown()
{
    if (m_cadence)
        m_cadence->stop();
    const QList<QNetworkReply *> replies = m_flights.keys();
    for (QNetworkReply *r : replies) {
        Flight *f = m_flights.take(r);
        r->disconnect(this);
        r->abort();
        r->deleteLater();
        delete f;
    }
    delete m_nam;
    m_nam = nullptr;
    delete m_cadence;
    m_cadence = nullptr;
}

void ScrapeWorker::startRound(Round round)
{
    if (round == Round::Final)
        m_finalStarted = true;
    int started = 0;
    for (int i = 0; i < m_targets.size(); ++i) {
        if (!m_enabled[i])
            continue;
        // With the timeout below the interval a target is never still busy; if a timer was
        // starved, the target skips this round rather than queueing a second request.
        if (m_inFlightByTarget[i])
            continue;
        ++started;
        if (round == Round::First)
            ++m_firstPending;
        else if (round == Round::Final)
            ++m_finalPending;
        startScrape(i, round);
    }
    if (started == 0) {
        if (round == Round::First)
            firstRoundDone.release();
        else if (round == Round::Final)
            finalRoundDone.release();
    }
}

void ScrapeWorker::startScrape(int target, Round round)
{
    const ScrapeTarget &t = m_targets[target];
    QNetworkRequest req(t.url);
    req.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    req.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    req.setTransferTimeout(0); // the worker's own deadline bounds the whole scrape
    req.setRawHeader("Accept", kAccept);
    for (const auto &h : t.headers)
        req.setRawHeader(h.first, h.second);
    if (m_options.setupRequest)
        m_options.setupRequest(&req);

    auto *f = new Flight;
    f->target = target;
    f->round = round;
    f->deadline = new QTimer(this);
    f->deadline->setSingleShot(true);
    f->deadline->setTimerType(Qt::PreciseTimer);
    f->tStart = monotonicNs();
    QNetworkReply *reply = m_nam->get(req);
    m_flights.insert(reply, f);
    m_inFlightByTarget[target] = reply;
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::metaDataChanged, this, [this, reply] { onMetaData(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
    connect(f->deadline, &QTimer::timeout, this, [this, f] {
        abandon(f, ScrapeOutcome::Timeout,
                u"timeout: no complete response within %1 ms"_s.arg(m_options.timeoutMs));
    });
    f->deadline->start(m_options.timeoutMs);
}

void ScrapeWorker::abandon(Flight *f, ScrapeOutcome outcome, const QString &detail)
{
    if (f->forced)
        return;
    f->forced = true;
    f->forcedOutcome = outcome;
    f->forcedDetail = detail;
    QNetworkReply *reply = m_inFlightByTarget.value(f->target);
    if (reply)
        reply->abort(); // finished() follows, possibly right inside abort()
}

void ScrapeWorker::onMetaData(QNetworkReply *reply)
{
    Flight *f = m_flights.value(reply);
    if (!f || f->forced)
        return;
    const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
    if (length.isValid() && length.toLongLong() > m_options.maxPayloadBytes)
        abandon(f, ScrapeOutcome::Oversize,
                u"oversize: Content-Length %1 exceeds the %2-byte cap; payload dropped"_s
                    .arg(length.toLongLong())
                    .arg(m_options.maxPayloadBytes));
}

void ScrapeWorker::onReadyRead(QNetworkReply *reply)
{
    Flight *f = m_flights.value(reply);
    if (!f || f->forced)
        return;
    f->body += reply->readAll();
    if (f->body.size() > m_options.maxPayloadBytes) {
        const qint64 seen = f->body.size();
        f->body.clear();
        abandon(f, ScrapeOutcome::Oversize,
                u"oversize: the body passed the %1-byte cap (%2 bytes read); payload dropped"_s
                    .arg(m_options.maxPayloadBytes)
                    .arg(seen));
    }
}

void ScrapeWorker::onFinished(QNetworkReply *reply)
{
    Flight *f = m_flights.take(reply);
    if (!f)
        return;
    const qint64 tEnd = monotonicNs();
    if (!f->forced)
        f->body += reply->readAll();
    m_inFlightByTarget[f->target] = nullptr;
    f->deadline->stop();
    f->deadline->deleteLater();

    ScrapeRecord rec;
    rec.tNs = f->tStart;
    rec.durationNs = tEnd - f->tStart;
    rec.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    rec.bytes = f->body.size();
    PromParseResult parsed;
    bool haveParsed = false;
    if (f->forced) {
        rec.outcome = f->forcedOutcome;
        rec.detail = f->forcedDetail;
        if (rec.outcome == ScrapeOutcome::Oversize)
            rec.bytes = 0;
    } else if (rec.httpStatus == 0) {
        rec.outcome = ScrapeOutcome::Unreachable;
        rec.detail = u"unreachable: %1"_s.arg(reply->errorString());
    } else if (rec.httpStatus < 200 || rec.httpStatus > 299) {
        rec.outcome = ScrapeOutcome::HttpStatus;
        rec.detail =
            u"HTTP %1 %2"_s.arg(rec.httpStatus)
                .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString());
    } else {
        const QByteArray contentType =
            reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
        const QByteArray type = contentType.trimmed().toLower();
        if (type.startsWith("text/html") || type.startsWith("application/json")) {
            rec.outcome = ScrapeOutcome::NotPrometheus;
            rec.detail = u"not Prometheus text: the server answered %1"_s.arg(
                QString::fromLatin1(contentType.split(';').value(0)));
        } else {
            const PromFormat format = PromParser::isOpenMetricsContentType(contentType)
                                          ? PromFormat::OpenMetrics
                                      : contentType.isEmpty() ? PromFormat::Auto
                                                              : PromFormat::Text004;
            parsed = PromParser::parse(f->body, format);
            rec.samples = parsed.samples;
            rec.malformedLines = int(parsed.errors.size());
            if (parsed.samples == 0) {
                rec.outcome = ScrapeOutcome::NotPrometheus;
                rec.detail = f->body.trimmed().isEmpty()
                                 ? u"not Prometheus text: empty body"_s
                                 : u"not Prometheus text: no line is a metric (%1)"_s.arg(
                                       firstErrors(parsed, 1));
            } else {
                haveParsed = true;
                if (!parsed.errors.isEmpty())
                    rec.detail = u"%1 malformed line(s) skipped: %2"_s.arg(parsed.errors.size())
                                     .arg(firstErrors(parsed, 3));
            }
        }
    }
    const int target = f->target;
    const Round round = f->round;
    delete f;
    reply->deleteLater();

    const bool switchOff = round == Round::First && !rec.ok() && m_targets[target].optional;
    if (switchOff)
        m_enabled[target] = false;
    m_owner->record(target, rec, haveParsed ? &parsed : nullptr, switchOff);
    roundScrapeDone(round);
}

void ScrapeWorker::roundScrapeDone(Round round)
{
    if (round == Round::First && --m_firstPending == 0)
        firstRoundDone.release();
    if (round == Round::Final && --m_finalPending == 0)
        finalRoundDone.release();
    if (m_finishing && !m_finalStarted && m_flights.isEmpty())
        startRound(Round::Final);
}

} // namespace sb
