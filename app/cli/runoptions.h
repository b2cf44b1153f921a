#pragma once

#include "config/runplan.h"

#include <QString>
#include <QStringList>

namespace sb::cli {

class Args;

// What `servebench-cli run` was asked for beyond the run plan itself.
struct RunCliOptions
{
    bool endpointGiven = false; // else: the built-in simulator
    bool modelGiven = false;
    bool saveResult = false;
    bool saveDetailed = false;
    QString resultDir;
    QString resultFilename;
    QString project;
    // --transport: the HTTP client, "socket" (default) or "qnam" (run/runcontroller.h names)
    QString transport = QStringLiteral("socket");
    int shardIndex = 0; // --shard I/N: this agent's share of the plan
    int shardCount = 1;
    qint64 startAtMs = 0; // --start-at EPOCH_MS: shared start (UTC ms); 0 = now
    int sweep = 0;        // --sweep N
    bool findMaxValidRate = false;
    double rateTolerance = 0.05;
    QStringList notes; // compatibility flags that were accepted but not used
    bool help = false;
    QString helpText;
    QStringList commandLine; // the arguments as given, for the reproduction command
};

// Parses vLLM-style `bench serve` flags into a plan. On error returns false with a one-line
// message that names the flag.
bool parseRunOptions(const QStringList &argv, RunPlan *plan, RunCliOptions *opts, QString *error);

} // namespace sb::cli
