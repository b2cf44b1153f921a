#pragma once

#include "config/runplan.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

// Plain value types read from and written to the project file. They carry database ids and
// bookkeeping next to the config types of core/config; they hold no behaviour, so they share one
// header.

namespace sb {

// The status of a stored run. Named apart from RunController's RunStatus (which also has Idle):
// a stored run is never idle. The names are stable: they are what the file holds.
enum class StoredRunStatus { Running, Completed, Interrupted, Failed };
const char *storedRunStatusName(StoredRunStatus s); // "running" | "completed" | ...
bool storedRunStatusFromName(const QString &name, StoredRunStatus *out);

struct StoredSut
{
    qint64 id = 0;
    SutConfig config; // stored scrubbed of secrets; apiKeyRef names where the key lives
    QDateTime createdUtc;
    QDateTime updatedUtc;
};

struct StoredDataset
{
    qint64 id = 0;
    QString name;
    QString contentHash; // sha256 of the source file + sampling parameters (core/data computes it)
    DatasetSpec spec;
    QDateTime createdUtc;
    QDateTime updatedUtc;
};

struct StoredLoadProfile
{
    qint64 id = 0;
    QString name;
    LoadProfile profile;
    // What each request asks for (temperature, ignore_eos, seed, extra body): kept with the
    // profile so the workbench's runs of it send the same requests. Stored inside profile_json
    // under "request_params"; absent in older files (the defaults).
    RequestParams params;
    // How the workbench executes the profile (single run, sweep, rate search; the HTTP client):
    // core/run's RunExecution as JSON, stored inside profile_json under "execution"; empty in
    // older files (a single run).
    QJsonObject execution;
    QDateTime createdUtc;
    QDateTime updatedUtc;
};

// A set of runs that belong together: a rate sweep or a search for the highest valid rate.
// Runs point at their sweep (RunInfo::sweepId, sweepPosition).
struct StoredSweep
{
    qint64 id = 0;
    QString name;
    QString kind;       // e.g. "rate-sweep", "server-search"
    QJsonObject config; // the sweep's own parameters (scrubbed like every snapshot)
    QDateTime createdUtc;
};

// One scraped target of a run (docs/server-metrics.md): its identity and its scrapes, encoded by
// servermetrics' encodeSeriesStore() (the store keeps the bytes as they are).
struct StoredRunMetrics
{
    int position = 0; // the target's place in the run: 0 is the SUT's own endpoint when scraped
    QString target;   // its name ("sut", "dcgm", ...)
    QString url;      // without user-info
    QString engine;   // the engine detected from its names ("vllm", "dcgm", "unknown", ...)
    int scrapes = 0;
    QByteArray blob;
};

// One start of a managed server (docs/managed-servers.md): the runs it served name its instance
// in their snapshot (managed_server.instance).
struct StoredServerLog
{
    QString instance;
    QString sut;
    QString startedUtc;
    QJsonObject info; // ManagedServer::info(): commands as written, start-up, stop, exit
    QByteArray output;
};

// One run's metadata. beginRun() reads the identity fields (name .. startedMonoNs); the store
// fills the rest. listRuns() leaves snapshot and summary empty; loadRun() fills them.
struct RunInfo
{
    qint64 id = 0;
    QString name;
    qint64 sutId = 0; // 0 = none; the snapshot is the authority, these ids only link entities
    qint64 datasetId = 0;
    qint64 profileId = 0;
    qint64 sweepId = 0;
    int sweepPosition = -1;
    QString toolVersion;              // empty: sb::toolVersion()
    QString host;                     // empty: this machine's host name
    QString metricDefinitionsVersion; // empty: kMetricDefinitionsVersion (metrics/definitions.h)
    QDateTime startedUtc;             // invalid: now
    qint64 startedMonoNs = 0;         // 0: now (CLOCK_MONOTONIC)

    // As ProjectStore reports it: a run stored as 'running' whose writer is gone (RunLock) reads
    // as Interrupted, with a message saying so, even before any writer has marked it.
    StoredRunStatus status = StoredRunStatus::Running;
    QString statusMessage; // why a run failed or was interrupted
    QDateTime endedUtc;    // for an interrupted run: the time of its last committed batch
    qint64 endedMonoNs = 0;
    qint64 requestCount = 0; // records committed
    QDateTime lastCommitUtc; // the writer's last committed batch (running runs: progress)
    QJsonObject snapshot;
    QJsonObject summary;
};

// A cost line (docs/cost.md) as the project file holds it. Money is an integer: amountMinor /
// 10^amountScale in `currency` (scale 2 = cents; pricing-page rates often need more digits than
// an invoice). The columns carry what queries and reports need; `details` keeps the cost
// module's whole item (BillItem::toJson: quantity, increment unit, notes ...) so nothing the
// user entered is lost.
struct BillItemRow
{
    qint64 id = 0;
    QString category; // gpu | cpu | storage | network | platform | other (checked by the schema)
    QString provider;
    QString resourceId;
    QDateTime startUtc;
    QDateTime endUtc;
    qint64 amountMinor = 0;
    int amountScale = 2;
    QString amountKind = QStringLiteral("total"); // total | rate
    QString currency;                             // ISO 4217
    QString billingUnit;                          // e.g. "hour", "second", "month"
    qint64 minIncrementS = 0;
    QString notes;  // idle, start/stop, autoscaling
    QString source; // invoice | quote | pricing_page
    QString reference;
    bool confirmed = false;
    QJsonObject details;
};

// The user's decision for a bill item that only overlaps a test window, by the cost module's
// overlapRuleName(): "undecided" | "prorate" | "whole" (checked by the schema). Items inside or
// outside the window need no rule.
struct WindowBillRule
{
    qint64 billItemId = 0;
    QString rule;
};

struct TestWindowRow
{
    qint64 id = 0;
    QString name;
    qint64 sutId = 0;
    QDateTime startUtc;
    QDateTime endUtc;
    QList<qint64> runIds;
    QList<WindowBillRule> billRules;
};

} // namespace sb
