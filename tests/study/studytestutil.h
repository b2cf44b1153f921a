#pragma once

// Reading and writing a study's JSON in the study tests: the definition written for the CLI, the
// decision read back (its scenarios and candidates by name).
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

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

// What `servebench-cli study run FILE --project P` printed before it was killed.
struct KilledRun
{
    QByteArray out;
    QByteArray err;
    bool sawMarker = false;
};

// Runs the study (SB_CLI, the test target's servebench-cli) until its output holds `marker`
// (60 s at most), lets it go on for `graceMs`, and kills it with SIGKILL: no chance to clean
// up, as kill -9 would leave it.
inline KilledRun
killStudyRunAt(const QString &file, const QString &project, const QByteArray &marker, int graceMs,
               const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    KilledRun r;
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QString::fromUtf8(SB_CLI), {u"study"_s, u"run"_s, file, u"--project"_s, project});
    if (!p.waitForStarted())
        return r;
    QElapsedTimer t;
    t.start();
    while (!r.out.contains(marker) && t.elapsed() < 60000) {
        p.waitForReadyRead(50);
        r.out += p.readAllStandardOutput();
    }
    r.sawMarker = r.out.contains(marker);
    if (r.sawMarker)
        QTest::qWait(graceMs);
    p.kill();
    p.waitForFinished();
    r.out += p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace studytest
