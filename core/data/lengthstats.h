#pragma once

#include <QJsonObject>
#include <QList>

namespace sb {

// Token-length summary of a request list. Percentiles interpolate linearly between order
// statistics (numpy's default), as everywhere else in ServeBench.
struct LengthStats
{
    qint64 count = 0;
    double mean = 0;
    qint64 min = 0;
    qint64 max = 0;
    double p50 = 0;
    double p90 = 0;
    double p99 = 0;

    static LengthStats of(QList<qint32> values); // by value: it sorts its copy
    QJsonObject toJson() const;
};

} // namespace sb
