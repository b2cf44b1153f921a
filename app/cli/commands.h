#pragma once

#include <QStringList>

namespace sb::cli {
int runCommand(const QStringList &args);
int runsCommand(const QStringList &args);
int showCommand(const QStringList &args);
int exportCommand(const QStringList &args);
} // namespace sb::cli

#include "simulatecommand.h"
