#include "endpointcheck.h"

#include "client/transport.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace sb::cli {

EndpointCheck checkEndpoint(const SutConfig &sut, const QByteArray &apiKey, int timeoutMs)
{
    EndpointCheck c;
    QString base = sut.baseUrl;
    if (base.endsWith("/v1"_L1))
        base.chop(3);
    TransportOptions options;
    if (!resolveTransportOptions(sut, QProcessEnvironment::systemEnvironment(), &options,
                                 &c.error)) {
        c.settingsError = true;
        return c;
    }
    QNetworkAccessManager nam;
    applyTransportOptions(&nam, options);
    const QUrl url(base + u"/v1/models"_s);
    c.route = options.proxy.describe(url);
    QNetworkRequest req(url);
    applyTransportOptions(&req, options);
    req.setTransferTimeout(timeoutMs);
    if (!apiKey.isEmpty())
        req.setRawHeader("Authorization", "Bearer " + apiKey);
    for (const auto &[k, v] : sut.extraHeaders)
        req.setRawHeader(k.toUtf8(), v.toUtf8());
    QNetworkReply *reply = nam.get(req);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    c.reachable = status.isValid();
    c.httpStatus = status.toInt();
    if (reply->error() != QNetworkReply::NoError)
        c.error = reply->errorString();
    if (c.httpStatus == 200) {
        const auto data = QJsonDocument::fromJson(reply->readAll()).object().value(u"data"_s);
        for (const auto &m : data.toArray())
            c.models.append(m.toObject().value(u"id"_s).toString());
    }
    reply->deleteLater();
    return c;
}

} // namespace sb::cli

#include "data/syntheticprompt.h"

namespace sb::cli {

namespace {
int tokenizeCount(QNetworkAccessManager &nam, const TransportOptions &options, const QUrl &url,
                  const SutConfig &sut, const QByteArray &apiKey, const QString &prompt,
                  int timeoutMs, int *status)
{
    QNetworkRequest req(url);
    applyTransportOptions(&req, options);
    req.setTransferTimeout(timeoutMs);
    req.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    if (!apiKey.isEmpty())
        req.setRawHeader("Authorization", "Bearer " + apiKey);
    const QByteArray body =
        QJsonDocument(QJsonObject{{u"model"_s, sut.model}, {u"prompt"_s, prompt}})
            .toJson(QJsonDocument::Compact);
    QNetworkReply *reply = nam.post(req, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
    reply->deleteLater();
    if (*status != 200 || !o.value(u"count"_s).isDouble())
        return -1;
    return o.value(u"count"_s).toInt();
}
} // namespace

double measureTokensPerWord(const SutConfig &sut, const QByteArray &apiKey, int timeoutMs,
                            QString *note)
{
    QString base = sut.baseUrl;
    if (base.endsWith("/v1"_L1))
        base.chop(3);
    const QUrl url(base + u"/tokenize"_s);
    TransportOptions options;
    if (!resolveTransportOptions(sut, QProcessEnvironment::systemEnvironment(), &options, note))
        return 0;
    QNetworkAccessManager nam;
    applyTransportOptions(&nam, options);
    constexpr int kShort = 100, kLong = 400;
    int status = 0;
    const int a = tokenizeCount(nam, options, url, sut, apiKey, syntheticPrompt(kShort, 1),
                                timeoutMs, &status);
    if (a < 0) {
        *note = u"the server offers no POST /tokenize (HTTP %1): synthetic prompt lengths are "
                "approximate (one token per word)"_s.arg(status);
        return 0;
    }
    const int b = tokenizeCount(nam, options, url, sut, apiKey, syntheticPrompt(kLong, 1),
                                timeoutMs, &status);
    if (b <= a) {
        *note = u"POST /tokenize gave inconsistent counts (%1, %2): not calibrated"_s.arg(a).arg(b);
        return 0;
    }
    const double ratio = double(b - a) / double(kLong - kShort);
    *note = u"calibrated synthetic prompts against POST /tokenize: %1 tokens per word"_s.arg(
        ratio, 0, 'f', 3);
    return ratio;
}

} // namespace sb::cli
