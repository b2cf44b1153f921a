#include "shardclock.h"

#include "client/endpointprobe.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QThread>
#include <QTimeZone>
#include <QTimer>
#include <time.h>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
qint64 readClock(clockid_t id)
{
    timespec ts;
    clock_gettime(id, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

qint64 parseInt64(const QJsonValue &v, bool *ok)
{
    if (v.isString())
        return v.toString().toLongLong(ok);
    *ok = v.isDouble();
    return v.toInteger();
}
} // namespace

ClockAnchor ClockAnchor::now()
{
    // Take the pair with the tightest bracket out of a few tries: a preemption between the
    // reads would otherwise put milliseconds of error into every record of the agent.
    ClockAnchor best;
    best.readSpanNs = std::numeric_limits<qint64>::max();
    for (int i = 0; i < 5; ++i) {
        const qint64 m0 = readClock(CLOCK_MONOTONIC);
        const qint64 w = readClock(CLOCK_REALTIME);
        const qint64 m1 = readClock(CLOCK_MONOTONIC);
        if (m1 - m0 < best.readSpanNs) {
            best.wallNs = w;
            best.monoNs = m0 + (m1 - m0) / 2;
            best.readSpanNs = m1 - m0;
        }
    }
    return best;
}

QJsonObject ClockAnchor::toJson() const
{
    return QJsonObject{
        {u"wall_utc_ns"_s, QString::number(wallNs)},
        {u"monotonic_ns"_s, QString::number(monoNs)},
        {u"read_span_ns"_s, readSpanNs},
        {u"wall_utc"_s, QDateTime::fromMSecsSinceEpoch(wallNs / 1'000'000, QTimeZone::utc())
                            .toString(Qt::ISODateWithMs)}};
}

bool ClockAnchor::fromJson(const QJsonObject &o, ClockAnchor *out)
{
    bool ok1 = false, ok2 = false;
    out->wallNs = parseInt64(o.value(u"wall_utc_ns"_s), &ok1);
    out->monoNs = parseInt64(o.value(u"monotonic_ns"_s), &ok2);
    out->readSpanNs = o.value(u"read_span_ns"_s).toInteger();
    return ok1 && ok2 && out->wallNs > 0;
}

QJsonObject ClockOffset::toJson() const
{
    QJsonObject o{{u"source"_s, source},
                  {u"offset_ns"_s, QString::number(offsetNs)},
                  {u"offset_ms"_s, double(offsetNs) / 1e6},
                  {u"uncertainty_ms"_s,
                   uncertaintyNs < 0 ? QJsonValue() : QJsonValue(double(uncertaintyNs) / 1e6)},
                  {u"probes"_s, probes},
                  {u"sign"_s, u"agent clock minus reference clock"_s}};
    if (!reference.isEmpty())
        o[u"reference"_s] = reference;
    if (!method.isEmpty())
        o[u"method"_s] = method;
    if (!note.isEmpty())
        o[u"note"_s] = note;
    return o;
}

ClockOffset ClockOffset::fromJson(const QJsonObject &o)
{
    ClockOffset c;
    c.source = o.value(u"source"_s).toString(u"none"_s);
    bool ok = false;
    c.offsetNs = parseInt64(o.value(u"offset_ns"_s), &ok);
    const QJsonValue u = o.value(u"uncertainty_ms"_s);
    c.uncertaintyNs = u.isDouble() ? qint64(u.toDouble() * 1e6) : -1;
    c.reference = o.value(u"reference"_s).toString();
    c.method = o.value(u"method"_s).toString();
    c.probes = o.value(u"probes"_s).toInt();
    c.note = o.value(u"note"_s).toString();
    return c;
}

bool parseHttpDate(const QByteArray &text, qint64 *epochSeconds)
{
    // IMF-fixdate is the only form a server may send (RFC 9110 §5.6.7); the obsolete RFC 850 and
    // asctime forms are not worth a clock measurement.
    const QString s = QString::fromLatin1(text).trimmed();
    if (!s.endsWith(" GMT"_L1))
        return false;
    QDateTime dt = QLocale::c().toDateTime(s.chopped(4), u"ddd, dd MMM yyyy HH:mm:ss"_s);
    if (!dt.isValid())
        return false;
    dt.setTimeZone(QTimeZone::utc());
    *epochSeconds = dt.toSecsSinceEpoch();
    return true;
}

ClockOffset measureHttpDateOffset(EndpointProbe &probe, const QString &path, int timeoutMs,
                                  int intervalMs)
{
    ClockOffset result;
    result.reference = probe.url(path).toString(QUrl::RemoveUserInfo);
    struct Probe
    {
        qint64 sendNs;
        qint64 recvNs;
        qint64 dateS;
    };
    QList<Probe> probes;
    QElapsedTimer elapsed;
    elapsed.start();
    QString failure;
    bool edge = false;
    while (elapsed.elapsed() < timeoutMs) {
        const ProbeReply reply = probe.get(path);
        if (!reply.answered) {
            failure = reply.error;
            break;
        }
        const QByteArray date = reply.header("Date");
        qint64 dateS = 0;
        if (date.isEmpty() || !parseHttpDate(date, &dateS)) {
            failure = date.isEmpty()
                          ? u"the server sends no Date header"_s
                          : u"unreadable Date header '%1'"_s.arg(QString::fromLatin1(date));
            break;
        }
        probes.append({reply.sendWallNs, reply.recvWallNs, dateS});
        const qsizetype n = probes.size();
        if (n >= 2 && probes[n - 1].dateS == probes[n - 2].dateS + 1) {
            edge = true;
            break;
        }
        if (elapsed.elapsed() + intervalMs >= timeoutMs)
            break;
        QThread::msleep(ulong(intervalMs));
    }

    result.probes = int(probes.size());
    if (probes.isEmpty()) {
        result.note = u"clock offset not measured (%1); host clocks are trusted (keep them "
                      "NTP-synchronised)"_s.arg(failure.isEmpty() ? u"no answer"_s : failure);
        return result;
    }
    result.source = u"http-date"_s;
    if (edge) {
        // The server's clock read exactly `date` seconds somewhere between the send of the
        // last old-second probe and the answer to the first new-second one.
        const Probe &before = probes.at(probes.size() - 2);
        const Probe &after = probes.constLast();
        const qint64 lo = before.sendNs;
        const qint64 hi = after.recvNs;
        result.method = u"second-edge"_s;
        result.offsetNs = lo + (hi - lo) / 2 - after.dateS * 1'000'000'000;
        result.uncertaintyNs = (hi - lo) / 2;
        result.note = u"HTTP Date has 1 s resolution; the offset comes from the instant the "
                      "server's second changed, bracketed by two probes"_s;
    } else {
        // One reading: the server's clock was in [date, date + 1 s) during the exchange.
        const Probe &p = probes.constLast();
        result.method = u"single-date"_s;
        result.offsetNs =
            p.sendNs + (p.recvNs - p.sendNs) / 2 - (p.dateS * 1'000'000'000 + 500'000'000);
        result.uncertaintyNs = 500'000'000 + (p.recvNs - p.sendNs) / 2;
        result.note = u"HTTP Date has 1 s resolution and no second change was seen: the offset "
                      "is known to ±0.5 s only"_s;
    }
    return result;
}

} // namespace sb
