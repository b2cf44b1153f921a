#include "store/chunkcodec.h"

#include <QRandomGenerator>
#include <QTest>
#include <limits>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {
constexpr qint64 kMin = std::numeric_limits<qint64>::min();
constexpr qint64 kMax = std::numeric_limits<qint64>::max();

// Mostly realistic streams (ascending, 1-50 ms gaps, speculative chunks), salted with the
// pathological: equal times, huge gaps, times before the base, extremes, odd token lists.
void randomCase(QRandomGenerator &rng, QList<qint64> *times, QList<qint32> *tokens, qint64 *base)
{
    times->clear();
    tokens->clear();
    const int n = int(rng.bounded(200));
    const int flavour = int(rng.bounded(6));
    *base = flavour == 5 ? qint64(rng.generate64()) : qint64(rng.bounded(1u << 30)) * 1000003;
    qint64 t = *base;
    for (int i = 0; i < n; ++i) {
        switch (flavour) {
        case 0: // realistic ns
            t += qint64(rng.bounded(50'000'000));
            break;
        case 1: // equal times and zero gaps
            t += rng.bounded(3) == 0 ? 0 : qint64(rng.bounded(1000));
            break;
        case 2: // huge gaps that wrap around
            t += qint64(rng.generate64() >> rng.bounded(64));
            break;
        case 3: // microsecond-aligned source
            t += qint64(rng.bounded(20'000)) * 1000;
            break;
        case 4: // out of order, before the base
            t = *base - qint64(rng.bounded(1'000'000)) + qint64(rng.bounded(500'000));
            break;
        default: // anything at all
            t = qint64(rng.generate64());
            break;
        }
        times->append(t);
    }
    const int tokenFlavour = int(rng.bounded(5));
    const int m = tokenFlavour == 4 ? int(rng.bounded(300)) : n;
    for (int i = 0; i < m; ++i) {
        switch (tokenFlavour) {
        case 0:
            tokens->append(1);
            break;
        case 1: // long runs (speculative decoding with a fixed lookahead)
            tokens->append(i < m / 2 ? 4 : 5);
            break;
        case 2:
            tokens->append(1 + int(rng.bounded(8)));
            break;
        case 3:
            tokens->append(qint32(rng.generate()));
            break;
        default:
            tokens->append(int(rng.bounded(3)));
            break;
        }
    }
}
} // namespace

class TestChunkCodec : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        QTest::addColumn<QList<qint64>>("times");
        QTest::addColumn<QList<qint32>>("tokens");
        QTest::addColumn<qint64>("base");

        QTest::newRow("empty") << QList<qint64>{} << QList<qint32>{} << qint64(123);
        QTest::newRow("one") << QList<qint64>{1'000'000'123} << QList<qint32>{1}
                             << qint64(1'000'000'000);
        QTest::newRow("equal times")
            << QList<qint64>{500, 500, 500, 501} << QList<qint32>{1, 1, 1, 1} << qint64(500);
        QTest::newRow("huge gaps") << QList<qint64>{kMin, kMax, 0, kMax, kMin}
                                   << QList<qint32>{1, 2, 3, 4, 5} << qint64(0);
        QTest::newRow("before base")
            << QList<qint64>{10, 20} << QList<qint32>{1, 1} << qint64(kMax);
        QTest::newRow("descending")
            << QList<qint64>{300, 200, 100} << QList<qint32>{2, 2, 2} << qint64(50);
        QTest::newRow("speculative runs")
            << QList<qint64>{1, 2, 3, 4, 5, 6} << QList<qint32>{3, 3, 3, 3, 3, 1} << qint64(0);
        QTest::newRow("negative and extreme tokens")
            << QList<qint64>{1, 2, 3}
            << QList<qint32>{-1, std::numeric_limits<qint32>::max(),
                             std::numeric_limits<qint32>::min()}
            << qint64(0);
        QTest::newRow("tokens without times")
            << QList<qint64>{} << QList<qint32>{1, 1} << qint64(0);
        QTest::newRow("times without tokens")
            << QList<qint64>{5, 6} << QList<qint32>{} << qint64(0);
        QTest::newRow("more ones than times")
            << QList<qint64>{5} << QList<qint32>{1, 1, 1} << qint64(0);
        QTest::newRow("zero tokens") << QList<qint64>{5, 6} << QList<qint32>{0, 0} << qint64(0);
        QTest::newRow("seconds aligned")
            << QList<qint64>{1'000'000'000, 3'000'000'000} << QList<qint32>{1, 1} << qint64(0);
    }

    void roundTrip()
    {
        QFETCH(QList<qint64>, times);
        QFETCH(QList<qint32>, tokens);
        QFETCH(qint64, base);
        const QByteArray blob = encodeChunks(times, tokens, base);
        QList<qint64> t{42};
        QList<qint32> k{42};
        QString error;
        QVERIFY2(decodeChunks(blob, base, &t, &k, &error), qPrintable(error));
        QCOMPARE(t, times);
        QCOMPARE(k, tokens);
    }

    void randomSequencesRoundTrip()
    {
        QRandomGenerator rng(20240611);
        QList<qint64> times, t;
        QList<qint32> tokens, k;
        qint64 base = 0;
        for (int round = 0; round < 5000; ++round) {
            randomCase(rng, &times, &tokens, &base);
            const QByteArray blob = encodeChunks(times, tokens, base);
            QString error;
            QVERIFY2(decodeChunks(blob, base, &t, &k, &error),
                     qPrintable(u"round %1: %2"_s.arg(round).arg(error)));
            QCOMPARE(t, times);
            QCOMPARE(k, tokens);
        }
    }

    void realisticStreamIsCompact()
    {
        // 100 single-token chunks, 12 ms apart with jitter, TTFT 80 ms: 4 bytes per chunk in ns.
        QRandomGenerator rng(7);
        const qint64 send = 987'654'321'000;
        QList<qint64> times;
        qint64 t = send + 80'000'000;
        for (int i = 0; i < 100; ++i) {
            times.append(t);
            t += 12'000'000 + qint64(rng.bounded(3'000'000));
        }
        const QByteArray blob = encodeChunks(times, QList<qint32>(100, 1), send);
        QVERIFY2(blob.size() <= 4 * 100 + 5, qPrintable(QString::number(blob.size())));

        // A microsecond source gets microsecond units: 2-3 bytes per chunk, still exact.
        QList<qint64> us;
        for (qint64 x : times)
            us.append(x / 1000 * 1000);
        const QByteArray usBlob = encodeChunks(us, QList<qint32>(100, 1), send);
        QVERIFY2(usBlob.size() <= 3 * 100 + 5, qPrintable(QString::number(usBlob.size())));
        QList<qint64> back;
        QList<qint32> k;
        QVERIFY(decodeChunks(usBlob, send, &back, &k));
        QCOMPARE(back, us);
    }

    void everyTruncationIsRejected()
    {
        QRandomGenerator rng(99);
        QList<qint64> times;
        QList<qint32> tokens;
        qint64 base = 0;
        for (int round = 0; round < 200; ++round) {
            randomCase(rng, &times, &tokens, &base);
            const QByteArray blob = encodeChunks(times, tokens, base);
            for (qsizetype len = 1; len < blob.size(); ++len) {
                QList<qint64> t{1};
                QList<qint32> k{1};
                QString error;
                QVERIFY2(!decodeChunks(blob.left(len), base, &t, &k, &error),
                         qPrintable(u"round %1 len %2"_s.arg(round).arg(len)));
                QVERIFY(!error.isEmpty());
                QVERIFY(t.isEmpty() && k.isEmpty());
            }
        }
    }

    void corruptBlobs_data()
    {
        QTest::addColumn<QByteArray>("blob");
        QTest::newRow("one byte") << QByteArray("\x01", 1);
        QTest::newRow("unknown version") << QByteArray("\x02\x00\x00\x00", 4);
        QTest::newRow("bad unit") << QByteArray("\x01\x0a\x00\x00", 4);
        QTest::newRow("bad mode") << QByteArray("\x01\x30\x00\x00", 4);
        QTest::newRow("huge count") << QByteArray("\x01\x00\xff\xff\xff\xff\x0f\x00", 8);
        QTest::newRow("overlong varint")
            << QByteArray("\x01\x00\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x00", 14);
        QTest::newRow("trailing byte") << QByteArray("\x01\x10\x01\x02\x01\x02\x07", 7);
        QTest::newRow("all ones beyond count") << QByteArray("\x01\x00\x01\x02\x05", 5);
        QTest::newRow("run longer than count") << QByteArray("\x01\x20\x01\x02\x01\x02\x05", 7);
        QTest::newRow("zero-length run") << QByteArray("\x01\x20\x01\x02\x01\x02\x00", 7);
        QTest::newRow("token beyond 32 bits")
            << QByteArray("\x01\x10\x01\x02\x01\xff\xff\xff\xff\x7f", 10);
    }

    void corruptBlobs()
    {
        QFETCH(QByteArray, blob);
        QList<qint64> t{1};
        QList<qint32> k{1};
        QString error;
        QVERIFY(!decodeChunks(blob, 0, &t, &k, &error));
        QVERIFY(error.startsWith(u"corrupt chunk blob"_s));
        QVERIFY(t.isEmpty() && k.isEmpty());
    }

    void randomDamageNeverCrashes()
    {
        // Flipped bytes may still decode to something; what matters is a clean answer either way.
        QRandomGenerator rng(5);
        QList<qint64> times;
        QList<qint32> tokens;
        qint64 base = 0;
        int rejected = 0;
        for (int round = 0; round < 2000; ++round) {
            randomCase(rng, &times, &tokens, &base);
            QByteArray blob = encodeChunks(times, tokens, base);
            if (blob.isEmpty())
                continue;
            blob[qsizetype(rng.bounded(quint32(blob.size())))] = char(rng.generate());
            QList<qint64> t;
            QList<qint32> k;
            if (!decodeChunks(blob, base, &t, &k))
                ++rejected;
            else
                QVERIFY(t.size() <= blob.size() && k.size() <= qMax(t.size(), blob.size()));
        }
        QVERIFY(rejected > 0);
    }

    // Decoded all-ones token lists share storage between records (a large load's memory); a
    // change to one record's list must never show in another's.
    void sharedOnesAreCopyOnWrite()
    {
        const QList<qint64> times = {1000, 2000, 3500, 4000};
        const QByteArray blob = encodeChunks(times, {1, 1, 1, 1}, 0);
        QList<qint64> t1, t2, t3;
        QList<qint32> k1, k2, k3;
        QVERIFY(decodeChunks(blob, 0, &t1, &k1));
        QVERIFY(decodeChunks(blob, 0, &t2, &k2));
        QCOMPARE(k1, QList<qint32>({1, 1, 1, 1}));
        k1[2] = 7;
        k1.append(9);
        QCOMPARE(k2, QList<qint32>({1, 1, 1, 1}));
        QVERIFY(decodeChunks(blob, 0, &t3, &k3));
        QCOMPARE(k3, QList<qint32>({1, 1, 1, 1}));
        QCOMPARE(k1, QList<qint32>({1, 1, 7, 1, 9}));
        QCOMPARE(t3, times);
    }
};

QTEST_GUILESS_MAIN(TestChunkCodec)
#include "tst_chunkcodec.moc"
