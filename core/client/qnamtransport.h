#pragma once

#include "client/transport.h"

#include <QList>

class QThread;

namespace sb {

class QnamWorker;

// Streams over a pool of QNetworkAccessManagers spread across a few worker threads: one
// manager per 6 concurrent streams, because Qt 6.4 opens at most 6 connections per host for
// one manager and queues the rest silently.
class QnamTransport : public Transport
{
    Q_OBJECT
public:
    explicit QnamTransport(QObject *parent = nullptr);
    ~QnamTransport() override;

    void prepare(int maxConcurrentStreams) override;
    // Thread-safe: the run controller's dispatcher thread calls it directly.
    bool prewarm(const QUrl &target, int connections, qint64 deadlineNs, QString *error) override;
    void submit(RequestJob job) override;
    void cancelAll() override;
    QString name() const override;

    int managerCount() const { return m_managers; }
    int threadCount() const { return int(m_threads.size()); }

private:
    void shutdown();

    QList<QThread *> m_threads;
    QList<QnamWorker *> m_workers;
    int m_managers = 0;
};

} // namespace sb
