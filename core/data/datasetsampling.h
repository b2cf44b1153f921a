#pragma once

#include <QList>
#include <QMap>
#include <QString>

namespace sb {

struct DatasetSpec;
class SeededRng;

// Shared by the prompt loader (dataset.cpp) and the session loader (sessiondataset.cpp), so
// prompts and sessions are sampled and drawn by the same rules.

// "3 prompt_too_short, 1 no_assistant_reply"
QString describeSkips(const QMap<QString, qint64> &reasons);

// The indices of the request list: a seeded permutation of the usable items, cut to numPrompts
// or extended with replacement. `what` names the source in the error, `noun` what is counted.
bool sampleIndices(qint64 available, int numPrompts, bool withReplacement, SeededRng &rng,
                   QList<qint32> *out, qint64 *oversampled, QString *error, const QString &what,
                   const QString &noun = QStringLiteral("prompts"));

// One synthetic length: uniform with the spec's range ratio (vLLM) or normal with the given
// standard deviation, clamped to [lo, hi] (hi 0: no bound).
qint32 drawLength(SeededRng &rng, const DatasetSpec &spec, int mean, int stdev, int lo, int hi);

} // namespace sb
