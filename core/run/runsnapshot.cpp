#include "runsnapshot.h"

#include "common/version.h"
#include "run/managedserver.h"
#include "run/runflags.h"
#include "run/runpreparation.h"
#include "tokenizer/tokenizer.h"

using namespace Qt::StringLiterals;

namespace sb {

QJsonObject buildRunSnapshot(const PreparedRun &prepared, const RunPlan &plan, qint64 startMonoNs)
{
    // A shard's plan is its share; the command reproduces the agent: the whole plan and --shard.
    RunRequest point = prepared.request;
    point.mode = RunMode::Single;
    point.plan = prepared.request.isSharded() ? prepared.fullPlan : plan;
    if (prepared.request.isSharded())
        point.plan.name = prepared.fullPlan.name;
    point.calibrateTokens = false; // the command carries the calibration this run used

    QJsonObject s = plan.toJson();
    s[u"connection"_s] = prepared.route;
    s[u"dataset_info"_s] = prepared.dataset.info.toJson();
    if (!prepared.prefixCache.isEmpty())
        s[u"prefix_cache"_s] = prepared.prefixCache;
    if (prepared.tokenizer) {
        // Which tokenizer counted this run's tokens: the file by content, not only by path.
        s[u"tokenizer"_s] = QJsonObject{
            {u"path"_s, prepared.tokenizer->path()},
            {u"description"_s, prepared.tokenizer->describe()},
            {u"sha256"_s, prepared.tokenizer->sha256()},
        };
    }
    s[u"command"_s] = reproduceCommand(point);
    s[u"tool_version"_s] = QString::fromLatin1(toolVersion());
    s[u"execution"_s] = QJsonObject{
        {u"transport"_s, QString::fromLatin1(transportKindName(prepared.request.transport))},
        {u"front_end"_s, prepared.request.frontEnd},
    };
    if (prepared.managedServer) {
        // The server this run was served by, as it was when the run began (its log: the
        // project's server_logs row of this instance; docs/managed-servers.md).
        s[u"managed_server"_s] = prepared.managedServer->info();
    }
    if (prepared.shard.active)
        s[u"shard"_s] = shardBlockAt(prepared.shard, startMonoNs);
    return s;
}

} // namespace sb
