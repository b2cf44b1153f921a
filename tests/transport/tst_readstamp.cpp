// The receive time of one read (client/readstamp.h): never earlier than any byte the read
// returned reached this host. Data-driven over where the kernel's stamp lies against the call.
#include "client/readstamp.h"

#include <QTest>

using namespace sb;

namespace {
constexpr qint64 kSlack = 20'000;          // the clock offset's sample window
constexpr qint64 kSkew = 10'000'000'000;   // a stamp this far before the call is not believed
constexpr qint64 kBefore = 50'000'000'000; // the clock read before recvmsg()
} // namespace

class TestReadStamp : public QObject
{
    Q_OBJECT
private slots:
    void chooses_data()
    {
        QTest::addColumn<qint64>("afterRead");
        QTest::addColumn<bool>("hasKernel");
        QTest::addColumn<qint64>("kernel");
        QTest::addColumn<qint64>("expected");
        QTest::addColumn<bool>("expectKernel");
        // The thread read the clock, was preempted for 5 ms, and the read returned bytes that
        // came meanwhile: without a kernel stamp only the call's end is sure to follow them.
        QTest::newRow("no kernel stamp, preempted before the call")
            << kBefore + 5'000'000 << false << qint64(0) << kBefore + 5'000'000 << false;
        QTest::newRow("no kernel stamp, quick call")
            << kBefore + 3'000 << false << qint64(0) << kBefore + 3'000 << false;
        QTest::newRow("bytes waited before the call")
            << kBefore + 3'000 << true << kBefore - 700'000 << kBefore - 700'000 << true;
        QTest::newRow("bytes arrived during the call")
            << kBefore + 5'000'000 << true << kBefore + 4'000'000 << kBefore + 4'000'000 << true;
        // The offset makes a stamp late by up to its window, so one just past the call's end is
        // the call's end.
        QTest::newRow("stamp within the offset's slack after the call")
            << kBefore + 3'000 << true << kBefore + 3'000 + kSlack << kBefore + 3'000 << true;
        QTest::newRow("stamp after the call beyond the slack")
            << kBefore + 3'000 << true << kBefore + 3'000 + kSlack + 1 << kBefore + 3'000 << false;
        QTest::newRow("stamp from another clock (long before)")
            << kBefore + 3'000 << true << kBefore - kSkew << kBefore + 3'000 << false;
    }
    void chooses()
    {
        QFETCH(qint64, afterRead);
        QFETCH(bool, hasKernel);
        QFETCH(qint64, kernel);
        QFETCH(qint64, expected);
        QFETCH(bool, expectKernel);
        const ReadStamp s = chooseReadStamp(kBefore, afterRead, hasKernel, kernel, kSlack, kSkew);
        QCOMPARE(s.t, expected);
        QCOMPARE(s.kernel, expectKernel);
        QVERIFY(s.t <= afterRead); // nothing read is stamped after the read returned
    }
};

QTEST_GUILESS_MAIN(TestReadStamp)
#include "tst_readstamp.moc"
