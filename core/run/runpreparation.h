#pragma once

#include "client/transport.h"
#include "data/dataset.h"
#include "run/metricsplan.h"
#include "run/planvalidation.h"
#include "run/cachecontrol.h"
#include "run/runrequest.h"
#include "shard/shardagent.h"

#include <QByteArray>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

namespace sb {

class ManagedServer;
class Simulator;
class Tokenizer;

// A run request made ready to execute: every file read, every endpoint question asked.
struct PreparedRun
{
    RunRequest request;    // with what preparation resolved: the simulator's URL, the model, the
                           // SUT name, the token calibration
    RunPlan fullPlan;      // the plan before sharding (what a sharded agent's command reproduces)
    LoadedDataset dataset; // prompts and the dataset's identity (a trace's items and hash)
    QList<qint64> traceSchedule; // trace replay: send offsets (ns), one per request
    TransportOptions transportOptions;
    QJsonObject route; // how the SUT is reached (proxy, CA file), for the snapshot
    // The prefix cache's state at the start, for the snapshot (docs/sessions.md): the built-in
    // simulator's is emptied and its model recorded; a server's is as earlier traffic left it.
    QJsonObject prefixCache;
    QByteArray apiKey;                    // memory only: never stored, printed or put in a command
    std::shared_ptr<Simulator> simulator; // the built-in simulator when it is the SUT
    // The model's tokenizer (SutConfig::tokenizer), loaded once; shared, immutable and
    // thread-safe: the dataset was counted with it and transportOptions.tokenizer counts the
    // responses with it. Null when the plan names none.
    std::shared_ptr<const Tokenizer> tokenizer;
    ShardSetup shard;
    // Server metrics scraped beside each run (docs/server-metrics.md); secrets in memory only.
    ScrapePlan scrape;
    QStringList notes; // lines for the user: the simulator, the calibration, the clock offset
    // A managed server (SutConfig::managed; docs/managed-servers.md), healthy. ownsManagedServer:
    // started by this preparation, so the session stops it; otherwise the caller keeps it up (a
    // study's candidate lifetime). When its start failed, prepareRun fails and leaves it here,
    // stopped, so the caller can store its output.
    std::shared_ptr<ManagedServer> managedServer;
    bool ownsManagedServer = false;
    // --cache-policy reset done (docs/cache-audit.md): the counters read right after the reset;
    // the session reads them again when the first requests have finished.
    bool verifyCacheReset = false;
    PrefixCounters cacheBaseline;
};

// What preparation may use from the front end.
struct PrepareContext
{
    QByteArray apiKey;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    // A simulator kept from an earlier run (the workbench keeps one); otherwise one is started.
    std::shared_ptr<Simulator> simulator;
    // A managed server the caller keeps up between runs (a study's candidate lifetime): used as
    // it is when healthy; otherwise preparation starts one.
    std::shared_ptr<ManagedServer> managedServer;
    // Tokens of server-metrics targets that the front end read from the keychain, by their
    // reference ("keychain:NAME"); env:NAME references are read from `environment`.
    QHash<QString, QByteArray> secrets;
    // Called (in the preparing thread) before each step that may take a while.
    std::function<void(const QString &)> progress;
    const std::atomic<bool> *cancelled = nullptr;
};

// The plan's connection mode, idle timeout and response caps onto the transport's options (the
// rest comes from the SUT: CA file, proxy). Once, for the probe, the snapshot's route and the
// run alike. A mode name validateRunRequest would refuse leaves the default (warm).
void applyProfileToTransport(const LoadProfile &profile, TransportOptions *options);

// Validates (validateRunRequest), then prepares: starts the built-in simulator when the SUT is
// the simulator, resolves the route (CA file, proxy), checks that the endpoint answers and which
// models it lists (the run's headers, credentials and timeout), loads and hashes the dataset or
// trace (synthetic prompts calibrated against POST /tokenize unless the request fixes the
// calibration; a multi-turn dataset's sessions; a Mooncake trace's rows, whose prompts are built
// from their hash ids when sent) and, for a shard, takes this agent's share and measures its
// clock offset. The built-in simulator gets the plan's engine model (prefill cost, prefix-cache
// capacity) and starts with an empty prefix cache.
//
// Blocks on disk and network: the workbench calls it from a worker thread. On failure returns
// false with the issue (keyed by the field to blame, e.g. "base-url", "dataset-path", "trace")
// and leaves *out unusable: nothing runs half-prepared.
bool prepareRun(const RunRequest &request, const PrepareContext &context, PreparedRun *out,
                PlanIssue *issue);

} // namespace sb
