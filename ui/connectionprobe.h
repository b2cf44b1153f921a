#pragma once

#include "client/transport.h"
#include "config/runplan.h"

#include <QList>
#include <QObject>
#include <QStringList>
#include <memory>

namespace sb {

class BackgroundJobs;
class EndpointProbe;

struct ConnectionProbeResult
{
    enum class Verdict { Failed, Streams, Buffers, Inconclusive, Answers };

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
// measured through it is meaningless). The requests are core's EndpointProbe's, the one probe
// the CLI's endpoint check and the shard clock use too, read by the run's StreamAccumulator;
// they run in a worker thread and results arrive through finished().
class ConnectionProbe : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionProbe(QObject *parent = nullptr);
    ~ConnectionProbe() override;

    void start(const SutConfig &sut, const QByteArray &apiKey, int timeoutMs = 20000);
    void cancel();
    bool isRunning() const { return m_running; }

    // The rule behind the verdict (EndpointProbe::judge), apart so it can be tested on recorded
    // times. The time before the first chunk plays no part: a long TTFT with fast tokens is
    // streaming.
    static ConnectionProbeResult::Verdict judge(const QList<qint64> &chunkTimesNs, qint64 sendNs);

signals:
    void progress(const QString &message);
    void finished(const sb::ConnectionProbeResult &result);

private:
    static QString describe(const ConnectionProbeResult &r);

    BackgroundJobs *m_jobs;
    std::shared_ptr<EndpointProbe> m_probe; // the one in flight: cancel() reaches it
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace sb

Q_DECLARE_METATYPE(sb::ConnectionProbeResult)
