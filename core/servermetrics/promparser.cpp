#include "promparser.h"

#include <QHash>
#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}
bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}
bool isLabelStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isLabelChar(char c)
{
    return isLabelStart(c) || (c >= '0' && c <= '9');
}

bool isLegacyMetricName(const QByteArray &name)
{
    if (name.isEmpty() || !isNameStart(name.at(0)))
        return false;
    for (char c : name) {
        if (!isNameChar(c))
            return false;
    }
    return true;
}

// Shown in messages: a bounded, printable excerpt of what the server sent.
QString excerpt(QByteArrayView text)
{
    constexpr qsizetype kMax = 60;
    QString s = QString::fromUtf8(text.first(std::min(text.size(), kMax)));
    for (QChar &c : s) {
        if (c.unicode() < 0x20)
            c = u'?';
    }
    if (text.size() > kMax)
        s += u'…';
    return s;
}

// OpenMetrics types are accepted in 0.0.4 payloads too: a mislabelled payload stays readable.
PromType typeFromName(QByteArrayView word, bool *ok)
{
    *ok = true;
    if (word == "counter")
        return PromType::Counter;
    if (word == "gauge")
        return PromType::Gauge;
    if (word == "histogram")
        return PromType::Histogram;
    if (word == "summary")
        return PromType::Summary;
    if (word == "untyped" || word == "unknown")
        return PromType::Untyped;
    if (word == "gaugehistogram")
        return PromType::GaugeHistogram;
    if (word == "stateset")
        return PromType::StateSet;
    if (word == "info")
        return PromType::Info;
    *ok = false;
    return PromType::Untyped;
}

// Reads the line left to right; every method reports failure through `error`.
//
// The two grammars differ in whitespace: 0.0.4 (as Prometheus' own parser reads it) takes any
// run of blanks and tabs between tokens and inside label sets; OpenMetrics takes exactly one
// space between tokens and none anywhere else. `strict` selects the OpenMetrics rule.
struct Cursor
{
    QByteArrayView s;
    bool strict = false;
    qsizetype i = 0;

    bool atEnd() const { return i >= s.size(); }
    char peek() const { return i < s.size() ? s.at(i) : '\0'; }
    void skipBlanks()
    {
        while (i < s.size() && isBlank(s.at(i)))
            ++i;
    }
    // Optional blanks (inside label sets, around '=' and ','): none allowed when strict.
    void optionalBlanks()
    {
        if (!strict)
            skipBlanks();
    }
    // A separator between tokens: one space when strict, one or more blanks otherwise.
    bool separator()
    {
        if (strict) {
            if (peek() != ' ')
                return false;
            ++i;
            return !isBlank(peek());
        }
        if (!isBlank(peek()))
            return false;
        skipBlanks();
        return true;
    }
    QByteArrayView word()
    {
        const qsizetype start = i;
        while (i < s.size() && !isBlank(s.at(i)))
            ++i;
        return s.sliced(start, i - start);
    }
    QByteArrayView metricName()
    {
        const qsizetype start = i;
        if (i < s.size() && isNameStart(s.at(i))) {
            ++i;
            while (i < s.size() && isNameChar(s.at(i)))
                ++i;
        }
        return s.sliced(start, i - start);
    }
    QByteArrayView labelName()
    {
        const qsizetype start = i;
        if (i < s.size() && isLabelStart(s.at(i))) {
            ++i;
            while (i < s.size() && isLabelChar(s.at(i)))
                ++i;
        }
        return s.sliced(start, i - start);
    }
    // A double-quoted string with the \\ \" \n escapes; the cursor stands on the opening quote.
    bool quoted(QByteArray *out, QString *error)
    {
        ++i; // opening quote
        out->clear();
        while (i < s.size()) {
            const char c = s.at(i++);
            if (c == '"')
                return true;
            if (c != '\\') {
                out->append(c);
                continue;
            }
            if (i >= s.size())
                break;
            const char e = s.at(i++);
            if (e == '\\')
                out->append('\\');
            else if (e == '"')
                out->append('"');
            else if (e == 'n')
                out->append('\n');
            else if (strict) {
                // OpenMetrics keeps an unknown escape as written (its reference parsers do).
                out->append('\\');
                out->append(e);
            } else {
                *error = u"invalid escape sequence '\\%1' in a quoted string"_s.arg(
                    QChar::fromLatin1(e));
                return false;
            }
        }
        *error = u"quoted string is not terminated"_s;
        return false;
    }
};

QString unescapeHelp(QByteArrayView text)
{
    // Only \\ and \n are escapes in HELP; any other backslash is kept as written (lenient: a
    // docstring is never worth losing a family over).
    QByteArray out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (c == '\\' && i + 1 < text.size()) {
            const char e = text.at(i + 1);
            if (e == '\\' || e == 'n') {
                out.append(e == 'n' ? '\n' : '\\');
                ++i;
                continue;
            }
        }
        out.append(c);
    }
    return QString::fromUtf8(out);
}

// Which suffixes a sample of a family of each type may carry after the family's name.
bool suffixFits(PromType type, QByteArrayView suffix)
{
    switch (type) {
    case PromType::Counter:
        return suffix == "_total" || suffix == "_created";
    case PromType::Histogram:
        return suffix == "_bucket" || suffix == "_count" || suffix == "_sum" ||
               suffix == "_created";
    case PromType::GaugeHistogram:
        return suffix == "_bucket" || suffix == "_gcount" || suffix == "_gsum";
    case PromType::Summary:
        return suffix == "_count" || suffix == "_sum" || suffix == "_created";
    case PromType::Info:
        return suffix == "_info";
    default:
        return false;
    }
}

constexpr QByteArrayView kSuffixes[] = {"_bucket", "_count",  "_sum",  "_created",
                                        "_total",  "_gcount", "_gsum", "_info"};

class Parser
{
public:
    Parser(const QByteArray &payload, bool openMetrics) : m_payload(payload)
    {
        m_result.openMetrics = openMetrics;
    }

    PromParseResult run()
    {
        qsizetype pos = 0;
        const qsizetype n = m_payload.size();
        int lineNo = 0;
        bool reportedAfterEof = false;
        while (pos < n) {
            qsizetype end = m_payload.indexOf('\n', pos);
            if (end < 0)
                end = n;
            QByteArrayView line(m_payload.constData() + pos, end - pos);
            pos = end + 1;
            ++lineNo;
            if (!line.isEmpty() && line.back() == '\r')
                line.chop(1);
            m_line = lineNo;
            if (m_sawEof) {
                if (!line.trimmed().isEmpty() && !reportedAfterEof) {
                    error(u"text after # EOF is ignored"_s);
                    reportedAfterEof = true;
                }
                continue;
            }
            parseLine(line);
        }
        m_result.lines = lineNo;
        if (m_result.openMetrics && !m_sawEof)
            m_result.errors.append({lineNo + 1, u"OpenMetrics payload does not end with # EOF "
                                                "(truncated?)"_s});
        return std::move(m_result);
    }

private:
    void error(const QString &message) { m_result.errors.append({m_line, message}); }

    PromFamily &familyNamed(const QByteArray &name)
    {
        const auto it = m_index.constFind(name);
        if (it != m_index.constEnd())
            return m_result.families[*it];
        m_index.insert(name, m_result.families.size());
        PromFamily f;
        f.name = name;
        m_result.families.append(f);
        return m_result.families.last();
    }

    // The family a sample belongs to: the family of its exact name, else the family its name
    // minus a type suffix names (x_bucket -> histogram x), else a new untyped family.
    PromFamily &familyOfSample(const QByteArray &name)
    {
        const auto exact = m_index.constFind(name);
        if (exact != m_index.constEnd())
            return m_result.families[*exact];
        for (QByteArrayView suffix : kSuffixes) {
            if (!name.endsWith(suffix))
                continue;
            const auto it = m_index.constFind(name.chopped(suffix.size()));
            if (it != m_index.constEnd() && suffixFits(m_result.families[*it].type, suffix))
                return m_result.families[*it];
        }
        return familyNamed(name);
    }

    void parseLine(QByteArrayView line)
    {
        const bool strict = m_result.openMetrics;
        Cursor c{line, strict};
        if (strict && !line.isEmpty() && isBlank(line.front()))
            return error(u"line starts with a blank (not allowed in OpenMetrics)"_s);
        c.skipBlanks();
        if (c.atEnd()) {
            if (strict)
                error(u"empty line (not allowed in OpenMetrics)"_s);
            return;
        }
        if (c.peek() == '#')
            return parseComment(c);
        parseSample(c);
    }

    void parseComment(Cursor &c)
    {
        const bool strict = c.strict;
        ++c.i; // '#'
        if (strict && c.s.sliced(c.i) == " EOF") {
            m_sawEof = true;
            return;
        }
        if (strict && !c.separator())
            return error(u"malformed comment line (OpenMetrics allows only # HELP, # TYPE, "
                         "# UNIT and # EOF)"_s);
        c.skipBlanks();
        const QByteArrayView keyword = c.word();
        const bool isHelp = keyword == "HELP", isType = keyword == "TYPE";
        const bool isUnit = keyword == "UNIT" && strict;
        if (!isHelp && !isType && !isUnit) {
            if (strict)
                error(u"unknown comment '# %1' (OpenMetrics allows only # HELP, # TYPE, # UNIT "
                      "and # EOF)"_s.arg(excerpt(keyword)));
            return; // a plain comment in 0.0.4
        }
        const QString kw = QString::fromLatin1(keyword);
        if (!c.separator())
            return error(u"# %1 without a metric name"_s.arg(kw));
        QByteArray name;
        if (c.peek() == '"') {
            QString err;
            if (!c.quoted(&name, &err))
                return error(u"# %1: %2"_s.arg(kw, err));
        } else {
            name = c.metricName().toByteArray();
        }
        if (name.isEmpty() || (!c.atEnd() && !isBlank(c.peek())))
            return error(u"# %1: invalid metric name '%2'"_s.arg(kw, excerpt(c.s.sliced(c.i))));
        if (isHelp) {
            // One blank separates the name from the docstring; the docstring keeps the rest.
            // OpenMetrics wants that space even for an empty docstring.
            if (strict && !c.atEnd() && c.peek() != ' ')
                return error(u"# HELP %1: a tab after the name"_s.arg(QString::fromUtf8(name)));
            if (!c.atEnd())
                ++c.i;
            else if (strict)
                return error(u"# HELP %1: no space after the name"_s.arg(QString::fromUtf8(name)));
            PromFamily &f = familyNamed(name);
            if (m_helpSeen.contains(name))
                return error(u"second HELP line for '%1'"_s.arg(QString::fromUtf8(name)));
            m_helpSeen.insert(name, true);
            f.help = unescapeHelp(c.s.sliced(c.i));
            return;
        }
        if (!c.separator())
            return error(u"# %1 %2: missing value"_s.arg(kw, QString::fromUtf8(name)));
        const QByteArrayView word = c.word();
        if (strict && !c.atEnd())
            return error(u"# %1 %2: text after the value"_s.arg(kw, QString::fromUtf8(name)));
        c.skipBlanks();
        if (isUnit) {
            if (m_unitSeen.contains(name))
                return error(u"second UNIT line for '%1'"_s.arg(QString::fromUtf8(name)));
            m_unitSeen.insert(name, true);
            familyNamed(name).unit = word.toByteArray();
            return;
        }
        bool ok = false;
        const PromType type = typeFromName(word, &ok);
        if (!ok || (strict && word == "untyped"))
            return error(u"# TYPE %1: unknown metric type '%2'"_s.arg(QString::fromUtf8(name),
                                                                      excerpt(word)));
        if (!c.atEnd())
            return error(u"# TYPE %1: unexpected text after the type: '%2'"_s.arg(
                QString::fromUtf8(name), excerpt(c.s.sliced(c.i))));
        if (m_typeSeen.contains(name))
            return error(u"second TYPE line for '%1'"_s.arg(QString::fromUtf8(name)));
        PromFamily &f = familyNamed(name);
        if (!f.samples.isEmpty())
            return error(u"TYPE line for '%1' after its samples"_s.arg(QString::fromUtf8(name)));
        m_typeSeen.insert(name, true);
        f.type = type;
    }

    void parseSample(Cursor &c)
    {
        PromSample s;
        QString err;
        bool labelled = false;
        if (c.peek() != '{') {
            const QByteArrayView name = c.metricName();
            if (name.isEmpty() || (!c.atEnd() && !isBlank(c.peek()) && c.peek() != '{'))
                return error(u"invalid metric name in '%1'"_s.arg(excerpt(c.s)));
            s.name = name.toByteArray();
            // 0.0.4 allows blanks between the name and its label set ("a {b=\"c\"} 1").
            const qsizetype afterName = c.i;
            c.optionalBlanks();
            if (c.peek() != '{')
                c.i = afterName;
        }
        if (c.peek() == '{') {
            if (!parseLabels(c, &s, &err))
                return error(err);
            labelled = true;
        }
        if (s.name.isEmpty())
            return error(u"sample without a metric name: '%1'"_s.arg(excerpt(c.s)));
        // 0.0.4 lets the value follow a label set directly ("a{}1"), as Prometheus reads it.
        if (!c.separator() && (c.strict || !labelled))
            return error(
                u"expected one blank before the value of '%1'"_s.arg(QString::fromUtf8(s.name)));
        const QByteArrayView valueText = c.word();
        if (valueText.isEmpty())
            return error(u"sample '%1' has no value"_s.arg(QString::fromUtf8(s.name)));
        if (!PromParser::parseValue(valueText, &s.value))
            return error(u"invalid value '%1' for '%2'"_s.arg(excerpt(valueText),
                                                              QString::fromUtf8(s.name)));
        if (!c.atEnd() && !c.separator())
            return error(
                u"malformed text after the value of '%1'"_s.arg(QString::fromUtf8(s.name)));
        if (!c.atEnd() && c.peek() != '#') {
            const QByteArrayView ts = c.word();
            if (!parseTimestamp(ts, &s.timestampMs))
                return error(u"invalid timestamp '%1' for '%2'"_s.arg(excerpt(ts),
                                                                      QString::fromUtf8(s.name)));
            s.hasTimestamp = true;
            if (!c.atEnd() && !c.separator())
                return error(
                    u"malformed text after the timestamp of '%1'"_s.arg(QString::fromUtf8(s.name)));
        }
        if (c.strict && c.i > 0 && c.atEnd() && isBlank(c.s.back()))
            return error(u"trailing blank after '%1'"_s.arg(QString::fromUtf8(s.name)));
        if (!c.atEnd()) {
            // An exemplar (" # {trace_id=\"...\"} 1.0 [ts]") is allowed here and not kept;
            // anything else is trailing garbage.
            if (c.peek() != '#')
                return error(u"unexpected text after the value of '%1': '%2'"_s.arg(
                    QString::fromUtf8(s.name), excerpt(c.s.sliced(c.i))));
            ++c.i;
            if (!c.separator() || c.peek() != '{')
                return error(u"malformed exemplar after '%1'"_s.arg(QString::fromUtf8(s.name)));
        }
        std::sort(s.labels.begin(), s.labels.end(),
                  [](const auto &a, const auto &b) { return a.first < b.first; });
        PromFamily &f = familyOfSample(s.name);
        f.samples.append(std::move(s));
        ++m_result.samples;
    }

    bool parseLabels(Cursor &c, PromSample *s, QString *err)
    {
        ++c.i; // '{'
        bool first = true;
        bool afterComma = false;
        for (;;) {
            c.optionalBlanks();
            if (c.peek() == '}') {
                if (afterComma && c.strict) {
                    *err = u"trailing ',' in the labels of '%1'"_s.arg(QString::fromUtf8(s->name));
                    return false;
                }
                ++c.i;
                return true;
            }
            if (c.atEnd()) {
                *err = u"label set of '%1' is not closed"_s.arg(QString::fromUtf8(s->name));
                return false;
            }
            QByteArray name;
            bool quotedName = false;
            if (c.peek() == '"') {
                if (!c.quoted(&name, err))
                    return false;
                quotedName = true;
            } else {
                name = c.labelName().toByteArray();
                if (name.isEmpty()) {
                    *err = u"invalid label name at '%1'"_s.arg(excerpt(c.s.sliced(c.i)));
                    return false;
                }
            }
            c.optionalBlanks();
            if (quotedName && first && s->name.isEmpty() && (c.peek() == ',' || c.peek() == '}')) {
                // {"metric.name", label="v"}: the name inside the braces (Prometheus 3).
                s->name = name;
            } else {
                if (c.peek() != '=') {
                    *err = u"expected '=' after label '%1'"_s.arg(QString::fromUtf8(name));
                    return false;
                }
                ++c.i;
                c.optionalBlanks();
                if (c.peek() != '"') {
                    *err = u"value of label '%1' is not quoted"_s.arg(QString::fromUtf8(name));
                    return false;
                }
                QByteArray value;
                if (!c.quoted(&value, err)) {
                    *err = u"label '%1': %2"_s.arg(QString::fromUtf8(name), *err);
                    return false;
                }
                for (const auto &l : std::as_const(s->labels)) {
                    if (l.first == name) {
                        *err = u"label '%1' appears twice"_s.arg(QString::fromUtf8(name));
                        return false;
                    }
                }
                s->labels.append({name, value});
            }
            first = false;
            c.optionalBlanks();
            if (c.peek() == ',') {
                ++c.i;
                afterComma = true;
                continue;
            }
            if (c.peek() == '}') {
                ++c.i;
                return true;
            }
            *err = u"expected ',' or '}' in the labels of '%1'"_s.arg(
                QString::fromUtf8(s->name.isEmpty() ? name : s->name));
            return false;
        }
    }

    bool parseTimestamp(QByteArrayView text, qint64 *ms) const
    {
        if (m_result.openMetrics) {
            // OpenMetrics timestamps are seconds, fractions allowed.
            double seconds = 0;
            if (!PromParser::parseValue(text, &seconds) || !std::isfinite(seconds))
                return false;
            *ms = qint64(std::llround(seconds * 1000.0));
            return true;
        }
        bool ok = false;
        *ms = text.toLongLong(&ok);
        return ok;
    }

    const QByteArray &m_payload;
    PromParseResult m_result;
    QHash<QByteArray, qsizetype> m_index;
    QHash<QByteArray, bool> m_typeSeen;
    QHash<QByteArray, bool> m_helpSeen;
    QHash<QByteArray, bool> m_unitSeen;
    int m_line = 0;
    bool m_sawEof = false;
};

void appendEscaped(QByteArray &out, const QByteArray &value)
{
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
}

} // namespace

const char *promTypeName(PromType type)
{
    switch (type) {
    case PromType::Untyped:
        return "untyped";
    case PromType::Counter:
        return "counter";
    case PromType::Gauge:
        return "gauge";
    case PromType::Histogram:
        return "histogram";
    case PromType::Summary:
        return "summary";
    case PromType::GaugeHistogram:
        return "gaugehistogram";
    case PromType::StateSet:
        return "stateset";
    case PromType::Info:
        return "info";
    }
    return "untyped";
}

QByteArray PromSample::label(const QByteArray &name) const
{
    for (const auto &l : labels) {
        if (l.first == name)
            return l.second;
    }
    return {};
}

bool PromSample::hasLabel(const QByteArray &name) const
{
    for (const auto &l : labels) {
        if (l.first == name)
            return true;
    }
    return false;
}

const PromFamily *PromParseResult::family(const QByteArray &name) const
{
    for (const PromFamily &f : families) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

const PromSample *PromParseResult::sample(const QByteArray &name,
                                          const QList<QPair<QByteArray, QByteArray>> &match) const
{
    for (const PromFamily &f : families) {
        for (const PromSample &s : f.samples) {
            if (s.name != name)
                continue;
            bool all = true;
            for (const auto &m : match) {
                if (!s.hasLabel(m.first) || s.label(m.first) != m.second) {
                    all = false;
                    break;
                }
            }
            if (all)
                return &s;
        }
    }
    return nullptr;
}

PromParseResult PromParser::parse(const QByteArray &payload, PromFormat format)
{
    bool openMetrics = format == PromFormat::OpenMetrics;
    if (format == PromFormat::Auto) {
        const QByteArray tail = payload.right(16).trimmed();
        openMetrics = tail.endsWith("\n# EOF") || tail == "# EOF";
    }
    return Parser(payload, openMetrics).run();
}

bool PromParser::parseValue(QByteArrayView text, double *out)
{
    if (text.isEmpty())
        return false;
    QByteArrayView body = text;
    bool negative = false;
    if (body.front() == '+' || body.front() == '-') {
        negative = body.front() == '-';
        body = body.sliced(1);
    }
    if (body.compare("inf", Qt::CaseInsensitive) == 0 ||
        body.compare("infinity", Qt::CaseInsensitive) == 0) {
        *out = negative ? -std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::infinity();
        return true;
    }
    if (body.compare("nan", Qt::CaseInsensitive) == 0) {
        if (body.size() != text.size())
            return false; // Go rejects a signed NaN
        *out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    // Only digits, one point, an exponent: QByteArray::toDouble alone would also take
    // surrounding blanks, which the grammar forbids inside a token.
    for (char ch : body) {
        if (!((ch >= '0' && ch <= '9') || ch == '.' || ch == 'e' || ch == 'E' || ch == '+' ||
              ch == '-'))
            return false;
    }
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok)
        return false;
    *out = v;
    return true;
}

bool PromParser::isOpenMetricsContentType(const QByteArray &contentType)
{
    return contentType.trimmed().toLower().startsWith("application/openmetrics-text");
}

QByteArray PromParser::seriesKey(const QByteArray &name,
                                 const QList<QPair<QByteArray, QByteArray>> &labels)
{
    QByteArray out;
    out.reserve(name.size() + 24 * labels.size() + 2);
    const bool legacy = isLegacyMetricName(name);
    if (legacy) {
        out += name;
        if (labels.isEmpty())
            return out;
        out += '{';
    } else {
        out += "{\"";
        appendEscaped(out, name);
        out += '"';
        if (!labels.isEmpty())
            out += ',';
    }
    bool first = true;
    for (const auto &l : labels) {
        if (!first)
            out += ',';
        first = false;
        if (isLegacyMetricName(l.first) && !l.first.contains(':')) {
            out += l.first;
        } else {
            out += '"';
            appendEscaped(out, l.first);
            out += '"';
        }
        out += "=\"";
        appendEscaped(out, l.second);
        out += '"';
    }
    out += '}';
    return out;
}

bool PromParser::splitSeriesKey(const QByteArray &key, QByteArray *name,
                                QList<QPair<QByteArray, QByteArray>> *labels)
{
    const PromParseResult r = Parser(key + " 0\n", false).run();
    if (!r.errors.isEmpty() || r.families.size() != 1 || r.families[0].samples.size() != 1)
        return false;
    const PromSample &s = r.families[0].samples[0];
    *name = s.name;
    *labels = s.labels;
    return true;
}

} // namespace sb
