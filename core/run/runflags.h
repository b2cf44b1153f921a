#pragma once

#include "run/runrequest.h"

#include <QString>
#include <QStringList>

namespace sb {

// What `servebench-cli run` is asked for beyond the run request itself.
struct RunFlagOptions
{
    bool endpointGiven = false; // else: the built-in simulator
    bool saveResult = false;
    bool saveDetailed = false;
    QString resultDir;
    QString resultFilename;
    QString project;
    QStringList notes; // compatibility flags accepted but not used, and inferences made
    bool help = false;
    QString helpText;
};

// The `servebench-cli run` flags — vLLM's `bench serve` names plus ServeBench's own — are the
// one textual form of a run request: the CLI parses them, and the pipeline writes every run's
// reproducing command in them (runFlags()), whichever front end made the run.
//
// parseRunFlags() reads the syntax (numbers, names, JSON) into *request and stops at the first
// error with a one-line message that names the flag. What the values mean together is checked
// by validateRunRequest() (planvalidation.h), whose issues are keyed by these flag names.
bool parseRunFlags(const QStringList &argv, RunRequest *request, RunFlagOptions *opts,
                   QString *error);

// The flags that make `servebench-cli run` issue `request` again: the same SUT (the built-in
// simulator when the request used it), dataset (with the token calibration it used, so the
// same prompts come out), load profile, request parameters, seed and execution mode. No
// credential appears: the API key comes from OPENAI_API_KEY, and a header whose name looks like
// a secret is written as NAME:<redacted>. Values equal to the CLI's defaults are left out.
QStringList runFlags(const RunRequest &request);

// "servebench-cli run " + runFlags(), each word quoted for a POSIX shell where needed.
QString reproduceCommand(const RunRequest &request);
QString shellQuote(const QString &word);

} // namespace sb
