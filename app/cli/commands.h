#pragma once

#include <QStringList>

namespace sb::cli {
int runCommand(const QStringList &args);
int runsCommand(const QStringList &args);
int showCommand(const QStringList &args);
int exportCommand(const QStringList &args);
int mergeCommand(const QStringList &args); // mergecommand.cpp: sharded agents -> one run
// Prefix-cache audit: cold, warm and control passes; see metrics/cacheaudit.h.
int auditCacheCommand(const QStringList &args);
} // namespace sb::cli

#include "simulatecommand.h"
