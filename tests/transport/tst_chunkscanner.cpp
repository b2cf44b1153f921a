// ChunkScanner must agree with the full JSON parser on every event it accepts, and must refuse
// (fall back) rather than guess. Checked on hand-written cases, on every recorded stream, and on
// a seeded random generator of valid and corrupted chunk objects.
#include "client/chunkscanner.h"
#include "client/streamaccumulator.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <optional>

using namespace Qt::StringLiterals;
using namespace sb;

Q_DECLARE_METATYPE(sb::ApiFlavour)

namespace {

// The reference: what the accumulator's full path reads from the event. nullopt when the
// full parser rejects it or it is not a JSON object.
std::optional<ChunkFields> reference(const QByteArray &payload, ApiFlavour flavour)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(payload, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    return ChunkScanner::fromJson(doc.object(), flavour);
}

// The generated text of choices[0] as the JSON parser reads it: completions' text, or the
// delta's content and its reasoning (reasoning_content, else reasoning), as ChunkScanner counts.
std::pair<QString, QString> referenceText(const QByteArray &payload, ApiFlavour flavour)
{
    const QJsonObject choice =
        QJsonDocument::fromJson(payload).object().value("choices"_L1).toArray().at(0).toObject();
    if (flavour != ApiFlavour::Chat)
        return {choice.value("text"_L1).toString(), QString()};
    const QJsonObject delta = choice.value("delta"_L1).toObject();
    QString reasoning = delta.value("reasoning_content"_L1).toString();
    if (reasoning.isEmpty())
        reasoning = delta.value("reasoning"_L1).toString();
    return {delta.value("content"_L1).toString(), reasoning};
}

std::pair<QString, QString> scannedText(const QByteArray &payload, ApiFlavour flavour)
{
    ChunkFields fields;
    ChunkText text;
    if (!ChunkScanner::scan(payload, flavour, &fields, &text))
        return {};
    QByteArray content, reasoning;
    appendJsonStringUtf8(text.content, text.contentEscaped, &content);
    appendJsonStringUtf8(text.reasoning, text.reasoningEscaped, &reasoning);
    return {QString::fromUtf8(content), QString::fromUtf8(reasoning)};
}

QString describe(const ChunkFields &f)
{
    return u"prompt=%1 completion=%2 cached=%3 choices=%4 finish='%5' chars=%6"_s
        .arg(f.promptTokens)
        .arg(f.completionTokens)
        .arg(f.cachedTokens)
        .arg(f.hasChoices)
        .arg(f.finishReason)
        .arg(f.chars);
}

// --- a random generator of chunk-like JSON ---------------------------------------------------

QPair<QByteArray, QByteArray> kv(const QByteArray &k, const QByteArray &v)
{
    return {k, v};
}

class Gen
{
public:
    explicit Gen(quint32 seed) : m_rng(seed) {}

    int below(int n) { return int(m_rng.bounded(n)); }
    bool chance(int percent) { return below(100) < percent; }

    QByteArray ws()
    {
        static const char *const kinds[] = {"", "", "", " ", "\n", "\t", "\r\n ", "  "};
        return chance(20) ? QByteArray(kinds[below(8)]) : QByteArray();
    }

    // A code point drawn to hit every UTF-8 length and the escape-worthy ones.
    char32_t codePoint()
    {
        switch (below(8)) {
        case 0:
            return char32_t(0x20 + below(0x5f)); // printable ASCII
        case 1:
            return char32_t(below(0x20)); // control: must be escaped
        case 2:
            return U"\"\\/"[below(3)];
        case 3:
            return char32_t(0x80 + below(0x780)); // 2-byte UTF-8
        case 4:
            return char32_t(0x800 + below(0xD000 - 0x800)); // 3-byte, below surrogates
        case 5:
            return char32_t(0xE000 + below(0xFFFE - 0xE000)); // 3-byte, above surrogates
        case 6:
            return char32_t(0x10000 + below(0x100000)); // 4-byte: a surrogate pair in UTF-16
        default:
            return U"é€😀 a"[below(5)];
        }
    }

    // A JSON string literal for s, escaping by a random choice of styles.
    QByteArray stringLiteral(const std::u32string &s)
    {
        QByteArray out = "\"";
        for (char32_t cp : s) {
            const bool mustEscape = cp < 0x20 || cp == '"' || cp == '\\';
            const int style = mustEscape ? 1 + below(2) : (chance(85) ? 0 : 1 + below(2));
            if (style == 0) {
                out += QString::fromUcs4(&cp, 1).toUtf8();
            } else if (style == 1 && (cp == '"' || cp == '\\' || cp == '/' || cp == '\n' ||
                                      cp == '\t' || cp == '\r' || cp == '\b' || cp == '\f')) {
                static const QHash<char32_t, const char *> short_ = {
                    {'"', "\\\""}, {'\\', "\\\\"}, {'/', "\\/"},  {'\n', "\\n"},
                    {'\t', "\\t"}, {'\r', "\\r"},  {'\b', "\\b"}, {'\f', "\\f"}};
                out += short_.value(cp);
            } else {
                const QString utf16 = QString::fromUcs4(&cp, 1);
                for (QChar u : utf16) {
                    QByteArray hex = QByteArray::number(u.unicode(), 16).rightJustified(4, '0');
                    if (chance(50))
                        hex = hex.toUpper();
                    out += "\\u" + hex;
                }
            }
        }
        return out + '"';
    }

    QByteArray randomString(int maxLen = 8)
    {
        std::u32string s;
        const int n = below(maxLen + 1);
        for (int i = 0; i < n; ++i)
            s.push_back(codePoint());
        return stringLiteral(s);
    }

    QByteArray number()
    {
        switch (below(8)) {
        case 0:
            return QByteArray::number(below(1000));
        case 1:
            return QByteArray::number(below(2000000000));
        case 2:
            return "-" + QByteArray::number(below(100));
        case 3:
            return QByteArray::number(below(100)) + ".0";
        case 4:
            return QByteArray::number(below(1000)) + "." + QByteArray::number(below(1000));
        case 5:
            return QByteArray::number(below(10)) + (chance(50) ? "e" : "E") +
                   (chance(50) ? "-" : "+") + QByteArray::number(below(30));
        case 6:
            return "12345678901234567890";
        default:
            return "0";
        }
    }

    QByteArray anyValue(int depth)
    {
        const int k = below(depth > 3 ? 5 : 7);
        switch (k) {
        case 0:
            return randomString();
        case 1:
            return number();
        case 2:
            return "true";
        case 3:
            return chance(50) ? "false" : "null";
        case 4:
            return randomString(3);
        case 5: {
            QByteArray a = "[" + ws();
            const int n = below(4);
            for (int i = 0; i < n; ++i)
                a += QByteArray(i ? "," : "") + ws() + anyValue(depth + 1) + ws();
            return a + "]";
        }
        default: {
            QList<QPair<QByteArray, QByteArray>> m;
            const int n = below(4);
            for (int i = 0; i < n; ++i)
                m.append(kv(randomKey(), anyValue(depth + 1)));
            return object(m);
        }
        }
    }

    QByteArray randomKey()
    {
        static const char *const keys[] = {"id",          "model", "created", "index",   "logprobs",
                                           "stop_reason", "x",     "text",    "content", "usage"};
        if (chance(10))
            return randomString(4);
        return "\"" + QByteArray(keys[below(10)]) + "\"";
    }

    QByteArray object(QList<QPair<QByteArray, QByteArray>> members)
    {
        // Any field order.
        for (qsizetype i = members.size() - 1; i > 0; --i)
            members.swapItemsAt(i, below(int(i + 1)));
        QByteArray o = "{" + ws();
        for (qsizetype i = 0; i < members.size(); ++i) {
            if (i)
                o += "," + ws();
            o += members[i].first + ws() + ":" + ws() + members[i].second + ws();
        }
        return o + "}";
    }

    // A value for a field we read: usually the right type, sometimes any other.
    QByteArray typed(const char *kind, int depth)
    {
        if (chance(15))
            return anyValue(depth);
        if (qstrcmp(kind, "int") == 0)
            return chance(85) ? QByteArray::number(below(5000)) : number();
        return chance(70) ? randomString(10) : QByteArray(chance(50) ? "\"\"" : "null");
    }

    QByteArray chunk(ApiFlavour flavour)
    {
        QList<QPair<QByteArray, QByteArray>> top;
        if (chance(70))
            top.append(kv("\"id\"", "\"cmpl-" + QByteArray::number(below(100000)) + "\""));
        if (chance(50))
            top.append(kv("\"object\"", chance(97) ? "\"text_completion\"" : "\"error\""));
        if (chance(50))
            top.append(kv("\"created\"", QByteArray::number(1700000000 + below(1000))));
        if (chance(85)) {
            QByteArray choices;
            if (chance(8)) {
                choices = chance(50) ? QByteArray("[]") : anyValue(2);
            } else {
                QList<QPair<QByteArray, QByteArray>> ch;
                ch.append(kv("\"index\"", "0"));
                if (chance(70))
                    ch.append(kv("\"finish_reason\"",
                                 chance(60)   ? QByteArray("null")
                                 : chance(80) ? QByteArray(chance(50) ? "\"length\"" : "\"stop\"")
                                              : typed("string", 3)));
                if (chance(30))
                    ch.append(kv("\"logprobs\"", chance(50) ? QByteArray("null") : anyValue(3)));
                if (flavour == ApiFlavour::Completions || chance(10))
                    ch.append(kv("\"text\"", typed("string", 3)));
                if (flavour == ApiFlavour::Chat || chance(10)) {
                    QList<QPair<QByteArray, QByteArray>> d;
                    if (chance(30))
                        d.append(kv("\"role\"", "\"assistant\""));
                    if (chance(80))
                        d.append(kv("\"content\"", typed("string", 4)));
                    if (chance(25))
                        d.append(kv("\"reasoning_content\"", typed("string", 4)));
                    if (chance(25))
                        d.append(kv("\"reasoning\"", typed("string", 4)));
                    ch.append(kv("\"delta\"", chance(92) ? object(d) : anyValue(3)));
                }
                if (chance(5))
                    ch.append(kv("\"text\"", typed("string", 3))); // a duplicate key, sometimes
                QByteArray first = chance(95) ? object(ch) : anyValue(2);
                choices = "[" + ws() + first;
                const int more = chance(10) ? 1 + below(2) : 0;
                for (int i = 0; i < more; ++i)
                    choices += "," + ws() + (chance(50) ? object(ch) : anyValue(2));
                choices += ws() + "]";
            }
            top.append(kv("\"choices\"", choices));
        }
        if (chance(50)) {
            QByteArray usage;
            if (chance(40)) {
                usage = "null";
            } else {
                QList<QPair<QByteArray, QByteArray>> u;
                if (chance(90))
                    u.append(kv("\"prompt_tokens\"", typed("int", 2)));
                if (chance(90))
                    u.append(kv("\"completion_tokens\"", typed("int", 2)));
                if (chance(50))
                    u.append(kv("\"total_tokens\"", typed("int", 2)));
                if (chance(30)) {
                    QList<QPair<QByteArray, QByteArray>> dt;
                    if (chance(80))
                        dt.append(kv("\"cached_tokens\"", typed("int", 3)));
                    u.append(
                        kv("\"prompt_tokens_details\"", chance(85) ? object(dt) : anyValue(3)));
                }
                usage = chance(95) ? object(u) : anyValue(2);
            }
            top.append(kv("\"usage\"", usage));
        }
        if (chance(3))
            top.append(
                kv("\"error\"", chance(50) ? QByteArray("{\"message\":\"boom\"}") : anyValue(2)));
        for (int i = below(3); i > 0; --i)
            top.append(kv(randomKey(), anyValue(2)));
        return ws() + object(top) + ws();
    }

    // A corrupted copy: flipped, dropped, inserted or truncated bytes.
    QByteArray corrupt(QByteArray s)
    {
        if (s.isEmpty())
            return s;
        const int edits = 1 + below(3);
        for (int e = 0; e < edits && !s.isEmpty(); ++e) {
            const int at = below(int(s.size()));
            switch (below(5)) {
            case 0:
                s[at] = char(below(256));
                break;
            case 1:
                s.remove(at, 1);
                break;
            case 2:
                s.insert(at, "{}[],:\"\\0e-."[below(12)]);
                break;
            case 3:
                s.truncate(at);
                break;
            default:
                s[at] = char(0x80 | below(0x80)); // a stray UTF-8 continuation or lead byte
                break;
            }
        }
        return s;
    }

private:
    QRandomGenerator m_rng;
};

QByteArray readStream(const QString &name)
{
    QFile f(QStringLiteral(SB_TEST_DATA_DIR "/streams/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open recorded stream %s", qPrintable(f.fileName()));
    return f.readAll();
}

} // namespace

class TestChunkScanner : public QObject
{
    Q_OBJECT

private slots:
    void agreesOnKnownChunks_data()
    {
        QTest::addColumn<ApiFlavour>("flavour");
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<bool>("fast"); // the scanner is expected to read it itself
        const auto C = ApiFlavour::Completions;
        const auto H = ApiFlavour::Chat;
        QTest::newRow("vllm completions")
            << C
            << QByteArray(
                   R"({"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":" hello","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null})")
            << true;
        QTest::newRow("final usage")
            << C
            << QByteArray(
                   R"({"id":"cmpl-1","choices":[],"usage":{"prompt_tokens":12,"total_tokens":28,"completion_tokens":16,"prompt_tokens_details":{"cached_tokens":8}}})")
            << true;
        QTest::newRow("finish reason")
            << C << QByteArray(R"({"choices":[{"text":"!","finish_reason":"length"}]})") << true;
        QTest::newRow("chat role only")
            << H
            << QByteArray(
                   R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]})")
            << true;
        QTest::newRow("chat reasoning")
            << H
            << QByteArray(
                   R"({"choices":[{"delta":{"reasoning_content":"think","reasoning":"think"}}]})")
            << true;
        QTest::newRow("chat reasoning only new name")
            << H << QByteArray(R"({"choices":[{"delta":{"reasoning":"hm","content":null}}]})")
            << true;
        QTest::newRow("escapes")
            << C
            // (not a raw string: moc's tokenizer trips over \" inside one)
            << QByteArray("{\"choices\":[{\"text\":\"a\\\"b\\\\c\\/d\\n\\t\\r\\b\\fe\"}]}") << true;
        QTest::newRow("unicode escapes")
            << C << QByteArray(R"({"choices":[{"text":"\u00e9\u20AC\ud83d\ude00\u0000"}]})")
            << true;
        QTest::newRow("raw utf8") << H
                                  << QByteArray("{\"choices\":[{\"delta\":{\"content\":"
                                                "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}}]}")
                                  << true;
        QTest::newRow("field order")
            << C
            << QByteArray(
                   R"({"usage":{"completion_tokens":3,"prompt_tokens":2},"choices":[{"finish_reason":null,"text":"x","index":0}],"id":"z"})")
            << true;
        QTest::newRow("nested unknowns")
            << C
            << QByteArray(
                   R"({"x":{"a":[1,2,{"b":[true,false,null,-1.5e-3]}],"c":"\u00e9"},"choices":[{"logprobs":{"tokens":["a"],"token_logprobs":[-0.25]},"text":"ab"}]})")
            << true;
        QTest::newRow("whitespace")
            << C
            << QByteArray(" {\n \"choices\" : [ { \"text\" : \"ab\" } ] ,\r\n \"usage\" : null }\t")
            << true;
        QTest::newRow("text of wrong type")
            << C << QByteArray(R"({"choices":[{"text":5}]})") << true;
        QTest::newRow("usage of wrong types")
            << C
            << QByteArray(
                   R"({"choices":[],"usage":{"prompt_tokens":"7","completion_tokens":null,"prompt_tokens_details":5}})")
            << true;
        QTest::newRow("choices not an array")
            << C << QByteArray(R"({"choices":{"text":"x"}})") << true;
        QTest::newRow("first choice not an object")
            << C << QByteArray(R"({"choices":[1,{"text":"x"}]})") << true;
        // The scanner falls back on these; the result must still be the full parser's.
        QTest::newRow("error object")
            << C << QByteArray(R"({"error":{"message":"boom"}})") << false;
        QTest::newRow("object error")
            << C << QByteArray(R"({"object":"error","message":"x"})") << false;
        QTest::newRow("duplicate text")
            << C << QByteArray(R"({"choices":[{"text":"a","text":"bb"}]})") << false;
        QTest::newRow("duplicate usage")
            << C << QByteArray(R"({"usage":{"prompt_tokens":1},"usage":{"prompt_tokens":2}})")
            << false;
        QTest::newRow("float usage")
            << C << QByteArray(R"({"usage":{"completion_tokens":5.0}})") << false;
        QTest::newRow("negative usage")
            << C << QByteArray(R"({"usage":{"completion_tokens":-1}})") << false;
        QTest::newRow("huge usage")
            << C << QByteArray(R"({"usage":{"completion_tokens":12345678901}})") << false;
        QTest::newRow("escaped key")
            << C << QByteArray(R"({"t\u0065xt":"x","choices":[{"t\u0065xt":"x"}]})") << false;
        QTest::newRow("escaped finish reason")
            << C << QByteArray(R"({"choices":[{"text":"x","finish_reason":"l\u0065ngth"}]})")
            << false;
        QTest::newRow("lone high surrogate")
            << C << QByteArray(R"({"choices":[{"text":"\ud83d"}]})") << false;
        QTest::newRow("lone low surrogate")
            << C << QByteArray(R"({"choices":[{"text":"\ude00x"}]})") << false;
        QTest::newRow("invalid utf8")
            << C << QByteArray("{\"choices\":[{\"text\":\"\xc3\x28\"}]}") << false;
        QTest::newRow("overlong utf8")
            << C << QByteArray("{\"choices\":[{\"text\":\"\xc0\xaf\"}]}") << false;
        QTest::newRow("raw control char")
            << C << QByteArray("{\"choices\":[{\"text\":\"a\tb\"}]}") << false;
        QTest::newRow("truncated") << C << QByteArray(R"({"choices":[{"text":"ab"})") << false;
        QTest::newRow("trailing garbage") << C << QByteArray(R"({"choices":[]} x)") << false;
        QTest::newRow("array top level") << C << QByteArray(R"([{"choices":[]}])") << false;
        QTest::newRow("bad escape") << C << QByteArray(R"({"choices":[{"text":"\x41"}]})") << false;
        QTest::newRow("leading zero") << C << QByteArray(R"({"n":01,"choices":[]})") << false;
        QTest::newRow("trailing comma") << C << QByteArray(R"({"choices":[],})") << false;
    }
    void agreesOnKnownChunks()
    {
        QFETCH(ApiFlavour, flavour);
        QFETCH(QByteArray, payload);
        QFETCH(bool, fast);
        ChunkFields got;
        const bool scanned = ChunkScanner::scan(payload, flavour, &got);
        QCOMPARE(scanned, fast);
        const auto ref = reference(payload, flavour);
        if (scanned) {
            QVERIFY2(ref.has_value(), "scanner accepted what the JSON parser rejects");
            QVERIFY2(got == *ref, qPrintable(describe(got) + u" vs "_s + describe(*ref)));
        }
    }

    // The property: on every generated event — valid or corrupted — an accepted scan equals
    // the full parser's reading, and a rejected one is never silently wrong (it falls back).
    void agreesWithTheJsonParserOnRandomEvents()
    {
        Gen gen(20250611);
        int accepted = 0, validTotal = 0, corruptAccepted = 0;
        constexpr int kCases = 30000;
        for (int i = 0; i < kCases; ++i) {
            const ApiFlavour flavour = gen.chance(50) ? ApiFlavour::Completions : ApiFlavour::Chat;
            QByteArray payload = gen.chunk(flavour);
            const bool corrupted = gen.chance(30);
            if (corrupted)
                payload = gen.corrupt(payload);
            const auto ref = reference(payload, flavour);
            ChunkFields got;
            const bool scanned = ChunkScanner::scan(payload, flavour, &got);
            if (ref)
                ++validTotal;
            if (!scanned)
                continue;
            ++accepted;
            if (corrupted)
                ++corruptAccepted;
            if (!ref)
                QFAIL(qPrintable(u"case %1: scanner accepted invalid JSON: %2"_s.arg(i).arg(
                    QString::fromUtf8(payload))));
            if (!(got == *ref))
                QFAIL(qPrintable(u"case %1: %2\n  scanner: %3\n  parser:  %4"_s.arg(i).arg(
                    QString::fromUtf8(payload), describe(got), describe(*ref))));
            // The text the scanner points at (what --tokenizer counts), escapes resolved, is
            // the parser's text of the same fields.
            const auto [content, reasoning] = referenceText(payload, flavour);
            if (scannedText(payload, flavour) != std::pair{content, reasoning})
                QFAIL(qPrintable(
                    u"case %1: %2\n  scanner text: '%3' / '%4'\n  parser text:  "
                    "'%5' / '%6'"_s.arg(i)
                        .arg(QString::fromUtf8(payload), scannedText(payload, flavour).first,
                             scannedText(payload, flavour).second, content, reasoning)));
        }
        qInfo("%d of %d events valid JSON, %d read by the scanner (%d of them corrupted yet "
              "still valid)",
              validTotal, kCases, accepted, corruptAccepted);
        // The fast path must carry most valid events, or it is not a fast path.
        QVERIFY(accepted > validTotal / 2);
    }

    // Whole streams: the accumulator with and without the scanner gives the same record.
    void accumulatorGivesTheSameRecord_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<ApiFlavour>("flavour");
        const QDir dir(QStringLiteral(SB_TEST_DATA_DIR "/streams"));
        const QStringList files = dir.entryList({u"*.txt"_s}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const QString &f : files) {
            const ApiFlavour fl =
                f.contains("chat"_L1) ? ApiFlavour::Chat : ApiFlavour::Completions;
            QTest::newRow(qPrintable(f)) << f << fl;
        }
        QTest::newRow("generated") << QString() << ApiFlavour::Completions;
        QTest::newRow("generated-chat") << QString() << ApiFlavour::Chat;
    }
    void accumulatorGivesTheSameRecord()
    {
        QFETCH(QString, file);
        QFETCH(ApiFlavour, flavour);
        QByteArray body;
        if (!file.isEmpty()) {
            body = readStream(file);
        } else {
            Gen gen(flavour == ApiFlavour::Chat ? 7 : 11);
            for (int i = 0; i < 400; ++i) {
                QByteArray c = gen.chunk(flavour);
                c.replace('\n', ' ').replace('\r', ' ');
                body += "data: " + c + "\n\n";
            }
            body += "data: [DONE]\n\n";
        }
        const int status = file.startsWith("http500"_L1) ? 500 : 200;
        auto run = [&](bool fast, int cut) {
            RequestRecord r;
            StreamAccumulator acc(flavour, &r);
            acc.setFastScan(fast);
            acc.onHttpStatus(status);
            qint64 t = 1;
            for (qsizetype from = 0; from < body.size(); from += cut)
                acc.onBytes(body.constData() + from, std::min<qsizetype>(cut, body.size() - from),
                            t++);
            acc.finish(ErrorClass::None, {}, 1000000);
            return r;
        };
        for (int cut : {1, 7, 64, 1 << 20}) {
            const RequestRecord a = run(true, cut);
            const RequestRecord b = run(false, cut);
            QCOMPARE(a.chunkTimes, b.chunkTimes);
            QCOMPARE(a.chunkTokens, b.chunkTokens);
            QCOMPARE(a.tFirst, b.tFirst);
            QCOMPARE(a.inputTokens, b.inputTokens);
            QCOMPARE(a.outputTokens, b.outputTokens);
            QCOMPARE(a.cachedTokens, b.cachedTokens);
            QCOMPARE(a.inputSource, b.inputSource);
            QCOMPARE(a.outputSource, b.outputSource);
            QCOMPARE(a.finishReason, b.finishReason);
            QCOMPARE(a.error, b.error);
            QCOMPARE(a.errorMessage, b.errorMessage);
            QCOMPARE(a.outputChars, b.outputChars);
        }
    }
};

QTEST_GUILESS_MAIN(TestChunkScanner)
#include "tst_chunkscanner.moc"
