#include "series.h"

#include "summary.h"

#include <QJsonArray>
#include <QJsonValue>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

void setNote(QString *note, const QString &text)
{
    if (note)
        *note = text;
}

} // namespace

QJsonObject SeriesStats::toJson() const
{
    return QJsonObject{{u"runs"_s, runs},
                       {u"mean"_s, number(mean)},
                       {u"stddev"_s, number(stddev)},
                       {u"cv"_s, number(cv)},
                       {u"min"_s, number(min)},
                       {u"max"_s, number(max)},
                       {u"mean_interval"_s, meanInterval.toJson()}};
}

SeriesStats seriesStats(const QList<double> &values, double confidence)
{
    SeriesStats s;
    s.runs = values.size();
    s.meanInterval = meanInterval(values, confidence);
    if (values.isEmpty())
        return s;
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / double(values.size());
    s.min = *std::min_element(values.cbegin(), values.cend());
    s.max = *std::max_element(values.cbegin(), values.cend());
    if (values.size() >= 2) {
        double ss = 0;
        for (double v : values)
            ss += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(ss / double(values.size() - 1));
        if (s.mean != 0)
            s.cv = s.stddev / std::fabs(s.mean);
    }
    return s;
}

std::optional<double> runLevelValue(const RunSummary &s, const QString &key, QString *note)
{
    const qsizetype dot = key.indexOf(u'.');
    if (dot > 0) {
        const QString metric = key.left(dot);
        const QString stat = key.mid(dot + 1);
        const MetricStats *m = s.stats(metric);
        if (!m) {
            setNote(note, u"unknown metric '%1'"_s.arg(metric));
            return std::nullopt;
        }
        if (m->isEmpty()) {
            setNote(note, u"no %1 samples"_s.arg(metric));
            return std::nullopt;
        }
        if (stat == "mean"_L1)
            return m->mean;
        if (stat == "median"_L1)
            return m->median;
        if (stat == "stddev"_L1)
            return m->stddev;
        if (stat == "min"_L1)
            return m->min;
        if (stat == "max"_L1)
            return m->max;
        if (stat.startsWith(u'p')) {
            bool ok = false;
            const double p = stat.mid(1).toDouble(&ok);
            if (ok && m->hasPercentile(p))
                return m->percentile(p);
            setNote(note, u"the summary has no %1"_s.arg(stat));
            return std::nullopt;
        }
        setNote(note, u"unknown statistic '%1'"_s.arg(stat));
        return std::nullopt;
    }
    if (key == "completed"_L1)
        return double(s.completed);
    if (key == "failed"_L1)
        return double(s.failed);
    if (key == "failure_rate"_L1) {
        const qint64 n = s.completed + s.failed;
        if (n == 0) {
            setNote(note, u"no finished requests"_s);
            return std::nullopt;
        }
        return 100.0 * double(s.failed) / double(n);
    }
    const bool rate = key == "request_throughput"_L1 || key == "output_throughput"_L1 ||
                      key == "total_token_throughput"_L1 || key == "request_goodput"_L1 ||
                      key == "duration"_L1;
    if (!rate) {
        setNote(note, u"unknown key '%1'"_s.arg(key));
        return std::nullopt;
    }
    if (s.durationS <= 0) {
        setNote(note, u"no duration"_s);
        return std::nullopt;
    }
    if (key == "duration"_L1)
        return s.durationS;
    if (key == "request_throughput"_L1)
        return s.requestThroughput;
    if (key == "output_throughput"_L1)
        return s.outputThroughput;
    if (key == "total_token_throughput"_L1)
        return s.totalTokenThroughput;
    if (!s.goodputSet) {
        setNote(note, u"no SLO set"_s);
        return std::nullopt;
    }
    return s.requestGoodput;
}

bool lowerIsBetter(const QString &key)
{
    return !(key == "request_throughput"_L1 || key == "output_throughput"_L1 ||
             key == "total_token_throughput"_L1 || key == "request_goodput"_L1 ||
             key == "completed"_L1);
}

QStringList defaultSeriesKeys(const QList<double> &percentiles)
{
    QStringList keys;
    for (const char *metric : {"ttft", "tpot", "itl", "e2el"}) {
        const QString m = QString::fromLatin1(metric);
        keys << m + u".mean"_s << m + u".median"_s;
        for (double p : percentiles)
            keys << m + u".p"_s + percentileWord(p);
    }
    keys << u"request_throughput"_s << u"output_throughput"_s << u"total_token_throughput"_s
         << u"request_goodput"_s << u"completed"_s << u"failed"_s << u"failure_rate"_s
         << u"duration"_s;
    return keys;
}

QJsonObject SeriesMetric::toJson() const
{
    QJsonArray vals;
    for (double v : values)
        vals.append(number(v));
    QJsonObject o = stats.toJson();
    o.insert(u"key"_s, key);
    o.insert(u"values"_s, vals);
    o.insert(u"lower_is_better"_s, lowerIsBetter(key));
    if (!notes.isEmpty())
        o.insert(u"notes"_s, QJsonArray::fromStringList(notes));
    return o;
}

QList<SeriesMetric> summarizeSeries(const QList<RunSummary> &runs, const QStringList &keys,
                                    double confidence)
{
    QList<SeriesMetric> out;
    for (const QString &key : keys) {
        SeriesMetric m;
        m.key = key;
        for (qsizetype i = 0; i < runs.size(); ++i) {
            QString note;
            const std::optional<double> v = runLevelValue(runs.at(i), key, &note);
            if (v && std::isfinite(*v))
                m.values.append(*v);
            else
                m.notes.append(
                    u"run %1: %2"_s.arg(i + 1).arg(note.isEmpty() ? u"no value"_s : note));
        }
        m.stats = seriesStats(m.values, confidence);
        out.append(m);
    }
    return out;
}

} // namespace sb
