#include "studyscrub.h"

#include "common/args.h"
#include "config/runplan.h"
#include "report/bundle.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace sb {

namespace {

QJsonValue scrubValue(const QJsonValue &v);

// A flag list: a value after --header, --api-key, --token or --password is looked at as that
// flag's value (the list holds it as a separate element, which scrubCommandLine cannot see).
QJsonArray scrubArray(const QJsonArray &a)
{
    QJsonArray out;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const QString prev = i > 0 ? a.at(i - 1).toString() : QString();
        const QString v = a.at(i).toString();
        if (a.at(i).isString() && prev == "--header"_L1) {
            QPair<QString, QString> kv;
            if (parseHeaderArg(v, &kv) && looksLikeSecretHeader(kv.first) &&
                !isApiKeyReference(kv.second)) {
                out.append(kv.first + u": <redacted>"_s);
                continue;
            }
        }
        if (a.at(i).isString() && !isApiKeyReference(v) &&
            (prev == "--api-key"_L1 || prev == "--token"_L1 || prev == "--password"_L1)) {
            out.append(u"<redacted>"_s);
            continue;
        }
        out.append(scrubValue(a.at(i)));
    }
    return out;
}

QJsonValue scrubValue(const QJsonValue &v)
{
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = scrubValue(it.value());
        return o;
    }
    if (v.isArray())
        return scrubArray(v.toArray());
    if (v.isString())
        return scrubCommandLine(v.toString());
    return v;
}

} // namespace

QJsonObject scrubStudyDefinition(const QJsonObject &definition)
{
    return scrubSecrets(scrubValue(definition).toObject());
}

} // namespace sb
