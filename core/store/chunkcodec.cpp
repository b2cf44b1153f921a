#include "chunkcodec.h"

#include <QHash>
#include <QString>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

constexpr char kFormatVersion = 1;
constexpr int kMaxUnitExponent = 9;
enum TokenMode : quint8 { AllOnes = 0, Raw = 1, RunLength = 2 };

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

struct Reader
{
    const uchar *p;
    const uchar *end;
    bool ok = true;

    quint64 varint()
    {
        // Most deltas fit one or two bytes.
        if (end - p >= 2) {
            if (!(p[0] & 0x80))
                return *p++;
            if (!(p[1] & 0x80)) {
                const quint64 v = quint64(p[0] & 0x7f) | (quint64(p[1]) << 7);
                p += 2;
                return v;
            }
        }
        quint64 v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p == end) {
                ok = false;
                return 0;
            }
            const uchar b = *p++;
            // The tenth byte may only hold the top bit of a 64-bit value.
            if (shift == 63 && b > 1) {
                ok = false;
                return 0;
            }
            v |= quint64(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        ok = false;
        return 0;
    }
    qint64 remaining() const { return end - p; }
};

// Nearly every stored chunk carries one token. Records decoded in the same thread share one
// implicitly shared list of ones per length (copy-on-write keeps them safe to modify): a
// million-request load then allocates and zeroes 400 MB less.
QList<qint32> sharedOnes(qsizetype n)
{
    constexpr qsizetype kCached = 2048; // at most 8 MB of ones per thread; longer: per record
    if (n > kCached) {
        QList<qint32> out;
        out.fill(1, n);
        return out;
    }
    thread_local QHash<qsizetype, QList<qint32>> cache;
    QList<qint32> &ones = cache[n];
    if (ones.size() != n)
        ones.fill(1, n);
    return ones;
}

bool fail(QString *error, const QString &what, QList<qint64> *t, QList<qint32> *k)
{
    t->clear();
    k->clear();
    if (error)
        *error = u"corrupt chunk blob: "_s + what;
    return false;
}

} // namespace

QByteArray encodeChunks(const QList<qint64> &timesNs, const QList<qint32> &tokens, qint64 baseNs)
{
    QByteArray out;
    if (timesNs.isEmpty() && tokens.isEmpty())
        return out;

    // Deltas modulo 2^64, read back as signed: exact for every input, small for ascending times.
    QList<qint64> deltas;
    deltas.reserve(timesNs.size());
    quint64 prev = quint64(baseNs);
    for (qint64 t : timesNs) {
        deltas.append(qint64(quint64(t) - prev));
        prev = quint64(t);
    }

    int exponent = 0;
    qint64 unit = 1;
    while (exponent < kMaxUnitExponent && !deltas.isEmpty()) {
        const qint64 next = unit * 10;
        bool divisible = true;
        for (qint64 d : deltas)
            if (d % next != 0) {
                divisible = false;
                break;
            }
        if (!divisible)
            break;
        unit = next;
        ++exponent;
    }

    qsizetype runs = 0;
    bool allOnes = true;
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        if (tokens[i] != 1)
            allOnes = false;
        if (i == 0 || tokens[i] != tokens[i - 1])
            ++runs;
    }
    // The compact modes are only used when there are no more token entries than chunks: the
    // decoder can then bound the token count by the chunk count, and a damaged count cannot
    // make it allocate without limit. Run-length pairs win when runs are long (uniform
    // speculative chunks); one varint per chunk otherwise.
    const bool compactable = tokens.size() <= deltas.size();
    TokenMode mode = Raw;
    if (compactable && allOnes)
        mode = AllOnes;
    else if (compactable && runs * 2 < tokens.size())
        mode = RunLength;

    out.reserve(8 + deltas.size() * 4 + (mode == Raw ? tokens.size() : 0));
    out.append(kFormatVersion);
    out.append(char(exponent | (mode << 4)));
    putVarint(out, quint64(deltas.size()));
    for (qint64 d : deltas)
        putVarint(out, zigzag(d / unit));
    putVarint(out, quint64(tokens.size()));
    if (mode == Raw) {
        for (qint32 k : tokens)
            putVarint(out, zigzag(k));
    } else if (mode == RunLength) {
        qsizetype i = 0;
        while (i < tokens.size()) {
            qsizetype j = i + 1;
            while (j < tokens.size() && tokens[j] == tokens[i])
                ++j;
            putVarint(out, zigzag(tokens[i]));
            putVarint(out, quint64(j - i));
            i = j;
        }
    }
    return out;
}

bool decodeChunks(const QByteArray &blob, qint64 baseNs, QList<qint64> *timesNs,
                  QList<qint32> *tokens, QString *error)
{
    timesNs->clear();
    tokens->clear();
    if (blob.isEmpty())
        return true;
    if (blob.size() < 2)
        return fail(error, u"too short"_s, timesNs, tokens);
    if (blob.at(0) != kFormatVersion)
        return fail(error, u"unknown format version %1"_s.arg(int(blob.at(0))), timesNs, tokens);
    const quint8 flags = quint8(blob.at(1));
    const int exponent = flags & 0x0f;
    const int mode = (flags >> 4) & 0x03;
    if (exponent > kMaxUnitExponent || (flags & 0xc0) || mode > RunLength)
        return fail(error, u"bad flags"_s, timesNs, tokens);
    qint64 unit = 1;
    for (int i = 0; i < exponent; ++i)
        unit *= 10;

    Reader r{reinterpret_cast<const uchar *>(blob.constData()) + 2,
             reinterpret_cast<const uchar *>(blob.constData()) + blob.size()};
    const quint64 n = r.varint();
    // Every varint takes at least a byte, so a count above the bytes left is corrupt; checking
    // first keeps a damaged count from allocating gigabytes.
    if (!r.ok || n > quint64(r.remaining()))
        return fail(error, u"bad chunk count"_s, timesNs, tokens);
    // Written through the data pointer: append's capacity check per element showed in profiles
    // of a million-request load.
    timesNs->resize(qsizetype(n));
    qint64 *out = timesNs->data();
    quint64 t = quint64(baseNs);
    for (quint64 i = 0; i < n; ++i) {
        const qint64 d = unzigzag(r.varint());
        if (!r.ok)
            return fail(error, u"truncated times"_s, timesNs, tokens);
        t += quint64(d) * quint64(unit);
        out[i] = qint64(t);
    }
    const quint64 m = r.varint();
    if (!r.ok)
        return fail(error, u"truncated token count"_s, timesNs, tokens);
    // Compact modes never hold more entries than chunks; raw mode takes a byte per entry.
    if ((mode != Raw && m > n) || (mode == Raw && m > quint64(r.remaining())))
        return fail(error, u"bad token count"_s, timesNs, tokens);
    if (mode == AllOnes) {
        if (r.remaining() != 0)
            return fail(error, u"trailing bytes"_s, timesNs, tokens);
        *tokens = sharedOnes(qsizetype(m));
        return true;
    }
    tokens->reserve(qsizetype(m));
    while (quint64(tokens->size()) < m) {
        const qint64 v = unzigzag(r.varint());
        quint64 len = 1;
        if (mode == RunLength)
            len = r.varint();
        if (!r.ok || v != qint64(qint32(v)) || len == 0 || len > m - quint64(tokens->size()))
            return fail(error, u"bad token values"_s, timesNs, tokens);
        for (quint64 i = 0; i < len; ++i)
            tokens->append(qint32(v));
    }
    if (r.remaining() != 0)
        return fail(error, u"trailing bytes"_s, timesNs, tokens);
    return true;
}

} // namespace sb
