#include "tokenizer/splitpattern.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/unicodeclass.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <map>
#include <thread>

using namespace Qt::StringLiterals;
using namespace sb;

// Token ids identical to independent reference implementations (@huggingface/tokenizers for
// the tokenizer.json files, tiktoken for the rank files), on tests/data/tokenizer/corpus.jsonl,
// every added/special token of each model and seeded random strings. The expected files are
// written by reference.mjs in the tokenizer_reference_setup fixture.
class TstTokenizerReference : public QObject
{
    Q_OBJECT
private:
    static QString expectedDir()
    {
        const QByteArray env = qgetenv("SB_TOKENIZER_EXPECTED_DIR");
        return env.isEmpty() ? QStringLiteral(SB_TOKENIZER_EXPECTED_DIR)
                             : QString::fromLocal8Bit(env);
    }
    static QList<int> list(const std::vector<qint32> &v) { return QList<int>(v.begin(), v.end()); }
    static QList<int> list(const QJsonArray &a)
    {
        QList<int> out;
        out.reserve(a.size());
        for (const QJsonValue &v : a)
            out.push_back(v.toInt());
        return out;
    }
    struct Case
    {
        QString name;
        QString text;
        QList<int> ids;
        QList<int> idsSpecial;
        QString decoded;
        QString decodedSkip;
    };
    static std::vector<Case> readCases(const QString &tokenizer)
    {
        std::vector<Case> cases;
        QFile f(QDir(expectedDir()).filePath(tokenizer + u".jsonl"_s));
        if (!f.open(QIODevice::ReadOnly))
            return cases;
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            // Qt's JSON parser drops a U+FEFF at the start of a string (see
            // TokenizerLoader): escape them so the texts arrive whole.
            QByteArray escaped = line;
            escaped.replace("\xEF\xBB\xBF", "\\ufeff");
            const QJsonObject o = QJsonDocument::fromJson(escaped).object();
            cases.push_back(
                {o.value("name"_L1).toString(), o.value("text"_L1).toString(),
                 list(o.value("ids"_L1).toArray()), list(o.value("idsSpecial"_L1).toArray()),
                 o.value("decoded"_L1).toString(), o.value("decodedSkip"_L1).toString()});
        }
        return cases;
    }
    // Where decode(encode(x)) must give x back, and what else it must give: byte-level models
    // lose nothing; Qwen 3 normalizes to NFC; the SentencePiece models turn a literal U+2581 into
    // a space, and Llama 2's Prepend normalizer adds a space after each added token.
    QString roundTrip(const QString &tokenizer, const QString &text, bool *applies) const
    {
        *applies = true;
        if (tokenizer.contains(u'-')) {
            // The variants: only the reference's own decode is compared.
            *applies = false;
            return text;
        }
        bool hasAdded = false;
        for (const QString &a : m_added.at(tokenizer))
            hasAdded = hasAdded || text.contains(a);
        if (tokenizer == "qwen3"_L1) {
            *applies = !hasAdded;
            return text.normalized(QString::NormalizationForm_C);
        }
        if (tokenizer == "gemma3"_L1)
            *applies = !text.contains(u'\u2581');
        if (tokenizer == "llama2"_L1)
            *applies = !text.contains(u'\u2581') && !hasAdded;
        return text;
    }
    QString firstDifference(const Tokenizer &t, const QList<int> &got, const QList<int> &want)
    {
        qsizetype i = 0;
        while (i < got.size() && i < want.size() && got[i] == want[i])
            ++i;
        const auto show = [&](const QList<int> &ids) {
            QStringList parts;
            for (qsizetype k = qMax<qsizetype>(0, i - 2); k < qMin(ids.size(), i + 4); ++k)
                parts << u"%1:%2"_s.arg(ids[k]).arg(t.tokenText(ids[k]));
            return parts.join(u' ');
        };
        return u"first difference at %1 of %2/%3\n   got: %4\n  want: %5"_s.arg(i)
            .arg(got.size())
            .arg(want.size())
            .arg(show(got), show(want));
    }

    std::map<QString, std::unique_ptr<Tokenizer>> m_tokenizers;
    std::map<QString, QStringList> m_added;
    std::map<QString, std::vector<Case>> m_cases;

private slots:
    void initTestCase()
    {
        QFile manifestFile(QDir(expectedDir()).filePath(u"manifest.json"_s));
        QVERIFY2(manifestFile.open(QIODevice::ReadOnly),
                 qPrintable(u"%1 is missing: run the tokenizer_reference_setup fixture (ctest -R "
                            u"tokenizer) first"_s.arg(manifestFile.fileName())));
        const QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
        const QStringList expected = {
            u"qwen3"_s,       u"llama3"_s,     u"llama2"_s,           u"gemma3"_s,
            u"cl100k_base"_s, u"o200k_base"_s, u"llama2-metaspace"_s, u"llama3-nfkc-digits"_s};
        for (const QString &name : expected) {
            QVERIFY2(manifest.contains(name), qPrintable(name));
            QString error;
            auto t = Tokenizer::load(manifest.value(name).toString(), &error);
            QVERIFY2(t, qPrintable(error));
            qInfo("%s: %s", qPrintable(name), qPrintable(t->describe()));
            QStringList added;
            for (qint32 id = 0; id < t->vocabSize(); ++id) {
                if (t->isSpecial(id) ||
                    (!t->tokenText(id).isEmpty() && name == "qwen3"_L1 && id >= 151643))
                    added << t->tokenText(id);
            }
            m_added[name] = added;
            m_cases[name] = readCases(name);
            QVERIFY2(m_cases[name].size() > 100, qPrintable(name));
            m_tokenizers[name] = std::move(t);
        }
    }

    void matchesReference_data()
    {
        QTest::addColumn<QString>("tokenizer");
        QTest::addColumn<int>("index");
        for (const auto &[name, cases] : m_cases) {
            for (size_t i = 0; i < cases.size(); ++i)
                QTest::addRow("%s: %s", qPrintable(name), qPrintable(cases[i].name))
                    << name << int(i);
        }
    }
    void matchesReference()
    {
        QFETCH(QString, tokenizer);
        QFETCH(int, index);
        const Tokenizer &t = *m_tokenizers.at(tokenizer);
        const Case &c = m_cases.at(tokenizer)[size_t(index)];

        const QList<int> ids = list(t.encode(c.text));
        QVERIFY2(ids == c.ids, qPrintable(firstDifference(t, ids, c.ids)));
        const QList<int> idsSpecial = list(t.encode(c.text, true));
        QVERIFY2(idsSpecial == c.idsSpecial,
                 qPrintable(firstDifference(t, idsSpecial, c.idsSpecial)));
        const QByteArray utf8 = c.text.toUtf8();
        QCOMPARE(list(t.encodeUtf8(std::string_view(utf8.constData(), size_t(utf8.size())))), ids);
        QCOMPARE(t.count(c.text), ids.size());

        const std::vector<qint32> raw(ids.begin(), ids.end());
        QCOMPARE(t.decode(raw), c.decoded);
        QCOMPARE(t.decode(raw, true), c.decodedSkip);
        bool applies = false;
        const QString back = roundTrip(tokenizer, c.text, &applies);
        if (applies)
            QCOMPARE(t.decode(raw), back);
    }

    // The hand-written split matchers against JavaScript's regex engine on the same pattern
    // (splits.jsonl): the pre-token boundaries themselves, for the GPT-2, cl100k/Llama 3, Qwen 2
    // and o200k patterns.
    void splitsMatchRegex_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("pieces");
        QFile f(QDir(expectedDir()).filePath(u"splits.jsonl"_s));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            QByteArray escaped = line;
            escaped.replace("\xEF\xBB\xBF", "\\ufeff");
            const QJsonObject o = QJsonDocument::fromJson(escaped).object();
            QStringList pieces;
            for (const QJsonValue &p : o.value("pieces"_L1).toArray())
                pieces << p.toString();
            QTest::addRow("%s: %s", qPrintable(o.value("pattern"_L1).toString()),
                          qPrintable(o.value("name"_L1).toString()))
                << o.value("pattern"_L1).toString() << o.value("text"_L1).toString() << pieces;
        }
    }
    void splitsMatchRegex()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, text);
        QFETCH(QStringList, pieces);
        using K = tok::SplitPattern::Kind;
        const K kind = pattern == "gpt2"_L1     ? K::Gpt2
                       : pattern == "cl100k"_L1 ? K::Cl100k
                       : pattern == "qwen2"_L1  ? K::Qwen2
                                                : K::O200k;
        const tok::SplitPattern p = tok::SplitPattern::ofKind(kind);
        const QByteArray utf8 = text.toUtf8();
        const std::string_view view(utf8.constData(), size_t(utf8.size()));
        std::vector<tok::Span> spans;
        p.findMatches(view, 0, uint32_t(view.size()), &spans);
        QStringList got;
        for (const tok::Span &s : spans)
            got << tok::utf8ToQString(view.substr(s.begin, s.end - s.begin));
        QCOMPARE(got, pieces);
    }

    // encode() from several threads at once gives what it gives on one.
    void concurrentEncode_data()
    {
        QTest::addColumn<QString>("tokenizer");
        for (const auto &[name, t] : m_tokenizers)
            QTest::newRow(qPrintable(name)) << name;
    }
    void concurrentEncode()
    {
        QFETCH(QString, tokenizer);
        const Tokenizer &t = *m_tokenizers.at(tokenizer);
        const std::vector<Case> &cases = m_cases.at(tokenizer);
        constexpr int kThreads = 4;
        std::vector<std::vector<QList<int>>> results(kThreads);
        std::vector<std::thread> threads;
        for (int k = 0; k < kThreads; ++k) {
            threads.emplace_back([&, k] {
                for (int round = 0; round < 3; ++round) {
                    results[size_t(k)].clear();
                    // Different orders, so the threads are in different places at once.
                    for (size_t i = 0; i < cases.size(); ++i) {
                        const size_t j = (i * size_t(2 * k + 1)) % cases.size();
                        results[size_t(k)].push_back(list(t.encode(cases[j].text)));
                    }
                }
            });
        }
        for (std::thread &th : threads)
            th.join();
        for (int k = 0; k < kThreads; ++k) {
            for (size_t i = 0; i < cases.size(); ++i) {
                const size_t j = (i * size_t(2 * k + 1)) % cases.size();
                QVERIFY2(results[size_t(k)][i] == cases[j].ids,
                         qPrintable(u"thread %1, case %2"_s.arg(k).arg(cases[j].name)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TstTokenizerReference)
#include "tst_tokenizer_reference.moc"
