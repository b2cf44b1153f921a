#pragma once

#include "storetypes.h"

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

class QThread;

namespace sb {

struct RequestRecord;

// Streams a run's request records into the project file from a thread of its own, with its own
// SQLite connection opened in that thread: network threads only queue records (append() is
// cheap and thread-safe) and never touch SQL. Records are committed in batched transactions
// whenever `maxBatch` records wait or the oldest has waited `maxDelayMs`, so memory stays bounded
// over a run of any length and a killed process loses at most the last batch.
//
// A failed write (full disk, read-only or damaged file) is never silent: the failing batch is
// rolled back, the run is marked failed with the reason, writeFailed() is emitted once, later
// records are counted as dropped and finishRun() returns false. The caller stops the run.
//
// The project must already be open at the current schema (ProjectStore::open migrates it).
class RunWriter : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        int maxBatch = 5000;  // records per transaction at most
        int maxDelayMs = 500; // a queued record waits at most this long (twice a second)
        // Caps the file at this many pages (PRAGMA max_page_count); tests use it to produce a
        // genuine "disk full" without filling a disk. 0 = no cap.
        qint64 maxPageCount = 0;
    };

    explicit RunWriter(QObject *parent = nullptr);
    ~RunWriter() override; // close()

    // Starts the writer thread and opens its connection there; blocks until that is done.
    bool open(const QString &path, QString *error = nullptr);
    bool open(const QString &path, const Options &options, QString *error = nullptr);
    // Commits what is queued, marks a run still active as interrupted, ends the thread.
    void close();
    bool isOpen() const;

    // Inserts the run (status running) and makes it the one append() writes to. The snapshot
    // passes through scrubSecrets() before it is stored. Blocks until the row is committed.
    // Returns the run id, 0 on failure.
    qint64 beginRun(const QJsonObject &snapshot, const RunInfo &meta, QString *error = nullptr);
    // Any thread. Queues the record for the active run; dropped (and counted) when no run is
    // active or after a write failure.
    void append(const RequestRecord &record);
    // Blocks until everything appended before the call is committed.
    bool flush(QString *error = nullptr);
    // Commits the queue, then stores status, summary and end times (invalid / 0: now). After a
    // write failure the run stays 'failed' and this returns false with the failure's message.
    bool finishRun(StoredRunStatus status, const QJsonObject &summary, const QString &message = {},
                   const QDateTime &endedUtc = {}, qint64 endedMonoNs = 0,
                   QString *error = nullptr);

    qint64 currentRunId() const { return m_activeRun.load(); }
    bool hasFailed() const { return m_failed.load(); }
    QString errorString() const;
    qint64 committedCount() const { return m_committed.load(); } // records of the active run
    qint64 droppedCount() const { return m_dropped.load(); }
    qint64 queuedCount() const;
    qint64 batchesCommitted() const { return m_batches.load(); }

signals:
    // Emitted once, from the writer thread: connect with a queued (or auto) connection.
    void writeFailed(const QString &message);

private:
    struct State;
    void threadMain();

    std::unique_ptr<State> m_state;
    QThread *m_thread = nullptr;
    std::atomic<qint64> m_activeRun{0};
    std::atomic<bool> m_failed{false};
    std::atomic<qint64> m_committed{0};
    std::atomic<qint64> m_dropped{0};
    std::atomic<qint64> m_batches{0};
};

} // namespace sb
