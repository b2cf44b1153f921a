#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

class QJsonObject;

namespace sb {

// The built-in simulator's embeddings and rerank endpoints (docs/simulator.md; docs/metrics.md,
// "Embeddings and rerank"): the request as it reads it and the answer it renders. Timing and
// faults are SimServer's; this is the wire format only.
struct SimPoolingRequest
{
    bool rerank = false;
    QString query;      // rerank
    QStringList inputs; // embeddings: the inputs; rerank: the documents
    int topN = -1;      // rerank: results returned (-1: all)
    // Embeddings: "encoding_format": "base64" asks for each vector as the base64 of its
    // little-endian float32 values (OpenAI's SDKs ask for it by default); else a list of floats.
    bool base64 = false;
    // Embeddings: the inputs' tokens (words, as the simulator counts; a token-id array counts
    // its ids). Rerank: the query's tokens beside every document, as a cross-encoder reads them.
    int promptTokens = 0;
    QString error; // why the body is not a valid request (answered with 400)
};

// Embeddings (OpenAI, vLLM): "input" a string, a list of strings, a list of token ids or a list
// of such lists. Rerank (vLLM, Jina, Cohere): "query" a string, "documents" a list of strings
// or of {"text": …} objects, optional "top_n".
SimPoolingRequest parsePoolingRequest(const QJsonObject &body, bool rerank);

// {"object":"list","data":[{"object":"embedding","index":i,"embedding":[…]}…],"model",
// "usage":{"prompt_tokens","total_tokens"}}: one unit vector of `dimensions` floats per input,
// drawn from (seed, the input's text), so the same text embeds the same on every call; with
// base64, "embedding" is the base64 of the float32 values.
QByteArray embeddingsBody(const SimPoolingRequest &request, const QByteArray &modelJson,
                          quint64 seq, int dimensions, quint64 seed);

// vLLM's rerank answer: {"id","model","usage":{"prompt_tokens","total_tokens"},"results":[{
// "index","document":{"text"},"relevance_score"}…]} with the top_n highest scores first; a
// document's score in (0, 1) is drawn from (seed, query, document).
QByteArray rerankBody(const SimPoolingRequest &request, const QByteArray &modelJson, quint64 seq,
                      quint64 seed);

} // namespace sb
