#include "simpooling.h"

#include "simrenderer.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QtEndian>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

quint64 splitmix64(quint64 *state)
{
    quint64 z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// FNV-1a over the text's UTF-16 units.
quint64 textHash(QStringView text, quint64 h = 0xCBF29CE484222325ull)
{
    for (const QChar c : text) {
        h ^= c.unicode();
        h *= 0x100000001B3ull;
    }
    return h;
}

// A number in [0, 1) from the top 53 bits.
double unit(quint64 v)
{
    return double(v >> 11) * (1.0 / 9007199254740992.0);
}

// Shortest text that reads back as the same float (JSON numbers, as the engines write them).
void appendFloat(QByteArray *out, double v)
{
    out->append(QByteArray::number(float(v), 'g', 9));
}

} // namespace

SimPoolingRequest parsePoolingRequest(const QJsonObject &o, bool rerank)
{
    SimPoolingRequest r;
    r.rerank = rerank;
    if (rerank) {
        const QJsonValue query = o.value("query"_L1);
        if (!query.isString() || query.toString().isEmpty()) {
            r.error = u"'query' (a non-empty string) is required"_s;
            return r;
        }
        r.query = query.toString();
        const QJsonValue docs = o.value("documents"_L1);
        if (!docs.isArray() || docs.toArray().isEmpty()) {
            r.error = u"'documents' (a non-empty list) is required"_s;
            return r;
        }
        const QJsonArray list = docs.toArray();
        for (const QJsonValue &d : list) {
            const QJsonValue text = d.isObject() ? d.toObject().value("text"_L1) : d;
            if (!text.isString()) {
                r.error = u"every document must be a string or {\"text\": string}"_s;
                return r;
            }
            r.inputs.append(text.toString());
        }
        const QJsonValue topN = o.value("top_n"_L1);
        if (!topN.isUndefined() && !topN.isNull()) {
            if (!topN.isDouble() || topN.toDouble() < 1 || topN.toDouble() != std::floor(topN.toDouble())) {
                r.error = u"'top_n' must be a positive integer"_s;
                return r;
            }
            r.topN = int(std::min<double>(topN.toDouble(), 1e9));
        }
        const int queryTokens = SimRenderer::countTokens(r.query);
        for (const QString &d : std::as_const(r.inputs))
            r.promptTokens += queryTokens + SimRenderer::countTokens(d);
        return r;
    }
    const QString format = o.value("encoding_format"_L1).toString(u"float"_s);
    if (format != "float"_L1 && format != "base64"_L1) {
        r.error = u"'encoding_format' must be float or base64, got '%1'"_s.arg(format);
        return r;
    }
    r.base64 = format == "base64"_L1;
    const QJsonValue input = o.value("input"_L1);
    const auto tokenIds = [](const QJsonArray &a) {
        return std::all_of(a.cbegin(), a.cend(), [](const QJsonValue &v) { return v.isDouble(); });
    };
    if (input.isString()) {
        r.inputs.append(input.toString());
        r.promptTokens = SimRenderer::countTokens(input.toString());
    } else if (input.isArray() && !input.toArray().isEmpty()) {
        const QJsonArray list = input.toArray();
        if (tokenIds(list)) {
            // One input given as token ids.
            r.inputs.append(u"ids:"_s + QString::number(list.size()));
            r.promptTokens = int(list.size());
        } else {
            for (const QJsonValue &v : list) {
                if (v.isString()) {
                    r.inputs.append(v.toString());
                    r.promptTokens += SimRenderer::countTokens(v.toString());
                } else if (v.isArray() && tokenIds(v.toArray())) {
                    r.inputs.append(u"ids:"_s + QString::number(v.toArray().size()));
                    r.promptTokens += int(v.toArray().size());
                } else {
                    r.error = u"'input' must be a string, a list of strings or a list of token "
                              "id lists"_s;
                    return r;
                }
            }
        }
    } else {
        r.error = u"'input' (a string or a non-empty list) is required"_s;
    }
    return r;
}

QByteArray embeddingsBody(const SimPoolingRequest &request, const QByteArray &modelJson,
                          quint64 seq, int dimensions, quint64 seed)
{
    QByteArray out;
    out.reserve(qsizetype(request.inputs.size()) * (dimensions * 12 + 64) + 256);
    out += "{\"id\":\"embd-sim-";
    out += QByteArray::number(seq);
    out += "\",\"object\":\"list\",\"model\":";
    out += modelJson;
    out += ",\"data\":[";
    QList<double> v(dimensions);
    for (qsizetype i = 0; i < request.inputs.size(); ++i) {
        quint64 state = textHash(request.inputs.at(i), seed ^ 0xE3B0C44298FC1C14ull);
        double norm = 0;
        for (int k = 0; k < dimensions; ++k) {
            v[k] = unit(splitmix64(&state)) * 2.0 - 1.0;
            norm += v[k] * v[k];
        }
        norm = norm > 0 ? std::sqrt(norm) : 1.0;
        if (i > 0)
            out += ',';
        out += "{\"object\":\"embedding\",\"index\":";
        out += QByteArray::number(i);
        if (request.base64) {
            QByteArray raw(qsizetype(dimensions) * 4, Qt::Uninitialized);
            for (int k = 0; k < dimensions; ++k)
                qToLittleEndian<float>(float(v[k] / norm), raw.data() + 4 * k);
            out += ",\"embedding\":\"" + raw.toBase64() + "\"}";
            continue;
        }
        out += ",\"embedding\":[";
        for (int k = 0; k < dimensions; ++k) {
            if (k > 0)
                out += ',';
            appendFloat(&out, v[k] / norm);
        }
        out += "]}";
    }
    out += "],\"usage\":{\"prompt_tokens\":";
    out += QByteArray::number(request.promptTokens);
    out += ",\"total_tokens\":";
    out += QByteArray::number(request.promptTokens);
    out += "}}";
    return out;
}

QByteArray rerankBody(const SimPoolingRequest &request, const QByteArray &modelJson, quint64 seq,
                      quint64 seed)
{
    const qsizetype n = request.inputs.size();
    QList<double> scores(n);
    const quint64 queryHash = textHash(request.query, seed ^ 0x6A09E667F3BCC908ull);
    for (qsizetype i = 0; i < n; ++i) {
        quint64 state = textHash(request.inputs.at(i), queryHash);
        // In (0, 1): a sigmoid's range, as cross-encoders report it.
        scores[i] = (unit(splitmix64(&state)) * 0.998) + 0.001;
    }
    QList<qsizetype> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&scores](qsizetype a, qsizetype b) { return scores[a] > scores[b]; });
    const qsizetype top = request.topN > 0 ? std::min<qsizetype>(request.topN, n) : n;
    QByteArray out = "{\"id\":\"rerank-sim-" + QByteArray::number(seq) + "\",\"model\":" +
                     modelJson + ",\"usage\":{\"prompt_tokens\":" +
                     QByteArray::number(request.promptTokens) + ",\"total_tokens\":" +
                     QByteArray::number(request.promptTokens) + "},\"results\":[";
    for (qsizetype j = 0; j < top; ++j) {
        const qsizetype i = order[j];
        if (j > 0)
            out += ',';
        out += "{\"index\":" + QByteArray::number(i) + ",\"document\":{\"text\":" +
               SimRenderer::jsonString(request.inputs.at(i)) + "},\"relevance_score\":";
        appendFloat(&out, scores[i]);
        out += '}';
    }
    out += "]}";
    return out;
}

} // namespace sb
