#include "endpointcheck.h"

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
    QNetworkAccessManager nam;
    QNetworkRequest req(QUrl(base + u"/v1/models"_s));
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
