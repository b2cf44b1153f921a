// Connection modes and the connection fields of a record: stable names, the number of warm
// connections, and the JSON/CSV forms of the phases (the store's round trip is in tests/store).
#include "client/connectionmode.h"
#include "client/transport.h"
#include "metrics/requestrecord.h"

#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestConnectionRecords : public QObject
{
    Q_OBJECT

private slots:
    void modeNames()
    {
        for (auto m : {ConnectionMode::Warm, ConnectionMode::PerRequest, ConnectionMode::Lazy}) {
            ConnectionMode back = ConnectionMode::Lazy;
            QVERIFY(connectionModeFromName(QString::fromLatin1(connectionModeName(m)), &back));
            QCOMPARE(back, m);
        }
        QCOMPARE(connectionModeName(ConnectionMode::Warm), "warm");
        QCOMPARE(connectionModeName(ConnectionMode::PerRequest), "per-request");
        QCOMPARE(connectionModeName(ConnectionMode::Lazy), "lazy");
        ConnectionMode m = ConnectionMode::Warm;
        QVERIFY(connectionModeFromName(u" Per_Request "_s, &m));
        QCOMPARE(m, ConnectionMode::PerRequest);
        QVERIFY(!connectionModeFromName(u"eager"_s, &m));
        QCOMPARE(m, ConnectionMode::PerRequest); // untouched on failure
        QCOMPARE(TransportOptions().connectionMode, ConnectionMode::Warm);
    }

    void useNames()
    {
        for (auto u : {ConnectionUse::Unknown, ConnectionUse::New, ConnectionUse::Reused,
                       ConnectionUse::Prewarmed})
            QCOMPARE(connectionUseFromName(QLatin1StringView(connectionUseName(u))), u);
        QCOMPARE(connectionUseName(ConnectionUse::Prewarmed), "prewarmed");
        QCOMPARE(connectionUseFromName(u"nonsense"), ConnectionUse::Unknown);
        QCOMPARE(errorClassName(ErrorClass::Oversize), "oversize");
        QCOMPARE(errorClassFromName(u"oversize"), ErrorClass::Oversize);
        QVERIFY(allErrorClasses().contains(ErrorClass::Oversize));
    }

    void warmConnectionCount_data()
    {
        QTest::addColumn<int>("cap");
        QTest::addColumn<bool>("capped");
        QTest::addColumn<QList<qint64>>("schedule");
        QTest::addColumn<int>("expected");
        constexpr qint64 ms = 1'000'000;
        QTest::newRow("closed loop: the cap") << 64 << true << QList<qint64>{} << 64;
        QTest::newRow("capped open loop: the cap") << 8 << true << QList<qint64>{0, 2000 * ms} << 8;
        QTest::newRow("uncapped: the first second's requests")
            << 100 << false << QList<qint64>{0, 10 * ms, 999 * ms, 1000 * ms, 5000 * ms} << 3;
        QTest::newRow("uncapped, nothing in the first second: one")
            << 100 << false << QList<qint64>{2000 * ms} << 1;
        QTest::newRow("uncapped, never above the cap")
            << 2 << false << QList<qint64>{0, 1, 2, 3} << 2;
    }
    void warmConnectionCount()
    {
        QFETCH(int, cap);
        QFETCH(bool, capped);
        QFETCH(QList<qint64>, schedule);
        QFETCH(int, expected);
        QCOMPARE(sb::warmConnectionCount(cap, capped, schedule), expected);
    }

    void phasesJsonAndCsv()
    {
        const qint64 base = 5'000'000'000;
        RequestRecord r;
        r.connection = ConnectionUse::New;
        r.tConnectStart = base + 10;
        r.tConnected = base + 20;
        r.tRequestWritten = base + 30;
        r.tHeadReceived = base + 40; // no TLS: tTlsDone stays 0
        QJsonObject o;
        writeConnectionPhases(r, base, &o);
        QCOMPARE(o.value(u"t_connect_start").toInteger(), 10);
        QVERIFY(!o.contains(u"t_tls_done")); // 0 = did not happen: left out
        QCOMPARE(o.value(u"connection").toString(), u"new"_s);
        RequestRecord back;
        back.tTlsDone = 99; // overwritten with 0: absent
        readConnectionPhases(o, base, &back);
        QCOMPARE(back.tConnectStart, r.tConnectStart);
        QCOMPARE(back.tConnected, r.tConnected);
        QCOMPARE(back.tTlsDone, 0);
        QCOMPARE(back.tRequestWritten, r.tRequestWritten);
        QCOMPARE(back.tHeadReceived, r.tHeadReceived);
        QCOMPARE(back.connection, ConnectionUse::New);

        QCOMPARE(
            connectionPhaseCsvHeader(),
            (QStringList{u"t_connect_start_ns"_s, u"t_connected_ns"_s, u"t_tls_done_ns"_s,
                         u"t_request_written_ns"_s, u"t_head_received_ns"_s, u"connection"_s}));
        QCOMPARE(connectionPhaseCsvCells(r, base),
                 (QStringList{u"10"_s, u"20"_s, QString(), u"30"_s, u"40"_s, u"new"_s}));
    }
};

QTEST_GUILESS_MAIN(TestConnectionRecords)
#include "tst_connectionrecords.moc"
