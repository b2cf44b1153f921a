#pragma once

#include "promparser.h"
#include "scraperecord.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

namespace sb {

// Everything scraped from one target during one run: each scrape's record, and per series the
// values it had at each successful scrape, at the scrape's monotonic time on the run's clock.
// Timestamps the server wrote into the exposition are not kept: one clock for every sample.
//
// A series is one sample name with one label set (its canonical key, PromParser::seriesKey).
// A series that a scrape did not contain simply has no point at that time.
//
// Not thread-safe: the scraper fills its own store in its thread and hands over copies.
class MetricSeriesStore
{
public:
    struct Series
    {
        QByteArray key; // canonical: name{a="x",b="y"}
        QByteArray name;
        QList<QPair<QByteArray, QByteArray>> labels;
        PromType type = PromType::Untyped; // the family's type when the series first appeared
        QList<qint64> tNs;
        QList<double> values;

        QByteArray label(const QByteArray &name) const;
    };

    // Who was scraped: a name the user gave and the URL without any user-info part. Request
    // headers (a bearer token) are never part of the store.
    void setIdentity(const QString &targetName, const QString &url);
    QString targetName() const { return m_targetName; }
    QString url() const { return m_url; }

    // Appends one scrape; `parsed` is the parsed body of a successful scrape (null otherwise).
    // Scrapes are expected in time order; one earlier than the last is still stored, in order.
    void addScrape(const ScrapeRecord &record, const PromParseResult *parsed);

    const QList<ScrapeRecord> &scrapes() const { return m_scrapes; }
    const QList<Series> &series() const { return m_series; }
    const Series *find(const QByteArray &key) const;
    // Every series of that sample name (any labels), in the order they first appeared.
    QList<const Series *> seriesNamed(const QByteArray &name) const;
    // Distinct sample names seen, for engine detection.
    QList<QByteArray> sampleNames() const;
    qsizetype pointCount() const;
    bool isEmpty() const { return m_scrapes.isEmpty(); }

    // Equal identity, scrapes and series, values compared bit for bit (NaN equals NaN).
    bool operator==(const MetricSeriesStore &o) const;

private:
    friend bool decodeSeriesStore(const QByteArray &, MetricSeriesStore *, QString *);
    // Every point's time is one of the scrapes' times (the codec relies on it): only
    // addScrape() and the decoder add points.
    void addSeries(const Series &series);

    QString m_targetName;
    QString m_url;
    QList<ScrapeRecord> m_scrapes;
    QList<Series> m_series;
    QHash<QByteArray, qsizetype> m_index;
    QHash<QByteArray, QList<qsizetype>> m_byName;
};

} // namespace sb
