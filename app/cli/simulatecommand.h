#pragma once

#include <QStringList>

// `servebench-cli simulate [options]`: serves the built-in OpenAI-compatible streaming simulator
// until SIGINT/SIGTERM or --duration ends. args are the words after "simulate". Needs a
// QCoreApplication. Returns 0 on a clean end, 1 when it cannot listen, 2 on a bad flag.
int simulateCommand(const QStringList &args);
