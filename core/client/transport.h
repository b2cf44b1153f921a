#pragma once

#include "client/connectionmode.h"
#include "client/proxyconfig.h"
#include "client/responselimits.h"
#include "config/runplan.h"
#include "metrics/requestrecord.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QUrl>

#include <memory>

namespace sb {

class Tokenizer;

// One HTTP request the run controller wants sent. The transport fills in tSend and everything
// the response brings, and hands back a finished RequestRecord.
struct RequestJob
{
    QUrl url;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers; // already includes Authorization when keyed
    ApiFlavour flavour = ApiFlavour::Completions;
    qint64 timeoutNs = 0;     // the whole request, from t_send; 0 = none
    qint64 idleTimeoutNs = 0; // between response bytes (and until the first); 0 = the options'
    QUrl proxy;               // the HTTP proxy to go through; empty: direct (set by the transport)
    bool captureText = false; // keep the generated text in record.outputText (session history)
    // Cancellation load (LoadProfile::cancelRatePct): the transport closes the stream
    // cancelAfterNs after the request was fully written (t_request_written; >= 0), or once
    // cancelAfterChunks token chunks arrived (> 0), and finishes the record with
    // ErrorClass::CancelledByLoad. A response that ends first completes normally.
    qint64 cancelAfterNs = -1;
    int cancelAfterChunks = 0;
    RequestRecord record;     // index, datasetItem, warmup, requestId, tSched, tQueued, expected*
};

// The message a transport gives a record it closed for the cancellation load: "cancelled by the
// load after 5 token chunks" or "cancelled by the load 0.2 s after the request was written".
QString loadCancelMessage(qint64 cancelAfterNs, int cancelAfterChunks);

// What every transport honours besides the request itself: certificates to trust besides the
// system's, the proxy to use per target, when connections are opened, the caps on a response,
// and the idle timeout.
struct TransportOptions
{
    QList<QSslCertificate> extraCaCertificates;
    ProxyConfig proxy;
    // Honoured by the transport for PerRequest (no reuse) and Lazy/Warm (reuse); opening the
    // warm connections is the caller's prewarm() before the run's clock starts.
    ConnectionMode connectionMode = ConnectionMode::Warm;
    ResponseLimits limits;
    // A request whose response sends no byte for this long (counted from t_send until the first
    // byte, then between reads) fails with ErrorClass::Timeout. 0 = none. RequestJob's own
    // idleTimeoutNs, when set, wins.
    qint64 idleTimeoutNs = 0;
    // The model's tokenizer (--tokenizer): every response's text is counted with it in the
    // worker that read it (StreamAccumulator::setTokenizer). Null: no client-side count.
    std::shared_ptr<const Tokenizer> tokenizer;
};

// A streaming HTTP transport. Implementations run their I/O in worker threads of their own;
// submit() may be called from the thread that owns the transport; requestFinished is emitted
// from a worker thread, so connect it with a queued (or auto) connection.
class Transport : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~Transport() override = default;

    // Before prepare(): the options apply to connections opened afterwards.
    void setOptions(const TransportOptions &options) { m_options = options; }
    const TransportOptions &options() const { return m_options; }

    // Prepares capacity for this many simultaneously open streams (connections to one host).
    virtual void prepare(int maxConcurrentStreams) = 0;
    // After prepare(), before the run's clock starts (ConnectionMode::Warm): opens `connections`
    // connections to target's origin (through its proxy, TLS included for https) and keeps them
    // idle for the requests that follow. Blocks until all are open or deadlineNs
    // (CLOCK_MONOTONIC) passes. False with *error when fewer opened; those that did stay open.
    virtual bool prewarm(const QUrl &target, int connections, qint64 deadlineNs,
                         QString *error) = 0;
    virtual void submit(RequestJob job) = 0;
    // Ends every stream in flight; each still emits requestFinished with ErrorClass::Cancelled.
    virtual void cancelAll() = 0;
    virtual QString name() const = 0;
    // What the transport counted over its life (one run): {} when it counts nothing. The socket
    // transport: reads stamped by the kernel and by the wake-up, and late reads.
    virtual QJsonObject counters() const { return {}; }

signals:
    void requestFinished(const sb::RequestRecord &record);

protected:
    TransportOptions m_options;
};

} // namespace sb
