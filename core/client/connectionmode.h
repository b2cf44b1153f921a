#pragma once

#include <QList>
#include <QString>

namespace sb {

// When the client opens the connections a run's requests travel on.
//   Warm        open the connections the run will need (one per stream of its concurrency cap)
//               before its clock starts; requests then find one ready, so connection set-up is in
//               no request's times. The default.
//   PerRequest  a new connection for every request, closed after its response: what vLLM's
//               benchmark client does (an aiohttp session per request), so TTFT includes the TCP
//               (and TLS) handshake every time.
//   Lazy       open a connection when a request finds none idle, keep it alive and reuse it: the
//               first request on each connection pays the set-up.
enum class ConnectionMode : quint8 { Warm, PerRequest, Lazy };

// "warm" | "per-request" | "lazy": stable, stored in run snapshots and given on command lines.
const char *connectionModeName(ConnectionMode mode);
// Accepts the names above (case-insensitive, '_' for '-'); false for anything else.
bool connectionModeFromName(const QString &name, ConnectionMode *out);

// How many connections warm mode opens before a run: the concurrency cap when the run has one
// (closed loop or --max-concurrency); otherwise (an uncapped open loop, whose cap is only its
// request count) the requests due in the schedule's first second, at least one, at most the
// cap — later ones reuse what finished requests leave or open their own.
int warmConnectionCount(int cap, bool capped, const QList<qint64> &scheduleOffsetsNs);

} // namespace sb
