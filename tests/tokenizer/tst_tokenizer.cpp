#include "tokenizer/tokenizer.h"

#include <QDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

// Loading and refusing, on small files written for these tests (tests/data/tokenizer/README.md).
// Exactness against the reference implementations is tst_tokenizer_reference.
class TstTokenizer : public QObject
{
    Q_OBJECT
private:
    static QString data(const QString &rel)
    {
        return QDir(QStringLiteral(SB_TEST_DATA_DIR)).filePath(u"tokenizer/"_s + rel);
    }
    std::unique_ptr<Tokenizer> tiny()
    {
        QString error;
        auto t = Tokenizer::load(data(u"tiny"_s), &error);
        if (!t)
            qWarning("%s", qPrintable(error));
        return t;
    }

private slots:
    void loadsFolderAndConfig()
    {
        QString error;
        auto t = Tokenizer::load(data(u"tiny"_s), &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->path(), data(u"tiny/tokenizer.json"_s));
        QCOMPARE(t->vocabSize(), 263);
        QCOMPARE(t->eosTokenId(), 262);
        QCOMPARE(t->bosTokenId(), -1);
        QVERIFY(!t->addBosToken());
        QCOMPARE(t->sha256().size(), 64);
        QVERIFY2(t->describe().contains(u"BPE byte-level"_s), qPrintable(t->describe()));
        QVERIFY2(t->describe().contains(t->sha256()), qPrintable(t->describe()));
        QVERIFY2(t->describe().contains(u"Split(cl100k/llama3-regex)+ByteLevel"_s),
                 qPrintable(t->describe()));
        // The same file named directly.
        auto direct = Tokenizer::load(data(u"tiny/tokenizer.json"_s), &error);
        QVERIFY2(direct, qPrintable(error));
        QCOMPARE(direct->sha256(), t->sha256());
    }

    // Merge order on a vocabulary small enough to follow by hand: lowest rank first, leftmost
    // among equals; special tokens are matched before the split; the post-processor adds its
    // token only when asked.
    void encodesByRank_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<int>>("ids");
        // h e l l o: (h,e) rank 0, then (l,l) rank 1, then (he,ll) rank 2 -> hell, o
        QTest::newRow("hello") << u"hello"_s << QList<int>{258, 'o'};
        // a a a: the leftmost (a,a) merges first -> aa, a
        QTest::newRow("aaa") << u"aaa"_s << QList<int>{259, 'a'};
        QTest::newRow("aaaa") << u"aaaa"_s << QList<int>{259, 259};
        // " wow": the word is " wow" (space joins the letters); Ġ w -> Ġw, Ġw o -> Ġwo, w
        QTest::newRow("space word") << u" wow"_s << QList<int>{261, 'w'};
        QTest::newRow("special token") << u"he<|end|>he"_s << QList<int>{256, 262, 256};
        QTest::newRow("special only") << u"<|end|>"_s << QList<int>{262};
        QTest::newRow("not special") << u"<|end|"_s << QList<int>{'<', '|', 'e', 'n', 'd', '|'};
        QTest::newRow("empty") << QString() << QList<int>{};
        QTest::newRow("two bytes") << u"é"_s << QList<int>{0xC3, 0xA9};
    }
    void encodesByRank()
    {
        QFETCH(QString, text);
        QFETCH(QList<int>, ids);
        auto t = tiny();
        QVERIFY(t);
        const std::vector<qint32> got = t->encode(text);
        QCOMPARE(QList<int>(got.begin(), got.end()), ids);
        QCOMPARE(t->count(text), ids.size());
        const std::vector<qint32> special = t->encode(text, true);
        QCOMPARE(special.size(), size_t(ids.size()) + 1);
        QCOMPARE(special.front(), 262);
        QCOMPARE(t->decode(got), text);
    }

    void tokenLookup()
    {
        auto t = tiny();
        QVERIFY(t);
        QCOMPARE(t->tokenId(u"Ġwo"_s), 261);
        QCOMPARE(t->tokenId(u"<|end|>"_s), 262);
        QCOMPARE(t->tokenId(u"nope"_s), -1);
        QCOMPARE(t->tokenText(261), u"Ġwo"_s);
        QVERIFY(t->isSpecial(262));
        QVERIFY(!t->isSpecial(261));
        QCOMPARE(t->decode({256, 262, 256}, true), u"hehe"_s);
        QCOMPARE(t->decode({256, 262, 256}, false), u"he<|end|>he"_s);
        QCOMPARE(t->decode({-5, 100000}), QString());
    }

    void invalidUtf8Input()
    {
        auto t = tiny();
        QVERIFY(t);
        // A stray continuation byte is read as U+FFFD (EF BF BD).
        const std::vector<qint32> got = t->encodeUtf8(std::string_view("a\x80"
                                                                       "b",
                                                                       3));
        QCOMPARE(QList<int>(got.begin(), got.end()), (QList<int>{'a', 0xEF, 0xBF, 0xBD, 'b'}));
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QStringList>("mentions");
        const auto bad = [](const char *rel) {
            return data(u"bad/"_s + QLatin1StringView(rel));
        };
        QTest::newRow("missing file") << data(u"nowhere/tokenizer.json"_s)
                                      << QStringList{u"not found"_s, u"nowhere/tokenizer.json"_s};
        QTest::newRow("folder without tokenizer.json")
            << bad("") << QStringList{u"no tokenizer.json in folder"_s};
        QTest::newRow("invalid json")
            << bad("invalid_json")
            << QStringList{u"invalid_json/tokenizer.json"_s, u"invalid JSON at line 3, column"_s};
        QTest::newRow("not an object")
            << bad("not_object") << QStringList{u"not_object/tokenizer.json"_s, u"JSON object"_s};
        QTest::newRow("unknown model type")
            << bad("unknown_model")
            << QStringList{u"unknown_model/tokenizer.json"_s, u"model.type"_s, u"\"Unigram\""_s};
        QTest::newRow("unknown normalizer")
            << bad("unknown_normalizer")
            << QStringList{u"normalizer.normalizers[1].type"_s, u"\"Precompiled\""_s};
        QTest::newRow("unknown pre-tokenizer")
            << bad("unknown_pretokenizer")
            << QStringList{u"pre_tokenizer.pretokenizers[0].type"_s, u"\"BertPreTokenizer\""_s};
        QTest::newRow("unknown split regex")
            << bad("unknown_regex")
            << QStringList{u"pre_tokenizer.pretokenizers[0].pattern.Regex"_s, u"\\w+|[^\\w\\s]+"_s};
        QTest::newRow("unknown decoder")
            << bad("unknown_decoder") << QStringList{u"decoder.type"_s, u"\"WordPiece\""_s};
        QTest::newRow("merge with an unknown token")
            << bad("merge_unknown_token")
            << QStringList{u"merge_unknown_token/tokenizer.json"_s, u"model.merges[6]"_s,
                           u"token \"zzz\" is not in model.vocab"_s};
        QTest::newRow("merge whose result is unknown")
            << bad("merge_result_unknown")
            << QStringList{u"model.merges[6]"_s, u"token \"ab\" is not in model.vocab"_s};
        QTest::newRow("malformed merge")
            << bad("merge_malformed") << QStringList{u"model.merges[6]"_s, u"\"a b c\""_s};
        QTest::newRow("vocab id not an integer")
            << bad("vocab_id_not_integer") << QStringList{u"model.vocab[\"hell\"]"_s};
        QTest::newRow("added token with lstrip")
            << bad("added_lstrip") << QStringList{u"added_tokens[0].lstrip"_s, u"\"<|end|>\""_s};
        QTest::newRow("truncation") << bad("truncation") << QStringList{u"truncation"_s};
        QTest::newRow("unsupported post-processor")
            << bad("bad_postprocessor")
            << QStringList{u"post_processor.type"_s, u"\"BertProcessing\""_s};
        QTest::newRow("dropout") << bad("dropout") << QStringList{u"model.dropout"_s};
        QTest::newRow("invalid tokenizer_config.json")
            << bad("config_invalid")
            << QStringList{u"config_invalid/tokenizer_config.json"_s, u"invalid JSON at line 2"_s};
        QTest::newRow("tokenizer_config.json contradicts")
            << bad("config_conflict")
            << QStringList{u"config_conflict/tokenizer_config.json"_s,
                           u"added_tokens_decoder[\"262\"].content"_s, u"\"<|other|>\""_s};
        QTest::newRow("tiktoken bad line") << bad("tiktoken_bad_line/cl100k_base.tiktoken")
                                           << QStringList{u"cl100k_base.tiktoken"_s, u"line 101"_s};
        QTest::newRow("tiktoken unknown encoding")
            << bad("tiktoken_unknown/p50k_base.tiktoken")
            << QStringList{u"p50k_base.tiktoken"_s, u"unknown tiktoken encoding \"p50k_base\""_s};
    }
    void badInput()
    {
        QFETCH(QString, path);
        QFETCH(QStringList, mentions);
        QString error;
        const auto t = Tokenizer::load(path, &error);
        QVERIFY(!t);
        for (const QString &m : mentions)
            QVERIFY2(error.contains(m), qPrintable(u"\"%1\" not in: %2"_s.arg(m, error)));
    }
};

QTEST_GUILESS_MAIN(TstTokenizer)
#include "tst_tokenizer.moc"
