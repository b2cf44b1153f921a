#include "data/filehasher.h"
#include "data/mappedfile.h"
#include "data/sharegptreader.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

// The streaming reader on inline documents: string decoding and JSON syntax checks. Whole files
// and the loader's messages are covered by tst_dataset.
class TstShareGptReader : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    int m_files = 0;

    QString write(const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(u"f%1.json"_s.arg(m_files++));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            qFatal("cannot write test file");
        return path;
    }

    // Reads `doc`; returns the items, or an empty list and *error.
    QList<ShareGptConversation> read(const QByteArray &doc, QString *error, MappedFile *file)
    {
        QList<ShareGptConversation> items;
        if (!file->open(write(doc), error))
            return items;
        ShareGptReader reader(file, u"doc.json"_s);
        if (!reader.read([&](const ShareGptConversation &c) { items.append(c); }, error))
            items.clear();
        return items;
    }

private slots:
    void decode_data()
    {
        QTest::addColumn<QByteArray>("raw"); // JSON string contents, between the quotes
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("replaced");
        QTest::newRow("plain") << QByteArray("hello") << u"hello"_s << 0;
        QTest::newRow("simple escapes")
            << QByteArray("\\\"\\\\\\/\\b\\f\\n\\r\\t") << u"\"\\/\b\f\n\r\t"_s << 0;
        QTest::newRow("bmp escape") << QByteArray("caf\\u00e9 \\u4F60") << u"café 你"_s << 0;
        QTest::newRow("surrogate pair") << QByteArray("\\ud83d\\ude00!") << u"😀!"_s << 0;
        QTest::newRow("lone high") << QByteArray("a\\ud83db") << u"a\uFFFDb"_s << 1;
        QTest::newRow("lone low") << QByteArray("\\ude00") << u"\uFFFD"_s << 1;
        QTest::newRow("high then non-low escape")
            << QByteArray("\\ud83d\\u0041") << u"\uFFFDA"_s << 1;
        QTest::newRow("raw utf-8") << QByteArray("é漢😀") << u"é漢😀"_s << 0;
    }
    void decode()
    {
        QFETCH(QByteArray, raw);
        QFETCH(QString, text);
        QFETCH(int, replaced);
        const QByteArray doc = "[{\"conversations\":[{\"from\":\"human\",\"value\":\"" + raw +
                               "\"},{\"from\":\"gpt\",\"value\":\"x\"}]}]";
        MappedFile file;
        QString error;
        const auto items = read(doc, &error, &file);
        QVERIFY2(items.size() == 1, qPrintable(error));
        QVERIFY(items[0].hasPair);
        QString out = u"stale contents that must go"_s;
        qint64 count = 0;
        ShareGptReader::decode(file.data(), items[0].prompt, &out, &count);
        QCOMPARE(out, text);
        QCOMPARE(count, qint64(replaced));
    }

    void roles_data()
    {
        QTest::addColumn<QByteArray>("turns");
        QTest::addColumn<int>("count");
        QTest::addColumn<bool>("hasPair");
        QTest::newRow("human gpt")
            << QByteArray("{\"from\":\"human\",\"value\":\"a\"},{\"from\":\"gpt\",\"value\":\"b\"}")
            << 2 << true;
        QTest::newRow("user assistant")
            << QByteArray(
                   "{\"from\":\"user\",\"value\":\"a\"},{\"from\":\"assistant\",\"value\":\"b\"}")
            << 2 << true;
        QTest::newRow("system first")
            << QByteArray("{\"from\":\"system\",\"value\":\"s\"},{\"from\":\"human\",\"value\":"
                          "\"a\"},{\"from\":\"gpt\",\"value\":\"b\"}")
            << 3 << true;
        QTest::newRow("gpt first")
            << QByteArray("{\"from\":\"gpt\",\"value\":\"a\"},{\"from\":\"human\",\"value\":\"b\"}")
            << 2 << false;
        QTest::newRow("human human")
            << QByteArray(
                   "{\"from\":\"human\",\"value\":\"a\"},{\"from\":\"human\",\"value\":\"b\"}")
            << 2 << false;
        QTest::newRow("value before from")
            << QByteArray("{\"value\":\"a\",\"from\":\"Human\"},{\"value\":\"b\",\"from\":\"GPT\"}")
            << 2 << true;
        QTest::newRow("one turn") << QByteArray("{\"from\":\"human\",\"value\":\"a\"}") << 1
                                  << false;
        QTest::newRow("none") << QByteArray() << 0 << false;
    }
    void roles()
    {
        QFETCH(QByteArray, turns);
        QFETCH(int, count);
        QFETCH(bool, hasPair);
        MappedFile file;
        QString error;
        const auto items = read("[{\"id\": 1, \"conversations\": [" + turns + "]}]", &error, &file);
        QVERIFY2(items.size() == 1, qPrintable(error));
        QCOMPARE(items[0].turns, count);
        QCOMPARE(items[0].hasPair, hasPair);
    }

    void acceptsValidJson()
    {
        MappedFile file;
        QString error;
        const QByteArray doc = "\xEF\xBB\xBF [ {\"id\": {\"nested\": [1, -2.5e+3, 0.0, true, "
                               "false, null, \"s\", [], {}]},"
                               " \"conversations\": [ ] } ,\r\n{\"conversations\":[]} ]\n\n";
        const auto items = read(doc, &error, &file);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(items.size(), 2);
        QCOMPARE(items[1].index, 1);
    }

    void rejectsInvalidJson_data()
    {
        QTest::addColumn<QByteArray>("doc");
        QTest::addColumn<QString>("expected");
        QTest::newRow("leading zero")
            << QByteArray("[{\"x\": 01, \"conversations\": []}]") << u"expected ',' or '}'"_s;
        QTest::newRow("bare dot") << QByteArray("[{\"x\": 1., \"conversations\": []}]")
                                  << u"malformed number"_s;
        QTest::newRow("lone minus")
            << QByteArray("[{\"x\": -, \"conversations\": []}]") << u"malformed number"_s;
        QTest::newRow("bad literal")
            << QByteArray("[{\"x\": tru, \"conversations\": []}]") << u"expected a value"_s;
        QTest::newRow("trailing comma")
            << QByteArray("[{\"conversations\": []},]") << u"trailing comma"_s;
        QTest::newRow("data after array")
            << QByteArray("[{\"conversations\": []}] x") << u"after the top-level array"_s;
        QTest::newRow("control char")
            << QByteArray("[{\"conversations\": [], \"x\": \"a\x01\"}]") << u"control character"_s;
        QTest::newRow("short unicode escape")
            << QByteArray("[{\"conversations\": [], \"x\": \"\\u12\"}]") << u"four hex digits"_s;
        QTest::newRow("unterminated array")
            << QByteArray("[{\"conversations\": []}") << u"ends inside the top-level array"_s;
        QTest::newRow("deep nesting")
            << QByteArray("[{\"x\": " + QByteArray(600, '[') + QByteArray(600, ']') + "}]")
            << u"nesting deeper"_s;
        QTest::newRow("overlong utf-8")
            << QByteArray("[{\"conversations\": [], \"x\": \"\xC0\xAF\"}]") << u"invalid UTF-8"_s;
        QTest::newRow("utf-8 surrogate")
            << QByteArray("[{\"conversations\": [], \"x\": \"\xED\xA0\x80\"}]")
            << u"invalid UTF-8"_s;
        QTest::newRow("empty file") << QByteArray() << u"empty"_s;
    }
    void rejectsInvalidJson()
    {
        QFETCH(QByteArray, doc);
        QFETCH(QString, expected);
        MappedFile file;
        QString error;
        const auto items = read(doc, &error, &file);
        QVERIFY(items.isEmpty());
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY2(error.startsWith(u"doc.json: "_s), qPrintable(error));
    }

    void everyTruncationIsAnError()
    {
        // A file cut anywhere must give an error, never a crash or a half-read success.
        QFile f(QStringLiteral(SB_TEST_DATA_DIR "/datasets/sharegpt_good.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray whole = f.readAll();
        while (whole.endsWith('\n'))
            whole.chop(1);
        for (qsizetype n = 0; n < whole.size(); ++n) {
            MappedFile file;
            QString error;
            read(whole.left(n), &error, &file);
            QVERIFY2(!error.isEmpty(), qPrintable(QString::number(n)));
        }
        MappedFile file;
        QString error;
        QCOMPARE(read(whole, &error, &file).size(), 9);
    }

    void releasedPagesStayReadable()
    {
        // The reader drops parsed pages from the process in 16 MiB steps; the loader decodes the
        // sampled prompts afterwards, so they must fault back in intact.
        QByteArray doc = "[";
        for (int i = 0; i < 200000; ++i)
            doc += (i ? "," : "") +
                   QByteArray("{\"conversations\":[{\"from\":\"human\",\"value\":\"question ") +
                   QByteArray::number(i) +
                   "\"},{\"from\":\"gpt\",\"value\":\"answer with some words in it\"}]}";
        doc += "]";
        QVERIFY(doc.size() > 16 * 1024 * 1024); // crosses at least one release step
        MappedFile file;
        QString error;
        const auto items = read(doc, &error, &file);
        QCOMPARE(items.size(), 200000);
        QString hex, error2;
        FileHasher hasher;
        hasher.start(file.path());
        QVERIFY2(hasher.result(&hex, &error2), qPrintable(error2));
        QCOMPARE(hex, QString::fromLatin1(
                          QCryptographicHash::hash(doc, QCryptographicHash::Sha256).toHex()));
        // Pages released during the parse are still readable.
        QString text;
        ShareGptReader::decode(file.data(), items[5].prompt, &text, nullptr);
        QCOMPARE(text, u"question 5"_s);
    }
};

QTEST_GUILESS_MAIN(TstShareGptReader)
#include "tst_sharegptreader.moc"
