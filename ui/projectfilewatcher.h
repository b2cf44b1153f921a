#pragma once

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

namespace sb {

// Says when a project file changed on disk, whoever wrote it: another process (the CLI's
// `bills import`, `window create`), a worker thread of this one, or this one. The project is
// SQLite in WAL mode (core/store/projectfile.cpp): a commit lands in FILE-wal and reaches FILE
// only at a checkpoint, and the last connection to close deletes FILE-wal, so both are watched,
// and the folder too: a -wal created or deleted (or a file replaced by a rename) drops out of the
// file watch and is watched again from the folder's event (docs/cost-project.md, "The cost page").
// Events are debounced: a burst of commits (a run writes a batch every few hundred ms) becomes one
// changed() per interval, never one per write.
class ProjectFileWatcher : public QObject
{
    Q_OBJECT
public:
    explicit ProjectFileWatcher(QObject *parent = nullptr);

    // The project file to watch; empty stops watching.
    void setPath(const QString &path);
    QString path() const { return m_path; }
    // How long after the first event of a burst changed() follows (default 300 ms).
    void setDebounceMs(int ms) { m_timer.setInterval(ms); }

signals:
    void changed();

private:
    // What a write to FILE or FILE-wal changes: inode, size and modification time (ns).
    // Compared after each burst of events, so that only a write is reported.
    QByteArray signature() const;
    void arm();
    void noticed();
    void settle();

    QString m_path;
    QFileSystemWatcher m_watcher;
    QTimer m_timer;
    QByteArray m_signature; // as of the last changed() (or setPath)
};

} // namespace sb
