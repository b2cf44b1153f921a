#pragma once

// Bit-for-bit comparison of two MetricStats, for the tests that claim two ways of computing
// them agree exactly (pooled and streamed samples). QCOMPARE on doubles is fuzzy
// (qFuzzyCompare), which would pass a last-bit difference.
#include "metrics/stats.h"

#include <QString>

#include <bit>

namespace sb::testing {

// The first difference as a sentence ("stddev: 0x... vs 0x..."), empty when every field is
// identical: count, method, mean, median, stddev, min, max and each (p, value) of percentiles.
inline QString exactStatsDifference(const MetricStats &a, const MetricStats &b)
{
    using namespace Qt::StringLiterals;
    const auto bits = [](double x) {
        return std::bit_cast<quint64>(x);
    };
    const auto field = [&](const char *name, double x, double y) {
        return bits(x) == bits(y) ? QString()
                                  : u"%1: %2 (%3) vs %4 (%5)"_s.arg(QString::fromLatin1(name))
                                        .arg(x, 0, 'g', 17)
                                        .arg(bits(x), 16, 16, QChar(u'0'))
                                        .arg(y, 0, 'g', 17)
                                        .arg(bits(y), 16, 16, QChar(u'0'));
    };
    if (a.count != b.count)
        return u"count: %1 vs %2"_s.arg(a.count).arg(b.count);
    if (a.method != b.method)
        return u"method differs"_s;
    for (const QString &d : {field("mean", a.mean, b.mean), field("median", a.median, b.median),
                             field("stddev", a.stddev, b.stddev), field("min", a.min, b.min),
                             field("max", a.max, b.max)})
        if (!d.isEmpty())
            return d;
    if (a.percentiles.size() != b.percentiles.size())
        return u"percentiles: %1 vs %2 values"_s.arg(a.percentiles.size())
            .arg(b.percentiles.size());
    for (qsizetype i = 0; i < a.percentiles.size(); ++i) {
        const QString p = field("p", a.percentiles.at(i).first, b.percentiles.at(i).first);
        const QString v =
            field("percentile value", a.percentiles.at(i).second, b.percentiles.at(i).second);
        if (!p.isEmpty() || !v.isEmpty())
            return u"percentile %1: %2"_s.arg(a.percentiles.at(i).first).arg(p + v);
    }
    return {};
}

} // namespace sb::testing
