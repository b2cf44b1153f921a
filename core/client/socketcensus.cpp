#include "socketcensus.h"

#include <QByteArrayList>
#include <QFile>
#include <QSet>

#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace sb {

namespace {

// The kernel prints an address as the hex of the 32-bit words it holds in memory (%08X each), so
// copying each parsed word back into memory gives the address's bytes on any byte order.
bool parseAddress(QByteArrayView hex, QHostAddress *out)
{
    if (hex.size() != 8 && hex.size() != 32)
        return false;
    quint8 bytes[16] = {};
    for (qsizetype w = 0; w < hex.size() / 8; ++w) {
        bool ok = false;
        const quint32 word = hex.sliced(w * 8, 8).toByteArray().toUInt(&ok, 16);
        if (!ok)
            return false;
        std::memcpy(bytes + 4 * w, &word, 4);
    }
    if (hex.size() == 8) {
        quint32 v4 = 0;
        for (int i = 0; i < 4; ++i)
            v4 = (v4 << 8) | bytes[i];
        out->setAddress(v4);
    } else {
        out->setAddress(bytes);
    }
    return true;
}

QSet<quint64> ownSocketInodes(bool *readable)
{
    QSet<quint64> inodes;
    DIR *dir = ::opendir("/proc/self/fd");
    *readable = dir != nullptr;
    if (!dir)
        return inodes;
    const int dirFd = ::dirfd(dir);
    while (const dirent *e = ::readdir(dir)) {
        char target[64];
        const ssize_t n = ::readlinkat(dirFd, e->d_name, target, sizeof target - 1);
        if (n <= 0)
            continue;
        const QByteArrayView link(target, n);
        if (link.startsWith("socket:[") && link.endsWith("]"))
            inodes.insert(link.sliced(8, link.size() - 9).toByteArray().toULongLong());
    }
    ::closedir(dir);
    return inodes;
}

} // namespace

bool parseProcTcpLine(const QByteArray &line, ProcTcpEntry *out)
{
    // "  sl  local_address rem_address   st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout
    // inode"
    const QByteArrayList f = line.simplified().split(' ');
    if (f.size() < 10 || !f[0].endsWith(':'))
        return false;
    const qsizetype colon = f[2].indexOf(':');
    if (colon < 0)
        return false;
    bool ok = false;
    const uint port = f[2].mid(colon + 1).toUInt(&ok, 16);
    if (!ok || port > 0xffff || !parseAddress(QByteArrayView(f[2]).first(colon), &out->remote))
        return false;
    out->remotePort = quint16(port);
    out->established = f[3] == "01"; // TCP_ESTABLISHED
    out->inode = f[9].toULongLong(&ok);
    return ok;
}

std::optional<QSet<quint64>> establishedTcpSockets(const QList<QHostAddress> &peers, quint16 port)
{
    bool readable = false;
    const QSet<quint64> own = ownSocketInodes(&readable);
    if (!readable)
        return std::nullopt;
    QSet<quint64> found;
    bool readAny = false;
    for (const char *table : {"/proc/self/net/tcp", "/proc/self/net/tcp6"}) {
        QFile f(QString::fromLatin1(table));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        readAny = true;
        // /proc files report size 0, so atEnd() is true at once: readAll() reads to EOF.
        const QByteArrayList lines = f.readAll().split('\n');
        for (const QByteArray &line : lines) {
            ProcTcpEntry e;
            if (!parseProcTcpLine(line, &e) || !e.established || e.remotePort != port ||
                !own.contains(e.inode))
                continue;
            for (const QHostAddress &p : peers) {
                if (p.isEqual(e.remote, QHostAddress::ConvertV4MappedToIPv4)) {
                    found.insert(e.inode);
                    break;
                }
            }
        }
    }
    if (!readAny)
        return std::nullopt;
    return found;
}

} // namespace sb
