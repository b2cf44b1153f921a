// --tokenizer end to end (docs/tokenizers.md): servebench-cli runs against captureserver.mjs, a
// streaming server that counts what it receives and sends with the reference implementations
// (@huggingface/tokenizers, tiktoken) installed by the tokenizer_reference fixture. Checked:
// synthetic prompts hold exactly the requested number of tokens under the reference; output
// tokens counted from the streamed text equal the reference's count; the count's source and the
// mismatch against a server's usage are reported.
#include "clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString expectedDir()
{
    const QByteArray env = qgetenv("SB_TOKENIZER_EXPECTED_DIR");
    return env.isEmpty() ? QStringLiteral(SB_TOKENIZER_EXPECTED_DIR) : QString::fromLocal8Bit(env);
}

// The reference's own copy of each tokenizer file (written by the fixture).
QString tokenizerPath(const QString &name)
{
    QFile f(QDir(expectedDir()).filePath(u"manifest.json"_s));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value(name).toString();
}

// captureserver.mjs in a child process; stopped when it goes out of scope.
class CaptureServer
{
public:
    CaptureServer(const QString &tokenizer, const QStringList &args)
    {
        const QString refDir = QFileInfo(expectedDir()).absolutePath();
        m_p.start(u"node"_s,
                  QStringList{QStringLiteral(SB_CAPTURE_SERVER), refDir, tokenizer} + args);
        if (!m_p.waitForStarted())
            return;
        // Loading Gemma 3's tokenizer.json (33 MB) takes the reference some seconds.
        for (int i = 0; i < 600 && !banner.contains('\n'); ++i) {
            m_p.waitForReadyRead(100);
            banner += m_p.readAllStandardOutput();
        }
        const auto m =
            QRegularExpression(u"listening on (\\d+)"_s).match(QString::fromUtf8(banner));
        if (m.hasMatch())
            port = m.captured(1).toUShort();
        banner += m_p.readAllStandardError();
    }
    ~CaptureServer()
    {
        m_p.kill();
        m_p.waitForFinished();
    }
    QString url() const { return u"http://127.0.0.1:%1"_s.arg(port); }

    // GET /report: one object per request the server answered.
    QJsonArray report() const
    {
        QTcpSocket s;
        s.connectToHost(u"127.0.0.1"_s, port);
        if (!s.waitForConnected(5000))
            return {};
        s.write("GET /report HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n");
        QByteArray all;
        while (s.state() == QAbstractSocket::ConnectedState && s.waitForReadyRead(5000))
            all += s.readAll();
        all += s.readAll();
        return QJsonDocument::fromJson(all.mid(all.indexOf("\r\n\r\n") + 4)).array();
    }

    quint16 port = 0;
    QByteArray banner;

private:
    QProcess m_p;
};

QList<int> column(const QJsonArray &rows, const QString &key)
{
    QList<int> out;
    for (const QJsonValue &v : rows)
        out.append(v.toObject().value(key).toInt());
    std::sort(out.begin(), out.end());
    return out;
}

QList<int> ints(const QJsonArray &a)
{
    QList<int> out;
    for (const QJsonValue &v : a)
        out.append(v.toInt());
    std::sort(out.begin(), out.end());
    return out;
}

constexpr int kPrompts = 16;

} // namespace

class TestTokenizerRun : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QStringList chatFlags(bool chat)
    {
        return chat ? QStringList{u"--backend"_s, u"openai-chat"_s, u"--endpoint"_s,
                                  u"/v1/chat/completions"_s}
                    : QStringList{};
    }

private slots:
    void syntheticPromptsHaveExactLength_data()
    {
        QTest::addColumn<QString>("tokenizer");
        QTest::addColumn<bool>("chat");
        QTest::addColumn<int>("length");
        QTest::newRow("qwen3 1000") << u"qwen3"_s << false << 1000;
        QTest::newRow("qwen3 chat 1000") << u"qwen3"_s << true << 1000;
        QTest::newRow("qwen3 37") << u"qwen3"_s << false << 37;
        QTest::newRow("llama3 1000") << u"llama3"_s << false << 1000;
        QTest::newRow("llama2 1000") << u"llama2"_s << false << 1000;
        QTest::newRow("gemma3 1000") << u"gemma3"_s << false << 1000;
        QTest::newRow("cl100k_base 1000") << u"cl100k_base"_s << false << 1000;
    }

    void syntheticPromptsHaveExactLength()
    {
        QFETCH(QString, tokenizer);
        QFETCH(bool, chat);
        QFETCH(int, length);
        const QString file = tokenizerPath(tokenizer);
        QVERIFY2(!file.isEmpty(), "no manifest.json: run the tokenizer_reference_setup fixture");
        CaptureServer server(tokenizer, {});
        QVERIFY2(server.port != 0, server.banner.constData());
        const sb::test::CliResult r = sb::test::runCli(
            QStringList{u"run"_s, u"--base-url"_s, server.url(), u"--model"_s, u"capture"_s,
                        u"--tokenizer"_s, file, u"--dataset-name"_s, u"random"_s,
                        u"--random-input-len"_s, QString::number(length), u"--random-output-len"_s,
                        u"8"_s, u"--num-prompts"_s, QString::number(kPrompts)} +
            chatFlags(chat));
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const QJsonArray report = server.report();
        QCOMPARE(report.size(), kPrompts);
        // The reference counts as vLLM's benchmark does, with the special tokens the tokenizer
        // adds (Llama 3, Llama 2 and Gemma 3 add one, Qwen 3 and cl100k none); for chat the
        // message's content, the chat template being the server's addition.
        QCOMPARE(column(report, u"prompt_tokens_special"_s), QList<int>(kPrompts, length));
    }

    void outputCountedFromTheText_data()
    {
        QTest::addColumn<QString>("tokenizer");
        QTest::addColumn<QStringList>("serverArgs");
        QTest::addColumn<bool>("chat");
        QTest::addColumn<int>("usageOffset"); // -1: the server sends no usage
        QTest::newRow("qwen3 no usage") << u"qwen3"_s << QStringList{} << false << -1;
        QTest::newRow("qwen3 chat reasoning no usage")
            << u"qwen3"_s << QStringList{u"--reasoning"_s} << true << -1;
        QTest::newRow("llama3 usage agrees")
            << u"llama3"_s << QStringList{u"--usage"_s} << false << 0;
        QTest::newRow("qwen3 usage miscounts")
            << u"qwen3"_s << QStringList{u"--usage"_s, u"--usage-offset"_s, u"2"_s} << false << 2;
        QTest::newRow("o200k_base chat reasoning usage")
            << u"o200k_base"_s << QStringList{u"--reasoning"_s, u"--usage"_s} << true << 0;
    }

    void outputCountedFromTheText()
    {
        QFETCH(QString, tokenizer);
        QFETCH(QStringList, serverArgs);
        QFETCH(bool, chat);
        QFETCH(int, usageOffset);
        CaptureServer server(tokenizer, serverArgs);
        QVERIFY2(server.port != 0, server.banner.constData());
        const QString result =
            QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_') + u".json"_s;
        const sb::test::CliResult r = sb::test::runCli(QStringList{u"run"_s,
                                                                   u"--base-url"_s,
                                                                   server.url(),
                                                                   u"--model"_s,
                                                                   u"capture"_s,
                                                                   u"--tokenizer"_s,
                                                                   tokenizerPath(tokenizer),
                                                                   u"--dataset-name"_s,
                                                                   u"random"_s,
                                                                   u"--random-input-len"_s,
                                                                   u"20"_s,
                                                                   u"--random-output-len"_s,
                                                                   u"40"_s,
                                                                   u"--num-prompts"_s,
                                                                   QString::number(kPrompts),
                                                                   u"--save-result"_s,
                                                                   u"--save-detailed"_s,
                                                                   u"--result-dir"_s,
                                                                   m_dir.path(),
                                                                   u"--result-filename"_s,
                                                                   result} +
                                                       chatFlags(chat));
        QVERIFY2(r.code == 0, qPrintable(r.describe()));
        const QJsonArray report = server.report();
        QCOMPARE(report.size(), kPrompts);
        QFile f(m_dir.filePath(result));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        const QJsonObject sources = o.value(u"token_count_source"_s).toObject();
        const bool reasoning = serverArgs.contains(u"--reasoning"_s);

        if (usageOffset < 0) {
            // Output lengths are the tokenizer's count of the streamed text, request by request.
            QCOMPARE(ints(o.value(u"output_lens"_s).toArray()), column(report, u"output_tokens"_s));
            QCOMPARE(sources.value(u"output"_s).toObject().value(u"tokenizer"_s).toInt(), kPrompts);
            QVERIFY(o.value(u"output_token_mismatch"_s).isNull());
        } else {
            QCOMPARE(sources.value(u"output"_s).toObject().value(u"server_usage"_s).toInt(),
                     kPrompts);
            const QJsonObject m = o.value(u"output_token_mismatch"_s).toObject();
            QCOMPARE(m.value(u"compared_requests"_s).toInt(), kPrompts);
            QCOMPARE(m.value(u"mismatched_requests"_s).toInt(), usageOffset ? kPrompts : 0);
            QCOMPARE(m.value(u"server_output_tokens"_s).toInteger() -
                         m.value(u"client_output_tokens"_s).toInteger(),
                     qint64(usageOffset) * kPrompts);
            QVERIFY(r.out.contains(QRegularExpression(u"Output count mismatch rate:\\s+%1 %"_s.arg(
                usageOffset ? u"100.00"_s : u"0.00"_s))));
        }
        if (reasoning) {
            QCOMPARE(ints(o.value(u"reasoning_lens"_s).toArray()),
                     column(report, u"reasoning_tokens"_s));
            QCOMPARE(sources.value(u"reasoning"_s)
                         .toObject()
                         .value(usageOffset < 0 ? u"tokenizer"_s : u"server_usage"_s)
                         .toInt(),
                     kPrompts);
        }
    }

    void badTokenizerStopsTheRun_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("missing") << u"/nonexistent/tokenizer.json"_s;
        QTest::newRow("invalid JSON")
            << QStringLiteral(SB_TEST_DATA_DIR "/tokenizer/bad/invalid_json/tokenizer.json");
        QTest::newRow("unknown model")
            << QStringLiteral(SB_TEST_DATA_DIR "/tokenizer/bad/unknown_model/tokenizer.json");
    }

    void badTokenizerStopsTheRun()
    {
        QFETCH(QString, path);
        QCOMPARE(QFileInfo::exists(path), !path.startsWith(u"/nonexistent"_s));
        // Port 9 (discard) is never asked: the tokenizer is loaded before the endpoint.
        const sb::test::CliResult r =
            sb::test::runCli({u"run"_s, u"--base-url"_s, u"http://127.0.0.1:9"_s, u"--tokenizer"_s,
                              path, u"--num-prompts"_s, u"2"_s});
        QVERIFY2(r.code != 0, qPrintable(r.describe()));
        QVERIFY2(r.err.contains(u"--tokenizer"_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(path), qPrintable(r.err));
        QVERIFY2(!r.out.contains(u"Serving Benchmark Result"_s), qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TestTokenizerRun)
#include "tst_tokenizerrun.moc"
