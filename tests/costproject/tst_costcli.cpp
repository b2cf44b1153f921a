// The "as a new user" scenario through the real command line: two platforms' runs
// against the built-in simulator, a bill CSV per platform (GPU hours, storage, egress), a test
// window per platform, overlap rules, and cost per successful request / output token checked
// against numbers worked out by hand below.
#include "clirun.h"
#include "cost/billitem.h"
#include "store/projectstore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

using Result = test::CliResult;

Result cli(const QStringList &args, int timeoutMs = 180000)
{
    return test::runCli(args, timeoutMs);
}

struct Span
{
    QList<qint64> runs;
    QDateTime start;
    QDateTime end;
};

QString ts(const QDateTime &t)
{
    return formatUtcTimestamp(t);
}

QStringList idsOf(const QJsonArray &items)
{
    QStringList ids;
    for (const QJsonValue &v : items)
        ids << v.toObject().value(u"id"_s).toString();
    ids.sort();
    return ids;
}

QString attributionOf(const QJsonArray &items, const QString &id)
{
    for (const QJsonValue &v : items)
        if (v.toObject().value(u"id"_s).toString() == id)
            return v.toObject().value(u"attribution"_s).toString();
    return {};
}

QString figure(const QJsonObject &o, const char *key)
{
    const QJsonObject f = o.value(QLatin1StringView(key)).toObject();
    return f.value(u"available"_s).toBool() ? f.value(u"value"_s).toString()
                                            : u"n/a: "_s + f.value(u"reason"_s).toString();
}

} // namespace

class TestCostCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_project;
    Span m_a;
    Span m_b;

    bool writeFile(const QString &name, const QString &text)
    {
        QFile f(m_dir.filePath(name));
        return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) == text.toUtf8().size();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_project = m_dir.filePath(u"platforms.sbproj"_s);
        // Two platforms, two runs each, against the built-in simulator.
        for (const QString &sut : {u"A"_s, u"A"_s, u"B"_s, u"B"_s}) {
            const Result r = cli({u"run"_s, u"--project"_s, m_project, u"--num-prompts"_s, u"10"_s,
                                  u"--random-input-len"_s, u"16"_s, u"--random-output-len"_s,
                                  u"4"_s, u"--sut-name"_s, sut});
            QVERIFY2(r.code == 0, qPrintable(r.describe()));
        }
        ProjectStore store;
        QVERIFY(store.open(m_project, ProjectStore::OpenMode::ReadOnly));
        QHash<qint64, QString> sutOf;
        for (const StoredSut &s : store.listSuts())
            sutOf.insert(s.id, s.config.name);
        for (const RunInfo &r : store.listRuns()) {
            Span &span = sutOf.value(r.sutId) == "A"_L1 ? m_a : m_b;
            span.runs.append(r.id);
            if (!span.start.isValid() || r.startedUtc < span.start)
                span.start = r.startedUtc;
            if (!span.end.isValid() || r.endedUtc > span.end)
                span.end = r.endedUtc;
        }
        QCOMPARE(m_a.runs.size(), 2);
        QCOMPARE(m_b.runs.size(), 2);
        // The arithmetic below assumes each window is shorter than the 1-hour increments.
        QVERIFY(m_a.start.msecsTo(m_a.end) < 3600 * 1000);
        QVERIFY(m_b.start.msecsTo(m_b.end) < 3600 * 1000);
    }

    void windowsOverRuns()
    {
        const QString a = u"%1,%2"_s.arg(m_a.runs[0]).arg(m_a.runs[1]);
        const QString b = u"%1,%2"_s.arg(m_b.runs[0]).arg(m_b.runs[1]);
        // A window over both platforms is refused, naming the runs.
        Result r = cli({u"window"_s, u"create"_s, u"--project"_s, m_project, u"--name"_s,
                        u"mixed"_s, u"--runs"_s, u"%1,%2"_s.arg(m_a.runs[0]).arg(m_b.runs[0])});
        QCOMPARE(r.code, 1);
        QVERIFY2(
            r.err.contains(
                u"run %1 on SUT 'A' and run %2 on SUT 'B'"_s.arg(m_a.runs[0]).arg(m_b.runs[0])),
            qPrintable(r.err));
        QCOMPARE(r.err.count(u'\n'), 1); // one line

        for (const auto &[name, runs] :
             {std::pair{u"A window"_s, a}, std::pair{u"B window"_s, b}}) {
            r = cli({u"window"_s, u"create"_s, u"--project"_s, m_project, u"--name"_s, name,
                     u"--runs"_s, runs});
            QVERIFY2(r.code == 0, qPrintable(r.describe()));
            QVERIFY(r.out.contains(u"10 successful requests, 40 output tokens"_s));
        }
        QVERIFY(cli({u"window"_s, u"create"_s, u"--project"_s, m_project, u"--name"_s,
                     u"A window"_s, u"--runs"_s, a})
                    .err.contains(u"already exists"_s));
        r = cli({u"window"_s, u"create"_s, u"--project"_s, m_project, u"--name"_s, u"x"_s,
                 u"--runs"_s, u"a,b"_s});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(u"--runs"_s));
    }

    void windowByInterval()
    {
        Result r = cli({u"window"_s, u"create"_s, u"--project"_s, m_project, u"--name"_s,
                        u"A interval"_s, u"--start"_s, ts(m_a.start), u"--end"_s,
                        ts(m_a.end.addMSecs(1)), u"--sut"_s, u"A"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        for (qint64 id : m_a.runs)
            QVERIFY2(r.out.contains(u"run %1: "_s.arg(id)), qPrintable(r.out));
        for (qint64 id : m_b.runs)
            QVERIFY(!r.out.contains(u"run %1: "_s.arg(id)));
        r = cli({u"window"_s, u"create"_s, u"--project"_s, m_project, u"--name"_s, u"x"_s,
                 u"--start"_s, u"yesterday"_s, u"--end"_s, ts(m_a.end), u"--sut"_s, u"A"_s});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(u"--start 'yesterday'"_s));
        r = cli({u"window"_s, u"list"_s, u"--project"_s, m_project});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(u"3 test window(s)"_s));
    }

    void withoutBillsCostIsNotAvailable()
    {
        const Result r = cli({u"cost"_s, u"--project"_s, m_project, u"--window"_s, u"A window"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY(
            r.out.contains(QRegularExpression(u"Cost per successful request:\\s+not available"_s)));
        QVERIFY(r.out.contains(QRegularExpression(u"Cost per output token:\\s+not available"_s)));
        QVERIFY(!r.out.contains(u"0.00 USD"_s)); // never zero in place of unknown
    }

    void badCsvImportsNothing()
    {
        QVERIFY(
            writeFile(u"bad.csv"_s,
                      u"id,category,start,end,amount,currency\n"
                      "ok,gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1.00,USD\n"
                      "bad,gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,\"1,234.50\",USD\n"_s));
        Result r = cli({u"bills"_s, u"import"_s, u"--project"_s, m_project, u"--csv"_s,
                        m_dir.filePath(u"bad.csv"_s), u"--sut"_s, u"A"_s});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(u"row 3, column 'amount'"_s), qPrintable(r.err));
        QVERIFY(r.err.contains(u"nothing imported"_s));
        r = cli({u"bills"_s, u"list"_s, u"--project"_s, m_project});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(u"0 bill item(s)"_s), qPrintable(r.out));
        // Usage errors name the flag and exit 2.
        r = cli({u"bills"_s, u"import"_s, u"--project"_s, m_project});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(u"--csv"_s));
        r = cli({u"cost"_s, u"--project"_s, m_project});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(u"--window"_s));
        r = cli({u"cost"_s, u"--project"_s, m_project, u"--window"_s, u"A window"_s, u"--rate"_s,
                 u"EUR-USD"_s});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(u"--rate 'EUR-USD'"_s));
        r = cli({u"cost"_s, u"--project"_s, m_project, u"--window"_s, u"nope"_s});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains(u"--window"_s));
    }

    void importBillsPerPlatform()
    {
        const QString header =
            u"id,category,provider,resource_id,start,end,amount,amount_kind,currency,"
            "billing_unit,quantity,min_increment,source,reference\n"_s;
        const auto row = [](const QStringList &f) {
            return f.join(u',') + u'\n';
        };
        const qint64 day = 86400 * 1000;
        // Platform A: 2 GPUs at 2.50 USD/h per started hour for exactly the window; a 200
        // USD/month volume for three days; 0.37 EUR of egress over the window ± 30 min; a
        // setup fee the day before.
        const QString csvA =
            header +
            row({u"gpu-a"_s, u"gpu"_s, u"cloud-a"_s, u"2x-h100"_s, ts(m_a.start), ts(m_a.end),
                 u"2.50"_s, u"rate"_s, u"USD"_s, u"hour"_s, u"2"_s, u"1 hour"_s, u"pricing_page"_s,
                 u"https://example.invalid/a"_s}) +
            row({u"storage-a"_s, u"storage"_s, u"cloud-a"_s, u"vol-1tb"_s,
                 ts(m_a.start.addMSecs(-day)), ts(m_a.end.addMSecs(day)), u"200"_s, u"rate"_s,
                 u"USD"_s, u"month"_s, u"1"_s, u"1 hour"_s, u"invoice"_s, u"INV-A-3"_s}) +
            row({u"egress-a"_s,
                 u"network"_s,
                 u"cdn"_s,
                 u"tunnel"_s,
                 ts(m_a.start.addSecs(-1800)),
                 ts(m_a.end.addSecs(1800)),
                 u"0.37"_s,
                 u"total"_s,
                 u"EUR"_s,
                 {},
                 {},
                 {},
                 u"invoice"_s,
                 u"CF-1"_s}) +
            row({u"setup-a"_s,
                 u"other"_s,
                 u"cloud-a"_s,
                 u"onboarding"_s,
                 ts(m_a.start.addMSecs(-day)),
                 ts(m_a.start.addMSecs(-day)),
                 u"25"_s,
                 u"total"_s,
                 u"USD"_s,
                 {},
                 {},
                 {},
                 u"invoice"_s,
                 u"INV-A-1"_s});
        // Platform B: a 12.00 USD invoice for exactly the window, a 100 USD/month volume,
        // 1.20 USD of egress over the window ± 1 h, and a GPU line of the next day.
        const QString csvB =
            header +
            row({u"gpu-b"_s,
                 u"gpu"_s,
                 u"cloud-b"_s,
                 u"1x-mi300"_s,
                 ts(m_b.start),
                 ts(m_b.end),
                 u"12.00"_s,
                 u"total"_s,
                 u"USD"_s,
                 {},
                 {},
                 {},
                 u"invoice"_s,
                 u"B-77"_s}) +
            row({u"storage-b"_s, u"storage"_s, u"cloud-b"_s, u"vol"_s, ts(m_b.start.addMSecs(-day)),
                 ts(m_b.end.addMSecs(day)), u"100"_s, u"rate"_s, u"USD"_s, u"month"_s, u"1"_s,
                 u"1 hour"_s, u"quote"_s, u"Q-9"_s}) +
            row({u"egress-b"_s,
                 u"network"_s,
                 u"cloud-b"_s,
                 u"egress"_s,
                 ts(m_b.start.addSecs(-3600)),
                 ts(m_b.end.addSecs(3600)),
                 u"1.20"_s,
                 u"total"_s,
                 u"USD"_s,
                 {},
                 {},
                 {},
                 u"invoice"_s,
                 u"B-78"_s}) +
            row({u"later-b"_s,
                 u"gpu"_s,
                 u"cloud-b"_s,
                 u"1x-mi300"_s,
                 ts(m_b.end.addMSecs(day)),
                 ts(m_b.end.addMSecs(2 * day)),
                 u"50"_s,
                 u"total"_s,
                 u"USD"_s,
                 {},
                 {},
                 {},
                 u"invoice"_s,
                 u"B-80"_s});
        QVERIFY(writeFile(u"a.csv"_s, csvA));
        QVERIFY(writeFile(u"b.csv"_s, csvB));
        for (const auto &[file, sut] :
             {std::pair{u"a.csv"_s, u"A"_s}, std::pair{u"b.csv"_s, u"B"_s}}) {
            const Result r = cli({u"bills"_s, u"import"_s, u"--project"_s, m_project, u"--csv"_s,
                                  m_dir.filePath(file), u"--sut"_s, sut});
            QVERIFY2(r.code == 0, qPrintable(r.describe()));
            QVERIFY2(r.out.contains(u"Imported 4 bill item(s)"_s), qPrintable(r.out));
        }
        const Result list = cli({u"bills"_s, u"list"_s, u"--project"_s, m_project});
        QCOMPARE(list.code, 0);
        QVERIFY(list.out.contains(u"8 bill item(s)"_s));
    }

    void undecidedOverlapsBlockUnitCosts()
    {
        const Result r =
            cli({u"cost"_s, u"--project"_s, m_project, u"--window"_s, u"A window"_s, u"--json"_s,
                 u"--currency"_s, u"USD"_s, u"--rate"_s, u"EUR:USD=1.08"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject items = o.value(u"items"_s).toObject();
        QCOMPARE(idsOf(items.value(u"needs_decision"_s).toArray()),
                 (QStringList{u"egress-a"_s, u"storage-a"_s}));
        QVERIFY(figure(o, "cost_per_successful_request").startsWith(u"n/a"_s));
    }

    void setRules()
    {
        for (const auto &[window, item, rule] :
             {std::tuple{u"A window"_s, u"storage-a"_s, u"prorate"_s},
              std::tuple{u"A window"_s, u"egress-a"_s, u"whole"_s},
              std::tuple{u"B window"_s, u"storage-b"_s, u"prorate"_s},
              std::tuple{u"B window"_s, u"egress-b"_s, u"whole"_s}}) {
            const Result r = cli({u"window"_s, u"rule"_s, u"--project"_s, m_project, u"--window"_s,
                                  window, u"--item"_s, item, u"--rule"_s, rule});
            QVERIFY2(r.code == 0, qPrintable(r.describe()));
        }
        // B's item is not A's to decide.
        Result r = cli({u"window"_s, u"rule"_s, u"--project"_s, m_project, u"--window"_s,
                        u"A window"_s, u"--item"_s, u"gpu-b"_s, u"--rule"_s, u"whole"_s});
        QCOMPARE(r.code, 1);
        r = cli({u"window"_s, u"rule"_s, u"--project"_s, m_project, u"--window"_s, u"A window"_s,
                 u"--item"_s, u"gpu-a"_s, u"--rule"_s, u"sometimes"_s});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(u"--rule"_s));
    }

    void unitCostsOfBothPlatforms_data()
    {
        QTest::addColumn<QString>("window");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("total");
        QTest::addColumn<QString>("perRequest");
        QTest::addColumn<QString>("perToken");
        QTest::addColumn<QString>("perMillion");
        QTest::addColumn<QStringList>("included");
        QTest::addColumn<QStringList>("overlapping");
        QTest::addColumn<QStringList>("excluded");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("storage");
        QTest::addColumn<QString>("network");

        // A: GPU 2.50 × 2 × 1 started hour = 5.00; storage prorated: the window (< 1 h) bills
        // one started hour of 200/730 h = 0.273972602739… -> 0.273972603; egress whole:
        // 0.37 EUR × 1.08 = 0.3996 USD. Total 5.673572603 over 20 requests and 80 tokens:
        // 0.28367863015 -> 0.28367863; 0.0709196575375 -> 0.070919658; per 1M 70919.6575375.
        QTest::newRow("A") << u"A window"_s
                           << QStringList{u"--currency"_s, u"USD"_s, u"--rate"_s, u"EUR:USD=1.08"_s}
                           << u"5.673572603"_s << u"0.28367863"_s << u"0.070919658"_s
                           << u"70919.6575375"_s << QStringList{u"gpu-a"_s}
                           << QStringList{u"egress-a"_s, u"storage-a"_s}
                           << QStringList{u"setup-a"_s} << u"5"_s << u"0.273972603"_s
                           << u"0.3996"_s;
        // B: GPU 12.00 inside; storage one started hour of 100/730 = 0.136986301; egress 1.20
        // whole. Total 13.336986301: /20 = 0.66684931505 -> 0.666849315; /80 = 0.1667123287625
        // -> 0.166712329; per 1M 166712.3287625.
        QTest::newRow("B") << u"B window"_s << QStringList{} << u"13.336986301"_s
                           << u"0.666849315"_s << u"0.166712329"_s << u"166712.3287625"_s
                           << QStringList{u"gpu-b"_s} << QStringList{u"egress-b"_s, u"storage-b"_s}
                           << QStringList{u"later-b"_s} << u"12"_s << u"0.136986301"_s << u"1.2"_s;
    }

    void unitCostsOfBothPlatforms()
    {
        QFETCH(QString, window);
        QFETCH(QStringList, extra);
        QFETCH(QString, total);
        QFETCH(QString, perRequest);
        QFETCH(QString, perToken);
        QFETCH(QString, perMillion);
        QFETCH(QStringList, included);
        QFETCH(QStringList, overlapping);
        QFETCH(QStringList, excluded);
        QFETCH(QString, gpu);
        QFETCH(QString, storage);
        QFETCH(QString, network);

        const QStringList base{u"cost"_s, u"--project"_s, m_project, u"--window"_s, window};
        const Result j = cli(base + extra + QStringList{u"--json"_s});
        QVERIFY2(j.code == 0, qPrintable(j.describe()));
        const QJsonObject o = QJsonDocument::fromJson(j.out.toUtf8()).object();
        QCOMPARE(o.value(u"currency"_s).toString(), u"USD"_s);
        QCOMPARE(o.value(u"successful_requests"_s).toInteger(), 20);
        QCOMPARE(o.value(u"output_tokens"_s).toInteger(), 80);
        QCOMPARE(figure(o, "total"), total);
        QCOMPARE(figure(o, "cost_per_successful_request"), perRequest);
        QCOMPARE(figure(o, "cost_per_output_token"), perToken);
        QCOMPARE(figure(o, "cost_per_million_output_tokens"), perMillion);
        const QJsonObject cats = o.value(u"by_category"_s).toObject();
        QCOMPARE(cats.value(u"gpu"_s).toString(), gpu);
        QCOMPARE(cats.value(u"storage"_s).toString(), storage);
        QCOMPARE(cats.value(u"network"_s).toString(), network);
        QCOMPARE(cats.value(u"cpu"_s).toString(), u"0"_s);
        const QJsonObject items = o.value(u"items"_s).toObject();
        QCOMPARE(idsOf(items.value(u"included"_s).toArray()), included);
        QCOMPARE(idsOf(items.value(u"overlapping"_s).toArray()), overlapping);
        QCOMPARE(idsOf(items.value(u"excluded"_s).toArray()), excluded);
        QCOMPARE(idsOf(items.value(u"needs_decision"_s).toArray()), QStringList());
        QCOMPARE(attributionOf(items.value(u"overlapping"_s).toArray(), overlapping[1]),
                 u"prorated"_s);
        QCOMPARE(attributionOf(items.value(u"overlapping"_s).toArray(), overlapping[0]),
                 u"whole"_s);
        QVERIFY(o.value(u"errors"_s).toArray().isEmpty());

        // The text lists every prorated and excluded line, with the unit costs.
        const Result t = cli(base + extra);
        QVERIFY2(t.code == 0, qPrintable(t.describe()));
        QVERIFY(t.out.contains(
            QRegularExpression(u"Excluded \\(1\\):\\n.*\\(id %1\\)"_s.arg(excluded[0]))));
        QVERIFY(t.out.contains(u"Overlapping, counted by choice (2):"_s));
        for (const QString &id : included + overlapping + excluded)
            QVERIFY2(t.out.contains(u"(id %1)"_s.arg(id)), qPrintable(id));
        QVERIFY(t.out.contains(QRegularExpression(
            u"Cost per output token:\\s+%1 USD"_s.arg(QRegularExpression::escape(perToken)))));
        QVERIFY(t.out.contains(
            QRegularExpression(u"Cost per successful request:\\s+\\d+\\.\\d{6} USD"_s)));
    }

    void mixedCurrencyWithoutRateIsAnError()
    {
        const Result r = cli({u"cost"_s, u"--project"_s, m_project, u"--window"_s, u"A window"_s});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains(u"EUR"_s));
        QVERIFY(r.out.contains(QRegularExpression(u"Total:\\s+not available"_s)));
    }

    void savedRatesAreUsedLater()
    {
        Result r = cli({u"cost"_s, u"--project"_s, m_project, u"--window"_s, u"A window"_s,
                        u"--currency"_s, u"USD"_s, u"--rate"_s, u"EUR:USD=1.08"_s,
                        u"--rate-source"_s, u"ECB 2024-05-01"_s, u"--save-rates"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        r = cli({u"cost"_s, u"--project"_s, m_project, u"--window"_s, u"A window"_s, u"--json"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(figure(o, "total"), u"5.673572603"_s);
        QCOMPARE(o.value(u"conversion_rates"_s)
                     .toArray()
                     .first()
                     .toObject()
                     .value(u"source"_s)
                     .toString(),
                 u"ECB 2024-05-01"_s);
    }

    // An imported run has no SUT row: its SUT is the name in its snapshot. `bills import --sut`
    // and `window create --sut` resolve that name the same way (CostStore::sutNames); the bill
    // import used to say there was no such SUT while the window accepted it (issue 27).
    void importedRunsSutIsKnownToEveryCommand()
    {
        const QString project = m_dir.filePath(u"imported.sbproj"_s);
        const QString sut = u"imported (vllm bench serve)"_s;
        Result r = cli({u"import"_s, u"--project"_s, project, u"--vllm-json"_s,
                        QStringLiteral(SB_TEST_DATA_DIR "/vllm/vllm-serve-detailed.json")});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY(writeFile(u"imported.csv"_s,
                          u"id,category,start,end,amount,currency\n"
                          "gpu,gpu,2024-05-01T10:00:00Z,2024-05-01T11:00:00Z,1.00,USD\n"_s));
        r = cli({u"bills"_s, u"import"_s, u"--project"_s, project, u"--csv"_s,
                 m_dir.filePath(u"imported.csv"_s), u"--sut"_s, sut});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY2(!r.err.contains(u"no SUT named"_s), qPrintable(r.err));
        QVERIFY(r.out.contains(u"for SUT '%1'"_s.arg(sut)));
        r = cli({u"window"_s, u"create"_s, u"--project"_s, project, u"--name"_s, u"imported"_s,
                 u"--start"_s, u"2000-01-01T00:00:00Z"_s, u"--end"_s, u"2100-01-01T00:00:00Z"_s,
                 u"--sut"_s, sut});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        // A name no command knows is said by both, with the names they do know.
        r = cli({u"bills"_s, u"import"_s, u"--project"_s, project, u"--csv"_s,
                 m_dir.filePath(u"imported.csv"_s), u"--sut"_s, u"nope"_s});
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        QVERIFY2(r.err.contains(u"no SUT named 'nope'"_s) && r.err.contains(u"'%1'"_s.arg(sut)),
                 qPrintable(r.err));
        r = cli({u"window"_s, u"create"_s, u"--project"_s, project, u"--name"_s, u"none"_s,
                 u"--start"_s, u"2000-01-01T00:00:00Z"_s, u"--end"_s, u"2100-01-01T00:00:00Z"_s,
                 u"--sut"_s, u"nope"_s});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(u"no SUT named 'nope'"_s), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCostCli)
#include "tst_costcli.moc"
