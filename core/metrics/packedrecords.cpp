#include "metrics/packedrecords.h"

#include <array>
#include <cstring>

namespace sb {

// A field added to RequestRecord must be packed below (and compared in tst_packedrecords):
// this trips when the struct's size changes.
static_assert(sizeof(RequestRecord) == 392, "RequestRecord changed: update packedrecords.cpp");

namespace {

// The times in roughly the order they happen, so most differences are small and positive.
constexpr std::array<qint64 RequestRecord::*, 14> kTimes = {
    &RequestRecord::tSched,          &RequestRecord::tQueued,
    &RequestRecord::tDispatch,       &RequestRecord::tSend,
    &RequestRecord::tConnectStart,   &RequestRecord::tConnected,
    &RequestRecord::tTlsDone,        &RequestRecord::tRequestWritten,
    &RequestRecord::tHeadReceived,   &RequestRecord::tFirst,
    &RequestRecord::tFirstReasoning, &RequestRecord::tFirstContent,
    &RequestRecord::tLast,           &RequestRecord::tEnd};

constexpr std::array<qint32 RequestRecord::*, 15> kInts = {
    &RequestRecord::datasetItem,         &RequestRecord::inputTokens,
    &RequestRecord::outputTokens,        &RequestRecord::cachedTokens,
    &RequestRecord::reasoningTokens,     &RequestRecord::clientOutputTokens,
    &RequestRecord::expectedInputTokens, &RequestRecord::expectedOutputTokens,
    &RequestRecord::httpStatus,          &RequestRecord::turnIndex,
    &RequestRecord::sessionTurns,        &RequestRecord::historyTokens,
    &RequestRecord::cacheCreationTokens, &RequestRecord::batchItems,
    &RequestRecord::resultItems};

constexpr std::array<qint64 RequestRecord::*, 4> kLongs = {
    &RequestRecord::outputChars, &RequestRecord::sessionId, &RequestRecord::thinkNs,
    &RequestRecord::imageBytes};

constexpr std::array<QString RequestRecord::*, 3> kTexts = {
    &RequestRecord::requestId, &RequestRecord::errorMessage, &RequestRecord::outputText};

// The two finish reasons nearly every record has, as one byte.
enum FinishCode : uchar { FinishEmpty, FinishStop, FinishLength, FinishOther };

quint64 zigzag(qint64 v)
{
    return (quint64(v) << 1) ^ quint64(v >> 63);
}

qint64 unzigzag(quint64 u)
{
    return qint64(u >> 1) ^ -qint64(u & 1);
}

void putVarint(std::vector<uchar> *out, quint64 u)
{
    while (u >= 0x80) {
        out->push_back(uchar(u) | 0x80);
        u >>= 7;
    }
    out->push_back(uchar(u));
}

void putSigned(std::vector<uchar> *out, qint64 v)
{
    putVarint(out, zigzag(v));
}

// Differences wrap (two's complement, no signed overflow) so any two times round-trip exactly.
qint64 minus(qint64 a, qint64 b)
{
    return qint64(quint64(a) - quint64(b));
}

qint64 plus(qint64 a, qint64 b)
{
    return qint64(quint64(a) + quint64(b));
}

void putText(std::vector<uchar> *out, const QString &s)
{
    putVarint(out, quint64(s.size()));
    const auto *p = reinterpret_cast<const uchar *>(s.constData());
    out->insert(out->end(), p, p + s.size() * qsizetype(sizeof(QChar)));
}

struct Reader
{
    const uchar *p;

    quint64 varint()
    {
        if (*p < 0x80) // most fields: one byte
            return *p++;
        quint64 u = 0;
        int shift = 0;
        uchar b;
        do {
            b = *p++;
            u |= quint64(b & 0x7f) << shift;
            shift += 7;
        } while (b & 0x80);
        return u;
    }
    qint64 signedValue() { return unzigzag(varint()); }
    void text(QString *s)
    {
        const qsizetype n = qsizetype(varint());
        if (n == 0) {
            s->clear();
            return;
        }
        s->resize(n);
        std::memcpy(s->data(), p, size_t(n) * sizeof(QChar));
        p += n * qsizetype(sizeof(QChar));
    }
};

constexpr qsizetype kBlockBytes = 1 << 20;

} // namespace

void PackedRecords::append(const RequestRecord &r)
{
    std::vector<uchar> &b = m_scratch;
    b.clear();
    putSigned(&b, minus(r.index, m_prevIndex));
    m_prevIndex = r.index;

    quint16 present = 0;
    for (size_t k = 0; k < kTimes.size(); ++k)
        if (r.*kTimes[k] != 0)
            present |= quint16(1u << k);
    b.push_back(uchar(present));
    b.push_back(uchar(present >> 8));
    qint64 ref = m_prevTime;
    bool first = true;
    for (size_t k = 0; k < kTimes.size(); ++k) {
        const qint64 t = r.*kTimes[k];
        if (t == 0)
            continue;
        putSigned(&b, minus(t, ref));
        ref = t;
        if (first) {
            m_prevTime = t;
            first = false;
        }
    }

    b.push_back(uchar(r.warmup));
    b.push_back(uchar(r.connection));
    b.push_back(uchar(r.inputSource));
    b.push_back(uchar(r.outputSource));
    b.push_back(uchar(r.reasoningSource));
    b.push_back(uchar(r.error));
    for (qint32 RequestRecord::*f : kInts)
        putSigned(&b, r.*f);
    for (qint64 RequestRecord::*f : kLongs)
        putSigned(&b, r.*f);

    // Chunk times as differences from the one before (the first from the send time).
    putVarint(&b, quint64(r.chunkTimes.size()));
    qint64 prev = r.tSend;
    for (qint64 t : r.chunkTimes) {
        putSigned(&b, minus(t, prev));
        prev = t;
    }
    putVarint(&b, quint64(r.chunkTokens.size()));
    for (qint32 n : r.chunkTokens)
        putSigned(&b, n);

    if (r.finishReason.isEmpty())
        b.push_back(FinishEmpty);
    else if (r.finishReason == QLatin1StringView("stop"))
        b.push_back(FinishStop);
    else if (r.finishReason == QLatin1StringView("length"))
        b.push_back(FinishLength);
    else {
        b.push_back(FinishOther);
        putText(&b, r.finishReason);
    }
    for (QString RequestRecord::*f : kTexts)
        putText(&b, r.*f);

    // Records never straddle blocks: a block is never reallocated once full, so appending never
    // copies what is already held (a growing single buffer would, with both copies resident).
    if (m_blocks.empty() || m_blocks.back().capacity() - m_blocks.back().size() < b.size()) {
        m_blocks.emplace_back();
        m_blocks.back().reserve(size_t(std::max<qsizetype>(kBlockBytes, qsizetype(b.size()))));
    }
    m_blocks.back().insert(m_blocks.back().end(), b.begin(), b.end());
    ++m_count;
}

qsizetype PackedRecords::capacityBytes() const
{
    qsizetype n = 0;
    for (const std::vector<uchar> &b : m_blocks)
        n += qsizetype(b.capacity());
    return n;
}

void PackedRecords::decode(Cursor *c, RequestRecord *out) const
{
    if (c->offset >= qsizetype(m_blocks[size_t(c->block)].size())) {
        ++c->block;
        c->offset = 0;
    }
    const std::vector<uchar> &block = m_blocks[size_t(c->block)];
    Reader in{block.data() + c->offset};
    RequestRecord &r = *out;

    r.index = plus(c->prevIndex, in.signedValue());
    c->prevIndex = r.index;

    const quint16 present = quint16(in.p[0] | (in.p[1] << 8));
    in.p += 2;
    qint64 ref = c->prevTime;
    bool first = true;
    for (size_t k = 0; k < kTimes.size(); ++k) {
        if (!(present & (1u << k))) {
            r.*kTimes[k] = 0;
            continue;
        }
        ref = plus(ref, in.signedValue());
        r.*kTimes[k] = ref;
        if (first) {
            c->prevTime = ref;
            first = false;
        }
    }

    r.warmup = in.p[0] != 0;
    r.connection = ConnectionUse(in.p[1]);
    r.inputSource = TokenSource(in.p[2]);
    r.outputSource = TokenSource(in.p[3]);
    r.reasoningSource = TokenSource(in.p[4]);
    r.error = ErrorClass(in.p[5]);
    in.p += 6;
    for (qint32 RequestRecord::*f : kInts)
        r.*f = qint32(in.signedValue());
    for (qint64 RequestRecord::*f : kLongs)
        r.*f = in.signedValue();

    // resize() of a list without a buffer allocates one even for 0 elements (Qt 6.4): a
    // million chunkless records would allocate twice each, on every pass.
    const qsizetype chunks = qsizetype(in.varint());
    if (chunks == 0) {
        r.chunkTimes.clear();
    } else {
        r.chunkTimes.resize(chunks);
        qint64 *t = r.chunkTimes.data();
        qint64 prev = r.tSend;
        for (qsizetype k = 0; k < chunks; ++k) {
            prev = plus(prev, in.signedValue());
            t[k] = prev;
        }
    }
    const qsizetype tokenCounts = qsizetype(in.varint());
    if (tokenCounts == 0) {
        r.chunkTokens.clear();
    } else {
        r.chunkTokens.resize(tokenCounts);
        qint32 *n = r.chunkTokens.data();
        for (qsizetype k = 0; k < tokenCounts; ++k)
            n[k] = qint32(in.signedValue());
    }

    switch (*in.p++) {
    case FinishEmpty:
        r.finishReason.clear();
        break;
    case FinishStop:
        r.finishReason = QStringLiteral("stop");
        break;
    case FinishLength:
        r.finishReason = QStringLiteral("length");
        break;
    default:
        in.text(&r.finishReason);
        break;
    }
    for (QString RequestRecord::*f : kTexts)
        in.text(&(r.*f));

    c->offset = in.p - block.data();
}

} // namespace sb
