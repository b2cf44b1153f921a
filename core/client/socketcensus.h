#pragma once

#include <QHostAddress>
#include <QList>
#include <QSet>

#include <optional>

namespace sb {

// This process's established TCP connections to `port` on any of `peers`, as socket inodes: the
// sockets among /proc/self/fd, their state and peer from /proc/self/net/tcp and tcp6. It lets
// warm mode wait for connections that QNetworkAccessManager opens but never reports
// (connectToHost() says nothing when the handshake is done); inodes, not a count, so connections
// that close meanwhile are not mistaken for new ones missing. Empty optional when /proc cannot
// be read: then nobody can tell.
std::optional<QSet<quint64>> establishedTcpSockets(const QList<QHostAddress> &peers, quint16 port);

// One line of /proc/net/tcp or tcp6 read into what the census needs; false for the header or a
// line it cannot read. Exposed for its test.
struct ProcTcpEntry
{
    QHostAddress remote;
    quint16 remotePort = 0;
    bool established = false;
    quint64 inode = 0;
};
bool parseProcTcpLine(const QByteArray &line, ProcTcpEntry *out);

} // namespace sb
