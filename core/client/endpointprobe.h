#pragma once

#include "client/transport.h"
#include "config/runplan.h"
#include "metrics/requestrecord.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <atomic>
#include <functional>

namespace sb {

// One answer (or the lack of one) to a probe request.
struct ProbeReply
{
    QUrl url;
    bool answered = false; // an HTTP status line came back, whatever the status
    int status = 0;
    QByteArray body; // at most kMaxProbeBodyBytes; `truncated` says when more came
    bool truncated = false;
    QList<QPair<QByteArray, QByteArray>> headers;
    qint64 sendNs = 0; // CLOCK_MONOTONIC around the exchange
    qint64 recvNs = 0;
    qint64 sendWallNs = 0; // CLOCK_REALTIME around the exchange (clock-offset probes)
    qint64 recvWallNs = 0;
    QString error; // what went wrong, in words ("no HTTP reply within 10 s")

    QByteArray header(const QByteArray &name) const; // case-insensitive; empty when absent
    // The start of the body for a message: printable, at most 120 characters.
    QString excerpt() const;
};

// GET /v1/models, read.
struct ModelList
{
    bool reachable = false; // an HTTP answer of any status came back
    int status = 0;
    QStringList models;
    QString error; // why the list is missing or empty; empty when models were listed
};

// One short streamed request, read by the same StreamAccumulator as the runs.
struct StreamProbe
{
    // Answers: an embeddings or rerank endpoint gave its (non-streamed) answer, one result per
    // input (docs/metrics.md, "Embeddings and rerank").
    enum class Verdict { Failed, Streams, Buffers, Inconclusive, Answers };
    QString model;
    RequestRecord record; // as a run would have recorded it
    int reads = 0;        // reads that brought at least one token chunk
    Verdict verdict = Verdict::Failed;

    double ttftMs() const;
    double spreadMs() const; // first to last token chunk
    double totalMs() const;  // send to last token chunk
};

// Every request ServeBench sends to a SUT outside a run — the model list, /tokenize calibration,
// the streamed connection test, the HTTP Date probes of distributed agents — goes through this
// one client, so each carries exactly what the run's requests carry: the API key as
// Authorization, the SUT's extra headers, its CA file and proxy route, and the run's timeout.
//
// Blocking: each call runs its own event loop until the answer is complete or the timeout has
// passed. Use it from the CLI's main thread or from a worker thread (the workbench); cancel()
// may be called from any thread.
class EndpointProbe
{
public:
    static constexpr qsizetype kMaxProbeBodyBytes = 4 * 1024 * 1024;

    EndpointProbe(const SutConfig &sut, const QByteArray &apiKey, const TransportOptions &options,
                  int timeoutMs);

    // The URL of a path on the SUT's server (a base URL ending in /v1 loses it first).
    QUrl url(const QString &path) const;
    // "direct" or the proxy a request to url goes through (without credentials).
    QString route(const QUrl &url) const;

    ProbeReply get(const QString &path);
    ProbeReply postJson(const QString &path, const QByteArray &json);

    ModelList models();
    // POST /tokenize {"model", "prompt"} as vLLM offers it: the token count, or -1 with *why.
    int tokenizeCount(const QString &model, const QString &prompt, QString *why);
    // One streamed request of maxTokens tokens (ignore_eos on, so a model that stops early does
    // not look like a buffering proxy); the verdict follows judge().
    StreamProbe stream(const QString &model, int maxTokens = 32);

    // A streaming endpoint spreads its chunks over the generation time; a buffering one delivers
    // them together, whatever its TTFT. Streams when first-to-last spans at least 5 ms and the
    // chunks came in at least three separate arrivals (more than 1 ms apart; two for two
    // chunks). The time before the first chunk plays no part: a long TTFT with fast tokens is
    // streaming.
    static StreamProbe::Verdict judge(const QList<qint64> &chunkTimesNs);

    // Before the first request: the route (CA file, proxy) when it is resolved later than the
    // probe is made (the workbench resolves it in the worker that probes).
    void setTransportOptions(const TransportOptions &options) { m_options = options; }
    void cancel() { m_cancelled = true; }
    bool isCancelled() const { return m_cancelled.load(); }

private:
    ProbeReply exchange(const QByteArray &method, const QUrl &url, const QByteArray &body,
                        const std::function<void(int, const QByteArray &, qint64)> &onData);

    SutConfig m_sut;
    QByteArray m_apiKey;
    TransportOptions m_options;
    int m_timeoutMs;
    std::atomic<bool> m_cancelled{false};
};

} // namespace sb
