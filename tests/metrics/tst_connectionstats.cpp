// connectionStats(): which requests opened a connection, their set-up time, and TTFT with and
// without it, over hand-made records whose phases are known to the nanosecond.
#include "metrics/connectionstats.h"

#include <QTest>

using namespace sb;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 kMs = 1'000'000;

RequestRecord rec(ConnectionUse use, qint64 ttftMs, qint64 connectMs = 0, qint64 tlsMs = 0)
{
    RequestRecord r;
    r.tSend = 1000 * kMs;
    r.tFirst = r.tSend + ttftMs * kMs;
    r.tLast = r.tFirst + 10 * kMs;
    r.tEnd = r.tLast;
    r.connection = use;
    if (use == ConnectionUse::New) {
        r.tConnectStart = r.tSend + 1 * kMs / 10; // 0.1 ms after the send stamp
        r.tConnected = r.tConnectStart + connectMs * kMs;
        if (tlsMs > 0)
            r.tTlsDone = r.tConnected + tlsMs * kMs;
    }
    const qint64 ready = r.tTlsDone > 0 ? r.tTlsDone : std::max(r.tConnected, r.tSend);
    r.tRequestWritten = ready + kMs / 10;
    r.tHeadReceived = r.tRequestWritten + 5 * kMs;
    return r;
}
} // namespace

class TestConnectionStats : public QObject
{
    Q_OBJECT
private slots:
    void countsAndSetup()
    {
        QList<RequestRecord> rs;
        rs << rec(ConnectionUse::New, 60, 4, 6) // https: set-up 10 ms
           << rec(ConnectionUse::New, 52, 2)    // http: set-up 2 ms
           << rec(ConnectionUse::Reused, 50)    //
           << rec(ConnectionUse::Prewarmed, 51) //
           << rec(ConnectionUse::Unknown, 53);  // an older file: counted, no set-up known
        RequestRecord warm = rec(ConnectionUse::New, 900, 500);
        warm.warmup = true; // not measured
        RequestRecord failed = rec(ConnectionUse::New, 900, 500);
        failed.error = ErrorClass::Reset; // no TTFT to split
        rs << warm << failed;

        const ConnectionStats c = connectionStats(rs);
        QCOMPARE(c.requests, 5);
        QCOMPARE(c.opened, 2);
        QCOMPARE(c.reused, 1);
        QCOMPARE(c.prewarmed, 1);
        QCOMPARE(c.unknown, 1);
        QCOMPARE(c.setup.n, 2);
        QCOMPARE(c.setup.mean, 6.0); // (10 + 2) / 2
        QCOMPARE(c.setup.max, 10.0);
        QCOMPARE(c.ttft.n, 5);
        QCOMPARE(c.ttft.mean, (60 + 52 + 50 + 51 + 53) / 5.0);
        // From the request written (0.1 ms after the connection was ready): 60 − 10.2,
        // 52 − 2.2, and 0.1 ms less for the others.
        QCOMPARE(c.ttftWithoutSetup.mean, (49.8 + 49.8 + 49.9 + 50.9 + 52.9) / 5.0);
        QCOMPARE(c.ttftWithoutSetup.max, 52.9);
        QCOMPARE(c.headAfterWrite.n, 5);
        QCOMPARE(c.headAfterWrite.mean, 5.0);
        // Linear interpolation, as the summary: the middle of five.
        QCOMPARE(c.ttftWithoutSetup.p50, 49.9);
        QCOMPARE(c.ttft.p50, 52.0);

        const QJsonObject j = c.toJson();
        QCOMPARE(j.value(u"opened"_s).toInt(), 2);
        QCOMPARE(j.value(u"setup_ms"_s).toObject().value(u"mean"_s).toDouble(), 6.0);
        const QString text = c.text(u"lazy"_s);
        QVERIFY2(text.contains(u"2 / 1 / 1 (1 not recorded)"_s), qPrintable(text));
        QVERIFY2(text.contains(u"Mean connection set-up (ms):"_s), qPrintable(text));
    }

    void warmRunHasNoSetup()
    {
        const QList<RequestRecord> rs{rec(ConnectionUse::Prewarmed, 50),
                                      rec(ConnectionUse::Reused, 54)};
        const ConnectionStats c = connectionStats(rs);
        QCOMPARE(c.opened, 0);
        QCOMPARE(c.setup.n, 0);
        QCOMPARE(c.ttftWithoutSetup.mean, c.ttft.mean - 0.1); // the client's write only
        QCOMPARE(c.toJson().value(u"setup_ms"_s).toObject(), QJsonObject({{u"n"_s, 0}}));
        QVERIFY(!c.text(u"warm"_s).contains(u"connection set-up"_s));
    }

    void withoutAWriteStampTheSetupIsTakenOff()
    {
        RequestRecord r = rec(ConnectionUse::New, 60, 4, 6);
        r.tRequestWritten = 0; // the manager pool could not stamp it
        QCOMPARE(connectionSetupNs(r), 10 * kMs);
        QCOMPARE(ttftWithoutSetupNs(r), 50 * kMs);
    }

    void nothingToLookAt()
    {
        const ConnectionStats c = connectionStats({});
        QCOMPARE(c.requests, 0);
        QCOMPARE(c.ttft.n, 0);
    }
};

QTEST_GUILESS_MAIN(TestConnectionStats)
#include "tst_connectionstats.moc"
