#pragma once

// The option parser lives in the core (core/common/args.h): the run flags are parsed there too,
// because the pipeline writes every run's reproducing command line in the same flags.
#include "common/args.h"

namespace sb::cli {

using sb::Args;
using sb::OptionSpec;
using sb::parseHeaderArg;

// Prints "servebench-cli <command>: error: <message>" on stderr, one line, and returns code (1 for
// a failure, 2 for a usage error): every command reports errors the same way.
int fail(const QString &command, const QString &message, int code = 1);

} // namespace sb::cli
