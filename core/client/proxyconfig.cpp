#include "proxyconfig.h"

#include "client/transport.h"
#include "config/runplan.h"

#include <QFile>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkProxyFactory>
#include <QNetworkRequest>
#include <QSslConfiguration>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

// The first non-empty of the named variables, with the name it came from.
QString firstSet(const QProcessEnvironment &env, std::initializer_list<const char *> names,
                 QString *which)
{
    for (const char *name : names) {
        const QString key = QString::fromLatin1(name);
        const QString value = env.value(key).trimmed();
        if (!value.isEmpty()) {
            *which = key;
            return value;
        }
    }
    return {};
}

QStringList splitNoProxy(const QString &value)
{
    QStringList out;
    for (const QString &part : value.split(u',', Qt::SkipEmptyParts)) {
        const QString entry = part.trimmed();
        if (!entry.isEmpty())
            out.append(entry);
    }
    return out;
}

int defaultPort(const QUrl &url)
{
    return url.port(url.scheme() == "https"_L1 ? 443 : 80);
}

bool entryMatches(QString entry, const QUrl &target)
{
    if (entry == "*"_L1)
        return true;
    const QString host = target.host().toLower();
    entry = entry.toLower();
    // An explicit port: "host:port" or "[v6]:port" (a bare IPv6 address has several colons).
    int port = -1;
    if (entry.startsWith(u'[')) {
        const qsizetype close = entry.indexOf(u']');
        if (close > 0) {
            if (entry.mid(close + 1).startsWith(u':'))
                port = entry.mid(close + 2).toInt();
            entry = entry.mid(1, close - 1);
        }
    } else if (entry.count(u':') == 1) {
        const qsizetype colon = entry.indexOf(u':');
        bool ok = false;
        const int p = entry.mid(colon + 1).toInt(&ok);
        if (ok) {
            port = p;
            entry = entry.left(colon);
        }
    }
    if (port >= 0 && port != defaultPort(target))
        return false;

    const QHostAddress address(host);
    if (!address.isNull()) {
        // An address matches an equal address or a CIDR block, never a name suffix.
        const auto subnet = QHostAddress::parseSubnet(entry);
        if (subnet.first.isNull())
            return false;
        return entry.contains(u'/') ? address.isInSubnet(subnet) : address.isEqual(subnet.first);
    }
    while (entry.startsWith(u'.'))
        entry.remove(0, 1);
    if (entry.isEmpty())
        return false;
    return host == entry || host.endsWith(u'.' + entry);
}

} // namespace

QString redactedProxyUrl(const QUrl &proxy)
{
    if (proxy.isEmpty())
        return {};
    return proxy
        .adjusted(QUrl::RemovePassword | QUrl::RemovePath | QUrl::RemoveQuery |
                  QUrl::RemoveFragment)
        .toString();
}

bool parseProxyUrl(const QString &value, const QString &what, QUrl *out, QString *error)
{
    QString text = value.trimmed();
    if (!text.contains("://"_L1))
        text.prepend("http://"_L1); // curl's reading of "host:port"
    const QUrl url(text, QUrl::StrictMode);
    // The message quotes the value without its password.
    const QString shown = url.isValid() ? redactedProxyUrl(url) : u"(unparsable)"_s;
    if (!url.isValid() || url.host().isEmpty()) {
        *error = u"%1: not a proxy URL: %2"_s.arg(what, shown);
        return false;
    }
    if (url.scheme().compare("http"_L1, Qt::CaseInsensitive) != 0) {
        *error = u"%1: %2: only http:// proxies are supported (https endpoints are tunnelled "
                 "through them with CONNECT)"_s.arg(what, shown);
        return false;
    }
    QUrl clean = url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment);
    clean.setScheme(u"http"_s);
    if (clean.port() < 0)
        clean.setPort(1080); // curl's default proxy port
    *out = clean;
    return true;
}

bool ProxyConfig::fromEnvironment(const QProcessEnvironment &env, ProxyConfig *out, QString *error)
{
    ProxyConfig c;
    QString from;
    // Upper-case HTTP_PROXY is not read, as curl does not: a CGI server sets it from a client's
    // "Proxy:" header ("httpoxy").
    const QString all = firstSet(env, {"all_proxy", "ALL_PROXY"}, &from);
    const QString allFrom = from;
    QString httpFrom, httpsFrom;
    QString http = firstSet(env, {"http_proxy"}, &httpFrom);
    QString https = firstSet(env, {"https_proxy", "HTTPS_PROXY"}, &httpsFrom);
    if (http.isEmpty() && !all.isEmpty()) {
        http = all;
        httpFrom = allFrom;
    }
    if (https.isEmpty() && !all.isEmpty()) {
        https = all;
        httpsFrom = allFrom;
    }
    if (!http.isEmpty() && !parseProxyUrl(http, httpFrom, &c.http, error))
        return false;
    if (!https.isEmpty() && !parseProxyUrl(https, httpsFrom, &c.https, error))
        return false;
    QString noFrom;
    c.noProxy = splitNoProxy(firstSet(env, {"no_proxy", "NO_PROXY"}, &noFrom));
    QStringList names;
    if (!httpFrom.isEmpty())
        names.append(httpFrom);
    if (!httpsFrom.isEmpty() && httpsFrom != httpFrom)
        names.append(httpsFrom);
    if (!noFrom.isEmpty() && !c.isDirect())
        names.append(noFrom);
    c.origin = names.isEmpty() ? u"environment"_s : u"environment: "_s + names.join(u", "_s);
    *out = c;
    return true;
}

bool ProxyConfig::resolve(const QString &setting, const QProcessEnvironment &env, ProxyConfig *out,
                          QString *error)
{
    const QString s = setting.trimmed();
    if (s.isEmpty())
        return fromEnvironment(env, out, error);
    ProxyConfig c;
    if (s.compare("none"_L1, Qt::CaseInsensitive) == 0 ||
        s.compare("direct"_L1, Qt::CaseInsensitive) == 0) {
        c.origin = u"proxy setting: none"_s;
        *out = c;
        return true;
    }
    if (!parseProxyUrl(s, u"proxy"_s, &c.http, error))
        return false;
    c.https = c.http;
    c.exemptLoopback = false; // asked for explicitly: even a loopback target goes through it
    QString noFrom;
    c.noProxy = splitNoProxy(firstSet(env, {"no_proxy", "NO_PROXY"}, &noFrom));
    c.origin = noFrom.isEmpty() ? u"proxy setting"_s : u"proxy setting, "_s + noFrom;
    *out = c;
    return true;
}

namespace {
bool isLoopback(const QUrl &target)
{
    const QString host = target.host().toLower();
    if (host == "localhost"_L1 || host.endsWith(".localhost"_L1))
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}
} // namespace

bool ProxyConfig::bypasses(const QUrl &target) const
{
    if (exemptLoopback && isLoopback(target))
        return true;
    for (const QString &entry : noProxy)
        if (entryMatches(entry, target))
            return true;
    return false;
}

QUrl ProxyConfig::proxyFor(const QUrl &target) const
{
    const QUrl &proxy = target.scheme() == "https"_L1 ? https : http;
    if (proxy.isEmpty() || bypasses(target))
        return {};
    return proxy;
}

QString ProxyConfig::describe(const QUrl &target) const
{
    const QUrl proxy = proxyFor(target);
    if (proxy.isEmpty()) {
        const QUrl &configured = target.scheme() == "https"_L1 ? https : http;
        if (configured.isEmpty())
            return u"direct"_s;
        return exemptLoopback && isLoopback(target) ? u"direct (loopback)"_s
                                                    : u"direct (no_proxy)"_s;
    }
    return u"%1 (%2)"_s.arg(redactedProxyUrl(proxy), origin);
}

bool loadCaFile(const QString &path, QList<QSslCertificate> *out, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = u"CA file %1: %2"_s.arg(path, f.errorString());
        return false;
    }
    const QByteArray data = f.readAll();
    QList<QSslCertificate> certs = QSslCertificate::fromData(data, QSsl::Pem);
    if (certs.isEmpty())
        certs = QSslCertificate::fromData(data, QSsl::Der);
    if (certs.isEmpty()) {
        *error = u"CA file %1: no PEM or DER certificate in it"_s.arg(path);
        return false;
    }
    out->append(certs);
    return true;
}

bool resolveTransportOptions(const SutConfig &sut, const QProcessEnvironment &env,
                             TransportOptions *out, QString *error)
{
    TransportOptions o;
    QString why;
    if (!sut.caFile.isEmpty() && !loadCaFile(sut.caFile, &o.extraCaCertificates, &why)) {
        *error = u"SUT %1: ca_file: %2"_s.arg(sut.name, why);
        return false;
    }
    if (!ProxyConfig::resolve(sut.proxy, env, &o.proxy, &why)) {
        *error = u"SUT %1: proxy: %2"_s.arg(sut.name, why);
        return false;
    }
    *out = o;
    return true;
}

QJsonObject connectionRoute(const SutConfig &sut, const TransportOptions &options)
{
    QJsonObject o{{u"proxy"_s, options.proxy.describe(QUrl(sut.baseUrl))},
                  {u"mode"_s, QString::fromLatin1(connectionModeName(options.connectionMode))}};
    if (!sut.caFile.isEmpty())
        o[u"ca_file"_s] = sut.caFile;
    return o;
}

namespace {
class ConfigProxyFactory : public QNetworkProxyFactory
{
public:
    explicit ConfigProxyFactory(ProxyConfig config) : m_config(std::move(config)) {}
    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery &query) override
    {
        const QUrl proxy = m_config.proxyFor(query.url());
        if (proxy.isEmpty())
            return {QNetworkProxy(QNetworkProxy::NoProxy)};
        return {QNetworkProxy(QNetworkProxy::HttpProxy, proxy.host(), quint16(proxy.port(1080)),
                              proxy.userName(), proxy.password())};
    }

private:
    ProxyConfig m_config;
};
} // namespace

void applyTransportOptions(QNetworkAccessManager *nam, const TransportOptions &options)
{
    nam->setProxyFactory(new ConfigProxyFactory(options.proxy));
}

void applyTransportOptions(QNetworkRequest *request, const TransportOptions &options)
{
    if (options.extraCaCertificates.isEmpty())
        return;
    QSslConfiguration conf = request->sslConfiguration();
    conf.addCaCertificates(options.extraCaCertificates);
    request->setSslConfiguration(conf);
}

} // namespace sb
