#include "mooncaketrace.h"

#include "seededrng.h"
#include "syntheticprompt.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// Mixed into a hash id before seeding, so block texts do not coincide with the synthetic
// prompts of the same seed.
constexpr quint64 kBlockStream = 0x6A09E667F3BCC909ULL;

constexpr double kMaxExactInteger = 9007199254740992.0; // 2^53: above it doubles skip integers

bool wholeNumber(const QJsonValue &v, double lo, double hi, double *out)
{
    if (!v.isDouble())
        return false;
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d) || d < lo || d > hi)
        return false;
    *out = d;
    return true;
}

} // namespace

bool parseMooncakeTrace(const QByteArray &data, const QString &sourceName, int blockTokens,
                        QList<MooncakeRow> *rows, QString *error)
{
    rows->clear();
    QList<MooncakeRow> out;
    auto fail = [&](int line, const QString &why) {
        if (error)
            *error = u"%1:%2: %3"_s.arg(sourceName).arg(line).arg(why);
        return false;
    };
    if (blockTokens < 1)
        return fail(0, u"the block size must be at least 1 token"_s);
    const QList<QByteArray> lines = data.split('\n');
    double previous = -1;
    int previousLine = 0;
    for (int i = 0; i < lines.size(); ++i) {
        const int lineNo = i + 1;
        const QByteArray line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &pe);
        if (pe.error != QJsonParseError::NoError)
            return fail(lineNo, u"invalid JSON (%1)"_s.arg(pe.errorString()));
        if (!doc.isObject())
            return fail(lineNo, u"expected a JSON object {timestamp, input_length, "
                                "output_length, hash_ids}"_s);
        const QJsonObject o = doc.object();
        MooncakeRow row;
        row.line = lineNo;
        const QJsonValue ts = o.value("timestamp"_L1);
        if (!ts.isDouble() || !std::isfinite(ts.toDouble()) || ts.toDouble() < 0)
            return fail(lineNo, u"field 'timestamp' is missing or not a number of milliseconds "
                                ">= 0"_s);
        row.timestampMs = ts.toDouble();
        if (row.timestampMs < previous)
            return fail(lineNo, u"field 'timestamp' %1 is earlier than line %2's %3: times go "
                                "backwards"_s.arg(row.timestampMs)
                                    .arg(previousLine)
                                    .arg(previous));
        double v = 0;
        const double maxInt = double(std::numeric_limits<qint32>::max());
        if (!wholeNumber(o.value("input_length"_L1), 1, maxInt, &v))
            return fail(lineNo, u"field 'input_length' is missing or not a whole number of "
                                "tokens >= 1"_s);
        row.inputLength = qint32(v);
        if (!wholeNumber(o.value("output_length"_L1), 1, maxInt, &v))
            return fail(lineNo, u"field 'output_length' is missing or not a whole number of "
                                "tokens >= 1"_s);
        row.outputLength = qint32(v);
        const QJsonValue ids = o.value("hash_ids"_L1);
        if (!ids.isArray())
            return fail(lineNo, u"field 'hash_ids' is missing or not an array of block ids"_s);
        const QJsonArray arr = ids.toArray();
        row.hashIds.reserve(arr.size());
        for (qsizetype k = 0; k < arr.size(); ++k) {
            if (!wholeNumber(arr.at(k), 0, kMaxExactInteger, &v))
                return fail(lineNo, u"field 'hash_ids[%1]' must be a whole number >= 0"_s.arg(k));
            row.hashIds.append(qint64(v));
        }
        const qint64 blocks = (qint64(row.inputLength) + blockTokens - 1) / blockTokens;
        if (row.hashIds.size() != blocks)
            return fail(lineNo, u"field 'hash_ids' has %1 ids, but input_length %2 in blocks of "
                                "%3 tokens needs %4 (check --trace-block-size)"_s.arg(arr.size())
                                    .arg(row.inputLength)
                                    .arg(blockTokens)
                                    .arg(blocks));
        previous = row.timestampMs;
        previousLine = lineNo;
        out.append(std::move(row));
    }
    *rows = std::move(out);
    if (error)
        error->clear();
    return true;
}

bool loadMooncakeTrace(const QString &path, int blockTokens, QList<MooncakeRow> *rows,
                       QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = u"%1: cannot open trace: %2"_s.arg(path, f.errorString());
        rows->clear();
        return false;
    }
    return parseMooncakeTrace(f.readAll(), QFileInfo(path).fileName(), blockTokens, rows, error);
}

QString mooncakePrompt(const QList<qint64> &hashIds, int inputLength, int blockTokens)
{
    QString out;
    out.reserve(qsizetype(inputLength) * 6);
    int left = inputLength;
    for (const qint64 id : hashIds) {
        if (left <= 0)
            break;
        const int words = std::min(left, blockTokens);
        // Drawn afresh per use: the words of block `id` are the same every time, and a prefix
        // of them is the start of the full block.
        SeededRng rng(quint64(id) ^ kBlockStream);
        SyntheticPromptBuilder::appendWords(&out, words, rng);
        left -= words;
    }
    return out;
}

TracePrefixReuse mooncakePrefixReuse(const QList<MooncakeRow> &rows, int blockTokens,
                                     int granularity)
{
    TracePrefixReuse r;
    if (blockTokens < 1)
        return r;
    granularity = std::clamp(granularity, 1, blockTokens);
    // The longest stretch of each id seen so far: a cache holds what was computed.
    QHash<qint64, qint32> seen;
    for (const MooncakeRow &row : rows) {
        r.inputTokens += row.inputLength;
        qint64 cached = 0;
        for (qsizetype j = 0; j < row.hashIds.size(); ++j) {
            const qint32 len =
                qint32(std::min<qint64>(blockTokens, row.inputLength - j * qint64(blockTokens)));
            const auto it = seen.constFind(row.hashIds.at(j));
            if (it == seen.constEnd())
                break;
            const qint32 usable = std::min(len, it.value()) / granularity * granularity;
            cached += usable;
            if (usable < len)
                break; // the rest of this block and everything after it is computed
        }
        r.cachedTokens += cached;
        for (qsizetype j = 0; j < row.hashIds.size(); ++j) {
            const qint32 len =
                qint32(std::min<qint64>(blockTokens, row.inputLength - j * qint64(blockTokens)));
            qint32 &best = seen[row.hashIds.at(j)];
            best = std::max(best, len);
        }
    }
    r.hitRate = r.inputTokens > 0 ? double(r.cachedTokens) / double(r.inputTokens) : 0;
    return r;
}

} // namespace sb
