#pragma once

#include "client/transport.h"
#include "config/runplan.h"
#include "metrics/cacheaudit.h"
#include "run/planvalidation.h"

#include <QJsonObject>
#include <QObject>

#include <memory>

namespace sb {

class RunController;
class Simulator;

// What the prefix-cache audit is asked for (`servebench-cli audit-cache`, the workbench's
// Tools → Cache audit): the SUT and the shape of its three passes.
struct CacheAuditRequest
{
    SutConfig sut;          // builtInSimulator: an audit simulator with its prefix cache on
    int numPrompts = 32;    // prompts per pass
    int inputLen = 512;     // prompt length in tokens (words), prefix included
    int outputLen = 1;      // max_tokens: only TTFT matters
    int maxConcurrency = 1; // requests in flight, so requests do not interfere
    quint64 seed = 0;       // seed of the prompt bodies
    double timeoutS = 600;

    QJsonObject parametersJson() const;
};

// Issues keyed like the CLI flags ("num-prompts", "random-input-len", …; "base-url", "header").
QList<PlanIssue> validateCacheAudit(const CacheAuditRequest &request);

// A request made ready: the endpoint answered (the model resolved), the simulator started.
struct PreparedCacheAudit
{
    CacheAuditRequest request;
    QByteArray apiKey; // memory only
    TransportOptions transportOptions;
    std::shared_ptr<Simulator> simulator;
    QString note; // what was audited, in one line
};

// Blocks on the network (the workbench calls it from a worker thread).
bool prepareCacheAudit(const CacheAuditRequest &request, const QByteArray &apiKey,
                       PreparedCacheAudit *out, PlanIssue *issue);

// Runs the audit's three passes one after the other (see core/metrics/cacheaudit.h): A cold
// (new unique prefixes), B warm (A's prompts again), C control (the same bodies behind new
// prefixes). Lives in the caller's thread like RunSession; the requests run in the transport's
// threads.
class CacheAuditRun : public QObject
{
    Q_OBJECT
public:
    explicit CacheAuditRun(PreparedCacheAudit prepared, QObject *parent = nullptr);
    ~CacheAuditRun() override;

    bool start(QString *error);
    void stop();
    bool isRunning() const { return m_running; }
    const CacheAuditResult &result() const { return m_result; }
    // The result JSON as `audit-cache --json` writes it: result, tool version, date, SUT
    // (no credentials), parameters.
    QJsonObject resultJson() const;

signals:
    void passStarted(int index, const QString &label); // 0, 1, 2
    // ok false: stopped (error empty) or failed (error says why).
    void finished(bool ok, const QString &error);

private:
    void startPass();
    void onPassFinished();

    PreparedCacheAudit m_prepared;
    QList<QList<RequestRecord>> m_records; // per pass
    QStringList m_bodies;
    QString m_nonce;
    std::unique_ptr<RunController> m_controller;
    CacheAuditResult m_result;
    bool m_running = false;
    bool m_stopped = false;
};

} // namespace sb
