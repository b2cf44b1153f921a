#include "csvreader.h"

using namespace Qt::StringLiterals;

namespace sb {

bool CsvReader::parse(QStringView text, QList<Record> *records, QString *error, int *errorLine)
{
    records->clear();
    int line = 1;
    qsizetype i = 0;
    const qsizetype n = text.size();
    const auto fail = [&](const QString &why, int at) {
        *error = why;
        *errorLine = at;
        return false;
    };
    while (i < n) {
        Record rec;
        rec.line = line;
        bool endOfRecord = false;
        while (!endOfRecord) {
            QString field;
            if (i < n && text[i] == u'"') {
                const int quoteLine = line;
                ++i;
                bool closed = false;
                while (i < n) {
                    const QChar c = text[i];
                    if (c == u'"') {
                        if (i + 1 < n && text[i + 1] == u'"') {
                            field += u'"';
                            i += 2;
                            continue;
                        }
                        ++i;
                        closed = true;
                        break;
                    }
                    if (c == u'\n')
                        ++line;
                    field += c;
                    ++i;
                }
                if (!closed)
                    return fail(u"a quoted field opened here is never closed"_s, quoteLine);
                if (i < n && text[i] != u',' && text[i] != u'\n' && text[i] != u'\r')
                    return fail(u"unexpected text after a closing quote"_s, line);
            } else {
                while (i < n && text[i] != u',' && text[i] != u'\n' && text[i] != u'\r') {
                    if (text[i] == u'"')
                        return fail(u"a quote inside an unquoted field (quote the whole field and "
                                    "double the quote)"_s,
                                    line);
                    field += text[i];
                    ++i;
                }
            }
            rec.fields << field;
            if (i >= n) {
                endOfRecord = true;
            } else if (text[i] == u',') {
                ++i;
            } else {
                // \r\n, \n or a lone \r ends the record.
                if (text[i] == u'\r' && i + 1 < n && text[i + 1] == u'\n')
                    ++i;
                ++i;
                ++line;
                endOfRecord = true;
            }
        }
        const bool blank = rec.fields.size() == 1 && rec.fields.first().trimmed().isEmpty();
        if (!blank)
            records->append(rec);
    }
    return true;
}

} // namespace sb
