#pragma once

#include <QStringList>

namespace sb::cli {
int runCommand(const QStringList &args);
} // namespace sb::cli

#include "simulatecommand.h"
