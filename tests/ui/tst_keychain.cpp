// API keys never enter the project: they come from the keychain or the environment. When the
// keychain fails (forced here through an injected backend) the store falls back to
// OPENAI_API_KEY and says so. Tokens of server-metrics targets are read the same way before a
// run, and never replaced by the API key.

#include "editors/suteditor.h"
#include "keychainbackend.h"
#include "keychainstore.h"
#include "keychainunavailablebackend.h"
#include "projectrunner.h"

#include <QComboBox>
#include <QJsonDocument>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {
// An in-memory keychain that can be told to fail, answering asynchronously like the real one.
class FakeKeychain : public KeychainBackend
{
public:
    explicit FakeKeychain(QObject *parent = nullptr) : KeychainBackend(parent) {}
    QString name() const override { return u"fake"_s; }
    void read(const QString &account) override
    {
        QTimer::singleShot(0, this, [this, account] {
            if (!failure.isEmpty())
                emit readFinished(account, {}, failure);
            else
                emit readFinished(account, entries.value(account), {});
        });
    }
    void write(const QString &account, const QByteArray &secret) override
    {
        QTimer::singleShot(0, this, [this, account, secret] {
            if (failure.isEmpty())
                entries.insert(account, secret);
            emit writeFinished(account, failure);
        });
    }
    void remove(const QString &account) override
    {
        entries.remove(account);
        QTimer::singleShot(0, this, [this, account] { emit writeFinished(account, {}); });
    }
    QString failure;
    QHash<QString, QByteArray> entries;
};

struct Fetched
{
    QByteArray key;
    QString message;
};

Fetched fetch(ApiKeyStore &store, const QString &ref)
{
    QSignalSpy spy(&store, &ApiKeyStore::keyFetched);
    const quint64 ticket = store.fetch(ref);
    // Never answered from inside fetch(): callers may connect after calling.
    if (!spy.isEmpty())
        return {"<synchronous>", {}};
    if (!spy.wait(5000))
        return {"<timeout>", {}};
    if (spy.first().at(0).toULongLong() != ticket)
        return {"<wrong ticket>", {}};
    return {spy.first().at(1).toByteArray(), spy.first().at(2).toString()};
}
// A Prometheus endpoint that keeps every request it was sent.
class RecordingExporter : public QTcpServer
{
public:
    RecordingExporter()
    {
        listen(QHostAddress::LocalHost, 0);
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] {
                    const QByteArray in = s->readAll();
                    received += in;
                    if (!in.contains("\r\n\r\n"))
                        return;
                    const QByteArray body = "up 1\n";
                    s->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n"
                             "Content-Length: " +
                             QByteArray::number(body.size()) + "\r\n\r\n" + body);
                });
            }
        });
    }
    QString url() const { return u"http://127.0.0.1:%1/metrics"_s.arg(serverPort()); }
    QByteArray received;
};
} // namespace

class TestKeychain : public QObject
{
    Q_OBJECT
private slots:
    void init() { qunsetenv("OPENAI_API_KEY"); }
    void cleanup() { qunsetenv("OPENAI_API_KEY"); }
    void readsFromKeychain();
    void failureFallsBack_data();
    void failureFallsBack();
    void environmentReferences();
    void storeFailureExplains();
    void editorSavesThroughStore();
    void runnerReadsTargetTokens();
};

void TestKeychain::readsFromKeychain()
{
    auto *backend = new FakeKeychain;
    backend->entries.insert(u"prod"_s, "sk-from-keychain");
    ApiKeyStore store(backend);
    qputenv("OPENAI_API_KEY", "sk-from-env");
    const Fetched f = fetch(store, ApiKeyStore::keychainRef(u"prod"_s));
    QCOMPARE(f.key, QByteArray("sk-from-keychain"));
    QVERIFY(f.message.isEmpty());
}

void TestKeychain::failureFallsBack_data()
{
    QTest::addColumn<QString>("failure"); // empty: the entry is missing
    QTest::addColumn<QByteArray>("env");
    QTest::addColumn<QByteArray>("expectedKey");
    QTest::addColumn<QString>("mustSay");
    QTest::newRow("locked, env set") << u"The keyring is locked"_s << QByteArray("sk-env")
                                     << QByteArray("sk-env") << u"using the OPENAI_API_KEY"_s;
    QTest::newRow("locked, no env")
        << u"The keyring is locked"_s << QByteArray() << QByteArray() << u"without an API key"_s;
    QTest::newRow("no entry, env set")
        << QString() << QByteArray("sk-env") << QByteArray("sk-env") << u"no key is stored"_s;
}

void TestKeychain::failureFallsBack()
{
    QFETCH(QString, failure);
    QFETCH(QByteArray, env);
    QFETCH(QByteArray, expectedKey);
    QFETCH(QString, mustSay);
    auto *backend = new FakeKeychain;
    backend->failure = failure;
    ApiKeyStore store(backend);
    if (!env.isEmpty())
        qputenv("OPENAI_API_KEY", env);
    const Fetched f = fetch(store, ApiKeyStore::keychainRef(u"prod"_s));
    QCOMPARE(f.key, expectedKey);
    QVERIFY2(f.message.contains(mustSay), qPrintable(f.message));
    if (!failure.isEmpty())
        QVERIFY2(f.message.contains(failure), qPrintable(f.message)); // the reason is passed on
}

void TestKeychain::environmentReferences()
{
    ApiKeyStore store(new KeychainUnavailableBackend);
    qputenv("SB_TEST_KEY_VAR", "sk-custom");
    QCOMPARE(fetch(store, ApiKeyStore::envRef(u"SB_TEST_KEY_VAR"_s)).key, QByteArray("sk-custom"));
    qunsetenv("SB_TEST_KEY_VAR");
    const Fetched missing = fetch(store, ApiKeyStore::envRef(u"SB_TEST_KEY_VAR"_s));
    QVERIFY(missing.key.isEmpty());
    QVERIFY(missing.message.contains(u"SB_TEST_KEY_VAR"_s));
    qputenv("OPENAI_API_KEY", "sk-default");
    QCOMPARE(fetch(store, QString()).key, QByteArray("sk-default"));
    // Without keychain support at all, a keychain reference still falls back.
    const Fetched noKeychain = fetch(store, ApiKeyStore::keychainRef(u"x"_s));
    QCOMPARE(noKeychain.key, QByteArray("sk-default"));
    QVERIFY(noKeychain.message.contains(u"OPENAI_API_KEY"_s));
}

void TestKeychain::storeFailureExplains()
{
    auto *backend = new FakeKeychain;
    backend->failure = u"No keyring daemon"_s;
    ApiKeyStore store(backend);
    QSignalSpy spy(&store, &ApiKeyStore::stored);
    const quint64 ticket = store.store(u"prod"_s, "sk-1");
    QVERIFY(spy.wait(5000));
    QCOMPARE(spy.first().at(0).toULongLong(), ticket);
    QCOMPARE(spy.first().at(1).toBool(), false);
    const QString message = spy.first().at(2).toString();
    QVERIFY2(message.contains(u"No keyring daemon"_s) && message.contains(u"OPENAI_API_KEY"_s),
             qPrintable(message));
    QVERIFY(backend->entries.isEmpty());
}

void TestKeychain::editorSavesThroughStore()
{
    auto *backend = new FakeKeychain;
    ApiKeyStore store(backend);
    SutEditor editor;
    editor.setKeyStore(&store);
    SutConfig s;
    s.name = u"prod"_s;
    s.baseUrl = u"http://h:1"_s;
    s.model = u"m"_s;
    s.apiKeyRef = ApiKeyStore::keychainRef(u"prod"_s);
    editor.setConfig(s);
    editor.findChild<QLineEdit *>(u"keyValue"_s)->setText(u"sk-secret"_s);
    editor.findChild<QPushButton *>(u"saveKey"_s)->click();
    QTRY_VERIFY(backend->entries.contains(u"prod"_s));
    QCOMPARE(backend->entries.value(u"prod"_s), QByteArray("sk-secret"));
    QTRY_VERIFY(editor.keyStatusText().contains(u"prod"_s));
    // The key left the widget and is nowhere in the configuration.
    QVERIFY(editor.findChild<QLineEdit *>(u"keyValue"_s)->text().isEmpty());
    QVERIFY(!QJsonDocument(editor.config().toJson()).toJson().contains("sk-secret"));
    QCOMPARE(editor.config().apiKeyRef, u"keychain:prod"_s);

    // A failing keychain: the editor shows why and the fallback.
    backend->failure = u"Access denied"_s;
    editor.findChild<QLineEdit *>(u"keyValue"_s)->setText(u"sk-2"_s);
    editor.findChild<QPushButton *>(u"saveKey"_s)->click();
    QTRY_VERIFY(editor.keyStatusText().contains(u"Access denied"_s));
    QVERIFY(editor.keyStatusText().contains(u"OPENAI_API_KEY"_s));
}

void TestKeychain::runnerReadsTargetTokens()
{
    qputenv("OPENAI_API_KEY", "sk-api-key");
    auto *backend = new FakeKeychain;
    backend->entries.insert(u"node"_s, "tok-node");
    ApiKeyStore store(backend);
    RecordingExporter node, gone;
    RunRequest r;
    r.plan.sut.builtInSimulator = true;
    r.plan.sut.serverMetrics.sut = u"off"_s;
    r.plan.sut.serverMetrics.targets = {{u"node"_s, node.url(), u"keychain:node"_s},
                                        {u"gone"_s, gone.url(), u"keychain:gone"_s}};
    r.plan.dataset.randomInputLen = 8;
    r.plan.dataset.randomOutputLen = 2;
    r.plan.profile.numPrompts = 4;
    r.calibrateTokens = false;
    ProjectRunner runner(&store);
    QSignalSpy finished(&runner, &ProjectRunner::runFinished);
    QString error;
    QVERIFY2(runner.start(r, QString(), RunInfo(), &error), qPrintable(error));
    QVERIFY(finished.wait(60000));
    // The token read from the keychain went to its target only; the entry that is missing
    // left its target without a token, not with the API key the store falls back to.
    QVERIFY2(node.received.contains("Authorization: Bearer tok-node"), node.received.constData());
    QVERIFY(!gone.received.isEmpty());
    QVERIFY2(!gone.received.contains("Authorization"), gone.received.constData());
    QVERIFY(!node.received.contains("sk-api-key") && !gone.received.contains("sk-api-key"));
}

QTEST_MAIN(TestKeychain)
#include "tst_keychain.moc"
