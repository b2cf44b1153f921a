#include "cost/billitem.h"
#include "cost/costattribution.h"
#include "cost/costbreakdown.h"
#include "cost/testwindow.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <QTimeZone>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

// Every case uses the window [10:00, 11:00) UTC on 2024-05-01 unless it says otherwise.
const QDateTime kT0(QDate(2024, 5, 1), QTime(10, 0), QTimeZone::utc());
constexpr qint64 kMin = 60 * 1000;

QDateTime at(qint64 msFromT0)
{
    return kT0.addMSecs(msFromT0);
}
Decimal dec(const QString &text)
{
    return *Decimal::parse(text);
}

TestWindow hourWindow(OverlapRule rule = OverlapRule::Undecided, const QString &itemId = {})
{
    TestWindow w;
    w.name = u"w"_s;
    w.sut = u"sut-a"_s;
    w.start = at(0);
    w.end = at(60 * kMin);
    w.runs = {WindowRun{u"run-1"_s, at(0), at(60 * kMin), 1000, 100000, u"poisson 10 req/s"_s}};
    if (rule != OverlapRule::Undecided)
        w.overlapRules.insert(itemId, rule);
    return w;
}

BillItem totalItem(const QString &id, const QString &amount, qint64 startMs, qint64 endMs,
                   BillCategory cat = BillCategory::Gpu, const QString &currency = u"USD"_s)
{
    BillItem b;
    b.id = id;
    b.category = cat;
    b.provider = u"lambda"_s;
    b.resourceId = id;
    b.start = at(startMs);
    b.end = at(endMs);
    b.amount = dec(amount);
    b.currency = currency;
    b.source = BillSource::Invoice;
    b.confirmed = true;
    return b;
}

BillItem rateItem(const QString &id, const QString &rate, BillingUnit unit, qint64 startMs,
                  qint64 endMs, const QString &quantity = u"1"_s, const QString &increment = {},
                  BillingUnit incrementUnit = BillingUnit::None)
{
    BillItem b = totalItem(id, rate, startMs, endMs);
    b.amountKind = AmountKind::Rate;
    b.billingUnit = unit;
    b.quantity = dec(quantity);
    if (!increment.isEmpty())
        b.minIncrement = dec(increment);
    b.minIncrementUnit = incrementUnit;
    b.source = BillSource::PricingPage;
    return b;
}

const AttributedItem *onlyItem(const CostBreakdown &b)
{
    for (const auto *list : {&b.included, &b.overlapping, &b.undecided, &b.excluded})
        if (!list->isEmpty())
            return &list->first();
    return nullptr;
}

} // namespace

Q_DECLARE_METATYPE(sb::BillItem)

class TestCostAttribution : public QObject
{
    Q_OBJECT
private slots:
    // Half-open intervals: [start, end). Offsets in ms from the window start (10:00).
    void placement_data()
    {
        QTest::addColumn<qint64>("s");
        QTest::addColumn<qint64>("e");
        QTest::addColumn<int>("expected");
        const qint64 W = 60 * kMin;
        QTest::newRow("ends exactly at window start") << -W << qint64(0) << int(Placement::Outside);
        QTest::newRow("ends 1 ms after window start")
            << -W << qint64(1) << int(Placement::Overlapping);
        QTest::newRow("starts exactly at window end") << W << 2 * W << int(Placement::Outside);
        QTest::newRow("starts 1 ms before window end")
            << W - 1 << 2 * W << int(Placement::Overlapping);
        QTest::newRow("equals the window") << qint64(0) << W << int(Placement::Inside);
        QTest::newRow("strictly inside") << 10 * kMin << 20 * kMin << int(Placement::Inside);
        QTest::newRow("starts inside, ends after")
            << 30 * kMin << 90 * kMin << int(Placement::Overlapping);
        QTest::newRow("starts before, ends inside")
            << -30 * kMin << 30 * kMin << int(Placement::Overlapping);
        QTest::newRow("spans the whole window")
            << -30 * kMin << 90 * kMin << int(Placement::Overlapping);
        QTest::newRow("long before") << -3 * W << -2 * W << int(Placement::Outside);
        // An instant t counts when start <= t < end, the same rule as a half-open interval.
        QTest::newRow("zero-length at window start")
            << qint64(0) << qint64(0) << int(Placement::Inside);
        QTest::newRow("zero-length inside") << 30 * kMin << 30 * kMin << int(Placement::Inside);
        QTest::newRow("zero-length at window end") << W << W << int(Placement::Outside);
        QTest::newRow("zero-length 1 ms before start")
            << qint64(-1) << qint64(-1) << int(Placement::Outside);
    }
    void placement()
    {
        QFETCH(qint64, s);
        QFETCH(qint64, e);
        QFETCH(int, expected);
        QCOMPARE(int(placementOf(s, e, 0, 60 * kMin)), expected);
    }

    // One item against the hour window; `counted` is the hand-computed amount it contributes.
    void attribution_data()
    {
        QTest::addColumn<BillItem>("item");
        QTest::addColumn<int>("rule");
        QTest::addColumn<int>("attribution");
        QTest::addColumn<QString>("itemTotal");
        QTest::addColumn<QString>("counted");
        const int undecided = int(OverlapRule::Undecided);
        const int prorate = int(OverlapRule::Prorate);
        const int whole = int(OverlapRule::IncludeWhole);

        // --- totals ---
        QTest::newRow("total inside")
            << totalItem(u"i"_s, u"100"_s, 10 * kMin, 50 * kMin) << undecided
            << int(ItemAttribution::Inside) << u"100"_s << u"100"_s;
        QTest::newRow("total ends exactly at window start")
            << totalItem(u"i"_s, u"100"_s, -60 * kMin, 0) << prorate
            << int(ItemAttribution::Outside) << u"100"_s << u"0"_s;
        QTest::newRow("total starts exactly at window end")
            << totalItem(u"i"_s, u"100"_s, 60 * kMin, 120 * kMin) << whole
            << int(ItemAttribution::Outside) << u"100"_s << u"0"_s;
        // [10:30, 12:30): 30 of 120 min inside -> 100 × 30/120 = 25
        QTest::newRow("total starts inside ends after, prorated")
            << totalItem(u"i"_s, u"100"_s, 30 * kMin, 150 * kMin) << prorate
            << int(ItemAttribution::Prorated) << u"100"_s << u"25"_s;
        // [10:00, 13:00): 60 of 180 min -> 100/3 = 33.333333333|3 -> 33.333333333
        QTest::newRow("total prorated, non-terminating")
            << totalItem(u"i"_s, u"100"_s, 0, 180 * kMin) << prorate
            << int(ItemAttribution::Prorated) << u"100"_s << u"33.333333333"_s;
        // [09:00, 13:00) spans the window: 60 of 240 min -> 10 × 1/4 = 2.5
        QTest::newRow("total spans the whole window, prorated")
            << totalItem(u"i"_s, u"10"_s, -60 * kMin, 180 * kMin) << prorate
            << int(ItemAttribution::Prorated) << u"10"_s << u"2.5"_s;
        QTest::newRow("total overlaps, included whole")
            << totalItem(u"i"_s, u"100"_s, 30 * kMin, 150 * kMin) << whole
            << int(ItemAttribution::Whole) << u"100"_s << u"100"_s;
        QTest::newRow("total overlaps, no rule")
            << totalItem(u"i"_s, u"100"_s, 30 * kMin, 150 * kMin) << undecided
            << int(ItemAttribution::NeedsDecision) << u"100"_s << u"0"_s;
        // [10:30, 11:30), half inside: 3 nano / 2 = 1.5 nano -> half to even: 2 nano
        QTest::newRow("prorate rounds half to even (up)")
            << totalItem(u"i"_s, u"0.000000003"_s, 30 * kMin, 90 * kMin) << prorate
            << int(ItemAttribution::Prorated) << u"0.000000003"_s << u"0.000000002"_s;
        // 5 nano / 2 = 2.5 nano -> half to even: 2 nano
        QTest::newRow("prorate rounds half to even (down)")
            << totalItem(u"i"_s, u"0.000000005"_s, 30 * kMin, 90 * kMin) << prorate
            << int(ItemAttribution::Prorated) << u"0.000000005"_s << u"0.000000002"_s;
        QTest::newRow("zero-length fee at window start")
            << totalItem(u"i"_s, u"5"_s, 0, 0) << undecided << int(ItemAttribution::Inside)
            << u"5"_s << u"5"_s;
        QTest::newRow("zero-length fee at window end")
            << totalItem(u"i"_s, u"5"_s, 60 * kMin, 60 * kMin) << undecided
            << int(ItemAttribution::Outside) << u"5"_s << u"0"_s;
        QTest::newRow("credit inside") << totalItem(u"i"_s, u"-10"_s, 0, 60 * kMin) << undecided
                                       << int(ItemAttribution::Inside) << u"-10"_s << u"-10"_s;

        // --- rates over time; billable time = duration rounded UP to the increment ---
        // 90 s at 2.50/hour, per started hour -> 1 h -> 2.50
        QTest::newRow("90 s billed per started hour")
            << rateItem(u"i"_s, u"2.50"_s, BillingUnit::Hour, 0, 90 * 1000) << undecided
            << int(ItemAttribution::Inside) << u"2.5"_s << u"2.5"_s;
        // 40 min × 8 GPUs at 2.50/GPU-hour, per started hour -> 1 h × 8 × 2.50 = 20
        QTest::newRow("8 GPUs, 40 min, per started hour")
            << rateItem(u"i"_s, u"2.50"_s, BillingUnit::Hour, 0, 40 * kMin, u"8"_s) << undecided
            << int(ItemAttribution::Inside) << u"20"_s << u"20"_s;
        // 90 s at 0.001/second in 60 s increments -> 120 s -> 0.12
        QTest::newRow("per second, 60 s increment")
            << rateItem(u"i"_s, u"0.001"_s, BillingUnit::Second, 0, 90 * 1000, u"1"_s, u"60"_s,
                        BillingUnit::Second)
            << undecided << int(ItemAttribution::Inside) << u"0.12"_s << u"0.12"_s;
        // 1.5 s at 0.001/second, per started second -> 2 s -> 0.002
        QTest::newRow("per second, sub-second rounds up")
            << rateItem(u"i"_s, u"0.001"_s, BillingUnit::Second, 0, 1500) << undecided
            << int(ItemAttribution::Inside) << u"0.002"_s << u"0.002"_s;
        // 90 s at 3.60/hour, per second -> 3.60 × 90/3600 = 0.09
        QTest::newRow("hourly rate billed per second")
            << rateItem(u"i"_s, u"3.60"_s, BillingUnit::Hour, 0, 90 * 1000, u"1"_s, u"1"_s,
                        BillingUnit::Second)
            << undecided << int(ItemAttribution::Inside) << u"0.09"_s << u"0.09"_s;
        // 30 min at 730/month (730 h), per started hour -> 1 h -> 730 × 1/730 = 1
        QTest::newRow("monthly rate, hourly increment")
            << rateItem(u"i"_s, u"730"_s, BillingUnit::Month, 0, 30 * kMin, u"1"_s, u"1"_s,
                        BillingUnit::Hour)
            << undecided << int(ItemAttribution::Inside) << u"1"_s << u"1"_s;
        // [10:20, 12:20) × 8 at 2.50/h: whole item = 2 h × 8 × 2.5 = 40; 40 min inside billed
        // as 1 started hour -> 1 × 8 × 2.50 = 20
        QTest::newRow("hourly rate prorated: 40 min billed as 1 h")
            << rateItem(u"i"_s, u"2.50"_s, BillingUnit::Hour, 20 * kMin, 140 * kMin, u"8"_s)
            << prorate << int(ItemAttribution::Prorated) << u"40"_s << u"20"_s;
        // [10:59, 11:01) at 0.001/s: 60 of 120 s inside -> 0.06
        QTest::newRow("per-second rate prorated")
            << rateItem(u"i"_s, u"0.001"_s, BillingUnit::Second, 59 * kMin, 61 * kMin) << prorate
            << int(ItemAttribution::Prorated) << u"0.12"_s << u"0.06"_s;
        QTest::newRow("hourly rate overlapping, whole")
            << rateItem(u"i"_s, u"2.50"_s, BillingUnit::Hour, 20 * kMin, 140 * kMin, u"8"_s)
            << whole << int(ItemAttribution::Whole) << u"40"_s << u"40"_s;

        // --- rates per request / token; billable count = quantity rounded UP to the increment ---
        // 1,500,000 tokens at 0.000002 -> 3
        QTest::newRow("per token")
            << rateItem(u"i"_s, u"0.000002"_s, BillingUnit::Token, 0, 30 * kMin, u"1500000"_s)
            << undecided << int(ItemAttribution::Inside) << u"3"_s << u"3"_s;
        // 1,234,567 tokens in steps of 1000 -> 1,235,000 × 0.000002 = 2.47
        QTest::newRow("per token, 1000-token increment")
            << rateItem(u"i"_s, u"0.000002"_s, BillingUnit::Token, 0, 30 * kMin, u"1234567"_s,
                        u"1000"_s)
            << undecided << int(ItemAttribution::Inside) << u"2.47"_s << u"2.47"_s;
        // [10:30, 11:30), 300 requests at 0.01: half inside -> 150 -> 1.50
        QTest::newRow("per request prorated")
            << rateItem(u"i"_s, u"0.01"_s, BillingUnit::Request, 30 * kMin, 90 * kMin, u"300"_s)
            << prorate << int(ItemAttribution::Prorated) << u"3"_s << u"1.5"_s;
        // 301 requests, half inside = 150.5 -> rounded up to 151 -> 1.51
        QTest::newRow("per request prorated, rounds the count up")
            << rateItem(u"i"_s, u"0.01"_s, BillingUnit::Request, 30 * kMin, 90 * kMin, u"301"_s)
            << prorate << int(ItemAttribution::Prorated) << u"3.01"_s << u"1.51"_s;
        // A per-request fee at one instant (start == end) inside: 10 × 0.01 = 0.1
        QTest::newRow("per request, instant")
            << rateItem(u"i"_s, u"0.01"_s, BillingUnit::Request, 5 * kMin, 5 * kMin, u"10"_s)
            << undecided << int(ItemAttribution::Inside) << u"0.1"_s << u"0.1"_s;
    }
    void attribution()
    {
        QFETCH(BillItem, item);
        QFETCH(int, rule);
        QFETCH(int, attribution);
        QFETCH(QString, itemTotal);
        QFETCH(QString, counted);
        const CostBreakdown b = attributeCosts(hourWindow(OverlapRule(rule), item.id), {item});
        QVERIFY2(b.ok(), qPrintable(b.errors.join(u'\n')));
        const AttributedItem *a = onlyItem(b);
        QVERIFY(a);
        QCOMPARE(int(a->attribution), attribution);
        QCOMPARE(a->itemTotal.toString(), itemTotal);
        QCOMPARE(a->counted.toString(), counted);
        QVERIFY(!a->why.isEmpty());

        const bool isCounted = attribution == int(ItemAttribution::Inside) ||
                               attribution == int(ItemAttribution::Prorated) ||
                               attribution == int(ItemAttribution::Whole);
        QCOMPARE(b.total.available(), isCounted);
        if (isCounted) {
            QCOMPARE(b.total.value->toString(), counted);
            QCOMPARE(b.categoryTotal(item.category).toString(), counted);
        } else {
            QVERIFY(!b.total.reason.isEmpty());
            QVERIFY(!b.perSuccessfulRequest.available());
        }
        // The lists are exclusive and named after the attribution.
        QCOMPARE(b.included.size() + b.overlapping.size() + b.undecided.size() + b.excluded.size(),
                 1);
        if (attribution == int(ItemAttribution::NeedsDecision)) {
            QCOMPARE(b.undecided.size(), 1);
            QVERIFY(b.undecided.first().why.contains(u"needs a decision"_s));
        }
    }

    // Electricity priced per kWh: the GPU energy the window's runs measured is what it costs;
    // without a measurement the item keeps its own quantity and the breakdown says so.
    void energyPricedPerKwh_data()
    {
        QTest::addColumn<QList<double>>("runEnergyJ"); // NaN: the run measured none
        QTest::addColumn<qint64>("itemStart");
        QTest::addColumn<qint64>("itemEnd");
        QTest::addColumn<QString>("increment"); // kWh; empty: one kWh (per started kWh)
        QTest::addColumn<QString>("counted");
        QTest::addColumn<QString>("list");
        QTest::addColumn<QString>("warning");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        // 0.30 USD/kWh, an invoice quantity of 1000 kWh over the item's interval.
        QTest::newRow("measured 2 kWh, item inside")
            << QList<double>{7.2e6} << qint64(0) << 60 * kMin << QString() << u"0.6"_s
            << u"included"_s << QString();
        QTest::newRow("measured, item spans the window: no decision needed")
            << QList<double>{7.2e6} << -60 * kMin << 120 * kMin << QString() << u"0.6"_s
            << u"included"_s << QString();
        QTest::newRow("two runs: 1.5 kWh, per started kWh")
            << QList<double>{3.6e6, 1.8e6} << qint64(0) << 60 * kMin << QString() << u"0.6"_s
            << u"included"_s << QString();
        QTest::newRow("two runs: 1.5 kWh, metered to 0.001 kWh")
            << QList<double>{3.6e6, 1.8e6} << qint64(0) << 60 * kMin << u"0.001"_s << u"0.45"_s
            << u"included"_s << QString();
        QTest::newRow("36 J, per started kWh")
            << QList<double>{36.0} << qint64(0) << 60 * kMin << QString() << u"0.3"_s
            << u"included"_s << QString();
        QTest::newRow("36 J, metered to 1e-9 kWh")
            << QList<double>{36.0} << qint64(0) << 60 * kMin << u"0.000000001"_s << u"0.000003"_s
            << u"included"_s << QString();
        QTest::newRow("one run measured none: its own quantity")
            << QList<double>{3.6e6, nan} << qint64(0) << 60 * kMin << QString() << u"300"_s
            << u"included"_s << u"no energy for run(s) run-2"_s;
        QTest::newRow("measured, but the item is outside the window")
            << QList<double>{7.2e6} << 60 * kMin << 120 * kMin << QString() << u"0"_s
            << u"excluded"_s << QString();
    }
    void energyPricedPerKwh()
    {
        QFETCH(QList<double>, runEnergyJ);
        QFETCH(qint64, itemStart);
        QFETCH(qint64, itemEnd);
        QFETCH(QString, increment);
        QFETCH(QString, counted);
        QFETCH(QString, list);
        QFETCH(QString, warning);
        TestWindow w = hourWindow();
        w.runs.clear();
        for (int i = 0; i < runEnergyJ.size(); ++i) {
            WindowRun r{u"run-%1"_s.arg(i + 1), at(0), at(60 * kMin), 500, 50000, u"poisson"_s};
            r.energyJ = runEnergyJ.at(i);
            w.runs << r;
        }
        BillItem power = rateItem(
            u"power"_s, u"0.30"_s, BillingUnit::KilowattHour, itemStart, itemEnd, u"1000"_s,
            increment, increment.isEmpty() ? BillingUnit::None : BillingUnit::KilowattHour);
        power.category = BillCategory::Other;
        const CostBreakdown b = attributeCosts(w, {power});
        QVERIFY2(b.ok(), qPrintable(b.errors.join(u'\n')));
        const AttributedItem *a = onlyItem(b);
        QVERIFY(a);
        QCOMPARE(a->counted.toString(), counted);
        QCOMPARE(list == "included"_L1, !b.included.isEmpty());
        QCOMPARE(list == "excluded"_L1, !b.excluded.isEmpty());
        if (list == "included"_L1) {
            QCOMPARE(b.total.value->toString(), counted);
            QCOMPARE(b.categoryTotal(BillCategory::Other).toString(), counted);
        }
        if (warning.isEmpty()) {
            QVERIFY2(b.warnings.filter(u"kWh"_s).isEmpty(), qPrintable(b.warnings.join(u'\n')));
            if (list == "included"_L1)
                QVERIFY2(a->why.contains(u"energy the window's runs measured"_s),
                         qPrintable(a->why));
        } else {
            QVERIFY2(!b.warnings.filter(warning).isEmpty(), qPrintable(b.warnings.join(u'\n')));
        }
        // The measured energy travels with the window.
        const TestWindow back = TestWindow::fromJson(w.toJson());
        for (int i = 0; i < w.runs.size(); ++i)
            QCOMPARE(std::isfinite(back.runs.at(i).energyJ), std::isfinite(w.runs.at(i).energyJ));
        QCOMPARE(back.runs.first().energyJ, w.runs.first().energyJ);
    }

    void kwhIsABillingUnit()
    {
        for (const QString &name : {u"kwh"_s, u"kWh"_s, u"kilowatt-hour"_s, u"kilowatt-hours"_s}) {
            BillingUnit u = BillingUnit::None;
            QVERIFY2(billingUnitFromName(name, &u), qPrintable(name));
            QCOMPARE(u, BillingUnit::KilowattHour);
        }
        QCOMPARE(QString::fromLatin1(billingUnitName(BillingUnit::KilowattHour)), u"kwh"_s);
        QVERIFY(!isTimeUnit(BillingUnit::KilowattHour));
        // Without a measurement: 0.30 × 1000 kWh, as any count unit.
        const BillItem power =
            rateItem(u"p"_s, u"0.30"_s, BillingUnit::KilowattHour, 0, 60 * kMin, u"1000"_s);
        QVERIFY2(power.validate().isEmpty(), qPrintable(power.validate().join(u'\n')));
        QCOMPARE(power.total()->toString(), u"300"_s);
        QVERIFY2(power.pricingText().contains(u"kWh"_s), qPrintable(power.pricingText()));
    }

    void undecidedItemIsLeftOutWithAMessage()
    {
        const BillItem inside = totalItem(u"cpu"_s, u"4"_s, 0, 60 * kMin, BillCategory::Cpu);
        const BillItem overlap = totalItem(u"gpu"_s, u"100"_s, 30 * kMin, 150 * kMin);
        const CostBreakdown b = attributeCosts(hourWindow(), {inside, overlap});
        QVERIFY(b.ok());
        QCOMPARE(b.undecided.size(), 1);
        QCOMPARE(b.undecided.first().item.id, u"gpu"_s);
        QCOMPARE(b.total.value->toString(), u"4"_s); // the GPU line is not guessed in
        QCOMPARE(b.categoryTotal(BillCategory::Gpu).toString(), u"0"_s);
        QVERIFY(!b.perSuccessfulRequest.available());
        QVERIFY(b.perSuccessfulRequest.reason.contains(u"need a decision"_s));
        QVERIFY(!b.warnings.filter(u"need a decision"_s).isEmpty());
        QVERIFY(b.formatText().contains(u"NEEDS A DECISION"_s));

        // Deciding makes the unit costs available: prorate -> 4 + 25 = 29 over 1000 requests.
        TestWindow w = hourWindow(OverlapRule::Prorate, u"gpu"_s);
        const CostBreakdown d = attributeCosts(w, {inside, overlap});
        QCOMPARE(d.total.value->toString(), u"29"_s);
        QCOMPARE(d.perSuccessfulRequest.value->toString(), u"0.029"_s);
    }

    void noBillsMeansNotAvailable()
    {
        const CostBreakdown b = attributeCosts(hourWindow(), {});
        QVERIFY(b.ok());
        for (const CostFigure *f :
             {&b.total, &b.perSuccessfulRequest, &b.perOutputToken, &b.perMillionOutputTokens}) {
            QVERIFY(!f->available());
            QVERIFY(f->reason.contains(u"no bill items"_s));
        }
        const QJsonObject json = b.toJson();
        QCOMPARE(json[u"total"_s].toObject()[u"available"_s].toBool(true), false);
        QVERIFY(json[u"by_category"_s].isNull());
        QVERIFY(json[u"cost_per_output_token"_s].toObject().contains(u"reason"_s));
        const QString text = b.formatText();
        QVERIFY(text.contains(u"not available (no bill items"_s));
        QVERIFY(!text.contains(u"0.00"_s)); // never a zero in place of "unknown"

        // Items that all lie outside: still not available, and listed as excluded.
        const CostBreakdown out =
            attributeCosts(hourWindow(), {totalItem(u"x"_s, u"9"_s, -60 * kMin, 0)});
        QVERIFY(!out.total.available());
        QVERIFY(out.total.reason.contains(u"1 excluded"_s));
        QCOMPARE(out.excluded.size(), 1);
        QVERIFY(out.formatText().contains(u"Excluded (1)"_s));
    }

    void unitCostsNeedRequestsAndTokens()
    {
        TestWindow w = hourWindow();
        w.runs.first().successfulRequests = 0;
        w.runs.first().outputTokens = 0;
        const CostBreakdown b = attributeCosts(w, {totalItem(u"i"_s, u"3"_s, 0, 60 * kMin)});
        QVERIFY(b.total.available());
        QVERIFY(!b.perSuccessfulRequest.available());
        QVERIFY(!b.perOutputToken.available());
        QVERIFY(!b.perMillionOutputTokens.available());
    }

    void mixedCurrenciesAreAnError()
    {
        const BillItem usd = totalItem(u"a"_s, u"10"_s, 0, 60 * kMin);
        const BillItem eur = totalItem(u"b"_s, u"10"_s, 0, 60 * kMin, BillCategory::Cpu, u"EUR"_s);
        const CostBreakdown b = attributeCosts(hourWindow(), {usd, eur});
        QVERIFY(!b.ok());
        QVERIFY2(b.errors.first().contains(u"different currencies (EUR, USD)"_s),
                 qPrintable(b.errors.first()));
        QVERIFY(!b.total.available());
        QVERIFY(!b.perOutputToken.available());
        QVERIFY(b.formatText().contains(u"different currencies"_s));

        // A report currency without a rate is still an error, naming the rate to give.
        CostOptions usdOnly{u"USD"_s, {}};
        const CostBreakdown c = attributeCosts(hourWindow(), {usd, eur}, usdOnly);
        QVERIFY(!c.ok());
        QVERIFY2(c.errors.first().contains(u"EUR→USD"_s), qPrintable(c.errors.first()));

        // Only the from -> report direction is used; the inverse is not silently inverted.
        CostOptions inverse{u"USD"_s, {ConversionRate{u"USD"_s, u"EUR"_s, dec(u"0.9"_s), {}}}};
        QVERIFY(!attributeCosts(hourWindow(), {usd, eur}, inverse).ok());
    }

    void conversionWithAGivenRate()
    {
        const BillItem usd = totalItem(u"a"_s, u"10"_s, 0, 60 * kMin);
        // 0.333333333 EUR × 1.1 = 0.3666666663 -> 0.366666666 USD
        const BillItem eur =
            totalItem(u"b"_s, u"0.333333333"_s, 0, 60 * kMin, BillCategory::Cpu, u"EUR"_s);
        const ConversionRate rate{u"EUR"_s, u"USD"_s, dec(u"1.1"_s), u"ECB 2024-05-01"_s};
        const CostBreakdown b = attributeCosts(hourWindow(), {usd, eur}, {u"USD"_s, {rate}});
        QVERIFY2(b.ok(), qPrintable(b.errors.join(u'\n')));
        QCOMPARE(b.currency, u"USD"_s);
        QCOMPARE(b.included[1].counted.toString(), u"0.333333333"_s);
        QCOMPARE(b.included[1].countedInReportCurrency.toString(), u"0.366666666"_s);
        QCOMPARE(b.categoryTotal(BillCategory::Cpu).toString(), u"0.366666666"_s);
        QCOMPARE(b.total.value->toString(), u"10.366666666"_s);
        QCOMPARE(b.conversionRates, QList<ConversionRate>{rate});
        const QJsonArray rates = b.toJson()[u"conversion_rates"_s].toArray();
        QCOMPARE(rates.size(), 1);
        QCOMPARE(rates[0].toObject()[u"rate"_s].toString(), u"1.1"_s);
        QVERIFY(b.formatText().contains(u"1 EUR = 1.1 USD (ECB 2024-05-01)"_s));

        // An excluded item in another currency needs no rate.
        const BillItem eurOutside =
            totalItem(u"c"_s, u"7"_s, -60 * kMin, 0, BillCategory::Cpu, u"EUR"_s);
        const CostBreakdown c = attributeCosts(hourWindow(), {usd, eurOutside});
        QVERIFY(c.ok());
        QCOMPARE(c.currency, u"USD"_s);
        QVERIFY(c.conversionRates.isEmpty());
    }

    void invalidInputsAreErrors_data()
    {
        QTest::addColumn<BillItem>("item");
        QTest::addColumn<QString>("fragment");
        BillItem backwards = totalItem(u"i"_s, u"1"_s, 30 * kMin, 10 * kMin);
        QTest::newRow("end before start") << backwards << u"before start"_s;
        BillItem noUnit = rateItem(u"i"_s, u"1"_s, BillingUnit::Hour, 0, kMin);
        noUnit.billingUnit = BillingUnit::None;
        QTest::newRow("rate without unit") << noUnit << u"needs a billing unit"_s;
        QTest::newRow("zero-length hourly rate")
            << rateItem(u"i"_s, u"1"_s, BillingUnit::Hour, 0, 0) << u"end after its start"_s;
        BillItem badCurrency = totalItem(u"i"_s, u"1"_s, 0, kMin);
        badCurrency.currency = u"usd"_s;
        QTest::newRow("lower-case currency") << badCurrency << u"ISO 4217"_s;
        // 0.0000001 h = 0.36 ms: not a whole number of milliseconds
        QTest::newRow("increment not whole ms")
            << rateItem(u"i"_s, u"1"_s, BillingUnit::Hour, 0, kMin, u"1"_s, u"0.0000001"_s)
            << u"whole number of milliseconds"_s;
        QTest::newRow("hourly rate counted in tokens")
            << rateItem(u"i"_s, u"1"_s, BillingUnit::Hour, 0, kMin, u"1"_s, u"5"_s,
                        BillingUnit::Token)
            << u"must be a time"_s;
        QTest::newRow("negative rate")
            << rateItem(u"i"_s, u"-1"_s, BillingUnit::Hour, 0, kMin) << u"cannot be negative"_s;
    }
    void invalidInputsAreErrors()
    {
        QFETCH(BillItem, item);
        QFETCH(QString, fragment);
        const CostBreakdown b = attributeCosts(hourWindow(), {item});
        QVERIFY(!b.ok());
        QVERIFY2(b.errors.join(u'\n').contains(fragment), qPrintable(b.errors.join(u'\n')));
        QVERIFY(b.errors.first().startsWith(u"bill item 'i'"_s));
        QVERIFY(!b.total.available());
    }

    void invalidWindowIsAnError()
    {
        TestWindow w = hourWindow();
        w.runs.first().end = at(61 * kMin); // the run outlives the window
        CostBreakdown b = attributeCosts(w, {totalItem(u"i"_s, u"1"_s, 0, kMin)});
        QVERIFY(!b.ok());
        QVERIFY(b.errors.first().contains(u"outside the window"_s));

        w = hourWindow();
        w.end = w.start;
        QVERIFY(!attributeCosts(w, {}).ok());

        const BillItem a = totalItem(u"same"_s, u"1"_s, 0, kMin);
        b = attributeCosts(hourWindow(), {a, a});
        QVERIFY(!b.ok());
        QVERIFY(b.errors.first().contains(u"appears twice"_s));
    }

    // A sweep: three runs at different rates, one window spanning them, one bill per category.
    void sweepWindowUnitCost()
    {
        const auto t = [](int h, int m) {
            return QDateTime(QDate(2024, 5, 1), QTime(h, m), QTimeZone::utc());
        };
        const QList<WindowRun> runs = {
            {u"r1"_s, t(10, 0), t(10, 10), 1200, 153600, u"constant 2 req/s"_s},
            {u"r2"_s, t(10, 15), t(10, 25), 3000, 384000, u"constant 5 req/s"_s},
            {u"r3"_s, t(10, 30), t(10, 40), 6000, 768000, u"constant 10 req/s"_s},
        };
        TestWindow w = TestWindow::fromRuns(u"sweep"_s, u"vllm-a100"_s, runs);
        QCOMPARE(w.start, t(10, 0)); // union span of the runs
        QCOMPARE(w.end, t(10, 40));
        QCOMPARE(w.successfulRequests(), 10200);
        QCOMPARE(w.outputTokens(), 1305600);

        const auto item = [](const QString &id, BillCategory c) {
            BillItem b;
            b.id = id;
            b.category = c;
            b.currency = u"USD"_s;
            b.confirmed = true;
            return b;
        };
        // GPU: 2.50 USD/GPU-hour × 8, per second, [09:50, 10:50): 40 min = 2400 s inside,
        // prorated -> 2.5 × 8 × 2400/3600 = 13.333333333|3 -> 13.333333333
        BillItem gpu = item(u"gpu"_s, BillCategory::Gpu);
        gpu.start = t(9, 50);
        gpu.end = t(10, 50);
        gpu.amount = dec(u"2.50"_s);
        gpu.amountKind = AmountKind::Rate;
        gpu.billingUnit = BillingUnit::Hour;
        gpu.quantity = Decimal::fromInt(8);
        gpu.minIncrement = Decimal::fromInt(1);
        gpu.minIncrementUnit = BillingUnit::Second;
        // CPU: 1.20 total over [10:00, 10:40) -> inside, 1.2
        BillItem cpu = item(u"cpu"_s, BillCategory::Cpu);
        cpu.start = t(10, 0);
        cpu.end = t(10, 40);
        cpu.amount = dec(u"1.20"_s);
        // Storage: 73 USD/month (730 h) per started hour, [10:00, 10:40) -> 1 h -> 0.1
        BillItem storage = item(u"vol"_s, BillCategory::Storage);
        storage.start = t(10, 0);
        storage.end = t(10, 40);
        storage.amount = dec(u"73"_s);
        storage.amountKind = AmountKind::Rate;
        storage.billingUnit = BillingUnit::Month;
        storage.minIncrement = Decimal::fromInt(1);
        storage.minIncrementUnit = BillingUnit::Hour;
        // Network: 0.45 total egress inside
        BillItem net = item(u"egress"_s, BillCategory::Network);
        net.start = t(10, 5);
        net.end = t(10, 40);
        net.amount = dec(u"0.45"_s);
        // Platform: 30 USD for May (744 h), prorated: 30 × 40 min / 744 h
        //   = 30 × 2,400,000 / 2,678,400,000 = 0.026881720|43 -> 0.02688172
        BillItem platform = item(u"plan"_s, BillCategory::Platform);
        platform.start = QDateTime(QDate(2024, 5, 1), QTime(0, 0), QTimeZone::utc());
        platform.end = QDateTime(QDate(2024, 6, 1), QTime(0, 0), QTimeZone::utc());
        platform.amount = dec(u"30"_s);
        // Other: 5 USD before the window -> excluded
        BillItem other = item(u"setup"_s, BillCategory::Other);
        other.start = t(9, 0);
        other.end = t(9, 30);
        other.amount = dec(u"5"_s);

        w.overlapRules.insert(u"gpu"_s, OverlapRule::Prorate);
        w.overlapRules.insert(u"plan"_s, OverlapRule::Prorate);
        const CostBreakdown b = attributeCosts(w, {gpu, cpu, storage, net, platform, other});
        QVERIFY2(b.ok(), qPrintable(b.errors.join(u'\n')));
        QCOMPARE(b.categoryTotal(BillCategory::Gpu).toString(), u"13.333333333"_s);
        QCOMPARE(b.categoryTotal(BillCategory::Cpu).toString(), u"1.2"_s);
        QCOMPARE(b.categoryTotal(BillCategory::Storage).toString(), u"0.1"_s);
        QCOMPARE(b.categoryTotal(BillCategory::Network).toString(), u"0.45"_s);
        QCOMPARE(b.categoryTotal(BillCategory::Platform).toString(), u"0.02688172"_s);
        QCOMPARE(b.categoryTotal(BillCategory::Other).toString(), u"0"_s);
        // total = 13.333333333 + 1.2 + 0.1 + 0.45 + 0.02688172 = 15.110215053
        QCOMPARE(b.total.value->toString(), u"15.110215053"_s);
        QCOMPARE(b.included.size(), 3);
        QCOMPARE(b.overlapping.size(), 2);
        QCOMPARE(b.excluded.size(), 1);
        QCOMPARE(b.excluded.first().item.id, u"setup"_s);
        // per request: 15.110215053 / 10200 = 0.001481393|63 -> 0.001481394
        QCOMPARE(b.perSuccessfulRequest.value->toString(), u"0.001481394"_s);
        // per token: 15.110215053 / 1,305,600 = 0.000011573|36 -> 0.000011573
        QCOMPARE(b.perOutputToken.value->toString(), u"0.000011573"_s);
        // per 1M tokens: 15.110215053e6 / 1,305,600 = 11.573387755|05 -> 11.573387755
        QCOMPARE(b.perMillionOutputTokens.value->toString(), u"11.573387755"_s);

        // Three loads in one window: a warning, not a silent average.
        const QStringList loadWarnings = b.warnings.filter(u"different loads"_s);
        QCOMPARE(loadWarnings.size(), 1);
        QVERIFY(loadWarnings.first().contains(
            u"constant 2 req/s; constant 5 req/s; constant 10 req/s"_s));

        // Presentation rounds half to even to cents; JSON stays exact.
        const QString text = b.formatText();
        QVERIFY2(text.contains(u"Total:                                   15.11 USD"_s),
                 qPrintable(text));
        QVERIFY(text.contains(u"GPU:                                     13.33 USD"_s));
        QVERIFY(text.contains(u"Cost per successful request:             0.001481 USD"_s));
        QVERIFY(text.contains(u"Cost per 1M output tokens:               11.573388 USD"_s));
        QVERIFY(text.contains(u"different loads"_s));
        const QJsonObject json = b.toJson();
        QCOMPARE(json[u"total"_s].toObject()[u"value"_s].toString(), u"15.110215053"_s);
        QCOMPARE(json[u"by_category"_s].toObject()[u"platform"_s].toString(), u"0.02688172"_s);
        QCOMPARE(json[u"items"_s].toObject()[u"overlapping"_s].toArray().size(), 2);
        QCOMPARE(
            json[u"items"_s].toObject()[u"excluded"_s].toArray()[0].toObject()[u"why"_s].toString(),
            u"ends at or before the window start"_s);
        QCOMPARE(json[u"window"_s].toObject()[u"runs"_s].toArray().size(), 3);
    }

    void sameLoadHasNoWarning()
    {
        TestWindow w = hourWindow();
        w.runs = {WindowRun{u"a"_s, at(0), at(10 * kMin), 10, 100, u"poisson 10 req/s"_s},
                  WindowRun{u"b"_s, at(20 * kMin), at(30 * kMin), 10, 100, u"poisson 10 req/s"_s}};
        const CostBreakdown b = attributeCosts(w, {totalItem(u"i"_s, u"2"_s, 0, 60 * kMin)});
        QVERIFY(b.warnings.filter(u"different loads"_s).isEmpty());
        QCOMPARE(b.perSuccessfulRequest.value->toString(), u"0.1"_s);     // 2 / 20
        QCOMPARE(b.perMillionOutputTokens.value->toString(), u"10000"_s); // 2e6 / 200

        w.runs[1].load = u"poisson 20 req/s"_s;
        QCOMPARE(attributeCosts(w, {totalItem(u"i"_s, u"2"_s, 0, 60 * kMin)})
                     .warnings.filter(u"different loads"_s)
                     .size(),
                 1);
    }

    void unconfirmedItemsAreFlagged()
    {
        BillItem quote = totalItem(u"q"_s, u"2"_s, 0, 60 * kMin);
        quote.confirmed = false;
        quote.source = BillSource::Quote;
        const CostBreakdown b = attributeCosts(hourWindow(), {quote});
        QCOMPARE(b.warnings.filter(u"not confirmed"_s).size(), 1);
    }

    void jsonRoundTrips()
    {
        BillItem gpu = rateItem(u"g"_s, u"2.5"_s, BillingUnit::Hour, 0, 90 * 1000, u"8"_s, u"60"_s,
                                BillingUnit::Second);
        gpu.idleNotes = u"billed while idle"_s;
        gpu.reference = u"https://example.com/pricing"_s;
        QString error;
        const BillItem back = BillItem::fromJson(gpu.toJson(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(back.toJson(), gpu.toJson());
        // 90 s in 60 s steps -> 120 s; 2.5 × 8 × 120/3600 = 0.666666666|7 -> 0.666666667
        QCOMPARE(back.total()->toString(), u"0.666666667"_s);
    }

    void windowJsonRoundTrips()
    {
        TestWindow w = hourWindow(OverlapRule::Prorate, u"gpu"_s);
        w.id = u"w1"_s;
        const TestWindow back = TestWindow::fromJson(w.toJson());
        QCOMPARE(back.toJson(), w.toJson());
        QCOMPARE(back.ruleFor(u"gpu"_s), OverlapRule::Prorate);
        QCOMPARE(back.ruleFor(u"other"_s), OverlapRule::Undecided);
        QCOMPARE(back.runs.first().successfulRequests, 1000);
    }

    void durations()
    {
        QCOMPARE(formatDurationMs(90 * 60 * 1000), u"1 h 30 min"_s);
        QCOMPARE(formatDurationMs(1500), u"1 s 500 ms"_s);
        QCOMPARE(formatDurationMs(0), u"0 s"_s);
    }
};

QTEST_GUILESS_MAIN(TestCostAttribution)
#include "tst_costattribution.moc"
