// HTTPS with a private CA and HTTP proxies from the environment, end to end through
// servebench-cli on loopback: the built-in simulator behind a TLS front whose certificate is
// signed by a CA made in the test (openssl), and a small forward proxy that speaks absolute-form
// requests and CONNECT tunnels, as squid or tinyproxy do. Both transports.
#include "clirun.h"
#include "sim/simulator.h"
#include "store/projectstore.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QProcess>
#include <QRegularExpression>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUrl>
#include <atomic>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {

using Result = test::CliResult;

Result runCli(const QStringList &args, const QProcessEnvironment &env)
{
    return test::runCli(args, 120000, env);
}

// The environment a user's shell would give, without any proxy the test machine may have set.
QProcessEnvironment cleanEnv()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                             "ALL_PROXY", "no_proxy", "NO_PROXY", "OPENAI_API_KEY"})
        env.remove(QString::fromLatin1(name));
    return env;
}

bool runOpenssl(const QStringList &args, const QString &dir, QString *error)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(u"openssl"_s, args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = u"openssl %1: %2 %3"_s.arg(args.join(u' '), p.errorString(),
                                            QString::fromUtf8(p.readAllStandardError()));
        return false;
    }
    return true;
}

// The SUT's name as the proxy knows it. Only the proxy can resolve it (to this machine), as a
// corporate proxy resolves names its clients cannot; loopback targets would skip a proxy from
// the environment altogether.
const QString kSutHost = u"sut.test"_s;
QString proxyResolve(const QString &host)
{
    return host == kSutHost ? u"127.0.0.1"_s : host;
}

// Copies bytes from a to b; a's end ends b.
void pipe(QTcpSocket *a, QTcpSocket *b)
{
    QObject::connect(a, &QTcpSocket::readyRead, b, [a, b] { b->write(a->readAll()); });
    QObject::connect(a, &QTcpSocket::disconnected, b, [b] { b->disconnectFromHost(); });
}

// Lives in its own thread (the CLI runs in a child process while the test thread waits).
class Relay : public QObject
{
public:
    enum class Mode { ForwardProxy, TlsFront };
    Relay(Mode mode, quint16 upstreamPort, const QSslConfiguration &tls)
        : m_mode(mode), m_upstreamPort(upstreamPort), m_tls(tls)
    {}

    bool listen()
    {
        if (m_mode == Mode::TlsFront) {
            auto *server = new QSslServer(this);
            server->setSslConfiguration(m_tls);
            m_server = server;
        } else {
            m_server = new QTcpServer(this);
        }
        connect(m_server, &QTcpServer::pendingConnectionAvailable, this, [this] {
            while (QTcpSocket *s = m_server->nextPendingConnection())
                m_mode == Mode::TlsFront ? front(s) : proxy(s);
        });
        if (!m_server->listen(QHostAddress::LocalHost))
            return false;
        port = m_server->serverPort();
        return true;
    }

    quint16 port = 0;
    std::atomic<int> absoluteRequests{0}; // plain requests in absolute form
    std::atomic<int> originFormRequests{0};
    std::atomic<int> tunnels{0};
    std::atomic<int> authorized{0}; // requests or tunnels carrying the expected credentials
    std::atomic<int> challenges{0}; // 407 answers to requests without them
    QByteArray expectedAuth;        // "Basic ..." or empty

private:
    void front(QTcpSocket *client)
    {
        auto *up = new QTcpSocket(client);
        up->connectToHost(QHostAddress::LocalHost, m_upstreamPort);
        pipe(client, up);
        pipe(up, client);
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
    }

    void proxy(QTcpSocket *client)
    {
        struct State
        {
            QByteArray in;
            QTcpSocket *up = nullptr;
            bool tunnel = false;
        };
        auto state = std::make_shared<State>();
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
        connect(client, &QTcpSocket::readyRead, this, [this, client, state] {
            state->in += client->readAll();
            if (state->tunnel) {
                state->up->write(state->in);
                state->in.clear();
                return;
            }
            for (;;) {
                const qsizetype end = state->in.indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                const QByteArray head = state->in.left(end);
                QList<QByteArray> lines = head.split('\n');
                const QList<QByteArray> line = lines.value(0).trimmed().split(' ');
                qsizetype length = 0;
                QByteArray auth;
                QByteArray rest;
                for (qsizetype i = 1; i < lines.size(); ++i) {
                    const QByteArray h = lines[i].trimmed();
                    const qsizetype colon = h.indexOf(':');
                    const QByteArray name = h.left(colon).trimmed().toLower();
                    const QByteArray value = h.mid(colon + 1).trimmed();
                    if (name == "content-length")
                        length = value.toLongLong();
                    if (name == "proxy-authorization")
                        auth = value; // a proxy consumes it: never forwarded
                    else
                        rest += h + "\r\n";
                }
                if (!expectedAuth.isEmpty() && auth != expectedAuth) {
                    // As a real proxy does: challenge, keep the connection, drop the request.
                    const bool connectLine = line.value(0) == "CONNECT";
                    if (!connectLine && state->in.size() < end + 4 + length)
                        return; // the body is not all here yet
                    ++challenges;
                    client->write("HTTP/1.1 407 Proxy Authentication Required\r\n"
                                  "Proxy-Authenticate: Basic realm=\"test\"\r\n"
                                  "Content-Length: 0\r\n\r\n");
                    state->in.remove(0, end + 4 + (connectLine ? 0 : length));
                    continue;
                }
                if (!expectedAuth.isEmpty())
                    ++authorized;
                if (line.size() == 3 && line[0] == "CONNECT") {
                    ++tunnels;
                    state->in.remove(0, end + 4);
                    const QList<QByteArray> hp = line[1].split(':');
                    state->up = new QTcpSocket(client);
                    state->tunnel = true;
                    connect(state->up, &QTcpSocket::connected, client, [client, state] {
                        client->write("HTTP/1.1 200 Connection established\r\n\r\n");
                        if (!state->in.isEmpty())
                            state->up->write(state->in);
                        state->in.clear();
                    });
                    pipe(state->up, client);
                    connect(client, &QTcpSocket::disconnected, state->up,
                            [up = state->up] { up->disconnectFromHost(); });
                    state->up->connectToHost(proxyResolve(QString::fromLatin1(hp.value(0))),
                                             quint16(hp.value(1).toUInt()));
                    return;
                }
                if (state->in.size() < end + 4 + length)
                    return; // the body is not all here yet
                const QUrl target(QString::fromLatin1(line.value(1)));
                if (line.size() != 3 || target.scheme() != "http"_L1) {
                    ++originFormRequests; // a client that forgot it talks to a proxy
                    client->write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
                    state->in.remove(0, end + 4 + length);
                    continue;
                }
                ++absoluteRequests;
                if (!state->up) {
                    state->up = new QTcpSocket(client);
                    state->up->connectToHost(proxyResolve(target.host()), quint16(target.port(80)));
                    pipe(state->up, client);
                    connect(client, &QTcpSocket::disconnected, state->up,
                            [up = state->up] { up->disconnectFromHost(); });
                }
                const QByteArray path =
                    target.path(QUrl::FullyEncoded).toLatin1() +
                    (target.hasQuery() ? '?' + target.query(QUrl::FullyEncoded).toLatin1() : "");
                state->up->write(line[0] + ' ' + path + ' ' + line[2] + "\r\n" + rest + "\r\n" +
                                 state->in.mid(end + 4, length));
                state->in.remove(0, end + 4 + length);
            }
        });
    }

    Mode m_mode;
    quint16 m_upstreamPort;
    QSslConfiguration m_tls;
    QTcpServer *m_server = nullptr;
};

// A relay in a thread of its own, stopped when it goes out of scope.
class RelayThread
{
public:
    RelayThread(Relay::Mode mode, quint16 upstreamPort, const QSslConfiguration &tls = {})
        : relay(new Relay(mode, upstreamPort, tls))
    {
        relay->moveToThread(&m_thread);
        m_thread.start();
        QMetaObject::invokeMethod(
            relay, [this] { m_listening = relay->listen(); }, Qt::BlockingQueuedConnection);
    }
    ~RelayThread()
    {
        QMetaObject::invokeMethod(
            relay, [r = relay] { delete r; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    bool listening() const { return m_listening; }

    Relay *relay;

private:
    QThread m_thread;
    bool m_listening = false;
};

const QStringList kShort = {u"--model"_s,
                            u"servebench-sim"_s,
                            u"--num-prompts"_s,
                            u"12"_s,
                            u"--random-input-len"_s,
                            u"16"_s,
                            u"--random-output-len"_s,
                            u"4"_s};

} // namespace

class TestTlsProxy : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    Simulator m_sim;
    QString m_caFile;
    QSslConfiguration m_serverTls;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QSslSocket::supportsSsl(), "Qt has no TLS backend");
        SimConfig c;
        c.ttftMs = 5;
        c.itlMs = 1;
        m_sim.setConfig(c);
        QVERIFY2(m_sim.start(), qPrintable(m_sim.errorString()));

        // A private CA and a server certificate for 127.0.0.1 signed by it.
        const QString d = m_dir.path();
        QFile ext(m_dir.filePath(u"leaf.ext"_s));
        QVERIFY(ext.open(QIODevice::WriteOnly));
        ext.write("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
                  "extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost,DNS:sut."
                  "test\n");
        ext.close();
        QString error;
        QVERIFY2(runOpenssl({u"req"_s, u"-x509"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s,
                             u"-keyout"_s, u"ca.key"_s, u"-out"_s, u"ca.pem"_s, u"-days"_s, u"2"_s,
                             u"-subj"_s, u"/CN=ServeBench test CA"_s, u"-addext"_s,
                             u"basicConstraints=critical,CA:TRUE"_s, u"-addext"_s,
                             u"keyUsage=critical,keyCertSign,cRLSign"_s},
                            d, &error),
                 qPrintable(error));
        QVERIFY2(
            runOpenssl({u"req"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s, u"-keyout"_s,
                        u"leaf.key"_s, u"-out"_s, u"leaf.csr"_s, u"-subj"_s, u"/CN=127.0.0.1"_s},
                       d, &error),
            qPrintable(error));
        QVERIFY2(runOpenssl({u"x509"_s, u"-req"_s, u"-in"_s, u"leaf.csr"_s, u"-CA"_s, u"ca.pem"_s,
                             u"-CAkey"_s, u"ca.key"_s, u"-CAcreateserial"_s, u"-out"_s,
                             u"leaf.pem"_s, u"-days"_s, u"2"_s, u"-extfile"_s, u"leaf.ext"_s},
                            d, &error),
                 qPrintable(error));
        m_caFile = m_dir.filePath(u"ca.pem"_s);
        QFile cert(m_dir.filePath(u"leaf.pem"_s));
        QFile key(m_dir.filePath(u"leaf.key"_s));
        QVERIFY(cert.open(QIODevice::ReadOnly) && key.open(QIODevice::ReadOnly));
        m_serverTls = QSslConfiguration::defaultConfiguration();
        m_serverTls.setLocalCertificate(QSslCertificate(&cert, QSsl::Pem));
        m_serverTls.setPrivateKey(QSslKey(&key, QSsl::Rsa, QSsl::Pem));
        QVERIFY(!m_serverTls.localCertificate().isNull() && !m_serverTls.privateKey().isNull());
    }

    void httpsTrustsOnlyTheGivenCa_data()
    {
        QTest::addColumn<QString>("transport");
        QTest::newRow("socket") << u"socket"_s;
        QTest::newRow("qnam") << u"qnam"_s;
    }
    void httpsTrustsOnlyTheGivenCa()
    {
        QFETCH(QString, transport);
        RelayThread front(Relay::Mode::TlsFront, m_sim.port(), m_serverTls);
        QVERIFY(front.listening());
        const QString url = u"https://127.0.0.1:%1"_s.arg(front.relay->port);

        // The system store does not know the private CA: refused, and the message says why.
        const Result refused = runCli(
            QStringList{u"run"_s, u"--base-url"_s, url, u"--transport"_s, transport} + kShort,
            cleanEnv());
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains("certificate"_L1, Qt::CaseInsensitive) ||
                     refused.err.contains("SSL"_L1),
                 qPrintable(refused.err));

        const Result trusted = runCli(QStringList{u"run"_s, u"--base-url"_s, url, u"--transport"_s,
                                                  transport, u"--ca-file"_s, m_caFile} +
                                          kShort,
                                      cleanEnv());
        QVERIFY2(trusted.code == 0, qPrintable(trusted.err));
        QVERIFY2(trusted.out.contains(QRegularExpression(u"Successful requests:\\s+12\\s"_s)),
                 qPrintable(trusted.out));
        QVERIFY2(trusted.out.contains(QRegularExpression(u"Failed requests:\\s+0\\s"_s)),
                 qPrintable(trusted.out));
    }

    void missingCaFileIsAnError()
    {
        const Result r = runCli(QStringList{u"run"_s, u"--base-url"_s, u"https://127.0.0.1:1"_s,
                                            u"--ca-file"_s, m_dir.filePath(u"nope.pem"_s)} +
                                    kShort,
                                cleanEnv());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--ca-file"_L1) && r.err.contains("nope.pem"_L1),
                 qPrintable(r.err));
        // A file that holds no certificate is named too.
        QFile junk(m_dir.filePath(u"junk.pem"_s));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("not a certificate\n");
        junk.close();
        const Result j = runCli(QStringList{u"run"_s, u"--base-url"_s, u"https://127.0.0.1:1"_s,
                                            u"--ca-file"_s, junk.fileName()} +
                                    kShort,
                                cleanEnv());
        QCOMPARE(j.code, 1);
        QVERIFY2(j.err.contains("junk.pem"_L1) && j.err.contains("no PEM or DER certificate"_L1),
                 qPrintable(j.err));
    }

    void httpGoesThroughTheEnvironmentsProxy_data()
    {
        QTest::addColumn<QString>("transport");
        QTest::newRow("socket") << u"socket"_s;
        QTest::newRow("qnam") << u"qnam"_s;
    }
    void httpGoesThroughTheEnvironmentsProxy()
    {
        QFETCH(QString, transport);
        RelayThread proxy(Relay::Mode::ForwardProxy, 0);
        QVERIFY(proxy.listening());
        proxy.relay->expectedAuth = "Basic " + QByteArray("agent:s3cr3t-pw").toBase64();
        QProcessEnvironment env = cleanEnv();
        env.insert(u"http_proxy"_s,
                   u"http://agent:s3cr3t-pw@127.0.0.1:%1"_s.arg(proxy.relay->port));
        const QString project = m_dir.filePath(u"proxy-%1.sbproj"_s.arg(transport));
        m_sim.reset();
        const QString base = u"http://%1:%2"_s.arg(kSutHost).arg(m_sim.port());
        const Result r = runCli(QStringList{u"run"_s, u"--base-url"_s, base, u"--transport"_s,
                                            transport, u"--project"_s, project} +
                                    kShort,
                                env);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QRegularExpression(u"Successful requests:\\s+12\\s"_s)),
                 qPrintable(r.out));
        // Every request (12 measured, plus the endpoint check and calibration) went through it,
        // in absolute form and with the proxy's credentials (the socket transport sends them
        // at once, Qt's manager after a 407 challenge); none reached it in origin form.
        QVERIFY2(proxy.relay->absoluteRequests.load() >= 13,
                 qPrintable(QString::number(proxy.relay->absoluteRequests.load())));
        QCOMPARE(proxy.relay->originFormRequests.load(), 0);
        QCOMPARE(proxy.relay->authorized.load(), proxy.relay->absoluteRequests.load());
        int completions = 0;
        for (const SimLogEntry &e : m_sim.requestLog())
            completions += e.path == "/v1/completions"_L1 ? 1 : 0;
        QCOMPARE(completions, 12);

        // The run says how it reached the SUT, and the proxy password is nowhere in the file.
        {
            ProjectStore store;
            QVERIFY2(store.open(project, ProjectStore::OpenMode::ReadOnly),
                     qPrintable(store.lastError()));
            const QList<RunInfo> runs = store.listRuns();
            QCOMPARE(runs.size(), 1);
            const auto run = store.loadRun(runs.first().id);
            QVERIFY(run);
            const QString route =
                run->snapshot.value(u"connection"_s).toObject().value(u"proxy"_s).toString();
            QVERIFY2(route.contains(u"127.0.0.1:%1"_s.arg(proxy.relay->port)) &&
                         route.contains("http_proxy"_L1),
                     qPrintable(route));
        }
        QVERIFY(!r.out.contains("s3cr3t-pw"_L1) && !r.err.contains("s3cr3t-pw"_L1));

        // A clean exit folds the -wal into the file; a killed run leaves its -wal, holding the
        // snapshot (with the route) and every committed record: read both.
        QProcess killed;
        killed.setProcessEnvironment(env);
        killed.start(QString::fromUtf8(SB_CLI),
                     {u"run"_s, u"--base-url"_s, base, u"--transport"_s, transport, u"--project"_s,
                      project, u"--model"_s, u"servebench-sim"_s, u"--num-prompts"_s, u"100000"_s,
                      u"--request-rate"_s, u"100"_s, u"--random-output-len"_s, u"2"_s,
                      u"--random-input-len"_s, u"8"_s});
        QVERIFY(killed.waitForStarted());
        const QString wal = project + u"-wal"_s;
        QDeadlineTimer deadline(30000);
        while (QFileInfo(wal).size() < 64 * 1024 && !deadline.hasExpired())
            QTest::qWait(100);
        killed.kill();
        QVERIFY(killed.waitForFinished());
        QVERIFY2(QFileInfo(wal).size() >= 64 * 1024, "the killed run left no -wal to read");
        for (const QString &file : {project, wal}) {
            QFile f(file);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(file));
            const QByteArray bytes = f.readAll();
            QVERIFY2(!bytes.contains("s3cr3t-pw"), qPrintable(file));
            QVERIFY2(bytes.contains(QByteArray::number(proxy.relay->port)) || file == project,
                     "the -wal holds the killed run's route");
        }
    }

    void loopbackAndNoProxyGoDirect()
    {
        RelayThread proxy(Relay::Mode::ForwardProxy, 0);
        QVERIFY(proxy.listening());
        const QString proxyUrl = u"http://127.0.0.1:%1"_s.arg(proxy.relay->port);
        QProcessEnvironment env = cleanEnv();
        env.insert(u"http_proxy"_s, proxyUrl);
        const QString sim = m_sim.baseUrl().toString();

        // A proxy from the environment never carries loopback traffic (the simulator's).
        Result r = runCli(QStringList{u"run"_s, u"--base-url"_s, sim} + kShort, env);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(proxy.relay->absoluteRequests.load() + proxy.relay->tunnels.load(), 0);

        // Asked for by --proxy, it does ...
        r = runCli(QStringList{u"run"_s, u"--base-url"_s, sim, u"--proxy"_s, proxyUrl} + kShort,
                   cleanEnv());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const int through = proxy.relay->absoluteRequests.load();
        QVERIFY2(through >= 13, qPrintable(QString::number(through)));

        // ... unless no_proxy names the target.
        QProcessEnvironment bypass = cleanEnv();
        bypass.insert(u"no_proxy"_s, u"localhost,127.0.0.0/8"_s);
        r = runCli(QStringList{u"run"_s, u"--base-url"_s, sim, u"--proxy"_s, proxyUrl} + kShort,
                   bypass);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(proxy.relay->absoluteRequests.load(), through);

        // --proxy none ignores the environment's proxy: only the proxy knew the SUT's name.
        r = runCli(QStringList{u"run"_s, u"--base-url"_s,
                               u"http://%1:%2"_s.arg(kSutHost).arg(m_sim.port()), u"--proxy"_s,
                               u"none"_s} +
                       kShort,
                   env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("cannot reach"_L1) && !r.err.contains("through proxy"_L1),
                 qPrintable(r.err));
        QCOMPARE(proxy.relay->absoluteRequests.load(), through);
    }

    void httpsTunnelsThroughTheProxy_data()
    {
        QTest::addColumn<QString>("transport");
        QTest::newRow("socket") << u"socket"_s;
        QTest::newRow("qnam") << u"qnam"_s;
    }
    void httpsTunnelsThroughTheProxy()
    {
        QFETCH(QString, transport);
        RelayThread front(Relay::Mode::TlsFront, m_sim.port(), m_serverTls);
        RelayThread proxy(Relay::Mode::ForwardProxy, 0);
        QVERIFY(front.listening() && proxy.listening());
        QProcessEnvironment env = cleanEnv();
        env.insert(u"HTTPS_PROXY"_s, u"127.0.0.1:%1"_s.arg(proxy.relay->port)); // curl's form
        const Result r = runCli(QStringList{u"run"_s, u"--base-url"_s,
                                            u"https://%1:%2"_s.arg(kSutHost).arg(front.relay->port),
                                            u"--transport"_s, transport, u"--ca-file"_s, m_caFile} +
                                    kShort,
                                env);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QRegularExpression(u"Successful requests:\\s+12\\s"_s)),
                 qPrintable(r.out));
        // TLS end to end inside CONNECT tunnels: the proxy never saw a plain request.
        QVERIFY(proxy.relay->tunnels.load() >= 1);
        QCOMPARE(proxy.relay->absoluteRequests.load(), 0);
    }

    void unusableProxySettingsAreClearErrors_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QStringList>("extraArgs");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("socks") << u"http_proxy"_s << u"socks5://127.0.0.1:1080"_s << QStringList()
                               << 1 << u"http_proxy: socks5://127.0.0.1:1080: only http://"_s;
        QTest::newRow("password on the command line")
            << QString() << QString() << QStringList{u"--proxy"_s, u"http://u:pw@127.0.0.1:3128"_s}
            << 2 << u"--proxy must not hold a password"_s;
        QTest::newRow("refused proxy")
            << u"http_proxy"_s << u"http://127.0.0.1:1"_s << QStringList() << 1
            << u"through proxy http://127.0.0.1:1 (environment: "
               "http_proxy)"_s;
    }
    void unusableProxySettingsAreClearErrors()
    {
        QFETCH(QString, variable);
        QFETCH(QString, value);
        QFETCH(QStringList, extraArgs);
        QFETCH(int, code);
        QFETCH(QString, message);
        QProcessEnvironment env = cleanEnv();
        if (!variable.isEmpty())
            env.insert(variable, value);
        const Result r = runCli(QStringList{u"run"_s, u"--base-url"_s,
                                            u"http://%1:%2"_s.arg(kSutHost).arg(m_sim.port())} +
                                    extraArgs + kShort,
                                env);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!r.err.contains("pw@"_L1));
    }
};

QTEST_GUILESS_MAIN(TestTlsProxy)
#include "tst_tlsproxy.moc"
