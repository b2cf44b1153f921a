#pragma once

#include "client/transport.h"

#include <QHash>
#include <QObject>
#include <atomic>
#include <memory>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

namespace sb {

class StreamAccumulator;

// Lives in one worker thread and owns a few QNetworkAccessManagers there. Each manager opens at
// most 6 connections per host in Qt 6.4, so a request goes to the manager with the fewest
// streams open; the transport hands this worker no more than 6 x managers streams at once.
class QnamWorker : public QObject
{
    Q_OBJECT
public:
    QnamWorker(int managers, const TransportOptions &options, QObject *parent = nullptr);
    ~QnamWorker() override;

    int capacity() const { return m_capacity; }
    // Streams submitted to this worker and not yet finished; updated from several threads.
    std::atomic<int> inFlight{0};

public slots:
    void setUp();
    // Asks manager i to open perManager[i] connections (at most 6) to target's origin for the
    // requests that follow.
    void prewarm(const QUrl &target, const QList<int> &perManager);
    void start(sb::RequestJob job);
    void cancelAll();
    void tearDown();

signals:
    void finished(const sb::RequestRecord &record);

private:
    struct Stream;
    void onReadyRead(QNetworkReply *reply);
    void onFinished(QNetworkReply *reply);
    void onTimeout(QNetworkReply *reply);
    void armTimer(Stream *s);
    void complete(QNetworkReply *reply, ErrorClass error, const QString &message);

    int m_capacity = 0;
    int m_managerCount = 0;
    TransportOptions m_options;
    QList<QNetworkAccessManager *> m_managers;
    QList<int> m_managerLoad;
    QHash<QNetworkReply *, Stream *> m_streams;
    QByteArray m_buffer;
};

} // namespace sb
