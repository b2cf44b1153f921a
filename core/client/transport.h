#pragma once

#include "client/proxyconfig.h"
#include "config/runplan.h"
#include "metrics/requestrecord.h"

#include <QByteArray>
#include <QObject>
#include <QUrl>

namespace sb {

// One HTTP request the run controller wants sent. The transport fills in tSend and everything
// the response brings, and hands back a finished RequestRecord.
struct RequestJob
{
    QUrl url;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers; // already includes Authorization when keyed
    ApiFlavour flavour = ApiFlavour::Completions;
    qint64 timeoutNs = 0;     // 0 = none
    QUrl proxy;               // the HTTP proxy to go through; empty: direct (set by the transport)
    bool captureText = false; // keep the generated text in record.outputText (session history)
    RequestRecord record;     // index, datasetItem, warmup, requestId, tSched, tQueued, expected*
};

// What every transport honours besides the request itself: certificates to trust besides the
// system's, and the proxy to use per target.
struct TransportOptions
{
    QList<QSslCertificate> extraCaCertificates;
    ProxyConfig proxy;
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
    virtual void submit(RequestJob job) = 0;
    // Ends every stream in flight; each still emits requestFinished with ErrorClass::Cancelled.
    virtual void cancelAll() = 0;
    virtual QString name() const = 0;

signals:
    void requestFinished(const sb::RequestRecord &record);

protected:
    TransportOptions m_options;
};

} // namespace sb
