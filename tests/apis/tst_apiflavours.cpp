// The OpenAI Responses API and Anthropic Messages as ApiFlavours everywhere a flavour is chosen:
// their names (ServeBench's and AIPerf's), the request each sends (body, key header, version
// header, default path), the CLI flags and their inverse, the SUT's stored JSON, and
// comparability (generation APIs rank against each other, other kinds do not).

#include "client/requestbuilder.h"
#include "config/runplan.h"
#include "report/comparability.h"
#include "run/runflags.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QUrl>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

QJsonObject parse(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

QJsonObject snapshot(const RunPlan &p)
{
    QJsonObject s = p.toJson();
    s[u"dataset_info"_s] = QJsonObject{{u"sha256"_s, QString(64, u'a')}};
    s[u"tool_version"_s] = u"0.1.0"_s;
    return s;
}

QByteArray header(const QList<QPair<QByteArray, QByteArray>> &h, const QByteArray &name)
{
    for (const auto &[k, v] : h)
        if (k.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

bool hasHeader(const QList<QPair<QByteArray, QByteArray>> &h, const QByteArray &name)
{
    for (const auto &kv : h)
        if (kv.first.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    return false;
}

} // namespace

class TestApiFlavours : public QObject
{
    Q_OBJECT
private slots:
    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("flavour");
        QTest::addColumn<QString>("stored");
        const auto row = [](const char *tag, const QString &name, ApiFlavour f, const char *s) {
            QTest::newRow(tag) << name << int(f) << QString::fromLatin1(s);
        };
        row("openai", u"openai"_s, ApiFlavour::Completions, "openai");
        row("vllm", u"vllm"_s, ApiFlavour::Completions, "openai");
        row("openai-chat", u"openai-chat"_s, ApiFlavour::Chat, "openai-chat");
        row("openai-responses", u"openai-responses"_s, ApiFlavour::Responses, "openai-responses");
        row("anthropic-messages", u"anthropic-messages"_s, ApiFlavour::Messages,
            "anthropic-messages");
        // AIPerf's --endpoint-type names.
        row("aiperf responses", u"responses"_s, ApiFlavour::Responses, "openai-responses");
        row("aiperf messages", u"messages"_s, ApiFlavour::Messages, "anthropic-messages");
        row("aiperf chat", u"chat"_s, ApiFlavour::Chat, "openai-chat");
    }
    void names()
    {
        QFETCH(QString, name);
        QFETCH(int, flavour);
        QFETCH(QString, stored);
        ApiFlavour f = ApiFlavour::Completions;
        QVERIFY(apiFlavourFromName(name, &f));
        QCOMPARE(int(f), flavour);
        QCOMPARE(QString::fromLatin1(apiFlavourName(f)), stored);
        // The SUT's stored JSON keeps the flavour.
        SutConfig sut;
        sut.flavour = f;
        QCOMPARE(int(SutConfig::fromJson(sut.toJson()).flavour), flavour);
        QCOMPARE(sut.toJson().value(u"backend"_s).toString(), stored);
    }

    void bodies_data()
    {
        QTest::addColumn<int>("flavour");
        QTest::addColumn<bool>("withMessages");
        QTest::addColumn<int>("maxTokens");
        QTest::addColumn<QByteArray>("expected");
        const QByteArray p = R"("model":"m","temperature":0.5)";
        QTest::newRow("responses, prompt")
            << int(ApiFlavour::Responses) << false << 64
            << R"({"input":"hi","max_output_tokens":64,"stream":true,)" + p + "}";
        // The conversation goes to input as it is, system message included.
        QTest::newRow("responses, messages")
            << int(ApiFlavour::Responses) << true << -1
            << R"({"input":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"},)"
               R"({"role":"assistant","content":"yes"},{"role":"user","content":"more"}],)"
               R"("stream":true,)" +
                   p + "}";
        // Anthropic: system at the top level, max_tokens always, thinking when budgeted.
        QTest::newRow("messages, prompt")
            << int(ApiFlavour::Messages) << false << 64
            << R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":64,"stream":true,)"
               R"("thinking":{"type":"enabled","budget_tokens":2048},)" +
                   p + "}";
        QTest::newRow("messages, conversation, no length")
            << int(ApiFlavour::Messages) << true << -1
            << R"({"system":"be brief","messages":[{"role":"user","content":"hi"},)"
               R"({"role":"assistant","content":"yes"},{"role":"user","content":"more"}],)"
               R"("max_tokens":1024,"stream":true,"thinking":{"type":"enabled",)"
               R"("budget_tokens":2048},)" +
                   p + "}";
        QTest::newRow("chat (unchanged)")
            << int(ApiFlavour::Chat) << false << 64
            << R"({"messages":[{"role":"user","content":"hi"}],"max_completion_tokens":64,)"
               R"("max_tokens":64,"stream":true,"stream_options":{"include_usage":true},)" +
                   p + "}";
    }
    void bodies()
    {
        QFETCH(int, flavour);
        QFETCH(bool, withMessages);
        QFETCH(int, maxTokens);
        QFETCH(QByteArray, expected);
        SutConfig sut;
        sut.model = u"m"_s;
        sut.flavour = ApiFlavour(flavour);
        RequestParams params;
        params.temperature = 0.5;
        params.thinkingBudgetTokens = 2048; // sent by Messages only
        QJsonArray messages;
        if (withMessages)
            messages = {QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"be brief"_s}},
                        QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"hi"_s}},
                        QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"yes"_s}},
                        QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"more"_s}}};
        const QJsonObject body =
            parse(buildRequestBody(sut, params, u"hi"_s, messages, maxTokens));
        QCOMPARE(body, parse(expected));
    }

    void headers_data()
    {
        QTest::addColumn<int>("flavour");
        QTest::addColumn<QString>("extraHeader"); // "Name: value" or empty
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<QByteArray>("xApiKey");
        QTest::addColumn<QByteArray>("version");
        QTest::addColumn<QString>("path");
        QTest::newRow("responses") << int(ApiFlavour::Responses) << QString()
                                   << QByteArray("Bearer sk-1") << QByteArray() << QByteArray()
                                   << u"/v1/responses"_s;
        QTest::newRow("messages") << int(ApiFlavour::Messages) << QString() << QByteArray()
                                  << QByteArray("sk-1") << QByteArray("2023-06-01")
                                  << u"/v1/messages"_s;
        // A header that places the key carries it instead, and only it.
        QTest::newRow("messages, key placed by a header")
            << int(ApiFlavour::Messages) << u"X-Gateway-Key: {api_key}"_s << QByteArray()
            << QByteArray() << QByteArray("2023-06-01") << u"/v1/messages"_s;
        // The user's own version header replaces the default.
        QTest::newRow("messages, own version")
            << int(ApiFlavour::Messages) << u"anthropic-version: 2024-01-01"_s << QByteArray()
            << QByteArray("sk-1") << QByteArray("2024-01-01") << u"/v1/messages"_s;
    }
    void headers()
    {
        QFETCH(int, flavour);
        QFETCH(QString, extraHeader);
        QFETCH(QByteArray, authorization);
        QFETCH(QByteArray, xApiKey);
        QFETCH(QByteArray, version);
        QFETCH(QString, path);
        SutConfig sut;
        sut.flavour = ApiFlavour(flavour);
        sut.baseUrl = u"https://api.example.com/v1"_s;
        if (!extraHeader.isEmpty()) {
            const qsizetype colon = extraHeader.indexOf(u':');
            sut.extraHeaders.append({extraHeader.left(colon), extraHeader.mid(colon + 1).trimmed()});
        }
        const auto h = buildRequestHeaders(sut, "sk-1", u"r1"_s);
        QCOMPARE(header(h, "Authorization"), authorization);
        QCOMPARE(hasHeader(h, "Authorization"), !authorization.isEmpty());
        QCOMPARE(header(h, "x-api-key"), xApiKey);
        QCOMPARE(header(h, "anthropic-version"), version);
        if (extraHeader.startsWith("X-Gateway-Key"_L1))
            QCOMPARE(header(h, "X-Gateway-Key"), QByteArray("sk-1"));
        QCOMPARE(defaultEndpoint(sut), path);
        QCOMPARE(endpointUrl(sut).toString(), u"https://api.example.com"_s + path);
    }

    void flags_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("flavour");
        QTest::addColumn<int>("thinking");
        QTest::newRow("--backend anthropic-messages")
            << QStringList{u"--backend"_s, u"anthropic-messages"_s, u"--thinking-budget"_s,
                           u"2048"_s}
            << int(ApiFlavour::Messages) << 2048;
        QTest::newRow("--backend messages (AIPerf)")
            << QStringList{u"--backend"_s, u"messages"_s} << int(ApiFlavour::Messages) << -1;
        QTest::newRow("--backend openai-responses")
            << QStringList{u"--backend"_s, u"openai-responses"_s} << int(ApiFlavour::Responses)
            << -1;
        // The endpoint says which API it speaks.
        QTest::newRow("--endpoint /v1/responses")
            << QStringList{u"--base-url"_s, u"http://h:1"_s, u"--endpoint"_s, u"/v1/responses"_s}
            << int(ApiFlavour::Responses) << -1;
        QTest::newRow("--endpoint /v1/messages")
            << QStringList{u"--base-url"_s, u"http://h:1"_s, u"--endpoint"_s, u"v1/messages/"_s}
            << int(ApiFlavour::Messages) << -1;
        QTest::newRow("--backend wins over the endpoint")
            << QStringList{u"--base-url"_s, u"http://h:1"_s, u"--endpoint"_s, u"/v1/messages"_s,
                           u"--backend"_s, u"openai-chat"_s}
            << int(ApiFlavour::Chat) << -1;
    }
    void flags()
    {
        QFETCH(QStringList, args);
        QFETCH(int, flavour);
        QFETCH(int, thinking);
        RunRequest r;
        RunFlagOptions opts;
        QString error;
        QVERIFY2(parseRunFlags(args, &r, &opts, &error), qPrintable(error));
        QCOMPARE(int(r.plan.sut.flavour), flavour);
        QCOMPARE(r.plan.params.thinkingBudgetTokens, thinking);
        // The reproducing command gives the same plan back.
        RunRequest again;
        QVERIFY2(parseRunFlags(runFlags(r), &again, &opts, &error), qPrintable(error));
        QCOMPARE(int(again.plan.sut.flavour), flavour);
        QCOMPARE(again.plan.params.thinkingBudgetTokens, thinking);
        QCOMPARE(RunPlan::fromJson(r.plan.toJson()).params.thinkingBudgetTokens, thinking);
    }
    void badFlags_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("said");
        QTest::newRow("unknown backend") << QStringList{u"--backend"_s, u"tgi"_s}
                                         << u"anthropic-messages"_s;
        QTest::newRow("thinking budget 0") << QStringList{u"--thinking-budget"_s, u"0"_s}
                                           << u"--thinking-budget"_s;
    }
    void badFlags()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, said);
        RunRequest r;
        RunFlagOptions opts;
        QString error;
        QVERIFY(!parseRunFlags(args, &r, &opts, &error));
        QVERIFY2(error.contains(said), qPrintable(error));
    }

    // Runs of the four generation APIs rank against each other (the API is part of the SUT);
    // a run of a kind this build does not know (an embeddings backend) does not.
    void comparability_data()
    {
        QTest::addColumn<QString>("other");
        QTest::addColumn<bool>("rankable");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("chat vs messages") << u"anthropic-messages"_s << true << QString();
        QTest::newRow("chat vs responses") << u"openai-responses"_s << true << QString();
        QTest::newRow("chat vs embeddings") << u"openai-embeddings"_s << false
                                            << u"different kinds of API"_s;
    }
    void comparability()
    {
        QFETCH(QString, other);
        QFETCH(bool, rankable);
        QFETCH(QString, refusal);
        RunPlan chat;
        chat.sut.flavour = ApiFlavour::Chat;
        QJsonObject b = snapshot(chat);
        QJsonObject sut = b.value(u"sut"_s).toObject();
        sut[u"backend"_s] = other;
        b[u"sut"_s] = sut;
        const Comparability c = checkComparability({snapshot(chat), b}, {u"a"_s, u"b"_s});
        QCOMPARE(c.rankable(), rankable);
        QVERIFY2(c.refusals.join(u' ').contains(refusal), qPrintable(c.refusals.join(u' ')));
        bool kindDiffers = false;
        for (const FieldComparison &f : c.fields)
            if (f.key == "api_kind"_L1)
                kindDiffers = f.differs;
        QCOMPARE(kindDiffers, !rankable);
    }
};

QTEST_GUILESS_MAIN(TestApiFlavours)
#include "tst_apiflavours.moc"
