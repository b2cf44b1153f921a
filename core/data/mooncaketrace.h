#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace sb {

// One request of a trace in the Mooncake format (kvcache-ai/Mooncake, FAST'25 trace release,
// docs/sessions.md), one JSON object per line:
//   {"timestamp": 27482, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47, …]}
// timestamp: arrival in milliseconds, relative; input_length and output_length: token counts;
// hash_ids: one id per block of blockTokens input tokens (512 in the published traces), the last
// block holding the remainder. Equal ids stand for equal prompt blocks — the same prefix — so a
// replay that turns each id into the same text reproduces the trace's prefix reuse.
struct MooncakeRow
{
    double timestampMs = 0;
    qint32 inputLength = 0;
    qint32 outputLength = 0;
    QList<qint64> hashIds;
    int line = 0; // 1-based line in the file
};

// Reads a trace. Blank lines are skipped. Every field is required; an error names the file, the
// line and the field: a missing or non-integer "hash_ids", an id count other than
// ceil(input_length / blockTokens) (the published traces keep this without exception), a
// timestamp earlier than the previous line's ("times going backwards"), lengths below 1. Nothing
// is returned on an error: a replay never runs half-loaded.
bool parseMooncakeTrace(const QByteArray &data, const QString &sourceName, int blockTokens,
                        QList<MooncakeRow> *rows, QString *error);
bool loadMooncakeTrace(const QString &path, int blockTokens, QList<MooncakeRow> *rows,
                       QString *error);

// The prompt of a row: block j is the first len_j words of the text that hash id j stands for
// (blockTokens synthetic words drawn from a generator seeded by the id), so equal ids give equal
// text whatever request they appear in. Words are the simulator's tokens; a real server's
// tokenizer splits them differently but the shared prefixes stay shared.
QString mooncakePrompt(const QList<qint64> &hashIds, int inputLength, int blockTokens);

// The prefix reuse a trace implies, from its hash ids alone, for a prefix cache of unbounded
// capacity that caches whole blocks of `granularity` tokens (a divisor of blockTokens; the
// simulator's block size): a request's cached tokens are its leading blocks whose id appeared in
// an earlier request — each a full blockTokens, a short last block rounded down to a multiple of
// granularity. hitRate = Σ cached / Σ input_length over the rows in order (0 for no input).
struct TracePrefixReuse
{
    qint64 inputTokens = 0;
    qint64 cachedTokens = 0;
    double hitRate = 0;
};
TracePrefixReuse mooncakePrefixReuse(const QList<MooncakeRow> &rows, int blockTokens,
                                     int granularity);

} // namespace sb
