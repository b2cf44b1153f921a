#pragma once

#include <QJsonObject>
#include <QString>

namespace sb {

// The server's state as a run's summary states it (docs/cache-audit.md "Cache policy",
// docs/managed-servers.md): what the cache policy did and what the first requests verified, from
// the result's "cache_policy" block; and the managed server that served the run, from the
// snapshot's "managed_server" block. Empty for an empty block.
QString cachePolicyLine(const QJsonObject &block);
QString managedServerLine(const QJsonObject &block);

} // namespace sb
