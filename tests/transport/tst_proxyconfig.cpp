// Proxy settings as curl reads them, the no_proxy rules, the absolute-form request a plain-http
// request becomes through a proxy, and credentials kept out of what is stored.
#include "client/httprequestwriter.h"
#include "client/proxyconfig.h"
#include "config/runplan.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sb;

namespace {
QProcessEnvironment envOf(const QStringList &pairs)
{
    QProcessEnvironment env;
    for (const QString &p : pairs)
        env.insert(p.section(u'=', 0, 0), p.section(u'=', 1));
    return env;
}
} // namespace

class TestProxyConfig : public QObject
{
    Q_OBJECT
private slots:
    void environment_data()
    {
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("proxy"); // expected proxyFor(target), "" = direct
        QTest::newRow("nothing set") << QStringList() << u"http://h:8000/v1"_s << QString();
        QTest::newRow("http_proxy for http") << QStringList{u"http_proxy=http://p:3128"_s}
                                             << u"http://h:8000/v1"_s << u"http://p:3128"_s;
        QTest::newRow("http_proxy not for https")
            << QStringList{u"http_proxy=http://p:3128"_s} << u"https://h/v1"_s << QString();
        QTest::newRow("HTTPS_PROXY upper case")
            << QStringList{u"HTTPS_PROXY=p:8080"_s} << u"https://h/v1"_s << u"http://p:8080"_s;
        QTest::newRow("upper-case HTTP_PROXY ignored (httpoxy)")
            << QStringList{u"HTTP_PROXY=http://evil:1"_s} << u"http://h/v1"_s << QString();
        QTest::newRow("lower case wins")
            << QStringList{u"https_proxy=http://a:1"_s, u"HTTPS_PROXY=http://b:2"_s}
            << u"https://h/"_s << u"http://a:1"_s;
        QTest::newRow("all_proxy fallback")
            << QStringList{u"all_proxy=http://a:9"_s} << u"https://h/"_s << u"http://a:9"_s;
        QTest::newRow("default proxy port 1080")
            << QStringList{u"http_proxy=http://p"_s} << u"http://h/"_s << u"http://p:1080"_s;
        QTest::newRow("no_proxy host") << QStringList{u"http_proxy=http://p:1"_s, u"no_proxy=h"_s}
                                       << u"http://h:8000/"_s << QString();
        QTest::newRow("no_proxy domain suffix")
            << QStringList{u"http_proxy=http://p:1"_s, u"no_proxy=.corp.example"_s}
            << u"http://gpu1.corp.example/"_s << QString();
        QTest::newRow("no_proxy suffix is not a substring")
            << QStringList{u"http_proxy=http://p:1"_s, u"no_proxy=example"_s}
            << u"http://badexample/"_s << u"http://p:1"_s;
        QTest::newRow("no_proxy star") << QStringList{u"http_proxy=http://p:1"_s, u"NO_PROXY=*"_s}
                                       << u"http://any/"_s << QString();
        QTest::newRow("no_proxy CIDR")
            << QStringList{u"http_proxy=http://p:1"_s, u"no_proxy=10.0.0.0/8, 127.0.0.1"_s}
            << u"http://10.2.3.4:8000/"_s << QString();
        QTest::newRow("no_proxy CIDR miss")
            << QStringList{u"http_proxy=http://p:1"_s, u"no_proxy=10.0.0.0/8"_s}
            << u"http://11.2.3.4/"_s << u"http://p:1"_s;
        QTest::newRow("no_proxy port must match")
            << QStringList{u"http_proxy=http://p:1"_s, u"no_proxy=h:9000"_s} << u"http://h:8000/"_s
            << u"http://p:1"_s;
        QTest::newRow("no_proxy port matches")
            << QStringList{u"http_proxy=http://p:1"_s, u"no_proxy=h:8000"_s} << u"http://h:8000/"_s
            << QString();
        QTest::newRow("no_proxy IPv6")
            << QStringList{u"http_proxy=http://p:1"_s, u"no_proxy=fd00::/8"_s}
            << u"http://[fd00::5]:8/"_s << QString();
        QTest::newRow("loopback v4 skips an environment proxy")
            << QStringList{u"http_proxy=http://p:1"_s} << u"http://127.0.0.1:8000/"_s << QString();
        QTest::newRow("loopback 127/8")
            << QStringList{u"https_proxy=http://p:1"_s} << u"https://127.3.2.1/"_s << QString();
        QTest::newRow("loopback v6")
            << QStringList{u"http_proxy=http://p:1"_s} << u"http://[::1]:8/"_s << QString();
        QTest::newRow("localhost")
            << QStringList{u"http_proxy=http://p:1"_s} << u"http://localhost:8000/"_s << QString();
        QTest::newRow("a name is not loopback")
            << QStringList{u"http_proxy=http://p:1"_s} << u"http://localhost.example/"_s
            << u"http://p:1"_s;
    }
    void environment()
    {
        QFETCH(QStringList, env);
        QFETCH(QString, target);
        QFETCH(QString, proxy);
        ProxyConfig c;
        QString error;
        QVERIFY2(ProxyConfig::fromEnvironment(envOf(env), &c, &error), qPrintable(error));
        QCOMPARE(c.proxyFor(QUrl(target)).toString(), proxy);
    }

    void settingOverridesEnvironment()
    {
        const QProcessEnvironment env =
            envOf({u"http_proxy=http://envproxy:1"_s, u"no_proxy=.internal"_s});
        ProxyConfig c;
        QString error;
        QVERIFY(ProxyConfig::resolve(u"none"_s, env, &c, &error));
        QVERIFY(c.isDirect());
        QCOMPARE(c.describe(QUrl(u"http://h/"_s)), u"direct"_s);
        QVERIFY(ProxyConfig::resolve(u"http://mine:3128"_s, env, &c, &error));
        QCOMPARE(c.proxyFor(QUrl(u"https://h/"_s)).toString(), u"http://mine:3128"_s);
        QCOMPARE(c.proxyFor(QUrl(u"http://a.internal/"_s)), QUrl()); // no_proxy still applies
        QCOMPARE(c.describe(QUrl(u"http://a.internal/"_s)), u"direct (no_proxy)"_s);
        // Asked for explicitly, a proxy applies to loopback targets too.
        QCOMPARE(c.proxyFor(QUrl(u"http://127.0.0.1:8000/"_s)).toString(), u"http://mine:3128"_s);
        QVERIFY(ProxyConfig::resolve(QString(), env, &c, &error));
        QCOMPARE(c.describe(QUrl(u"http://h/"_s)),
                 u"http://envproxy:1 (environment: http_proxy, no_proxy)"_s);
        QCOMPARE(c.describe(QUrl(u"http://127.0.0.1:8000/"_s)), u"direct (loopback)"_s);
    }

    void badValuesNameTheVariable_data()
    {
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<QString>("message");
        QTest::newRow("socks") << QStringList{u"https_proxy=socks5://p:1080"_s}
                               << u"https_proxy: socks5://p:1080: only http:// proxies"_s;
        QTest::newRow("https proxy") << QStringList{u"http_proxy=https://p:443"_s}
                                     << u"http_proxy: https://p:443: only http://"_s;
        QTest::newRow("garbage") << QStringList{u"ALL_PROXY=http://:::"_s}
                                 << u"ALL_PROXY: not a proxy URL"_s;
    }
    void badValuesNameTheVariable()
    {
        QFETCH(QStringList, env);
        QFETCH(QString, message);
        ProxyConfig c;
        QString error;
        QVERIFY(!ProxyConfig::fromEnvironment(envOf(env), &c, &error));
        QVERIFY2(error.startsWith(message), qPrintable(error));
    }

    void credentialsAreNeverShownOrStored()
    {
        ProxyConfig c;
        QString error;
        QVERIFY(ProxyConfig::fromEnvironment(envOf({u"http_proxy=http://u:s3cret@p:3128"_s}), &c,
                                             &error));
        // Kept for the connection, left out of every description.
        QCOMPARE(c.http.password(), u"s3cret"_s);
        QVERIFY(!c.describe(QUrl(u"http://h/"_s)).contains("s3cret"_L1));
        QVERIFY(!ProxyConfig::fromEnvironment(envOf({u"http_proxy=socks5://u:s3cret@p:1"_s}), &c,
                                              &error));
        QVERIFY2(!error.contains("s3cret"_L1), qPrintable(error));

        SutConfig sut;
        sut.proxy = u"u:s3cret@proxy.example:3128"_s;
        const QByteArray json = QJsonDocument(sut.toJson()).toJson();
        QVERIFY2(!json.contains("s3cret"), json.constData());
        QVERIFY(json.contains("proxy.example:3128"));
    }

    void absoluteFormThroughAProxy()
    {
        const QUrl url(u"http://gpu1:8000/v1/completions?x=1"_s);
        const QByteArray direct = serializeHttpRequest(url, {}, "{}");
        QVERIFY(direct.startsWith("POST /v1/completions?x=1 HTTP/1.1\r\nHost: gpu1:8000\r\n"));
        const QByteArray proxied = serializeHttpRequest(url, {{"Proxy-Authorization", "forged"}},
                                                        "{}", QUrl(u"http://u:pw@p:3128"_s));
        QVERIFY2(proxied.startsWith("POST http://gpu1:8000/v1/completions?x=1 HTTP/1.1\r\n"
                                    "Host: gpu1:8000\r\n"),
                 proxied.constData());
        QVERIFY(proxied.contains("\r\nProxy-Authorization: Basic " + QByteArray("u:pw").toBase64() +
                                 "\r\n"));
        QVERIFY(!proxied.contains("forged")); // the proxy's credentials are ours to set
        const QByteArray anonymous = serializeHttpRequest(url, {}, "{}", QUrl(u"http://p:3128"_s));
        QVERIFY(!anonymous.contains("Proxy-Authorization"));
    }
};

QTEST_GUILESS_MAIN(TestProxyConfig)
#include "tst_proxyconfig.moc"
