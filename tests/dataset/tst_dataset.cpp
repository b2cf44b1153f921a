#include "config/runplan.h"
#include "data/dataset.h"
#include "data/tokencount.h"
#include "tokenizer/tokenizer.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QString dataFile(const QString &name)
{
    return QStringLiteral(SB_TEST_DATA_DIR "/datasets/") + name;
}

QString resourceFile(const QString &name)
{
    return QStringLiteral(SB_RESOURCES_DIR "/datasets/") + name;
}

DatasetSpec fileSpec(DatasetKind kind, const QString &path)
{
    DatasetSpec s;
    s.kind = kind;
    s.path = path;
    return s;
}

QList<qint32> sourceIndices(const LoadedDataset &ds)
{
    QList<qint32> out;
    for (const PromptItem &i : ds.items)
        out.append(i.sourceIndex);
    return out;
}

QString words(int n)
{
    QStringList w;
    for (int i = 0; i < n; ++i)
        w.append(u"word"_s);
    return w.join(u' ');
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TstDataset : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    // ---- ShareGPT ----------------------------------------------------------------------------
    void shareGptGood()
    {
        LoadedDataset ds;
        QString error;
        QVERIFY2(loadDataset(fileSpec(DatasetKind::ShareGpt, dataFile(u"sharegpt_good.json"_s)), 0,
                             1, &ds, &error),
                 qPrintable(error));
        const DatasetInfo &info = ds.info;
        QCOMPARE(info.sourceItems, 9);
        QCOMPARE(info.itemCount, 4);
        QCOMPARE(info.skipped, 5);
        QCOMPARE(info.skipReasons.value(u"fewer_than_two_turns"_s), 2); // items 1 and 7
        QCOMPARE(info.skipReasons.value(u"no_assistant_reply"_s), 1);   // item 3
        QCOMPARE(info.skipReasons.value(u"prompt_too_short"_s), 1);     // item 5
        QCOMPARE(info.skipReasons.value(u"output_too_short"_s), 1);     // item 6
        QCOMPARE(ds.items.size(), 4);
        QList<qint32> idx = sourceIndices(ds);
        std::sort(idx.begin(), idx.end());
        QCOMPARE(idx, (QList<qint32>{0, 2, 4, 8}));
        for (const PromptItem &item : ds.items) {
            QCOMPARE(item.inputTokens, approxTokenCount(item.prompt));
            QVERIFY(item.messages.isEmpty());
            switch (item.sourceIndex) {
            case 0:
                QCOMPARE(item.prompt, u"Explain how a hash table handles collisions, briefly."_s);
                QCOMPARE(item.inputTokens, 14);
                QCOMPARE(
                    item.outputTokens,
                    approxTokenCount(
                        u"Colliding keys share a bucket: either a chain of entries or the next free slot (open addressing)."_s));
                break;
            case 2: // a system turn first: the prompt is the first human turn
                QCOMPARE(item.prompt, u"请用三句话介绍一下长城的历史。"_s);
                QCOMPARE(item.inputTokens, 15);
                break;
            case 4: // escapes and a surrogate pair decoded
                QCOMPARE(item.prompt, u"Tab\tand \"quotes\", a backslash \\ and emoji 😀 please?"_s);
                break;
            case 8:
                QCOMPARE(item.prompt, u"Write a haiku about autumn leaves falling."_s);
                break;
            }
        }
        QVERIFY(info.approximateTokens);
        QCOMPARE(info.tokenCounter, QString::fromLatin1(kApproxTokenCounterName));
        QCOMPARE(info.sampled, 4);
        QCOMPARE(info.oversampled, 0);
        QCOMPARE(info.inputStats.count, 4);
        QVERIFY(info.inputStats.min <= info.inputStats.p50 &&
                info.inputStats.p50 <= info.inputStats.max);
    }

    void shareGptFixedOutputLength()
    {
        DatasetSpec spec = fileSpec(DatasetKind::ShareGpt, dataFile(u"sharegpt_good.json"_s));
        spec.sharegptOutputLen = 10;
        LoadedDataset ds;
        QString error;
        QVERIFY2(loadDataset(spec, 0, 1, &ds, &error), qPrintable(error));
        QCOMPARE(ds.info.itemCount, 5); // item 6's short reply no longer matters
        QVERIFY(!ds.info.skipReasons.contains(u"output_too_short"_s));
        for (const PromptItem &item : ds.items)
            QCOMPARE(item.outputTokens, 10);
        QCOMPARE(ds.info.outputStats.min, 10);
        QCOMPARE(ds.info.outputStats.max, 10);
    }

    void shareGptFilters_data()
    {
        // vLLM's rules: prompt or output < 4 tokens skipped (the output check is off with a fixed
        // length); without a fixed length, prompt > 1024 or prompt + output > 2048 skipped.
        QTest::addColumn<int>("prompt");
        QTest::addColumn<int>("output");
        QTest::addColumn<int>("fixed");
        QTest::addColumn<QString>("reason"); // empty: kept
        QTest::newRow("prompt 3") << 3 << 10 << -1 << u"prompt_too_short"_s;
        QTest::newRow("prompt 3 fixed") << 3 << 10 << 50 << u"prompt_too_short"_s;
        QTest::newRow("4 and 4") << 4 << 4 << -1 << QString();
        QTest::newRow("output 3") << 10 << 3 << -1 << u"output_too_short"_s;
        QTest::newRow("output 3 fixed") << 10 << 3 << 50 << QString();
        QTest::newRow("prompt 1024") << 1024 << 100 << -1 << QString();
        QTest::newRow("prompt 1025") << 1025 << 100 << -1 << u"prompt_too_long"_s;
        QTest::newRow("prompt 1025 fixed") << 1025 << 100 << 50 << QString();
        QTest::newRow("total 2048") << 1000 << 1048 << -1 << QString();
        QTest::newRow("total 2049") << 1000 << 1049 << -1 << u"total_too_long"_s;
        QTest::newRow("total 2049 fixed") << 1000 << 1049 << 1049 << QString();
    }
    void shareGptFilters()
    {
        QFETCH(int, prompt);
        QFETCH(int, output);
        QFETCH(int, fixed);
        QFETCH(QString, reason);
        // One conversation under test and one that always passes, so the dataset is never empty.
        const QByteArray doc =
            QByteArray("[{\"conversations\":[{\"from\":\"human\",\"value\":\"") +
            words(prompt).toUtf8() + "\"},{\"from\":\"gpt\",\"value\":\"" + words(output).toUtf8() +
            "\"}]}," +
            "{\"conversations\":[{\"from\":\"human\",\"value\":\"word word word word word\"}," +
            "{\"from\":\"gpt\",\"value\":\"word word word word word\"}]}]";
        const QString path = m_dir.filePath(u"filters.json"_s);
        QVERIFY(writeFile(path, doc));
        DatasetSpec spec = fileSpec(DatasetKind::ShareGpt, path);
        spec.sharegptOutputLen = fixed;
        LoadedDataset ds;
        QString error;
        QVERIFY2(loadDataset(spec, 0, 0, &ds, &error), qPrintable(error));
        QCOMPARE(ds.info.itemCount, reason.isEmpty() ? 2 : 1);
        if (!reason.isEmpty())
            QCOMPARE(ds.info.skipReasons.value(reason), 1);
        for (const PromptItem &item : ds.items) {
            if (item.sourceIndex == 0) {
                QCOMPARE(item.inputTokens, prompt);
                QCOMPARE(item.outputTokens, fixed > 0 ? fixed : output);
            }
        }
    }

    // With the model's tokenizer vLLM's filters and the reference output lengths are in its
    // tokens, special tokens included (len(tokenizer(text).input_ids)). The tiny tokenizer has
    // few merges, so its counts are far above the approximate ones: the decisions differ.
    void shareGptFiltersInRealTokens_data()
    {
        QTest::addColumn<int>("promptWords");
        QTest::addColumn<int>("outputWords");
        QTest::addColumn<bool>("decisionDiffers");          // from the approximate count's
        QTest::newRow("short both ways") << 1 << 5 << true; // approx 1 < 4; real more
        QTest::newRow("kept both ways") << 20 << 20 << false;
        QTest::newRow("prompt too long") << 400 << 10 << true; // approx 400; real > 1024
        QTest::newRow("total too long") << 300 << 400 << true; // approx 700; real > 2048
    }
    void shareGptFiltersInRealTokens()
    {
        QFETCH(int, promptWords);
        QFETCH(int, outputWords);
        QFETCH(bool, decisionDiffers);
        QString why;
        const std::unique_ptr<Tokenizer> tok =
            Tokenizer::load(QStringLiteral(SB_TEST_DATA_DIR "/tokenizer/tiny"), &why);
        QVERIFY2(tok, qPrintable(why));
        const QString prompt = words(promptWords), output = words(outputWords);
        const QByteArray doc =
            QByteArray("[{\"conversations\":[{\"from\":\"human\",\"value\":\"") + prompt.toUtf8() +
            "\"},{\"from\":\"gpt\",\"value\":\"" + output.toUtf8() + "\"}]}," +
            "{\"conversations\":[{\"from\":\"human\",\"value\":\"word word word word word\"}," +
            "{\"from\":\"gpt\",\"value\":\"word word word word word\"}]}]";
        const QString path = m_dir.filePath(u"real.json"_s);
        QVERIFY(writeFile(path, doc));
        const int in = int(tok->count(prompt, true));
        const int out = int(tok->count(output, true));
        const auto kept = [](int p, int o) {
            return p >= kShareGptMinLen && o >= kShareGptMinLen && p <= kShareGptMaxPromptLen &&
                   p + o <= kShareGptMaxTotalLen;
        };
        const DatasetSpec spec = fileSpec(DatasetKind::ShareGpt, path);
        LoadedDataset ds, approx;
        QVERIFY2(loadDataset(spec, 0, 0, &ds, &why, tok.get()), qPrintable(why));
        QVERIFY2(loadDataset(spec, 0, 0, &approx, &why), qPrintable(why));
        QCOMPARE(ds.info.tokenCounter, u"tokenizer"_s);
        QVERIFY(!ds.info.approximateTokens);
        QCOMPARE(ds.info.itemCount, kept(in, out) ? 2 : 1);
        QCOMPARE(approx.info.itemCount != ds.info.itemCount, decisionDiffers);
        for (const PromptItem &item : ds.items) {
            if (item.sourceIndex == 0) {
                QCOMPARE(item.inputTokens, in);
                QCOMPARE(item.outputTokens, out); // the reference answer's real length
            }
        }
        // The tokenizer is part of the dataset's identity.
        QVERIFY(ds.info.sha256 != approx.info.sha256);
    }

    void shareGptErrors_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected"); // every piece must be in the message
        QTest::newRow("missing file")
            << u"nope.json"_s << QStringList{u"not found"_s, u"nope.json"_s};
        QTest::newRow("not an array")
            << u"sharegpt_not_array.json"_s
            << QStringList{u"not ShareGPT layout"_s, u"line 1, column 1"_s,
                           u"JSON array of conversations"_s, u"found an object"_s};
        QTest::newRow("item not an object")
            << u"sharegpt_item_not_object.json"_s
            << QStringList{u"not ShareGPT layout"_s, u"line 3"_s, u"item 1:"_s,
                           u"\"conversations\""_s, u"found a string"_s};
        QTest::newRow("no conversations")
            << u"sharegpt_no_conversations.json"_s
            << QStringList{u"line 3"_s, u"item 1:"_s, u"\"conversations\""_s, u"no such field"_s};
        QTest::newRow("conversations not array")
            << u"sharegpt_conversations_not_array.json"_s
            << QStringList{u"item 0:"_s, u"array of {from, value}"_s, u"found an object"_s};
        QTest::newRow("turn without value")
            << u"sharegpt_turn_no_value.json"_s
            << QStringList{u"item 0, conversations[1]"_s, u"\"value\""_s, u"line 2"_s};
        QTest::newRow("value not a string")
            << u"sharegpt_value_not_string.json"_s
            << QStringList{u"item 0, conversations[0].value"_s, u"found a number"_s};
        QTest::newRow("invalid json")
            << u"sharegpt_invalid_json.json"_s
            << QStringList{u"invalid JSON"_s, u"line 5, column 4"_s, u"',' or ']'"_s};
        QTest::newRow("invalid utf-8")
            << u"sharegpt_bad_utf8.json"_s
            << QStringList{u"invalid UTF-8"_s, u"line 3, column 34"_s, u"0xE9"_s};
        QTest::newRow("empty array")
            << u"sharegpt_empty_array.json"_s << QStringList{u"no conversations"_s};
        QTest::newRow("empty file") << u"custom_empty.jsonl"_s << QStringList{u"empty"_s};
        QTest::newRow("truncated")
            << u"sharegpt_truncated.json"_s
            << QStringList{u"invalid JSON"_s, u"line 2"_s, u"unterminated string"_s};
        QTest::newRow("bad escape")
            << u"sharegpt_bad_escape.json"_s
            << QStringList{u"invalid JSON"_s, u"line 2"_s, u"invalid escape"_s};
        QTest::newRow("everything skipped")
            << u"sharegpt_all_skipped.json"_s
            << QStringList{u"no usable conversations"_s, u"all 2"_s, u"1 prompt_too_short"_s,
                           u"1 fewer_than_two_turns"_s};
    }
    void shareGptErrors()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        LoadedDataset ds;
        ds.items.append(PromptItem{u"sentinel"_s, {}, 1, 1, 1});
        QString error;
        QVERIFY(!loadDataset(fileSpec(DatasetKind::ShareGpt, dataFile(file)), 10, 0, &ds, &error));
        QVERIFY2(error.contains(dataFile(file)), qPrintable(error)); // names the file
        for (const QString &piece : expected)
            QVERIFY2(error.contains(piece),
                     qPrintable(u"missing \"%1\" in: %2"_s.arg(piece, error)));
        // Nothing runs half-loaded: the output is untouched.
        QCOMPARE(ds.items.size(), 1);
        QCOMPARE(ds.items[0].prompt, u"sentinel"_s);
    }

    // ---- custom JSONL ------------------------------------------------------------------------
    void customGood()
    {
        LoadedDataset ds;
        QString error;
        QVERIFY2(loadDataset(fileSpec(DatasetKind::Custom, dataFile(u"custom_good.jsonl"_s)), 0, 3,
                             &ds, &error),
                 qPrintable(error));
        QCOMPARE(ds.info.sourceItems, 5); // blank lines are ignored
        QCOMPARE(ds.info.itemCount, 5);
        QCOMPARE(ds.info.skipped, 0);
        QList<qint32> lines = sourceIndices(ds);
        std::sort(lines.begin(), lines.end());
        QCOMPARE(lines, (QList<qint32>{1, 3, 5, 6, 7}));
        for (const PromptItem &item : ds.items) {
            switch (item.sourceIndex) {
            case 1:
                QCOMPARE(item.outputTokens, 64);
                QCOMPARE(item.inputTokens, approxTokenCount(item.prompt));
                break;
            case 3:
                QCOMPARE(item.prompt, u"把这句话翻译成英文：今天天气很好。"_s);
                QCOMPARE(item.outputTokens, kCustomDefaultOutputLen);
                break;
            case 5:
                QCOMPARE(item.messages.size(), 2);
                QCOMPARE(item.messages.at(1).toObject().value(u"content"_s).toString(),
                         u"List three prime numbers."_s);
                QCOMPARE(item.inputTokens, approxTokenCount(u"You are a helpful assistant."_s) +
                                               approxTokenCount(u"List three prime numbers."_s));
                QCOMPARE(item.outputTokens, 16);
                break;
            case 6: // CRLF line
                QCOMPARE(item.outputTokens, 100);
                break;
            case 7:
                QCOMPARE(item.prompt, u"Emoji 🚀 and tabs\tare fine."_s);
                break;
            }
        }
    }

    void customFixedOutputLengthWins()
    {
        DatasetSpec spec = fileSpec(DatasetKind::Custom, dataFile(u"custom_good.jsonl"_s));
        spec.sharegptOutputLen = 33;
        LoadedDataset ds;
        QString error;
        QVERIFY2(loadDataset(spec, 0, 3, &ds, &error), qPrintable(error));
        for (const PromptItem &item : ds.items)
            QCOMPARE(item.outputTokens, 33);
    }

    void customErrors_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("no prompt")
            << u"custom_no_prompt.jsonl"_s
            << QStringList{u"custom_no_prompt.jsonl:3:"_s, u"missing field \"prompt\""_s};
        QTest::newRow("invalid json")
            << u"custom_bad_json.jsonl"_s
            << QStringList{u"custom_bad_json.jsonl:2:"_s, u"invalid JSON at column"_s};
        QTest::newRow("invalid utf-8")
            << u"custom_bad_utf8.jsonl"_s
            << QStringList{u"custom_bad_utf8.jsonl:3:"_s, u"invalid UTF-8 at column 15"_s,
                           u"byte offset 57"_s};
        QTest::newRow("blank lines only") << u"custom_blank.jsonl"_s << QStringList{u"no items"_s};
        QTest::newRow("empty file") << u"custom_empty.jsonl"_s << QStringList{u"empty"_s};
        QTest::newRow("bad output_tokens")
            << u"custom_bad_output_tokens.jsonl"_s
            << QStringList{u"custom_bad_output_tokens.jsonl:2:"_s,
                           u"\"output_tokens\" must be a positive integer"_s, u"-5"_s};
        QTest::newRow("bad message") << u"custom_bad_messages.jsonl"_s
                                     << QStringList{u"custom_bad_messages.jsonl:1:"_s,
                                                    u"messages[1].content"_s, u"found a number"_s};
        QTest::newRow("not an object")
            << u"custom_not_object.jsonl"_s
            << QStringList{u"custom_not_object.jsonl:2:"_s, u"JSON object"_s};
        QTest::newRow("prompt not a string")
            << u"custom_prompt_not_string.jsonl"_s
            << QStringList{u":1:"_s, u"\"prompt\""_s, u"found an array"_s};
        QTest::newRow("missing file")
            << u"nope.jsonl"_s << QStringList{u"not found"_s, u"nope.jsonl"_s};
    }
    void customErrors()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        LoadedDataset ds;
        QString error;
        QVERIFY(!loadDataset(fileSpec(DatasetKind::Custom, dataFile(file)), 10, 0, &ds, &error));
        for (const QString &piece : expected)
            QVERIFY2(error.contains(piece),
                     qPrintable(u"missing \"%1\" in: %2"_s.arg(piece, error)));
        QVERIFY(ds.items.isEmpty());
    }

    void noPathGiven()
    {
        LoadedDataset ds;
        QString error;
        QVERIFY(!loadDataset(fileSpec(DatasetKind::ShareGpt, QString()), 10, 0, &ds, &error));
        QVERIFY2(error.contains(u"no dataset path"_s), qPrintable(error));
    }

    // ---- sampling ----------------------------------------------------------------------------
    void samplingIsDeterministic_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("path");
        QTest::newRow("sharegpt") << int(DatasetKind::ShareGpt)
                                  << resourceFile(u"sharegpt_sample.json"_s);
        QTest::newRow("custom") << int(DatasetKind::Custom)
                                << resourceFile(u"custom_sample.jsonl"_s);
    }
    void samplingIsDeterministic()
    {
        QFETCH(int, kind);
        QFETCH(QString, path);
        const DatasetSpec spec = fileSpec(DatasetKind(kind), path);
        LoadedDataset a, b, c;
        QString error;
        const int n = 15;
        QVERIFY2(loadDataset(spec, n, 7, &a, &error), qPrintable(error));
        QVERIFY(loadDataset(spec, n, 7, &b, &error));
        QVERIFY(loadDataset(spec, n, 8, &c, &error));
        QCOMPARE(a.items.size(), n);
        QCOMPARE(sourceIndices(a), sourceIndices(b));
        for (int i = 0; i < n; ++i)
            QCOMPARE(a.items[i].prompt, b.items[i].prompt);
        QVERIFY(sourceIndices(a) != sourceIndices(c));
        const QList<qint32> idx = sourceIndices(a);
        QCOMPARE(QSet<qint32>(idx.begin(), idx.end()).size(), n); // without replacement
        QCOMPARE(a.info.sha256, b.info.sha256);
        QVERIFY(a.info.sha256 != c.info.sha256);
    }

    void shareGptSampleLoads()
    {
        LoadedDataset ds;
        QString error;
        QVERIFY2(
            loadDataset(fileSpec(DatasetKind::ShareGpt, resourceFile(u"sharegpt_sample.json"_s)),
                        100, 0, &ds, &error),
            qPrintable(error));
        QCOMPARE(ds.info.sourceItems, 300);
        QVERIFY(ds.info.skipped > 0); // the sample holds deliberately unusable conversations
        QVERIFY(ds.info.itemCount > 250);
        QCOMPARE(ds.items.size(), 100);
    }

    void moreThanAvailable()
    {
        DatasetSpec spec = fileSpec(DatasetKind::Custom, dataFile(u"custom_good.jsonl"_s));
        LoadedDataset ds;
        QString error;
        QVERIFY(!loadDataset(spec, 12, 0, &ds, &error));
        QVERIFY2(error.contains(u"12 prompts requested but only 5 usable items"_s),
                 qPrintable(error));
        QVERIFY(error.contains(u"with_replacement"_s));

        spec.withReplacement = true;
        QVERIFY2(loadDataset(spec, 12, 0, &ds, &error), qPrintable(error));
        QCOMPARE(ds.items.size(), 12);
        QCOMPARE(ds.info.oversampled, 7);
        // Every item is used once before any repeats (vLLM's oversampling).
        const QList<qint32> first = sourceIndices(ds).mid(0, 5);
        QCOMPARE(QSet<qint32>(first.begin(), first.end()), (QSet<qint32>{1, 3, 5, 6, 7}));
        LoadedDataset again;
        QVERIFY(loadDataset(spec, 12, 0, &again, &error));
        QCOMPARE(sourceIndices(again), sourceIndices(ds));
    }

    // ---- identity ----------------------------------------------------------------------------
    void hashIsStableAndSensitive()
    {
        QFile src(resourceFile(u"custom_sample.jsonl"_s));
        QVERIFY(src.open(QIODevice::ReadOnly));
        const QByteArray bytes = src.readAll();
        const QString a = m_dir.filePath(u"a.jsonl"_s), b = m_dir.filePath(u"b.jsonl"_s);
        QByteArray changed = bytes;
        const qsizetype at = changed.indexOf("limerick");
        QVERIFY(at > 0);
        changed[at] = 'L'; // one byte
        QVERIFY(writeFile(a, bytes));
        QVERIFY(writeFile(b, changed));

        auto load = [](const DatasetSpec &spec, int n = 5, quint64 seed = 1) {
            LoadedDataset ds;
            QString error;
            if (!loadDataset(spec, n, seed, &ds, &error))
                qFatal("%s", qPrintable(error));
            return ds.info;
        };
        const DatasetSpec specA = fileSpec(DatasetKind::Custom, a);
        const DatasetInfo base = load(specA);
        QCOMPARE(base.sourceSha256,
                 QString::fromLatin1(
                     QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
        QCOMPARE(base.sourceBytes, bytes.size());
        QCOMPARE(load(specA).sha256, base.sha256);
        // Stable across paths and labels: the same bytes somewhere else are the same dataset.
        DatasetSpec relabelled =
            fileSpec(DatasetKind::Custom, resourceFile(u"custom_sample.jsonl"_s));
        relabelled.versionLabel = u"v2"_s;
        QCOMPARE(load(relabelled).sha256, base.sha256);
        // Sensitive to one byte and to every sampling parameter.
        QVERIFY(load(fileSpec(DatasetKind::Custom, b)).sha256 != base.sha256);
        QVERIFY(load(specA, 6).sha256 != base.sha256);
        QVERIFY(load(specA, 5, 2).sha256 != base.sha256);
        DatasetSpec fixed = specA;
        fixed.sharegptOutputLen = 100;
        QVERIFY(load(fixed).sha256 != base.sha256);
        DatasetSpec repl = specA;
        repl.withReplacement = true;
        QVERIFY(load(repl).sha256 != base.sha256);
        // The hash is the documented function of its parts.
        QCOMPARE(base.sha256, datasetIdentityHash(base.sourceSha256, base.parameters));
        QCOMPARE(base.parameters, canonicalDatasetParameters(specA, 5, 1));
    }

    void randomHashSensitivity()
    {
        DatasetSpec spec;
        spec.kind = DatasetKind::Random;
        spec.randomInputLen = 64;
        spec.randomOutputLen = 16;
        auto hash = [](const DatasetSpec &s) {
            LoadedDataset ds;
            QString error;
            if (!loadDataset(s, 10, 1, &ds, &error))
                qFatal("%s", qPrintable(error));
            return ds.info.sha256;
        };
        const QString base = hash(spec);
        QCOMPARE(hash(spec), base);
        DatasetSpec s = spec;
        s.randomInputLen = 65;
        QVERIFY(hash(s) != base);
        s = spec;
        s.randomRangeRatio = 0.1;
        QVERIFY(hash(s) != base);
        s = spec;
        s.randomPrefixLen = 4;
        QVERIFY(hash(s) != base);
        s = spec;
        s.tokensPerWord = 1.3;
        QVERIFY(hash(s) != base);
        s = spec;
        s.randomDistribution = LengthDistribution::Normal;
        QVERIFY(hash(s) != base);
    }

    void infoJson()
    {
        LoadedDataset ds;
        QString error;
        DatasetSpec spec = fileSpec(DatasetKind::ShareGpt, dataFile(u"sharegpt_good.json"_s));
        spec.versionLabel = u"good-v1"_s;
        QVERIFY(loadDataset(spec, 3, 0, &ds, &error));
        const QJsonObject o = ds.info.toJson();
        QCOMPARE(o.value(u"kind"_s).toString(), u"sharegpt"_s);
        QCOMPARE(o.value(u"version_label"_s).toString(), u"good-v1"_s);
        QCOMPARE(o.value(u"sha256"_s).toString().size(), 64);
        QCOMPARE(o.value(u"item_count"_s).toInteger(), 4);
        QCOMPARE(o.value(u"sampled"_s).toInteger(), 3);
        QCOMPARE(o.value(u"skip_reasons"_s).toObject().value(u"fewer_than_two_turns"_s).toInteger(),
                 2);
        QCOMPARE(o.value(u"approximate_tokens"_s).toBool(), true);
        QCOMPARE(o.value(u"input_tokens"_s).toObject().value(u"count"_s).toInteger(), 3);
        QCOMPARE(o.value(u"parameters"_s).toObject().value(u"seed"_s).toString(), u"0"_s);
    }

    void lengthStats()
    {
        const LengthStats s = LengthStats::of({10, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        QCOMPARE(s.count, 10);
        QCOMPARE(s.min, 1);
        QCOMPARE(s.max, 10);
        QCOMPARE(s.mean, 5.5);
        QCOMPARE(s.p50, 5.5);
        QVERIFY(qFuzzyCompare(s.p90, 9.1));
        QVERIFY(qFuzzyCompare(s.p99, 9.91));
        QCOMPARE(LengthStats::of({}).count, 0);
    }

    // ---- synthetic ---------------------------------------------------------------------------
    void randomFixedLengths()
    {
        DatasetSpec spec;
        spec.kind = DatasetKind::Random;
        spec.randomInputLen = 100;
        spec.randomOutputLen = 20;
        LoadedDataset ds;
        QString error;
        QVERIFY2(loadDataset(spec, 50, 5, &ds, &error), qPrintable(error));
        QCOMPARE(ds.items.size(), 50);
        QSet<QString> distinct;
        for (const PromptItem &item : ds.items) {
            QCOMPARE(item.inputTokens, 100);
            QCOMPARE(item.outputTokens, 20);
            QCOMPARE(approxTokenCount(item.prompt), 100);
            distinct.insert(item.prompt);
        }
        QCOMPARE(distinct.size(), 50);
        QVERIFY(ds.info.sourceSha256.isEmpty());
        QVERIFY(ds.info.approximateTokens);
        LoadedDataset again;
        QVERIFY(loadDataset(spec, 50, 5, &again, &error));
        QCOMPARE(again.items[17].prompt, ds.items[17].prompt);
    }

    void randomDistributions_data()
    {
        QTest::addColumn<int>("distribution");
        QTest::addColumn<int>("len");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<int>("stdev");
        QTest::addColumn<int>("lo");
        QTest::addColumn<int>("hi");
        QTest::addColumn<double>("expectMean");
        QTest::addColumn<double>("expectSd");
        QTest::addColumn<int>("expectMin"); // bounds every value must respect
        QTest::addColumn<int>("expectMax");
        const int U = int(LengthDistribution::Uniform), N = int(LengthDistribution::Normal);
        // Uniform integers on [50, 150]: mean 100, sd sqrt((101^2 - 1) / 12) = 29.15.
        QTest::newRow("uniform 100 +-50%")
            << U << 100 << 0.5 << 0 << 0 << 0 << 100.0 << 29.15 << 50 << 150;
        QTest::newRow("uniform 1000 +-10%")
            << U << 1000 << 0.1 << 0 << 0 << 0 << 1000.0 << 57.7 << 900 << 1100;
        QTest::newRow("normal 500 sd 50")
            << N << 500 << 0.0 << 50 << 1 << 0 << 500.0 << 50.0 << 1 << 100000;
        // Clamped at one sd either side: mean stays, sd shrinks to about 0.74 sd.
        QTest::newRow("normal clamped")
            << N << 200 << 0.0 << 40 << 160 << 240 << 200.0 << 29.6 << 160 << 240;
    }
    void randomDistributions()
    {
        QFETCH(int, distribution);
        QFETCH(int, len);
        QFETCH(double, ratio);
        QFETCH(int, stdev);
        QFETCH(int, lo);
        QFETCH(int, hi);
        QFETCH(double, expectMean);
        QFETCH(double, expectSd);
        QFETCH(int, expectMin);
        QFETCH(int, expectMax);
        DatasetSpec spec;
        spec.kind = DatasetKind::Random;
        spec.randomDistribution = LengthDistribution(distribution);
        spec.randomInputLen = 8;
        spec.randomOutputLen = len; // output lengths: no prompt text to build, so the test is quick
        spec.randomRangeRatio = ratio;
        spec.randomOutputStdev = stdev;
        spec.randomOutputMin = lo;
        spec.randomOutputMax = hi;
        LoadedDataset ds;
        QString error;
        const int n = 4000;
        QVERIFY2(loadDataset(spec, n, 42, &ds, &error), qPrintable(error));
        double sum = 0, sq = 0;
        int seenMin = INT_MAX, seenMax = 0;
        for (const PromptItem &item : ds.items) {
            QVERIFY(item.outputTokens >= expectMin && item.outputTokens <= expectMax);
            sum += item.outputTokens;
            sq += double(item.outputTokens) * item.outputTokens;
            seenMin = qMin(seenMin, int(item.outputTokens));
            seenMax = qMax(seenMax, int(item.outputTokens));
        }
        const double mean = sum / n;
        const double sd = std::sqrt(sq / n - mean * mean);
        // 4000 samples: the mean's standard error is sd / 63; allow about 4 of them.
        QVERIFY2(std::abs(mean - expectMean) < expectSd / 63 * 4 + 0.5,
                 qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(sd - expectSd) < expectSd * 0.06, qPrintable(QString::number(sd)));
        if (distribution == int(LengthDistribution::Uniform) || lo > 1) { // the ends are reached
            QCOMPARE(seenMin, expectMin);
            QCOMPARE(seenMax, expectMax);
        }
        QCOMPARE(ds.info.outputStats.min, seenMin);
        QCOMPARE(ds.info.outputStats.max, seenMax);
    }

    void randomSharedPrefix()
    {
        DatasetSpec spec;
        spec.kind = DatasetKind::Random;
        spec.randomInputLen = 30;
        spec.randomOutputLen = 10;
        spec.randomPrefixLen = 20;
        LoadedDataset ds;
        QString error;
        QVERIFY2(loadDataset(spec, 20, 3, &ds, &error), qPrintable(error));
        const QString prefix = ds.items[0].prompt.section(u' ', 0, 19);
        QCOMPARE(approxTokenCount(prefix), 20);
        QSet<QString> tails;
        for (const PromptItem &item : ds.items) {
            QVERIFY(item.prompt.startsWith(prefix + u' '));
            QCOMPARE(item.inputTokens, 50);
            QCOMPARE(approxTokenCount(item.prompt), 50);
            tails.insert(item.prompt.mid(prefix.size()));
        }
        QCOMPARE(tails.size(), 20);
    }

    void randomCalibrated()
    {
        DatasetSpec spec;
        spec.kind = DatasetKind::Random;
        spec.randomInputLen = 100;
        spec.randomOutputLen = 10;
        spec.tokensPerWord = 1.25; // the model's tokenizer makes 1.25 tokens of each word
        LoadedDataset ds;
        QString error;
        QVERIFY2(loadDataset(spec, 5, 3, &ds, &error), qPrintable(error));
        for (const PromptItem &item : ds.items) {
            QCOMPARE(approxTokenCount(item.prompt), 80); // words
            QCOMPARE(item.inputTokens, 100);             // the target, in model tokens
        }
    }

    void randomErrors_data()
    {
        QTest::addColumn<int>("numPrompts");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<int>("inputLen");
        QTest::addColumn<double>("tokensPerWord");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no prompts") << 0 << 0.0 << 10 << 1.0 << u"number of prompts"_s;
        QTest::newRow("ratio 1") << 5 << 1.0 << 10 << 1.0 << u"random_range_ratio"_s;
        QTest::newRow("negative ratio") << 5 << -0.1 << 10 << 1.0 << u"random_range_ratio"_s;
        QTest::newRow("zero input") << 5 << 0.0 << 0 << 1.0 << u"random_input_len"_s;
        QTest::newRow("bad calibration") << 5 << 0.0 << 10 << -1.0 << u"tokens_per_word"_s;
    }
    void randomErrors()
    {
        QFETCH(int, numPrompts);
        QFETCH(double, ratio);
        QFETCH(int, inputLen);
        QFETCH(double, tokensPerWord);
        QFETCH(QString, expected);
        DatasetSpec spec;
        spec.kind = DatasetKind::Random;
        spec.randomRangeRatio = ratio;
        spec.randomInputLen = inputLen;
        spec.tokensPerWord = tokensPerWord;
        LoadedDataset ds;
        QString error;
        QVERIFY(!loadDataset(spec, numPrompts, 0, &ds, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TstDataset)
#include "tst_dataset.moc"
