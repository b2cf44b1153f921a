#pragma once

// Reading and writing a study's JSON in the study tests: the definition written for the CLI, the
// decision read back (its scenarios and candidates by name).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace studytest {

using namespace Qt::StringLiterals;

inline bool writeJson(const QString &path, const QJsonObject &o)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(o).toJson()) > 0;
}

inline QJsonObject readJson(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object()
                                       : QJsonObject();
}

inline QJsonObject scenarioOf(const QJsonObject &decision, const QString &name)
{
    for (const QJsonValue &s : decision[u"scenarios"_s].toArray())
        if (s[u"scenario"_s].toString() == name)
            return s.toObject();
    return {};
}

inline QJsonObject candidateOf(const QJsonObject &scenario, const QString &name)
{
    for (const QJsonValue &c : scenario[u"candidates"_s].toArray())
        if (c[u"candidate"_s].toString() == name)
            return c.toObject();
    return {};
}

} // namespace studytest
