#include "seriescodec.h"

#include "metricseriesstore.h"

#include <QHash>
#include <QString>
#include <bit>
#include <cmath>
#include <cstring>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr quint8 kVersion = 1;

void putVarint(QByteArray &out, quint64 v)
{
    while (v >= 0x80) {
        out.append(char(quint8(v) | 0x80));
        v >>= 7;
    }
    out.append(char(v));
}

quint64 zigzag(qint64 v)
{
    return (quint64(v) << 1) ^ quint64(v >> 63);
}

qint64 unzigzag(quint64 v)
{
    return qint64(v >> 1) ^ -qint64(v & 1);
}

void putString(QByteArray &out, const QByteArray &s)
{
    putVarint(out, quint64(s.size()));
    out.append(s);
}

quint64 bitsOf(double v)
{
    quint64 b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

double doubleOf(quint64 b)
{
    double v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

constexpr quint8 kIntegerDelta = 65; // control byte: zigzag(integer difference) follows

// Integral doubles within +-2^53 (and not -0.0, whose sign an integer loses) are exact as
// 64-bit integers, so their difference is exact too.
bool isSmallInteger(double v)
{
    return v == std::trunc(v) && std::fabs(v) < 9007199254740992.0 && !(v == 0 && std::signbit(v));
}

int varintSize(quint64 v)
{
    int n = 1;
    while (v >= 0x80) {
        v >>= 7;
        ++n;
    }
    return n;
}

int xorSize(quint64 x)
{
    if (x == 0)
        return 1;
    return 1 + 8 - std::countl_zero(x) / 8 - std::countr_zero(x) / 8;
}

void putXor(QByteArray &out, quint64 x)
{
    if (x == 0) {
        out.append(char(0));
        return;
    }
    const int lead = std::countl_zero(x) / 8;
    const int trail = std::countr_zero(x) / 8;
    out.append(char(1 + 8 * lead + trail));
    quint64 middle = x >> (8 * trail);
    for (int i = 0; i < 8 - lead - trail; ++i) {
        out.append(char(quint8(middle)));
        middle >>= 8;
    }
}

struct Reader
{
    const uchar *p;
    const uchar *end;
    QString error;

    bool failed() const { return !error.isEmpty(); }
    void fail(const QString &why)
    {
        if (error.isEmpty())
            error = why;
    }
    qint64 remaining() const { return end - p; }

    quint64 varint()
    {
        quint64 v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p == end) {
                fail(u"truncated varint"_s);
                return 0;
            }
            const uchar b = *p++;
            if (shift == 63 && b > 1) {
                fail(u"varint overflows 64 bits"_s);
                return 0;
            }
            v |= quint64(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        fail(u"varint overflows 64 bits"_s);
        return 0;
    }
    quint8 byte()
    {
        if (p == end) {
            fail(u"truncated"_s);
            return 0;
        }
        return *p++;
    }
    QByteArray string()
    {
        const quint64 n = varint();
        if (failed())
            return {};
        if (n > quint64(remaining())) {
            fail(u"string length %1 exceeds the blob"_s.arg(n));
            return {};
        }
        QByteArray s(reinterpret_cast<const char *>(p), qsizetype(n));
        p += n;
        return s;
    }
    // A count of items each taking at least `minBytes`: a count the rest of the blob cannot
    // hold is corrupt, and must not drive an allocation.
    qint64 count(int minBytes, const char *what)
    {
        const quint64 n = varint();
        if (!failed() && n > quint64(remaining() / minBytes))
            fail(u"%1 count %2 exceeds the blob"_s.arg(QLatin1StringView(what)).arg(n));
        return failed() ? 0 : qint64(n);
    }
    // The next value, given the previous one.
    double value(double prev)
    {
        const quint8 control = byte();
        if (failed() || control == 0)
            return prev;
        if (control == kIntegerDelta) {
            const qint64 delta = unzigzag(varint());
            if (!isSmallInteger(prev)) {
                fail(u"integer step after a value that is not an integer"_s);
                return 0;
            }
            const double v = double(qint64(prev) + delta);
            if (!isSmallInteger(v)) {
                fail(u"integer step out of range"_s);
                return 0;
            }
            return v;
        }
        return doubleOf(bitsOf(prev) ^ xorBits(control));
    }
    quint64 xorBits(quint8 control)
    {
        const int lead = (control - 1) / 8, trail = (control - 1) % 8;
        if (control > 64 || lead + trail > 7) {
            fail(u"invalid value control byte %1"_s.arg(control));
            return 0;
        }
        quint64 middle = 0;
        for (int i = 0; i < 8 - lead - trail; ++i)
            middle |= quint64(byte()) << (8 * i);
        return middle << (8 * trail);
    }
};

} // namespace

QByteArray encodeSeriesStore(const MetricSeriesStore &store)
{
    QByteArray out;
    out.reserve(64 + 16 * store.scrapes().size() + 4 * store.pointCount());
    out.append(char(kVersion));
    putString(out, store.targetName().toUtf8());
    putString(out, store.url().toUtf8());

    QList<QByteArray> details;
    QHash<QString, quint64> detailIndex;
    for (const ScrapeRecord &r : store.scrapes()) {
        if (!r.detail.isEmpty() && !detailIndex.contains(r.detail)) {
            detailIndex.insert(r.detail, quint64(details.size()));
            details.append(r.detail.toUtf8());
        }
    }
    putVarint(out, quint64(details.size()));
    for (const QByteArray &d : std::as_const(details))
        putString(out, d);

    const QList<ScrapeRecord> &scrapes = store.scrapes();
    putVarint(out, quint64(scrapes.size()));
    QHash<qint64, qint64> indexOfTime;
    qint64 prev = 0;
    for (qint64 i = 0; i < scrapes.size(); ++i) {
        const ScrapeRecord &r = scrapes[i];
        indexOfTime.insert(r.tNs, i);
        putVarint(out, zigzag(qint64(quint64(r.tNs) - quint64(prev))));
        prev = r.tNs;
        putVarint(out, zigzag(r.durationNs));
        out.append(char(r.outcome));
        putVarint(out, quint64(quint32(r.httpStatus)));
        putVarint(out, zigzag(r.bytes));
        putVarint(out, quint64(quint32(r.samples)));
        putVarint(out, quint64(quint32(r.malformedLines)));
        putVarint(out, r.detail.isEmpty() ? 0 : detailIndex.value(r.detail) + 1);
    }

    putVarint(out, quint64(store.series().size()));
    for (const MetricSeriesStore::Series &s : store.series()) {
        putString(out, s.key);
        out.append(char(s.type));
        putVarint(out, quint64(s.values.size()));
        qint64 prevIndex = -1;
        for (qint64 t : s.tNs) {
            // Every point is at a scrape's time (MetricSeriesStore guarantees it).
            const qint64 index = indexOfTime.value(t, -1);
            Q_ASSERT(index > prevIndex);
            putVarint(out, quint64(index - prevIndex - 1));
            prevIndex = index;
        }
        quint64 prevBits = 0;
        double prevValue = 0;
        for (double v : s.values) {
            const quint64 bits = bitsOf(v);
            // Counters and counts move by small whole steps: their difference is shorter than
            // the XOR of their bits. Whichever is shorter is written.
            if (bits != prevBits && isSmallInteger(v) && isSmallInteger(prevValue)) {
                const quint64 delta = zigzag(qint64(v) - qint64(prevValue));
                if (1 + varintSize(delta) < xorSize(bits ^ prevBits)) {
                    out.append(char(kIntegerDelta));
                    putVarint(out, delta);
                    prevBits = bits;
                    prevValue = v;
                    continue;
                }
            }
            putXor(out, bits ^ prevBits);
            prevBits = bits;
            prevValue = v;
        }
    }
    return out;
}

bool decodeSeriesStore(const QByteArray &blob, MetricSeriesStore *store, QString *error)
{
    *store = MetricSeriesStore();
    Reader r{reinterpret_cast<const uchar *>(blob.constData()),
             reinterpret_cast<const uchar *>(blob.constData()) + blob.size(),
             {}};
    auto finish = [&](bool ok) {
        if (!ok) {
            *store = MetricSeriesStore();
            if (error)
                *error = u"server metrics blob: %1"_s.arg(r.error);
        }
        return ok;
    };
    const quint8 version = r.byte();
    if (r.failed())
        return finish(false);
    if (version != kVersion) {
        r.fail(u"unknown format version %1"_s.arg(version));
        return finish(false);
    }
    const QString name = QString::fromUtf8(r.string());
    const QString url = QString::fromUtf8(r.string());
    store->m_targetName = name;
    store->m_url = url;

    const qint64 detailCount = r.count(1, "detail");
    QList<QString> details;
    for (qint64 i = 0; i < detailCount && !r.failed(); ++i)
        details.append(QString::fromUtf8(r.string()));

    const qint64 scrapeCount = r.count(8, "scrape");
    QList<qint64> times;
    times.reserve(scrapeCount);
    qint64 t = 0;
    for (qint64 i = 0; i < scrapeCount && !r.failed(); ++i) {
        ScrapeRecord rec;
        t = qint64(quint64(t) + quint64(unzigzag(r.varint())));
        rec.tNs = t;
        rec.durationNs = unzigzag(r.varint());
        const quint8 outcome = r.byte();
        if (outcome >= ScrapeOutcomeCount)
            r.fail(u"scrape %1: unknown outcome %2"_s.arg(i).arg(outcome));
        rec.outcome = ScrapeOutcome(outcome);
        rec.httpStatus = int(r.varint());
        rec.bytes = unzigzag(r.varint());
        rec.samples = int(r.varint());
        rec.malformedLines = int(r.varint());
        const quint64 detail = r.varint();
        if (detail > quint64(details.size()))
            r.fail(u"scrape %1: detail index %2 out of range"_s.arg(i).arg(detail));
        else if (detail > 0)
            rec.detail = details[qsizetype(detail - 1)];
        store->m_scrapes.append(rec);
        times.append(t);
    }

    const qint64 seriesCount = r.count(3, "series");
    for (qint64 i = 0; i < seriesCount && !r.failed(); ++i) {
        MetricSeriesStore::Series s;
        s.key = r.string();
        const quint8 type = r.byte();
        if (type > quint8(PromType::Info))
            r.fail(u"series %1: unknown type %2"_s.arg(i).arg(type));
        s.type = PromType(type);
        const qint64 n = r.count(2, "point");
        if (r.failed())
            break;
        if (store->find(s.key)) {
            r.fail(u"series %1: '%2' appears twice"_s.arg(i).arg(QString::fromUtf8(s.key)));
            break;
        }
        if (!PromParser::splitSeriesKey(s.key, &s.name, &s.labels)) {
            r.fail(u"series %1: '%2' is not a series key"_s.arg(i).arg(QString::fromUtf8(s.key)));
            break;
        }
        s.tNs.reserve(n);
        s.values.reserve(n);
        qint64 index = -1;
        for (qint64 k = 0; k < n && !r.failed(); ++k) {
            index += qint64(r.varint()) + 1;
            if (index < 0 || index >= times.size()) {
                r.fail(u"series %1: scrape index %2 out of range"_s.arg(i).arg(index));
                break;
            }
            s.tNs.append(times[index]);
        }
        double prev = 0;
        for (qint64 k = 0; k < n && !r.failed(); ++k) {
            prev = r.value(prev);
            s.values.append(prev);
        }
        if (!r.failed())
            store->addSeries(s);
    }
    if (!r.failed() && r.remaining() != 0)
        r.fail(u"%1 trailing bytes"_s.arg(r.remaining()));
    return finish(!r.failed());
}

} // namespace sb
