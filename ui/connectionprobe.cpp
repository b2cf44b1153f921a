#include "connectionprobe.h"

#include "client/endpointprobe.h"
#include "client/requestbuilder.h"
#include "common/backgroundjobs.h"

#include <QProcessEnvironment>

using namespace Qt::StringLiterals;

namespace sb {

namespace {
constexpr int kProbeTokens = 32;

ConnectionProbeResult::Verdict toVerdict(StreamProbe::Verdict v)
{
    using V = ConnectionProbeResult::Verdict;
    switch (v) {
    case StreamProbe::Verdict::Streams:
        return V::Streams;
    case StreamProbe::Verdict::Buffers:
        return V::Buffers;
    case StreamProbe::Verdict::Inconclusive:
        return V::Inconclusive;
    case StreamProbe::Verdict::Answers:
        return V::Answers;
    case StreamProbe::Verdict::Failed:
        break;
    }
    return V::Failed;
}
} // namespace

ConnectionProbe::ConnectionProbe(QObject *parent)
    : QObject(parent), m_jobs(new BackgroundJobs(this))
{
    qRegisterMetaType<sb::ConnectionProbeResult>();
}

ConnectionProbe::~ConnectionProbe()
{
    cancel();
    delete m_jobs; // joins the probe in flight
    m_jobs = nullptr;
}

ConnectionProbeResult::Verdict ConnectionProbe::judge(const QList<qint64> &chunkTimesNs,
                                                      qint64 /*sendNs*/)
{
    return toVerdict(EndpointProbe::judge(chunkTimesNs));
}

void ConnectionProbe::start(const SutConfig &sut, const QByteArray &apiKey, int timeoutMs)
{
    cancel();
    m_running = true;
    const quint64 generation = ++m_generation;
    // The same CA file and proxy as a run of this SUT will use; resolving reads the CA file, so
    // it happens in the worker too.
    const auto say = [this, generation](const QString &message) {
        QMetaObject::invokeMethod(
            this,
            [this, generation, message] {
                if (generation == m_generation)
                    emit progress(message);
            },
            Qt::QueuedConnection);
    };
    struct Outcome
    {
        ConnectionProbeResult result;
    };
    // The probe object is made here so cancel() can reach it while the worker uses it.
    m_probe = std::make_shared<EndpointProbe>(sut, apiKey, TransportOptions(), timeoutMs);
    std::shared_ptr<EndpointProbe> shared = m_probe;
    m_jobs->run(
        [sut, say, shared] {
            Outcome o;
            ConnectionProbeResult &r = o.result;
            TransportOptions options;
            QString why;
            if (!resolveTransportOptions(sut, QProcessEnvironment::systemEnvironment(), &options,
                                         &why)) {
                r.modelsError = why;
                return o;
            }
            EndpointProbe &probe = *shared;
            probe.setTransportOptions(options);
            const QUrl modelsUrl = probe.url(u"/v1/models"_s);
            if (!modelsUrl.isValid() || modelsUrl.host().isEmpty()) {
                r.modelsError = tr("the base URL is not a valid http(s) URL");
                return o;
            }
            say(tr("Listing models at %1 …").arg(modelsUrl.toDisplayString()));
            const ModelList models = probe.models();
            r.modelsStatus = models.status;
            r.models = models.models;
            r.modelsError = models.error;
            if (!models.reachable)
                return o; // nothing answered: the streamed request would fail the same way
            if (probe.isCancelled())
                return o;
            r.model = sut.model.isEmpty() && !r.models.isEmpty() ? r.models.first() : sut.model;
            SutConfig target = sut;
            target.model = r.model;
            say(tr("Sending one streamed request to %1 …")
                    .arg(endpointUrl(target).toDisplayString()));
            const StreamProbe s = probe.stream(r.model, kProbeTokens);
            r.streamStatus = s.record.httpStatus;
            r.tokenChunks = int(s.record.chunkTimes.size());
            r.reads = s.reads;
            r.ttftMs = s.ttftMs();
            r.spreadMs = s.spreadMs();
            r.totalMs = s.totalMs();
            if (!s.record.ok())
                r.streamError = s.record.errorMessage.isEmpty()
                                    ? QString::fromLatin1(errorClassName(s.record.error))
                                    : s.record.errorMessage;
            r.verdict = toVerdict(s.verdict);
            return o;
        },
        [this, generation](Outcome o) {
            if (generation != m_generation)
                return; // cancelled, or a newer test started
            m_running = false;
            m_probe.reset();
            o.result.message = describe(o.result);
            emit finished(o.result);
        });
}

void ConnectionProbe::cancel()
{
    if (m_probe)
        m_probe->cancel();
    m_probe.reset();
    ++m_generation;
    m_running = false;
}

QString ConnectionProbe::describe(const ConnectionProbeResult &r)
{
    QStringList lines;
    if (!r.modelsError.isEmpty())
        lines << tr("Models: %1.").arg(r.modelsError);
    else
        lines << tr("Models: %1.").arg(r.models.join(u", "_s));
    using V = ConnectionProbeResult::Verdict;
    switch (r.verdict) {
    case V::Streams:
        lines << tr("The endpoint streams: %1 token chunks arrived over %2 ms in %3 reads, "
                    "first after %4 ms (model %5).")
                     .arg(r.tokenChunks)
                     .arg(r.spreadMs, 0, 'f', 1)
                     .arg(r.reads)
                     .arg(r.ttftMs, 0, 'f', 1)
                     .arg(r.model);
        break;
    case V::Buffers:
        lines << tr("The endpoint buffers the answer: all %1 token chunks arrived within %2 ms, "
                    "%3 ms after sending. A proxy or gateway is probably buffering; TTFT and ITL "
                    "measured through it are not the server's.")
                     .arg(r.tokenChunks)
                     .arg(r.spreadMs, 0, 'f', 1)
                     .arg(r.totalMs, 0, 'f', 1);
        break;
    case V::Inconclusive:
        lines << tr("Only one token chunk arrived: cannot tell whether the endpoint streams.");
        break;
    case V::Answers:
        lines << tr("The endpoint answered in %1 ms (embeddings or rerank: not streamed, so "
                    "there is no TTFT or ITL; model %2).")
                     .arg(r.totalMs, 0, 'f', 1)
                     .arg(r.model);
        break;
    case V::Failed:
        lines << tr("The streamed request failed: %1")
                     .arg(r.streamError.isEmpty() ? tr("no token arrived") : r.streamError);
        break;
    }
    if (r.verdict != V::Failed && !r.streamError.isEmpty())
        lines << tr("Note: %1").arg(r.streamError);
    return lines.join(u'\n');
}

} // namespace sb
