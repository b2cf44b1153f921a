#include "cost/billcsv.h"
#include "cost/csvreader.h"

#include <QTest>
#include <QTimeZone>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

const QByteArray kHeader = "category,start,end,amount,currency,amount_kind,billing_unit,"
                           "min_increment,provider\n";
const QByteArray kGoodRow = "gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,2.50,USD,rate,hour,"
                            "1 second,lambda\n";

} // namespace

class TestBillCsv : public QObject
{
    Q_OBJECT
private slots:
    void exampleFileImports()
    {
        const BillCsvResult r =
            BillCsv::readFile(QStringLiteral(SB_EXAMPLES_DIR "/bills-example.csv"));
        QVERIFY2(r.ok(), r.errors.isEmpty() ? "" : qPrintable(r.errors.first().toString()));
        QCOMPARE(r.items.size(), 6);
        const BillItem &gpu = r.items[0];
        QCOMPARE(gpu.id, u"gpu-node"_s);
        QCOMPARE(gpu.category, BillCategory::Gpu);
        QCOMPARE(gpu.provider, u"Lambda, Inc."_s); // quoted field with a comma
        QCOMPARE(gpu.amountKind, AmountKind::Rate);
        QCOMPARE(gpu.billingUnit, BillingUnit::Hour);
        QCOMPARE(gpu.quantity.toString(), u"8"_s);
        QCOMPARE(gpu.minIncrement.toString(), u"1"_s);
        QCOMPARE(gpu.minIncrementUnit, BillingUnit::Second);
        QCOMPARE(gpu.source, BillSource::PricingPage);
        QVERIFY(!gpu.confirmed);
        QCOMPARE(gpu.start, QDateTime(QDate(2024, 5, 1), QTime(9, 50), QTimeZone::utc()));
        // 1 h 20 min × 8 × 2.99 = 31.893333333|3
        QCOMPARE(gpu.total()->toString(), u"31.893333333"_s);
        QCOMPARE(r.items[3].resourceId, u"tunnel \"bench\", eu-west"_s); // doubled quotes
        QCOMPARE(r.items[3].currency, u"EUR"_s);
        QCOMPARE(r.items[5].start, r.items[5].end); // a one-off fee at an instant
        QVERIFY(r.items[1].confirmed);
    }

    void quotedFields()
    {
        // RFC 4180: commas, doubled quotes and a line break inside quotes; CRLF line ends;
        // columns in any order and any case.
        const QByteArray csv = "Currency,AMOUNT,category,start,end,idle_notes,provider\r\n"
                               "USD,\"12.50\",gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,"
                               "\"idle, but \"\"reserved\"\"\nall night\",\"Acme, Inc.\"\r\n";
        const BillCsvResult r = BillCsv::parse(csv);
        QVERIFY2(r.ok(), r.errors.isEmpty() ? "" : qPrintable(r.errors.first().toString()));
        QCOMPARE(r.items.size(), 1);
        QCOMPARE(r.items[0].amount.toString(), u"12.5"_s);
        QCOMPARE(r.items[0].idleNotes, u"idle, but \"reserved\"\nall night"_s);
        QCOMPARE(r.items[0].provider, u"Acme, Inc."_s);
        QVERIFY(!r.items[0].id.isEmpty()); // a generated id, so overlap rules can refer to it
    }

    void bomAndBlankLines()
    {
        const QByteArray csv = "\xEF\xBB\xBF" + kHeader + "\n" + kGoodRow + "\n\n";
        const BillCsvResult r = BillCsv::parse(csv);
        QVERIFY(r.ok());
        QCOMPARE(r.items.size(), 1);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("column");
        QTest::addColumn<QString>("fragment");
        const auto withRow = [](const QByteArray &row) {
            return kHeader + kGoodRow + row;
        };
        // Row 1 is the header, row 2 the good line, row 3 the line under test.
        QTest::newRow("bad date: no zone")
            << withRow("gpu,2024-05-01T10:00:00,2024-05-01T11:00:00Z,1,USD,total,,,x\n") << 3
            << u"start"_s << u"no time zone"_s;
        QTest::newRow("bad date: space, no seconds")
            << withRow("gpu,2024-05-01 10:00,2024-05-01T11:00:00Z,1,USD,total,,,x\n") << 3
            << u"start"_s << u"not an ISO 8601 UTC time"_s;
        QTest::newRow("bad date: date only")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-02,1,USD,total,,,x\n") << 3 << u"end"_s
            << u"no time of day"_s;
        QTest::newRow("bad date: Feb 30")
            << withRow("gpu,2024-02-30T10:00:00Z,2024-03-01T11:00:00Z,1,USD,total,,,x\n") << 3
            << u"start"_s << u"not a valid calendar date"_s;
        QTest::newRow("bad date: offset")
            << withRow("gpu,2024-05-01T12:00:00+02:00,2024-05-01T13:00:00Z,1,USD,total,,,x\n") << 3
            << u"start"_s << u"in UTC"_s;
        QTest::newRow("bad amount: thousands separator")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,\"1,234.50\",USD,total,,,x\n")
            << 3 << u"amount"_s << u"thousands separator"_s;
        QTest::newRow("bad amount: symbol")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,$5,USD,total,,,x\n") << 3
            << u"amount"_s << u"not a decimal number"_s;
        QTest::newRow("bad amount: empty")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,,USD,total,,,x\n") << 3
            << u"amount"_s << u"empty"_s;
        QTest::newRow("bad currency: lower case")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,usd,total,,,x\n") << 3
            << u"currency"_s << u"ISO 4217"_s;
        QTest::newRow("bad currency: symbol")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,$,total,,,x\n") << 3
            << u"currency"_s << u"ISO 4217"_s;
        QTest::newRow("unknown category")
            << withRow("tpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD,total,,,x\n") << 3
            << u"category"_s << u"unknown category 'tpu'"_s;
        QTest::newRow("unknown unit")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD,rate,fortnight,,x\n")
            << 3 << u"billing_unit"_s << u"unknown billing unit 'fortnight'"_s;
        QTest::newRow("unknown amount kind")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD,flat,,,x\n") << 3
            << u"amount_kind"_s << u"unknown amount kind"_s;
        QTest::newRow("increment unit does not fit")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD,rate,hour,5 token,x\n")
            << 3 << u"min_increment"_s << u"does not fit"_s;
        QTest::newRow("per-token rate without quantity")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,0.000002,USD,rate,token,,x\n")
            << 3 << u"quantity"_s << u"needs the number of tokens billed"_s;
        QTest::newRow("rate without unit")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD,rate,,,x\n") << 3
            << QString() << u"needs a billing unit"_s;
        QTest::newRow("end before start")
            << withRow("gpu,2024-05-01T11:00:00Z,2024-05-01T10:00:00Z,1,USD,total,,,x\n") << 3
            << QString() << u"before start"_s;
        QTest::newRow("unquoted comma shifts columns")
            << withRow("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD,total,,,Acme, Inc.\n")
            << 3 << QString() << u"10 fields, the header has 9"_s;
        QTest::newRow("missing column")
            << QByteArray("category,start,end,amount\ngpu,2024-05-01T10:00:00Z,"
                          "2024-05-01T11:00:00Z,1\n")
            << 1 << u"currency"_s << u"required column is missing"_s;
        QTest::newRow("no header row")
            << QByteArray("gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD\n") << 1 << u"gpu"_s
            << u"unknown column"_s;
        QTest::newRow("misspelt optional column")
            << QByteArray("category,start,end,amount,currency,min_incremnt\n") << 1
            << u"min_incremnt"_s << u"unknown column"_s;
        QTest::newRow("duplicate column")
            << QByteArray("category,start,end,amount,currency,amount\n") << 1 << u"amount"_s
            << u"twice"_s;
        QTest::newRow("empty file") << QByteArray() << 1 << QString() << u"header row"_s;
    }
    void errors()
    {
        QFETCH(QByteArray, csv);
        QFETCH(int, row);
        QFETCH(QString, column);
        QFETCH(QString, fragment);
        const BillCsvResult r = BillCsv::parse(csv);
        QVERIFY(!r.ok());
        QVERIFY(r.items.isEmpty()); // nothing half-imported: the good row 2 is not returned
        const BillCsvError &e = r.errors.first();
        QVERIFY2(e.message.contains(fragment), qPrintable(e.toString()));
        QCOMPARE(e.row, row);
        QCOMPARE(e.column, column);
        QVERIFY(e.toString().startsWith(u"row %1"_s.arg(row)));
    }

    void brokenQuotingIsReportedByLine()
    {
        const QByteArray csv =
            kHeader + kGoodRow +
            "gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD,total,,,\"Acme\n"
            "gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD,total,,,x\n";
        const BillCsvResult r = BillCsv::parse(csv);
        QVERIFY(r.items.isEmpty());
        QCOMPARE(r.errors.size(), 1);
        QCOMPARE(r.errors[0].line, 3); // the quote opens on line 3 and swallows the rest
        QCOMPARE(r.errors[0].toString(), u"line 3: a quoted field opened here is never closed"_s);
    }

    void everyBadRowIsReported()
    {
        const QByteArray csv =
            kHeader + kGoodRow +
            "gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1.2.3,USD,total,,,x\n" + kGoodRow +
            "cpu,yesterday,2024-05-01T11:00:00Z,1,EURO,total,,,x\n";
        const BillCsvResult r = BillCsv::parse(csv);
        QVERIFY(r.items.isEmpty());
        QCOMPARE(r.errors.size(), 3);
        QCOMPARE(r.errors[0].row, 3);
        QCOMPARE(r.errors[0].column, u"amount"_s);
        QCOMPARE(r.errors[1].row, 5);
        QCOMPARE(r.errors[1].column, u"start"_s);
        QCOMPARE(r.errors[2].row, 5);
        QCOMPARE(r.errors[2].column, u"currency"_s);
        QCOMPARE(r.errors[1].toString(),
                 u"row 5, column 'start': 'yesterday' is not an ISO 8601 UTC time "
                 "(e.g. 2024-05-01T10:00:00Z)"_s);
    }

    void rowsAreCountedAsRecordsNotLines()
    {
        // Row 2 spans two lines; the bad record is row 3, starting on line 4.
        const QByteArray csv =
            kHeader + "gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD,total,,,\"a\nb\"\n"
                      "gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,x,USD,total,,,c\n";
        const BillCsvResult r = BillCsv::parse(csv);
        QCOMPARE(r.errors.size(), 1);
        QCOMPARE(r.errors[0].row, 3);
        QCOMPARE(r.errors[0].line, 4);
        QVERIFY(r.errors[0].toString().startsWith(u"row 3 (line 4), column 'amount'"_s));
    }

    void duplicateIds()
    {
        const QByteArray csv = "id,category,start,end,amount,currency\n"
                               "a,gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD\n"
                               "a,cpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1,USD\n";
        const BillCsvResult r = BillCsv::parse(csv);
        QCOMPARE(r.errors.size(), 1);
        QCOMPARE(r.errors[0].row, 3);
        QCOMPARE(r.errors[0].column, u"id"_s);
    }

    void csvReader_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("firstRecord");
        QTest::addColumn<bool>("ok");
        QTest::newRow("plain") << u"a,b,c"_s << QStringList{u"a"_s, u"b"_s, u"c"_s} << true;
        QTest::newRow("empty fields") << u",,"_s << QStringList{u""_s, u""_s, u""_s} << true;
        QTest::newRow("quoted comma") << u"\"a,b\",c"_s << QStringList{u"a,b"_s, u"c"_s} << true;
        QTest::newRow("doubled quote")
            << u"\"say \"\"hi\"\"\""_s << QStringList{u"say \"hi\""_s} << true;
        QTest::newRow("quote in unquoted field") << u"ab\"c"_s << QStringList{} << false;
        QTest::newRow("text after closing quote") << u"\"a\"b,c"_s << QStringList{} << false;
    }
    void csvReader()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, firstRecord);
        QFETCH(bool, ok);
        QList<CsvReader::Record> records;
        QString error;
        int line = 0;
        QCOMPARE(CsvReader::parse(text, &records, &error, &line), ok);
        if (ok)
            QCOMPARE(records.first().fields, firstRecord);
        else
            QVERIFY(!error.isEmpty() && line == 1);
    }
};

QTEST_GUILESS_MAIN(TestBillCsv)
#include "tst_billcsv.moc"
