#include "datasetsampling.h"

#include "seededrng.h"

#include "config/runplan.h"

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

QString describeSkips(const QMap<QString, qint64> &reasons)
{
    QStringList parts;
    for (auto it = reasons.cbegin(); it != reasons.cend(); ++it)
        parts.append(u"%1 %2"_s.arg(it.value()).arg(it.key()));
    return parts.join(u", "_s);
}

// The indices of the request list: a seeded permutation of the usable items, cut to numPrompts
// or extended with replacement.
bool sampleIndices(qint64 available, int numPrompts, bool withReplacement, SeededRng &rng,
                   QList<qint32> *out, qint64 *oversampled, QString *error, const QString &what,
                   const QString &noun)
{
    QList<qint32> order(available);
    for (qint32 i = 0; i < qint32(available); ++i)
        order[i] = i;
    rng.shuffle(order);
    *oversampled = 0;
    if (numPrompts > 0 && numPrompts < available) {
        order.resize(numPrompts);
    } else if (numPrompts > available) {
        if (!withReplacement) {
            *error =
                u"%1: %2 %4 requested but only %3 usable items; lower the number of %4 "
                "or allow sampling with replacement (with_replacement) to repeat items"_s.arg(what)
                    .arg(numPrompts)
                    .arg(available)
                    .arg(noun);
            return false;
        }
        *oversampled = numPrompts - available;
        order.reserve(numPrompts);
        for (qint64 i = available; i < numPrompts; ++i)
            order.append(qint32(rng.below(quint64(available))));
    }
    *out = order;
    return true;
}

qint32 drawLength(SeededRng &rng, const DatasetSpec &spec, int mean, int stdev, int lo, int hi)
{
    if (spec.randomDistribution == LengthDistribution::Normal) {
        const double v = std::round(double(mean) + double(stdev) * rng.normal());
        const double upper = hi > 0 ? double(hi) : double(std::numeric_limits<qint32>::max());
        return qint32(qBound(double(qMax(lo, 1)), v, upper));
    }
    // vLLM: integers uniform in [floor(len * (1 - r)), floor(len * (1 + r))], at least 1.
    const auto low =
        qMax<qint64>(1, qint64(std::floor(double(mean) * (1.0 - spec.randomRangeRatio))));
    const auto high =
        qMax<qint64>(low, qint64(std::floor(double(mean) * (1.0 + spec.randomRangeRatio))));
    if (low == high)
        return qint32(low);
    return qint32(rng.between(low, high));
}

} // namespace sb
