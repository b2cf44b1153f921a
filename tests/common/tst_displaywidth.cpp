// displayWidth() and the padding built on it (core/common/displaywidth.h): the columns a text
// takes on screen, which is what lays out the cost breakdown and `servebench-cli bills list` in
// columns (docs/cost-project.md, "Command line"; docs/translations.md).
#include "common/displaywidth.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

class TestDisplayWidth : public QObject
{
    Q_OBJECT
private slots:
    void width_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("width");
        QTest::newRow("empty") << QString() << 0;
        QTest::newRow("ascii") << u"Cost per 1M output tokens:"_s << 26;
        QTest::newRow("latin-1 and dashes") << u"2024-05-01 – 10:30 × 2 · é"_s << 26;
        QTest::newRow("cjk") << u"成本明细"_s << 8;
        QTest::newRow("cjk and ascii") << u"每 1M 输出 token 成本"_s << 21;
        // Fullwidth and ideographic punctuation: the colon and comma Chinese labels end with,
        // the ideographic space and full stop, fullwidth digits and brackets.
        QTest::newRow("fullwidth colon") << u"测试时间窗："_s << 12;
        QTest::newRow("fullwidth forms") << u"（１２）"_s << 8;
        QTest::newRow("ideographic punctuation") << u"，。　、"_s << 8;
        // Halfwidth katakana stay one column.
        QTest::newRow("halfwidth katakana") << u"ｶﾀｶﾅ"_s << 4;
        QTest::newRow("hangul syllables") << u"한국어"_s << 6;
        // Combining marks take no column of their own: e + U+0301, a Chinese character with a
        // combining mark, zero-width space and joiner.
        QTest::newRow("combining acute") << u"e\u0301"_s << 1;
        QTest::newRow("combining on cjk") << u"中\u0323"_s << 2;
        QTest::newRow("enclosing mark") << u"1\u20DD"_s << 1;
        QTest::newRow("zero width") << u"a\u200Bb\u200Dc"_s << 3;
        QTest::newRow("conjoining jamo") << u"\u1100\u1161\u11A8"_s << 2;
        // Beyond the BMP: a CJK Extension B ideograph and an emoji (surrogate pairs) are wide.
        QTest::newRow("extension b") << u"\U00020000x"_s << 3;
        QTest::newRow("emoji") << u"\U0001F600"_s << 2;
        QTest::newRow("control") << u"a\tb"_s << 2;
    }
    void width()
    {
        QFETCH(QString, text);
        QFETCH(int, width);
        QCOMPARE(displayWidth(text), width);
    }

    void codePoints()
    {
        QCOMPARE(displayWidth(U'A'), 1);
        QCOMPARE(displayWidth(U'中'), 2);
        QCOMPARE(displayWidth(U'\u3000'), 2); // ideographic space (F)
        QCOMPARE(displayWidth(U'\uFF1A'), 2); // fullwidth colon (F)
        QCOMPARE(displayWidth(U'\uFF61'), 1); // halfwidth ideographic full stop (H)
        QCOMPARE(displayWidth(U'\u303F'), 1); // half fill space: narrow inside a wide block
        QCOMPARE(displayWidth(U'\u0301'), 0);
        QCOMPARE(displayWidth(U'\u2E7F'), 1); // just before CJK Radicals Supplement
        QCOMPARE(displayWidth(U'\u2E80'), 2);
        QCOMPARE(displayWidth(U'\U0003FFFD'), 2);
        QCOMPARE(displayWidth(U'\U00040000'), 1);
    }

    void pad()
    {
        QCOMPARE(padToWidth(u"Total:"_s, 10), u"Total:    "_s);
        // Two spaces fewer per Chinese character than counting QChars would give.
        QCOMPARE(padToWidth(u"合计："_s, 10), u"合计：    "_s);
        QCOMPARE(displayWidth(padToWidth(u"合计："_s, 10)), 10);
        QCOMPARE(padToWidth(u"e\u0301"_s, 3), u"e\u0301  "_s);
        QCOMPARE(padToWidth(u"longer than ten"_s, 10), u"longer than ten"_s);
        QCOMPARE(padToWidth(u"ab"_s, 5, u'='), u"ab==="_s);
        QCOMPARE(padLeftToWidth(u"8.00"_s, 6), u"  8.00"_s);
        QCOMPARE(padLeftToWidth(u"八"_s, 6), u"    八"_s);
    }

    void truncate()
    {
        QCOMPARE(truncateToWidth(u"abcdef"_s, 4), u"abcd"_s);
        QCOMPARE(truncateToWidth(u"共享的系统"_s, 5), u"共享"_s); // 中 would straddle column 5
        QCOMPARE(truncateToWidth(u"共享的系统"_s, 6), u"共享的"_s);
        QCOMPARE(truncateToWidth(u"e\u0301x"_s, 1), u"e\u0301"_s); // the mark stays with its base
        QCOMPARE(truncateToWidth(u"\U0001F600ab"_s, 1), QString());
        QCOMPARE(truncateToWidth(u"\U0001F600ab"_s, 3), u"\U0001F600a"_s);
        QCOMPARE(truncateToWidth(u"short"_s, 16), u"short"_s);
    }
};

QTEST_GUILESS_MAIN(TestDisplayWidth)
#include "tst_displaywidth.moc"
