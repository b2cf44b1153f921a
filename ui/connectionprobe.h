#pragma once

#include "client/transport.h"
#include "config/runplan.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

class QNetworkAccessManager;
class QNetworkReply;

namespace sb {

class SseParser;

struct ConnectionProbeResult
{
    enum class Verdict { Failed, Streams, Buffers, Inconclusive };

    QStringList models; // ids listed by GET /v1/models
    int modelsStatus = 0;
    QString modelsError;
    QString model; // the model the streamed request used
    int streamStatus = 0;
    QString streamError;
    int tokenChunks = 0;
    int reads = 0;        // readyRead deliveries that carried token chunks
    double ttftMs = -1;   // first token chunk after sending
    double spreadMs = -1; // first to last token chunk
    double totalMs = -1;  // sending to last token chunk
    Verdict verdict = Verdict::Failed;
    QString message; // one paragraph for the user
};

// "Test connection" for a SUT: lists /v1/models, then sends one short streamed request and judges
// from the arrival times of its token chunks whether the endpoint really streams or buffers the
// whole answer (a proxy or gateway with buffering on makes TTFT equal E2EL, and every latency
// measured through it is meaningless). Non-blocking: results arrive through finished().
class ConnectionProbe : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionProbe(QObject *parent = nullptr);
    ~ConnectionProbe() override;

    void start(const SutConfig &sut, const QByteArray &apiKey, int timeoutMs = 20000);
    void cancel();
    bool isRunning() const { return m_running; }

    // The rule behind the verdict, apart so it can be tested on recorded times. A streaming
    // endpoint spreads its chunks over the generation time; a buffering one delivers them
    // together, whatever its TTFT. Streams when first-to-last spans at least 5 ms and the chunks
    // came in at least three separate arrivals (more than 1 ms apart; two for two chunks). The
    // time before the first chunk plays no part: a long TTFT with fast tokens is streaming.
    static ConnectionProbeResult::Verdict judge(const QList<qint64> &chunkTimesNs, qint64 sendNs);

signals:
    void progress(const QString &message);
    void finished(const sb::ConnectionProbeResult &result);

private:
    void onModelsFinished();
    void startStream();
    void onStreamData();
    void onStreamFinished();
    void handleEvent(QByteArrayView data, qint64 nowNs);
    void finish();
    QString describe() const;

    QNetworkAccessManager *m_nam;
    QPointer<QNetworkReply> m_reply;
    SseParser *m_parser;
    SutConfig m_sut;
    TransportOptions m_options;
    QByteArray m_key;
    int m_timeoutMs = 20000;
    bool m_running = false;
    bool m_sawDone = false;
    qint64 m_sendNs = 0;
    qint64 m_lastReadWithToken = -1;
    QList<qint64> m_chunkTimes;
    ConnectionProbeResult m_result;
};

} // namespace sb

Q_DECLARE_METATYPE(sb::ConnectionProbeResult)
