#include "billcsv.h"

#include "cost/csvreader.h"

#include <QFile>
#include <QHash>
#include <QSet>
#include <QStringDecoder>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace sb {

QString BillCsvError::toString() const
{
    QString s;
    if (row > 0) {
        s = u"row %1"_s.arg(row);
        if (line > 0 && line != row)
            s += u" (line %1)"_s.arg(line);
    } else if (line > 0) {
        s = u"line %1"_s.arg(line);
    } else {
        s = u"file"_s;
    }
    if (!column.isEmpty())
        s += u", column '%1'"_s.arg(column);
    return s + u": "_s + message;
}

QStringList BillCsv::columns()
{
    return {u"id"_s,
            u"category"_s,
            u"provider"_s,
            u"resource_id"_s,
            u"start"_s,
            u"end"_s,
            u"amount"_s,
            u"amount_kind"_s,
            u"currency"_s,
            u"billing_unit"_s,
            u"quantity"_s,
            u"min_increment"_s,
            u"idle_notes"_s,
            u"start_stop_notes"_s,
            u"autoscaling_notes"_s,
            u"source"_s,
            u"reference"_s,
            u"confirmed"_s};
}

QStringList BillCsv::requiredColumns()
{
    return {u"category"_s, u"start"_s, u"end"_s, u"amount"_s, u"currency"_s};
}

BillCsvResult BillCsv::readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        BillCsvResult r;
        r.errors << BillCsvError{0, 0, {}, u"cannot open %1: %2"_s.arg(path, f.errorString())};
        return r;
    }
    return parse(f.readAll());
}

BillCsvResult BillCsv::parse(const QByteArray &utf8)
{
    BillCsvResult result;
    QByteArray bytes = utf8;
    if (bytes.startsWith("\xEF\xBB\xBF")) // spreadsheets write a BOM
        bytes.remove(0, 3);
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString text = decoder.decode(bytes);
    if (decoder.hasError()) {
        result.errors << BillCsvError{0, 0, {}, u"the file is not valid UTF-8"_s};
        return result;
    }

    QList<CsvReader::Record> records;
    QString csvError;
    int csvLine = 0;
    if (!CsvReader::parse(text, &records, &csvError, &csvLine)) {
        // The row is unknown once quoting is broken; the line is what the user can find.
        result.errors << BillCsvError{0, csvLine, {}, csvError};
        return result;
    }
    if (records.isEmpty()) {
        result.errors << BillCsvError{1, 1, {}, u"the file is empty; a header row is required"_s};
        return result;
    }

    // Header: columns by name.
    const QStringList known = columns();
    QHash<QString, int> col;
    const CsvReader::Record &header = records.first();
    for (int c = 0; c < header.fields.size(); ++c) {
        const QString name = header.fields[c].trimmed().toLower();
        if (!known.contains(name)) {
            result.errors << BillCsvError{
                1, header.line, header.fields[c],
                u"unknown column (accepted: %1)"_s.arg(known.join(u", "_s))};
        } else if (col.contains(name)) {
            result.errors << BillCsvError{1, header.line, name, u"column appears twice"_s};
        } else {
            col.insert(name, c);
        }
    }
    for (const auto &required : requiredColumns())
        if (!col.contains(required))
            result.errors << BillCsvError{1, header.line, required,
                                          u"required column is missing (a header row naming the "
                                          "columns is required)"_s};
    if (!result.errors.isEmpty())
        return result;

    QList<BillItem> items;
    QSet<QString> ids;
    for (qsizetype r = 1; r < records.size(); ++r) {
        const CsvReader::Record &rec = records[r];
        const int row = int(r) + 1;
        const auto err = [&](const QString &column, const QString &message) {
            result.errors << BillCsvError{row, rec.line, column, message};
        };
        if (rec.fields.size() != header.fields.size()) {
            err({}, u"%1 fields, the header has %2 (quote fields that contain commas)"_s
                        .arg(rec.fields.size())
                        .arg(header.fields.size()));
            continue;
        }
        const auto field = [&](const QString &name) {
            const int c = col.value(name, -1);
            return c < 0 ? QString() : rec.fields[c].trimmed();
        };
        const int errorsBefore = int(result.errors.size());

        BillItem b;
        b.id = field(u"id"_s);
        if (b.id.isEmpty())
            b.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        else if (ids.contains(b.id))
            err(u"id"_s, u"id '%1' appears twice"_s.arg(b.id));
        ids.insert(b.id);

        if (!billCategoryFromName(field(u"category"_s), &b.category))
            err(u"category"_s, u"unknown category '%1' (gpu, cpu, storage, network, platform, "
                               "other)"_s.arg(field(u"category"_s)));
        b.provider = field(u"provider"_s);
        b.resourceId = field(u"resource_id"_s);
        QString why;
        for (const auto &[name, target] :
             {std::pair{u"start"_s, &b.start}, std::pair{u"end"_s, &b.end}}) {
            *target = parseUtcTimestamp(field(name), &why);
            if (!target->isValid())
                err(name, why);
        }
        const auto decimal = [&](const QString &name, Decimal *out, bool required) {
            const QString t = field(name);
            if (t.isEmpty() && !required)
                return;
            const auto d = Decimal::parse(t, &why);
            if (d)
                *out = *d;
            else
                err(name, why);
        };
        decimal(u"amount"_s, &b.amount, true);
        decimal(u"quantity"_s, &b.quantity, false);
        const bool quantityStated = !field(u"quantity"_s).isEmpty();
        b.currency = field(u"currency"_s);
        if (!isCurrencyCode(b.currency))
            err(u"currency"_s, u"'%1' is not an ISO 4217 code (three upper-case letters, e.g. "
                               "USD)"_s.arg(b.currency));
        const QString kind = field(u"amount_kind"_s);
        if (!kind.isEmpty() && !amountKindFromName(kind, &b.amountKind))
            err(u"amount_kind"_s, u"unknown amount kind '%1' (total, rate)"_s.arg(kind));
        const QString unit = field(u"billing_unit"_s);
        const bool unitOk = billingUnitFromName(unit, &b.billingUnit);
        if (!unitOk)
            err(u"billing_unit"_s, u"unknown billing unit '%1' (second, minute, hour, month, "
                                   "request, token)"_s.arg(unit));
        if (unitOk && !BillItem::parseMinIncrement(field(u"min_increment"_s), b.billingUnit,
                                                   &b.minIncrement, &b.minIncrementUnit, &why))
            err(u"min_increment"_s, why);
        b.idleNotes = field(u"idle_notes"_s);
        b.startStopNotes = field(u"start_stop_notes"_s);
        b.autoscalingNotes = field(u"autoscaling_notes"_s);
        const QString source = field(u"source"_s);
        if (!billSourceFromName(source, &b.source))
            err(u"source"_s, u"unknown source '%1' (invoice, quote, pricing_page)"_s.arg(source));
        b.reference = field(u"reference"_s);
        const QString confirmed = field(u"confirmed"_s).toLower();
        if (confirmed == "true"_L1 || confirmed == "yes"_L1 || confirmed == "1"_L1)
            b.confirmed = true;
        else if (confirmed.isEmpty() || confirmed == "false"_L1 || confirmed == "no"_L1 ||
                 confirmed == "0"_L1)
            b.confirmed = false;
        else
            err(u"confirmed"_s, u"'%1' is not true/false/yes/no/1/0"_s.arg(confirmed));

        // A per-request or per-token rate without a count would silently bill one unit.
        if (b.amountKind == AmountKind::Rate && !isTimeUnit(b.billingUnit) &&
            b.billingUnit != BillingUnit::None && !quantityStated)
            err(u"quantity"_s, u"a per-%1 rate needs the number of %1s billed"_s.arg(
                                   QLatin1StringView(billingUnitName(b.billingUnit))));
        // Rules across fields (end after start, a rate's unit, ...) once each field parsed.
        if (result.errors.size() == errorsBefore)
            for (const auto &e : b.validate())
                err({}, e);
        items << b;
    }
    if (result.errors.isEmpty())
        result.items = items;
    return result;
}

} // namespace sb
