#include "sim/simprefixcache.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QString words(const QString &stem, int n, int from = 0)
{
    QStringList w;
    for (int i = from; i < from + n; ++i)
        w << u"%1%2"_s.arg(stem).arg(i);
    return w.join(u' ');
}

QList<quint64> keysOf(const QString &text, int blockTokens)
{
    return SimPrefixCache::blockKeys(SimPrefixCache::tokenHashes(text), blockTokens);
}

} // namespace

class TestSimPrefixCache : public QObject
{
    Q_OBJECT

private slots:
    void tokenization_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("tokens");
        QTest::newRow("empty") << QString() << 0;
        QTest::newRow("spaces only") << u"  \t\n "_s << 0;
        QTest::newRow("one") << u"word"_s << 1;
        QTest::newRow("mixed whitespace") << u"  a\tb\n\nc  d "_s << 4;
        QTest::newRow("utf-8") << u"caf\u00e9 \u65e5\u672c"_s << 2;
    }

    void tokenization()
    {
        QFETCH(QString, text);
        QFETCH(int, tokens);
        QCOMPARE(SimPrefixCache::tokenHashes(text).size(), tokens);
    }

    void blockKeysAreChained_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("blockTokens");
        QTest::addColumn<int>("blocks");
        QTest::newRow("shorter than a block") << 15 << 16 << 0;
        QTest::newRow("exactly one") << 16 << 16 << 1;
        QTest::newRow("tail not cached") << 47 << 16 << 2;
        QTest::newRow("block of one") << 5 << 1 << 5;
    }

    void blockKeysAreChained()
    {
        QFETCH(int, tokens);
        QFETCH(int, blockTokens);
        QFETCH(int, blocks);
        QCOMPARE(keysOf(words(u"w"_s, tokens), blockTokens).size(), blocks);
    }

    void keysDependOnEveryEarlierToken()
    {
        // Same block 1 words, different block 0: block 1's key must differ (it stands for the
        // whole prefix), while identical texts give identical keys.
        const QString a = words(u"a"_s, 4) + u' ' + words(u"s"_s, 4);
        const QString b = words(u"b"_s, 4) + u' ' + words(u"s"_s, 4);
        const QList<quint64> ka = keysOf(a, 4), kb = keysOf(b, 4);
        QCOMPARE(ka.size(), 2);
        QVERIFY(ka[0] != kb[0]);
        QVERIFY(ka[1] != kb[1]);
        QCOMPARE(keysOf(a, 4), ka);
        // Whitespace does not matter, words do.
        QCOMPARE(keysOf(u"  "_s + QString(a).replace(u' ', u"\n"_s) + u"\t"_s, 4), ka);
        // One word changed in block 1 leaves block 0 alone.
        const QList<quint64> kc = keysOf(words(u"a"_s, 4) + u" s0 s1 X s3"_s, 4);
        QCOMPARE(kc[0], ka[0]);
        QVERIFY(kc[1] != ka[1]);
    }

    void longestLeadingRun()
    {
        SimPrefixCache cache;
        cache.configure(4, 100);
        const QString shared = words(u"p"_s, 10); // 2 full blocks + 2 words
        QCOMPARE(cache.admit(keysOf(shared + u' ' + words(u"x"_s, 10), 4)), 0);
        QCOMPARE(cache.size(), 5);
        // The shared 10 words cover 2 full blocks; block 2 mixes p8 p9 with different words.
        QCOMPARE(cache.admit(keysOf(shared + u' ' + words(u"y"_s, 10), 4)), 2);
        QCOMPARE(cache.admit(keysOf(shared + u' ' + words(u"y"_s, 10), 4)), 5);
        // A leading miss hides every later block, even one that is cached.
        SimPrefixCache other;
        other.configure(4, 100);
        const QList<quint64> k = keysOf(words(u"z"_s, 12), 4);
        other.insert({k[1], k[2]});
        QCOMPARE(other.cachedBlocks(k), 0);
    }

    void lruBound()
    {
        SimPrefixCache cache;
        cache.configure(4, 4);
        const QList<quint64> a = keysOf(words(u"a"_s, 8), 4);  // a0 a1
        const QList<quint64> b = keysOf(words(u"b"_s, 12), 4); // b0 b1 b2
        QCOMPARE(cache.admit(a), 0);
        QCOMPARE(cache.admit(b), 0);
        // 5 blocks in 4 slots: the least recently used goes, and that is a's tail block (a
        // request's blocks are touched last-to-first), so a's first block survives.
        QCOMPARE(cache.size(), 4);
        QVERIFY(cache.contains(a[0]));
        QVERIFY(!cache.contains(a[1]));
        QCOMPARE(cache.cachedBlocks(a), 1);
        QCOMPARE(cache.cachedBlocks(b), 3);
        // Admitting a again refreshes a0, re-inserts a1 and evicts b's tail.
        QCOMPARE(cache.admit(a), 1);
        QCOMPARE(cache.size(), 4);
        QCOMPARE(cache.cachedBlocks(a), 2);
        QCOMPARE(cache.cachedBlocks(b), 2);
        QVERIFY(!cache.contains(b[2]));

        // A prompt longer than the whole cache keeps its leading blocks.
        const QList<quint64> big = keysOf(words(u"c"_s, 40), 4); // 10 blocks
        QCOMPARE(cache.admit(big), 0);
        QCOMPARE(cache.size(), 4);
        QCOMPARE(cache.cachedBlocks(big), 4);

        // Shrinking evicts; a new block size clears.
        cache.configure(4, 2);
        QCOMPARE(cache.size(), 2);
        QCOMPARE(cache.cachedBlocks(big), 2);
        cache.configure(8, 2);
        QCOMPARE(cache.size(), 0);
        cache.configure(8, 0);
        QCOMPARE(cache.admit(keysOf(words(u"d"_s, 16), 8)), 0);
        QCOMPARE(cache.size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestSimPrefixCache)
#include "tst_simprefixcache.moc"
