#include "tracereplay.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// Token counts must be whole, non-negative and fit the record's qint32.
bool readCount(const QJsonObject &o, QLatin1StringView key, qint32 *out, QString *why)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return true;
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d < 0 || d != std::floor(d) || d > std::numeric_limits<qint32>::max()) {
        *why = u"field '%1' must be a non-negative integer"_s.arg(key);
        return false;
    }
    *out = qint32(d);
    return true;
}

} // namespace

bool parseTrace(const QByteArray &data, const QString &sourceName, QList<TraceRow> *rows,
                QString *error)
{
    rows->clear();
    const QList<QByteArray> lines = data.split('\n');
    double previous = -1;
    auto fail = [&](int line, const QString &why) {
        if (error)
            *error = u"%1:%2: %3"_s.arg(sourceName).arg(line).arg(why);
        rows->clear();
        return false;
    };
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
            return fail(lineNo, u"expected a JSON object"_s);
        const QJsonObject o = doc.object();

        TraceRow row;
        row.line = lineNo;
        const QJsonValue ts = o.value("timestamp"_L1);
        if (!ts.isDouble())
            return fail(lineNo, u"field 'timestamp' is missing or not a number"_s);
        row.timestampS = ts.toDouble();
        if (!std::isfinite(row.timestampS) || row.timestampS < 0)
            return fail(lineNo, u"field 'timestamp' must be a finite number >= 0"_s);
        if (row.timestampS < previous)
            return fail(lineNo, u"field 'timestamp' %1 is earlier than the previous row's %2"_s
                                    .arg(row.timestampS)
                                    .arg(previous));
        previous = row.timestampS;

        QString why;
        if (!readCount(o, "input_tokens"_L1, &row.inputTokens, &why) ||
            !readCount(o, "output_tokens"_L1, &row.outputTokens, &why))
            return fail(lineNo, why);
        const QJsonValue prompt = o.value("prompt"_L1);
        const bool hasPrompt = !prompt.isUndefined() && !prompt.isNull();
        if (hasPrompt) {
            if (!prompt.isString())
                return fail(lineNo, u"field 'prompt' must be a string"_s);
            row.prompt = prompt.toString();
        }
        if (row.inputTokens < 0 && !hasPrompt)
            return fail(lineNo, u"field 'input_tokens' (or 'prompt') is missing"_s);
        rows->append(row);
    }
    if (error)
        error->clear();
    return true;
}

bool loadTrace(const QString &path, QList<TraceRow> *rows, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = u"%1: cannot open trace: %2"_s.arg(path, f.errorString());
        rows->clear();
        return false;
    }
    return parseTrace(f.readAll(), QFileInfo(path).fileName(), rows, error);
}

QList<qint64> buildTraceSchedule(const QList<TraceRow> &rows, double timeScale, int n)
{
    QList<qint64> out;
    if (!(timeScale >= 0) || !std::isfinite(timeScale) || rows.isEmpty())
        return out;
    const int count = (n <= 0 || n > rows.size()) ? int(rows.size()) : n;
    out.reserve(count);
    const double origin = rows.first().timestampS;
    for (int i = 0; i < count; ++i)
        out.append(qint64(std::llround((rows.at(i).timestampS - origin) * timeScale * 1e9)));
    return out;
}

} // namespace sb
