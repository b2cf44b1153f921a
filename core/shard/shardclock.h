#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

namespace sb {

class EndpointProbe;

// A reading of CLOCK_REALTIME taken together with CLOCK_MONOTONIC. Agents on different hosts
// have unrelated monotonic origins (boot time), so an agent's monotonic record times only mean
// something on a shared axis through such a pair: utc = wallNs + (mono - monoNs).
struct ClockAnchor
{
    qint64 wallNs = 0;     // CLOCK_REALTIME, ns since the Unix epoch (UTC)
    qint64 monoNs = 0;     // CLOCK_MONOTONIC, ns; the midpoint of two reads around wallNs
    qint64 readSpanNs = 0; // the two monotonic reads were this far apart (the pair's error)

    static ClockAnchor now();
    qint64 toWall(qint64 mono) const { return wallNs + (mono - monoNs); }
    qint64 toMono(qint64 wall) const { return monoNs + (wall - wallNs); }

    // 64-bit integers as decimal strings: JSON numbers are doubles, and epoch nanoseconds (and
    // the monotonic time of a host up for more than 104 days) do not fit in 53 bits.
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &o, ClockAnchor *out);
};

// This agent's clock against a reference every agent can see. offsetNs = agent clock minus
// reference clock (positive: the agent is ahead); the reference time of an agent's instant is
// agentWall - offsetNs.
struct ClockOffset
{
    QString source = QStringLiteral("none"); // "http-date" | "none"
    qint64 offsetNs = 0;
    qint64 uncertaintyNs = -1; // half-width of the interval the true offset lies in; -1: unknown
    QString reference;         // the URL whose Date header was read
    QString method;            // "second-edge" | "single-date"
    int probes = 0;
    QString note;

    bool measured() const { return source != QLatin1StringView("none"); }
    QJsonObject toJson() const;
    static ClockOffset fromJson(const QJsonObject &o);
};

// Measures the offset against the HTTP `Date` header of `path` on the SUT (RFC 9110: whole
// seconds, so a single reading only bounds the offset to ±0.5 s plus half the round trip). To do
// better it probes every `intervalMs` until the Date second changes: the server's clock passed
// that whole second between the send of the last old-second probe and the answer to the first
// new-second one, which bounds the offset to about one probe interval plus a round trip. Blocks
// for at most about timeoutMs (one second edge needs up to ~1 s). A server without a Date header
// gives source "none" with a note. The probes carry the run's headers and take its route.
ClockOffset measureHttpDateOffset(EndpointProbe &probe, const QString &path, int timeoutMs,
                                  int intervalMs = 5);

// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) into seconds since the epoch; false
// for anything else.
bool parseHttpDate(const QByteArray &text, qint64 *epochSeconds);

} // namespace sb
