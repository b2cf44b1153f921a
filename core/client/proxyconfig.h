#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcessEnvironment>
#include <QSslCertificate>
#include <QString>
#include <QStringList>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkRequest;

namespace sb {

// Which HTTP proxy a request goes through. Built from the conventional environment variables
// (http_proxy, https_proxy, no_proxy and their upper-case forms, lower case first, as curl reads
// them) or from an explicit setting. Only http:// proxies are supported: plain requests are sent
// to them in absolute form, https requests through a CONNECT tunnel, so TLS stays end to end.
struct ProxyConfig
{
    QUrl http;           // proxy for http:// endpoints; empty: direct
    QUrl https;          // proxy for https:// endpoints; empty: direct
    QStringList noProxy; // hosts that bypass the proxy: "*", "host", ".domain", "host:port", CIDR
    // Loopback targets (localhost, 127.0.0.0/8, ::1) skip a proxy that came from the
    // environment, as Go's net/http does: a proxy cannot reach this machine's loopback, and the
    // built-in simulator lives there. An explicitly set proxy applies to them too.
    bool exemptLoopback = true;
    QString origin; // where the setting came from, for messages and the run's snapshot

    // The setting as a SUT stores it: "" follows the environment, "none" is direct, anything
    // else is the proxy URL for both schemes (with no_proxy still taken from the environment,
    // and loopback targets not exempt).
    static bool resolve(const QString &setting, const QProcessEnvironment &env, ProxyConfig *out,
                        QString *error);
    static bool fromEnvironment(const QProcessEnvironment &env, ProxyConfig *out, QString *error);

    // The proxy for a request to target; empty when it goes direct.
    QUrl proxyFor(const QUrl &target) const;
    bool bypasses(const QUrl &target) const;
    bool isDirect() const { return http.isEmpty() && https.isEmpty(); }
    // "http://proxy:3128 (https_proxy)" or "direct": credentials are never part of it.
    QString describe(const QUrl &target) const;
};

// A proxy URL fit for messages, logs and snapshots: the password removed.
QString redactedProxyUrl(const QUrl &proxy);

// Parses a proxy value as curl does: "host:port" means http://host:port; only http:// is
// accepted. False with a reason naming `what` (e.g. "https_proxy") otherwise.
bool parseProxyUrl(const QString &value, const QString &what, QUrl *out, QString *error);

// Loads the PEM certificates of a CA file to trust besides the system's. False with a reason that
// names the file when it cannot be read or holds no certificate.
bool loadCaFile(const QString &path, QList<QSslCertificate> *out, QString *error);

struct SutConfig;
struct TransportOptions;

// The transport options a SUT asks for: its CA file loaded and its proxy setting resolved
// against the environment. False with a reason that names the SUT field otherwise.
bool resolveTransportOptions(const SutConfig &sut, const QProcessEnvironment &env,
                             TransportOptions *out, QString *error);

// How a run reaches the SUT, for its snapshot and report: {"proxy": "direct" |
// "http://host:port (environment: https_proxy)", "ca_file": path or absent}.
QJsonObject connectionRoute(const SutConfig &sut, const TransportOptions &options);

// For QNetworkAccessManager users (the manager pool, endpoint checks, the GUI's probe): the
// manager's proxy factory (the manager owns it; set even for direct runs, so an
// application-wide proxy never applies unnoticed) and a request's TLS configuration.
void applyTransportOptions(QNetworkAccessManager *nam, const TransportOptions &options);
void applyTransportOptions(QNetworkRequest *request, const TransportOptions &options);

} // namespace sb
