#pragma once

#include "config/runplan.h"

#include <QStringList>

namespace sb::cli {

struct EndpointCheck
{
    bool reachable = false; // an HTTP answer of any status came back
    int httpStatus = 0;
    QStringList models; // ids from GET /v1/models
    QString error;
    bool settingsError = false; // error is about the SUT's CA file or proxy, not the network
    QString route;              // "direct" or the proxy it went through (no credentials)
};

// Blocks (with its own event loop) for at most timeoutMs: the CLI has nothing else to do yet.
EndpointCheck checkEndpoint(const SutConfig &sut, const QByteArray &apiKey, int timeoutMs);

} // namespace sb::cli

namespace sb::cli {

// Calibrates synthetic prompts against the server's own tokenizer through POST /tokenize (vLLM
// offers it): the slope of token count over word count between two prompt lengths, so a BOS
// token or chat template does not bias it. Returns 0 when the server has no /tokenize.
double measureTokensPerWord(const SutConfig &sut, const QByteArray &apiKey, int timeoutMs,
                            QString *note);

} // namespace sb::cli
