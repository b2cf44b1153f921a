#include "projectfilewatcher.h"

#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>

using namespace Qt::StringLiterals;

namespace sb {

ProjectFileWatcher::ProjectFileWatcher(QObject *parent) : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(300);
    connect(&m_timer, &QTimer::timeout, this, &ProjectFileWatcher::settle);
    // A file event and a folder event are treated alike: both only say "look again".
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &ProjectFileWatcher::noticed);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &ProjectFileWatcher::noticed);
}

void ProjectFileWatcher::setPath(const QString &path)
{
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    m_timer.stop();
    m_path = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    arm();
    m_signature = signature();
}

QByteArray ProjectFileWatcher::signature() const
{
    if (m_path.isEmpty())
        return {};
    // stat() only, never open(): POSIX drops every lock this process holds on a file when it
    // closes any descriptor of it, so reading a byte of FILE or FILE-wal here would unlock the
    // document's own SQLite connection (core/store/projectfile.cpp, OpenFiles) and let another
    // process checkpoint the -wal under it. A commit moves the size or the modification time
    // (nanoseconds); a -wal restarting from its beginning at the same size within one clock
    // tick of the last look would go unseen until the next write.
    QByteArray s;
    for (const QString &suffix : {QString(), u"-wal"_s}) {
        const QByteArray file = QFile::encodeName(m_path + suffix);
        struct stat st;
        // An empty -wal holds no commit: a reader opening the project may create one, and it
        // is no change of what the file says.
        if (::stat(file.constData(), &st) != 0 || (!suffix.isEmpty() && st.st_size == 0)) {
            s += "-;";
            continue;
        }
        s += QByteArray::number(qulonglong(st.st_ino)) + ':' + QByteArray::number(st.st_size) +
             ':' + QByteArray::number(qlonglong(st.st_mtim.tv_sec)) + '.' +
             QByteArray::number(qlonglong(st.st_mtim.tv_nsec)) + ';';
    }
    return s;
}

void ProjectFileWatcher::arm()
{
    if (m_path.isEmpty())
        return;
    const QString folder = QFileInfo(m_path).absolutePath();
    if (!m_watcher.directories().contains(folder))
        m_watcher.addPath(folder);
    // A watched file that was deleted or replaced is no longer watched: add it again.
    for (const QString &file : {m_path, m_path + u"-wal"_s})
        if (QFileInfo::exists(file) && !m_watcher.files().contains(file))
            m_watcher.addPath(file);
}

void ProjectFileWatcher::noticed()
{
    arm();
    // Started by the first event of a burst and not restarted by the others: a writer that
    // never pauses (a long run) still yields a changed() every interval.
    if (!m_timer.isActive())
        m_timer.start();
}

void ProjectFileWatcher::settle()
{
    arm();
    // Only what a write changes counts. An event alone does not: opening the -wal as root makes
    // SQLite chown it to the file's owner (an attribute event on every read of the project,
    // which would make a reader that follows changed() read forever), and a folder event may be
    // about another file of the folder.
    const QByteArray now = signature();
    if (now == m_signature)
        return;
    m_signature = now;
    emit changed();
}

} // namespace sb
