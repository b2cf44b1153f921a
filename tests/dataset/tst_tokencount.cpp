#include "data/seededrng.h"
#include "data/syntheticprompt.h"
#include "data/tokencount.h"

#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TstTokenCount : public QObject
{
    Q_OBJECT
private slots:
    void rule_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("tokens");
        QTest::newRow("empty") << QString() << 0;
        QTest::newRow("whitespace only") << u"  \t\n "_s << 0;
        QTest::newRow("one short word") << u"hello"_s << 1;
        QTest::newRow("six letters") << u"planet"_s << 1;
        QTest::newRow("seven letters") << u"planets"_s << 2;
        QTest::newRow("long word") << u"internationalization"_s << 4;
        QTest::newRow("punctuation counts") << u"Hello, world!"_s << 4;
        QTest::newRow("two digits") << u"12"_s << 1;
        QTest::newRow("year") << u"2024"_s << 2;
        QTest::newRow("seven digits") << u"1234567"_s << 3;
        QTest::newRow("chinese") << u"你好"_s << 2;
        QTest::newRow("chinese sentence") << u"请用三句话介绍一下长城的历史。"_s << 15;
        QTest::newRow("mixed latin cjk") << u"GPU是什么"_s << 4;
        QTest::newRow("hiragana") << u"こんにちは"_s << 5;
        QTest::newRow("hangul") << u"안녕하세요"_s << 5;
        QTest::newRow("latin-1 letter") << u"naïve"_s << 1;
        QTest::newRow("combining mark") << u"e\u0301te"_s << 1;
        QTest::newRow("cyrillic") << u"привет"_s << 2;
        QTest::newRow("emoji pair") << u"a😀b"_s << 3;
        QTest::newRow("code") << u"f(x) = x * 2;"_s << 9;
    }
    void rule()
    {
        QFETCH(QString, text);
        QFETCH(int, tokens);
        QCOMPARE(approxTokenCount(text), tokens);
    }

    void wordListIsOneTokenPerWord()
    {
        QSet<QString> seen;
        for (int i = 0; i < SyntheticPromptBuilder::kWordCount; ++i) {
            const QString w = SyntheticPromptBuilder::word(i);
            QVERIFY2(w.size() >= 1 && w.size() <= 6, qPrintable(w));
            QCOMPARE(approxTokenCount(w), 1);
            seen.insert(w);
        }
        QCOMPARE(seen.size(), SyntheticPromptBuilder::kWordCount);
    }

    void syntheticPromptHasRequestedTokens_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<quint64>("seed");
        QTest::newRow("1") << 1 << quint64(0);
        QTest::newRow("32") << 32 << quint64(1);
        QTest::newRow("1000") << 1000 << quint64(2);
        QTest::newRow("4096") << 4096 << quint64(3);
    }
    void syntheticPromptHasRequestedTokens()
    {
        QFETCH(int, tokens);
        QFETCH(quint64, seed);
        const QString p = syntheticPrompt(tokens, seed);
        QCOMPARE(approxTokenCount(p), tokens);
        QCOMPARE(p.count(u' ') + 1, tokens);
        QCOMPARE(syntheticPrompt(tokens, seed), p); // deterministic
    }

    void syntheticPromptDependsOnSeed()
    {
        QVERIFY(syntheticPrompt(50, 1) != syntheticPrompt(50, 2));
        SeededRng rng(5);
        QString s = u"prefix"_s;
        SyntheticPromptBuilder::appendWords(&s, 3, rng);
        QVERIFY(s.startsWith(u"prefix "_s));
        QCOMPARE(approxTokenCount(s), 4);
    }

    void calibration_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<double>("tokensPerWord");
        QTest::addColumn<int>("words");
        QTest::newRow("uncalibrated") << 100 << 1.0 << 100;
        QTest::newRow("1.25 tokens per word") << 100 << 1.25 << 80;
        QTest::newRow("0.8 tokens per word") << 100 << 0.8 << 125;
        QTest::newRow("invalid ratio") << 100 << 0.0 << 100;
        QTest::newRow("never below one word") << 1 << 10.0 << 1;
        QTest::newRow("zero tokens") << 0 << 1.3 << 0;
    }
    void calibration()
    {
        QFETCH(int, tokens);
        QFETCH(double, tokensPerWord);
        QFETCH(int, words);
        QCOMPARE(wordsForTokens(tokens, tokensPerWord), words);
        if (words > 0)
            QCOMPARE(approxTokenCount(syntheticPrompt(tokens, 9, tokensPerWord)), words);
    }
};

QTEST_GUILESS_MAIN(TstTokenCount)
#include "tst_tokencount.moc"
