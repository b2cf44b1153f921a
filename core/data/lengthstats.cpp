#include "lengthstats.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

double percentile(const QList<qint32> &sorted, double p)
{
    const double rank = p / 100.0 * double(sorted.size() - 1);
    const auto lo = qsizetype(std::floor(rank));
    const auto hi = qMin(lo + 1, sorted.size() - 1);
    const double frac = rank - double(lo);
    return double(sorted[lo]) + (double(sorted[hi]) - double(sorted[lo])) * frac;
}

} // namespace

LengthStats LengthStats::of(QList<qint32> values)
{
    LengthStats s;
    if (values.isEmpty())
        return s;
    std::sort(values.begin(), values.end());
    s.count = values.size();
    qint64 sum = 0;
    for (qint32 v : values)
        sum += v;
    s.mean = double(sum) / double(s.count);
    s.min = values.first();
    s.max = values.last();
    s.p50 = percentile(values, 50);
    s.p90 = percentile(values, 90);
    s.p99 = percentile(values, 99);
    return s;
}

QJsonObject LengthStats::toJson() const
{
    return QJsonObject{{u"count"_s, count}, {u"mean"_s, mean}, {u"min"_s, min}, {u"max"_s, max},
                       {u"p50"_s, p50},     {u"p90"_s, p90},   {u"p99"_s, p99}};
}

} // namespace sb
