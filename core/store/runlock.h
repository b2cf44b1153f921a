#pragma once

#include <QString>

namespace sb {

// Tells a live run from a dead one. The process writing a run holds an exclusive lock on one
// byte (at offset = the run's id) of a lock file beside the project, "<project>-lock". The
// operating system drops the lock when that process ends in any way (exit, crash, kill -9), so
// any reader — another process or another thread of the writer's own — sees at once whether a
// run marked 'running' still has its writer, without waiting for a writer to open the file and
// without trusting a process id that may have been reused.
//
// The locks are open-file-description locks (Linux F_OFD_SETLK): unlike POSIX record locks they
// belong to the open file, not to the process, so a reader in the writer's own process sees the
// writer's lock, and closing some other descriptor of the file never drops it. The lock file is
// separate from the SQLite files because SQLite holds POSIX locks on those, which any close() of
// another descriptor of the same file by this process would release.
//
// The lock file is created by the first writer and left in place (an empty file): removing it
// while another writer holds a byte of it would hide that writer from every later reader.
class RunLock
{
public:
    enum class Writer {
        Alive,   // some open file description holds the run's byte
        Gone,    // nobody holds it (or there is no lock file: no writer ever ran here)
        Unknown, // the lock file could not be read (permissions, a file system without locks)
    };

    RunLock() = default;
    ~RunLock(); // release()
    RunLock(const RunLock &) = delete;
    RunLock &operator=(const RunLock &) = delete;

    static QString lockPath(const QString &projectPath);

    // Takes the run's byte, creating the lock file if needed. Fails (with *error) when the file
    // cannot be created or locked, or another writer holds the byte already.
    bool acquire(const QString &projectPath, qint64 runId, QString *error = nullptr);
    void release();
    bool isHeld() const { return m_fd >= 0; }
    qint64 runId() const { return m_runId; }

    // Whether a writer holds run `runId` of the project. Never creates or changes a file.
    // *detail (optional) gets the reason for Unknown.
    static Writer probe(const QString &projectPath, qint64 runId, QString *detail = nullptr);

private:
    int m_fd = -1;
    qint64 m_runId = 0;
};

} // namespace sb
