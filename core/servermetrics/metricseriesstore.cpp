#include "metricseriesstore.h"

#include <QUrl>
#include <algorithm>
#include <cstring>

namespace sb {

QByteArray MetricSeriesStore::Series::label(const QByteArray &name) const
{
    for (const auto &l : labels) {
        if (l.first == name)
            return l.second;
    }
    return {};
}

void MetricSeriesStore::setIdentity(const QString &targetName, const QString &url)
{
    m_targetName = targetName;
    QUrl u(url);
    if (u.isValid() && !u.userInfo().isEmpty()) {
        u.setUserInfo(QString());
        m_url = u.toString();
    } else {
        m_url = url;
    }
}

void MetricSeriesStore::addScrape(const ScrapeRecord &record, const PromParseResult *parsed)
{
    // A scrape that finished out of order (never by the scraper's own cadence, but the API
    // allows it) goes where its time says, and so do its points.
    qsizetype at = m_scrapes.size();
    while (at > 0 && m_scrapes[at - 1].tNs > record.tNs)
        --at;
    m_scrapes.insert(at, record);
    if (!parsed || !record.ok())
        return;
    for (const PromFamily &f : parsed->families) {
        for (const PromSample &s : f.samples) {
            const QByteArray key = PromParser::seriesKey(s.name, s.labels);
            auto it = m_index.constFind(key);
            if (it == m_index.constEnd()) {
                Series series;
                series.key = key;
                series.name = s.name;
                series.labels = s.labels;
                series.type = f.type;
                addSeries(series);
                it = m_index.constFind(key);
            }
            Series &series = m_series[*it];
            qsizetype pos = series.tNs.size();
            while (pos > 0 && series.tNs[pos - 1] > record.tNs)
                --pos;
            // The same series twice in one payload (a broken exporter): the first one counts.
            if (pos > 0 && series.tNs[pos - 1] == record.tNs)
                continue;
            series.tNs.insert(pos, record.tNs);
            series.values.insert(pos, s.value);
        }
    }
}

void MetricSeriesStore::addSeries(const Series &series)
{
    const auto existing = m_index.constFind(series.key);
    if (existing != m_index.constEnd()) {
        m_series[*existing] = series;
        return;
    }
    m_index.insert(series.key, m_series.size());
    m_byName[series.name].append(m_series.size());
    m_series.append(series);
}

const MetricSeriesStore::Series *MetricSeriesStore::find(const QByteArray &key) const
{
    const auto it = m_index.constFind(key);
    return it == m_index.constEnd() ? nullptr : &m_series[*it];
}

QList<const MetricSeriesStore::Series *>
MetricSeriesStore::seriesNamed(const QByteArray &name) const
{
    QList<const Series *> out;
    const auto it = m_byName.constFind(name);
    if (it == m_byName.constEnd())
        return out;
    for (qsizetype i : *it)
        out.append(&m_series[i]);
    return out;
}

QList<QByteArray> MetricSeriesStore::sampleNames() const
{
    QList<QByteArray> names;
    names.reserve(m_byName.size());
    for (const Series &s : m_series) {
        if (names.isEmpty() || names.back() != s.name) {
            if (!names.contains(s.name))
                names.append(s.name);
        }
    }
    return names;
}

qsizetype MetricSeriesStore::pointCount() const
{
    qsizetype n = 0;
    for (const Series &s : m_series)
        n += s.values.size();
    return n;
}

bool MetricSeriesStore::operator==(const MetricSeriesStore &o) const
{
    if (m_targetName != o.m_targetName || m_url != o.m_url || m_scrapes != o.m_scrapes ||
        m_series.size() != o.m_series.size())
        return false;
    for (qsizetype i = 0; i < m_series.size(); ++i) {
        const Series &a = m_series[i], &b = o.m_series[i];
        if (a.key != b.key || a.name != b.name || a.labels != b.labels || a.type != b.type ||
            a.tNs != b.tNs || a.values.size() != b.values.size())
            return false;
        // Bit for bit: NaN equals NaN, and 0.0 differs from -0.0.
        if (!std::equal(a.values.cbegin(), a.values.cend(), b.values.cbegin(),
                        [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }))
            return false;
    }
    return true;
}

} // namespace sb
