#include "runlock.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

struct flock byteOf(qint64 runId, short type)
{
    struct flock fl;
    std::memset(&fl, 0, sizeof fl);
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = off_t(runId);
    fl.l_len = 1;
    fl.l_pid = 0; // required for OFD locks
    return fl;
}

QString errnoText(int e)
{
    return QString::fromLocal8Bit(std::strerror(e));
}

} // namespace

RunLock::~RunLock()
{
    release();
}

QString RunLock::lockPath(const QString &projectPath)
{
    return projectPath + u"-lock"_s;
}

bool RunLock::acquire(const QString &projectPath, qint64 runId, QString *error)
{
    release();
    const QString path = lockPath(projectPath);
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        if (error)
            *error = u"cannot create the run lock %1: %2"_s.arg(path, errnoText(errno));
        return false;
    }
    struct flock fl = byteOf(runId, F_WRLCK);
    if (::fcntl(fd, F_OFD_SETLK, &fl) != 0) {
        const int e = errno;
        ::close(fd);
        if (error)
            *error = (e == EAGAIN || e == EACCES)
                         ? u"run %1 of %2 is being written already"_s.arg(runId).arg(
                               QFileInfo(projectPath).fileName())
                         : u"cannot lock %1: %2"_s.arg(path, errnoText(e));
        return false;
    }
    m_fd = fd;
    m_runId = runId;
    return true;
}

void RunLock::release()
{
    if (m_fd < 0)
        return;
    // Closing the only descriptor of the open file description drops its locks.
    ::close(m_fd);
    m_fd = -1;
    m_runId = 0;
}

RunLock::Writer RunLock::probe(const QString &projectPath, qint64 runId, QString *detail)
{
    const QString path = lockPath(projectPath);
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return Writer::Gone; // no writer has ever locked a run of this project
        if (detail)
            *detail = u"cannot read %1: %2"_s.arg(path, errnoText(errno));
        return Writer::Unknown;
    }
    // F_OFD_GETLK reports a lock that would conflict with ours, held by any other open file
    // description, in this process or another.
    struct flock fl = byteOf(runId, F_WRLCK);
    const int rc = ::fcntl(fd, F_OFD_GETLK, &fl);
    const int e = errno;
    ::close(fd);
    if (rc != 0) {
        if (detail)
            *detail = u"cannot test the lock in %1: %2"_s.arg(path, errnoText(e));
        return Writer::Unknown;
    }
    return fl.l_type == F_UNLCK ? Writer::Gone : Writer::Alive;
}

} // namespace sb
