#include "customjsonlreader.h"

#include "mappedfile.h"
#include "sourcetext.h"
#include "tokencount.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <cmath>
#include <cstring>
#include <limits>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QString kindOf(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Bool:
        return u"a boolean"_s;
    case QJsonValue::Double:
        return u"a number"_s;
    case QJsonValue::String:
        return u"a string"_s;
    case QJsonValue::Array:
        return u"an array"_s;
    case QJsonValue::Object:
        return u"an object"_s;
    case QJsonValue::Undefined:
        break;
    }
    return u"nothing"_s;
}

bool isBlank(const char *p, qint64 n)
{
    for (qint64 i = 0; i < n; ++i)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
            return false;
    return true;
}

} // namespace

CustomJsonlReader::CustomJsonlReader(MappedFile *file, const QString &displayPath)
    : m_file(file), m_path(displayPath)
{}

bool CustomJsonlReader::read(const std::function<void(const CustomLine &)> &onLine, QString *error)
{
    const char *data = m_file->data();
    const qint64 size = m_file->size();
    if (size == 0) {
        *error = u"%1: the dataset file is empty"_s.arg(m_path);
        return false;
    }
    qint64 pos = 0;
    if (size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    qint64 lineNumber = 0;
    while (pos < size) {
        ++lineNumber;
        const void *nl = std::memchr(data + pos, '\n', size_t(size - pos));
        const qint64 lineEnd = nl ? static_cast<const char *>(nl) - data : size;
        qint64 length = lineEnd - pos;
        if (length > 0 && data[pos + length - 1] == '\r')
            --length;
        if (!isBlank(data + pos, length)) {
            CustomLine line;
            if (!parseLine(lineNumber, pos, length, &line, error))
                return false;
            onLine(line);
        }
        pos = lineEnd + 1;
        m_file->release(qMin(pos, size));
    }
    return true;
}

bool CustomJsonlReader::parseLine(qint64 lineNumber, qint64 offset, qint64 length, CustomLine *out,
                                  QString *error) const
{
    const char *p = m_file->data() + offset;
    const QString where = u"%1:%2"_s.arg(m_path).arg(lineNumber);
    const qint64 bad = findInvalidUtf8(p, length);
    if (bad >= 0) {
        const TextPosition pos = textPosition(p, length, bad);
        *error = u"%1: invalid UTF-8 at column %2 (byte offset %3 in the file)"_s.arg(where)
                     .arg(pos.column)
                     .arg(offset + bad);
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromRawData(p, length), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const TextPosition pos = textPosition(p, length, parseError.offset);
        *error = u"%1: invalid JSON at column %2: %3"_s.arg(where)
                     .arg(pos.column)
                     .arg(parseError.errorString());
        return false;
    }
    if (!doc.isObject()) {
        *error = u"%1: expected a JSON object per line, found %2"_s.arg(
            where, doc.isArray() ? u"an array"_s : u"a scalar"_s);
        return false;
    }
    const QJsonObject o = doc.object();
    out->line = lineNumber;
    out->offset = offset;
    out->length = length;
    out->prompt.clear();
    out->messages = QJsonArray();
    out->outputTokens = -1;
    out->images.clear();

    const QJsonValue messages = o.value(u"messages"_s);
    const QJsonValue prompt = o.value(u"prompt"_s);
    if (!messages.isUndefined()) {
        if (!messages.isArray() || messages.toArray().isEmpty()) {
            *error =
                u"%1: field \"messages\" must be a non-empty array of {role, content}, found %2"_s
                    .arg(where, messages.isArray() ? u"an empty array"_s : kindOf(messages));
            return false;
        }
        const QJsonArray arr = messages.toArray();
        QStringList contents;
        qint64 tokens = 0;
        for (qsizetype i = 0; i < arr.size(); ++i) {
            const QJsonObject m = arr.at(i).toObject();
            const QJsonValue role = m.value(u"role"_s);
            const QJsonValue content = m.value(u"content"_s);
            if (!arr.at(i).isObject() || !role.isString() || !content.isString()) {
                const QString field = !arr.at(i).isObject() ? u"messages[%1]"_s.arg(i)
                                      : !role.isString()    ? u"messages[%1].role"_s.arg(i)
                                                            : u"messages[%1].content"_s.arg(i);
                const QJsonValue found = !arr.at(i).isObject() ? arr.at(i)
                                         : !role.isString()    ? role
                                                               : content;
                *error = u"%1: field \"%2\" must be %3, found %4"_s.arg(
                    where, field,
                    arr.at(i).isObject() ? u"a string"_s : u"an object {role, content}"_s,
                    kindOf(found));
                return false;
            }
            const QString text = content.toString();
            tokens += m_counter.countPart(text);
            contents.append(text);
        }
        out->messages = arr;
        out->prompt = contents.join(u"\n\n"_s);
        out->inputTokens = qint32(qMin<qint64>(tokens, std::numeric_limits<qint32>::max()));
    } else if (prompt.isUndefined()) {
        *error = u"%1: missing field \"prompt\" (a string) or \"messages\" (an array)"_s.arg(where);
        return false;
    } else if (!prompt.isString() || prompt.toString().isEmpty()) {
        *error = u"%1: field \"prompt\" must be a non-empty string, found %2"_s.arg(
            where, prompt.isString() ? u"an empty string"_s : kindOf(prompt));
        return false;
    } else {
        out->prompt = prompt.toString();
        out->inputTokens = m_counter.count(out->prompt);
    }

    const QJsonValue outTokens = o.value(u"output_tokens"_s);
    if (!outTokens.isUndefined() && !outTokens.isNull()) {
        const double v = outTokens.toDouble(-1);
        if (!outTokens.isDouble() || v < 1 || v > std::numeric_limits<qint32>::max() ||
            std::floor(v) != v) {
            *error = u"%1: field \"output_tokens\" must be a positive integer, found %2"_s.arg(
                where, outTokens.isDouble() ? QString::number(v) : kindOf(outTokens));
            return false;
        }
        out->outputTokens = qint32(v);
    }

    // Image files, relative to the dataset's folder (docs/datasets.md, "Images in prompts").
    const QJsonValue images = o.value(u"images"_s);
    if (!images.isUndefined() && !images.isNull()) {
        if (!images.isArray()) {
            *error = u"%1: field \"images\" must be an array of image file names, found %2"_s.arg(
                where, kindOf(images));
            return false;
        }
        const QDir folder = QFileInfo(m_path).absoluteDir();
        const QJsonArray list = images.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString name = list.at(i).toString();
            if (!list.at(i).isString() || name.isEmpty()) {
                *error = u"%1: field \"images[%2]\" must be an image file name, found %3"_s.arg(
                    where, QString::number(i),
                    list.at(i).isString() ? u"an empty string"_s : kindOf(list.at(i)));
                return false;
            }
            const QString path = QDir::cleanPath(folder.absoluteFilePath(name));
            if (!QFileInfo(path).isFile()) {
                *error = u"%1: image file \"%2\" not found (looked for %3)"_s.arg(where, name,
                                                                                   path);
                return false;
            }
            out->images.append(path);
        }
    }
    return true;
}

} // namespace sb
