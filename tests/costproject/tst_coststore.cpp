// Cost data in the project file: bill items, test windows and conversion rates round-trip
// exactly; windows are built from stored runs (exact times, counts from the raw records).
#include "config/runplan.h"
#include "cost/billcsv.h"
#include "cost/costbreakdown.h"
#include "costproject/coststore.h"
#include "costproject/loaddescriptor.h"
#include "metrics/requestrecord.h"
#include "store/projectstore.h"
#include "store/runwriter.h"

#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QDateTime utc(const char *text)
{
    return parseUtcTimestamp(QString::fromLatin1(text));
}

Decimal dec(const char *text)
{
    return *Decimal::parse(QString::fromLatin1(text));
}

// Request i of a synthetic run: every 5th failed, the first `warmup` are warm-up, a successful
// one produced 3 + i % 4 tokens in as many chunks.
RequestRecord record(int i, int warmup)
{
    RequestRecord r;
    r.index = i;
    r.datasetItem = i;
    r.warmup = i < warmup;
    r.requestId = u"r%1"_s.arg(i);
    r.tSched = 1'000'000'000 + qint64(i) * 10'000'000;
    r.tQueued = r.tSched;
    r.tDispatch = r.tSched;
    r.tSend = r.tSched + 1000;
    r.inputTokens = 10;
    r.inputSource = TokenSource::ServerUsage;
    if (i % 5 == 4) {
        r.error = ErrorClass::Http5xx;
        r.httpStatus = 500;
        r.errorMessage = u"boom"_s;
        r.tEnd = r.tSend + 1'000'000;
        return r;
    }
    const int n = 3 + i % 4;
    qint64 t = r.tSend + 5'000'000;
    for (int c = 0; c < n; ++c) {
        r.chunkTimes.append(t);
        r.chunkTokens.append(1);
        t += 1'000'000;
    }
    r.tFirst = r.chunkTimes.first();
    r.tLast = r.chunkTimes.last();
    r.tEnd = r.tLast + 1000;
    r.outputTokens = n;
    r.outputSource = TokenSource::ServerUsage;
    r.httpStatus = 200;
    r.finishReason = u"length"_s;
    return r;
}

struct Expected
{
    qint64 completed = 0;
    qint64 outputTokens = 0;
};

// Counted here by the definition (successful, not warm-up), not by summarize().
Expected expectedCounts(int requests, int warmup)
{
    Expected e;
    for (int i = 0; i < requests; ++i) {
        const RequestRecord r = record(i, warmup);
        if (!r.warmup && r.ok()) {
            ++e.completed;
            e.outputTokens += r.outputTokens;
        }
    }
    return e;
}

RunPlan planFor(const QString &sut, double rate, int maxConcurrency)
{
    RunPlan p;
    p.name = u"plan"_s;
    p.sut.name = sut;
    p.sut.baseUrl = u"http://127.0.0.1:1"_s;
    p.profile.scenario = Scenario::Server;
    p.profile.arrival = ArrivalProcess::Poisson;
    p.profile.requestRate = rate;
    p.profile.maxConcurrency = maxConcurrency;
    return p;
}

} // namespace

Q_DECLARE_METATYPE(sb::BillItem)

class TestCostStore : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_serial = 0;

    QString freshPath() { return m_dir.filePath(u"c%1.sbproj"_s.arg(++m_serial)); }

    qint64 ensureSut(ProjectStore &store, const QString &name)
    {
        for (const StoredSut &s : store.listSuts())
            if (s.config.name == name)
                return s.id;
        StoredSut s;
        s.config.name = name;
        s.config.baseUrl = u"http://127.0.0.1:1"_s;
        return store.saveSut(s);
    }

    // A finished run with `requests` synthetic records (or only a summary when 0).
    qint64 writeRun(ProjectStore &store, const QString &sut, const char *start, const char *end,
                    int requests, int warmup = 0, double rate = 8, int maxConcurrency = 64,
                    StoredRunStatus status = StoredRunStatus::Completed,
                    const QJsonObject &summary = {})
    {
        RunWriter w;
        QString error;
        if (!w.open(store.path(), &error)) {
            qWarning() << error;
            return 0;
        }
        RunInfo meta;
        meta.name = u"run on "_s + sut;
        meta.sutId = ensureSut(store, sut);
        meta.startedUtc = utc(start);
        const qint64 id = w.beginRun(planFor(sut, rate, maxConcurrency).toJson(), meta, &error);
        for (int i = 0; i < requests; ++i)
            w.append(record(i, warmup));
        if (status != StoredRunStatus::Running &&
            !w.finishRun(status, summary, {}, utc(end), 0, &error))
            qWarning() << error;
        if (status == StoredRunStatus::Running)
            w.flush(&error); // left running: close() would mark it interrupted
        return id;
    }

    static BillItem item(const QString &id, BillCategory category, const char *start,
                         const char *end, const char *amount, const QString &currency = u"USD"_s)
    {
        BillItem b;
        b.id = id;
        b.category = category;
        b.start = utc(start);
        b.end = utc(end);
        b.amount = dec(amount);
        b.currency = currency;
        return b;
    }

private slots:
    void billItemsRoundTrip_data()
    {
        QTest::addColumn<BillItem>("item");
        QTest::addColumn<QString>("sut");
        QTest::addColumn<qint64>("minor");
        QTest::addColumn<int>("scale");

        BillItem b = item(u"plain"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z",
                          "2024-05-01T11:00:00.250Z", "2.99");
        QTest::newRow("invoice total, ms end") << b << u"A"_s << qint64(299) << 2;

        b = item(u"per-token"_s, BillCategory::Platform, "2024-05-01T10:00:00Z",
                 "2024-05-01T11:00:00Z", "0.000000015");
        b.amountKind = AmountKind::Rate;
        b.billingUnit = BillingUnit::Token;
        b.quantity = dec("1234567");
        b.minIncrement = dec("1000");
        b.minIncrementUnit = BillingUnit::Token;
        QTest::newRow("9 decimals, token increment") << b << u"A"_s << qint64(15) << 9;

        b = item(u"credit"_s, BillCategory::Other, "2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z",
                 "-50", u"EUR"_s);
        b.reference = u"sk-like reference — ünïcode"_s; // columns keep what JSON scrubbing drops
        b.source = BillSource::Invoice;
        b.confirmed = true;
        QTest::newRow("negative instant, EUR") << b << QString() << qint64(-5000) << 2;

        b = item(u"yen"_s, BillCategory::Network, "2024-05-01T10:00:00Z", "2024-05-02T10:00:00Z",
                 "1234", u"JPY"_s);
        QTest::newRow("JPY, scale 0") << b << u"B"_s << qint64(1234) << 0;

        b = item(u"max"_s, BillCategory::Cpu, "2024-05-01T10:00:00Z", "2024-05-02T10:00:00Z",
                 "9223372036.854775807");
        QTest::newRow("range limit") << b << u"B"_s << qint64(9223372036854775807LL) << 9;

        b = item(u"gpu-ms"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z", "2024-05-01T10:20:00Z",
                 "2.5");
        b.amountKind = AmountKind::Rate;
        b.billingUnit = BillingUnit::Hour;
        b.quantity = dec("8");
        b.minIncrement = dec("0.5");
        b.minIncrementUnit = BillingUnit::Second;
        b.idleNotes = u"billed while idle"_s;
        b.startStopNotes = u"start 10:00, stop 10:20"_s;
        b.autoscalingNotes = u"none"_s;
        b.provider = u"Lambda, Inc."_s;
        b.resourceId = u"gpu \"x\", eu"_s;
        b.source = BillSource::PricingPage;
        QTest::newRow("rate, half-second increment, notes") << b << u"A"_s << qint64(250) << 2;
    }

    void billItemsRoundTrip()
    {
        QFETCH(BillItem, item);
        QFETCH(QString, sut);
        QFETCH(qint64, minor);
        QFETCH(int, scale);
        const QString path = freshPath();
        {
            ProjectStore store;
            QVERIFY(store.open(path));
            CostStore costs(&store);
            QList<BillImportProblem> problems;
            const QList<qint64> ids = costs.importBillItems({item}, sut, &problems);
            QVERIFY2(ids.size() == 1, qPrintable(costs.lastError()));
        }
        ProjectStore store; // a fresh open: nothing comes from memory
        QVERIFY(store.open(path, ProjectStore::OpenMode::ReadOnly));
        const QList<BillItemRow> rows = store.listBillItems();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows[0].amountMinor, minor);
        QCOMPARE(rows[0].amountScale, scale);
        QStringList problems;
        const QList<ProjectBillItem> back = CostStore(&store).billItems(&problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QCOMPARE(back.size(), 1);
        QCOMPARE(back[0].sut, sut);
        QCOMPARE(back[0].rowId, rows[0].id);
        QCOMPARE(back[0].item.amount, item.amount);
        QCOMPARE(back[0].item.quantity, item.quantity);
        QCOMPARE(back[0].item.start, item.start);
        QCOMPARE(back[0].item.end, item.end);
        QCOMPARE(back[0].item.reference, item.reference);
        QCOMPARE(back[0].item.toJson(), item.toJson());
        QCOMPARE(back[0].item.total(), item.total());
    }

    void exampleCsvRoundTrips()
    {
        const BillCsvResult csv =
            BillCsv::readFile(QStringLiteral(SB_EXAMPLES_DIR) + u"/bills-example.csv"_s);
        QVERIFY(csv.ok());
        ProjectStore store;
        QVERIFY(store.open(freshPath()));
        CostStore costs(&store);
        QList<BillImportProblem> problems;
        QCOMPARE(costs.importBillItems(csv.items, u"lambda"_s, &problems).size(), csv.items.size());
        QList<ProjectBillItem> back = costs.billItems();
        QCOMPARE(back.size(), csv.items.size());
        for (const BillItem &want : csv.items) {
            const auto it = std::find_if(back.cbegin(), back.cend(), [&](const ProjectBillItem &p) {
                return p.item.id == want.id;
            });
            QVERIFY2(it != back.cend(), qPrintable(want.id));
            QCOMPARE(it->item.toJson(), want.toJson());
        }
    }

    void importIsAllOrNothing()
    {
        ProjectStore store;
        QVERIFY(store.open(freshPath()));
        CostStore costs(&store);
        QList<BillImportProblem> problems;
        const BillItem a =
            item(u"gpu"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z", "2024-05-01T11:00:00Z", "10");
        QCOMPARE(costs.importBillItems({a}, u"A"_s, &problems).size(), 1);
        // The same id on another SUT is fine: no window sees both.
        QCOMPARE(costs.importBillItems({a}, u"B"_s, &problems).size(), 1);

        // A clash with A's item in the second position: nothing of the batch is stored.
        BillItem fresh = a;
        fresh.id = u"storage"_s;
        QVERIFY(costs.importBillItems({fresh, a}, u"A"_s, &problems).isEmpty());
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].index, 1);
        QCOMPARE(problems[0].column, u"id"_s);
        QVERIFY2(problems[0].message.contains(u"of SUT 'A'"_s), qPrintable(problems[0].message));
        // A shared item meets every SUT's ids.
        QVERIFY(costs.importBillItems({a}, QString(), &problems).isEmpty());
        // An invalid item (end before start) fails the whole batch too.
        BillItem broken = fresh;
        broken.id = u"broken"_s;
        broken.end = broken.start.addSecs(-1);
        QVERIFY(costs.importBillItems({fresh, broken}, u"A"_s, &problems).isEmpty());
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].index, 1);
        QCOMPARE(costs.billItems().size(), 2);
        // An empty id gets a UUID.
        BillItem anonymous = fresh;
        anonymous.id.clear();
        QCOMPARE(costs.importBillItems({anonymous}, u"A"_s, &problems).size(), 1);
        QCOMPARE(costs.billItemsForSut(u"A"_s).size(), 2);
        QCOMPARE(costs.billItemsForSut(u"A"_s).last().item.id.size(), 36);
    }

    void costOptionsRoundTrip()
    {
        const QString path = freshPath();
        CostOptions o;
        o.currency = u"USD"_s;
        o.rates = {{u"EUR"_s, u"USD"_s, dec("1.082345678"), u"ECB reference rate 2024-05-01"_s},
                   {u"JPY"_s, u"USD"_s, dec("0.000000001"), u"ünïcode source"_s}};
        {
            ProjectStore store;
            QVERIFY(store.open(path));
            CostStore costs(&store);
            QCOMPARE(costs.costOptions().rates.size(), 0);
            QVERIFY(costs.costOptions().currency.isEmpty());
            QVERIFY2(costs.saveCostOptions(o), qPrintable(costs.lastError()));
            // A zero rate is refused.
            CostOptions bad = o;
            bad.rates[0].rate = Decimal();
            QVERIFY(!costs.saveCostOptions(bad));
        }
        ProjectStore store;
        QVERIFY(store.open(path, ProjectStore::OpenMode::ReadOnly));
        const CostOptions back = CostStore(&store).costOptions();
        QCOMPARE(back.currency, o.currency);
        QCOMPARE(back.rates, o.rates);
        // The file's own facts stay untouchable.
        ProjectStore rw;
        QVERIFY(rw.open(path));
        QVERIFY(!rw.setProjectInfo(u"created_by"_s, u"me"_s));
    }

    void loadDescriptors_data()
    {
        QTest::addColumn<double>("rate");
        QTest::addColumn<int>("maxConcurrency");
        QTest::addColumn<int>("closedLoop");
        QTest::addColumn<QString>("expected");
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("poisson capped")
            << 8.0 << 64 << 0 << u"server, poisson 8 req/s, max concurrency 64"_s;
        QTest::newRow("all at once")
            << inf << 0 << 0 << u"server, all at once (rate inf), unlimited concurrency"_s;
        QTest::newRow("closed loop")
            << inf << 0 << 16 << u"server, all at once (rate inf), closed loop 16"_s;
        QTest::newRow("fraction") << 2.5 << 4 << 0
                                  << u"server, poisson 2.5 req/s, max concurrency 4"_s;
    }

    void loadDescriptors()
    {
        QFETCH(double, rate);
        QFETCH(int, maxConcurrency);
        QFETCH(int, closedLoop);
        QFETCH(QString, expected);
        RunPlan p = planFor(u"A"_s, rate, maxConcurrency);
        p.profile.closedLoopConcurrency = closedLoop;
        QCOMPARE(loadDescriptor(p.profile), expected);
    }

    void windowFromRuns()
    {
        ProjectStore store;
        QVERIFY(store.open(freshPath()));
        const qint64 r1 =
            writeRun(store, u"A"_s, "2024-05-01T10:00:00.125Z", "2024-05-01T10:05:00.250Z", 40, 3);
        const qint64 r2 = writeRun(store, u"A"_s, "2024-05-01T10:10:00Z",
                                   "2024-05-01T10:20:00.999Z", 25, 0, 16, 8);
        const qint64 r3 =
            writeRun(store, u"B"_s, "2024-05-01T11:00:00Z", "2024-05-01T11:01:00Z", 10);
        // No records, only the stored summary, with the GPU energy its server metrics measured
        // (ServerEvidence::toJson's shape, as runResultJson stores it).
        const QJsonObject energy{{u"available"_s, true}, {u"value"_s, 5400.5}, {u"unit"_s, u"J"_s}};
        const QJsonObject serverMetrics{{u"evidence"_s, QJsonObject{{u"energy_j"_s, energy}}}};
        const qint64 r4 = writeRun(store, u"A"_s, "2024-05-01T10:30:00Z", "2024-05-01T10:31:00Z", 0,
                                   0, 8, 64, StoredRunStatus::Completed,
                                   {{u"completed"_s, 7},
                                    {u"total_output_tokens"_s, 70},
                                    {u"server_metrics"_s, serverMetrics}});
        QVERIFY(r1 > 0 && r2 > 0 && r3 > 0 && r4 > 0);
        CostStore costs(&store);

        const auto w = costs.windowFromRuns(u"A runs"_s, {r1, r2, r4});
        QVERIFY2(w, qPrintable(costs.lastError()));
        QCOMPARE(w->sut, u"A"_s);
        QCOMPARE(w->start, utc("2024-05-01T10:00:00.125Z"));
        QCOMPARE(w->end, utc("2024-05-01T10:31:00Z"));
        QCOMPARE(w->runs.size(), 3);
        const Expected e1 = expectedCounts(40, 3);
        const Expected e2 = expectedCounts(25, 0);
        QCOMPARE(w->runs[0].runId, QString::number(r1));
        QCOMPARE(w->runs[0].start, utc("2024-05-01T10:00:00.125Z"));
        QCOMPARE(w->runs[0].end, utc("2024-05-01T10:05:00.250Z"));
        QCOMPARE(w->runs[0].successfulRequests, e1.completed);
        QCOMPARE(w->runs[0].outputTokens, e1.outputTokens);
        QCOMPARE(w->runs[1].successfulRequests, e2.completed);
        QCOMPARE(w->runs[1].outputTokens, e2.outputTokens);
        QCOMPARE(w->runs[2].successfulRequests, 7);
        QCOMPARE(w->runs[2].outputTokens, 70);
        // The energy a per-kWh bill item prices: measured by r4 only.
        QCOMPARE(w->runs[2].energyJ, 5400.5);
        QVERIFY(std::isnan(w->runs[0].energyJ) && std::isnan(w->runs[1].energyJ));
        QCOMPARE(e1.completed, 29); // 37 measured, 8 of them failed: a real mix
        QCOMPARE(w->runs[0].load, u"server, poisson 8 req/s, max concurrency 64"_s);
        QCOMPARE(w->runs[1].load, u"server, poisson 16 req/s, max concurrency 8"_s);
        QCOMPARE(w->distinctLoads().size(), 2);
        QVERIFY(w->validate().isEmpty());

        // Two SUTs: refused, naming the runs of each.
        QVERIFY(!costs.windowFromRuns(u"mixed"_s, {r1, r3, r2}));
        QCOMPARE(costs.lastError(),
                 u"a test window covers one SUT, but runs %1, %2 on SUT 'A' and run %3 on SUT 'B'"_s
                     .arg(r1)
                     .arg(r2)
                     .arg(r3));
        QVERIFY(!costs.windowFromRuns(u"none"_s, {}));
        QVERIFY(!costs.windowFromRuns(u"ghost"_s, {r1, 999}));
        QVERIFY(costs.lastError().contains(u"run 999"_s));
        QVERIFY(!costs.windowFromRuns(u"twice"_s, {r1, r1}));
    }

    void runningRunIsRefused()
    {
        const QString path = freshPath();
        ProjectStore store;
        QVERIFY(store.open(path));
        RunWriter w;
        QVERIFY(w.open(path));
        RunInfo meta;
        meta.sutId = ensureSut(store, u"A"_s);
        const qint64 id = w.beginRun(planFor(u"A"_s, 8, 64).toJson(), meta);
        QVERIFY(id > 0);
        CostStore costs(&store);
        QVERIFY(!costs.windowFromRuns(u"w"_s, {id}));
        QVERIFY2(costs.lastError().contains(u"still running"_s), qPrintable(costs.lastError()));
        QVERIFY(w.finishRun(StoredRunStatus::Completed, {}));
    }

    void windowRoundTripsWithRules()
    {
        const QString path = freshPath();
        qint64 r1 = 0, r2 = 0;
        {
            ProjectStore store;
            QVERIFY(store.open(path));
            r1 = writeRun(store, u"A"_s, "2024-05-01T10:00:00Z", "2024-05-01T10:30:00Z", 10);
            r2 = writeRun(store, u"A"_s, "2024-05-01T10:40:00Z", "2024-05-01T11:00:00Z", 20);
            CostStore costs(&store);
            QList<BillImportProblem> problems;
            QCOMPARE(
                costs
                    .importBillItems({item(u"gpu"_s, BillCategory::Gpu, "2024-05-01T09:00:00Z",
                                           "2024-05-01T12:00:00Z", "30"),
                                      item(u"disk"_s, BillCategory::Storage, "2024-05-01T10:30:00Z",
                                           "2024-05-01T13:00:00Z", "5")},
                                     u"A"_s, &problems)
                    .size(),
                2);
            auto w = costs.windowFromRuns(u"A window"_s, {r1, r2});
            QVERIFY(w);
            w->overlapRules.insert(u"gpu"_s, OverlapRule::Prorate);
            w->overlapRules.insert(u"disk"_s, OverlapRule::IncludeWhole);
            QVERIFY2(costs.saveWindow(*w) > 0, qPrintable(costs.lastError()));
            // Names are unique; an unknown item cannot get a rule.
            QVERIFY(costs.saveWindow(*w) == 0);
            QVERIFY(costs.lastError().contains(u"already exists"_s));
            w->name = u"other"_s;
            w->overlapRules.insert(u"nope"_s, OverlapRule::Prorate);
            QVERIFY(costs.saveWindow(*w) == 0);
            QVERIFY(costs.lastError().contains(u"'nope'"_s));
        }
        ProjectStore store;
        QVERIFY(store.open(path));
        CostStore costs(&store);
        const auto back = costs.window(u"A window"_s);
        QVERIFY2(back, qPrintable(costs.lastError()));
        QVERIFY(back->problems.isEmpty());
        const TestWindow &w = back->window;
        QCOMPARE(w.name, u"A window"_s);
        QCOMPARE(w.sut, u"A"_s);
        QCOMPARE(w.start, utc("2024-05-01T10:00:00Z"));
        QCOMPARE(w.end, utc("2024-05-01T11:00:00Z"));
        QCOMPARE(w.runs.size(), 2);
        QCOMPARE(w.runs[0].runId, QString::number(r1));
        QCOMPARE(w.runs[1].runId, QString::number(r2));
        QCOMPARE(w.ruleFor(u"gpu"_s), OverlapRule::Prorate);
        QCOMPARE(w.ruleFor(u"disk"_s), OverlapRule::IncludeWhole);
        QCOMPARE(costs.window(w.id)->window.name, w.name); // by row id too
        QCOMPARE(costs.windows().size(), 1);

        // Changing one rule keeps the other; undecided clears it.
        QString note;
        QVERIFY(costs.setOverlapRule(u"A window"_s, u"gpu"_s, OverlapRule::IncludeWhole, &note));
        QVERIFY(note.isEmpty());
        QVERIFY(costs.setOverlapRule(u"A window"_s, u"disk"_s, OverlapRule::Undecided));
        const TestWindow again = costs.window(u"A window"_s)->window;
        QCOMPARE(again.ruleFor(u"gpu"_s), OverlapRule::IncludeWhole);
        QCOMPARE(again.ruleFor(u"disk"_s), OverlapRule::Undecided);
        QCOMPARE(again.overlapRules.size(), 1);
        QVERIFY(!costs.setOverlapRule(u"A window"_s, u"ghost"_s, OverlapRule::Prorate));
        QVERIFY(!costs.setOverlapRule(u"no window"_s, u"gpu"_s, OverlapRule::Prorate));

        // The breakdown over the stored window: gpu 30 USD whole, disk undecided.
        const CostBreakdown b = costs.breakdown(*costs.window(u"A window"_s), {});
        QVERIFY2(b.ok(), qPrintable(b.errors.join(u'\n')));
        QCOMPARE(b.overlapping.size(), 1);
        QCOMPARE(b.undecided.size(), 1);
        QVERIFY(!b.perSuccessfulRequest.available()); // disk needs a decision
        QVERIFY(costs.setOverlapRule(u"A window"_s, u"disk"_s, OverlapRule::Prorate));
        const CostBreakdown c = costs.breakdown(*costs.window(u"A window"_s), {});
        // disk: 5 USD over 2.5 h, 30 min inside -> 1.00; total 31.00 over 24 successful requests.
        QVERIFY(c.total.available());
        QCOMPARE(*c.total.value, dec("31"));
        QCOMPARE(c.successfulRequests, 24);
        QCOMPARE(*c.perSuccessfulRequest.value, dec("1.291666667"));
    }

    void windowFromInterval()
    {
        ProjectStore store;
        QVERIFY(store.open(freshPath()));
        const qint64 inside =
            writeRun(store, u"A"_s, "2024-05-01T10:00:00Z", "2024-05-01T10:10:00Z", 5);
        const qint64 partly =
            writeRun(store, u"A"_s, "2024-05-01T10:55:00Z", "2024-05-01T11:05:00Z", 5);
        writeRun(store, u"B"_s, "2024-05-01T10:20:00Z", "2024-05-01T10:30:00Z", 5);
        CostStore costs(&store);
        QStringList notes;
        const auto w = costs.windowFromInterval(u"hour"_s, u"A"_s, utc("2024-05-01T10:00:00Z"),
                                                utc("2024-05-01T11:00:00Z"), &notes);
        QVERIFY2(w, qPrintable(costs.lastError()));
        QCOMPARE(w->runs.size(), 1);
        QCOMPARE(w->runs[0].runId, QString::number(inside));
        QCOMPARE(w->start, utc("2024-05-01T10:00:00Z"));
        QCOMPARE(notes.size(), 1);
        QVERIFY(notes[0].startsWith(u"run %1 "_s.arg(partly)));
        QVERIFY(!costs.windowFromInterval(u"x"_s, u"nobody"_s, utc("2024-05-01T10:00:00Z"),
                                          utc("2024-05-01T11:00:00Z")));
        QVERIFY(!costs.windowFromInterval(u"x"_s, u"A"_s, utc("2024-05-01T11:00:00Z"),
                                          utc("2024-05-01T10:00:00Z")));
    }

    void breakdownUsesTheSutsAndSharedItems()
    {
        ProjectStore store;
        QVERIFY(store.open(freshPath()));
        const qint64 r =
            writeRun(store, u"A"_s, "2024-05-01T10:00:00Z", "2024-05-01T11:00:00Z", 20);
        CostStore costs(&store);
        QList<BillImportProblem> problems;
        QVERIFY(!costs
                     .importBillItems({item(u"a-gpu"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z",
                                            "2024-05-01T11:00:00Z", "12.00")},
                                      u"A"_s, &problems)
                     .isEmpty());
        QVERIFY(!costs
                     .importBillItems({item(u"b-gpu"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z",
                                            "2024-05-01T11:00:00Z", "99.00")},
                                      u"B"_s, &problems)
                     .isEmpty());
        QVERIFY(!costs
                     .importBillItems({item(u"client"_s, BillCategory::Cpu, "2024-05-01T10:00:00Z",
                                            "2024-05-01T11:00:00Z", "0.37", u"EUR"_s)},
                                      QString(), &problems)
                     .isEmpty());
        auto w = costs.windowFromRuns(u"w"_s, {r});
        QVERIFY(w);
        QVERIFY(costs.saveWindow(*w) > 0);
        const auto pw = costs.window(u"w"_s);
        // Mixed currencies without a rate: an error, nothing totalled.
        CostBreakdown b = costs.breakdown(*pw, {});
        QVERIFY(!b.ok());
        QVERIFY(!b.total.available());
        CostOptions o;
        o.currency = u"USD"_s;
        o.rates = {{u"EUR"_s, u"USD"_s, dec("1.08"), u"test"_s}};
        QVERIFY(costs.saveCostOptions(o));
        b = costs.breakdown(*pw, costs.costOptions());
        QVERIFY2(b.ok(), qPrintable(b.errors.join(u'\n')));
        // 12.00 + 0.37 × 1.08 = 12.3996; B's item is not A's.
        QVERIFY(b.total.available());
        QCOMPARE(*b.total.value, dec("12.3996"));
        QCOMPARE(b.included.size(), 2);
        QCOMPARE(b.excluded.size(), 0);
        const Expected e = expectedCounts(20, 0);
        QCOMPARE(b.successfulRequests, e.completed);
        QCOMPARE(b.perSuccessfulRequest.value, dec("12.3996").mulDiv(1, e.completed));
        QCOMPARE(b.perOutputToken.value, dec("12.3996").mulDiv(1, e.outputTokens));
    }

    void noBillItemsMeansNotAvailable()
    {
        ProjectStore store;
        QVERIFY(store.open(freshPath()));
        const qint64 r = writeRun(store, u"A"_s, "2024-05-01T10:00:00Z", "2024-05-01T11:00:00Z", 5);
        CostStore costs(&store);
        auto w = costs.windowFromRuns(u"w"_s, {r});
        QVERIFY(w && costs.saveWindow(*w) > 0);
        const CostBreakdown b = costs.breakdown(*costs.window(u"w"_s), {});
        QVERIFY(!b.total.available());
        QVERIFY(!b.perSuccessfulRequest.available());
        QVERIFY(!b.perOutputToken.available());
        QVERIFY(!b.perSuccessfulRequest.reason.isEmpty());
    }

    void unreadableRowIsAnError()
    {
        ProjectStore store;
        QVERIFY(store.open(freshPath()));
        const qint64 r = writeRun(store, u"A"_s, "2024-05-01T10:00:00Z", "2024-05-01T11:00:00Z", 5);
        CostStore costs(&store);
        QList<BillImportProblem> problems;
        QVERIFY(!costs
                     .importBillItems({item(u"ok"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z",
                                            "2024-05-01T11:00:00Z", "1")},
                                      u"A"_s, &problems)
                     .isEmpty());
        BillItemRow bad = ProjectBillItem{0, u"A"_s,
                                          item(u"bad"_s, BillCategory::Gpu, "2024-05-01T10:00:00Z",
                                               "2024-05-01T11:00:00Z", "1")}
                              .toRow();
        bad.details[u"quantity"_s] = u"1,5"_s; // a hand edit the cost module refuses
        QVERIFY(store.saveBillItem(bad) > 0);
        auto w = costs.windowFromRuns(u"w"_s, {r});
        QVERIFY(w && costs.saveWindow(*w) > 0);
        const CostBreakdown b = costs.breakdown(*costs.window(u"w"_s), {});
        QVERIFY(!b.ok());
        QVERIFY(!b.total.available());
        QVERIFY2(b.errors.join(u'\n').contains(u"quantity"_s), qPrintable(b.errors.join(u'\n')));
    }
};

QTEST_GUILESS_MAIN(TestCostStore)
#include "tst_coststore.moc"
