// The real QtKeychain backend against a real Secret Service: a private D-Bus session bus and
// gnome-keyring-daemon with a fresh keyring in a temporary home, both started by this test and
// stopped at its end. Stores, reads and deletes an API key through ApiKeyStore and the SUT
// editor, checks with secret-tool (libsecret, not QtKeychain) that the key really lies in the
// Secret Service, and that it is nowhere in the project file or its -wal.

#include "editors/suteditor.h"
#include "keychainbackend.h"
#include "keychainstore.h"
#include "store/projectstore.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

const QByteArray kSecret = "sk-real-keychain-DO-NOT-LEAK-7f3a9c";

struct Fetched
{
    QByteArray key;
    QString message;
};

Fetched fetch(ApiKeyStore &store, const QString &ref)
{
    QSignalSpy spy(&store, &ApiKeyStore::keyFetched);
    const quint64 ticket = store.fetch(ref);
    if (!spy.wait(20000))
        return {{}, u"timed out"_s};
    const QList<QVariant> args = spy.takeFirst();
    if (args.at(0).toULongLong() != ticket)
        return {{}, u"wrong ticket"_s};
    return {args.at(1).toByteArray(), args.at(2).toString()};
}

} // namespace

class TestKeychainReal : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;
    QProcess m_bus;
    QProcess m_keyring;
    QProcessEnvironment m_env;

    // secret-tool from libsecret-tools, on the test's bus: an independent reader of the store.
    QByteArray secretTool(const QStringList &args, int *code = nullptr)
    {
        QProcess p;
        p.setProcessEnvironment(m_env);
        p.start(QStringLiteral(SB_SECRET_TOOL), args);
        if (!p.waitForFinished(20000)) {
            p.kill();
            p.waitForFinished();
        }
        if (code)
            *code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        return p.readAllStandardOutput();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(u"HOME"_s, m_home.path());
        m_env.insert(u"XDG_DATA_HOME"_s, m_home.filePath(u"data"_s));
        m_env.insert(u"XDG_CONFIG_HOME"_s, m_home.filePath(u"config"_s));
        m_env.insert(u"XDG_RUNTIME_DIR"_s, m_home.filePath(u"run"_s));
        QVERIFY(QDir().mkpath(m_home.filePath(u"run"_s)));
        QFile::setPermissions(m_home.filePath(u"run"_s),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        // A session bus of our own: nothing of the user's keyring is touched.
        m_bus.setProcessEnvironment(m_env);
        m_bus.start(QStringLiteral(SB_DBUS_DAEMON),
                    {u"--session"_s, u"--nofork"_s, u"--print-address=1"_s});
        QVERIFY2(m_bus.waitForStarted(), "dbus-daemon (package dbus-daemon) is not installed");
        QByteArray address;
        QDeadlineTimer deadline(10000);
        while (!address.contains('\n') && !deadline.hasExpired()) {
            m_bus.waitForReadyRead(200);
            address += m_bus.readAllStandardOutput();
        }
        address = address.trimmed();
        QVERIFY2(address.startsWith("unix:"), address.constData());
        m_env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, QString::fromLatin1(address));
        // QtKeychain talks to the session bus of this process: point it at ours before any use.
        qputenv("DBUS_SESSION_BUS_ADDRESS", address);

        // gnome-keyring with the secrets component; --unlock creates the login keyring with the
        // password on stdin, so no prompt is ever needed.
        m_keyring.setProcessEnvironment(m_env);
        m_keyring.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_keyring.start(QStringLiteral(SB_GNOME_KEYRING_DAEMON),
                        {u"--foreground"_s, u"--unlock"_s, u"--components=secrets"_s});
        QVERIFY2(m_keyring.waitForStarted(), "gnome-keyring-daemon (package gnome-keyring) is "
                                             "not installed");
        m_keyring.write("servebench-test\n");
        m_keyring.closeWriteChannel();
        QDBusConnectionInterface *bus = QDBusConnection::sessionBus().interface();
        QVERIFY2(bus, qPrintable(QDBusConnection::sessionBus().lastError().message()));
        QTRY_VERIFY_WITH_TIMEOUT(bus->isServiceRegistered(u"org.freedesktop.secrets"_s).value(),
                                 20000);
    }

    void cleanupTestCase()
    {
        for (QProcess *p : {&m_keyring, &m_bus}) {
            if (p->state() != QProcess::NotRunning) {
                p->terminate();
                if (!p->waitForFinished(5000)) {
                    p->kill();
                    p->waitForFinished();
                }
            }
        }
    }

    void defaultBackendIsQtKeychain()
    {
        // The build requires QtKeychain: the default backend is the real one, never the
        // always-unavailable stand-in.
        std::unique_ptr<KeychainBackend> b(KeychainBackend::createDefault());
        QCOMPARE(b->name(), u"qtkeychain"_s);
    }

    void storeReadDeleteInTheSecretService()
    {
        qunsetenv("OPENAI_API_KEY");
        ApiKeyStore store; // the default backend: QtKeychain
        const QString account = u"sut-real"_s;

        // Store through the SUT editor, as a user does, then save the SUT into a project.
        SutEditor editor;
        editor.setKeyStore(&store);
        SutConfig s;
        s.name = u"prod"_s;
        s.baseUrl = u"http://gpu-box:8000"_s;
        s.model = u"m"_s;
        s.apiKeyRef = ApiKeyStore::keychainRef(account);
        editor.setConfig(s);
        editor.findChild<QLineEdit *>(u"keyValue"_s)->setText(QString::fromLatin1(kSecret));
        editor.findChild<QPushButton *>(u"saveKey"_s)->click();
        QTRY_VERIFY_WITH_TIMEOUT(editor.keyStatusText().contains(account), 20000);
        QVERIFY2(!editor.keyStatusText().contains(u"OPENAI_API_KEY"_s),
                 qPrintable(editor.keyStatusText()));

        // Another reader of the Secret Service finds it: it is really there, not in a fallback.
        int code = -1;
        const QByteArray listing =
            secretTool({u"search"_s, u"--all"_s, u"--unlock"_s, u"user"_s, account}, &code);
        QVERIFY2(code == 0, listing.constData());
        QVERIFY2(listing.contains("schema = org.qt.keychain"), listing.constData());
        QVERIFY2(listing.contains("label = ServeBench"), listing.constData());
        // QtKeychain keeps binary data base64-encoded (its "type" attribute says so).
        QByteArray stored;
        for (const QByteArray &line : listing.split('\n'))
            if (line.startsWith("secret = "))
                stored = line.mid(9).trimmed();
        QVERIFY2(stored == kSecret || QByteArray::fromBase64(stored) == kSecret,
                 listing.constData());

        // Read back through the store.
        const Fetched got = fetch(store, ApiKeyStore::keychainRef(account));
        QCOMPARE(got.key, kSecret);
        QVERIFY2(got.message.isEmpty(), qPrintable(got.message));

        // The project file and its -wal hold the reference, never the key.
        const QString path = m_home.filePath(u"p.sbproj"_s);
        {
            ProjectStore project;
            QVERIFY2(project.open(path), qPrintable(project.lastError()));
            StoredSut stored;
            stored.config = editor.config();
            QVERIFY(project.saveSut(stored) > 0);
            QCOMPARE(project.listSuts().value(0).config.apiKeyRef, u"keychain:sut-real"_s);
            QByteArray bytes;
            for (const QString &f : {path, path + u"-wal"_s}) {
                QFile file(f);
                if (file.open(QIODevice::ReadOnly))
                    bytes += file.readAll();
            }
            QVERIFY(bytes.contains("keychain:sut-real")); // the reference is stored ...
            QVERIFY(!bytes.contains(kSecret));            // ... the key is not
        }

        // Delete: gone from the Secret Service, and a fetch says so.
        QSignalSpy removed(store.backend(), &KeychainBackend::writeFinished);
        store.backend()->remove(account);
        QVERIFY(removed.wait(20000));
        QVERIFY2(removed.first().at(1).toString().isEmpty(),
                 qPrintable(removed.first().at(1).toString()));
        const QByteArray after =
            secretTool({u"search"_s, u"--all"_s, u"--unlock"_s, u"user"_s, account}, &code);
        QVERIFY2(!after.contains("schema = org.qt.keychain"), after.constData());
        const Fetched none = fetch(store, ApiKeyStore::keychainRef(account));
        QVERIFY(none.key.isEmpty());
        QVERIFY2(none.message.contains(u"OPENAI_API_KEY"_s), qPrintable(none.message));
    }
};

QTEST_MAIN(TestKeychainReal)
#include "tst_keychainreal.moc"
