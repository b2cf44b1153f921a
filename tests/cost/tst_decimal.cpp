#include "cost/decimal.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestDecimal : public QObject
{
    Q_OBJECT
private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("expected"); // exact toString(), or a fragment of the error
        QTest::newRow("cents") << u"12.34"_s << true << u"12.34"_s;
        QTest::newRow("per-token price") << u"0.000125"_s << true << u"0.000125"_s;
        QTest::newRow("nano") << u"0.00000015"_s << true << u"0.00000015"_s;
        QTest::newRow("negative credit") << u"-3.50"_s << true << u"-3.5"_s;
        QTest::newRow("integer") << u"1234"_s << true << u"1234"_s;
        QTest::newRow("surrounding spaces") << u" 7.5 "_s << true << u"7.5"_s;
        QTest::newRow("zeros beyond 9 places") << u"1.0000000000"_s << true << u"1"_s;
        QTest::newRow("max") << u"9223372036.854775807"_s << true << u"9223372036.854775807"_s;
        QTest::newRow("min") << u"-9223372036.854775808"_s << true << u"-9223372036.854775808"_s;
        QTest::newRow("above max") << u"9223372036.854775808"_s << false << u"out of range"_s;
        QTest::newRow("far above max") << u"99999999999999999999"_s << false << u"out of range"_s;
        // "1,234.50" is 1234.5 in en-US and ambiguous elsewhere: rejected, never guessed.
        QTest::newRow("thousands separator") << u"1,234.50"_s << false << u"thousands"_s;
        QTest::newRow("decimal comma") << u"12,5"_s << false << u"thousands"_s;
        QTest::newRow("10 decimal places") << u"0.0000000001"_s << false << u"decimal places"_s;
        QTest::newRow("exponent") << u"1.5e3"_s << false << u"exponent"_s;
        QTest::newRow("plus") << u"+1"_s << false << u"'+'"_s;
        QTest::newRow("currency symbol") << u"$12"_s << false << u"unexpected '$'"_s;
        QTest::newRow("inner space") << u"1 000"_s << false << u"spaces"_s;
        QTest::newRow("leading point") << u".5"_s << false << u"both sides"_s;
        QTest::newRow("trailing point") << u"5."_s << false << u"both sides"_s;
        QTest::newRow("two points") << u"1.2.3"_s << false << u"unexpected '.'"_s;
        QTest::newRow("lone minus") << u"-"_s << false << u"both sides"_s;
        QTest::newRow("empty") << u""_s << false << u"empty"_s;
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, expected);
        QString error;
        const auto d = Decimal::parse(text, &error);
        QCOMPARE(d.has_value(), ok);
        if (ok) {
            QCOMPARE(d->toString(), expected);
            QVERIFY(error.isEmpty());
        } else {
            QVERIFY2(error.contains(expected), qPrintable(error));
        }
    }

    void unitsAreExact()
    {
        // 0.1 + 0.2 is 0.30000000000000004 in double; here it is 0.3 exactly.
        const auto a = Decimal::parse(u"0.1"_s);
        const auto b = Decimal::parse(u"0.2"_s);
        QCOMPARE(a->plus(*b)->units(), 300000000);
        QCOMPARE(a->plus(*b)->toString(), u"0.3"_s);
        QCOMPARE(Decimal::fromInt(-2).units(), -2000000000);
    }

    void presentHalfEven_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("shown");
        QTest::newRow("0.125 -> even 2") << u"0.125"_s << 2 << u"0.12"_s;
        QTest::newRow("0.135 -> even 4") << u"0.135"_s << 2 << u"0.14"_s;
        QTest::newRow("0.145 -> even 4") << u"0.145"_s << 2 << u"0.14"_s;
        QTest::newRow("above half") << u"0.1251"_s << 2 << u"0.13"_s;
        QTest::newRow("negative tie") << u"-0.125"_s << 2 << u"-0.12"_s;
        QTest::newRow("negative above half") << u"-0.1251"_s << 2 << u"-0.13"_s;
        QTest::newRow("2.5 -> 2") << u"2.5"_s << 0 << u"2"_s;
        QTest::newRow("3.5 -> 4") << u"3.5"_s << 0 << u"4"_s;
        QTest::newRow("pads") << u"1"_s << 2 << u"1.00"_s;
        QTest::newRow("small") << u"0.000000001"_s << 9 << u"0.000000001"_s;
        QTest::newRow("small to cents") << u"0.004"_s << 2 << u"0.00"_s;
        QTest::newRow("max to 0 places") << u"9223372036.854775807"_s << 0 << u"9223372037"_s;
    }
    void presentHalfEven()
    {
        QFETCH(QString, value);
        QFETCH(int, decimals);
        QFETCH(QString, shown);
        const auto d = Decimal::parse(value);
        QVERIFY(d);
        QCOMPARE(d->toString(decimals), shown);
        QCOMPARE(d->toString(), Decimal::parse(value)->toString()); // presenting never changes it
    }

    void mulDiv_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<qint64>("num");
        QTest::addColumn<qint64>("den");
        QTest::addColumn<QString>("expected");
        // 100 / 3 = 33.333333333|33.. -> 33.333333333
        QTest::newRow("third") << u"100"_s << qint64(1) << qint64(3) << u"33.333333333"_s;
        // 2/3 = 0.666666666|66.. -> 0.666666667
        QTest::newRow("two thirds") << u"1"_s << qint64(2) << qint64(3) << u"0.666666667"_s;
        // 1 nano / 2 = 0.5 nano -> ties to even 0
        QTest::newRow("tie to even 0") << u"0.000000001"_s << qint64(1) << qint64(2) << u"0"_s;
        // 3 nano / 2 = 1.5 nano -> ties to even 2
        QTest::newRow("tie to even 2")
            << u"0.000000003"_s << qint64(1) << qint64(2) << u"0.000000002"_s;
        // -3 nano / 2 = -1.5 -> -2
        QTest::newRow("negative tie")
            << u"-0.000000003"_s << qint64(1) << qint64(2) << u"-0.000000002"_s;
        // 2.50 × 2,400,000 ms / 3,600,000 ms = 1.666666666|67 -> 1.666666667
        QTest::newRow("prorate ms")
            << u"2.50"_s << qint64(2400000) << qint64(3600000) << u"1.666666667"_s;
    }
    void mulDiv()
    {
        QFETCH(QString, value);
        QFETCH(qint64, num);
        QFETCH(qint64, den);
        QFETCH(QString, expected);
        const auto r = Decimal::parse(value)->mulDiv(num, den);
        QVERIFY(r);
        QCOMPARE(r->toString(), expected);
    }

    void overflowIsReported()
    {
        const Decimal max = Decimal::fromUnits(std::numeric_limits<qint64>::max());
        QVERIFY(!max.plus(Decimal::fromUnits(1)));
        QVERIFY(
            !Decimal::fromUnits(std::numeric_limits<qint64>::min()).minus(Decimal::fromUnits(1)));
        QVERIFY(!max.mulDiv(2, 1));
        QVERIFY(!max.times(Decimal::fromInt(2)));
        QVERIFY(!Decimal::fromInt(1).mulDiv(1, 0)); // no division by zero
        // The 128-bit intermediate holds max × 1e9 × 1e9 before dividing it back down.
        QCOMPARE(max.mulDiv(Decimal::kOne, Decimal::kOne, Decimal::kOne * Decimal::kOne)->units(),
                 std::numeric_limits<qint64>::max());
        // 1.5 × 1.5 = 2.25 exactly
        QCOMPARE(Decimal::parse(u"1.5"_s)->times(*Decimal::parse(u"1.5"_s))->toString(), u"2.25"_s);
    }
};

QTEST_GUILESS_MAIN(TestDecimal)
#include "tst_decimal.moc"
