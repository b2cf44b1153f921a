#include "metricsplan.h"

#include "client/proxyconfig.h"
#include "client/requestbuilder.h"

#include <QNetworkRequest>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

bool validName(const QString &name)
{
    static const QRegularExpression re(u"^[A-Za-z0-9._-]{1,64}$"_s);
    return re.match(name).hasMatch() && name != "."_L1 && name != ".."_L1;
}

bool httpUrl(const QString &text, QUrl *out)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != "http"_L1 && url.scheme() != "https"_L1))
        return false;
    for (QChar c : text)
        if (c.unicode() <= 32 || c.unicode() == 127)
            return false;
    *out = url;
    return true;
}

void add(QList<PlanIssue> *issues, const char *field, const char *id, const QStringList &args)
{
    issues->append({QString::fromLatin1(field), Message(id, args)});
}

} // namespace

QString sutMetricsUrl(const SutConfig &sut)
{
    QString base = sut.baseUrl;
    while (base.endsWith(u'/'))
        base.chop(1);
    return base + u"/metrics"_s;
}

void validateServerMetrics(const RunPlan &plan, QList<PlanIssue> *issues)
{
    const ServerMetricsConfig &m = plan.sut.serverMetrics;
    if (m.sut != "auto"_L1 && m.sut != "off"_L1) {
        QUrl url;
        if (!httpUrl(m.sut, &url))
            add(issues, "metrics", "plan.metrics.sut", {m.sut});
        else if (!url.userInfo().isEmpty())
            add(issues, "metrics", "plan.metrics.credentials", {});
    }
    if (m.targets.size() > metricslimits::kMaxTargets)
        add(issues, "metrics-target", "plan.metrics.too_many",
            {QString::number(metricslimits::kMaxTargets)});
    QSet<QString> names;
    for (const MetricsTarget &t : m.targets) {
        if (!validName(t.name))
            add(issues, "metrics-target", "plan.metrics.target.name", {t.name});
        else if (t.name == QLatin1StringView(kSutTargetName) && m.sut != "off"_L1)
            add(issues, "metrics-target", "plan.metrics.target.reserved", {t.name});
        else if (names.contains(t.name))
            add(issues, "metrics-target", "plan.metrics.target.duplicate", {t.name});
        names.insert(t.name);
        QUrl url;
        if (!httpUrl(t.url, &url))
            add(issues, "metrics-target", "plan.metrics.target.url", {t.name, t.url});
        else if (!url.userInfo().isEmpty())
            add(issues, "metrics-target", "plan.metrics.target.credentials", {t.name});
        if (!t.tokenRef.isEmpty() &&
            !((t.tokenRef.startsWith("env:"_L1) && t.tokenRef.size() > 4) ||
              (t.tokenRef.startsWith("keychain:"_L1) && t.tokenRef.size() > 9)))
            add(issues, "metrics-target", "plan.metrics.target.token_ref", {t.name, t.tokenRef});
    }
    const double s = plan.profile.metricsIntervalS;
    if (!(std::isfinite(s) && s >= metricslimits::kMinIntervalS &&
          s <= metricslimits::kMaxIntervalS))
        add(issues, "metrics-interval", "plan.metrics.interval",
            {QString::number(metricslimits::kMinIntervalS),
             QString::number(metricslimits::kMaxIntervalS)});
}

bool parseMetricsTargetFlag(const QString &text, MetricsTarget *out, QString *error)
{
    const int eq = text.indexOf(u'=');
    if (eq <= 0) {
        *error = u"--metrics-target expects NAME=URL[,token-env=VARIABLE|,token-keychain=ENTRY], "
                 "got '%1'"_s.arg(text);
        return false;
    }
    MetricsTarget t;
    t.name = text.left(eq).trimmed();
    QString rest = text.mid(eq + 1).trimmed();
    // The token option is the last comma-separated part; a URL may hold commas of its own.
    static const QRegularExpression option(u",token-(env|keychain)=([^,]*)$"_s);
    const QRegularExpressionMatch m = option.match(rest);
    if (m.hasMatch()) {
        if (m.captured(2).isEmpty()) {
            *error = u"--metrics-target %1: token-%2= needs a name"_s.arg(t.name, m.captured(1));
            return false;
        }
        t.tokenRef = m.captured(1) + u':' + m.captured(2);
        rest = rest.left(m.capturedStart());
    }
    t.url = rest;
    if (t.url.isEmpty()) {
        *error = u"--metrics-target %1: no URL given"_s.arg(t.name);
        return false;
    }
    *out = t;
    return true;
}

QString metricsTargetFlag(const MetricsTarget &t)
{
    QString s = t.name + u'=' + t.url;
    if (t.tokenRef.startsWith("env:"_L1))
        s += u",token-env="_s + t.tokenRef.mid(4);
    else if (t.tokenRef.startsWith("keychain:"_L1))
        s += u",token-keychain="_s + t.tokenRef.mid(9);
    return s;
}

ScraperOptions scraperOptionsFor(double intervalS)
{
    ScraperOptions o;
    o.intervalMs = std::max(1, int(std::lround(intervalS * 1000)));
    o.timeoutMs =
        std::max(1, std::min(metricslimits::kMaxTimeoutMs,
                             int(std::lround(o.intervalMs * metricslimits::kTimeoutFraction))));
    return o;
}

ScrapePlan buildScrapePlan(const RunPlan &plan, const QByteArray &apiKey,
                           const TransportOptions &route, const QProcessEnvironment &env,
                           const QHash<QString, QByteArray> &secrets)
{
    ScrapePlan p;
    p.options = scraperOptionsFor(plan.profile.metricsIntervalS);
    const TransportOptions r = route;
    p.options.setupManager = [r](QNetworkAccessManager *nam) {
        applyTransportOptions(nam, r);
    };
    p.options.setupRequest = [r](QNetworkRequest *req) {
        applyTransportOptions(req, r);
    };

    const SutConfig &sut = plan.sut;
    const ServerMetricsConfig &m = sut.serverMetrics;
    if (m.sut != "off"_L1) {
        ScrapeTarget t;
        t.name = QString::fromLatin1(kSutTargetName);
        t.url = QUrl(m.sut == "auto"_L1 ? sutMetricsUrl(sut) : m.sut);
        t.optional = m.sut == "auto"_L1;
        // The SUT's own endpoint sees what its requests carry: a gateway that needs the key or
        // a header for /v1 usually needs it for /metrics too. The requests' own rules
        // (buildRequestHeaders): a header given for the SUT replaces the API key's, and one
        // that places the key ({api_key}) gets it there instead. Not the body's content type
        // and streaming Accept: a scrape asks for text.
        for (const auto &h : buildRequestHeaders(sut, apiKey, QString())) {
            if (h.first == "Content-Type"_ba || h.first == "Accept"_ba ||
                h.first == "Accept-Encoding"_ba)
                continue;
            t.headers.append(h);
        }
        p.targets.append(t);
        // The simulator's GPU is simulated: its name says so wherever it is shown (notes,
        // evidence sources, the Server tab, the bundle's files), and it stands in only when the
        // user gives no target of their own, so that a user's exporter is never shadowed and its
        // name never shared (docs/server-metrics.md).
        if (sut.builtInSimulator && m.sut == "auto"_L1 && m.targets.isEmpty()) {
            ScrapeTarget gpu;
            gpu.name = QString::fromLatin1(kSimulatedGpuTargetName);
            QString base = sut.baseUrl;
            while (base.endsWith(u'/'))
                base.chop(1);
            gpu.url = QUrl(base + u"/dcgm/metrics"_s);
            gpu.optional = true;
            p.targets.append(gpu);
        }
    }
    for (const MetricsTarget &mt : m.targets) {
        ScrapeTarget t;
        t.name = mt.name;
        t.url = QUrl(mt.url);
        QByteArray token;
        if (mt.tokenRef.startsWith("env:"_L1)) {
            const QString var = mt.tokenRef.mid(4);
            token = env.value(var).toUtf8();
            if (token.isEmpty())
                p.notes.append(u"server metrics: the environment variable %1 (token of '%2') is "
                               "not set: %3 is scraped without a token"_s.arg(
                                   var, mt.name, t.url.toString(QUrl::RemoveUserInfo)));
        } else if (mt.tokenRef.startsWith("keychain:"_L1)) {
            token = secrets.value(mt.tokenRef);
            if (token.isEmpty())
                p.notes.append(
                    u"server metrics: the keychain entry %1 (token of '%2') could not "
                    "be read: %3 is scraped without a token"_s.arg(
                        mt.tokenRef.mid(9), mt.name, t.url.toString(QUrl::RemoveUserInfo)));
        }
        if (!token.isEmpty())
            t.headers.append({"Authorization"_ba, "Bearer "_ba + token});
        p.targets.append(t);
    }
    if (!p.targets.isEmpty()) {
        QStringList what;
        for (const ScrapeTarget &t : std::as_const(p.targets))
            what << u"%1 (%2%3)"_s.arg(t.name, t.url.toString(QUrl::RemoveUserInfo),
                                       t.optional ? u", if it answers"_s : QString());
        p.notes.prepend(u"Server metrics: scraping %1 every %2 s, before the first request and "
                        "after the last."_s.arg(what.join(u", "_s))
                            .arg(plan.profile.metricsIntervalS));
    }
    return p;
}

} // namespace sb
